"""Compiled sampler of Striker battles, N against M (ENG-4.1; docs/architecture.md, principle 3).

One private ``@njit(cache=True, nogil=True)`` kernel; its plain reference is its own source
run by the interpreter (:mod:`simlab.engine.interpreted`), bit-identical. Each trial takes its
draws one after another from its window of the cell's stream. Per turn: initiative (2d6 +
tactics a side, again on a tie; only when some figure fires suppressively: it orders nothing
else), each side's choice of targets (a draw per figure under ``random``), suppressive fire
side by side in initiative order, every shot applied at once (to-hit, then for a natural 12
its one wounding hit), then the normal fire of every other standing figure in line order,
side a first (to-hit, then per hit two places: its penetration 2d6 and the consciousness or
Not Dead Yet 2d6 where the wound calls for one), applied together at the end of the turn.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine.rng import draw_2d6, mix64, two_d6_from_draw
from simlab.systems.battle_trials import battle_arrays, begin_trial, end_trial, end_turn, figure_sides
from simlab.systems.battles import INCAPACITATED, KILLED, STANDING
from simlab.systems.kernel_helpers import assign_targets, hits_scored_compiled, standing_neighbours, standing_target

# Columns of the per-group table.
G_SIDE, G_PER_ATTACK, G_MAGAZINE, G_SPARE, G_ROLL_DM, G_MIN_ROUNDS, G_SUPPRESSIVE, G_GREEN, G_CAN_SUPPRESS = range(9)
N_GROUP_COLUMNS = 9
# Columns of the per-side table.
S_TACTICS, S_TARGETS, S_BREAK, S_EXTRA_ADJACENT, S_SUPPRESSORS, S_GO_PRONE, S_COUNT = range(7)
N_SIDE_COLUMNS = 7
# Entries of the rule integers.
(R_HIT_TARGET, R_STEP, R_SERIOUS_LIGHT, R_SUPPRESS_FIRST, R_SUPPRESS_EXTRA, R_MAX_TURNS, R_INITIATIVE, R_MISS_MAX,
 R_HIT_MIN, R_SUPPRESS_WOUND_MIN) = range(10)  # fmt: skip
N_RULES = 10
# Rows of a pair's per-hit table (as the attack kernel's) and worst-outcome categories (STR-6.4).
FOLLOW, TARGET, SUCCESS, FAILURE = range(4)
UNHURT, LIGHT, SERIOUS, UNCONSCIOUS, NOT_DEAD_YET, CAT_KILLED = range(6)


@njit(inline="always")
def _wound(
    w: np.uint64,
    gamma: np.uint64,
    tables: np.ndarray,
    shooter: int,
    target: int,
    roll_dm: int,
    penalty: int,
) -> tuple[np.uint64, int, int]:  # pragma: no cover - compiled
    """One hit's penetration and its consciousness or Not Dead Yet roll (STR-4, STR-6).

    Branch-free, as the attack kernel: the follow-up 2d6 has its fixed place after the
    penetration roll and is computed always; it counts as a draw made only where the wound
    level calls for it.

    Args:
        w: Stream position.
        gamma: Stream increment.
        tables: The per-hit tables of every pair of groups.
        shooter: The shooter's group.
        target: The group of the figure hit.
        roll_dm: DM of the figure's consciousness and Not Dead Yet rolls (END).
        penalty: The figure's light-wound penalty.

    Returns:
        (new position, draws made, worst-outcome category of the hit).
    """
    r = two_d6_from_draw(mix64(w + gamma))
    roll = two_d6_from_draw(mix64(w + gamma + gamma))
    success = roll + roll_dm - penalty >= tables[shooter, target, TARGET, r]
    category = tables[shooter, target, SUCCESS, r] if success else tables[shooter, target, FAILURE, r]
    return w + gamma + gamma, 1 + tables[shooter, target, FOLLOW, r], category


@njit(inline="always")
def _take(category: int, serious_light: int, penalty: np.ndarray, state: np.ndarray, who: int) -> None:
    """A hit's category on its figure: light wounds add to its penalty, the worst put it out (branch-free)."""
    penalty[who] += (category == LIGHT) + serious_light * (category == SERIOUS)
    out = KILLED if category == CAT_KILLED else (INCAPACITATED if category >= UNCONSCIOUS else STANDING)
    state[who] = max(state[who], out)


@njit(cache=True, nogil=True, error_model="numpy")
def battle_block(  # noqa: D417 - the arguments of every battle kernel: see simlab.systems.battle_trials
    offset: np.uint64,
    gamma: np.uint64,
    start: int,
    stop: int,
    window: int,
    groups: np.ndarray,
    figure_group: np.ndarray,
    sides: np.ndarray,
    dm: np.ndarray,
    dm_prone: np.ndarray,
    hit_tables: np.ndarray,
    rules: np.ndarray,
    counts: np.ndarray,
    ends: np.ndarray,
    turns_hist: np.ndarray,
    by_turn: np.ndarray,
    first_out: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Sample Striker battles (ENG-4.1 on STR-2 to STR-6 and STR-11) and add their tallies.

    Called as every battle kernel is (:mod:`simlab.systems.battle_trials`): the stream, the
    trials and the window first, ENG-5's tallies last; besides those:

    Args:
        groups: ``(G, N_GROUP_COLUMNS)`` per group of figures: its side, rounds a shot fires,
            magazine, spare magazines, DM of its consciousness rolls (END), rounds a shot
            needs, suppressive template, green, whether it can fire suppressively.
        figure_group: Each figure's group; side a's figures first, in line order.
        sides: ``(2, N_SIDE_COLUMNS)``: tactics, target doctrine, break point (-1: none),
            extra hits to adjacent enemies, doctrine suppressors, go prone, figures.
        dm: ``(2, G, G)`` to-hit DM of normal (0) and suppressive (1) fire of a group at another.
        dm_prone: The same at a prone target.
        hit_tables: ``(G, G, 4, 13)`` per-hit table of a group's hits on another.
        rules: The rule integers (R_HIT_TARGET ... R_INITIATIVE).
    """
    n = figure_group.shape[0]
    max_turns = rules[R_MAX_TURNS]
    hit_target = rules[R_HIT_TARGET]
    step = rules[R_STEP]
    serious_light = rules[R_SERIOUS_LIGHT]
    miss_max = rules[R_MISS_MAX]
    hit_min = rules[R_HIT_MIN]
    suppressing = rules[R_INITIATIVE] == 1  # some figure may fire suppressively
    stride = np.uint64(window) * gamma
    side_of = figure_sides(groups, figure_group, G_SIDE)
    rounds = np.empty(n, np.int64)
    spare = np.empty(n, np.int64)
    penalty = np.empty(n, np.int64)
    new_penalty = np.empty(n, np.int64)
    new_state = np.empty(n, np.int64)
    suppression = np.empty(n, np.int64)
    prone = np.empty(n, np.bool_)
    suppressor = np.empty(n, np.bool_)
    arrays = battle_arrays(n, max_turns, sides, S_COUNT, S_BREAK)
    state, target, order, members, alive, history, spent, counts_of, breaks = arrays
    for trial in range(start, stop):
        w = begin_trial(offset, stride, trial, state, side_of, members, alive, history, spent, counts_of)
        draws = 0
        for i in range(n):
            g = figure_group[i]
            rounds[i] = groups[g, G_MAGAZINE]
            spare[i] = groups[g, G_SPARE]
            penalty[i] = 0
            new_penalty[i] = 0
            new_state[i] = STANDING
            suppression[i] = 0
            prone[i] = False
            suppressor[i] = False
        turns = 0
        outcome = -1
        while turns < max_turns and outcome < 0:
            turns += 1
            first = 0
            if suppressing:  # STR-11.1: only suppressive fire goes by initiative
                lead = 0
                while lead == 0:
                    w, ours = draw_2d6(w, gamma)
                    w, theirs = draw_2d6(w, gamma)
                    draws += 2
                    lead = ours + sides[0, S_TACTICS] - theirs - sides[1, S_TACTICS]
                first = 0 if lead > 0 else 1
            for s in range(2):
                w, made = assign_targets(sides[s, S_TARGETS], s, members, alive, penalty, target, w, gamma)
                draws += made
            if suppressing:
                for i in range(n):
                    suppressor[i] = state[i] == STANDING and groups[figure_group[i], G_SUPPRESSIVE] == 1
                for s in range(2):  # the doctrine's suppressors: the first able figures of the line
                    wanted = sides[s, S_SUPPRESSORS]
                    for i in range(n):
                        if wanted == 0:
                            break
                        g = figure_group[i]
                        if side_of[i] == s and state[i] == STANDING and not suppressor[i] and groups[g, G_CAN_SUPPRESS]:
                            suppressor[i] = True
                            wanted -= 1
            # Suppressive fire first, the side with the initiative first, applied at once (STR-3.3); then the
            # normal fire of everyone else in line order (side a's, then side b's), applied together at the end.
            for phase in range(0 if suppressing else 2, 3):
                suppressive = phase < 2
                shooting = first if phase == 0 else 1 - first
                for i in range(n):
                    if state[i] != STANDING or suppressor[i] != suppressive:
                        continue
                    if suppressive and side_of[i] != shooting:
                        continue
                    s = side_of[i]
                    g = figure_group[i]
                    if rounds[i] < groups[g, G_MIN_ROUNDS]:
                        if spare[i] > 0:  # reloading takes the turn
                            spare[i] -= 1
                            rounds[i] = groups[g, G_MAGAZINE]
                        continue
                    t = standing_target(target[i], side_of, state, order)  # out: its neighbour
                    if t < 0:
                        continue
                    fired = min(groups[g, G_PER_ATTACK], rounds[i])
                    rounds[i] -= fired
                    spent[s] += fired
                    gt = figure_group[t]
                    w, natural = draw_2d6(w, gamma)
                    draws += 1
                    fire = 1 if suppressive else 0
                    to_hit = dm_prone[fire, g, gt] if prone[t] else dm[fire, g, gt]
                    total = natural + to_hit - penalty[i] - suppression[i]
                    hits = hits_scored_compiled(natural, total, hit_target, step, fired, miss_max, hit_min)
                    if hits == 0:
                        continue
                    # STR-3.2, ENG-4.1: the first hit on the target, each extra one on the next standing
                    # neighbour (right first), past the last one back on the target; suppressive hits too.
                    m = 0
                    if sides[s, S_EXTRA_ADJACENT]:
                        m = min(standing_neighbours(t, side_of, state, order), hits - 1)
                    if suppressive:  # STR-3.3: each figure hit is suppressed (-2, -1 per further hit), applied at once
                        for q in range(-1, m):
                            who = t if q < 0 else order[q]
                            on_it = hits - m if q < 0 else 1
                            suppression[who] += rules[R_SUPPRESS_FIRST] + rules[R_SUPPRESS_EXTRA] * (on_it - 1)
                            if groups[figure_group[who], G_GREEN] == 1 or sides[1 - s, S_GO_PRONE] == 1:
                                prone[who] = True
                        if natural >= rules[R_SUPPRESS_WOUND_MIN]:  # it wounds on a natural 12 only, one hit
                            roll_dm = groups[gt, G_ROLL_DM]
                            w, made, category = _wound(w, gamma, hit_tables, g, gt, roll_dm, penalty[t])
                            draws += made
                            _take(category, serious_light, penalty, state, t)
                        continue
                    for h in range(hits):
                        who = t if h == 0 or h > m else order[h - 1]
                        gw = figure_group[who]
                        w, made, category = _wound(w, gamma, hit_tables, g, gw, groups[gw, G_ROLL_DM], penalty[who])
                        draws += made
                        _take(category, serious_light, new_penalty, new_state, who)
            for i in range(n):
                penalty[i] += new_penalty[i]
                if new_state[i] > state[i]:
                    state[i] = new_state[i]
                new_penalty[i] = 0
                new_state[i] = STANDING
                suppression[i] = 0
                prone[i] = False
            outcome = end_turn(turns, state, side_of, members, alive, history, first_out, counts_of, breaks, True)
        end_trial(outcome, turns, max_turns, state, side_of, history, spent, draws, counts, ends, turns_hist, by_turn)
