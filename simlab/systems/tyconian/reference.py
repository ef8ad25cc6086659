"""Plain twins of the compiled Tyconian kernel, for tests and ``simlab bench``.

:func:`python_block` loops over trials as the kernel does, one draw after another from
:class:`simlab.rng.TrialDraws`; :func:`numpy_block` vectorises full-automatic fire over
trials with numpy (each trial keeps its own count of draws). Both give the kernel's tallies.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from simlab import duels
from simlab.engine import Tallies
from simlab.rng import StreamKey, TrialDraws, VectorDraws
from simlab.systems.tyconian import kernels
from simlab.systems.tyconian.duel import ResolvedDuel
from simlab.systems.tyconian.exact import wound_index
from simlab.systems.tyconian.resolve import ResolvedAttack
from simlab.systems.tyconian.sample import kernel_inputs, new_tallies
from simlab.systems.tyconian.wounds import wound_code

__all__ = ["python_block", "numpy_block", "python_duel_block"]


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
    every = np.arange(n)
    draws = VectorDraws(key, start, stop)

    def die(rows: npt.NDArray[np.intp], sides: int) -> npt.NDArray[np.int64]:
        return draws.die(rows, sides)

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
        stunned[rows[head]] |= draws.two_d6(rows[head]) + damage[head] > s.target_end
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
    counts[kernels.DRAWS] = int(draws.made.sum())
    return hits_hist, damage_hist, levels, counts


def _duel_hit(duel: ResolvedDuel, s: int, draws: TrialDraws, critical: bool, end: int) -> tuple[int, int, bool]:
    """Location, damage and stun of one hit of side ``s`` (as the kernel's ``_hit_on``)."""
    table = duel.locations[s]
    location = int(duel.location_of_roll[draws.die(20)])
    whole, half = int(table[0, location]), int(table[1, location])
    damage = int(table[2, location])
    if critical:
        damage += 8 * whole + 4 * half
    else:
        damage += sum(draws.die(8) for _ in range(whole)) + (draws.die(4) if half else 0)
    stunned = location == 0 and draws.two_d6() + damage > end
    return location, damage, stunned


def _round(numerator: int, denominator: int, down: bool) -> int:
    return numerator // denominator if down else (2 * numerator + denominator) // (2 * denominator)


def _plan(duel: ResolvedDuel, s: int, dex: int, loaded: int) -> list[int]:
    """Seconds of the shots of side ``s`` this turn (as the kernel's plan)."""
    p = duel.sides[s]
    cap = int(p[kernels.CAP])
    seconds: list[int] = []
    available = second = spent = 0
    rounds_left = loaded
    while len(seconds) < kernels.MAX_SHOTS and (cap < 0 or len(seconds) < cap) and rounds_left >= p[kernels.ROUNDS]:
        cost = spent + (int(p[kernels.BETWEEN]) if seconds else 0) + int(p[kernels.COST])
        while available < cost and second < 5:
            available += int(duel.points[min(dex, 15), second])
            second += 1
        if available < cost:
            break
        seconds.append(second)
        spent = cost
        rounds_left -= int(p[kernels.ROUNDS])
    return seconds


def python_duel_block(duel: ResolvedDuel, key: StreamKey, start: int, stop: int) -> Tallies:
    """Pure-Python duel sampler of trials ``[start, stop)``: the kernel's tallies."""
    rules = duel.rules
    sides = duel.sides
    down_rounding = rules.rounding == "down"
    turns_hist = np.zeros(rules.max_turns + 1, np.int64)
    seconds_hist = np.zeros(5 * rules.max_turns + 1, np.int64)
    counts = np.zeros(duels.N_DUEL_COUNTS, np.int64)
    for trial in range(start, stop):
        draws = TrialDraws(key, trial)
        dex = [int(sides[s, kernels.DEX]) for s in (0, 1)]
        strength = [int(sides[s, kernels.STR]) for s in (0, 1)]
        loaded = [int(sides[s, kernels.MAGAZINE]) for s in (0, 1)]
        spare = [int(sides[s, kernels.SPARE]) for s in (0, 1)]
        down, slight, serious = [False, False], [False, False], [False, False]
        serious_count = [0, 0]
        located = [[0] * 7, [0] * 7]
        level = [[0] * 7, [0] * 7]
        turns = elapsed = 0
        over = False
        while turns < rules.max_turns and not over:
            turns += 1
            plans: list[list[int]] = [[], []]
            auto = [False, False]
            recoil = [0, 0]
            for s in (0, 1):
                if down[s] or dex[s] <= 0:
                    continue
                if loaded[s] < (1 if sides[s, kernels.AUTO] else sides[s, kernels.ROUNDS]):
                    if spare[s] > 0:
                        spare[s] -= 1
                        loaded[s] = int(sides[s, kernels.MAGAZINE])
                    continue
                if sides[s, kernels.AUTO]:
                    auto[s] = True
                else:
                    plans[s] = _plan(duel, s, dex[s], loaded[s])
            for second in range(1, 6):
                pending = [[0] * 7, [0] * 7]
                stunned = [False, False]
                for s in (0, 1):
                    if down[s]:
                        continue
                    other = 1 - s
                    p = sides[s]
                    for at in plans[s]:
                        if at != second:
                            continue
                        loaded[s] -= int(p[kernels.ROUNDS])
                        recoil[s] += int(p[kernels.RECOIL])
                        penalty = max(0, recoil[s] - strength[s])
                        base = (int(p[kernels.SKILL]) + 5 * int(p[kernels.AIM])) * int(p[kernels.MULTIPLIER])
                        skill = _round(base, 100, down_rounding) - penalty
                        roll = draws.die(rules.skill_die)
                        critical = roll <= rules.critical_success_max
                        if critical or (roll < rules.critical_failure_min and roll <= skill):
                            location, damage, stun = _duel_hit(duel, s, draws, critical, int(sides[other, kernels.END]))
                            pending[other][location] += damage
                            stunned[other] = stunned[other] or stun
                    if auto[s] and second == 5:
                        full = int(p[kernels.AUTO_ROUNDS])
                        rounds = min(full, loaded[s])
                        loaded[s] -= rounds
                        reduction = _round(int(p[kernels.AUTO_REDUCTION]) * rounds, full, down_rounding)
                        r5 = 5 * int(p[kernels.AUTO_RECOIL])
                        if r5 > strength[s]:
                            reduction += rules.recoil_dice_factor * (r5 - strength[s])
                        dice = rounds - reduction
                        if reduction > 0:
                            dice = max(dice, _round(int(p[kernels.AUTO_MINIMUM]) * rounds, full, down_rounding))
                        dice = max(0, min(dice, rounds))
                        scored = sum(draws.d6() >= p[kernels.HIT_FACE] for _ in range(dice))
                        for _ in range(scored):
                            location, damage, stun = _duel_hit(duel, s, draws, False, int(sides[other, kernels.END]))
                            pending[other][location] += damage
                            stunned[other] = stunned[other] or stun
                for s in (0, 1):
                    out = stunned[s]
                    table = duel.locations[1 - s]
                    for i in range(7):
                        if not pending[s][i]:
                            continue
                        located[s][i] += pending[s][i]
                        new = wound_code(located[s][i], int(table[3, i]), bool(table[4, i]), i == 0)
                        if new >= 2 and not slight[s]:
                            slight[s] = True
                            dex[s] -= 2
                        if new >= 3 and not serious[s]:
                            serious[s] = True
                            dex[s] -= 4
                            strength[s] //= 2
                        if new == 3 and level[s][i] < 3:
                            serious_count[s] += 1
                            if i == 0 or draws.dice(3) > sides[s, kernels.END]:
                                out = True
                        out = out or new >= 4
                        level[s][i] = max(level[s][i], new)
                    out = out or serious_count[s] >= 3 or dex[s] <= 0
                    down[s] = down[s] or out
                if down[0] or down[1]:
                    over = True
                    elapsed = 5 * (turns - 1) + second
                    break
        if not over:
            elapsed = 5 * turns
        index = (
            duels.BOTH_DOWN if all(down) else duels.A_WINS if down[1] else duels.B_WINS if down[0] else duels.NEITHER
        )
        counts[index] += 1
        turns_hist[turns] += 1
        seconds_hist[elapsed] += 1
        counts[duels.TURNS] += turns
        counts[duels.TURNS_SQ] += turns * turns
        counts[duels.SECONDS] += elapsed
        counts[duels.SECONDS_SQ] += elapsed * elapsed
        counts[duels.DUEL_DRAWS] += draws.made
    return turns_hist, seconds_hist, counts
