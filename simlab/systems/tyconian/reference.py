"""Plain twins of the compiled Tyconian attack kernel, for tests and ``simlab bench``.

The duel's are in :mod:`.duel_reference`.

:func:`python_block` loops over trials as the kernel does, one draw after another from
:class:`simlab.engine.rng.TrialDraws`; :func:`numpy_block` vectorises full-automatic fire over
trials with numpy (each trial keeps its own count of draws). Both give the kernel's tallies.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from simlab.engine.blocks import Tallies
from simlab.engine.interpreted import register_twins
from simlab.engine.rng import StreamKey, TrialDraws, VectorDraws
from simlab.systems.tyconian import layout
from simlab.systems.tyconian.exact import wound_index
from simlab.systems.tyconian.resolve import ResolvedAttack
from simlab.systems.tyconian.sample import _attack_tallies, kernel_inputs, new_tallies

__all__ = ["python_block", "numpy_block", "TWIN_ATTACKS", "AD_HOC"]


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
        stunned = draws.two_d6() + damage > attack.scenario.target_end and damage > 0
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
        phases = 1 if inputs.kind == layout.FULL_AUTO else len(inputs.skills)
        for phase in range(phases):
            phase_damage = 0
            critical = False
            if inputs.kind == layout.SHOTS:
                roll = draws.die(rules.skill_die)
                critical = roll <= rules.critical_success_max
                hit = critical or (roll < rules.critical_failure_min and roll <= inputs.skills[phase])
                scored = int(hit)
            else:  # every die first, then the hits one by one
                scored = sum(draws.d6() >= inputs.hit_face for _ in range(inputs.rolls_per_attack))
            for _ in range(scored):
                hits += 1
                steps = int(inputs.steps[phase]) if inputs.kind == layout.SHOTS else 0
                damage, stun = _hit(attack, draws, located, steps, critical)
                stunned = stunned or stun
                phase_damage += damage
                total += damage
            knocked = knocked or phase_damage > s.target_dex
        if rules.knockdown_damage == "phase":  # the damage of the whole turn (TYC-6.4)
            knocked = total > s.target_dex
        if inputs.kind == layout.FULL_AUTO:
            near = sum(draws.d6() == 6 for _ in range(inputs.rolls_per_attack - hits))
            counts[layout.BYSTANDERS] += near
            counts[layout.BYSTANDERS_SQ] += near * near
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
            counts[layout.JAMS] += draws.two_d6() + inputs.jam[1] < inputs.jam[0]
        hits_hist[hits] += 1
        damage_hist[min(total, len(damage_hist) - 1)] += 1
        counts[layout.KNOCKDOWN] += knocked
        counts[layout.STUN] += stunned
        counts[layout.KILLED] += killed
        counts[layout.INCAPACITATED] += killed or unconscious or dex_left <= 0
        counts[layout.DRAWS] += draws.made
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
        stunned[rows[head]] |= (draws.two_d6(rows[head]) + damage[head] > s.target_end) & (damage[head] > 0)
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
    counts[layout.KNOCKDOWN] = np.count_nonzero(total > s.target_dex)
    counts[layout.STUN] = np.count_nonzero(stunned)
    counts[layout.KILLED] = np.count_nonzero(killed)
    counts[layout.INCAPACITATED] = np.count_nonzero(killed | unconscious | (dex_left <= 0))
    counts[layout.BYSTANDERS] = near.sum()
    counts[layout.BYSTANDERS_SQ] = (near * near).sum()
    counts[layout.DRAWS] = int(draws.made.sum())
    return hits_hist, damage_hist, levels, counts


#: A weapon of one's own: full automatic fire of ROF 7 (no row of the table has it).
AD_HOC = {"weapon.rof": 7, "weapon.short_range_m": 40, "weapon.damage": 2.5, "weapon.magazine": 70,
           "weapon.burst_recoil": 1}  # fmt: skip
#: The attacks the kernel and these references are checked on: every range band and class of
#: penetration, recoil, aimed shots, bursts (both readings), full automatic fire of ROF 3, 5, 7 and 10.
TWIN_ATTACKS: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({"weapon": "autopistol", "range_m": 4}, {}),
    ({"weapon": "battle rifle", "range_m": 50, "armor": "flak vest"}, {}),
    ({"weapon": "laser rifle", "range_m": 150, "armor": "combat armour"}, {}),
    ({"weapon": "shotgun", "range_m": 50, "armor": "cloth"}, {}),
    ({"weapon": "stunner", "range_m": 70, "armor": "helmet"}, {}),
    ({"weapon": "bolt rifle", "range_m": 1000, "skill": 20}, {}),
    ({"weapon": "heavy pistol", "shots": 4, "firer_str": 8, "braced": True}, {}),
    ({"weapon": "revolver", "aim": 2, "aim_location": 3, "target_location": "head", "range_m": 8}, {}),
    ({"weapon": "assault rifle", "mode": "burst", "shots": 3, "range_m": 30}, {}),
    ({"weapon": "submachinegun", "mode": "burst", "shots": 2, "range_m": 8}, {"burst_hits": "per_round"}),
    ({"weapon": "assault rifle", "mode": "full_auto", "range_m": 80, "armor": "flak vest"}, {}),
    ({"weapon": "submachinegun", "mode": "full_auto", "range_m": 9}, {}),
    ({"weapon": "light machinegun", "mode": "full_auto", "range_m": 200, "loaded": 60}, {}),
    ({**AD_HOC, "mode": "full_auto", "range_m": 60, "armor": "combat armour"}, {}),
    ({"weapon": "battle rifle", "range_m": 40, "cover_av": 2, "target_end": 6}, {"rounding": "down"}),
]


def _twin_attacks() -> list[ResolvedAttack]:
    from simlab.systems.base import ScenarioRequest
    from simlab.systems.tyconian import SYSTEM, resolve_request  # the package, whose modules these are

    found = []
    for inputs, rules in TWIN_ATTACKS:
        scenario, rows = SYSTEM.attack.split_inputs(inputs)
        found.append(resolve_request(ScenarioRequest(scenario=scenario, rules=rules, row_overrides=rows))[2])
    return found


register_twins(
    "simlab.systems.tyconian.kernels:attack_block",
    lambda attack, key, start, stop: _attack_tallies(attack, kernel_inputs(attack), key, start, stop),
    lambda attack: (python_block, numpy_block) if attack.auto is not None else (python_block,),
    _twin_attacks,
)
