"""What every system's battles tally and report (ENG-2, ENG-5), and how figures pick targets.

A battle kernel keeps, per figure, its state (standing, incapacitated, killed) and, per side,
the figures standing after every turn; at the end of a trial :func:`record_battle` adds the
outcome, the figures standing, killed and incapacitated, the turns, the ammunition spent and
the standing series to int64 tallies. :func:`battle_estimates` turns the summed tallies into
the metrics of ENG-5 with 95 % intervals. :func:`assign_targets` is the doctrine's choice of
targets (ENG-2), one definition for every kernel.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from simlab.engine.blocks import Tallies
from simlab.engine.intervals import mean_interval, wilson
from simlab.systems.base import Deferred, Question

__all__ = [
    "STANDING",
    "DRAW",
    "INCAPACITATED",
    "KILLED",
    "OUTCOMES",
    "FOCUS",
    "SPREAD",
    "RANDOM",
    "WEAKEST",
    "BattleShape",
    "new_battle_tallies",
    "record_battle",
    "battle_outcome",
    "break_threshold",
    "battle_estimates",
    "battle_metric_names",
    "BATTLE_METRICS",
    "BATTLE_SERIES",
    "SAME_SECOND",
    "BATTLE_DISTRIBUTIONS",
    "battle_question",
]

# A figure's state.
STANDING, INCAPACITATED, KILLED = 0, 1, 2
# How a battle ends: indices of the outcome counts (ENG-5).
A_WINS, B_WINS, BOTH_OUT, DRAW, A_BREAKS, B_BREAKS = range(6)
OUTCOMES = ("p_a_wins", "p_b_wins", "p_both_out", "p_draw", "p_a_breaks", "p_b_breaks")
# Further counts.
TURNS, TURNS_SQ, DRAWS = 6, 7, 8
# Per-side counts, from SIDE_COUNTS + 8 * side.
SIDE_COUNTS = 9
S_STANDING, S_STANDING_SQ, S_KILLED, S_KILLED_SQ, S_INCAPACITATED, S_INCAPACITATED_SQ, S_ROUNDS, S_ROUNDS_SQ = range(8)
N_COUNTS = SIDE_COUNTS + 16
# Doctrines of target choice (ENG-2), in the order of simlab.inputs.battles.TARGETS.
FOCUS, SPREAD, RANDOM, WEAKEST = range(4)

#: Metrics of every battle: name → description (the series are listed by battle_metric_names).
BATTLE_METRICS = {
    "p_a_wins": "probability that side b is out and some of side a stands (ENG-5)",
    "p_b_wins": "probability that side a is out and some of side b stands",
    "p_both_out": "probability that both sides are out at the same time",
    "p_draw": "probability that the battle is undecided after max_turns (or both sides break at once)",
    "p_a_breaks": "probability that side a withdraws (break_at, ENG-2)",
    "p_b_breaks": "probability that side b withdraws",
    "mean_turns": "expected length of the battle in turns (Tyconian also mean_seconds)",
    "mean_standing_a": "expected figures of side a standing at the end",
    "mean_standing_b": "expected figures of side b standing at the end",
    "mean_killed_a": "expected figures of side a killed",
    "mean_killed_b": "expected figures of side b killed",
    "mean_incapacitated_a": "expected figures of side a out but not killed",
    "mean_incapacitated_b": "expected figures of side b out but not killed",
    "mean_rounds_a": "expected rounds (Space: missiles and shots) side a spends",
    "mean_rounds_b": "expected rounds side b spends",
    "mean_first_turn_out_a": "expected figures of side a out after the first turn",
    "mean_first_turn_out_b": "expected figures of side b out after the first turn",
    "exact_mean_first_turn_out_a": "the same, exact (where tractable)",
    "exact_mean_first_turn_out_b": "the same, exact (where tractable)",
}
#: Series of every battle: prefix → description (``standing_a_turn_3``).
BATTLE_SERIES = {
    "standing_a_turn_": "expected figures of side a standing after turn k (series; k = 0: the start)",
    "standing_b_turn_": "expected figures of side b standing after turn k (series)",
}
#: Distributions of every battle.
BATTLE_DISTRIBUTIONS = {
    "turns": "turns the battle lasted (Tyconian also seconds)",
    "standing_a": "figures of side a standing at the end",
    "standing_b": "figures of side b standing at the end",
    "killed_a": "figures of side a killed",
    "killed_b": "figures of side b killed",
    "incapacitated_a": "figures of side a out but not killed",
    "incapacitated_b": "figures of side b out but not killed",
    "first_turn_out_a": "figures of side a out after the first turn (exact where tractable)",
    "first_turn_out_b": "figures of side b out after the first turn",
    "first_turn_out_a_exact": "the same, exact (where tractable)",
    "first_turn_out_b_exact": "the same, exact (where tractable)",
}


@dataclass(frozen=True)
class BattleShape:
    """The sizes a battle's tallies need: figures per side and the longest battle."""

    count_a: int
    count_b: int
    max_turns: int

    @property
    def most(self) -> int:
        """Figures of the larger side."""
        return max(self.count_a, self.count_b)


def battle_metric_names(max_turns: int) -> list[str]:
    """Every metric of a battle of up to ``max_turns`` turns: ENG-5's, then the standing series."""
    series = [f"standing_{s}_turn_{k}" for s in "ab" for k in range(max_turns + 1)]
    return [*BATTLE_METRICS, *series]


def new_battle_tallies(shape: BattleShape) -> tuple[npt.NDArray[np.int64], ...]:
    """Zeroed tallies: counts, end histograms ``(2, 3, most + 1)``, turns, series ``(2, 4, turns + 1)``, first turn."""
    return (
        np.zeros(N_COUNTS, np.int64),
        np.zeros((2, 3, shape.most + 1), np.int64),
        np.zeros(shape.max_turns + 1, np.int64),
        np.zeros((2, 4, shape.max_turns + 1), np.int64),
        np.zeros((2, shape.most + 1), np.int64),
    )


def break_threshold(break_at: float, count: int) -> int:
    """Figures standing at or below which a side of ``count`` withdraws (-1: it fights to the end)."""
    if break_at <= 0:
        return -1
    # The share standing/count falls to or below break_at: standing <= break_at * count, in
    # exact arithmetic (0.5 of 4 figures is 2, not 1.9999).
    return int(Fraction(str(break_at)) * count)


def battle_outcome(standing_a: int, standing_b: int, break_a: int, break_b: int) -> int:
    """How the battle stands after a turn: an outcome index, or -1 while it goes on (ENG-2, ENG-5).

    Both sides out is ``BOTH_OUT``; one side out, the other wins; a side at or below its break
    point (still standing) withdraws; both withdrawing at once is a draw.
    """
    if standing_a == 0 and standing_b == 0:
        return BOTH_OUT
    if standing_b == 0:
        return A_WINS
    if standing_a == 0:
        return B_WINS
    a_breaks = standing_a <= break_a
    b_breaks = standing_b <= break_b
    if a_breaks and b_breaks:
        return DRAW
    if a_breaks:
        return A_BREAKS
    if b_breaks:
        return B_BREAKS
    return -1


def record_battle(
    counts: npt.NDArray[np.int64],
    ends: npt.NDArray[np.int64],
    turns_hist: npt.NDArray[np.int64],
    by_turn: npt.NDArray[np.int64],
    outcome: int,
    turns: int,
    max_turns: int,
    state: npt.NDArray[np.int64],
    side_of: npt.NDArray[np.int64],
    history: npt.NDArray[np.int64],
    spent: npt.NDArray[np.int64],
    draws: int,
) -> None:
    """Add one battle to the tallies (plain Python; compiled below).

    Args:
        counts: The counts (outcomes, turns, per side figures and rounds).
        ends: Histograms of figures standing, killed, incapacitated at the end, per side.
        turns_hist: Histogram of the battle's length.
        by_turn: Per side, sum and sum of squares of figures standing after each turn of
            the battles still going, then of those standing at the end by the turn it came.
        outcome: How it ended (``A_WINS`` ... ``B_BREAKS``).
        turns: Turns it lasted.
        max_turns: The longest battle.
        state: Each figure's state at the end.
        side_of: Each figure's side.
        history: Per side, figures standing after turn ``k`` (filled up to ``turns``).
        spent: Rounds each side spent.
        draws: Draws the battle made.
    """
    counts[outcome] += 1
    counts[TURNS] += turns
    counts[TURNS_SQ] += turns * turns
    counts[DRAWS] += draws
    for s in range(2):
        standing = 0
        killed = 0
        out = 0
        for i in range(state.shape[0]):
            if side_of[i] == s:
                if state[i] == STANDING:
                    standing += 1
                elif state[i] == KILLED:
                    killed += 1
                else:
                    out += 1
        base = SIDE_COUNTS + 8 * s
        counts[base + S_STANDING] += standing
        counts[base + S_STANDING_SQ] += standing * standing
        counts[base + S_KILLED] += killed
        counts[base + S_KILLED_SQ] += killed * killed
        counts[base + S_INCAPACITATED] += out
        counts[base + S_INCAPACITATED_SQ] += out * out
        counts[base + S_ROUNDS] += spent[s]
        counts[base + S_ROUNDS_SQ] += spent[s] * spent[s]
        ends[s, 0, standing] += 1
        ends[s, 1, killed] += 1
        ends[s, 2, out] += 1
        for k in range(1, turns + 1):
            value = history[s, k]
            by_turn[s, 0, k] += value
            by_turn[s, 1, k] += value * value
        # After the end the figures standing stay as they were: added up when estimating.
        by_turn[s, 2, turns] += standing
        by_turn[s, 3, turns] += standing * standing
    turns_hist[turns] += 1


def battle_estimates(
    tallies: Tallies, trials: int, shape: BattleShape
) -> tuple[dict[str, float], dict[str, tuple[float, float]], dict[str, dict[int, float]]]:
    """ENG-5's metrics, 95 % intervals and distributions from summed tallies.

    Args:
        tallies: As :func:`new_battle_tallies`, summed over the trials.
        trials: Battles behind them.
        shape: The battle's sizes.
    """
    counts, ends, turns_hist, by_turn, first = tallies
    metrics: dict[str, float] = {}
    ci: dict[str, tuple[float, float]] = {}
    for index, name in enumerate(OUTCOMES):
        metrics[name] = int(counts[index]) / trials
        ci[name] = wilson(int(counts[index]), trials)

    def mean(name: str, total: int, square: int) -> None:
        metrics[name] = total / trials
        ci[name] = mean_interval(total, square, trials)

    mean("mean_turns", int(counts[TURNS]), int(counts[TURNS_SQ]))
    for s, label in enumerate("ab"):
        base = SIDE_COUNTS + 8 * s
        for what, offset in (
            ("standing", S_STANDING),
            ("killed", S_KILLED),
            ("incapacitated", S_INCAPACITATED),
            ("rounds", S_ROUNDS),
        ):
            mean(f"mean_{what}_{label}", int(counts[base + offset]), int(counts[base + offset + 1]))
    for s, label in enumerate("ab"):
        out = np.arange(first.shape[1], dtype=np.int64)
        mean(f"mean_first_turn_out_{label}", int(out @ first[s]), int((out * out) @ first[s]))
    for s, label in enumerate("ab"):
        # Battles over by turn k count with the figures they ended with.
        ended = np.concatenate(([0], np.cumsum(by_turn[s, 2])[:-1]))
        ended_sq = np.concatenate(([0], np.cumsum(by_turn[s, 3])[:-1]))
        count = shape.count_a if s == 0 else shape.count_b
        metrics[f"standing_{label}_turn_0"] = float(count)  # everyone stands before the first turn
        ci[f"standing_{label}_turn_0"] = (float(count), float(count))
        for k in range(1, shape.max_turns + 1):
            total = int(by_turn[s, 0, k]) + int(ended[k])
            mean(f"standing_{label}_turn_{k}", total, int(by_turn[s, 1, k]) + int(ended_sq[k]))
    distributions: dict[str, dict[int, float]] = {
        "turns": {int(t): int(n) / trials for t, n in enumerate(turns_hist) if n},
    }
    for s, label in enumerate("ab"):
        for row, what in enumerate(("standing", "killed", "incapacitated")):
            distributions[f"{what}_{label}"] = {int(k): int(n) / trials for k, n in enumerate(ends[s, row]) if n}
        distributions[f"first_turn_out_{label}"] = {int(k): int(n) / trials for k, n in enumerate(first[s]) if n}
    return metrics, ci, distributions


#: How the shots of one second of a Tyconian battle are resolved (ENG-4.2): in order of d20 + DEX, ties
#: rolled off again (``initiative``) or by place in line, side a first (``initiative_by_line``, the old
#: reading); or landing together at the second's end (``together``: the duel's reading).
SAME_SECOND = ("initiative", "initiative_by_line", "together")


def battle_question(
    system: str, figure_type: type, row_inputs: Mapping[str, str], *, extra_metrics: Mapping[str, str] | None = None
) -> Question:
    """The battle question of ``system`` (ENG-1 to ENG-5): answered by ``simlab.systems.SYSTEM.battle:battle``.

    Args:
        system: System id.
        figure_type: Frozen dataclass of one figure (or ship) of a group.
        row_inputs: Its inputs that name table rows.
        extra_metrics: Metrics of this system's battles besides ENG-5's.
    """
    return Question(
        kind="battle",
        title="A battle",
        form="battle",
        inputs_type=figure_type,
        row_inputs=row_inputs,
        metrics=BATTLE_METRICS,
        answer=Deferred(f"simlab.systems.{system}.battle:battle"),
        check=Deferred(f"simlab.systems.{system}.battle:check_battle"),
        extra_metrics={**BATTLE_SERIES, **(extra_metrics or {})},
        distributions=BATTLE_DISTRIBUTIONS,
        sampled_only=True,
    )
