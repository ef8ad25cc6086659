"""Plain twins of the compiled Striker kernels, for tests and ``simlab bench``.

:func:`python_attack_block` and :func:`python_duel_block` are straightforward loops over
trials with one die per draw; :func:`numpy_attack_block` and :func:`numpy_duel_block` are
the same samplers vectorised over trials with numpy (each trial keeps its own count of
draws, so every number comes from the same stream position as in the kernels). All give
tallies identical to :mod:`simlab.systems.striker.kernels`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simlab.engine.blocks import Tallies
from simlab.engine.interpreted import register_twins
from simlab.engine.rng import StreamKey, TrialDraws, VectorDraws
from simlab.mechanics.target_number import hits_scored
from simlab.systems import duels
from simlab.systems.striker import kernels
from simlab.systems.striker.duel import ResolvedDuel
from simlab.systems.striker.resolve import (
    KILLED,
    LEVEL_DEAD,
    LEVEL_LIGHT,
    LEVEL_SERIOUS,
    LIGHT,
    NOT_DEAD_YET,
    SERIOUS,
    UNCONSCIOUS,
    UNHURT,
    ResolvedAttack,
)
from simlab.systems.striker.sample import _attack_tallies, _duel_tallies, kernel_inputs

__all__ = ["python_attack_block", "numpy_attack_block", "python_duel_block", "numpy_duel_block"]


def _category(attack: ResolvedAttack, draws: TrialDraws) -> int:
    """Worst result of one wounding hit (STR-4, STR-6)."""
    r = draws.two_d6()
    level = int(attack.level_by_pen[r])
    if level == LEVEL_SERIOUS:
        return SERIOUS if draws.two_d6() + attack.roll_dm >= attack.conscious_target else UNCONSCIOUS
    if level == LEVEL_DEAD:
        return NOT_DEAD_YET if draws.two_d6() + attack.roll_dm >= attack.ndy_target_by_pen[r] else KILLED
    draws.skip()  # the follow-up place of a hit stays unused
    return LIGHT if level == LEVEL_LIGHT else UNHURT


def python_attack_block(attack: ResolvedAttack, key: StreamKey, start: int, stop: int) -> Tallies:
    """Pure-Python sampler of trials ``[start, stop)``: ``(joint[hits, worst], counts)``."""
    aftermath, suppression, tactics = (a.tolist() for a in kernel_inputs(attack))
    joint = np.zeros((attack.max_hits + 1, 6), np.int64)
    counts = np.zeros(kernels.N_COUNTS, np.int64)
    for trial in range(start, stop):
        draws = TrialDraws(key, trial)
        natural = draws.two_d6()
        hits = int(attack.hits_by_roll[natural])
        worst = max([_category(attack, draws) for _ in range(int(attack.wound_hits_by_roll[natural]))], default=UNHURT)
        joint[hits, worst] += 1
        if worst == NOT_DEAD_YET:
            saved = bool(aftermath[2]) and draws.two_d6() + aftermath[3] >= aftermath[4]
            saved = saved and draws.two_d6() + aftermath[5] >= aftermath[6]
            counts[kernels.DIES_LATER] += not saved
        elif worst in (SERIOUS, UNCONSCIOUS):
            counts[kernels.DIES_LATER] += draws.two_d6() + aftermath[0] < aftermath[1]
        if suppression[0] and hits:
            penalty = suppression[1] + suppression[2] * (hits - 1)
            counts[kernels.SUPPRESSION] += penalty
            counts[kernels.SUPPRESSION_SQ] += penalty * penalty
        initiative = TrialDraws(key, trial, kernels.INITIATIVE_FIRST)
        while True:
            ours, theirs = initiative.two_d6() + tactics[0], initiative.two_d6() + tactics[1]
            if ours != theirs:
                counts[kernels.INITIATIVE] += ours > theirs
                break
        counts[kernels.DRAWS] += draws.made + initiative.made
    return joint, counts


def numpy_attack_block(attack: ResolvedAttack, key: StreamKey, start: int, stop: int) -> Tallies:
    """Vectorised numpy sampler of trials ``[start, stop)``: ``(joint, counts)``."""
    aftermath, suppression, tactics = (a.tolist() for a in kernel_inputs(attack))
    n = stop - start
    every = np.arange(n)
    draws = VectorDraws(key, start, stop)
    natural = draws.two_d6(every)
    hits = attack.hits_by_roll[natural]
    wound_hits = attack.wound_hits_by_roll[natural]
    worst = np.zeros(n, np.int64)
    for i in range(int(wound_hits.max(initial=0))):
        rows = every[wound_hits > i]
        r = draws.two_d6(rows)
        level = attack.level_by_pen[r]
        category = np.where(level == LEVEL_LIGHT, LIGHT, UNHURT)
        serious = level == LEVEL_SERIOUS
        if serious.any():
            awake = draws.two_d6(rows[serious]) + attack.roll_dm >= attack.conscious_target
            category[serious] = np.where(awake, SERIOUS, UNCONSCIOUS)
        dead = level == LEVEL_DEAD
        if dead.any():
            saved = draws.two_d6(rows[dead]) + attack.roll_dm >= attack.ndy_target_by_pen[r[dead]]
            category[dead] = np.where(saved, NOT_DEAD_YET, KILLED)
        draws.skip(rows[~serious & ~dead])
        worst[rows] = np.maximum(worst[rows], category)
    joint = np.zeros((attack.max_hits + 1, 6), np.int64)
    np.add.at(joint, (hits, worst), 1)
    counts = np.zeros(kernels.N_COUNTS, np.int64)
    dies = np.zeros(n, bool)
    ndy = every[worst == NOT_DEAD_YET]
    if aftermath[2]:
        stable = draws.two_d6(ndy) + aftermath[3] >= aftermath[4]
        treated = np.zeros(len(ndy), bool)
        treated[stable] = draws.two_d6(ndy[stable]) + aftermath[5] >= aftermath[6]
        dies[ndy] = ~treated
    else:
        dies[ndy] = True
    hurt = every[(worst == SERIOUS) | (worst == UNCONSCIOUS)]
    dies[hurt] = draws.two_d6(hurt) + aftermath[0] < aftermath[1]
    counts[kernels.DIES_LATER] = np.count_nonzero(dies)
    if suppression[0]:
        penalty = np.where(hits > 0, suppression[1] + suppression[2] * (hits - 1), 0)
        counts[kernels.SUPPRESSION] = penalty.sum()
        counts[kernels.SUPPRESSION_SQ] = (penalty * penalty).sum()
    initiative = VectorDraws(key, start, stop, kernels.INITIATIVE_FIRST)
    pending = every
    while len(pending):
        ours = initiative.two_d6(pending) + tactics[0]
        theirs = initiative.two_d6(pending) + tactics[1]
        counts[kernels.INITIATIVE] += np.count_nonzero(ours > theirs)
        pending = pending[ours == theirs]
    counts[kernels.DRAWS] = int(draws.made.sum() + initiative.made.sum())
    return joint, counts


def python_duel_block(duel: ResolvedDuel, key: StreamKey, start: int, stop: int) -> Tallies:
    """Pure-Python duel sampler of trials ``[start, stop)``: ``(turns, tens of seconds, counts)``."""
    rules = duel.rules
    sides = duel.sides.tolist()
    levels = duel.level_by_pen.tolist()
    turns_hist = np.zeros(rules.max_turns + 1, np.int64)
    tens_hist = np.zeros(6 * rules.max_turns + 1, np.int64)
    counts = np.zeros(duels.N_DUEL_COUNTS, np.int64)
    for trial in range(start, stop):
        draws = TrialDraws(key, trial)
        rounds = [sides[0][kernels.MAGAZINE], sides[1][kernels.MAGAZINE]]
        spare = [sides[0][kernels.SPARE], sides[1][kernels.SPARE]]
        penalty = [0, 0]
        down = [False, False]
        turns = tens = 0
        while turns < rules.max_turns:
            turns += 1
            tens += draws.d6()
            new_penalty, new_down, suppression = [0, 0], [False, False], [0, 0]
            for s in [side for phase in (1, 0) for side in (0, 1) if sides[side][kernels.SUPPRESSIVE] == phase]:
                other = 1 - s
                if rounds[s] < sides[s][kernels.MIN_ROUNDS]:
                    if spare[s]:
                        spare[s] -= 1
                        rounds[s] = sides[s][kernels.MAGAZINE]
                    continue
                fired = min(sides[s][kernels.PER_ATTACK], rounds[s])
                rounds[s] -= fired
                natural = draws.two_d6()
                suppressive = sides[s][kernels.SUPPRESSIVE] == 1
                total = natural + sides[s][kernels.DM] - penalty[s] - (0 if suppressive else suppression[s])
                hits = hits_scored(
                    natural, total, rules.hit_target, rules.extra_hit_step, fired, rules.natural_miss_max,
                    rules.natural_hit_min,
                )  # fmt: skip
                if hits == 0:
                    continue
                if suppressive:
                    suppression[other] += sides[s][kernels.SUPPRESS_FIRST] + sides[s][kernels.SUPPRESS_EXTRA] * (
                        hits - 1
                    )
                    hits = 1 if natural >= rules.suppressive_wound_min else 0
                for _ in range(hits):
                    level = levels[s][draws.two_d6()]
                    if level == LEVEL_LIGHT:
                        new_penalty[other] += 1
                    elif level == LEVEL_SERIOUS:
                        roll = draws.two_d6() + sides[other][kernels.ROLL_DM] - penalty[other]
                        if roll >= rules.conscious_target:
                            new_penalty[other] += rules.serious_light_wounds
                        else:
                            new_down[other] = True
                    elif level == LEVEL_DEAD:
                        new_down[other] = True
            penalty = [penalty[s] + new_penalty[s] for s in (0, 1)]
            down = [down[s] or new_down[s] for s in (0, 1)]
            if any(down):
                break
        duels.record_duel(counts, turns_hist, tens_hist, down[0], down[1], turns, 10 * tens, 10, draws.made)
    return turns_hist, tens_hist, counts


def numpy_duel_block(duel: ResolvedDuel, key: StreamKey, start: int, stop: int) -> Tallies:
    """Vectorised numpy duel sampler: every live duel advances one turn per step."""
    rules = duel.rules
    sides = duel.sides
    n = stop - start
    every = np.arange(n)
    draws = VectorDraws(key, start, stop)
    rounds = np.tile(sides[:, kernels.MAGAZINE], (n, 1))
    spare = np.tile(sides[:, kernels.SPARE], (n, 1))
    penalty = np.zeros((n, 2), np.int64)
    down = np.zeros((n, 2), bool)
    turns = np.zeros(n, np.int64)
    tens = np.zeros(n, np.int64)
    live = every
    while len(live):
        turns[live] += 1
        tens[live] += draws.d6(live)
        new_penalty = np.zeros((len(live), 2), np.int64)
        new_down = np.zeros((len(live), 2), bool)
        suppression = np.zeros((len(live), 2), np.int64)
        for s in [side for phase in (1, 0) for side in (0, 1) if sides[side, kernels.SUPPRESSIVE] == phase]:
            other = 1 - s
            empty = rounds[live, s] < sides[s, kernels.MIN_ROUNDS]
            reload = empty & (spare[live, s] > 0)
            spare[live[reload], s] -= 1
            rounds[live[reload], s] = sides[s, kernels.MAGAZINE]
            firing = np.flatnonzero(~empty)
            rows = live[firing]
            fired = np.minimum(sides[s, kernels.PER_ATTACK], rounds[rows, s])
            rounds[rows, s] -= fired
            natural = draws.two_d6(rows)
            suppressive = sides[s, kernels.SUPPRESSIVE] == 1
            total = natural + sides[s, kernels.DM] - penalty[rows, s] - (0 if suppressive else suppression[firing, s])
            sure = natural >= rules.natural_hit_min
            hit = (natural > rules.natural_miss_max) & ((total >= rules.hit_target) | sure)
            hits = np.where(
                hit, np.maximum(1, np.minimum(1 + (total - rules.hit_target) // rules.extra_hit_step, fired)), 0
            )
            if suppressive:
                penalty_of = sides[s, kernels.SUPPRESS_FIRST] + sides[s, kernels.SUPPRESS_EXTRA] * (hits - 1)
                suppression[firing, other] += np.where(hits > 0, penalty_of, 0)
                hits = np.where(hit & (natural >= rules.suppressive_wound_min), 1, 0)
            for i in range(int(hits.max(initial=0))):
                at = np.flatnonzero(hits > i)
                level = duel.level_by_pen[s][draws.two_d6(rows[at])]
                new_penalty[firing[at], other] += level == LEVEL_LIGHT
                new_down[firing[at], other] |= level == LEVEL_DEAD
                serious = at[level == LEVEL_SERIOUS]
                if len(serious):
                    roll = draws.two_d6(rows[serious]) + sides[other, kernels.ROLL_DM] - penalty[rows[serious], other]
                    awake = roll >= rules.conscious_target
                    new_penalty[firing[serious[awake]], other] += rules.serious_light_wounds
                    new_down[firing[serious[~awake]], other] = True
        penalty[live] += new_penalty
        down[live] |= new_down
        over = down[live].any(axis=1) | (turns[live] >= rules.max_turns)
        live = live[~over]
    return duels.numpy_duel_tallies(
        down, turns, 10 * tens, 10, rules.max_turns, 6 * rules.max_turns + 1, int(draws.made.sum())
    )


#: The attacks the kernel and these references are checked on: every mode (suppressive and melee
#: too), every blowthrough class, HE and not, END 7, 10 and 12, a weapon of one's own.
TWIN_ATTACKS: list[dict[str, Any]] = [
    {"weapon": "laser rifle", "armor": "cloth", "end": 7},
    {"weapon": "rifle", "armor": "mesh", "end": 10},
    {"weapon": "shotgun", "mode": "burst5", "end": 12},
    {"weapon": "autoshotgun", "mode": "burst5", "armor": "flak jacket", "end": 7},
    {"weapon": "plasma gun", "armor": "combat armour", "end": 10},
    {"weapon": "fusion gun", "armor": "battle dress", "end": 12},
    {"weapon": "HE snub pistol", "armor": "cloth", "end": 7},
    {"weapon": "submachinegun", "mode": "burst5", "range_band": "long", "end": 10},
    {"weapon": "assault rifle", "mode": "half_clip", "target_light_wounds": 2, "end": 12},
    {"weapon": "gauss rifle", "mode": "full_clip", "armor": "combat armour", "range_band": "extreme", "end": 7},
    {"weapon": "light machinegun", "mode": "full_clip", "suppressive": True, "tactics": 2, "end": 10},
    {"weapon": "rifle", "mode": "burst5", "suppressive": True, "armor": "none", "end": 12},
    {"weapon": "laser carbine", "armor": "reflec", "medic_skill": None, "end": 7},
    {"weapon": "revolver", "first_aid_kit": False, "sick_bay": True, "medic_skill": 2, "doctor_skill": 3, "end": 10},
    {"melee_weapon": "broadsword", "defender_weapon": "dagger", "skill": 2, "end": 12},
    {"melee_weapon": "knife", "armor": "cloth", "defender_skill": 1, "end": 7},
    {"weapon.pen": 25, "weapon.blowthrough": "25mm", "weapon.kind": "auto", "weapon.autofire_bonus": 2,
     "weapon.magazine": 20, "mode": "half_clip", "armor": "cloth", "end": 12},
]  # fmt: skip
#: The duels they are checked on: the spec's naturals and a reading of them, suppression, evasion.
TWIN_DUELS: list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = [
    ({"weapon": "submachinegun", "mode": "half_clip", "magazines": 2, "suppressive": False},
     {"weapon": "laser rifle", "armor": "cloth", "end": 11, "evading": True}, {"max_turns": 40}),
    ({"weapon": "submachinegun", "mode": "half_clip", "magazines": 2, "suppressive": True},
     {"weapon": "laser rifle", "armor": "cloth", "end": 11, "evading": True},
     {"max_turns": 40, "natural_miss_max": 3, "natural_hit_min": 10, "suppressive_wound_min": 11}),
]  # fmt: skip


def _twin_attacks() -> list[ResolvedAttack]:
    from simlab.systems.base import ScenarioRequest
    from simlab.systems.striker import SYSTEM, resolve_request  # the package, whose modules these are

    found = []
    for inputs in TWIN_ATTACKS:
        scenario, rows = SYSTEM.attack.split_inputs(inputs)
        found.append(resolve_request(ScenarioRequest(scenario=scenario, row_overrides=rows))[2])
    return found


def _twin_duels() -> list[ResolvedDuel]:
    from simlab.systems.striker.duel import resolve_duel
    from simlab.systems.striker.rules import Rules

    return [resolve_duel(a, b, Rules(**rules), ({}, {})) for a, b, rules in TWIN_DUELS]


register_twins(
    "simlab.systems.striker.kernels:attack_block",
    _attack_tallies,
    lambda attack: (python_attack_block, numpy_attack_block),
    _twin_attacks,
)
register_twins(
    "simlab.systems.striker.kernels:duel_block",
    _duel_tallies,
    lambda duel: (python_duel_block, numpy_duel_block),
    _twin_duels,
)
