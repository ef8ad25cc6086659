"""The compiled Tyconian duel: two figures fire second by second by their fire plans (TYC-2 to TYC-6).

It shares the rules of fire with the attack kernel (:mod:`.kernels`: a shot's skill, full-automatic
dice, jams, wounds and their effects), so a duel's shot is resolved as one attack's.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine.rng import DRAWS_PER_TRIAL_LIMIT, draw_die
from simlab.systems.kernel_helpers import record_duel_compiled
from simlab.systems.tyconian.kernels import (
    AUTO,
    BONUS_TURN,
    CAN_JAM,
    DEX,
    END,
    F_HESITATION,
    F_JAM_BONUS,
    F_JAM_CLEAR,
    HIT_FACE,
    MAGAZINE,
    PLAIN_TURN,
    ROUNDS,
    SPARE,
    STR,
    TACTICS,
    TACTICS_TURN,
    TWO_WEAPONS,
    _hit_on,
    count_wounds,
    jam_check,
    loses_consciousness,
    shot_skill,
    volley_dice,
)

__all__ = ["duel_block"]


@njit(cache=True, nogil=True, error_model="numpy")
def duel_block(
    offset: np.uint64,
    gamma: np.uint64,
    start: int,
    stop: int,
    sides: np.ndarray,
    locations: np.ndarray,
    plans: np.ndarray,
    plan_shots: np.ndarray,
    location_of_roll: np.ndarray,
    roll_limits: np.ndarray,
    flags: np.ndarray,
    recoil_dice_factor: int,
    tactics_turns: int,
    max_turns: int,
    turns_hist: np.ndarray,
    seconds_hist: np.ndarray,
    counts: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Sample Tyconian duels second by second (TYC-2 to TYC-6) and add their tallies.

    Args:
        offset: Stream offset of the cell.
        gamma: Stream increment of the cell.
        start: First trial.
        stop: One past the last trial.
        sides: ``(2, 21)`` per-side parameters (duel.SIDE_FIELDS).
        locations: ``(2, wear + 1, 5, 7)``: per shooter and AV worn off (TYC-5.5), the whole d8,
            half d4, trauma, capacity and is-limb of each location of the other figure.
        plans: ``(2, 3, 5, 16, MAX_SHOTS)`` the second of each shot, per side, kind of turn, action
            points owed to clear a jam (0-4) and DEX.
        plan_shots: ``(2, 3, 5, 16)`` the shots of each plan (TYC-2.3).
        location_of_roll: Location index of each d20 roll.
        roll_limits: ``[skill_die, critical_success_max, critical_failure_min]``.
        flags: ``[round down (TYC-1.3), knockdown per shot (TYC-6.4), consciousness roll every
            turn (TYC-6.3)]`` as 0 or 1, then the jam bonus (TYC-3.6), the seconds of hesitation
            (TYC-6.3) and the die of a jam's clearing points (F_ROUND_DOWN ... F_JAM_CLEAR).
        recoil_dice_factor: Full-auto dice lost per point of R5 over STR (TYC-4.3).
        tactics_turns: Turns a successful Tactics roll adds its points (TYC-2.1).
        max_turns: Turns after which a duel ends undecided.
        turns_hist: Histogram of turns.
        seconds_hist: Histogram of seconds.
        counts: Tallies indexed as in :mod:`simlab.systems.duels`.
    """
    stride = np.uint64(DRAWS_PER_TRIAL_LIMIT) * gamma
    rounding_down = flags[0] == 1
    knockdown_per_shot = flags[1] == 1
    roll_every_turn = flags[2] == 1
    jam_bonus = flags[F_JAM_BONUS]
    hesitation = flags[F_HESITATION]
    dex = np.empty(2, np.int64)
    strength = np.empty(2, np.int64)
    loaded = np.empty(2, np.int64)
    spare = np.empty(2, np.int64)
    down = np.empty(2, np.bool_)
    slight = np.empty(2, np.bool_)
    serious = np.empty(2, np.bool_)
    serious_count = np.empty(2, np.int64)
    located = np.zeros((2, 7), np.int64)
    level = np.zeros((2, 7), np.int64)
    penetrations = np.zeros((2, 7), np.int64)
    pending = np.zeros((2, 7), np.int64)
    stunned = np.empty(2, np.bool_)
    n_shots = np.empty(2, np.int64)
    kind = np.empty(2, np.int64)
    row = np.empty(2, np.int64)
    owed = np.empty(2, np.int64)  # action points owed to clear a jam (TYC-3.6)
    jam_row = np.empty(2, np.int64)  # the points this turn's plan pays for a jam first
    fired = np.empty(2, np.int64)  # shots of this turn (the jam check)
    hesitant_until = np.empty(2, np.int64)  # the last second (from the start) of a hesitation (TYC-6.3)
    firing_auto = np.empty(2, np.bool_)
    recoil_total = np.empty(2, np.int64)
    knocked = np.empty(2, np.bool_)
    turn_dex = np.empty(2, np.int64)
    turn_damage = np.empty(2, np.int64)
    hardest = np.empty(2, np.int64)
    gained = np.zeros(2, np.int64)  # wound levels gained (the battles' "weakest"; unused here)
    capacity = np.empty((2, 7), np.int64)  # of each figure's locations, from the other's tables
    for s in range(2):
        for i in range(7):
            capacity[s, i] = locations[1 - s, 0, 3, i]
    limb = locations[0, 0, 4].copy()
    for trial in range(start, stop):
        w = offset + np.uint64(trial) * stride
        made = 0
        for s in range(2):
            dex[s] = sides[s, DEX]
            strength[s] = sides[s, STR]
            loaded[s] = sides[s, MAGAZINE]
            spare[s] = sides[s, SPARE]
            down[s] = False
            slight[s] = False
            serious[s] = False
            knocked[s] = False
            serious_count[s] = 0
            owed[s] = 0
            hesitant_until[s] = -1
            gained[s] = 0
            for i in range(7):
                located[s, i] = 0
                level[s, i] = 0
                penetrations[s, i] = 0
        turns = 0
        elapsed = 0
        over = False
        while turns < max_turns and not over:
            turns += 1
            for s in range(2):  # a seriously wounded figure that tries to act rolls to stay conscious (TYC-6.3)
                if roll_every_turn and serious[s] and not down[s] and not knocked[s]:
                    w, fainted = loses_consciousness(w, gamma, sides[s, END])
                    made += 3
                    down[s] = down[s] or fainted
            if down[0] or down[1]:
                elapsed = 5 * (turns - 1)
                break
            for s in range(2):  # each figure's fire plan for the turn (TYC-2.3)
                n_shots[s] = 0
                fired[s] = 0
                jam_row[s] = 0
                firing_auto[s] = False
                recoil_total[s] = 0
                turn_dex[s] = dex[s]
                turn_damage[s] = 0
                hardest[s] = 0
                lying = knocked[s]
                knocked[s] = False
                if lying or dex[s] <= 0:  # knocked down last turn: no actions (TYC-6.4)
                    continue
                if loaded[s] < (1 if sides[s, AUTO] else sides[s, ROUNDS]):
                    if spare[s] > 0:  # a turn spent reloading (it clears a jam too)
                        spare[s] -= 1
                        loaded[s] = sides[s, MAGAZINE]
                        owed[s] = 0
                    continue
                if sides[s, AUTO]:
                    firing_auto[s] = True
                    continue
                jam_row[s] = owed[s]  # a jam's points are paid first (TYC-3.6)
                owed[s] = 0
                kind[s] = PLAIN_TURN
                if sides[s, TACTICS]:
                    if turns == 1:
                        kind[s] = TACTICS_TURN
                    elif turns <= 1 + tactics_turns:
                        kind[s] = BONUS_TURN
                row[s] = min(dex[s], 15)
                n_shots[s] = min(plan_shots[s, kind[s], jam_row[s], row[s]], loaded[s] // sides[s, ROUNDS])
            for second in range(1, 6):
                for s in range(2):
                    stunned[s] = False
                    for i in range(7):
                        pending[s, i] = 0
                now = 5 * (turns - 1) + second
                for s in range(2):
                    if down[s] or now <= hesitant_until[s]:  # a hesitating figure's actions are lost (TYC-6.3)
                        continue
                    other = 1 - s
                    for k in range(n_shots[s]):
                        if plans[s, kind[s], jam_row[s], row[s], k] != second:
                            continue
                        fired[s] += 1
                        skill, loaded[s], recoil_total[s] = shot_skill(
                            sides, s, loaded[s], recoil_total[s], strength[s], rounding_down
                        )
                        w, roll = draw_die(w, gamma, roll_limits[0])
                        made += 1
                        critical = roll <= roll_limits[1]
                        if critical or (roll < roll_limits[2] and roll <= skill):
                            w, location, damage, stun, used = _hit_on(
                                w, gamma, locations, s, location_of_roll, critical, sides[other, END],
                                penetrations, other,
                            )  # fmt: skip
                            made += used
                            pending[other, location] += damage
                            stunned[other] = stunned[other] or stun
                            turn_damage[other] += damage
                            hardest[other] = max(hardest[other], damage)
                    if firing_auto[s] and second == 5:
                        dice, rounds = volley_dice(sides, s, loaded[s], strength[s], rounding_down, recoil_dice_factor)
                        loaded[s] -= rounds
                        scored = 0
                        for _ in range(dice):
                            w, face = draw_die(w, gamma, 6)
                            scored += face >= sides[s, HIT_FACE]
                        made += dice
                        volley = 0
                        for _ in range(scored):
                            w, location, damage, stun, used = _hit_on(
                                w, gamma, locations, s, location_of_roll, False, sides[other, END],
                                penetrations, other,
                            )  # fmt: skip
                            made += used
                            pending[other, location] += damage
                            stunned[other] = stunned[other] or stun
                            volley += damage
                        turn_damage[other] += volley
                        hardest[other] = max(hardest[other], volley)  # a volley is one shot (TYC-6.4)
                for s in range(2):  # the wounds of this second (TYC-6)
                    w, drawn, became, hesitates = count_wounds(
                        w, gamma, s, pending, located, level, capacity, s, limb, sides[s, END], dex, strength,
                        slight, serious, serious_count, stunned[s], gained,
                    )  # fmt: skip
                    made += drawn
                    down[s] = down[s] or became > 0
                    if hesitates:  # its next seconds' actions are lost (TYC-6.3)
                        hesitant_until[s] = now + hesitation
                if down[0] or down[1]:
                    over = True
                    elapsed = 5 * (turns - 1) + second
                    break
            for s in range(2):  # knocked down: the impact damage of the turn above DEX (TYC-6.4)
                knocked[s] = (hardest[s] if knockdown_per_shot else turn_damage[s]) > turn_dex[s]
                if sides[s, CAN_JAM] and not over:  # the jam check at the turn's end (TYC-3.6)
                    shots = (fired[s] + 1) // 2 if sides[s, TWO_WEAPONS] else fired[s]  # of one weapon
                    w, drawn, points = jam_check(w, gamma, shots, jam_bonus, flags[F_JAM_CLEAR])
                    made += drawn
                    if points > 0:  # owed until the figure next acts
                        owed[s] = points
        if not over and not (down[0] or down[1]):
            elapsed = 5 * turns
        record_duel_compiled(counts, turns_hist, seconds_hist, down[0], down[1], turns, elapsed, 1, made)
