"""Compiled sampler of HiTech TFT battles, N against M (ENG-4.3; docs/architecture.md, principle 3).

One private ``@njit(cache=True, nogil=True)`` kernel on the attack's mechanics
(:mod:`.kernels`: the 3d6 roll, damage dice through armour, the damage and knockdown of an
attack); its plain reference is its own source run by the interpreter. Each trial takes its
draws one after another. Per turn: each side's choice of targets (a draw per figure under
``random``), then every standing figure with its weapon in hand and what its mode fires left in
its clip (one whose clip is spent reloads instead, while it has clips), in line order, side a
first: its 3d6; for a blast weapon that misses, the direction (a draw) and the hexes (a d6) it
scatters along the line; then the damage dice of the target (or of every figure within 3 hexes
of the blast, in line order; HE splash on the figures within one hex of the target). Damage and
knockdown count at the end of the turn.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine.rng import die_from_draw, mix64
from simlab.systems.battle_trials import battle_arrays, begin_trial, end_trial, end_turn, figure_sides
from simlab.systems.battles import INCAPACITATED, KILLED, STANDING
from simlab.systems.hitech_tft.kernels import N_DISTANCES, _armoured_dice, _attack_outcome, _roll_3d6
from simlab.systems.kernel_helpers import assign_targets

# Columns of the per-group table.
(G_SIDE, G_DICE, G_ADDS, G_SPLASH, G_BLAST, G_ST, G_SOFT, G_STAGGER, G_KNOCKDOWN, G_ROUNDS, G_PER_DIE,
 G_QUICKDRAW, G_CLIP, G_SPARE) = range(14)  # fmt: skip
N_GROUP_COLUMNS = 14
# Columns of the per-side table.
S_TARGETS, S_BREAK, S_COUNT = range(3)
N_SIDE_COLUMNS = 3
# Rows of the per-group roll tables: hits, dice multiplier, weapon lost; then staggered (-2 DX).
T_HITS, T_MULTIPLIER, T_LOST = range(3)
#: The most hexes a missed blast weapon scatters (TFT-7.2: 1d6).
SCATTER = 6


@njit(cache=True, nogil=True, error_model="numpy")
def battle_block(  # noqa: D417 - the arguments of every battle kernel: see simlab.systems.battle_trials
    offset: np.uint64,
    gamma: np.uint64,
    start: int,
    stop: int,
    window: int,
    groups: np.ndarray,
    rolls: np.ndarray,
    figure_group: np.ndarray,
    sides: np.ndarray,
    protection: np.ndarray,
    factor: np.ndarray,
    dice_at: np.ndarray,
    protection_at: np.ndarray,
    blast_hexes: np.ndarray,
    max_turns: int,
    counts: np.ndarray,
    ends: np.ndarray,
    turns_hist: np.ndarray,
    by_turn: np.ndarray,
    first_out: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Sample HiTech TFT battles (ENG-4.3 on TFT-2 to TFT-7) and add their tallies.

    Called as every battle kernel is (:mod:`simlab.systems.battle_trials`): the stream, the
    trials and the window first, ENG-5's tallies last; besides those:

    Args:
        groups: ``(G, N_GROUP_COLUMNS)`` per group: side, dice per hit, adds per hit, HE splash
            points per die (-1: none), blast weapon, ST, soft armour, stagger and knockdown
            thresholds, what a shot takes from the clip, per-die armour, quickdraw DX (-1: none),
            the clip (-1: no clip, never runs dry), clips carried besides the loaded one.
        rolls: ``(G, 2, 3, 19)`` per group, unstaggered and staggered (-2 DX), the roll table:
            hits, dice multiplier and weapon lost by 3d6 total.
        figure_group: Each figure's group; side a's figures first, in line order.
        sides: ``(2, N_SIDE_COLUMNS)``: target doctrine, break point, figures.
        protection: ``(G, G)`` the armour a group's hits meet on another group's figures.
        factor: ``(G, G)`` the multiplier of the damage through armour (HE, HEAP: 2).
        dice_at: ``(G, N_DISTANCES)`` a blast's dice at hex distance k.
        protection_at: ``(G, G, N_DISTANCES)`` the armour per die at hex distance k.
        blast_hexes: ``(n, n, 2 * SCATTER + 1)`` hex distance from a blast at figure t's hex,
            scattered by o - SCATTER hexes along the line, to figure j (99 beyond reach).
        max_turns: Turns after which the battle is a draw.
    """
    n = figure_group.shape[0]
    stride = np.uint64(window) * gamma
    side_of = figure_sides(groups, figure_group, G_SIDE)
    taken = np.zeros(n, np.int64)
    new_taken = np.zeros(n, np.int64)
    knock = np.zeros(n, np.int64)
    armed = np.zeros(n, np.bool_)
    loaded = np.zeros(n, np.int64)
    spare = np.zeros(n, np.int64)
    down = np.zeros(n, np.bool_)
    staggered = np.zeros(n, np.bool_)
    arrays = battle_arrays(n, max_turns, sides, S_COUNT, S_BREAK)
    state, target, _, members, alive, history, spent, counts_of, breaks = arrays
    for trial in range(start, stop):
        w = begin_trial(offset, stride, trial, state, side_of, members, alive, history, spent, counts_of)
        made = 0
        for i in range(n):
            taken[i] = 0
            new_taken[i] = 0
            knock[i] = 0
            armed[i] = True
            loaded[i] = groups[figure_group[i], G_CLIP]
            spare[i] = groups[figure_group[i], G_SPARE]
            down[i] = False
            staggered[i] = False
        turns = 0
        outcome = -1
        while turns < max_turns and outcome < 0:
            turns += 1
            for s in range(2):
                w, drawn = assign_targets(sides[s, S_TARGETS], s, members, alive, taken, target, w, gamma)
                made += drawn
            for i in range(n):
                if state[i] != STANDING or not armed[i] or down[i]:
                    continue  # a knocked-down figure spends the turn getting up (TFT-5.2)
                t = target[i]
                if t < 0:
                    continue
                g = figure_group[i]
                gt = figure_group[t]
                if loaded[i] >= 0 and loaded[i] < groups[g, G_ROUNDS]:  # the clip is spent (ENG-4.3)
                    if spare[i] > 0:  # reloading takes the turn
                        spare[i] -= 1
                        loaded[i] = groups[g, G_CLIP]
                    continue
                if groups[g, G_QUICKDRAW] >= 0:  # the pistol is not ready (TFT-6.3)
                    roll = _roll_3d6(w, gamma)
                    w += np.uint64(3) * gamma
                    made += 3
                    if roll > groups[g, G_QUICKDRAW]:
                        continue
                spent[side_of[i]] += groups[g, G_ROUNDS]
                if loaded[i] >= 0:
                    loaded[i] -= groups[g, G_ROUNDS]
                total = _roll_3d6(w, gamma)
                w += np.uint64(3) * gamma
                made += 3
                table = 1 if staggered[i] else 0  # -2 DX after a stagger (TFT-5.2)
                hits = rolls[g, table, T_HITS, total]
                multiplier = rolls[g, table, T_MULTIPLIER, total]
                if rolls[g, table, T_LOST, total]:
                    armed[i] = False  # dropped or broken (TFT-3.2)
                if groups[g, G_BLAST]:  # TFT-7: a hit bursts in the target's hex, a miss scatters
                    offset_hexes = 0
                    if hits == 0:
                        w += gamma
                        left = die_from_draw(mix64(w), 2) == 1
                        w += gamma
                        hexes = die_from_draw(mix64(w), 6)
                        made += 2
                        offset_hexes = -hexes if left else hexes
                    for j in range(n):  # every figure of the target's line within reach, in line order
                        if side_of[j] != side_of[t] or state[j] != STANDING:
                            continue
                        k = blast_hexes[t, j, offset_hexes + SCATTER]
                        if k >= N_DISTANCES:
                            continue
                        gj = figure_group[j]
                        dice = dice_at[g, k] * (multiplier if k == 0 and hits > 0 else 1)
                        w, through, raw = _armoured_dice(w, gamma, dice, protection_at[g, gj, k])
                        made += dice
                        damage, impact = _attack_outcome(
                            1, through, raw, 0, True, groups[g, G_ADDS], factor[g, gj], groups[gj, G_SOFT] == 1
                        )
                        new_taken[j] += damage
                        knock[j] = max(knock[j], impact)
                    continue
                if hits == 0:
                    continue
                dice = hits * groups[g, G_DICE] * multiplier
                w, through, raw = _armoured_dice(w, gamma, dice, protection[g, gt])
                made += dice
                damage, impact = _attack_outcome(
                    hits, through, raw, protection[g, gt], groups[g, G_PER_DIE] == 1, groups[g, G_ADDS],
                    factor[g, gt], groups[gt, G_SOFT] == 1,
                )  # fmt: skip
                new_taken[t] += damage
                knock[t] = max(knock[t], impact)
                if groups[g, G_SPLASH] >= 0:  # HE: the figures within one hex take points per die (TFT-4.5)
                    for j in range(n):
                        near = side_of[j] == side_of[t] and blast_hexes[t, j, SCATTER] <= 1
                        if near and j != t and state[j] == STANDING:
                            new_taken[j] += groups[g, G_SPLASH] * dice
            alive[0] = 0
            alive[1] = 0
            for i in range(n):  # the turn's damage and knockdowns count together (TFT-5, TFT-6.1)
                g = figure_group[i]
                down[i] = False
                staggered[i] = False
                if state[i] == STANDING:
                    taken[i] += new_taken[i]
                    if taken[i] >= groups[g, G_ST]:
                        state[i] = KILLED
                    elif taken[i] >= groups[g, G_ST] - 1:
                        state[i] = INCAPACITATED
                    else:
                        down[i] = knock[i] >= groups[g, G_KNOCKDOWN]
                        staggered[i] = knock[i] >= groups[g, G_STAGGER]
                new_taken[i] = 0
                knock[i] = 0
                if state[i] == STANDING:  # in line in the same pass (stand_in_line's, ENG-3)
                    members[side_of[i], alive[side_of[i]]] = i
                    alive[side_of[i]] += 1
            outcome = end_turn(turns, state, side_of, members, alive, history, first_out, counts_of, breaks, False)
        end_trial(outcome, turns, max_turns, state, side_of, history, spent, made, counts, ends, turns_hist, by_turn)
