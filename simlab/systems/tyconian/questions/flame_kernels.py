"""Compiled sampler of flamethrower sprays at one figure (TYC-7.2).

Draw order, per second of the spray that reaches the figure: the dodge d20 (when the figure
dodges), the die of the number of locations, then per location its d20 on the hit location
table, the "1 in n" die and, on a hit, its d8s and (at the head) a 2d6 stun draw. After the
spray, each burning location's extra damage (at the head, one more stun draw); last, 3d6
for each seriously wounded location but the head.

The plain reference is this same function run by the interpreter (``flame_block.py_func``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine.rng import DRAWS_PER_TRIAL_LIMIT
from simlab.systems.tyconian.kernels import draw_die, head_stun, wound_outcome
from simlab.systems.tyconian.layout import N_LOCATIONS, NO_ROLL
from simlab.systems.tyconian.questions.flame_layout import (
    BURNING,
    DRAWS,
    INCAPACITATED,
    KILLED,
    LOCATION_HITS,
    LOCATION_HITS_SQ,
    STUN,
)

__all__ = ["flame_block"]


@njit(cache=True, nogil=True, error_model="numpy")
def flame_block(
    offset: np.uint64,
    gamma: np.uint64,
    start: int,
    stop: int,
    seconds: np.ndarray,
    ints: np.ndarray,
    capacity: np.ndarray,
    limb: np.ndarray,
    location_of_roll: np.ndarray,
    damage_hist: np.ndarray,
    levels: np.ndarray,
    counts: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Sample sprays and add their tallies.

    Args:
        offset: Stream offset of the cell.
        gamma: Stream increment of the cell.
        start: First trial.
        stop: One past the last trial.
        seconds: ``(n, 4)``: per second that reaches the figure, the location die, the bonus,
            the "1 in n" of a hit and the d8s of a hit.
        ints: ``[dodge skill (NO_ROLL: none), critical success max, critical failure min,
            burn limit in seconds (-1: burns out), ignition damage, DEX, END, head index, skill die]``.
        capacity: Capacity per location.
        limb: 1 for a limb.
        location_of_roll: Location index of each d20 roll.
        damage_hist: Histogram of total damage.
        levels: ``(7, 7)`` wound levels by location.
        counts: Tallies indexed by STUN ... DRAWS.
    """
    dodge, crit_max, fail_min, burn_limit, ignition = ints[0], ints[1], ints[2], ints[3], ints[4]
    dex, end, head, skill_die = ints[5], ints[6], ints[7], ints[8]
    stride = np.uint64(DRAWS_PER_TRIAL_LIMIT) * gamma
    located = np.zeros(N_LOCATIONS, np.int64)
    for trial in range(start, stop):
        w = offset + np.uint64(trial) * stride
        made = 0
        for i in range(N_LOCATIONS):
            located[i] = 0
        stunned = False
        location_hits = 0
        for second in range(seconds.shape[0]):
            fewer = 0
            one_in = seconds[second, 2]
            if dodge != NO_ROLL:
                w, roll = draw_die(w, gamma, skill_die)
                made += 1
                if roll <= crit_max:
                    fewer = 2
                    one_in = min(6, one_in + 1)
                elif roll < fail_min and roll <= dodge:
                    fewer = 1
            w, rolled = draw_die(w, gamma, seconds[second, 0])
            made += 1
            for _ in range(max(0, rolled + seconds[second, 1] - fewer)):
                w, roll = draw_die(w, gamma, 20)
                w, chance = draw_die(w, gamma, one_in)
                made += 2
                if chance != 1:
                    continue
                location = location_of_roll[roll]
                location_hits += 1
                damage = 0
                for _ in range(seconds[second, 3]):
                    w, face = draw_die(w, gamma, 8)
                    damage += face
                made += seconds[second, 3]
                if location == head:
                    w, stun = head_stun(w, gamma, damage, end)
                    made += 1
                    stunned = stunned or stun
                located[location] += damage
        burning = False
        for location in range(N_LOCATIONS):
            if located[location] >= ignition:
                burning = True
                extra = located[location] if burn_limit < 0 else min(burn_limit, located[location])
                located[location] += extra
                if location == head:
                    w, stun = head_stun(w, gamma, extra, end)
                    made += 1
                    stunned = stunned or stun
        total = 0
        for location in range(N_LOCATIONS):
            total += located[location]
        w, outcome_draws, killed, incapacitated = wound_outcome(
            w, gamma, located, capacity, limb, head, end, dex, levels
        )
        made += outcome_draws
        damage_hist[min(total, damage_hist.shape[0] - 1)] += 1
        counts[STUN] += stunned
        counts[KILLED] += killed
        counts[INCAPACITATED] += incapacitated or stunned
        counts[BURNING] += burning
        counts[LOCATION_HITS] += location_hits
        counts[LOCATION_HITS_SQ] += location_hits * location_hits
        counts[DRAWS] += made
