"""Space Combat V4, part by part: damage fractions (SPC-4), the attack roll (SPC-3), point defence (SPC-5)."""

import itertools
from fractions import Fraction

import pytest

from simlab.errors import SimlabError
from simlab.systems.space_v4.exact import attack_dm, exact_attack
from simlab.systems.space_v4.fractions import applied_hits, criticals, fraction_of
from simlab.systems.space_v4.rules import Rules, Scenario

#: The seed's table: exact roll 1/10, 1-2 more 1/4, 3-4 more 1/2, 5-6 more 3/4, 7+ all.
TABLE = {0: Fraction(1, 10), 1: Fraction(1, 4), 2: Fraction(1, 4), 3: Fraction(1, 2), 4: Fraction(1, 2),
         5: Fraction(3, 4), 6: Fraction(3, 4), 7: Fraction(1), 8: Fraction(1), 12: Fraction(1)}  # fmt: skip


@pytest.mark.parametrize(("margin", "fraction"), TABLE.items())
def test_spc42_fraction_by_margin(margin, fraction):
    assert fraction_of(margin) == fraction


@pytest.mark.parametrize(
    ("optimal", "margin", "floor", "nearest"),
    [
        (1, 0, 1, 1),  # one laser, exact roll: a tenth, but never below 1
        (3, 0, 1, 1),
        (30, 0, 3, 3),
        (6, 1, 1, 2),  # 6/4 = 1.5: floor 1, nearest 2
        (9, 2, 2, 2),  # 2.25
        (9, 3, 4, 5),  # 4.5
        (7, 5, 5, 5),  # 5.25
        (10, 6, 7, 8),  # 7.5
        (12, 7, 12, 12),
        (40, 9, 40, 40),
    ],
)
def test_spc42_applied_hits_both_readings(optimal, margin, floor, nearest):
    assert applied_hits(optimal, margin) == floor
    assert applied_hits(optimal, margin, "nearest") == nearest


def test_spc42_minimum_one_and_misses():
    assert all(applied_hits(1, m) == 1 for m in range(0, 10))
    with pytest.raises(SimlabError, match="is a miss"):
        fraction_of(-1)


@pytest.mark.parametrize(("applied", "crits"), [(1, 0), (9, 0), (10, 1), (19, 1), (20, 2), (45, 4)])
def test_spc43_a_critical_per_ten_applied_hits(applied, crits):
    assert criticals(applied) == crits


# --- SPC-3 attack roll and SPC-5 point defence, against brute-force enumeration -------------------

RULES = Rules()
FACES = range(1, 7)


@pytest.mark.parametrize(
    ("inputs", "dm"),
    [
        ({"range_band": "very_short"}, 2),
        ({"range_band": "very_long"}, -2),
        ({"attacker_computer": 4, "defender_computer": 1, "attacker_g": 2, "defender_g": 3}, 3),
        ({"sand": True, "defender_sandcasters": 1, "defender_tons": 200}, -1),
        ({"sand": True, "defender_sandcasters": 4, "defender_tons": 400}, -2),
        ({"sand": True, "defender_sandcasters": 1, "defender_tons": 400}, 0),  # fewer than 1 per 200 tons
        ({"sand": True, "defender_sandcasters": 2, "weapon": "missile"}, 0),  # sand stops lasers only
        ({"gunner_bonus": True}, 1),
    ],
)
def test_spc32_attack_dms(inputs, dm):
    assert attack_dm(Scenario(**inputs), RULES) == dm


def test_spc32_literal_sand_and_spc2_ranges():
    assert attack_dm(Scenario(sand=True), Rules(sand_dm="plus_one")) == 1
    with pytest.raises(SimlabError, match="cannot fire at very_long"):
        attack_dm(Scenario(weapon="pulse", range_band="very_long"), RULES)
    with pytest.raises(SimlabError, match="cannot fire at distant"):
        attack_dm(Scenario(weapon="missile", range_band="distant"), RULES)
    assert attack_dm(Scenario(weapon="missile", range_band="extreme"), Rules(missiles_beyond_very_long=True)) == -5


def brute_force(scenario: Scenario, rules: Rules) -> dict[int, float]:
    """Every roll enumerated: the attack's 2d6, then each point-defence laser's 2d6."""
    from simlab.systems.space_v4.exact import pd_turrets
    from simlab.systems.space_v4.rules import LASERS, OPTIMAL_HITS

    dm = attack_dm(scenario, rules)
    lasers = [turret for turret, n in enumerate(pd_turrets(scenario.pd_turrets)) for _ in range(n)]
    need = rules.pd_dedicated_target if scenario.pd_dedicated else rules.pd_fired_target
    need -= rules.pd_computer_dm if scenario.defender_computer > scenario.attacker_computer else 0
    outcome: dict[int, float] = {}
    rolls = len(lasers) if scenario.weapon not in LASERS else 0
    for dice in itertools.product(FACES, repeat=2 + 2 * rolls):
        p = 6.0 ** -(2 + 2 * rolls)
        total = dice[0] + dice[1] + dm
        hits = 0
        if total >= rules.to_hit:
            alive = [True] * scenario.count
            for i, turret in enumerate(lasers):
                if dice[2 + 2 * i] + dice[3 + 2 * i] >= need:
                    alive[turret % scenario.count] = False
            optimal = OPTIMAL_HITS[scenario.weapon] * (scenario.count if scenario.weapon in LASERS else sum(alive))
            hits = applied_hits(optimal, total - rules.to_hit, rules.fraction_rounding) if optimal else 0
        outcome[hits] = outcome.get(hits, 0.0) + p
    return outcome


@pytest.mark.parametrize(
    ("inputs", "rules"),
    [
        ({"weapon": "beam", "count": 3}, RULES),
        ({"weapon": "pulse", "count": 12, "range_band": "very_short", "attacker_computer": 3}, RULES),
        ({"weapon": "beam", "count": 9, "sand": True, "defender_sandcasters": 2}, Rules(fraction_rounding="nearest")),
        ({"weapon": "missile", "count": 2, "pd_turrets": "1,1"}, RULES),
        ({"weapon": "nuclear", "count": 1, "pd_turrets": "2", "pd_dedicated": True, "defender_computer": 2}, RULES),
        (
            {"weapon": "missile", "count": 3, "pd_turrets": "1", "range_band": "very_long", "defender_computer": 3},
            Rules(pd_computer_dm=-2),
        ),
    ],
)
def test_spc8_exact_applied_hits_equal_brute_force(inputs, rules):
    scenario = Scenario(**inputs)
    exact = exact_attack(scenario, rules)
    assert exact.applied.to_dict(tol=1e-15) == pytest.approx(brute_force(scenario, rules))
    assert exact.applied.total() == pytest.approx(1)


def test_spc33_per_weapon_rolls_spread_the_hits():
    grouped = exact_attack(Scenario(weapon="beam", count=4), RULES)
    separate = exact_attack(Scenario(weapon="beam", count=4), Rules(grouping="per_weapon"))
    assert separate.applied.p_at_least(1) > grouped.applied.p_at_least(1)
    assert separate.metrics()["mean_criticals"] == 0
