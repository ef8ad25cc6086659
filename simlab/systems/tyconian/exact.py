"""Exact figures of one Tyconian attack (TYC-1, TYC-3 to TYC-6, TYC-10).

Exact for every attack: the hits (independent shots, or binomial full-auto dice), the
mean damage (hits × mean damage of a hit, criticals at maximum), the chance of a jam and
the expected hits on bystanders. Exact for attacks of at most one hit: everything, the
damage distribution and the wound outcome over all locations included. The rest of a
several-hit attack is sampled (:mod:`.sample`) and checked against these on one-hit cases.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simlab.engine.pmf import PMF, dice_sum, die, mixture, point
from simlab.mechanics.d20 import p_critical_success
from simlab.mechanics.target_number import TWO_D6
from simlab.systems.tyconian.fire import can_jam, p_jam, shot_chances
from simlab.systems.tyconian.full_auto import binomial
from simlab.systems.tyconian.resolve import LOCATIONS, ResolvedAttack
from simlab.systems.tyconian.rules import Target
from simlab.systems.tyconian.wounds import LIMBS, wound_code

__all__ = [
    "ExactAttack",
    "exact_attack",
    "hits_pmf",
    "hit_damage_pmf",
    "wound_index",
    "semi_automatic",
    "single_hit_figures",
]

_THREE_D6 = dice_sum(3, 6)
HEAD = LOCATIONS.index("head")


@dataclass(frozen=True)
class ExactAttack:
    """Exact figures of an attack; ``outcome`` only for attacks of at most one hit."""

    hits: PMF
    mean_damage: float
    p_jam: float | None
    mean_bystander_hits: float | None
    damage: PMF | None = None
    outcome: dict[str, float] = field(default_factory=dict)
    wounds: dict[str, dict[int, float]] = field(default_factory=dict)


def semi_automatic(attack: ResolvedAttack) -> bool:
    """Whether the attack's weapon can jam: semi-automatic (ROF SA...), not energy, single shots (TYC-3.6)."""
    return can_jam(attack.weapon, attack.scenario.mode)


def _p_shot(attack: ResolvedAttack) -> list[float]:
    return shot_chances(attack.skills, attack.rules)


def hits_pmf(attack: ResolvedAttack) -> PMF:
    """The exact distribution of hits (TYC-1, TYC-3.7, TYC-4)."""
    if attack.auto is not None:
        return attack.auto.hits()
    p_face = max(0, 7 - attack.hit_face) / 6
    if attack.rounds_per_hit_roll:
        return binomial(len(attack.skills) * attack.rounds_per_hit_roll, p_face)
    total = point(0)
    for p in _p_shot(attack):
        total = total + PMF(0, np.array([1 - p, p]))
    return total


def _location_chances(attack: ResolvedAttack, steps: int) -> np.ndarray:
    chances = np.zeros(len(LOCATIONS))
    for roll in range(1, 21):
        index = int(attack.location_of_roll[roll])
        index += max(-steps, min(steps, attack.target_index - index))
        chances[index] += 1 / 20
    return chances


def hit_damage_pmf(attack: ResolvedAttack, location: int, *, critical: bool = False) -> PMF:
    """Damage of one hit at a location (TYC-5.2 to TYC-5.4)."""
    whole, half, trauma = int(attack.whole_dice[location]), int(attack.half_die[location]), int(attack.trauma[location])
    if critical:
        return point(8 * whole + 4 * half + trauma)
    rolled = die(8).times(whole) if whole else point(0)
    return (rolled + die(4) if half else rolled) + trauma


def wound_index(damage: int, location: int, cap: int) -> int:
    """The wound level (index in WOUND_LEVELS) of ``damage`` points at location index ``location`` (TYC-6.2)."""
    return wound_code(damage, cap, LOCATIONS[location] in LIMBS, location == HEAD)


def _one_hit_outcome(target: Target, capacity: np.ndarray, damage: int, location: int) -> dict[str, float]:
    """Outcome of a single hit of ``damage`` at ``location`` (TYC-6.2 to TYC-6.5)."""
    level = wound_index(damage, location, int(capacity[location]))
    killed = level == 6
    stun = TWO_D6.p_at_least(target.target_end - damage + 1) if location == HEAD and damage > 0 else 0.0
    if level == 3:  # serious: unconscious at the head, else unless 3d6 comes under END
        faint = 1.0 if location == HEAD else _THREE_D6.p_at_least(target.target_end + 1)
    else:
        faint = 1.0 if level in (4, 5) else 0.0
    dex = target.target_dex - (2 if level >= 2 else 0) - (4 if level >= 3 else 0)
    unconscious = 1.0 - (1.0 - stun) * (1.0 - faint)
    return {
        "p_knockdown": float(damage > target.target_dex),
        "p_stun": stun,
        "p_incapacitated": 1.0 if (killed or dex <= 0) else unconscious,
        "p_killed": float(killed),
    }


def single_hit_figures(
    parts: list[tuple[float, PMF, int]], target: Target, capacity: np.ndarray
) -> tuple[PMF, dict[str, float], dict[str, dict[int, float]]]:
    """Damage, outcome and wounds by location of an attack that scores at most one hit (TYC-6).

    Args:
        parts: ``(weight, damage PMF, location index)`` of each way the hit lands; the
            weights sum to the chance of the hit.
        target: The target's attributes.
        capacity: Capacity of each location.
    """
    p_hit = sum(w for w, _, _ in parts)
    damage = mixture([1.0 - p_hit] + [w for w, _, _ in parts], [point(0)] + [pmf for _, pmf, _ in parts])
    outcome = dict.fromkeys(("p_knockdown", "p_stun", "p_incapacitated", "p_killed"), 0.0)
    levels = np.zeros((len(LOCATIONS), 7))
    levels[:, 0] = 1.0  # unhurt unless the hit lands there
    for weight, pmf, location in parts:
        for value, p in zip(pmf.values, pmf.probs, strict=True):
            for name, q in _one_hit_outcome(target, capacity, int(value), location).items():
                outcome[name] += weight * p * q
            level = wound_index(int(value), location, int(capacity[location]))
            levels[location, 0] -= weight * p
            levels[location, level] += weight * p
    wounds = {f"wounds_{name}": dict(enumerate(levels[i].tolist())) for i, name in enumerate(LOCATIONS)}
    return damage, outcome, wounds


def exact_attack(attack: ResolvedAttack) -> ExactAttack:
    """The exact figures of an attack (the outcome too when it scores at most one hit)."""
    hits = hits_pmf(attack)
    aimed_shots = attack.auto is None and not attack.rounds_per_hit_roll  # shots with skill rolls and criticals
    crit = p_critical_success(die=attack.rules.skill_die, critical_success_max=attack.rules.critical_success_max)

    # One hit's damage: (weight, damage, location), weights summing to the chance of the hit.
    def one_hit(p_hit: float, steps: int) -> list[tuple[float, PMF, int]]:
        parts = []
        p_crit = min(crit, p_hit) if aimed_shots else 0.0
        for location, chance in enumerate(_location_chances(attack, steps)):
            if chance:
                parts.append((chance * (p_hit - p_crit), hit_damage_pmf(attack, location), location))
                if p_crit:
                    parts.append((chance * p_crit, hit_damage_pmf(attack, location, critical=True), location))
        return parts

    if aimed_shots:
        shots = [one_hit(p, attack.shot_steps[i]) for i, p in enumerate(_p_shot(attack))]
        mean_damage = sum(w * pmf.mean() for parts in shots for w, pmf, _ in parts)
    else:
        shots = [one_hit(float(hits.p_at_least(1)), 0)]
        mean_damage = hits.mean() * sum(w * pmf.mean() for w, pmf, _ in one_hit(1.0, 0))
    jam = p_jam(len(attack.skills), attack.rules) if semi_automatic(attack) else None
    bystanders = None
    if attack.auto is not None:
        missed = attack.auto.dice - np.arange(len(hits.probs))
        bystanders = float(hits.probs @ ((np.ceil(missed / 2) + np.floor(missed / 2)) / 6))
    if attack.max_hits > 1:
        return ExactAttack(hits, float(mean_damage), jam, bystanders)
    damage, outcome, wounds = single_hit_figures(shots[0], attack.scenario, attack.capacity)
    return ExactAttack(hits, float(mean_damage), jam, bystanders, damage, outcome, wounds)
