"""Worked examples of rules/hitech_tft.md, and the rules they illustrate, one test each."""

import pytest

from simlab.inputs.errors import ScenarioError
from simlab.mechanics.roll_under import extra_hits, roll_table
from simlab.systems.hitech_tft import SYSTEM, ScenarioRequest
from simlab.systems.hitech_tft.reference import damage_of_faces
from simlab.systems.hitech_tft.resolve import range_modifier, resolve
from simlab.systems.hitech_tft.rules import Rules, Scenario


def attack(rules=None, **scenario):
    return resolve(Scenario(**scenario), Rules(**(rules or {})))


def test_tft_3_3_example_adjdx_13_roll_9_gives_2_hits():
    assert extra_hits(13 - 9, step=3, cap=4) == 2
    assert roll_table(13, criticals=True, autofire=True, step=3, cap=4).hits[9] == 2


def test_tft_4_2_example_assault_rifle_vs_flak_jacket_6_and_1_gives_4():
    assert damage_of_faces(attack(weapon="assault rifle", armor="flak jacket"), 1, [6, 1])[0] == 4


def test_tft_4_3_example_broadsword_rolling_8_vs_flak_jacket_gives_6():
    assert damage_of_faces(attack(weapon="broadsword", armor="flak jacket"), 1, [5, 3])[0] == 6


def test_tft_4_5_example_snub_pistol_he_3_and_4_vs_flak_jacket_gives_6():
    assert damage_of_faces(attack(weapon="snub pistol HE", armor="flak jacket"), 1, [3, 4])[0] == 6


def test_tft_5_example_flak_jacket_takes_4_but_8_counts_for_knockdown():
    damage, knock = damage_of_faces(attack(weapon="assault rifle", armor="flak jacket"), 1, [3, 5])
    assert (damage, knock) == (4, 8)
    assert knock >= Rules().knockdown_threshold


def test_tft_4_4_ap_halves_armour_rounding_up():
    assert attack(weapon="gauss rifle", armor="combat TL12").protection == 3
    assert attack(weapon="snub pistol HEAP", armor="nylon").protection == 2


@pytest.mark.parametrize(
    ("range_m", "expected"),
    [
        (4, 0),
        (8, 0),
        (9, -1),
        (16, -1),
        (17, -2),
        (24, -2),
        (25, -4),
        (50, -4),
        (51, -5),
        (52, -5),
        (53, -5),
        (100, -5),
        (101, -6),
        (151, -7),
    ],
)
def test_tft_2_2_rifle_range_bands(range_m, expected):
    assert range_modifier("rifle", range_m, Rules()) == expected


def test_tft_2_2_beyond_50_m_the_metre_table_rules():
    """51 m is -5 for rifles, although 13 megahexes reach 52 m; the old reading is a parameter."""
    assert attack(weapon="med rifle", range_m=51).adj_dx_terms["range"] == -5
    assert range_modifier("rifle", 51, Rules(metre_table_from="mh_14")) == -4
    assert range_modifier("rifle", 53, Rules(metre_table_from="mh_14")) == -5


def test_tft_2_2_melee_needs_the_target_within_reach():
    assert attack(weapon="broadsword").adj_dx_terms["range"] == 0  # blank range: within reach
    assert attack(weapon="broadsword", range_m=4).adj_dx_terms["range"] == 0
    with pytest.raises(ScenarioError, match="within reach, at most 4 m"):
        attack(weapon="broadsword", range_m=40)
    assert attack(weapon="broadsword", range_m=40, rules={"melee_reach_m": 40}).adj_dx_terms["range"] == 0


def test_tft_2_2_blank_range_is_8_m_for_missile_weapons():
    assert (
        attack(weapon="lt pistol").adj_dx_terms["range"] == attack(weapon="lt pistol", range_m=8).adj_dx_terms["range"]
    )


def test_tft_6_2_battle_dress_st_is_a_reading_and_the_output_says_which():
    import simlab

    plain = simlab.attack("hitech_tft", weapon="FG-15", armor="battle TL14", st=10)
    assert "strength only" in plain.details["battle_dress"]
    assert plain.to_json()["resolution"]["battle_dress"] == plain.details["battle_dress"]
    as_hp = simlab.attack(
        "hitech_tft", weapon="FG-15", armor="battle TL14", st=10, rules={"battle_dress_st": "hit_points"}
    )
    assert "as hit points" in as_hp.details["battle_dress"] and "30" in as_hp.details["battle_dress"]
    assert as_hp.metrics["p_killed"] < plain.metrics["p_killed"]
    assert "battle_dress" not in simlab.attack("hitech_tft", weapon="assault rifle", armor="flak jacket").details


def test_tft_2_2_rifle_7_13_other_reading():
    assert range_modifier("rifle", 30, Rules(rifle_7_13_modifier=-3)) == -3


def test_tft_2_2_pistol_and_thrown_lose_one_per_megahex():
    assert [range_modifier("pistol", r, Rules()) for r in (1, 4, 5, 12, 13)] == [0, 0, -1, -2, -3]
    assert range_modifier("thrown", 13, Rules()) == -3
    assert range_modifier("melee", 400, Rules()) == 0


def test_tft_2_adjusted_dx_sums_every_term():
    a = attack(
        weapon="gauss rifle",
        mode="full",
        dx=11,
        talent="expert",
        range_m=20,
        moved_hexes=2,
        fire="opfire",
        laser_scope=True,
        dx_mod=-1,
    )
    # 11 + 2 expert - 2 range - 2 moved - 2 opfire + (2 + 2) full + 1 gyrostab + 2 scope - 1
    assert a.adj_dx == 13


def test_tft_2_6_shotgun_bonus_on_single_and_doubled_for_autoshotgun():
    assert attack(weapon="shotgun pellets").adj_dx_terms["mode_bonus"] == 3
    assert attack(weapon="autoshotgun bullets", mode="half").adj_dx_terms["mode_bonus"] == 5
    with pytest.raises(ScenarioError):
        attack(weapon="shotgun pellets", mode="four")


def test_tft_2_3_heavy_and_crew_served_weapons_after_moving_are_rejected():
    attack(weapon="low tech MG", mode="burst", moved_hexes=1)
    with pytest.raises(ScenarioError, match="moved_hexes"):
        attack(weapon="low tech MG", mode="burst", moved_hexes=2)
    with pytest.raises(ScenarioError, match="moved_hexes"):
        attack(weapon="heavy MG", mode="burst", moved_hexes=1)


def test_tft_2_5_belt_weapons_fire_bursts_only():
    with pytest.raises(ScenarioError, match="burst"):
        attack(weapon="heavy MG", mode="four")
    with pytest.raises(ScenarioError):
        attack(weapon="assault rifle", mode="burst")


def test_tft_3_2_criticals():
    table = roll_table(2, criticals=True, autofire=False, step=3, cap=1)
    assert list(table.hits[3:6]) == [1, 1, 1] and table.hits[6] == 0
    assert (table.multiplier[3], table.multiplier[4]) == (3, 2)
    high = roll_table(30, criticals=True, autofire=False, step=3, cap=1)
    assert list(high.hits[16:19]) == [0, 0, 0] and list(high.weapon_lost[16:19]) == [0, 1, 1]
    plain = roll_table(30, criticals=False, autofire=False, step=3, cap=1)
    assert plain.hits[18] == 1 and plain.multiplier[3] == 1 and plain.weapon_lost.sum() == 0


def test_tft_7_blast_dice_by_distance_and_halved_armour():
    grenade = attack(weapon="grenade TL12", armor="combat TL13")
    assert grenade.blast.dice_at[:5] == (8, 4, 2, 1, 0)
    assert grenade.blast.protection_at[:2] == (3, 6)
    other = resolve(Scenario(weapon="grenade TL12"), Rules(blast_divisors=(1, 2, 8)))
    assert other.blast.dice_at[:4] == (8, 4, 1, 0)


def test_tft_6_3_quickdraw_needs_a_pistol():
    with pytest.raises(ScenarioError, match="quickdraw"):
        attack(weapon="assault rifle", quickdraw=True)


def test_acceptance_assault_rifle_four_round_burst_exact_values():
    result = SYSTEM.attack.answer(
        ScenarioRequest(
            scenario={"weapon": "assault rifle", "armor": "flak jacket", "dx": "12", "mode": "four", "range_m": "20"},
            method="exact",
        )
    )
    assert round(result.metrics["p_hit"], 6) == 0.625
    assert round(result.metrics["mean_hits"], 6) == 0.930556
    assert round(result.metrics["mean_damage"], 6) == 3.333333
    assert sum(result.distributions["damage"].values()) == pytest.approx(1.0)


def test_tft_3_2_critical_thresholds_are_rules():
    """A house rule "6 or less always hits" (automatic_hit_max = 6) at DX 3 hits on 3-6: 20/216; weapon_lost_min = 19
    never loses the weapon; automatic_miss_min = 19 lets DX 18 hit on every roll."""
    import simlab

    def metrics(dx: int, **rules):
        return simlab.attack("hitech_tft", weapon="assault rifle", dx=dx, rules=rules).metrics

    assert metrics(3, automatic_hit_max=6)["p_hit"] == pytest.approx(20 / 216)
    assert metrics(3)["p_hit"] == pytest.approx(10 / 216)
    assert metrics(12, weapon_lost_min=19)["p_weapon_lost"] == 0.0
    assert metrics(18, automatic_miss_min=19)["p_hit"] == pytest.approx(1.0)
