"""Tyconian duels: the rules of a fight over several turns (TYC-2.1, TYC-3.5, TYC-5.5, TYC-6.3, TYC-6.4).

Most cases here are made deterministic: every to-hit roll a critical success (maximum damage)
and every d20 location the chest, so a duel's course follows from the rules alone. The
kernel and both of its twins run each case and must agree.
"""

from typing import Any

import numpy as np
import pytest

import simlab
from simlab.engine.rng import stream_key
from simlab.systems.duels import duel_estimates
from simlab.systems.tyconian.duel import BONUS_TURN, PLAIN_TURN, TACTICS_TURN, resolve_duel
from simlab.systems.tyconian.duel_reference import numpy_duel_block, python_duel_block
from simlab.systems.tyconian.plans import points_by_second
from simlab.systems.tyconian.rules import Rules, action_points, hit_locations
from simlab.systems.tyconian.sample import _duel_tallies

#: Every roll a critical success: every shot hits for its maximum damage (TYC-5.4).
ALWAYS_CRITICAL = {"critical_success_max": 20, "critical_failure_min": 21}
#: Every d20 location the chest; the other rows moved out of the d20's reach.
CHEST_ONLY = hit_locations().with_rows(
    {
        "chest": {"roll_min": 1, "roll_max": 20},
        **{
            name: {"roll_min": 21 + i, "roll_max": 21 + i}
            for i, name in enumerate(["head", "abdomen", "right_arm", "left_arm", "right_leg", "left_leg"])
        },
    }
)


#: Duels on which both twins are checked against the kernel (each test's own trials are the kernel's).
TWIN_TRIALS = 400


def duel_metrics(
    a: dict[str, Any],
    b: dict[str, Any],
    rules: dict[str, Any],
    rows: tuple[dict[str, Any], dict[str, Any]] = ({}, {}),
    trials: int = 400,
) -> dict[str, float]:
    """The metrics of ``trials`` duels from the kernel, after checking both twins give its tallies.

    The twins (plain Python: slow) are checked on the first :data:`TWIN_TRIALS` duels of the same stream.
    """
    duel = resolve_duel(a, b, Rules(**rules), rows, {"hit_locations": CHEST_ONLY})
    key = stream_key(15, 3)
    checked = min(trials, TWIN_TRIALS)
    first = _duel_tallies(duel, key, 0, checked)
    for twin in (python_duel_block(duel, key, 0, checked), numpy_duel_block(duel, key, 0, checked)):
        for mine, theirs in zip(first, twin, strict=True):
            np.testing.assert_array_equal(mine, theirs)
    compiled = first if checked == trials else _duel_tallies(duel, key, 0, trials)
    return duel_estimates(compiled, trials).metrics


def test_tyc_6_4_knockdown_in_duels_costs_the_next_turn():
    """A's 4-point hit at second 4 of turn 1 exceeds B's DEX 1: B, whose Tactics roll left no
    points for a shot in turn 1, cannot fire its killing shot at second 3 of turn 2; A's second
    hit then gives B a slight wound, DEX 1 - 2 <= 0, and A wins at second 9."""
    a = {"weapon": "battle rifle", "dex": 1, "aim": 3}
    b = {"weapon": "battle rifle", "dex": 1, "aim": 3, "tactics": "success"}
    rows = ({"weapon": {"damage": 0.5}}, {"weapon": {"damage": 5}})  # a d4 (4 on a critical); 5d8 (40)
    knocked = duel_metrics(a, b, ALWAYS_CRITICAL, rows)
    assert knocked["p_a_wins"] == 1.0 and knocked["mean_seconds"] == 9.0
    # In cloth A's hit is 1 point of blunt trauma, not above DEX 1: B stays up and fires first.
    standing = duel_metrics(a, {**b, "armor": "cloth"}, ALWAYS_CRITICAL, rows)
    assert standing["p_b_wins"] == 1.0 and standing["mean_seconds"] == 8.0


def test_tyc_6_4_knockdown_counts_every_hit_of_the_turn():
    """A's two 4-point hits at second 1 against B's DEX 5: the turn's 8 knocks B down (phase), so
    A's next two hits (16, serious: DEX 5 - 6 <= 0) win at second 6; judged hit by hit (shot) B
    stays up, fires again at second 6 and both go down."""
    a = {"weapon": "battle rifle", "dex": 25, "end": 18}
    b = {"weapon": "battle rifle", "dex": 5}
    rows = ({"weapon": {"damage": 0.5, "rof": "2"}}, {"weapon": {"damage": 2.5, "rof": "1"}})  # 4 and 20 a hit
    phase = duel_metrics(a, b, ALWAYS_CRITICAL, rows)
    shot = duel_metrics(a, b, {**ALWAYS_CRITICAL, "knockdown_damage": "shot"}, rows)
    assert phase["p_a_wins"] == 1.0 and phase["mean_seconds"] == 6.0
    assert shot["p_both_down"] == 1.0 and shot["mean_seconds"] == 6.0


def test_tyc_6_3_the_consciousness_roll_repeats_every_turn_the_figure_acts():
    """B's one shot gives A a serious chest wound (20 of 40); A rolls 3d6 under END 10 (1/2) then,
    under the seed's reading, again in each of turns 2-4: A stays up with 1/16, not 1/2."""
    a = {"weapon": "battle rifle", "dex": 25}  # DEX 25: the 20 points do not knock A down
    b = {"weapon": "battle rifle", "magazines": 1, "dex": 25, "end": 3}  # A's own END counts, not B's
    rows = ({"weapon": {"damage": 0}}, {"weapon": {"damage": 2.5, "magazine": 1}})
    trials = 20_000
    every = duel_metrics(a, b, {**ALWAYS_CRITICAL, "max_turns": 4}, rows, trials)
    once = duel_metrics(a, b, {**ALWAYS_CRITICAL, "max_turns": 4, "consciousness_roll": "once"}, rows, trials)
    for metrics, chance in ((every, 1 / 16), (once, 1 / 2)):
        assert abs(metrics["p_neither"] - chance) < 4 * (chance * (1 - chance) / trials) ** 0.5
        assert metrics["p_b_wins"] == pytest.approx(1 - metrics["p_neither"])


def test_tyc_5_5_armour_penetrated_twice_loses_an_av():
    """2 dice through AV 1 do 8 + 2 blunt trauma; once the chest armour is worn to AV 0 they do 16.
    Against a chest of capacity 42 (critical above 31.5) the third hit is critical (10 + 10 + 16),
    without wear only the fourth (10 x 3 = 30)."""
    a = {"weapon": "battle rifle"}
    b = {"weapon": "battle rifle", "armor": "cloth", "dex": 25, "end": 18}
    rows = ({"weapon": {"damage": 2, "rof": "1"}}, {"weapon": {"damage": 0}})  # ROF 1: one shot a turn
    worn = duel_metrics(a, b, ALWAYS_CRITICAL, rows)
    kept = duel_metrics(a, b, {**ALWAYS_CRITICAL, "armor_wear": "none"}, rows)
    assert worn["p_a_wins"] == kept["p_a_wins"] == 1.0
    assert worn["mean_turns"] == 3.0 and kept["mean_turns"] == 4.0


def test_tyc_2_1_tactics_points_by_second():
    table = action_points()
    assert points_by_second(10, table, 1) == (3, 2, 2, 2, 2)  # as DEX 11
    assert points_by_second(13, table, 2) == (3, 3, 3, 3, 3)  # 15
    assert points_by_second(15, table, 2) == (3, 3, 3, 3, 3)  # never above 15
    assert points_by_second(3, table, 1) == (2, 1, 2, 1, 1)  # 6 + 1: as DEX 5


def test_tyc_2_1_tactics_in_fire_plans():
    def seconds(tactics: str) -> list[int]:
        return simlab.attack("tyconian", weapon="battle rifle", plan="quick", dex=10, tactics=tactics).details[
            "plan_seconds"
        ]

    assert seconds("none") == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    assert seconds("roll") == [2, 2, 3, 3, 4, 4, 5, 5]  # the roll's 2 points first
    assert len(seconds("success")) == 11 and len(seconds("critical")) == 12
    with pytest.raises(simlab.SimlabError, match="set plan"):
        simlab.attack("tyconian", weapon="battle rifle", tactics="success")


def test_tyc_2_1_tactics_in_duels():
    duel = resolve_duel(
        {"weapon": "battle rifle", "tactics": "critical"}, {"weapon": "battle rifle"}, Rules(), ({}, {})
    )
    shots = duel.plan_shots[0]
    assert shots[PLAIN_TURN, 0, 10] == 10
    assert shots[TACTICS_TURN, 0, 10] == 8  # turn 1: the roll's 2 points
    assert shots[BONUS_TURN, 0, 10] == 12  # turns 2-6
    assert (duel.plan_shots[1, TACTICS_TURN] == duel.plan_shots[1, PLAIN_TURN]).all()  # B made no roll


def test_tyc_3_5_two_weapons_in_duels():
    one = resolve_duel({"weapon": "autopistol", "two_weapons": True}, {"weapon": "autopistol"}, Rules(), ({}, {}))
    both = resolve_duel(
        {"weapon": "autopistol", "two_weapons": True, "two_weapon_fire": "same_second"},
        {"weapon": "autopistol"},
        Rules(),
        ({}, {}),
    )
    assert list(one.plans[0, PLAIN_TURN, 0, 12, :5]) == [1, 2, 3, 4, 5]  # one shot a second
    assert list(both.plans[0, PLAIN_TURN, 0, 12, :12]) == [1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 5, 5]  # pairs
    names = ["primary_penalty", "off_penalty", "str_loss", "magazine"]
    from simlab.systems.tyconian.duel import SIDE_FIELDS

    def side(duel: Any) -> list[int]:
        return [int(duel.sides[0, SIDE_FIELDS.index(n)]) for n in names]

    assert side(one) == [0, 5, 1, 30] and side(both) == [2, 7, 2, 30]
    with pytest.raises(simlab.SimlabError, match="side A: two weapons"):
        resolve_duel(
            {"weapon": "submachinegun", "mode": "full_auto", "two_weapons": True},
            {"weapon": "rifle"},
            Rules(),
            ({}, {}),
        )


def test_tyc_6_3_a_first_scratch_makes_a_figure_hesitate():
    """count_wounds (the duel's and the battle's): the first wounds all scratches hesitate; a figure that goes
    straight to a slight wound, or is scratched again, does not."""
    from simlab.systems.tyconian.kernels import count_wounds

    capacity = np.full((1, 7), 40, np.int64)  # scratch up to 10, slight up to 20

    def count(damage: list[int], before: int = 0) -> bool:
        pending = np.array([damage], np.int64)
        level = np.zeros((1, 7), np.int64)
        wounds = np.array([before], np.int64)
        flags = [np.zeros(1, bool) for _ in range(2)]
        *_, hesitates = count_wounds.py_func(
            np.uint64(0), np.uint64(1), 0, pending, np.zeros((1, 7), np.int64), level, capacity, 0,
            np.zeros(7, np.int64), 10, np.array([10]), np.array([10]), *flags, np.zeros(1, np.int64), False, wounds,
        )  # fmt: skip
        return bool(hesitates)

    assert count([0, 5, 0, 0, 0, 0, 0])
    assert count([0, 5, 3, 0, 0, 0, 0])  # two scratches at once
    assert not count([0, 15, 0, 0, 0, 0, 0])  # straight to slight
    assert not count([0, 5, 15, 0, 0, 0, 0])
    assert not count([0, 5, 0, 0, 0, 0, 0], before=1)  # wounded before


def test_tyc_3_6_a_jam_is_checked_at_the_turn_end_and_its_points_paid_first():
    """jam_check: 2d6 + 3 below the shots jams (always at 16 shots, never at 5, where no die is rolled);
    the d4 points to clear come off the next turn's points: fewer shots in that turn's plan."""
    from simlab.engine.interpreted import interpreted
    from simlab.systems.tyconian.kernels import jam_check

    check = interpreted(jam_check)
    gamma = np.uint64(stream_key(1, 0).gamma)
    with np.errstate(over="ignore"):
        for w in range(50):
            _, made, points = check(np.uint64(w), gamma, 16, 3, 4)
            assert made == 2 and 1 <= points <= 4
            assert check(np.uint64(w), gamma, 5, 3, 4)[1:] == (0, 0)
    duel = resolve_duel({"weapon": "battle rifle", "dex": 15}, {"weapon": "battle rifle"}, Rules(), ({}, {}))
    shots = duel.plan_shots[0, PLAIN_TURN, :, 15]
    assert list(shots) == sorted(shots, reverse=True) and shots[4] < shots[0]


def test_tyc_3_6_and_tyc_6_3_jams_and_hesitation_move_duels():
    """A battle rifle that always jams (jam_bonus -20) pays for it in the next turns (bursts never jam), and
    without hesitation the duel differs from the one with it: both rules are in the duel."""
    a, b = {"weapon": "battle rifle", "dex": 15}, {"weapon": "assault rifle", "mode": "burst", "dex": 15}

    def duel(**rules: Any):
        return simlab.duel("tyconian", a=a, b=b, rules=rules, trials=40_000, seed=2)

    plain, jammed, calm = duel(), duel(jam_bonus=-20), duel(hesitation_seconds=0)
    assert jammed.metrics != plain.metrics
    assert calm.metrics != plain.metrics
