"""The compiled twins of the helpers every system's kernels share: one definition, plain and compiled.

The plain functions live with what they do (:mod:`simlab.systems.battles` records a battle,
:mod:`simlab.systems.duels` a duel, :mod:`simlab.mechanics.target_number` scores hits); here
they are compiled for the kernels, with the target choice and line helpers that only kernels
use. Importing this module loads numba: only sampling does.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine.rng import die_from_draw, mix64
from simlab.mechanics.target_number import hits_scored
from simlab.systems.battles import RANDOM, SPREAD, STANDING, WEAKEST, battle_outcome, record_battle
from simlab.systems.duels import record_duel

__all__ = [
    "hits_scored_compiled",
    "record_duel_compiled",
    "record_battle_compiled",
    "battle_outcome_compiled",
    "assign_targets",
    "standing_neighbours",
    "stand_in_line",
    "standing_target",
]

#: :func:`simlab.mechanics.target_number.hits_scored` for the kernels.
hits_scored_compiled = njit(inline="always")(hits_scored)
#: :func:`simlab.systems.duels.record_duel` for the kernels.
record_duel_compiled = njit(inline="always")(record_duel)
#: :func:`record_battle` for the compiled kernels: one definition for both.
record_battle_compiled = njit(inline="always")(record_battle)
battle_outcome_compiled = njit(inline="always")(battle_outcome)


@njit(inline="always")
def assign_targets(
    mode: int,
    side: int,
    members: np.ndarray,
    alive: np.ndarray,
    wounds: np.ndarray,
    target: np.ndarray,
    w: np.uint64,
    gamma: np.uint64,
) -> tuple[np.uint64, int]:  # pragma: no cover - compiled
    """Every standing figure of ``side`` picks a standing enemy by its doctrine (ENG-2).

    ``members[s, :alive[s]]`` are the standing figures of side s in line order. ``focus``:
    the lowest index; ``spread``: the k-th standing figure of the side takes the (k mod m)-th
    of the m standing enemies; ``random``: uniform, one draw each; ``weakest``: the most
    wounded (``wounds``), ties to the lowest index. ``target`` is -1 without enemies.

    Returns:
        (new stream position, draws made).
    """
    other = 1 - side
    m = alive[other]
    made = 0
    best = members[other, 0] if m > 0 else -1
    if mode == WEAKEST:
        for q in range(1, m):
            if wounds[members[other, q]] > wounds[best]:
                best = members[other, q]
    for k in range(alive[side]):
        i = members[side, k]
        if m == 0:
            target[i] = -1
        elif mode == SPREAD:
            target[i] = members[other, k % m]
        elif mode == RANDOM:
            w += gamma
            made += 1
            target[i] = members[other, die_from_draw(mix64(w), np.int64(m)) - 1]
        else:  # focus, or the weakest: the same for every figure
            target[i] = best
    return w, made


@njit(inline="always")
def standing_neighbours(target: int, side_of: np.ndarray, state: np.ndarray, order: np.ndarray) -> int:
    """The standing figures beside ``target`` in its line, nearest first, right then left (ENG-3).

    Fills ``order`` and returns how many: the extra hits that go to adjacent targets
    (STR-3.2) and the danger zone (TYC-4.5) take them in this order.
    """
    side = side_of[target]
    n = side_of.shape[0]
    m = 0
    for d in range(1, n):
        right = target + d
        left = target - d
        if right >= n and left < 0:
            break
        if right < n and side_of[right] == side and state[right] == STANDING:
            order[m] = right
            m += 1
        if left >= 0 and side_of[left] == side and state[left] == STANDING:
            order[m] = left
            m += 1
    return m


@njit(inline="always")
def stand_in_line(state: np.ndarray, side_of: np.ndarray, members: np.ndarray, alive: np.ndarray) -> None:
    """``members[s, :alive[s]]``: the standing figures of each side, in line order (ENG-3)."""
    alive[0] = 0
    alive[1] = 0
    for i in range(state.shape[0]):
        if state[i] == STANDING:
            members[side_of[i], alive[side_of[i]]] = i
            alive[side_of[i]] += 1


@njit(inline="always")
def standing_target(target: int, side_of: np.ndarray, state: np.ndarray, order: np.ndarray) -> int:
    """The figure a shot goes to: ``target`` while it stands, else the nearest standing figure beside it.

    A figure picks its target at the start of the turn (ENG-2); one put out before the shot is
    replaced by its nearest standing neighbour in the line. Returns -1 when nobody is left.
    """
    if target < 0 or state[target] == STANDING:
        return target
    if standing_neighbours(target, side_of, state, order) == 0:
        return -1
    return order[0]
