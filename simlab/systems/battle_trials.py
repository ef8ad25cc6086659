"""The trial of every battle sampler (ENG-5): how it starts, how each turn is counted, how it ends.

A battle of any system is sampled the same way: each trial takes its draws from its own window
of the cell's stream, every figure starts standing and in line with no shot spent, turns are
fought until one side is out or breaks (ENG-5) or the turns run out (a draw), each side's
standing figures are counted after every turn, and the trial's tallies are added
(:mod:`simlab.systems.battles`). Only the turn differs. Each system's battle kernel is its turn
between these three steps::

    for trial in range(start, stop):
        w = begin_trial(offset, stride, trial, state, side_of, members, alive, history, spent, counts_of)
        ...  # the system's own arrays reset
        turns, outcome = 0, -1
        while turns < max_turns and outcome < 0:
            turns += 1
            ...  # the system's turn: state changed in place, spent counting each side's shots
            outcome = end_turn(turns, state, side_of, members, alive, history, first_out, counts_of, breaks, True)
        end_trial(outcome, turns, ...)

Every battle kernel is called as ``battle_block(offset, gamma, start, stop, window, ...its own
arrays..., counts, ends, turns_hist, by_turn, first_out, ...its own tallies)``: the cell's stream
offset and increment, the first trial and one past the last, the draws of one trial's window of
the stream (:func:`simlab.systems.battles.draw_window`), then ENG-5's tallies
(:func:`simlab.systems.battles.new_battle_tallies`): counts, each side's end histograms, the
histogram of turns, each side's standing series, and each side's histogram of its figures out
after the first turn.

The steps are compiled into each kernel (``inline="always"``), as if written out there: a loop
that took the turn as a compiled argument instead was measured 1.8 times slower (numba counts
the references of each array it hands the turn, every turn).

:func:`battle_block_functions` makes a battle kernel's block functions, compiled and
interpreted, and :func:`sample_battles` samples a cell with one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from simlab.engine.blocks import Tallies, sample_cell
from simlab.engine.interpreted import block_functions
from simlab.systems.battles import DRAW, STANDING, new_battle_tallies
from simlab.systems.kernel_helpers import battle_outcome_compiled, record_battle_compiled, stand_in_line

__all__ = ["battle_arrays", "begin_trial", "end_turn", "end_trial", "of_each_side", "figure_sides"]


@njit(inline="always")
def begin_trial(
    offset: np.uint64,
    stride: np.uint64,
    trial: int,
    state: np.ndarray,
    side_of: np.ndarray,
    members: np.ndarray,
    alive: np.ndarray,
    history: np.ndarray,
    spent: np.ndarray,
    counts_of: np.ndarray,
) -> np.uint64:  # pragma: no cover - compiled
    """A trial's start: its stream's position; every figure standing and in line, no shot spent.

    Args:
        offset: Stream offset of the cell.
        stride: The stream's step from one trial's window to the next.
        trial: The trial.
        state: Each figure's state, set standing.
        side_of: Each figure's side (0 for a, 1 for b); side a's figures first, in line order.
        members: ``members[s, :alive[s]]``: the standing figures of each side, in line order.
        alive: Each side's standing figures.
        history: Each side's standing figures after each turn (turn 0: all).
        spent: Each side's shots.
        counts_of: Each side's figures.
    """
    for s in range(2):
        spent[s] = 0
        history[s, 0] = counts_of[s]
        alive[s] = 0
    for i in range(state.shape[0]):  # all in line: stand_in_line's, with every figure standing
        state[i] = STANDING
        members[side_of[i], alive[side_of[i]]] = i
        alive[side_of[i]] += 1
    return offset + np.uint64(trial) * stride


@njit(inline="always")
def end_turn(
    turns: int,
    state: np.ndarray,
    side_of: np.ndarray,
    members: np.ndarray,
    alive: np.ndarray,
    history: np.ndarray,
    first_out: np.ndarray,
    counts_of: np.ndarray,
    breaks: np.ndarray,
    line_up: bool,
) -> int:  # pragma: no cover - compiled
    """The count after a turn (ENG-5): each side's standing figures in line, their history, the first turn's losses.

    ``line_up`` puts each side's standing figures in line first; a kernel that keeps its line
    current through the turn (it lines up after every change) passes False and saves the pass.

    Returns:
        The outcome (:mod:`simlab.systems.battles`), or -1 while the battle goes on.
    """
    if line_up:
        stand_in_line(state, side_of, members, alive)
    for s in range(2):
        history[s, turns] = alive[s]
        if turns == 1:
            first_out[s, counts_of[s] - alive[s]] += 1
    return battle_outcome_compiled(alive[0], alive[1], breaks[0], breaks[1])


@njit(inline="always")
def end_trial(
    outcome: int,
    turns: int,
    max_turns: int,
    state: np.ndarray,
    side_of: np.ndarray,
    history: np.ndarray,
    spent: np.ndarray,
    draws: int,
    counts: np.ndarray,
    ends: np.ndarray,
    turns_hist: np.ndarray,
    by_turn: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """A trial's tallies (:mod:`simlab.systems.battles`): undecided after ``max_turns`` is a draw."""
    record_battle_compiled(counts, ends, turns_hist, by_turn, outcome if outcome >= 0 else DRAW, turns, max_turns,
                           state, side_of, history, spent, draws)  # fmt: skip


@njit(inline="always")
def of_each_side(sides: np.ndarray, column: int) -> np.ndarray:  # pragma: no cover - compiled
    """One column of a kernel's per-side table, a value for each side (its figures, its break point)."""
    found = np.empty(2, np.int64)
    found[0] = sides[0, column]
    found[1] = sides[1, column]
    return found


@njit(inline="always")
def battle_arrays(
    n: int, max_turns: int, sides: np.ndarray, count_column: int, break_column: int
) -> tuple[Any, ...]:  # pragma: no cover - compiled
    """What every battle kernel keeps of ``n`` figures, once a block (see :func:`begin_trial`).

    Args:
        n: The figures.
        max_turns: Turns after which the battle is a draw.
        sides: The kernel's per-side table.
        count_column: Its column of each side's figures.
        break_column: Its column of each side's break point.

    Returns:
        ``state``, ``target``, ``order``, ``members``, ``alive``, ``history``, ``spent``, and each
        side's figures and break point.
    """
    state = np.empty(n, np.int64)
    target = np.empty(n, np.int64)
    order = np.empty(n, np.int64)
    members = np.empty((2, n), np.int64)
    alive = np.empty(2, np.int64)
    history = np.empty((2, max_turns + 1), np.int64)
    spent = np.empty(2, np.int64)
    counts_of, breaks = of_each_side(sides, count_column), of_each_side(sides, break_column)
    return state, target, order, members, alive, history, spent, counts_of, breaks


@njit(inline="always")
def figure_sides(groups: np.ndarray, figure_group: np.ndarray, side_column: int) -> np.ndarray:  # pragma: no cover
    """Each figure's side, from its group's row of the kernel's per-group table."""
    side_of = np.empty(figure_group.shape[0], np.int64)
    for i in range(figure_group.shape[0]):
        side_of[i] = groups[figure_group[i], side_column]
    return side_of


def resolved_arrays(resolved: Any) -> tuple[Any, ...]:
    """A resolved battle's arrays, as its kernel takes them after the stream and the trials."""
    return tuple(resolved.arrays)


def resolved_tallies(resolved: Any) -> tuple[npt.NDArray[np.int64], ...]:
    """ENG-5's tallies of a resolved battle, new (:func:`simlab.systems.battles.new_battle_tallies`)."""
    return new_battle_tallies(resolved.shape)


def battle_block_functions(
    kernel: Any,
    examples: Callable[[], Sequence[Any]],
    arguments: Callable[[Any], tuple[Any, ...]] = resolved_arrays,
    new_tallies: Callable[[Any], tuple[Any, ...]] = resolved_tallies,
) -> tuple[Any, Any, Callable[..., Tallies]]:
    """A battle kernel's block functions, registered with its twin, and the sampling of a cell by it.

    Args:
        kernel: The system's ``battle_block``.
        examples: The resolved battles its twin is checked on.
        arguments: A resolved battle's arguments of the kernel (its ``arrays`` unless told).
        new_tallies: A resolved battle's new tallies (ENG-5's unless told).

    Returns:
        The compiled and the interpreted block functions (:func:`simlab.engine.interpreted.block_functions`),
        and ``sample_battle(resolved, **options)``: the summed tallies of a cell's battles.
    """
    compiled, plain = block_functions(kernel, arguments, new_tallies, examples)
    return compiled, plain, partial(sample_battles, compiled)


def sample_battles(block_function: Any, resolved: Any, **options: Any) -> Tallies:
    """The summed tallies of sampled battles: ``options`` are those of :func:`simlab.engine.blocks.sample_cell`."""
    return sample_cell(partial(block_function, resolved), **options)
