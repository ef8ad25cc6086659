"""Compiled sampler of Tyconian attacks (docs/architecture.md, principle 3).

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

from simlab.engine.rng import DRAWS_PER_TRIAL_LIMIT, draw_die, mix64, two_d6_from_draw
from simlab.systems.tyconian.layout import (
    BYSTANDERS,
    BYSTANDERS_SQ,
    DRAWS,
    FULL_AUTO,
    INCAPACITATED,
    JAMS,
    KILLED,
    KNOCKDOWN,
    N_LOCATIONS,
    SHOTS,
    STUN,
)
from simlab.systems.tyconian.wounds import wound_code


@njit(inline="always")
def head_stun(
    w: np.uint64, gamma: np.uint64, damage: np.int64, end: np.int64
) -> tuple[np.uint64, bool]:  # pragma: no cover - compiled
    """A head hit of ``damage`` stuns when it does damage and 2d6 (one draw) + damage > END (TYC-6.4).

    A hit fully stopped by armour or cover (``damage`` 0) cannot stun; its draw is still made,
    so the draws after it stay where they are. Returns (position, stunned).
    """
    w += gamma
    return w, damage > 0 and two_d6_from_draw(mix64(w)) + damage > end


@njit(inline="always")
def loses_consciousness(w: np.uint64, gamma: np.uint64, end: np.int64) -> tuple[np.uint64, bool]:  # pragma: no cover
    """The consciousness roll of a serious wound (TYC-6.3): 3d6 (three draws) above END, unconscious."""
    w, a = draw_die(w, gamma, 6)
    w, b = draw_die(w, gamma, 6)
    w, c = draw_die(w, gamma, 6)
    return w, a + b + c > end


#: The wound level of a location, compiled from the one definition (TYC-6.2).
_level = njit(inline="always")(wound_code)


@njit(inline="always")
def wound_outcome(
    w: np.uint64,
    gamma: np.uint64,
    located: np.ndarray,
    capacity: np.ndarray,
    limb: np.ndarray,
    head: np.int64,
    end: np.int64,
    dex: np.int64,
    levels: np.ndarray,
) -> tuple[np.uint64, np.int64, bool, bool]:  # pragma: no cover - compiled
    """The wounds of a figure's damage by location, tallied in ``levels`` (TYC-6.2, TYC-6.3, TYC-6.5).

    Rolls 3d6 against END for each seriously wounded location but the head. Returns
    (position, draws made, killed, incapacitated by wounds: unconscious, killed or DEX <= 0);
    stun (TYC-6.4) is the caller's. ``capacity`` and ``limb`` (1 for a limb) are by location.
    """
    made = 0
    killed = False
    unconscious = False
    serious = 0
    worst = 0
    for location in range(N_LOCATIONS):
        level = _level(located[location], capacity[location], limb[location] == 1, location == head)
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
                w, fainted = loses_consciousness(w, gamma, end)
                made += 3
                unconscious = unconscious or fainted
    if serious >= 3:
        unconscious = True
    dex_left = dex - (2 if worst >= 2 else 0) - (4 if worst >= 3 else 0)
    return w, made, killed, killed or unconscious or dex_left <= 0


@njit(cache=True, nogil=True, error_model="numpy")
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
        target: ``[DEX, END, head index, 1 for knockdown by the turn's damage]`` of the target.
        jam: ``[shots, bonus]`` of the jam check, shots -1 when none (TYC-3.6).
        hits_hist: Histogram of hits.
        damage_hist: Histogram of total damage.
        levels: ``(7, 7)``: how often each location ends at each wound level (TYC-6.2).
        counts: Tallies indexed by KNOCKDOWN ... DRAWS.
    """
    stride = np.uint64(DRAWS_PER_TRIAL_LIMIT) * gamma
    dex, end, head = target[0], target[1], target[2]
    per_phase = target[3] == 1  # knockdown from the damage of the whole turn, not of each shot (TYC-6.4)
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
                w, roll = draw_die(w, gamma, roll_limits[0])
                made += 1
                critical = roll <= roll_limits[1]
                scored = 1 if critical or (roll < roll_limits[2] and roll <= skills[phase]) else 0
            else:  # every die first, then the hits one by one
                scored = 0
                for _ in range(rolls_per_attack):
                    w, face = draw_die(w, gamma, 6)
                    scored += face >= hit_face
                made += rolls_per_attack
            for _ in range(scored):
                hits += 1
                w, roll = draw_die(w, gamma, 20)
                made += 1
                location = location_of_roll[roll]
                if kind == SHOTS:
                    move = target_index - location
                    move = max(-steps[phase], min(steps[phase], move))
                    location += move
                w, damage, dice = _damage_at(
                    w, gamma, locations[0, location], locations[1, location], locations[2, location], critical
                )
                made += dice
                if location == head:
                    w, stun = head_stun(w, gamma, damage, end)
                    made += 1
                    stunned = stunned or stun
                located[location] += damage
                phase_damage += damage
                total += damage
            if not per_phase and phase_damage > dex:
                knocked = True
        if per_phase:
            knocked = total > dex
        if kind == FULL_AUTO:
            missed = rolls_per_attack - hits
            near_and_behind = 0
            for _ in range(missed):  # ceil(missed / 2) near the target, the rest behind
                w, face = draw_die(w, gamma, 6)
                near_and_behind += face == 6
            made += missed
            counts[BYSTANDERS] += near_and_behind
            counts[BYSTANDERS_SQ] += near_and_behind * near_and_behind
        w, outcome_draws, killed, incapacitated = wound_outcome(
            w, gamma, located, locations[3], locations[4], head, end, dex, levels
        )
        made += outcome_draws
        if jam[0] >= 0:
            w += gamma
            made += 1
            counts[JAMS] += two_d6_from_draw(mix64(w)) + jam[1] < jam[0]
        hits_hist[hits] += 1
        damage_hist[min(total, damage_hist.shape[0] - 1)] += 1
        counts[KNOCKDOWN] += knocked
        counts[STUN] += stunned
        counts[KILLED] += killed
        counts[INCAPACITATED] += incapacitated or stunned
        counts[DRAWS] += made


# Per-side duel parameters, in the order of duel.SIDE_FIELDS.
(SKILL, AIM_SKILL, DEX, STR, END, ROUNDS, MAGAZINE, SPARE, AUTO, AUTO_ROUNDS, AUTO_REDUCTION, AUTO_MINIMUM,
 AUTO_RECOIL, HIT_FACE, MULTIPLIER, RECOIL, TWO_WEAPONS, PRIMARY_PENALTY, OFF_PENALTY, STR_LOSS,
 TACTICS, CAN_JAM) = range(22)  # fmt: skip
# Entries of the duel's (and battle's) rule flags (sample.duel_flags).
F_ROUND_DOWN, F_KNOCKDOWN_PER_SHOT, F_ROLL_EVERY_TURN, F_JAM_BONUS, F_HESITATION, F_JAM_CLEAR = range(6)
#: Kinds of turn of a duel's fire plans (duel.PLAIN_TURN ...).
PLAIN_TURN, TACTICS_TURN, BONUS_TURN = range(3)


@njit(inline="always")
def round_off_ratio(numerator: np.int64, denominator: np.int64, down: bool) -> np.int64:  # pragma: no cover - compiled
    """``round_off(numerator / denominator)`` of TYC-1.3, exactly in integers: nearest (halves up) or down."""
    if down:
        return numerator // denominator
    return (2 * numerator + denominator) // (2 * denominator)


@njit(inline="always")
def _damage_at(
    w: np.uint64, gamma: np.uint64, whole: np.int64, half: np.int64, trauma: np.int64, critical: bool
) -> tuple[np.uint64, np.int64, np.int64]:  # pragma: no cover - compiled
    """Damage of one hit at a location (TYC-5): (position, damage, draws made).

    Trauma plus the ``whole`` d8s and the ``half`` d4 left after armour, each at its maximum on
    a critical hit.
    """
    if critical:
        return w, trauma + 8 * whole + 4 * half, 0
    damage = trauma
    for _ in range(whole):
        w, face = draw_die(w, gamma, 8)
        damage += face
    if half:
        w, face = draw_die(w, gamma, 4)
        damage += face
    return w, damage, whole + half


@njit(inline="always")
def _hit_on(
    w: np.uint64,
    gamma: np.uint64,
    tables: np.ndarray,
    pair: np.int64,
    location_of_roll: np.ndarray,
    critical: bool,
    end: np.int64,
    penetrations: np.ndarray,
    j: np.int64,
) -> tuple[np.uint64, np.int64, np.int64, bool, np.int64]:  # pragma: no cover - compiled
    """Location, damage and stun of one hit on figure ``j``: (position, location, damage, stunned, draws made).

    ``tables[pair]`` are the shooter's damage tables on the target by AV worn off (TYC-5.5);
    ``penetrations[j]`` of the target by location count this hit when dice get through the armour.
    Everything is indexed in place (no views), as the hit is the innermost step of every duel and battle.
    """
    w, roll = draw_die(w, gamma, 20)
    location = location_of_roll[roll]
    wear = min(penetrations[j, location] // 2, tables.shape[1] - 1)
    whole = tables[pair, wear, 0, location]
    half = tables[pair, wear, 1, location]
    w, damage, dice = _damage_at(w, gamma, whole, half, tables[pair, wear, 2, location], critical)
    if whole + half > 0:
        penetrations[j, location] += 1
    made = 1 + dice
    stunned = False
    if location == 0:  # the head
        w, stunned = head_stun(w, gamma, damage, end)
        made += 1
    return w, location, damage, stunned, made


@njit(inline="always")
def shot_skill(
    params: np.ndarray, g: np.int64, loaded: np.int64, recoil_total: np.int64, strength: np.int64, rounding_down: bool
) -> tuple[np.int64, np.int64, np.int64]:  # pragma: no cover - compiled
    """One shot of a fire plan (TYC-3): (skill it rolls against, rounds left, recoil built up).

    The hands of two weapons alternate, the primary first (TYC-3.5); recoil builds shot by
    shot over STR' (TYC-3.4). ``params[g]`` is the figure's row of duel.SIDE_FIELDS.
    """
    hand_penalty = 0
    if params[g, TWO_WEAPONS]:
        fired = (params[g, MAGAZINE] - loaded) // params[g, ROUNDS]
        hand_penalty = params[g, PRIMARY_PENALTY] if fired % 2 == 0 else params[g, OFF_PENALTY]
    loaded -= params[g, ROUNDS]
    recoil_total += params[g, RECOIL]
    penalty = max(0, recoil_total - (strength - params[g, STR_LOSS]))
    base = (params[g, SKILL] + params[g, AIM_SKILL]) * params[g, MULTIPLIER]
    return round_off_ratio(base, 100, rounding_down) - penalty - hand_penalty, loaded, recoil_total


@njit(inline="always")
def volley_dice(
    params: np.ndarray,
    g: np.int64,
    loaded: np.int64,
    strength: np.int64,
    rounding_down: bool,
    recoil_dice_factor: np.int64,
) -> tuple[np.int64, np.int64]:  # pragma: no cover - compiled
    """A turn of full-automatic fire (TYC-4.1 to TYC-4.4): (dice rolled, rounds fired).

    ``params[g]`` is the figure's row of duel.SIDE_FIELDS.
    """
    rounds = min(params[g, AUTO_ROUNDS], loaded)
    full = params[g, AUTO_ROUNDS]  # the table's numbers are for a full turn's rounds
    reduction = round_off_ratio(params[g, AUTO_REDUCTION] * rounds, full, rounding_down)
    r5 = 5 * params[g, AUTO_RECOIL]
    if r5 > strength:
        reduction += recoil_dice_factor * (r5 - strength)
    dice = rounds - reduction
    if reduction > 0:
        floor = round_off_ratio(params[g, AUTO_MINIMUM] * rounds, full, rounding_down)
        dice = max(dice, floor)
    return max(0, min(dice, rounds)), rounds


@njit(inline="always")
def jam_check(
    w: np.uint64, gamma: np.uint64, shots: np.int64, bonus: np.int64, clear_die: np.int64
) -> tuple[np.uint64, np.int64, np.int64]:  # pragma: no cover - compiled
    """The jam check at the end of a turn of ``shots`` (TYC-3.6): (position, draws made, points to clear).

    2d6 (one draw) + ``bonus`` below the shots jams the weapon, and a d``clear_die`` (one draw)
    gives the action points that clear it. Rolled only where it can jam (shots - bonus > 2):
    elsewhere no draw is made and nothing jams.
    """
    if shots - bonus <= 2:
        return w, 0, 0
    w += gamma
    if two_d6_from_draw(mix64(w)) + bonus >= shots:
        return w, 1, 0
    w, points = draw_die(w, gamma, clear_die)
    return w, 2, points


@njit(inline="always")
def count_wounds(
    w: np.uint64,
    gamma: np.uint64,
    j: int,
    pending: np.ndarray,
    located: np.ndarray,
    level: np.ndarray,
    capacity: np.ndarray,
    capacity_row: int,
    limb: np.ndarray,
    end: int,
    dex: np.ndarray,
    strength: np.ndarray,
    slight: np.ndarray,
    serious: np.ndarray,
    serious_count: np.ndarray,
    stunned: bool,
    wounds: np.ndarray,
) -> tuple[np.uint64, int, int, bool]:  # pragma: no cover - compiled
    """The wounds of figure ``j``'s pending damage by location (TYC-6), its pending cleared.

    The first slight wound costs 2 DEX, the first serious one 4 DEX more and half the STR; a
    serious wound anywhere but the head calls for 3d6 under END (else unconscious); a serious
    head wound, a critical or amputated location, three serious locations, a stunning hit or
    DEX 0 put the figure out; a killing wound kills it. A figure whose first wounds are
    scratches hesitates (TYC-6.3; one that goes straight to a slight wound does not).
    ``wounds[j]`` adds the levels gained; ``capacity[capacity_row]`` is the capacity of each
    of its locations.

    Returns:
        (new position, draws made, 0 standing, 1 out, 2 killed, whether it hesitates).
    """
    made = 0
    out = stunned
    killed = False
    fresh = wounds[j] == 0  # never wounded before
    worst = 0
    for i in range(7):
        if pending[j, i] == 0:
            continue
        located[j, i] += pending[j, i]
        pending[j, i] = 0
        new = _level(located[j, i], capacity[capacity_row, i], limb[i] == 1, i == 0)
        worst = max(worst, new)
        if new >= 2 and not slight[j]:
            slight[j] = True
            dex[j] -= 2
        if new >= 3 and not serious[j]:
            serious[j] = True
            dex[j] -= 4
            strength[j] //= 2
        if new == 3 and level[j, i] < 3:
            serious_count[j] += 1
            if i == 0:
                out = True
            else:
                w, fainted = loses_consciousness(w, gamma, end)
                made += 3
                out = out or fainted
        if new >= 4:
            out = True
        if new == 6:
            killed = True
        if new > level[j, i]:
            wounds[j] += new - level[j, i]
            level[j, i] = new
    if serious_count[j] >= 3 or dex[j] <= 0:
        out = True
    if killed:
        return w, made, 2, False
    return w, made, 1 if out else 0, fresh and worst == 1 and not out
