"""Compiled samplers of Striker attacks and duels (docs/architecture.md, principle 3).

Private ``@njit(cache=True, nogil=True)`` kernels that run trials ``[start, stop)`` of one
cell and add int64 tallies into the arrays they are given; :mod:`.sample` prepares their
inputs and :mod:`.reference` holds plain Python and numpy twins with identical tallies.

Each trial takes its draws one after another from its own window of the cell's stream
(draw ``j`` at position ``j + 1``), and every 2d6 is one draw (a die from each half of it,
:func:`simlab.engine.rng.two_d6_from_draw`). Attack: the to-hit 2d6 is draw 0; wounding hit ``i``
has its penetration 2d6 at draw ``1 + 2i`` and, where the level calls for one, its
consciousness or Not Dead Yet 2d6 at ``2 + 2i`` (fixed places, so the hits do not wait for
each other); after the ``k`` hits, from draw ``1 + 2k`` on, the aftermath rolls (stabilise
and treatment, or the serious-wound save). Initiative 2d6 pairs, until they differ, start at
draw ``INITIATIVE_FIRST`` (half-way through the window), so that the first pair of every
trial of a block is rolled in one loop the compiler vectorises.
Duel, per turn, one draw after another: the turn's length (1d6), then side A's attack,
then side B's (to-hit, then per hit its penetration and any consciousness roll; a dead
result incapacitates without a Not Dead Yet roll).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine.rng import DRAWS_PER_TRIAL_LIMIT, die_from_draw, draw_2d6, mix64, two_d6_from_draw
from simlab.systems.kernel_helpers import hits_scored_compiled, record_duel_compiled

# Worst-outcome categories (STR-6.4) and wound levels (STR-4.3), as in resolve.py.
UNHURT, LIGHT, SERIOUS, UNCONSCIOUS, NOT_DEAD_YET, KILLED = range(6)
LEVEL_LIGHT, LEVEL_SERIOUS, LEVEL_DEAD = 1, 2, 3
# Indices of the attack's ``counts`` tally.
DIES_LATER, SUPPRESSION, SUPPRESSION_SQ, INITIATIVE, DRAWS = range(5)
N_COUNTS = 5
#: Draw index where a trial's initiative rolls start (STR-11.1), apart from the attack's draws.
INITIATIVE_FIRST = DRAWS_PER_TRIAL_LIMIT // 2
# Rows of the attack's per-hit table.
FOLLOW, TARGET, SUCCESS, FAILURE = range(4)
# Index of the per-side duel parameters.
DM, PER_ATTACK, MAGAZINE, SPARE, ROLL_DM, MIN_ROUNDS, SUPPRESSIVE, SUPPRESS_FIRST, SUPPRESS_EXTRA = range(9)
LANES = 4


@njit(cache=True, nogil=True, error_model="numpy")
def attack_block(
    offset: np.uint64,
    gamma: np.uint64,
    start: int,
    stop: int,
    hits_by_roll: np.ndarray,
    wound_hits_by_roll: np.ndarray,
    hit_table: np.ndarray,
    roll_dm: int,
    aftermath: np.ndarray,
    suppression: np.ndarray,
    tactics: np.ndarray,
    joint: np.ndarray,
    counts: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Sample Striker attacks (STR-2 to STR-7, STR-11.1) and add their tallies.

    Args:
        offset: Stream offset of the cell.
        gamma: Stream increment of the cell.
        start: First trial.
        stop: One past the last trial.
        hits_by_roll: Hits (suppression hits when suppressive) by natural to-hit total.
        wound_hits_by_roll: Wounding hits by natural to-hit total.
        hit_table: ``(4, 13)`` by natural penetration total: whether a consciousness or Not
            Dead Yet roll follows (FOLLOW), its target (TARGET), and the category when it
            succeeds (SUCCESS) or fails (FAILURE); without a roll both are the category.
        roll_dm: DM of the target's consciousness and Not Dead Yet rolls.
        aftermath: ``[save_dm, save_target, has_medic, stabilise_dm, stabilise_target,
            treatment_dm, treatment_target]`` (STR-7).
        suppression: ``[suppressive, first_hit, extra_hit]`` (STR-3.3).
        tactics: ``[firer's, target's]`` leader tactics (STR-11.1).
        joint: ``(LANES, hits + 1, 6)`` histogram of (hits, worst category).
        counts: Tallies indexed by DIES_LATER, SUPPRESSION, SUPPRESSION_SQ, INITIATIVE, DRAWS.
    """
    stride = np.uint64(DRAWS_PER_TRIAL_LIMIT) * gamma
    g2 = gamma + gamma
    # Initiative (STR-11.1) first, for the whole block at once: its draws have their own place
    # in each trial's window, so this loop has no dependency from trial to trial.
    g_initiative = np.uint64(INITIATIVE_FIRST) * gamma
    leads = np.empty(stop - start, np.int64)
    for i in range(stop - start):
        w = offset + np.uint64(start + i) * stride + g_initiative
        ours = two_d6_from_draw(mix64(w + gamma)) + tactics[0]
        leads[i] = ours - two_d6_from_draw(mix64(w + g2)) - tactics[1]
    dies_later = 0
    suppressed = 0
    suppressed_sq = 0
    initiative = 0
    draws = 0
    for trial in range(start, stop):
        w = offset + np.uint64(trial) * stride
        w, natural = draw_2d6(w, gamma)
        made = 1
        hits = hits_by_roll[natural]
        worst = UNHURT
        wound_hits = wound_hits_by_roll[natural]
        for _ in range(wound_hits):
            # Branch-free: the follow-up roll is computed always, but its draw counts as
            # made only where the wound level calls for it.
            r = two_d6_from_draw(mix64(w + gamma))
            roll = two_d6_from_draw(mix64(w + g2))
            w += g2
            success = roll + roll_dm >= hit_table[TARGET, r]
            category = hit_table[SUCCESS, r] if success else hit_table[FAILURE, r]
            made += 1 + hit_table[FOLLOW, r]
            worst = max(worst, category)
        joint[trial & (LANES - 1), hits, worst] += 1
        if worst == NOT_DEAD_YET:
            dies = True
            if aftermath[2]:
                w, roll = draw_2d6(w, gamma)
                made += 1
                if roll + aftermath[3] >= aftermath[4]:
                    w, roll = draw_2d6(w, gamma)
                    made += 1
                    dies = roll + aftermath[5] < aftermath[6]
            dies_later += dies
        elif worst in (SERIOUS, UNCONSCIOUS):
            w, roll = draw_2d6(w, gamma)
            made += 1
            dies_later += roll + aftermath[0] < aftermath[1]
        if suppression[0] and hits > 0:
            penalty = suppression[1] + suppression[2] * (hits - 1)
            suppressed += penalty
            suppressed_sq += penalty * penalty
        lead = leads[trial - start]  # the first initiative pair, rolled before this loop
        made += 2
        w = offset + np.uint64(trial) * stride + g_initiative + g2  # past the first pair
        while lead == 0:  # a tie: both roll again
            w, ours = draw_2d6(w, gamma)
            w, theirs = draw_2d6(w, gamma)
            made += 2
            lead = ours + tactics[0] - theirs - tactics[1]
        initiative += lead > 0
        draws += made
    counts[DIES_LATER] += dies_later
    counts[SUPPRESSION] += suppressed
    counts[SUPPRESSION_SQ] += suppressed_sq
    counts[INITIATIVE] += initiative
    counts[DRAWS] += draws


@njit(inline="always")
def _fire(
    w: np.uint64,
    gamma: np.uint64,
    shooter: int,
    sides: np.ndarray,
    rounds: np.ndarray,
    penalty: np.ndarray,
    hit_target: int,
    step: int,
    naturals: np.ndarray,
    level_by_pen: np.ndarray,
    conscious_target: int,
    serious_light_wounds: int,
    new_penalty: np.ndarray,
    new_down: np.ndarray,
    suppression: np.ndarray,
) -> tuple[np.uint64, np.int64]:  # pragma: no cover - compiled
    """One side's fire at the other in a duel turn (STR-2, STR-3, STR-4, STR-6).

    Suppressive fire (STR-3.3) puts its penalty on the other's shot of this turn
    (``suppression``) and wounds only on a natural 12, one hit.

    Returns:
        (new position, draws made).
    """
    other = 1 - shooter
    made = 1
    fired = min(sides[shooter, PER_ATTACK], rounds[shooter])
    rounds[shooter] -= fired
    w, natural = draw_2d6(w, gamma)
    suppressive = sides[shooter, SUPPRESSIVE] == 1
    # Suppressive shots of a turn are simultaneous: only normal shots feel this turn's suppression.
    total = natural + sides[shooter, DM] - penalty[shooter] - (0 if suppressive else suppression[shooter])
    hits = hits_scored_compiled(natural, total, hit_target, step, fired, naturals[0], naturals[1])
    if hits > 0:
        if suppressive:
            suppression[other] += sides[shooter, SUPPRESS_FIRST] + sides[shooter, SUPPRESS_EXTRA] * (hits - 1)
            hits = 1 if natural >= naturals[2] else 0
        for _ in range(hits):
            w, r = draw_2d6(w, gamma)
            made += 1
            level = level_by_pen[shooter, r]
            if level == LEVEL_LIGHT:
                new_penalty[other] += 1
            elif level == LEVEL_SERIOUS:
                w, roll = draw_2d6(w, gamma)
                made += 1
                if roll + sides[other, ROLL_DM] - penalty[other] >= conscious_target:
                    new_penalty[other] += serious_light_wounds
                else:
                    new_down[other] = True
            elif level == LEVEL_DEAD:
                new_down[other] = True
    return w, made


@njit(cache=True, nogil=True, error_model="numpy")
def duel_block(
    offset: np.uint64,
    gamma: np.uint64,
    start: int,
    stop: int,
    sides: np.ndarray,
    level_by_pen: np.ndarray,
    hit_target: int,
    step: int,
    naturals: np.ndarray,
    conscious_target: int,
    serious_light_wounds: int,
    max_turns: int,
    turns_hist: np.ndarray,
    seconds_hist: np.ndarray,
    counts: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Sample duels of two figures (STR-11.2) and add their tallies.

    Args:
        offset: Stream offset of the cell.
        gamma: Stream increment of the cell.
        start: First trial.
        stop: One past the last trial.
        sides: ``(2, 9)``: per side DM, PER_ATTACK, MAGAZINE, SPARE, ROLL_DM, MIN_ROUNDS (a
            burst needs 2), SUPPRESSIVE (1: suppressive fire), SUPPRESS_FIRST and SUPPRESS_EXTRA.
        level_by_pen: ``(2, 13)``: wound level of side s's hit on the other, by natural roll.
        hit_target: To-hit target (STR-2.1).
        step: Extra-hit step (STR-3.1).
        naturals: ``[natural_miss_max, natural_hit_min, suppressive_wound_min]`` (STR-2.1, STR-3.3).
        conscious_target: Consciousness target (STR-6.2).
        serious_light_wounds: Light wounds a conscious serious wound counts as.
        max_turns: Turns after which the duel ends undecided.
        turns_hist: Histogram of the turns a duel lasts (index = turns).
        seconds_hist: Histogram of its length in tens of seconds.
        counts: Tallies indexed by A_WINS ... DUEL_DRAWS.
    """
    stride = np.uint64(DRAWS_PER_TRIAL_LIMIT) * gamma
    rounds = np.empty(2, np.int64)
    spare = np.empty(2, np.int64)
    penalty = np.empty(2, np.int64)
    new_penalty = np.empty(2, np.int64)
    down = np.empty(2, np.bool_)
    new_down = np.empty(2, np.bool_)
    suppression = np.empty(2, np.int64)
    for trial in range(start, stop):
        w = offset + np.uint64(trial) * stride
        draws = 0
        for s in range(2):
            rounds[s] = sides[s, MAGAZINE]
            spare[s] = sides[s, SPARE]
            penalty[s] = 0
            down[s] = False
        turns = 0
        tens = 0
        while turns < max_turns:
            turns += 1
            w += gamma
            tens += die_from_draw(mix64(w), 6)
            draws += 1
            new_penalty[0] = 0
            new_penalty[1] = 0
            new_down[0] = False
            new_down[1] = False
            suppression[0] = 0
            suppression[1] = 0
            for phase in (1, 0):  # suppressive fire first: it bears on the other's shot this turn
                for s in range(2):
                    if sides[s, SUPPRESSIVE] != phase:
                        continue
                    if rounds[s] < sides[s, MIN_ROUNDS]:
                        if spare[s] > 0:  # reloading takes the turn
                            spare[s] -= 1
                            rounds[s] = sides[s, MAGAZINE]
                        continue
                    w, used = _fire(
                        w,
                        gamma,
                        s,
                        sides,
                        rounds,
                        penalty,
                        hit_target,
                        step,
                        naturals,
                        level_by_pen,
                        conscious_target,
                        serious_light_wounds,
                        new_penalty,
                        new_down,
                        suppression,
                    )
                    draws += used
            for s in range(2):
                penalty[s] += new_penalty[s]
                down[s] = down[s] or new_down[s]
            if down[0] or down[1]:
                break
        record_duel_compiled(counts, turns_hist, seconds_hist, down[0], down[1], turns, 10 * tens, 10, draws)
