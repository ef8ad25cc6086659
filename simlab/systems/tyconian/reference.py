"""Plain twins of the compiled Tyconian kernel, for tests and ``simlab bench``.

:func:`python_block` loops over trials as the kernel does, one draw after another from
:class:`simlab.rng.TrialDraws`; :func:`numpy_block` vectorises full-automatic fire over
trials with numpy (each trial keeps its own count of draws). Both give the kernel's tallies.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from simlab.engine import Tallies
from simlab.rng import DRAWS_PER_TRIAL_LIMIT, StreamKey, TrialDraws, die_np, two_d6_np
from simlab.systems.tyconian import kernels
from simlab.systems.tyconian.exact import wound_index
from simlab.systems.tyconian.resolve import ResolvedAttack
from simlab.systems.tyconian.sample import kernel_inputs, new_tallies

__all__ = ["python_block", "numpy_block"]


def _hit(attack: ResolvedAttack, draws: TrialDraws, located: list[int], steps: int, critical: bool) -> tuple[int, bool]:
    """Location, damage and stun roll of one hit: (damage, stunned) (TYC-5, TYC-6.4)."""
    location = int(attack.location_of_roll[draws.die(20)])
    location += max(-steps, min(steps, attack.target_index - location))
    whole, half = int(attack.whole_dice[location]), int(attack.half_die[location])
    damage = int(attack.trauma[location])
    if critical:
        damage += 8 * whole + 4 * half
    else:
        damage += sum(draws.die(8) for _ in range(whole)) + (draws.die(4) if half else 0)
    stunned = False
    if location == 0:  # the head
        stunned = draws.two_d6() + damage > attack.scenario.target_end
    located[location] += damage
    return damage, stunned


def python_block(attack: ResolvedAttack, key: StreamKey, start: int, stop: int) -> Tallies:
    """Pure-Python sampler of trials ``[start, stop)``: the kernel's tallies."""
    inputs = kernel_inputs(attack)
    hits_hist, damage_hist, levels, counts = new_tallies(attack)
    s, rules = attack.scenario, attack.rules
    for trial in range(start, stop):
        draws = TrialDraws(key, trial)
        located = [0] * len(attack.capacity)
        hits = total = 0
        knocked = stunned = False
        phases = 1 if inputs.kind == kernels.FULL_AUTO else len(inputs.skills)
        for phase in range(phases):
            phase_damage = 0
            critical = False
            if inputs.kind == kernels.SHOTS:
                roll = draws.die(rules.skill_die)
                critical = roll <= rules.critical_success_max
                hit = critical or (roll < rules.critical_failure_min and roll <= inputs.skills[phase])
                scored = int(hit)
            else:  # every die first, then the hits one by one
                scored = sum(draws.d6() >= inputs.hit_face for _ in range(inputs.rolls_per_attack))
            for _ in range(scored):
                hits += 1
                steps = int(inputs.steps[phase]) if inputs.kind == kernels.SHOTS else 0
                damage, stun = _hit(attack, draws, located, steps, critical)
                stunned = stunned or stun
                phase_damage += damage
                total += damage
            knocked = knocked or phase_damage > s.target_dex
        if inputs.kind == kernels.FULL_AUTO:
            near = sum(draws.d6() == 6 for _ in range(inputs.rolls_per_attack - hits))
            counts[kernels.BYSTANDERS] += near
            counts[kernels.BYSTANDERS_SQ] += near * near
        killed, unconscious, serious, worst = False, stunned, 0, 0
        for location, damage in enumerate(located):
            level = wound_index(damage, location, int(attack.capacity[location]))
            levels[location, level] += 1
            worst = max(worst, level)
            killed = killed or level == 6
            unconscious = unconscious or level in (4, 5)
            if level == 3:
                serious += 1
                if location == 0 or draws.dice(3) > s.target_end:  # 3d6 for every serious wound but the head's
                    unconscious = True
        unconscious = unconscious or serious >= 3
        dex_left = s.target_dex - (2 if worst >= 2 else 0) - (4 if worst >= 3 else 0)
        if inputs.jam[0] >= 0:
            counts[kernels.JAMS] += draws.two_d6() + inputs.jam[1] < inputs.jam[0]
        hits_hist[hits] += 1
        damage_hist[min(total, len(damage_hist) - 1)] += 1
        counts[kernels.KNOCKDOWN] += knocked
        counts[kernels.STUN] += stunned
        counts[kernels.KILLED] += killed
        counts[kernels.INCAPACITATED] += killed or unconscious or dex_left <= 0
        counts[kernels.DRAWS] += draws.made
    return hits_hist, damage_hist, levels, counts


def numpy_block(attack: ResolvedAttack, key: StreamKey, start: int, stop: int) -> Tallies:
    """Vectorised numpy sampler of full-automatic fire over trials ``[start, stop)``."""
    if attack.auto is None:
        raise ValueError("the numpy reference covers full automatic fire only")
    n = stop - start
    trials = np.arange(start, stop, dtype=np.uint64)
    gamma = np.uint64(key.gamma)
    with np.errstate(over="ignore"):
        base = np.uint64(key.offset) + trials * np.uint64(DRAWS_PER_TRIAL_LIMIT) * gamma
    made = np.zeros(n, np.uint64)
    every = np.arange(n)

    def positions(rows: npt.NDArray[np.intp]) -> npt.NDArray[np.uint64]:
        made[rows] += np.uint64(1)
        with np.errstate(over="ignore"):
            return base[rows] + made[rows] * gamma

    def die(rows: npt.NDArray[np.intp], sides: int) -> npt.NDArray[np.int64]:
        return die_np(positions(rows), sides)

    s = attack.scenario
    dice = attack.auto.dice
    hit = np.zeros((n, dice), bool)
    for j in range(dice):
        hit[:, j] = die(every, 6) >= attack.hit_face
    hits = hit.sum(axis=1)
    located = np.zeros((n, len(attack.capacity)), np.int64)
    total = np.zeros(n, np.int64)
    stunned = np.zeros(n, bool)
    for i in range(int(hits.max(initial=0))):
        rows = every[hits > i]
        location = attack.location_of_roll[die(rows, 20)]
        damage = attack.trauma[location].copy()
        for d in range(int(attack.whole_dice.max())):
            rolling = attack.whole_dice[location] > d
            damage[rolling] += die(rows[rolling], 8)
        halves = attack.half_die[location] == 1
        damage[halves] += die(rows[halves], 4)
        head = location == 0
        stunned[rows[head]] |= two_d6_np(positions(rows[head])) + damage[head] > s.target_end
        np.add.at(located, (rows, location), damage)
        total[rows] += damage
    missed = dice - hits
    near = np.zeros(n, np.int64)
    for j in range(dice):
        rows = every[missed > j]
        near[rows] += die(rows, 6) == 6
    hits_hist, damage_hist, levels, counts = new_tallies(attack)
    killed = np.zeros(n, bool)
    unconscious = stunned.copy()
    serious = np.zeros(n, np.int64)
    worst = np.zeros(n, np.int64)
    for spot in range(len(attack.capacity)):
        cap = int(attack.capacity[spot])
        at = np.array([wound_index(int(d), spot, cap) for d in located[:, spot]], np.int64)
        np.add.at(levels[spot], at, 1)
        worst = np.maximum(worst, at)
        killed |= at == 6
        unconscious |= (at == 4) | (at == 5)
        is_serious = at == 3
        serious += is_serious
        if spot == 0:
            unconscious |= is_serious
        else:
            rows = every[is_serious]
            rolled = die(rows, 6) + die(rows, 6) + die(rows, 6)
            unconscious[rows] |= rolled > s.target_end
    unconscious |= serious >= 3
    dex_left = s.target_dex - np.where(worst >= 2, 2, 0) - np.where(worst >= 3, 4, 0)
    np.add.at(hits_hist, hits, 1)
    np.add.at(damage_hist, np.minimum(total, len(damage_hist) - 1), 1)
    counts[kernels.KNOCKDOWN] = np.count_nonzero(total > s.target_dex)
    counts[kernels.STUN] = np.count_nonzero(stunned)
    counts[kernels.KILLED] = np.count_nonzero(killed)
    counts[kernels.INCAPACITATED] = np.count_nonzero(killed | unconscious | (dex_left <= 0))
    counts[kernels.BYSTANDERS] = near.sum()
    counts[kernels.BYSTANDERS_SQ] = (near * near).sum()
    counts[kernels.DRAWS] = int(made.sum())
    return hits_hist, damage_hist, levels, counts
