"""Compiled sampler of melee: one strike or armed blow, a diving blow, or a grapple (TYC-8).

Draw order of a blow: the attack d20 (none from surprise), the block d20 (when the defender
may block a hit), then for a blow that lands the damage dice (none on a maximum), the
location d20 (none when aimed), the armour d6s of that location and, at the head, a 2d6
stun draw; last, 3d6 for a seriously wounded location but the head. A diving blow: the
dodge d20 (when the defender dodges), then the attacker's d6, and for a blow that lands
the location d20 and the stun draw. A grapple: per exchange the attacker's d20 and, on a
success, his d4s; then the defender's likewise.

The plain reference is this same function run by the interpreter (``melee_block.py_func``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine.rng import DRAWS_PER_TRIAL_LIMIT
from simlab.systems.tyconian.kernels import draw_die, head_stun, round_off_ratio, wound_outcome
from simlab.systems.tyconian.layout import N_LOCATIONS, NO_ROLL
from simlab.systems.tyconian.questions.melee_layout import (
    AIMED,
    ATTACKER_DOWN,
    ATTACKER_STR,
    BLOCK,
    BLUNT_POINTS,
    BONUS,
    CONTROL,
    CONTROLLED,
    CRIT_MAX,
    DEFENDER_DICE,
    DEFENDER_SKILL,
    DEFENDER_STR,
    DEX,
    DICE,
    DIVE_ATTACK,
    DIVE_DEFENCE,
    DIVING,
    DODGE,
    DRAWS,
    END,
    EXCHANGES,
    EXCHANGES_SQ,
    FAIL_MIN,
    GRAPPLE,
    HEAD,
    HIT,
    INCAPACITATED,
    KILLED,
    KNOCKDOWN,
    MAX_EXCHANGES,
    MODE,
    ROUNDING_DOWN,
    SIDES,
    SKILL,
    SKILL_DIE,
    STRIKE,
    STUN,
    SURPRISE,
)

__all__ = ["melee_block"]


@njit(inline="always")
def _skill_roll(
    w: np.uint64, gamma: np.uint64, skill: np.int64, die: np.int64, crit_max: np.int64, fail_min: np.int64
) -> tuple[np.uint64, bool, bool]:  # pragma: no cover - compiled
    """A skill roll on the skill die (TYC-1.1): (position, success, critical success)."""
    w, roll = draw_die(w, gamma, die)
    critical = roll <= crit_max
    return w, critical or (roll < fail_min and roll <= skill), critical


@njit(inline="always")
def _d4s(w: np.uint64, gamma: np.uint64, count: np.int64) -> tuple[np.uint64, np.int64]:  # pragma: no cover
    total = 0
    for _ in range(count):
        w, face = draw_die(w, gamma, 4)
        total += face
    return w, total


@njit(cache=True, nogil=True, error_model="numpy")
def melee_block(
    offset: np.uint64,
    gamma: np.uint64,
    start: int,
    stop: int,
    ints: np.ndarray,
    armour_dice: np.ndarray,
    capacity: np.ndarray,
    limb: np.ndarray,
    location_of_roll: np.ndarray,
    damage_hist: np.ndarray,
    levels: np.ndarray,
    counts: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Sample melee attacks and add their tallies.

    Args:
        offset: Stream offset of the cell.
        gamma: Stream increment of the cell.
        start: First trial.
        stop: One past the last trial.
        ints: Parameters indexed by MODE ... SKILL_DIE (NO_ROLL: no block, dodge or defender
            skill; -1: no aim).
        armour_dice: Armour d6s at each location (melee armour, TYC-8).
        capacity: Capacity per location.
        limb: 1 for a limb.
        location_of_roll: Location index of each d20 roll.
        damage_hist: Histogram of damage.
        levels: ``(7, 7)`` wound levels by location.
        counts: Tallies indexed by HIT ... DRAWS.
    """
    mode, skill, surprise, block = ints[MODE], ints[SKILL], ints[SURPRISE] == 1, ints[BLOCK]
    crit_max, fail_min, dex, end, head = ints[CRIT_MAX], ints[FAIL_MIN], ints[DEX], ints[END], ints[HEAD]
    die = ints[SKILL_DIE]
    stride = np.uint64(DRAWS_PER_TRIAL_LIMIT) * gamma
    located = np.zeros(N_LOCATIONS, np.int64)
    for trial in range(start, stop):
        w = offset + np.uint64(trial) * stride
        made = 0
        if mode == GRAPPLE:
            attacker, defender = ints[ATTACKER_STR], ints[DEFENDER_STR]
            exchanges = 0
            while exchanges < ints[MAX_EXCHANGES] and attacker > 0 and defender > 0:
                exchanges += 1
                w, success, _ = _skill_roll(w, gamma, skill, die, crit_max, fail_min)
                made += 1
                if success:
                    w, points = _d4s(w, gamma, ints[DICE])
                    made += ints[DICE]
                    defender -= points
                if defender > 0 and ints[DEFENDER_SKILL] != NO_ROLL:
                    w, success, _ = _skill_roll(w, gamma, ints[DEFENDER_SKILL], die, crit_max, fail_min)
                    made += 1
                    if success:
                        w, points = _d4s(w, gamma, ints[DEFENDER_DICE])
                        made += ints[DEFENDER_DICE]
                        attacker -= points
            counts[CONTROL] += defender <= 0
            counts[CONTROLLED] += attacker <= 0
            counts[EXCHANGES] += exchanges
            counts[EXCHANGES_SQ] += exchanges * exchanges
            counts[DRAWS] += made
            continue
        damage = -1  # -1: nothing lands
        knocked = False
        armour_applies = True
        if mode == DIVING:
            armour_applies = False
            dodged = False
            if not surprise and ints[DODGE] != NO_ROLL:
                w, dodged, _ = _skill_roll(w, gamma, ints[DODGE], die, crit_max, fail_min)
                made += 1
            if dodged:
                counts[ATTACKER_DOWN] += 1
            else:
                w, face = draw_die(w, gamma, 6)
                made += 1
                margin = face + ints[DIVE_ATTACK] - ints[DIVE_DEFENCE]
                if margin > 0:
                    damage = margin
                    knocked = True
                elif margin < 0:
                    counts[ATTACKER_DOWN] += 1
        else:
            hit, critical = True, False
            if not surprise:
                w, hit, critical = _skill_roll(w, gamma, skill, die, crit_max, fail_min)
                made += 1
            blocked, block_critical = False, False
            if hit and not surprise and block != NO_ROLL:
                w, blocked, block_critical = _skill_roll(w, gamma, block, die, crit_max, fail_min)
                made += 1
            most = ints[DICE] * ints[SIDES] + ints[BONUS]
            if hit and not blocked:
                if critical:
                    damage = most
                else:
                    damage = ints[BONUS]
                    for _ in range(ints[DICE]):
                        w, face = draw_die(w, gamma, ints[SIDES])
                        damage += face
                    made += ints[DICE]
            elif hit and critical and not block_critical and mode == STRIKE:
                damage = most // 2
        if damage < 0:
            damage_hist[0] += 1
            for location in range(N_LOCATIONS):
                levels[location, 0] += 1
            counts[KNOCKDOWN] += knocked
            counts[DRAWS] += made
            continue
        if ints[AIMED] >= 0:
            location = ints[AIMED]
        else:
            w, roll = draw_die(w, gamma, 20)
            made += 1
            location = location_of_roll[roll]
        if armour_applies and armour_dice[location] > 0:
            stopped = 0
            for _ in range(armour_dice[location]):
                w, face = draw_die(w, gamma, 6)
                stopped += face
            made += armour_dice[location]
            stopped = min(stopped, damage)
            damage -= stopped
            if ints[BLUNT_POINTS] > 0:
                damage += round_off_ratio(stopped, ints[BLUNT_POINTS], ints[ROUNDING_DOWN] == 1)
        stunned = False
        if location == head:
            w, stunned = head_stun(w, gamma, damage, end)
            made += 1
        for i in range(N_LOCATIONS):
            located[i] = 0
        located[location] = damage
        w, outcome_draws, killed, incapacitated = wound_outcome(
            w, gamma, located, capacity, limb, head, end, dex, levels
        )
        made += outcome_draws
        damage_hist[min(damage, damage_hist.shape[0] - 1)] += 1
        counts[HIT] += 1
        counts[KNOCKDOWN] += knocked or damage > dex
        counts[STUN] += stunned
        counts[KILLED] += killed
        counts[INCAPACITATED] += incapacitated or stunned
        counts[DRAWS] += made
