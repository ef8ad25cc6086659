"""Space Combat V4, part by part: damage fractions (SPC-4), the attack roll (SPC-3), point defence (SPC-5)."""

import itertools
from fractions import Fraction

import pytest

from simlab.inputs.errors import SimlabError
from simlab.systems.space_v4.exact import exact_attack
from simlab.systems.space_v4.fractions import applied_hits, criticals, fraction_of
from simlab.systems.space_v4.resolve import pd_turrets, resolve
from simlab.systems.space_v4.rules import LASERS, OPTIMAL_HITS, Rules, Scenario

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


def dm_of(inputs: dict, rules: Rules = RULES) -> int:
    return resolve(Scenario(**inputs), rules).dm


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
    assert dm_of(inputs) == dm


def test_spc32_literal_sand_and_spc2_ranges():
    assert dm_of({"sand": True}, Rules(sand_dm="plus_one")) == 1
    for out_of_range in (
        {"weapon": "pulse", "range_band": "very_long"},
        {"weapon": "missile", "range_band": "distant"},
    ):
        attack = resolve(Scenario(**out_of_range), RULES)
        assert not attack.in_range and exact_attack(attack).metrics()["p_hit"] == 0
    assert dm_of({"weapon": "missile", "range_band": "extreme"}, Rules(missiles_beyond_very_long=True)) == -5
    assert dm_of({"weapon": "nuclear", "range_band": "distant"}, Rules(missiles_beyond_very_long=True)) == -2


def brute_force(scenario: Scenario, rules: Rules) -> tuple[dict[int, float], float]:
    """Every roll enumerated: each attack roll's 2d6, then each point-defence laser's 2d6.

    Returns the distribution of applied hits and the mean criticals.
    """
    s = resolve(scenario, rules).scenario
    dm = dm_of(scenario.__dict__, rules)
    laser = s.weapon in LASERS
    lasers = [] if laser else [turret for turret, n in enumerate(pd_turrets(s.pd_turrets)) for _ in range(n)]
    need = rules.pd_dedicated_target if s.pd_dedicated else rules.pd_fired_target
    need -= rules.pd_computer_dm if s.defender_computer > s.attacker_computer else 0
    groups = [list(range(s.count))] if rules.grouping == "by_type" else [[i] for i in range(s.count)]
    reduction = rules.engineer_reduction if s.engineer_bonus else 0
    outcome: dict[int, float] = {}
    mean_crits = 0.0
    n_dice = 2 * len(groups) + 2 * len(lasers)
    for dice in itertools.product(FACES, repeat=n_dice):
        p = 6.0**-n_dice
        total_hits = crits = 0
        pd_rolls = dice[2 * len(groups) :]
        for g, members in enumerate(groups):
            natural = dice[2 * g] + dice[2 * g + 1]
            total = natural + dm
            hit = total >= rules.to_hit
            if rules.natural_rules:  # SPC-3.1: 2 always misses, 12 always hits
                hit = natural == 12 or (natural != 2 and hit)
            if not hit:
                continue
            alive = set(members)
            for i, turret in enumerate(lasers):
                target = turret % s.count
                if target in members and pd_rolls[2 * i] + pd_rolls[2 * i + 1] >= need:
                    alive.discard(target)
            optimal = OPTIMAL_HITS[s.weapon] * len(alive)
            hits = applied_hits(optimal, max(0, total - rules.to_hit), rules.fraction_rounding) if optimal else 0
            hits = max(0, hits - reduction)
            total_hits += hits
            crits += hits // rules.hits_per_critical
        if rules.crit_accounting == "cumulative":
            crits = total_hits // rules.hits_per_critical
        outcome[total_hits] = outcome.get(total_hits, 0.0) + p
        mean_crits += p * crits
    return outcome, mean_crits


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
        ({"weapon": "beam", "count": 3, "engineer_bonus": True}, RULES),
        ({"weapon": "beam", "count": 3}, Rules(grouping="per_weapon")),
        ({"weapon": "missile", "count": 2, "pd_turrets": "1"}, Rules(grouping="per_weapon")),
        ({"weapon": "nuclear", "count": 2, "range_band": "very_short", "gunner_bonus": True}, RULES),
        ({"weapon": "nuclear", "count": 2, "range_band": "very_short"}, Rules(hits_per_critical=4)),
        (
            {"weapon": "beam", "count": 3},
            Rules(grouping="per_weapon", hits_per_critical=2, crit_accounting="cumulative"),
        ),
        ({"weapon": "missile", "count": 1, "range_band": "very_long"}, Rules(natural_rules=True, to_hit=12)),
    ],
)
def test_spc8_exact_applied_hits_equal_brute_force(inputs, rules):
    scenario = Scenario(**inputs)
    exact = exact_attack(resolve(scenario, rules))
    distribution, mean_crits = brute_force(scenario, rules)
    assert exact.applied.to_dict(tol=1e-15) == pytest.approx(distribution)
    assert exact.applied.total() == pytest.approx(1)
    assert exact.metrics()["mean_criticals"] == pytest.approx(mean_crits)


def test_spc33_per_weapon_rolls_spread_the_hits():
    grouped = exact_attack(resolve(Scenario(weapon="beam", count=4), RULES))
    separate = exact_attack(resolve(Scenario(weapon="beam", count=4), Rules(grouping="per_weapon")))
    assert separate.applied.p_at_least(1) > grouped.applied.p_at_least(1)
    assert separate.metrics()["mean_criticals"] == 0


def test_spc6_engineer_takes_one_hit_off_each_attack():
    plain = exact_attack(resolve(Scenario(weapon="beam", count=1), RULES))
    reduced = exact_attack(resolve(Scenario(weapon="beam", count=1, engineer_bonus=True), RULES))
    assert plain.metrics()["p_hit"] == pytest.approx(15 / 36)
    assert reduced.metrics()["p_hit"] == 0
    off = exact_attack(resolve(Scenario(weapon="beam", engineer_bonus=True), Rules(engineer_reduction=0)))
    assert off.metrics() == plain.metrics()
