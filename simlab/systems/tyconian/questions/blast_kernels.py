"""Compiled sampler of explosions, lobbed grenades and indirect fire (TYC-7.1, TYC-7.3, TYC-7.4).

One trial is one burst at a fixed distance, or one salvo. Draw order, per round: for
artillery and lobbed rounds the to-hit d20 (first round only for artillery), on a miss (and
for every later artillery round) the distance d10 and the direction d10; then, when the
burst reaches the target, the location d20s (rolled again while a distinct location is
still wanted and the roll repeats one), and per location its d8s, its d4 and, at the head,
a 2d6 stun draw. Last, 3d6 for each seriously wounded location but the head.

The plain reference is this same function run by the interpreter (``blast_block.py_func``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine.rng import DRAWS_PER_TRIAL_LIMIT
from simlab.systems.tyconian.kernels import draw_die, head_stun, wound_outcome
from simlab.systems.tyconian.layout import N_LOCATIONS

__all__ = ["blast_block", "N_BLAST_COUNTS", "DIRECTIONS"]

# Indices of the ``counts`` tally.
(KNOCKDOWN, STUN, INCAPACITATED, KILLED, ON_TARGET, ON_TARGET_SQ, IN_BURST, IN_BURST_SQ, LOCATIONS_HIT, LOCATIONS_SQ,
 DRAWS) = range(11)  # fmt: skip
N_BLAST_COUNTS = 11
FIXED, ARTILLERY, LOBBED = range(3)
#: Unit vectors of the ten directions of a d10 (36° apart), computed once so that compiled
#: and interpreted runs take the very same floating-point steps.
DIRECTIONS = np.array([[np.cos(k * np.pi / 5), np.sin(k * np.pi / 5)] for k in range(10)])


@njit(cache=True, nogil=True, error_model="numpy")
def blast_block(
    offset: np.uint64,
    gamma: np.uint64,
    start: int,
    stop: int,
    ints: np.ndarray,
    floats: np.ndarray,
    halves_by_bucket: np.ndarray,
    parts: np.ndarray,
    capacity: np.ndarray,
    limb: np.ndarray,
    location_of_roll: np.ndarray,
    directions: np.ndarray,
    damage_hist: np.ndarray,
    levels: np.ndarray,
    counts: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Sample bursts or salvos at one figure and add their tallies.

    Args:
        offset: Stream offset of the cell.
        gamma: Stream increment of the cell.
        start: First trial.
        stop: One past the last trial.
        ints: ``[mode, rounds, fixed bucket, chance, chance step, critical success max,
            critical failure min, first reduction, later reduction, DEX, END, head index,
            skill die]``: a throw is a skill roll on the skill die, a salvo's chance a d20.
        floats: ``[step m, longest deviation m, burst radius m]``.
        halves_by_bucket: Half-dice at each distance bucket (0 under ½ m, ``floor(r) + 1``).
        parts: ``(halves, 3, 7)`` whole d8, half d4, blunt trauma per location.
        capacity: Capacity per location.
        limb: 1 for a limb.
        location_of_roll: Location index of each d20 roll.
        directions: ``(10, 2)`` unit vectors of the d10 directions.
        damage_hist: Histogram of total damage.
        levels: ``(7, 7)`` wound levels by location.
        counts: Tallies indexed by KNOCKDOWN ... DRAWS.
    """
    mode, rounds, fixed_bucket, chance, chance_step = ints[0], ints[1], ints[2], ints[3], ints[4]
    crit_max, fail_min, first_reduction, later_reduction = ints[5], ints[6], ints[7], ints[8]
    dex, end, head, skill_die = ints[9], ints[10], ints[11], ints[12]
    step, longest, radius = floats[0], floats[1], floats[2]
    stride = np.uint64(DRAWS_PER_TRIAL_LIMIT) * gamma
    located = np.zeros(N_LOCATIONS, np.int64)
    taken = np.zeros(N_LOCATIONS, np.bool_)
    n_buckets = len(halves_by_bucket)
    for trial in range(start, stop):
        w = offset + np.uint64(trial) * stride
        made = 0
        for i in range(N_LOCATIONS):
            located[i] = 0
        total = 0
        knocked = False
        stunned = False
        in_burst = 0
        on_target = 0
        reached_total = 0
        first_x = 0.0
        first_y = 0.0
        for shot in range(rounds):
            x = 0.0
            y = 0.0
            if mode == FIXED:
                bucket = fixed_bucket
            else:
                distance = 0.0
                if mode == LOBBED or shot == 0:
                    w, roll = draw_die(w, gamma, skill_die if mode == LOBBED else 20)
                    made += 1
                    if mode == LOBBED:
                        needed = chance + chance_step * shot
                        hit = roll <= crit_max or (roll < fail_min and roll <= needed)
                    else:
                        hit = roll <= chance
                    on_target += hit
                    if not hit:
                        w, distance_roll = draw_die(w, gamma, 10)
                        w, direction = draw_die(w, gamma, 10)
                        made += 2
                        distance = min(longest, max(1, distance_roll - first_reduction) * step)
                        x = distance * directions[direction - 1, 0]
                        y = distance * directions[direction - 1, 1]
                    if mode == ARTILLERY:
                        first_x, first_y = x, y
                else:
                    w, distance_roll = draw_die(w, gamma, 10)
                    w, direction = draw_die(w, gamma, 10)
                    made += 2
                    distance = max(0, distance_roll - later_reduction) * step
                    x = first_x + distance * directions[direction - 1, 0]
                    y = first_y + distance * directions[direction - 1, 1]
                r = np.sqrt(x * x + y * y)
                bucket = n_buckets if r >= radius else (0 if r < 0.5 else np.int64(np.floor(r)) + 1)
            halves = halves_by_bucket[bucket] if bucket < n_buckets else 0
            if halves == 0:
                continue
            in_burst += 1
            reached = (halves + 1) // 2
            reached_total += reached
            for i in range(N_LOCATIONS):
                taken[i] = False
            burst_damage = 0
            for k in range(reached):
                w, roll = draw_die(w, gamma, 20)
                made += 1
                location = location_of_roll[roll]
                while k < N_LOCATIONS and taken[location]:
                    w, roll = draw_die(w, gamma, 20)
                    made += 1
                    location = location_of_roll[roll]
                taken[location] = True
                damage = parts[halves, 2, location]
                for _ in range(parts[halves, 0, location]):
                    w, face = draw_die(w, gamma, 8)
                    damage += face
                if parts[halves, 1, location]:
                    w, face = draw_die(w, gamma, 4)
                    damage += face
                made += parts[halves, 0, location] + parts[halves, 1, location]
                if location == head:
                    w, stun = head_stun(w, gamma, damage, end)
                    made += 1
                    stunned = stunned or stun
                located[location] += damage
                burst_damage += damage
            total += burst_damage
            if burst_damage > dex:
                knocked = True
        w, outcome_draws, killed, incapacitated = wound_outcome(
            w, gamma, located, capacity, limb, head, end, dex, levels
        )
        made += outcome_draws
        damage_hist[min(total, damage_hist.shape[0] - 1)] += 1
        counts[KNOCKDOWN] += knocked
        counts[STUN] += stunned
        counts[KILLED] += killed
        counts[INCAPACITATED] += incapacitated or stunned
        counts[ON_TARGET] += on_target
        counts[ON_TARGET_SQ] += on_target * on_target
        counts[IN_BURST] += in_burst
        counts[IN_BURST_SQ] += in_burst * in_burst
        counts[LOCATIONS_HIT] += reached_total
        counts[LOCATIONS_SQ] += reached_total * reached_total
        counts[DRAWS] += made
