"""Compiled sampler of Space Combat V4 battles, fleet against fleet (ENG-4.4; principle 3).

One private ``@njit(cache=True, nogil=True)`` kernel on the duel's mechanics
(:func:`simlab.systems.space_v4.kernels.fire_group`: one attack roll, point defence and the
damage fractions); its plain reference is its own source run by the interpreter. Each trial
takes its draws one after another: first a draw per ship that orders ships of equal G (the
roll-off of SPC-7), then per turn each side's choice of targets (a draw per ship under
``random``) and each ship's turn in order of G: its crew's skill rolls, its groups' attack
rolls and the target's point-defence rolls.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine.rng import mix64
from simlab.systems.battle_trials import battle_arrays, begin_trial, end_trial, end_turn
from simlab.systems.battles import INCAPACITATED, KILLED, STANDING
from simlab.systems.kernel_helpers import assign_targets, battle_outcome_compiled, stand_in_line, standing_target
from simlab.systems.space_v4.kernels import (
    BEAM,
    CLOSE,
    DISABLE,
    HULL,
    MAGAZINE,
    MISSILE,
    OPEN,
    PULSE,
    R_CUMULATIVE,
    R_EVERY_TURN_MOVES,
    R_GROUPING,
    R_MAX_TURNS,
    R_NATURAL,
    R_NATURAL_HIT,
    R_PER_CRIT,
    R_SKILL_TARGET,
    R_START_BAND,
    R_TO_HIT,
    SAND,
    SANDCASTERS,
    G,
    crew_rolls,
    defence,
    fire_group,
    point_defence,
    prepare_fire,
)

# Columns of the per-side table.
S_TARGETS, S_BREAK, S_COUNT, S_POLICY = range(4)
N_SIDE_COLUMNS = 4


@njit(cache=True, nogil=True, error_model="numpy")
def battle_block(  # noqa: D417 - the arguments of every battle kernel: see simlab.systems.battle_trials
    offset: np.uint64,
    gamma: np.uint64,
    start: int,
    stop: int,
    window: int,
    ships: np.ndarray,
    turrets: np.ndarray,
    side_of: np.ndarray,
    sides: np.ndarray,
    rule_ints: np.ndarray,
    band_dm: np.ndarray,
    band_fires: np.ndarray,
    applied: np.ndarray,
    counts: np.ndarray,
    ends: np.ndarray,
    turns_hist: np.ndarray,
    by_turn: np.ndarray,
    first_out: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Sample battles of fleets (ENG-4.4 on SPC-3 to SPC-7) and add their tallies.

    Called as every battle kernel is (:mod:`simlab.systems.battle_trials`): the stream, the
    trials and the window first, ENG-5's tallies last; besides those:

    Args:
        ships: ``(n, N_SIDE_INTS)`` each ship's values, as a duel side's (kernels.G ... SKILL_ROLLS).
        turrets: ``(n, turrets, 4)`` weapons of each kind per turret of each ship.
        side_of: Each ship's side; side a's ships first, in line order.
        sides: ``(2, N_SIDE_COLUMNS)``: target doctrine, break point, ships, range policy.
        rule_ints: The duel's rule integers (kernels.R_TO_HIT ...).
        band_dm: DM of each range band.
        band_fires: Whether each weapon kind may fire at each band.
        applied: Applied hits by optimal hits and margin.
    """
    n = side_of.shape[0]
    n_turrets = turrets.shape[1]
    max_turns = rule_ints[R_MAX_TURNS]
    per_crit = rule_ints[R_PER_CRIT]
    stride = np.uint64(window) * gamma
    lasers_of = np.zeros((n, n_turrets), np.int64)
    for i in range(n):
        for t in range(n_turrets):
            lasers_of[i, t] = turrets[i, t, BEAM] + turrets[i, t, PULSE]
    held = np.zeros((n, n_turrets), np.int64)
    fired = np.zeros((n, n_turrets), np.int64)
    pd = np.zeros((turrets.sum() + 1, 2), np.int64)
    hits_on = np.zeros(n, np.int64)
    crits_on = np.zeros(n, np.int64)
    magazine = np.zeros(n, np.int64)
    sand_up = np.zeros(n, np.bool_)
    engineer_up = np.zeros(n, np.bool_)
    acting = np.zeros(n, np.int64)
    key = np.zeros(n, np.uint64)
    group = np.zeros(4, np.int64)
    arrays = battle_arrays(n, max_turns, sides, S_COUNT, S_BREAK)
    state, target, order, members, alive, history, spent, counts_of, breaks = arrays
    for trial in range(start, stop):
        w = begin_trial(offset, stride, trial, state, side_of, members, alive, history, spent, counts_of)
        made = 0
        for i in range(n):
            hits_on[i] = 0
            crits_on[i] = 0
            magazine[i] = ships[i, MAGAZINE]
            sand_up[i] = False
            engineer_up[i] = False
            for t in range(n_turrets):
                held[i, t] = lasers_of[i, t]
                fired[i, t] = 0
            w += gamma  # the roll-off that orders ships of equal G (SPC-7)
            key[i] = mix64(w)
            made += 1
            acting[i] = i
        for q in range(1, n):  # higher G first, then the roll-off
            who = acting[q]
            p = q - 1
            while p >= 0 and (
                ships[acting[p], G] < ships[who, G]
                or (ships[acting[p], G] == ships[who, G] and key[acting[p]] > key[who])
            ):
                acting[p + 1] = acting[p]
                p -= 1
            acting[p + 1] = who
        band = rule_ints[R_START_BAND]
        turns = 0
        outcome = -1
        while turns < max_turns and outcome < 0:
            turns += 1
            for s in range(2):
                w, drawn = assign_targets(sides[s, S_TARGETS], s, members, alive, hits_on, target, w, gamma)
                made += drawn
            for q in range(n):
                x = acting[q]
                if state[x] != STANDING:
                    continue
                y = standing_target(target[x], side_of, state, order)  # out: its neighbour
                if y < 0:
                    continue
                # Crew skill rolls (SPC-6).
                w, rolled, g_x, computer_x, gunner, engineer_up[x] = crew_rolls(
                    w, gamma, ships, x, rule_ints[R_SKILL_TARGET]
                )
                made += rolled
                # Lasers held back for point defence, missiles launched, then sand (SPC-7).
                launched, best = prepare_fire(
                    ships, x, band, turrets, lasers_of, band_fires, held, fired, magazine, group
                )
                spent[side_of[x]] += launched
                sand_up[x] = ships[x, SAND] == 1 and ships[x, SANDCASTERS] > 0
                base_dm, sand, need_held, need_fired, reduction = defence(
                    ships, y, g_x, computer_x, band_dm, band, sand_up[y], engineer_up[y], rule_ints
                )
                for kind in range(4):
                    count = group[kind]
                    if count == 0 or state[y] != STANDING:
                        continue
                    dm = base_dm + (sand if kind < MISSILE else 0)
                    per_weapon_hits = 1 if kind < MISSILE else 3 if kind == MISSILE else 6
                    rolls = count if rule_ints[R_GROUPING] == 1 else 1
                    size = 1 if rule_ints[R_GROUPING] == 1 else count
                    pd[:count, :] = 0
                    if kind >= MISSILE:  # its point defence protects itself only (ENG-4.4, SPC-5.2)
                        point_defence(pd, count, y, lasers_of, held, fired)
                    for r in range(rolls):
                        bonus = 1 if (kind == best and r == 0) else 0
                        w, hits, _, draws, _ = fire_group(
                            w, gamma, size, per_weapon_hits, dm + gunner * bonus, rule_ints[R_TO_HIT],
                            rule_ints[R_NATURAL], rule_ints[R_NATURAL_HIT], applied, pd, r * size, need_held,
                            need_fired, reduction,
                        )  # fmt: skip
                        made += draws
                        hits_on[y] += hits
                        if rule_ints[R_CUMULATIVE] == 1:
                            crits_on[y] = hits_on[y] // per_crit
                        else:
                            crits_on[y] += hits // per_crit
                        if hits_on[y] >= ships[y, HULL]:
                            state[y] = KILLED  # destroyed
                            break
                        if crits_on[y] >= ships[y, DISABLE]:
                            state[y] = INCAPACITATED  # disabled
                            break
                stand_in_line(state, side_of, members, alive)
                fastest = x
                for p in range(n):  # in order of G: the first standing ship is the fastest
                    if state[acting[p]] == STANDING:
                        fastest = acting[p]
                        break
                outcome = battle_outcome_compiled(alive[0], alive[1], breaks[0], breaks[1])
                if outcome >= 0:
                    break
                # Movement (SPC-7, ENG-4.4): at the end of each ship's turn the battle's fastest
                # standing ship moves the range by its side's policy (the old reading: its own turn only).
                if fastest == x or rule_ints[R_EVERY_TURN_MOVES] == 1:
                    policy = sides[side_of[fastest], S_POLICY]
                    if policy == CLOSE:
                        band = max(0, band - 1)
                    elif policy == OPEN:
                        band = min(band_dm.shape[0] - 1, band + 1)
            outcome = end_turn(turns, state, side_of, members, alive, history, first_out, counts_of, breaks, False)
        end_trial(outcome, turns, max_turns, state, side_of, history, spent, made, counts, ends, turns_hist, by_turn)
