"""Compiled sampler of Tyconian battles, N against M (ENG-4.2; docs/architecture.md, principle 3).

One private ``@njit(cache=True, nogil=True)`` kernel on the duel's mechanics (:mod:`.kernels`: a
shot's skill, a volley's dice, a hit's location, damage and stun, the wounds of TYC-6); its plain
reference is its own source run by the interpreter, bit-identical. Each trial takes its draws one
after another. Per turn (5 seconds): the consciousness rolls of the seriously wounded (TYC-6.3), each side's choice of
targets (a draw per figure under ``random``), each figure's fire plan (TYC-2.3); then second by
second the figures that act in it, in order of d20 + DEX (a d20 each, ENG-4.2; with
``same_second = "together"`` in line order, landing together as in the duel), each shot's d20
and, on a hit, its location, damage dice and stun; full-automatic fire at the end of the turn:
a d6 a die, the hits, then the danger zone (half the missed dice, rounded up: for each the
figure within 3 m it flies at, then its d6; a 6 hits, TYC-4.5).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine.rng import die_from_draw, draw_die, mix64
from simlab.systems.battle_trials import battle_arrays, begin_trial, end_trial, end_turn
from simlab.systems.battles import INCAPACITATED, STANDING
from simlab.systems.kernel_helpers import (
    assign_targets,
    battle_outcome_compiled,
    stand_in_line,
    standing_neighbours,
    standing_target,
)
from simlab.systems.tyconian.kernels import (
    AUTO,
    BONUS_TURN,
    CAN_JAM,
    DEX,
    END,
    F_HESITATION,
    F_JAM_BONUS,
    F_JAM_CLEAR,
    F_KNOCKDOWN_PER_SHOT,
    F_ROLL_EVERY_TURN,
    F_ROUND_DOWN,
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

# Columns of the per-side table.
S_TARGETS, S_BREAK, S_COUNT, S_SPACING_CM = range(4)
N_SIDE_COLUMNS = 4
# Entries of the rule integers.
# The readings and numbers of one figure's rules are the duel's ``flags`` (kernels.F_ROUND_DOWN ... F_JAM_CLEAR).
(R_SKILL_DIE, R_CRIT_SUCCESS, R_CRIT_FAILURE, R_RECOIL_DICE, R_TACTICS_TURNS, R_MAX_TURNS, R_IN_ORDER, R_DANGER_CM,
 R_TIES_BY_LINE) = range(9)  # fmt: skip
N_RULES = 9


@njit(inline="always")
def _land(
    w: np.uint64,
    gamma: np.uint64,
    tables: np.ndarray,
    pair: int,
    location_of_roll: np.ndarray,
    critical: bool,
    end: int,
    penetrations: np.ndarray,
    pending: np.ndarray,
    stunned: np.ndarray,
    hit: np.ndarray,
    j: int,
) -> tuple[np.uint64, int, int]:  # pragma: no cover - compiled
    """One hit on figure ``j`` (TYC-5): its damage pending at its location, its stun, its mark.

    ``tables[pair]`` are the damage tables of the shooter's group on ``j``'s (pair = g * G + gj).

    Returns:
        (new position, draws made, damage).
    """
    w, location, damage, stun, used = _hit_on(w, gamma, tables, pair, location_of_roll, critical, end, penetrations, j)
    pending[j, location] += damage
    stunned[j] = stunned[j] or stun
    hit[j] = True
    return w, used, damage


@njit(cache=True, nogil=True, error_model="numpy")
def battle_block(  # noqa: D417 - the arguments of every battle kernel: see simlab.systems.battle_trials
    offset: np.uint64,
    gamma: np.uint64,
    start: int,
    stop: int,
    window: int,
    groups: np.ndarray,
    group_side: np.ndarray,
    figure_group: np.ndarray,
    position: np.ndarray,
    sides: np.ndarray,
    locations: np.ndarray,
    capacity: np.ndarray,
    limb: np.ndarray,
    plans: np.ndarray,
    plan_shots: np.ndarray,
    location_of_roll: np.ndarray,
    rules: np.ndarray,
    flags: np.ndarray,
    counts: np.ndarray,
    ends: np.ndarray,
    turns_hist: np.ndarray,
    by_turn: np.ndarray,
    first_out: np.ndarray,
    seconds_hist: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Sample Tyconian battles (ENG-4.2 on TYC-2 to TYC-6) and add their tallies.

    Called as every battle kernel is (:mod:`simlab.systems.battle_trials`): the stream, the
    trials and the window first, ENG-5's tallies last; besides those:

    Args:
        groups: ``(G, 22)`` per group the duel's per-side parameters (duel.SIDE_FIELDS).
        group_side: Each group's side.
        figure_group: Each figure's group; side a's figures first, in line order.
        position: Each figure's place in its side's line.
        sides: ``(2, N_SIDE_COLUMNS)``: target doctrine, break point, figures, spacing (cm).
        locations: ``(G, G, wear + 1, 5, 7)`` damage tables of a group's hits on another (TYC-5).
        capacity: ``(G, 7)`` capacity of each location of a group's figures (TYC-6.1).
        limb: ``(7,)`` 1 for a limb.
        plans: ``(G, 3, J, 16, MAX_SHOTS)`` the second of each shot by kind of turn, points paid
            first to clear a jam (0 to J - 1) and DEX.
        plan_shots: ``(G, 3, J, 16)`` the shots of each plan.
        location_of_roll: Location index of each d20 roll.
        rules: The rule integers (R_SKILL_DIE ... R_TIES_BY_LINE).
        flags: The duel's readings and numbers of one figure's rules (kernels.F_ROUND_DOWN ... F_JAM_CLEAR).
        seconds_hist: Histogram of the battle's length in seconds.
    """
    n = figure_group.shape[0]
    n_groups = groups.shape[0]
    # The damage tables of a pair of groups (shooter g, target gt) at g * G + gt.
    tables = locations.reshape((n_groups * n_groups, locations.shape[2], 5, 7))
    max_turns = rules[R_MAX_TURNS]
    rounding_down = flags[F_ROUND_DOWN] == 1
    knockdown_per_shot = flags[F_KNOCKDOWN_PER_SHOT] == 1
    roll_every_turn = flags[F_ROLL_EVERY_TURN] == 1
    in_order = rules[R_IN_ORDER] == 1
    ties_by_line = rules[R_TIES_BY_LINE] == 1
    hesitation = flags[F_HESITATION]
    stride = np.uint64(window) * gamma
    side_of = np.empty(n, np.int64)
    for i in range(n):
        side_of[i] = group_side[figure_group[i]]
    dex = np.empty(n, np.int64)
    strength = np.empty(n, np.int64)
    loaded = np.empty(n, np.int64)
    spare = np.empty(n, np.int64)
    slight = np.empty(n, np.bool_)
    serious = np.empty(n, np.bool_)
    serious_count = np.empty(n, np.int64)
    located = np.zeros((n, 7), np.int64)
    level = np.zeros((n, 7), np.int64)
    penetrations = np.zeros((n, 7), np.int64)
    pending = np.zeros((n, 7), np.int64)
    stunned = np.empty(n, np.bool_)  # hit in the head and stunned since its hits were last counted
    hit = np.empty(n, np.bool_)  # hit since its hits were last counted
    wounds = np.empty(n, np.int64)
    shots_in = np.zeros((n, 6), np.int64)  # [i, s]: the figure's shots in second s of this turn
    firing_auto = np.empty(n, np.bool_)
    seconds_of = np.empty(n, np.int64)  # bit s: the figure acts in second s of this turn
    recoil_total = np.empty(n, np.int64)
    knocked = np.empty(n, np.bool_)
    turn_dex = np.empty(n, np.int64)
    turn_damage = np.empty(n, np.int64)
    hardest = np.empty(n, np.int64)
    acting = np.empty(n, np.int64)
    speed = np.empty(n, np.int64)
    tiebreak = np.empty(n, np.uint64)
    owed = np.empty(n, np.int64)  # action points owed to clear a jam (TYC-3.6)
    jam_row = np.empty(n, np.int64)  # the points this turn's plan pays for a jam first
    fired = np.empty(n, np.int64)  # shots of this turn (the jam check)
    hesitant_until = np.empty(n, np.int64)  # the last second (from the start) of a hesitation (TYC-6.3)
    enemies = np.empty(2, np.int64)  # the first figure of each side's enemies: side a's figures come first
    enemies[0] = sides[0, S_COUNT]
    enemies[1] = 0
    arrays = battle_arrays(n, max_turns, sides, S_COUNT, S_BREAK)
    state, target, order, members, alive, history, spent, counts_of, breaks = arrays
    for trial in range(start, stop):
        w = begin_trial(offset, stride, trial, state, side_of, members, alive, history, spent, counts_of)
        made = 0
        for i in range(n):
            g = figure_group[i]
            dex[i] = groups[g, DEX]
            strength[i] = groups[g, STR]
            loaded[i] = groups[g, MAGAZINE]
            spare[i] = groups[g, SPARE]
            slight[i] = False
            serious[i] = False
            knocked[i] = False
            stunned[i] = False
            hit[i] = False
            serious_count[i] = 0
            wounds[i] = 0
            owed[i] = 0
            hesitant_until[i] = -1
            for q in range(7):
                located[i, q] = 0
                level[i, q] = 0
                penetrations[i, q] = 0
                pending[i, q] = 0
        turns = 0
        elapsed = 0
        outcome = -1
        while turns < max_turns and outcome < 0:
            turns += 1
            for i in range(n):  # a seriously wounded figure that tries to act rolls to stay conscious (TYC-6.3)
                if roll_every_turn and serious[i] and state[i] == STANDING and not knocked[i]:
                    w, fainted = loses_consciousness(w, gamma, groups[figure_group[i], END])
                    made += 3
                    if fainted:
                        state[i] = INCAPACITATED
            stand_in_line(state, side_of, members, alive)
            outcome = battle_outcome_compiled(alive[0], alive[1], breaks[0], breaks[1])
            if outcome >= 0:
                elapsed = 5 * (turns - 1)
                history[0, turns] = alive[0]
                history[1, turns] = alive[1]
                break
            for s in range(2):
                w, drawn = assign_targets(sides[s, S_TARGETS], s, members, alive, wounds, target, w, gamma)
                made += drawn
            for i in range(n):  # each figure's fire plan for the turn (TYC-2.3)
                g = figure_group[i]
                for second in range(1, 6):
                    shots_in[i, second] = 0
                seconds_of[i] = 0
                fired[i] = 0
                jam_row[i] = 0
                firing_auto[i] = False
                recoil_total[i] = 0
                turn_dex[i] = dex[i]
                turn_damage[i] = 0
                hardest[i] = 0
                lying = knocked[i]
                knocked[i] = False
                if state[i] != STANDING or lying or dex[i] <= 0:  # knocked down last turn: no actions (TYC-6.4)
                    continue
                if loaded[i] < (1 if groups[g, AUTO] else groups[g, ROUNDS]):
                    if spare[i] > 0:  # a turn spent reloading (it clears a jam too)
                        spare[i] -= 1
                        loaded[i] = groups[g, MAGAZINE]
                        owed[i] = 0
                    continue
                if groups[g, AUTO]:
                    firing_auto[i] = True
                    seconds_of[i] = 1 << 5  # one volley at the end of the turn (TYC-4)
                    continue
                jam_row[i] = owed[i]  # a jam's points are paid first (TYC-3.6)
                owed[i] = 0
                kind = PLAIN_TURN
                if groups[g, TACTICS]:
                    if turns == 1:
                        kind = TACTICS_TURN
                    elif turns <= 1 + rules[R_TACTICS_TURNS]:
                        kind = BONUS_TURN
                row = min(dex[i], 15)
                for k in range(min(plan_shots[g, kind, jam_row[i], row], loaded[i] // groups[g, ROUNDS])):
                    second = plans[g, kind, jam_row[i], row, k]
                    shots_in[i, second] += 1
                    seconds_of[i] |= 1 << second
            busy = 0
            for i in range(n):
                busy |= seconds_of[i]
            for second in range(1, 6):
                if not busy & (1 << second):
                    continue  # nobody acts in this second: nothing changes
                count = 0
                bit = 1 << second
                now = 5 * (turns - 1) + second
                for i in range(n):  # who acts in this second (a hesitating figure's actions are lost, TYC-6.3)
                    if state[i] == STANDING and seconds_of[i] & bit and now > hesitant_until[i]:
                        acting[count] = i
                        count += 1
                if in_order:  # simultaneous actions go in order of d20 + DEX (TYC-2)
                    for q in range(count):
                        w, roll = draw_die(w, gamma, 20)
                        made += 1
                        speed[q] = roll + dex[acting[q]]
                    for q in range(1, count):
                        who = acting[q]
                        key = speed[q]
                        p = q - 1
                        while p >= 0 and speed[p] < key:
                            acting[p + 1] = acting[p]
                            speed[p + 1] = speed[p]
                            p -= 1
                        acting[p + 1] = who
                        speed[p + 1] = key
                    q = 0
                    while q < count and not ties_by_line:  # ties are rolled off again (ENG-4.2)
                        r = q + 1
                        while r < count and speed[r] == speed[q]:
                            r += 1
                        if r - q > 1:
                            # A roll-off repeated until it parts them gives every order of the tied figures
                            # the same chance: that order is drawn at once, one draw per tied figure.
                            for p in range(q, r):
                                w += gamma
                                tiebreak[p] = mix64(w)
                            made += r - q
                            for p in range(q + 1, r):
                                who = acting[p]
                                key64 = tiebreak[p]
                                u = p - 1
                                while u >= q and tiebreak[u] < key64:
                                    acting[u + 1] = acting[u]
                                    tiebreak[u + 1] = tiebreak[u]
                                    u -= 1
                                acting[u + 1] = who
                                tiebreak[u + 1] = key64
                        q = r
                changed = False  # anybody put out in this second
                for q in range(count + 1):  # each acting figure, then (together) the count of the second
                    if q == count:
                        if in_order:
                            break
                        count_from, count_to = 0, n  # the shots of a second land together (the duel's reading)
                    else:
                        i = acting[q]
                        if state[i] != STANDING:
                            continue  # put out earlier in this second
                        g = figure_group[i]
                        s = side_of[i]
                        t = standing_target(target[i], side_of, state, order)  # out: its neighbour
                        if t < 0:
                            continue
                        gt = figure_group[t]
                        for _ in range(shots_in[i, second]):
                            fired[i] += 1
                            spent[s] += groups[g, ROUNDS]
                            skill, loaded[i], recoil_total[i] = shot_skill(
                                groups, g, loaded[i], recoil_total[i], strength[i], rounding_down
                            )
                            w, roll = draw_die(w, gamma, rules[R_SKILL_DIE])
                            made += 1
                            critical = roll <= rules[R_CRIT_SUCCESS]
                            if critical or (roll < rules[R_CRIT_FAILURE] and roll <= skill):
                                w, used, damage = _land(
                                    w, gamma, tables, g * n_groups + gt, location_of_roll, critical, groups[gt, END],
                                    penetrations, pending, stunned, hit, t,
                                )  # fmt: skip
                                made += used
                                turn_damage[t] += damage
                                hardest[t] = max(hardest[t], damage)
                        if firing_auto[i] and second == 5:
                            dice, rounds = volley_dice(
                                groups, g, loaded[i], strength[i], rounding_down, rules[R_RECOIL_DICE]
                            )
                            loaded[i] -= rounds
                            spent[s] += rounds
                            scored = 0
                            for _ in range(dice):
                                w, face = draw_die(w, gamma, 6)
                                scored += face >= groups[g, HIT_FACE]
                            made += dice
                            volley = 0
                            for _ in range(scored):
                                w, used, damage = _land(
                                    w, gamma, tables, g * n_groups + gt, location_of_roll, False, groups[gt, END],
                                    penetrations, pending, stunned, hit, t,
                                )  # fmt: skip
                                made += used
                                volley += damage
                            turn_damage[t] += volley
                            hardest[t] = max(hardest[t], volley)  # a volley is one shot (TYC-6.4)
                            # The danger zone (TYC-4.5, ENG-4.2): half the missed dice, rounded up, at the
                            # standing friends of the target within 3 m; the rest are lost.
                            near = standing_neighbours(t, side_of, state, order)
                            close = 0
                            spacing = sides[side_of[t], S_SPACING_CM]
                            for p in range(near):
                                if abs(position[order[p]] - position[t]) * spacing <= rules[R_DANGER_CM]:
                                    order[close] = order[p]
                                    close += 1
                            if close > 0:
                                for _ in range((dice - scored + 1) // 2):
                                    w += gamma
                                    j = order[die_from_draw(mix64(w), np.int64(close)) - 1]
                                    w, face = draw_die(w, gamma, 6)
                                    made += 2
                                    if face == 6:
                                        gj = figure_group[j]
                                        w, used, damage = _land(
                                            w, gamma, tables, g * n_groups + gj, location_of_roll, False,
                                            groups[gj, END], penetrations, pending, stunned, hit, j,
                                        )  # fmt: skip
                                        made += used
                                        turn_damage[j] += damage
                                        hardest[j] = max(hardest[j], damage)
                        if not in_order:
                            continue
                        count_from = enemies[s]  # this figure's hits count at once (they are all on the other side)
                        count_to = count_from + sides[1 - s, S_COUNT]
                    for j in range(count_from, count_to):
                        if hit[j]:
                            hit[j] = False
                            w, drawn, became, hesitates = count_wounds(
                                w, gamma, j, pending, located, level, capacity, figure_group[j], limb,
                                groups[figure_group[j], END], dex, strength, slight, serious, serious_count,
                                stunned[j], wounds,
                            )  # fmt: skip
                            made += drawn
                            stunned[j] = False
                            if hesitates:  # its next seconds' actions are lost (TYC-6.3)
                                hesitant_until[j] = now + hesitation
                            if became > state[j]:
                                state[j] = became
                                changed = True
                if not changed:
                    continue  # everybody stands as before: the battle goes on
                stand_in_line(state, side_of, members, alive)
                outcome = battle_outcome_compiled(alive[0], alive[1], breaks[0], breaks[1])
                if outcome >= 0:
                    elapsed = 5 * (turns - 1) + second
                    break
            for i in range(n):  # knocked down: the impact damage of the turn above DEX (TYC-6.4)
                knocked[i] = (hardest[i] if knockdown_per_shot else turn_damage[i]) > turn_dex[i]
                g = figure_group[i]
                if groups[g, CAN_JAM] and outcome < 0 and state[i] == STANDING:  # the jam check (TYC-3.6)
                    shots = (fired[i] + 1) // 2 if groups[g, TWO_WEAPONS] else fired[i]  # of one weapon
                    w, drawn, points = jam_check(w, gamma, shots, flags[F_JAM_BONUS], flags[F_JAM_CLEAR])
                    made += drawn
                    if points > 0:  # owed until the figure next acts
                        owed[i] = points
            outcome = end_turn(turns, state, side_of, members, alive, history, first_out, counts_of, breaks, False)
        if outcome < 0:  # undecided after max_turns: a draw
            elapsed = 5 * turns
        seconds_hist[elapsed] += 1
        end_trial(outcome, turns, max_turns, state, side_of, history, spent, made, counts, ends, turns_hist, by_turn)
