"""Exact outcome distributions of one HiTech TFT attack (TFT-3 to TFT-7, TFT-10).

The attack roll is weighted by the exact 3d6 distribution; each total's damage is the
exact distribution of its dice through armour (:mod:`simlab.mechanics.armour`).
"""

from __future__ import annotations

import numpy as np

from simlab.engine.pmf import PMF
from simlab.mechanics.armour import attack_damage, raw_damage
from simlab.mechanics.roll_under import THREE_D6, p_roll_at_most
from simlab.systems.hitech_tft.outcomes import BLAST_DISTANCES, SPLASH_METRIC, Outcome
from simlab.systems.hitech_tft.resolve import MAX_SCATTER, ResolvedAttack

__all__ = ["exact_outcome", "distance_damage"]


def _knock(attack: ResolvedAttack, dice: int, adds: int, damage: PMF) -> PMF:
    """Damage that counts for knockdown (TFT-5.1): before armour for soft armour."""
    return raw_damage(dice, adds) if attack.soft else damage


def distance_damage(attack: ResolvedAttack, distance: int, multiplier: int = 1) -> tuple[int, PMF]:
    """Dice and damage of a figure at ``distance`` hexes from a blast (TFT-7.3).

    Returns:
        ``(dice, damage distribution)``.
    """
    assert attack.blast is not None
    dice = attack.blast.dice_at[distance] * multiplier
    damage = attack_damage(
        dice, attack.adds_per_hit, attack.blast.protection_at[distance], per_die=True, factor=attack.damage_factor
    )
    return dice, damage


def exact_outcome(attack: ResolvedAttack) -> Outcome:
    """The exact :class:`Outcome` of an attack.

    Args:
        attack: The resolved attack.
    """
    p_attack = 1.0 if attack.quickdraw_dx is None else p_roll_at_most(attack.quickdraw_dx)
    table = attack.table
    # (weight, hits, dice rolled, damage pmf, knockdown pmf) of every way the attack can go.
    branches: list[tuple[float, int, int, PMF, PMF]] = []
    for roll in table.rolls():
        weight = p_attack * THREE_D6.p_equal(roll)
        hits = int(table.hits[roll])
        multiplier = int(table.multiplier[roll])
        if attack.blast is not None:
            if hits:
                dice, damage = distance_damage(attack, 0, multiplier)
                branches.append((weight, 1, dice, damage, _knock(attack, dice, attack.adds_per_hit, damage)))
            else:
                for distance in range(1, MAX_SCATTER + 1):
                    dice, damage = distance_damage(attack, distance)
                    knock = _knock(attack, dice, attack.adds_per_hit, damage)
                    branches.append((weight / MAX_SCATTER, 0, dice, damage, knock))
            continue
        dice = hits * multiplier * attack.dice_per_hit
        adds = hits * attack.adds_per_hit
        damage = attack_damage(dice, adds, attack.protection, per_die=attack.per_die, factor=attack.damage_factor)
        branches.append((weight, hits, dice, damage, _knock(attack, dice, adds, damage)))
    if p_attack < 1.0:
        zero = PMF(0, np.ones(1))
        branches.append((1.0 - p_attack, 0, 0, zero, zero))

    n_hits = max(h for _, h, _, _, _ in branches) + 1
    n_damage = max(d.max_value for _, _, _, d, _ in branches) + 1
    joint = np.zeros((n_hits, n_damage))
    p_stagger = p_knockdown = mean_dice = 0.0
    for weight, hits, dice, damage, knock in branches:
        joint[hits, damage.offset : damage.offset + len(damage.probs)] += weight * damage.probs
        p_stagger += weight * knock.p_at_least(attack.stagger_threshold)
        p_knockdown += weight * knock.p_at_least(attack.knockdown_threshold)
        mean_dice += weight * dice
    p_lost = p_attack * sum(THREE_D6.p_equal(r) * int(table.weapon_lost[r]) for r in table.rolls())

    extras: dict[str, float] = {}
    if attack.splash_per_die is not None:
        extras[SPLASH_METRIC] = attack.splash_per_die * mean_dice
    if attack.blast is not None:
        for k in BLAST_DISTANCES:
            dice, damage = distance_damage(attack, k)
            extras[f"dice_at_{k}"] = float(dice)
            extras[f"mean_damage_at_{k}"] = damage.mean()
    return Outcome(joint, p_stagger, p_knockdown, p_lost, extras)
