"""Compiled sampler of Tyconian attacks (DESIGN.md principle 3).

A private ``@njit(cache=True, nogil=True)`` kernel that runs trials ``[start, stop)`` of
one cell and adds int64 tallies; :mod:`.sample` prepares its inputs and :mod:`.reference`
holds a plain Python twin with identical tallies.

Each trial takes its draws one after another from its own window of the stream. Shots
(single, or bursts of one hit): a d20 to hit; on a hit a d20 for the location, then the
damage dice (d8s, a d4 for a half die; none on a critical, which does the maximum); a hit
to the head then rolls 2d6 (one draw) for stun. Bursts rolled per round and full-auto
fire: first a d6 for every round or die, then location, damage and stun for each hit;
full-auto then rolls the missed dice for bystanders, half (rounded up) near the target
and the rest behind. Last, 3d6 for each seriously wounded location but the head, and a
2d6 jam check for semi-automatic weapons.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.rng import DRAWS_PER_TRIAL_LIMIT, die_from_draw, mix64, two_d6_from_draw
from simlab.systems.tyconian.wounds import wound_code

# Indices of the ``counts`` tally.
KNOCKDOWN, STUN, INCAPACITATED, KILLED, BYSTANDERS, BYSTANDERS_SQ, JAMS, DRAWS = range(8)
N_COUNTS = 8
# Attack kinds.
SHOTS, PER_ROUND, FULL_AUTO = range(3)
N_LOCATIONS = 7


@njit(inline="always")
def _draw(w: np.uint64, gamma: np.uint64, sides: int) -> tuple[np.uint64, np.int64]:  # pragma: no cover - compiled
    w += gamma
    return w, die_from_draw(mix64(w), sides)


#: The wound level of a location, compiled from the one definition (TYC-6.2).
_level = njit(inline="always")(wound_code)


@njit(cache=True, nogil=True)
def attack_block(
    offset: np.uint64,
    gamma: np.uint64,
    start: int,
    stop: int,
    kind: int,
    skills: np.ndarray,
    steps: np.ndarray,
    roll_limits: np.ndarray,
    rolls_per_attack: int,
    hit_face: int,
    location_of_roll: np.ndarray,
    target_index: int,
    locations: np.ndarray,
    target: np.ndarray,
    jam: np.ndarray,
    hits_hist: np.ndarray,
    damage_hist: np.ndarray,
    levels: np.ndarray,
    counts: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Sample Tyconian attacks (TYC-3 to TYC-6) and add their tallies.

    Args:
        offset: Stream offset of the cell.
        gamma: Stream increment of the cell.
        start: First trial.
        stop: One past the last trial.
        kind: SHOTS, PER_ROUND or FULL_AUTO.
        skills: Effective skill of each shot or burst.
        steps: Location steps toward the aimed location, per shot.
        roll_limits: ``[skill_die, critical_success_max, critical_failure_min]``.
        rolls_per_attack: Dice per burst (PER_ROUND) or full-auto dice (FULL_AUTO).
        hit_face: Face a d6 needs to hit (PER_ROUND, FULL_AUTO).
        location_of_roll: Location index of each d20 roll.
        target_index: Location aimed at.
        locations: ``(5, 7)``: whole d8, half d4, blunt trauma, capacity, is-limb per location.
        target: ``[DEX, END, head index]`` of the target.
        jam: ``[shots, bonus]`` of the jam check, shots -1 when none (TYC-3.6).
        hits_hist: Histogram of hits.
        damage_hist: Histogram of total damage.
        levels: ``(7, 7)``: how often each location ends at each wound level (TYC-6.2).
        counts: Tallies indexed by KNOCKDOWN ... DRAWS.
    """
    stride = np.uint64(DRAWS_PER_TRIAL_LIMIT) * gamma
    dex, end, head = target[0], target[1], target[2]
    located = np.zeros(N_LOCATIONS, np.int64)
    for trial in range(start, stop):
        w = offset + np.uint64(trial) * stride
        made = 0
        for i in range(N_LOCATIONS):
            located[i] = 0
        hits = 0
        total = 0
        knocked = False
        stunned = False
        n_phases = len(skills) if kind != FULL_AUTO else 1
        for phase in range(n_phases):
            phase_damage = 0
            critical = False
            if kind == SHOTS:
                w, roll = _draw(w, gamma, roll_limits[0])
                made += 1
                critical = roll <= roll_limits[1]
                scored = 1 if critical or (roll < roll_limits[2] and roll <= skills[phase]) else 0
            else:  # every die first, then the hits one by one
                scored = 0
                for _ in range(rolls_per_attack):
                    w, face = _draw(w, gamma, 6)
                    scored += face >= hit_face
                made += rolls_per_attack
            for _ in range(scored):
                hits += 1
                w, roll = _draw(w, gamma, 20)
                made += 1
                location = location_of_roll[roll]
                if kind == SHOTS:
                    move = target_index - location
                    move = max(-steps[phase], min(steps[phase], move))
                    location += move
                damage = locations[2, location]
                if critical:
                    damage += 8 * locations[0, location] + 4 * locations[1, location]
                else:
                    for _ in range(locations[0, location]):
                        w, face = _draw(w, gamma, 8)
                        damage += face
                    if locations[1, location]:
                        w, face = _draw(w, gamma, 4)
                        damage += face
                    made += locations[0, location] + locations[1, location]
                if location == head:
                    w += gamma
                    made += 1
                    if two_d6_from_draw(mix64(w)) + damage > end:
                        stunned = True
                located[location] += damage
                phase_damage += damage
                total += damage
            if phase_damage > dex:
                knocked = True
        if kind == FULL_AUTO:
            missed = rolls_per_attack - hits
            near_and_behind = 0
            for _ in range(missed):  # ceil(missed / 2) near the target, the rest behind
                w, face = _draw(w, gamma, 6)
                near_and_behind += face == 6
            made += missed
            counts[BYSTANDERS] += near_and_behind
            counts[BYSTANDERS_SQ] += near_and_behind * near_and_behind
        killed = False
        unconscious = stunned
        serious = 0
        worst = 0
        for location in range(N_LOCATIONS):
            level = _level(located[location], locations[3, location], locations[4, location] == 1, location == head)
            levels[location, level] += 1
            worst = max(worst, level)
            if level == 6:
                killed = True
            elif level >= 4:
                unconscious = True
            elif level == 3:
                serious += 1
                if location == head:
                    unconscious = True
                else:
                    w, a = _draw(w, gamma, 6)
                    w, b = _draw(w, gamma, 6)
                    w, c = _draw(w, gamma, 6)
                    made += 3
                    if a + b + c > end:
                        unconscious = True
        if serious >= 3:
            unconscious = True
        dex_left = dex - (2 if worst >= 2 else 0) - (4 if worst >= 3 else 0)
        if jam[0] >= 0:
            w += gamma
            made += 1
            counts[JAMS] += two_d6_from_draw(mix64(w)) + jam[1] < jam[0]
        hits_hist[hits] += 1
        damage_hist[min(total, damage_hist.shape[0] - 1)] += 1
        counts[KNOCKDOWN] += knocked
        counts[STUN] += stunned
        counts[KILLED] += killed
        counts[INCAPACITATED] += killed or unconscious or dex_left <= 0
        counts[DRAWS] += made
