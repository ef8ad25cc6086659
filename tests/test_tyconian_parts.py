"""Tyconian rules, part by part: the worked examples and exact pieces (TYC-1 to TYC-6)."""

import itertools

import numpy as np
import pytest

from simlab.inputs.errors import ScenarioError
from simlab.mechanics.d20 import p_critical_success, p_skill_success, round_off
from simlab.systems.tyconian.damage import blunt_trauma, dice_left, hit_damage, location_distribution
from simlab.systems.tyconian.fire import (
    effective_skill,
    p_jam,
    range_band,
    recoil_penalties,
    shot_chances,
    strength_prime,
)
from simlab.systems.tyconian.full_auto import full_auto_fire, table_row
from simlab.systems.tyconian.rules import Rules, action_points, full_auto_rows, hit_locations, weapons
from simlab.systems.tyconian.wounds import capacity, wound_level

RULES = Rules()


def test_tyc1_skill_roll_and_rounding():
    assert p_skill_success(10) == pytest.approx(0.5)
    assert p_skill_success(-5) == pytest.approx(0.05)  # a 1 always succeeds
    assert p_skill_success(40) == pytest.approx(0.95)  # a 20 always fails
    assert p_critical_success() == pytest.approx(0.05)
    assert [round_off(x) for x in (2.5, 2.4, -0.5)] == [3, 2, 0]
    assert [round_off(x, "down") for x in (2.5, 2.9)] == [2, 2]


def test_tyc34_recoil_worked_example():
    assert recoil_penalties([3] * 5, 8) == [0, 0, 1, 4, 7]
    assert recoil_penalties([2] * 5, 8) == [0, 0, 0, 0, 2]  # braced: recoil 3 - 1


def test_tyc34_strength_prime():
    assert strength_prime(9, "still") == 9
    assert strength_prime(9, "walk") == 7
    assert strength_prime(9, "trot") == 4
    assert strength_prime(9, "vehicle", two_weapons=True) == 3
    assert strength_prime(9, "still", two_weapons=True, both_same_second=True) == 7


def test_tyc31_range_bands_and_effective_skill():
    bands = [range_band(r, 20, rules=RULES) for r in (9, 20, 40, 80, 160, 320, 321)]
    assert bands == ["close", "short", "medium", "long", "very_long", "extreme", None]
    assert range_band(35, 20, sights="scope", aimed=True, rules=RULES) == "short"  # R + 15 m, aimed only
    assert range_band(35, 20, sights="scope", aimed=False, rules=RULES) == "medium"
    skill = effective_skill(
        11, 1, "long", target_ran=True, obscured=False, recoil_penalty=1, two_weapon_penalty=0, rules=RULES
    )
    assert skill == round_off((11 + 5) * 0.5 * 0.5) - 1 == 3
    assert shot_chances([3, 10], RULES) == pytest.approx([0.15, 0.5])


def test_tyc36_jam_chance():
    assert p_jam(4, RULES) == 0.0  # 2d6 + 3 is at least 5
    assert p_jam(6, RULES) == pytest.approx(1 / 36)  # only a 2 jams


def test_tyc52_penetration_worked_examples():
    assert dice_left(3, 3, "high") == 1.5
    assert dice_left(3, 1, "low") == 1
    assert dice_left(3, 2, "normal") == 1
    assert dice_left(3, 1, "nil") == 0 and dice_left(3, 0, "nil") == 3
    assert blunt_trauma(1.5, RULES) == 3 and blunt_trauma(2, RULES) == 4


def test_tyc52_damage_of_one_hit_by_enumeration():
    pmf = hit_damage(1.5, 0, 0, "normal", RULES)  # a d8 and a d4
    expected = np.zeros(13)
    for a, b in itertools.product(range(1, 9), range(1, 5)):
        expected[a + b] += 1 / 32
    np.testing.assert_allclose(pmf.probs, expected[pmf.offset :], atol=1e-12)
    armoured = hit_damage(3, 3, 0, "high", RULES)  # 1.5 dice left, 1.5 stopped → 3 blunt trauma
    assert armoured.offset == 2 + 3 and armoured.max_value == 12 + 3
    assert hit_damage(3, 0, 0, "normal", RULES, critical=True).values.tolist() == [24]
    behind_cover = hit_damage(3, 0, 2, "normal", RULES)  # cover stops 2 dice, no blunt trauma
    assert behind_cover.offset == 1 and behind_cover.max_value == 8


def test_tyc51_hit_locations():
    chances = location_distribution(hit_locations())
    assert sum(chances.values()) == pytest.approx(1.0)
    assert chances["head"] == pytest.approx(0.10) and chances["chest"] == pytest.approx(0.25)
    aimed = location_distribution(hit_locations(), aim_steps=1, aimed_at="head")
    assert aimed["head"] == pytest.approx(0.35)  # head, and chest moved one row up


def test_tyc21_action_point_table():
    table = {row.name: row for row in action_points()}
    for row in table.values():
        seconds = [row.second_1, row.second_2, row.second_3, row.second_4, row.second_5]
        assert sum(seconds) == row.points
    assert table["15+"].points == 15 and table["1-2"].points == 5


def test_tyc4_full_auto_dice():
    rows = full_auto_rows()
    assert table_row(4, rows).rof == 3 and table_row(8, rows).rof == 10 and table_row(7, rows).rof == 5
    short = full_auto_fire(3, 1, 30, "short", 10, rows, RULES)
    assert (short.rounds, short.dice, short.p_die) == (30, 30, pytest.approx(1 / 6))
    close = full_auto_fire(3, 1, 30, "close", 10, rows, RULES)
    assert close.p_die == pytest.approx(2 / 6)
    long_range = full_auto_fire(5, 1, 50, "long", 10, rows, RULES)
    assert long_range.dice == 10  # 50 - 40, and never below 10
    half_magazine = full_auto_fire(10, 1, 50, "medium", 10, rows, RULES)
    assert half_magazine.dice == 50 - 15  # the reduction scaled by 50 / 100
    recoil = full_auto_fire(3, 3, 30, "short", 10, rows, RULES)  # R5 15 > STR' 10 → 10 dice off
    assert recoil.dice == 20
    floor = full_auto_fire(10, 4, 100, "long", 8, rows, RULES)  # 60 + 24 off, but at least 20
    assert floor.dice == 20
    assert full_auto_fire(3, 1, 12, "short", 10, rows, RULES).rounds == 12
    hits = short.hits()
    assert hits.total() == pytest.approx(1.0) and hits.mean() == pytest.approx(5.0)
    with pytest.raises(ScenarioError, match="long range at most"):
        full_auto_fire(3, 1, 30, "very_long", 10, rows, RULES)


def test_tyc6_capacity_and_wound_levels():
    assert capacity("head", 10, 11) == 11 and capacity("chest", 10, 11) == 32 and capacity("left_leg", 10, 11) == 21
    c = 20
    levels = [wound_level(d, "left_arm", c) for d in (0, 5, 6, 10, 11, 15, 16, 25, 26, 41)]
    assert levels == ["none", "scratch", "slight", "slight", "serious", "serious", "critical", "critical",
                      "amputated", "amputated"]  # fmt: skip
    assert wound_level(26, "head", c) == "killed" and wound_level(26, "chest", c) == "critical"
    assert wound_level(41, "abdomen", c) == "killed"


def test_weapon_table_rof_codes():
    table = {w.name: w for w in weapons()}
    assert table["assault rifle"].automatic_rof == 3 and table["revolver"].automatic_rof is None


def test_tyc2_fire_plans():
    from simlab.systems.tyconian.plans import fire_plan, points_by_second, shot_costs

    table = action_points()
    w = {x.name: x for x in weapons()}
    assert points_by_second(4, table) == (2, 1, 1, 1, 1) and points_by_second(0, table) == (0,) * 5
    assert fire_plan(4, w["battle rifle"], "quick", 0, table).seconds == (1, 1, 2, 3, 4, 5)
    assert fire_plan(4, w["battle rifle"], "aimed", 2, table).seconds == (2, 5)  # 3 points a shot
    assert fire_plan(10, w["assault rifle"], "quick", 0, table).shots == 3  # ROF 3 caps the shots
    assert fire_plan(10, w["assault rifle"], "burst", 0, table).shots == 5  # 2 points a pull
    assert fire_plan(4, w["bolt rifle"], "quick", 0, table).seconds == (1, 3)  # cycling 2 between shots
    assert fire_plan(15, w["revolver"], "quick", 0, table).shots == 7  # double action: 2 a pull
    assert shot_costs(w["revolver"], False) == (2, 0, None)


def test_fire_plans_set_the_shots_of_an_attack():
    import simlab

    quick = simlab.attack("tyconian", weapon="battle rifle", plan="quick", dex=10)
    assert len(quick.details["effective_skills"]) == 10 and quick.details["plan_seconds"][-1] == 5
    aimed = simlab.attack("tyconian", weapon="battle rifle", plan="aimed", aim=1, dex=12)
    assert len(set(aimed.details["effective_skills"][:2])) == 1  # every shot aimed; recoil not yet over STR
    with pytest.raises(ScenarioError, match="fires in mode burst"):
        simlab.attack("tyconian", weapon="assault rifle", plan="burst")
    with pytest.raises(ScenarioError, match="needs aim"):
        simlab.attack("tyconian", weapon="battle rifle", plan="aimed")


def test_tyc71_explosive_worked_example():
    from simlab.systems.tyconian.questions.explosives import dice_at, explosives, locations_hit, shaped

    grenade = {e.name: e for e in explosives()}["hand grenade"]
    assert (grenade.damage, grenade.radius_m) == (4, 4)
    dice = [dice_at(r, 4, 4) for r in (0.2, 0.7, 1.5, 2.5, 3.5, 4.0)]
    assert dice == [8, 4, 3, 2, 1, 0]
    assert locations_hit(8) == (7, 1)  # 8 locations at ground zero: every one, and one twice
    assert locations_hit(2.5) == (3, 0)
    assert dice_at(1.2, 5, 4) == 4.0 and dice_at(2.2, 5, 4) == 2.5  # 5 - 1.25 → 4 (nearest ½); 5 - 2.5
    assert shaped(6, 3, on_axis=False) == (3, 0.75) and shaped(6, 3, on_axis=True) == (6, 3)


def test_tyc72_flamer_tables():
    from simlab.systems.tyconian.questions.explosives import flamer_area, flamer_directed

    directed = [(r.location_die, r.location_bonus, r.chance_one_in, r.damage_dice) for r in flamer_directed()]
    assert directed == [(3, 0, 6, 1), (4, 0, 5, 2), (4, 1, 4, 3), (4, 2, 3, 4), (4, 3, 2, 5)]  # d3..d4+3, 1 in 6..2
    area = [(r.range_min_m, r.range_max_m, r.location_die, r.chance_one_in) for r in flamer_area()]
    assert area == [(1, 3, 4, 4), (4, 6, 3, 5), (7, 9, 2, 6)]


def test_tyc_3_1_electronic_sights_lengthen_r_for_every_shot_and_close_is_below_half_r():
    from simlab.systems.tyconian.fire import range_band
    from simlab.systems.tyconian.rules import Rules

    rules = Rules()
    assert range_band(30, 20, sights="electronic", aimed=False, rules=rules) == "short"  # R = 20 + 20
    assert range_band(30, 20, sights="scope", aimed=False, rules=rules) == "medium"  # a scope needs aim
    assert range_band(30, 20, sights="scope", aimed=True, rules=rules) == "short"
    old = Rules(electronic_sights="aimed_only", close_range="at_most_half")
    assert range_band(30, 20, sights="electronic", aimed=False, rules=old) == "medium"
    assert range_band(10, 20, rules=rules) == "short"  # exactly R/2 is short range
    assert range_band(9.9, 20, rules=rules) == "close"
    assert range_band(10, 20, rules=old) == "close"


@pytest.mark.parametrize(
    ("fire", "hand", "penalty", "strength_loss"),
    [("one_at_a_time", "off", 5, 1), ("one_at_a_time", "primary", 0, 1), ("same_second", "off", 7, 2),
     ("same_second", "primary", 2, 2)],
)  # fmt: skip
def test_tyc_3_5_two_weapons_in_the_same_second(fire, hand, penalty, strength_loss):
    from simlab.systems.tyconian.resolve import resolve
    from simlab.systems.tyconian.rules import Rules, Scenario

    def attack(**inputs):
        return resolve(Scenario(weapon="autopistol", skill=15, shots=2, **inputs), Rules())

    one = attack()
    two = attack(two_weapons=True, two_weapon_fire=fire, hand=hand)
    assert two.skills[0] == one.skills[0] - penalty
    weaker = attack(firer_str=10 - strength_loss)
    assert two.skills[1] - two.skills[0] == weaker.skills[1] - weaker.skills[0]  # recoil against STR' - loss


def test_tyc_3_5_two_weapon_inputs_need_two_weapons():
    from simlab.inputs.errors import ScenarioError
    from simlab.systems.tyconian.resolve import resolve
    from simlab.systems.tyconian.rules import Rules, Scenario

    with pytest.raises(ScenarioError, match="set two_weapons=true"):
        resolve(Scenario(weapon="autopistol", two_weapon_fire="same_second"), Rules())
