"""The corrected readings of the Striker seed (STR-7.1, STR-8, STR-11.2), each against the old one."""

from __future__ import annotations

import numpy as np
import pytest

import simlab
from simlab.engine.rng import stream_key
from simlab.mechanics.target_number import p_at_least
from simlab.systems.duels import A_WINS, B_WINS
from simlab.systems.striker.duel import resolve_duel
from simlab.systems.striker.reference import numpy_duel_block, python_duel_block
from simlab.systems.striker.resolve import resolve
from simlab.systems.striker.rules import Rules, Scenario
from simlab.systems.striker.sample import _duel_tallies
from tests.conftest import run_cli


@pytest.mark.parametrize("end", [9, 10, 11, 12, 15])
def test_str_7_1_serious_wound_save_is_plus_1_at_end_10_and_above_only(end):
    scenario = Scenario(weapon="rifle", end=end)
    assert resolve(scenario, Rules()).treatment.save_dm == (1 if end >= 10 else 0)
    steps = resolve(scenario, Rules(save_end_dm="steps")).treatment.save_dm
    assert steps == (2 if end >= 12 else 1 if end >= 10 else 0)  # the old reading, kept as a parameter


def test_str_7_1_end_12_dies_later_as_end_10_does():
    def dies_later(end, **rules):
        return simlab.attack("striker", weapon="fusion gun", medic_skill=None, end=end, rules=rules).metrics

    twelve = dies_later(12)
    save_fails = 1 - p_at_least(6, 1)
    expected = twelve["p_not_dead_yet"] + (twelve["p_serious"] + twelve["p_unconscious"]) * save_fails
    assert twelve["p_dies_later"] == pytest.approx(expected, abs=1e-12)
    assert dies_later(12, save_end_dm="steps")["p_dies_later"] < twelve["p_dies_later"]


def test_str_8_snapshot_at_a_running_target_has_no_snapshot_penalty(capsys):
    def p_hit(*options):
        code, out, err = run_cli(capsys, "attack", "striker", "--set", "weapon=rifle", *options, "--exact", "--json")
        assert code == 0, err
        return __import__("json").loads(out)["metrics"]["p_hit"]

    running = p_hit("--set", "target_running=true")
    assert p_hit("--set", "snapshot=true", "--set", "target_running=true") == running
    assert (
        p_hit("--set", "snapshot=true", "--set", "target_running=true", "--rule", "snapshot_at_runner=penalty")
        < running
    )
    assert p_hit("--set", "snapshot=true") < p_hit()  # at a figure that does not run, the penalty stays


def split(side):
    """A side's inputs and its ``weapon.COLUMN`` overrides."""
    rows = {"weapon": {k.split(".")[1]: v for k, v in side.items() if k.startswith("weapon.")}}
    return {k: v for k, v in side.items() if "." not in k}, rows


def duel_tallies(a, b, rules=None, trials=2000):
    (a, a_rows), (b, b_rows) = split(a), split(b)
    duel = resolve_duel(a, b, rules or Rules(max_turns=40), (a_rows, b_rows))
    key = stream_key(5, 2)
    compiled = _duel_tallies(duel, key, 0, trials)
    for twin in (python_duel_block(duel, key, 0, trials), numpy_duel_block(duel, key, 0, trials)):
        for mine, theirs in zip(compiled, twin, strict=True):
            np.testing.assert_array_equal(mine, theirs)
    return compiled


def test_str_11_2_a_burst_needs_two_rounds_left():
    """A magazine of 6 fires one burst of 5 and then has too few rounds: the same duel as a magazine of 5."""
    target = {"weapon": "rifle", "armor": "mesh"}
    six = duel_tallies({"weapon": "assault rifle", "mode": "burst5", "magazines": 1, "weapon.magazine": 6}, target)
    five = duel_tallies({"weapon": "assault rifle", "mode": "burst5", "magazines": 1, "weapon.magazine": 5}, target)
    for a, b in zip(six, five, strict=True):
        np.testing.assert_array_equal(a, b)


def test_str_11_2_suppression_lowers_the_next_shot_of_this_turn_only():
    suppressor = {"weapon": "submachinegun", "mode": "half_clip", "suppressive": True, "magazines": 10}
    target = {"weapon": "rifle", "magazines": 10}
    crushing = Rules(max_turns=60, suppression_first_hit=99, suppression_extra_hit=0)
    _, _, counts = duel_tallies(suppressor, target, crushing, trials=4000)

    # a -99 that lasted would silence the rifle after the first suppressive hit; for one turn it does not
    assert counts[B_WINS] > 0.3 * 4000
    assert counts[A_WINS] < counts[B_WINS]  # suppressive fire wounds only on a natural 12


def test_str_11_2_twins_agree_with_suppressive_fire_on_both_sides():
    side = {"weapon": "submachinegun", "mode": "half_clip", "suppressive": True, "magazines": 3}
    duel_tallies(side, {**side, "weapon": "assault rifle"})
    duel_tallies(side, {"weapon": "assault rifle", "mode": "burst5", "weapon.magazine": 7})


def test_str_11_2_suppressive_fire_in_a_duel_needs_an_autofire_mode(capsys):
    code, _, err = run_cli(capsys, "duel", "striker", "--a", "weapon=rifle", "--a", "suppressive=true", "--b",
                           "weapon=rifle", "--trials", "100")  # fmt: skip
    assert code == 2 and "suppressive" in err and err.startswith("error: side A:")
