"""Tyconian questions besides one attack: explosions, indirect fire, flame, melee, healing (TYC-7 to TYC-9)."""

from __future__ import annotations

import itertools
import json
from typing import Any

import numpy as np
import pytest
from conftest import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import simlab
from simlab.inputs.errors import SimlabError
from simlab.systems import get_system
from simlab.systems.base import ScenarioRequest
from simlab.systems.tyconian.damage import hit_damage
from simlab.systems.tyconian.questions.blast import location_reach, resolve_explosion, resolve_indirect_fire
from simlab.systems.tyconian.questions.flame import resolve_flame
from simlab.systems.tyconian.questions.healing import resolve_healing
from simlab.systems.tyconian.questions.melee import resolve_melee, unarmed_dice
from simlab.systems.tyconian.resolve import LOCATIONS, location_table
from simlab.systems.tyconian.rules import Rules

TYCONIAN = get_system("tyconian")
RULES = Rules()
#: The wound pattern of the shipped healing experiment.
PATTERN = "chest=34 abdomen=22 right_leg=22 left_leg=22"


def ask(kind: str, method: str = "exact", trials: int = 200_000, **scenario: Any) -> Any:
    """One question of the Tyconian system."""
    request = ScenarioRequest(scenario=scenario, method=method, trials=trials, seed=7, threads=2)
    return TYCONIAN.questions[kind].answer(request)


def within(result: Any, name: str, value: float, slack: float = 1e-9) -> bool:
    low, high = result.ci95[name]
    return low - slack <= value <= high + slack


# --- TYC-7.1 explosions ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("distance", "dice"), [(0.0, 8), (0.4, 8), (0.5, 4), (0.9, 4), (1.5, 3), (2.5, 2), (3.5, 1), (4.0, 0), (9.0, 0)]
)
def test_tyc71_worked_example_dice_by_distance(distance, dice):
    result = ask("explosion", explosive="hand grenade", distance_m=distance)
    assert result.metrics["dice"] == dice
    assert result.metrics["mean_locations"] == dice  # one location per die; 8 at ground zero


def test_tyc71_ground_zero_reaches_every_location_and_one_twice():
    reach = location_reach(location_table({}), 8)
    weights = np.bincount(location_table({})[1:], minlength=7) / 20
    assert reach == pytest.approx(1 + weights)
    assert location_reach(location_table({}), 4).sum() == pytest.approx(4)
    assert location_reach(location_table({}), 1) == pytest.approx(weights)
    assert np.all(location_reach(location_table({}), 6) <= 1)


def test_tyc71_shaped_charge_off_axis():
    on = ask("explosion", explosive="shaped charge", distance_m=0.6)
    off = ask("explosion", explosive="shaped charge", distance_m=0.6, on_axis=False)
    assert on.metrics["dice"] == 6 and off.metrics["dice"] == 3  # D 6, B 3; off axis D 3, B 0.75
    assert ask("explosion", explosive="shaped charge", distance_m=0.8, on_axis=False).metrics["dice"] == 0


@pytest.mark.slow
@pytest.mark.parametrize(
    "scenario",
    [
        {"explosive": "hand grenade", "distance_m": 0.0},
        {"explosive": "hand grenade", "distance_m": 1.2, "armor": "flak vest"},
        {"explosive": "rifle grenade", "distance_m": 2.0, "armor": "combat armour", "cover_av": 1},
        {"explosive": "shaped charge", "distance_m": 1.0},
    ],
)
def test_tyc71_sampled_mean_damage_agrees_with_exact(scenario):
    exact = ask("explosion", **scenario)
    sampled = ask("explosion", "monte_carlo", **scenario)
    assert within(sampled, "mean_damage", exact.metrics["mean_damage"])
    assert within(sampled, "mean_locations", exact.metrics["mean_locations"])


@pytest.mark.slow
def test_tyc71_one_location_damage_chi_square():
    """At 3-4 m one die reaches one location: the damage is a mixture of the exact hit damages."""
    sampled = ask("explosion", "monte_carlo", trials=100_000, explosive="hand grenade", distance_m=3.2, armor="helmet")
    weights = np.bincount(location_table({})[1:], minlength=7) / 20
    helmet = {"head": 3}
    expected: dict[int, float] = {}
    for name, w in zip(LOCATIONS, weights, strict=True):
        for value, p in hit_damage(1, helmet.get(name, 0), 0, "normal", RULES).to_dict().items():
            expected[value] = expected.get(value, 0.0) + w * p
    values = sorted(expected)
    observed = np.array([sampled.distributions["damage"].get(v, 0.0) for v in values]) * 100_000
    assert stats.chisquare(observed, np.array([expected[v] for v in values]) * 100_000).pvalue > 1e-3


# --- TYC-7.3, TYC-7.4 lobbed grenades and indirect fire -------------------------------------------


@pytest.mark.parametrize(
    ("inputs", "chance"),
    [
        ({"skill": 12, "observer_skill": 10, "corrections": 1}, 0.60),
        ({"skill": 20, "corrections": 4}, 0.75),  # capped on the ground
        ({"skill": 20, "corrections": 4, "delivery": "orbital"}, 0.85),
        ({"skill": 20, "corrections": 4, "delivery": "hand_held"}, 0.60),
        ({"skill": 9, "delivery": "hand_held"}, 0.20),  # small weapons: half the skill
    ],
)
def test_tyc74_chance_of_indirect_fire(inputs, chance):
    assert ask("indirect_fire", explosive="mortar bomb", **inputs).metrics["p_on_target"] == pytest.approx(chance)


def test_tyc73_lobbed_chances_rise_ten_percent_a_throw_and_halve_at_long_range():
    near = ask("indirect_fire", explosive="hand grenade", delivery="lobbed", rounds=3, range_m=20, skill=10)
    assert near.metrics["mean_on_target"] == pytest.approx(0.5 + 0.6 + 0.7)
    far = ask("indirect_fire", explosive="hand grenade", delivery="lobbed", rounds=1, range_m=40, skill=10)
    assert far.metrics["mean_on_target"] == pytest.approx(0.25)
    with pytest.raises(SimlabError, match="beyond long range"):
        ask("indirect_fire", explosive="hand grenade", delivery="lobbed", range_m=61)


@pytest.mark.slow
@pytest.mark.parametrize(
    "inputs",
    [
        {"explosive": "mortar bomb", "rounds": 1, "skill": 12, "corrections": 2},
        {"explosive": "hand grenade", "delivery": "lobbed", "rounds": 3, "range_m": 25, "skill": 8},
    ],
)
def test_tyc74_sampled_chance_on_target_agrees_with_exact(inputs):
    exact = ask("indirect_fire", **inputs)
    sampled = ask("indirect_fire", "monte_carlo", **inputs)
    for name, value in exact.metrics.items():
        assert within(sampled, name, value), name


def test_tyc74_misses_deviate_at_least_one_step():
    """Hand-held rounds that miss land 5 m away or more: a 4.9 m burst never reaches the target."""
    result = TYCONIAN.questions["indirect_fire"].answer(
        ScenarioRequest(
            scenario={"explosive": "hand grenade", "delivery": "hand_held", "skill": 16},
            row_overrides={"explosive": {"radius_m": 4.9}},
            method="monte_carlo",
            trials=20_000,
            seed=3,
        )
    )
    assert result.metrics["mean_in_burst"] == result.metrics["p_on_target"]


def test_indirect_fire_salvo_incapacitates_more_with_more_rounds():
    one = ask("indirect_fire", "monte_carlo", trials=50_000, explosive="mortar bomb", rounds=1, corrections=2)
    four = ask("indirect_fire", "monte_carlo", trials=50_000, explosive="mortar bomb", rounds=4, corrections=2)
    assert four.metrics["p_incapacitated"] > one.metrics["p_incapacitated"]
    with pytest.raises(SimlabError, match="from 1 to 20"):
        ask("indirect_fire", explosive="mortar bomb", rounds=21)


# --- TYC-7.2 flamethrowers ---------------------------------------------------------------------


@pytest.mark.parametrize(("mode", "seconds"), [("directed", 1), ("area", 1), ("area", 2)])
def test_tyc_7_2_sprays_outside_their_durations_are_errors(capsys, mode, seconds):
    from tests.conftest import run_cli

    args = ["attack", "tyconian", "--kind", "flame", "--set", f"flamer_mode={mode}", "--set", f"seconds={seconds}"]
    code, _, err = run_cli(capsys, *args, "--exact")
    shortest = 2 if mode == "directed" else 3
    assert code == 2 and err.count("\n") == 1 and f"{mode} sprays last {shortest} to 5 seconds" in err


def test_tyc72_directed_first_seconds_and_adjacent_figures():
    first_two = 2 / 6 + 2.5 / 5  # d3 locations at 1 in 6, then d4 at 1 in 5
    assert ask("flame", seconds=2).metrics["mean_location_hits"] == pytest.approx(first_two)
    assert ask("flame", seconds=2, adjacent=True).metrics["mean_location_hits"] == pytest.approx(2 / 6)  # behind
    full = 2 / 6 + 2.5 / 5 + 3.5 / 4 + 4.5 / 3 + 5.5 / 2
    assert ask("flame", seconds=5).metrics["mean_location_hits"] == pytest.approx(full)
    assert ask("flame", seconds=5, cover_av=1).metrics["mean_location_hits"] == 0


def test_tyc72_area_bands_and_dodges():
    assert ask("flame", flamer_mode="area", seconds=3, range_m=2).metrics["mean_location_hits"] == pytest.approx(
        3 * 2.5 / 4
    )
    assert ask("flame", flamer_mode="area", seconds=3, range_m=8).metrics["mean_location_hits"] == pytest.approx(
        3 * 1.5 / 6
    )
    with pytest.raises(SimlabError, match="beyond the area table"):
        ask("flame", flamer_mode="area", range_m=10)
    with pytest.raises(SimlabError, match="directed mode only"):
        ask("flame", flamer_mode="area", dodge_skill=10)
    dodged = ask("flame", seconds=5, dodge_skill=15).metrics["mean_location_hits"]
    assert dodged < ask("flame", seconds=5).metrics["mean_location_hits"]


@pytest.mark.slow
def test_tyc72_sampled_location_hits_agree_with_exact():
    for inputs in ({"seconds": 5, "dodge_skill": 12}, {"flamer_mode": "area", "seconds": 4, "range_m": 5}):
        exact = ask("flame", **inputs)
        sampled = ask("flame", "monte_carlo", **inputs)
        assert within(sampled, "mean_location_hits", exact.metrics["mean_location_hits"])
    burnt = ask("flame", "monte_carlo", trials=50_000, seconds=5)
    put_out = ask("flame", "monte_carlo", trials=50_000, seconds=5, burn_seconds=2)
    assert put_out.metrics["mean_damage"] < burnt.metrics["mean_damage"]


# --- TYC-8 melee -----------------------------------------------------------------------------------


def test_tyc8_unarmed_damage_by_str():
    assert [unarmed_dice(s, {}) for s in (1, 4, 5, 8, 9, 12, 13, 16)] == [1, 1, 2, 2, 3, 3, 4, 4]
    with pytest.raises(SimlabError, match="STR 17"):
        unarmed_dice(17, {})


def test_tyc8_melee_armour_dice_and_blunt_trauma():
    unarmoured = ask("melee", surprise=True, aim_location="chest")
    assert unarmoured.metrics["mean_damage"] == pytest.approx(7.5)  # 3d4
    # AV 2 at the chest rolls 2d6 against 3d4: P(no damage) = P(2d6 >= 3d4)
    armoured = ask("melee", surprise=True, aim_location="chest", armor="flak vest")
    d4s = np.convolve(np.convolve(np.ones(4), np.ones(4)), np.ones(4)) / 64  # 3..12
    d6s = np.convolve(np.ones(6), np.ones(6)) / 36  # 2..12
    none = sum(p * d6s[max(0, v - 2) :].sum() for v, p in zip(range(3, 13), d4s, strict=True))
    assert armoured.distributions["damage"][0] == pytest.approx(none)
    # an armed blow adds 1 blunt trauma per 6 points stopped, rounded off: spear 2d6 against 2d6 of armour
    armed = ask("melee", surprise=True, aim_location="chest", armor="flak vest", melee_weapon="spear")
    expected: dict[int, float] = {}
    for blow, armour in itertools.product(range(2, 13), repeat=2):
        p = d6s[blow - 2] * d6s[armour - 2]
        stopped = min(blow, armour)
        left = blow - stopped + int(stopped / 6 + 0.5)
        expected[left] = expected.get(left, 0.0) + p
    assert armed.distributions["damage"] == pytest.approx(expected)


def test_tyc8_blocks_and_the_unarmed_defender():
    open_blow = ask("melee").metrics["p_hit"]
    blocked = ask("melee", block_skill=10).metrics["p_hit"]
    assert blocked == pytest.approx(0.5 * 0.5 + 0.05 * 0.45)  # a critical strike blocked (not critically) lands half
    assert blocked < open_blow
    armed = {"melee_weapon": "knife", "block_skill": 10}
    assert ask("melee", **armed).metrics["p_hit"] == pytest.approx(0.5)  # unarmed cannot block a knife
    assert ask("melee", defender_armed=True, **armed).metrics["p_hit"] == pytest.approx(0.25)


def test_tyc8_diving_blow():
    result = ask("melee", attack="diving_blow", attacker_str=10, target_str=10, target_end=12)
    # d6 + 20 against 22: wins on 3-6, loses on 1
    assert result.metrics["p_knockdown"] == pytest.approx(4 / 6)
    assert result.metrics["p_attacker_down"] == pytest.approx(1 / 6)
    assert result.metrics["mean_damage"] == pytest.approx((1 + 2 + 3 + 4) / 6)


@pytest.mark.slow
@pytest.mark.parametrize(
    "inputs",
    [
        {"block_skill": 12, "armor": "combat armour"},
        {"melee_weapon": "sword", "armor": "flak vest", "block_skill": 8, "defender_armed": True},
        {"aim_location": "head", "attacker_str": 14, "armor": "helmet"},
        {"attack": "diving_blow", "dodge_skill": 9, "attacker_str": 12},
        {"attack": "grapple", "block_skill": 11, "target_str": 12, "exchanges": 6},
        {"attack": "thrown", "melee_weapon": "knife", "range_m": 30, "dodge_skill": 8, "armor": "flak vest"},
    ],
)
def test_tyc8_sampled_melee_agrees_with_exact(inputs):
    exact = ask("melee", **inputs)
    sampled = ask("melee", "monte_carlo", **inputs)
    for name, value in exact.metrics.items():
        assert within(sampled, name, value, slack=1e-9), name
    if "damage" in exact.distributions:
        values = sorted(exact.distributions["damage"])
        expected = np.array([exact.distributions["damage"][v] for v in values])
        observed = np.array([sampled.distributions["damage"].get(v, 0.0) for v in values])
        keep = expected * 200_000 >= 5
        merged_expected = np.append(expected[keep], expected[~keep].sum()) * 200_000
        merged_observed = np.append(observed[keep], observed[~keep].sum()) * 200_000
        if merged_expected[-1] == 0:
            merged_expected, merged_observed = merged_expected[:-1], merged_observed[:-1]
        assert (
            stats.chisquare(merged_observed, merged_expected * merged_observed.sum() / merged_expected.sum()).pvalue
            > 1e-3
        )


def test_tyc73_thrown_objects_and_knives():
    near = ask("melee", attack="thrown", range_m=20, armor="none", surprise=True)
    assert near.metrics["mean_damage"] == pytest.approx(3.5 + 4)  # 1d6 + STR 10 / 3 rounded up
    knife = ask("melee", attack="thrown", melee_weapon="knife", range_m=20, surprise=True)
    assert knife.metrics["mean_damage"] == pytest.approx(3.5 + 5)  # 1d6 + STR 10 / 2
    assert ask("melee", attack="thrown", range_m=21).metrics["p_hit"] == pytest.approx(0.25)  # long: half skill
    dodged = ask("melee", attack="thrown", range_m=10, dodge_skill=10, block_skill=20)
    assert dodged.metrics["p_hit"] == pytest.approx(0.25)  # dodged, never blocked
    with pytest.raises(SimlabError, match="beyond long range of a throw, 40 m"):
        ask("melee", attack="thrown", range_m=41)
    with pytest.raises(SimlabError, match="only a knife"):
        ask("melee", attack="thrown", melee_weapon="sword")


def test_tyc8_grapple_controls_sooner_with_strength():
    weak = ask("melee", attack="grapple", block_skill=10, attacker_str=6)
    strong = ask("melee", attack="grapple", block_skill=10, attacker_str=14)
    assert strong.metrics["p_control"] > weak.metrics["p_control"]
    assert weak.metrics["p_control"] + weak.metrics["p_controlled"] <= 1 + 1e-12


# --- TYC-9 healing ---------------------------------------------------------------------------------


def heal(trials: int = 20_000, **scenario: Any) -> Any:
    return ask("healing", "monte_carlo", trials=trials, **scenario)


def test_tyc9_unhurt_recovers_and_untreated_critical_bleeds():
    assert heal(wounds="").metrics["p_recovered_day_0"] == 1
    none = heal(wounds="chest=critical", care="none")
    assert none.metrics["p_bled_out"] == 1 and none.metrics["p_survival"] == 0


def test_tyc9_critical_after_14_days_kills():
    """A chest beyond 1.25 C (37.5) heals only by surgery: a medic keeps him alive 13 days, not 14."""
    result = heal(wounds="chest=44", care="medic", medical_skill=19)
    assert result.metrics["p_alive_day_13"] > 0.9
    assert result.metrics["p_survival"] == 0
    assert heal(wounds="chest=44", care="doctor", medical_skill=19).metrics["p_survival"] > 0.5


def test_tyc9_antibiotics_halve_infection():
    plain = heal(wounds="chest=serious", care="doctor")
    treated = heal(wounds="chest=serious", care="doctor", antibiotics=True)
    assert within(plain, "p_infected", 0.2) and within(treated, "p_infected", 0.1)


@pytest.mark.slow
def test_tyc9_survival_rises_with_care():
    """The shipped experiment's claim: none < medic < doctor < hospital, intervals apart."""
    results = [heal(trials=2_000_000, wounds=PATTERN, care=care) for care in ("none", "medic", "doctor", "hospital")]
    for lower, higher in itertools.pairwise(results):
        assert lower.ci95["p_survival"][1] < higher.ci95["p_survival"][0]


def test_tyc9_wound_patterns_are_checked():
    for text, words in (
        ("chest", "LOCATION=POINTS"),
        ("tail=3", "unknown wounds location"),
        ("chest=bad", "unknown wounds level"),
    ):
        with pytest.raises(SimlabError, match=words):
            heal(wounds=text)
    with pytest.raises(SimlabError, match="given twice"):
        heal(wounds="chest=3 chest=4")


# --- the kernels against their plain reference, and threads -------------------------------------------


def resolved(kind: str, **scenario: Any) -> Any:
    return TYCONIAN.questions[kind].check(ScenarioRequest(scenario=scenario))[2]


def test_questions_same_for_any_thread_count_and_block():
    for kind, scenario in (("indirect_fire", {"explosive": "mortar bomb", "rounds": 3}), ("healing", {})):
        question = TYCONIAN.questions[kind]
        one = question.answer(ScenarioRequest(scenario=scenario, method="monte_carlo", trials=30_000, threads=1))
        two = question.answer(
            ScenarioRequest(scenario=scenario, method="monte_carlo", trials=30_000, threads=2, block_size=4_096)
        )
        assert one.metrics == two.metrics


def test_resolvers_reject_bad_rows():
    for resolver, scenario in (
        (resolve_explosion, "explosion"),
        (resolve_indirect_fire, "indirect_fire"),
    ):
        with pytest.raises(SimlabError, match="explosive is required"):
            TYCONIAN.questions[scenario].check(ScenarioRequest(scenario={}))
        assert resolver is not None
    with pytest.raises(SimlabError, match="is unarmed"):
        resolve_melee(TYCONIAN.questions["melee"].inputs_type(attack="grapple", melee_weapon="knife"), RULES)
    with pytest.raises(SimlabError, match="2 to 5 seconds"):
        resolve_flame(TYCONIAN.questions["flame"].inputs_type(seconds=6), RULES)
    with pytest.raises(SimlabError, match="to 120, got 121"):
        resolve_healing(TYCONIAN.questions["healing"].inputs_type(days=121), RULES)


# --- the command line -------------------------------------------------------------------------------


def test_cli_questions(capsys):
    code, out, _ = run_cli(
        capsys, "attack", "tyconian", "--kind", "explosion", "--set", "explosive=hand grenade", "--exact", "--json"
    )
    assert code == 0 and json.loads(out)["metrics"]["dice"] == 8
    code, _, err = run_cli(capsys, "attack", "tyconian", "--kind", "brawl")
    assert code == 2 and "unknown tyconian question 'brawl'" in err and "healing" in err
    code, _, err = run_cli(capsys, "attack", "tyconian", "--kind", "healing", "--exact")
    assert code == 2 and "sampled only" in err
    code, _, err = run_cli(capsys, "attack", "tyconian", "--kind", "melee", "--set", "attack=kick")
    assert code == 2 and "strike" in err
    code, out, _ = run_cli(capsys, "systems")
    assert "question healing (simlab attack --kind healing)" in out
    assert "question indirect_fire" in out


# --- properties ------------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    av=st.integers(0, 5),
    weapon=st.sampled_from(["", "knife", "club", "sword", "spear"]),
    skill=st.integers(1, 19),
    location=st.sampled_from(["", *LOCATIONS]),
)
def test_more_melee_armour_never_raises_damage(av, weapon, skill, location):
    def mean(armour: int) -> float:
        request = ScenarioRequest(
            scenario={"melee_weapon": weapon, "skill": skill, "aim_location": location},
            row_overrides={"armor": {"av": armour, "covers": "all"}},
        )
        result = TYCONIAN.questions["melee"].answer(request)
        assert sum(result.distributions["damage"].values()) == pytest.approx(1)
        return result.metrics["mean_damage"]

    assert mean(av + 1) <= mean(av) + 1e-12


@settings(max_examples=30, deadline=None)
@given(
    explosive=st.sampled_from(["hand grenade", "rifle grenade", "mortar bomb", "shaped charge"]),
    near=st.floats(0, 12),
    further=st.floats(0, 3),
    av=st.integers(0, 4),
)
def test_explosions_never_grow_with_distance_or_armour(explosive, near, further, av):
    def figures(distance: float, armour: int) -> tuple[float, float]:
        request = ScenarioRequest(
            scenario={"explosive": explosive, "distance_m": distance},
            row_overrides={"armor": {"av": armour, "covers": "all"}},
        )
        metrics = TYCONIAN.questions["explosion"].answer(request).metrics
        return metrics["dice"], metrics["mean_damage"]

    dice, damage = figures(near, av)
    assert figures(near + further, av)[0] <= dice
    assert figures(near + further, av)[1] <= damage + 1e-9
    assert figures(near, av + 1)[1] <= damage + 1e-9


@settings(max_examples=25, deadline=None)
@given(skill=st.integers(0, 20), observer=st.integers(0, 20), corrections=st.integers(0, 8))
def test_more_skill_and_corrections_never_lower_the_chance_on_target(skill, observer, corrections):
    def chance(**changes: int) -> float:
        inputs = {"skill": skill, "observer_skill": observer, "corrections": corrections, **changes}
        return ask("indirect_fire", explosive="mortar bomb", **inputs).metrics["p_on_target"]

    base = chance()
    assert chance(skill=skill + 1) >= base and chance(observer_skill=observer + 1) >= base
    assert chance(corrections=corrections + 1) >= base


@pytest.mark.parametrize("method", ["exact", "monte_carlo"])
def test_tyc_6_4_a_head_hit_stopped_by_armour_cannot_stun(method):
    inputs = {"aim_location": "head", "armor": "helmet", "armor__av": 100}
    stopped = simlab.attack("tyconian", kind="melee", method=method, trials=20_000, **inputs).metrics
    assert stopped["mean_damage"] == 0 and stopped["p_stun"] == 0
    through = simlab.attack("tyconian", kind="melee", method=method, trials=20_000, aim_location="head").metrics
    assert through["p_stun"] > 0


def test_tyc_8_a_diving_blow_from_surprise_meets_the_defenders_str_only():
    inputs = {"attack": "diving_blow", "attacker_str": 10, "target_str": 10, "target_end": 10}
    open_blow = simlab.attack("tyconian", kind="melee", **inputs).metrics
    ambush = simlab.attack("tyconian", kind="melee", surprise=True, **inputs).metrics
    # d6 + 20 against 20 (STR + END) lands on 1-6 only above 0; against STR 10 alone every blow lands
    assert open_blow["p_hit"] == pytest.approx(1.0)
    assert ambush["p_hit"] == pytest.approx(1.0) and ambush["mean_damage"] == pytest.approx(3.5 + 10)
    assert open_blow["mean_damage"] == pytest.approx(3.5)
    sampled = simlab.attack("tyconian", kind="melee", method="monte_carlo", trials=20_000, surprise=True, **inputs)
    assert sampled.metrics["mean_damage"] == pytest.approx(13.5, abs=0.1)


@pytest.mark.parametrize(
    ("inputs", "infected"),
    [
        ({"first_aid": "prompt"}, False),
        ({"first_aid": "prompt", "care": "doctor"}, False),
        ({"first_aid": "prompt", "care": "none"}, True),
        ({"first_aid": "prompt", "conditions": "substandard"}, True),
        ({"first_aid": "late"}, True),
        ({}, True),
    ],
)
def test_tyc_9_infection_only_after_late_first_aid_or_substandard_care(inputs, infected):
    wounds = "left_leg=serious right_arm=serious"  # nothing that bleeds to death without care
    result = simlab.attack("tyconian", kind="healing", method="monte_carlo", trials=20_000, wounds=wounds, **inputs)
    assert (result.metrics["p_infected"] > 0) is infected
