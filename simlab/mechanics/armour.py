"""Armour against damage dice: per die, per whole attack, AP halving (TFT-4).

Exact forms as :class:`~simlab.engine.pmf.PMF`; the samplers apply the same arithmetic per die.
The distributions are pure functions of a few integers and PMFs are values, so each is
computed once per process and shared by every cell (and marginal change) that needs it.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from simlab.engine.pmf import PMF, die, point

__all__ = ["halve_up", "per_die_damage", "attack_damage", "raw_damage"]


def halve_up(protection: int) -> int:
    """Armour against AP rounds and in a blast hex: ``ceil(P / 2)`` (TFT-4.4, TFT-7.3)."""
    return -(-protection // 2)


@lru_cache(maxsize=4096)
def per_die_damage(protection: int, sides: int = 6) -> PMF:
    """Damage of one die after per-die armour, ``max(0, d - P)`` (TFT-4.2)."""
    return die(sides).map(lambda v: np.maximum(v - protection, 0))


@lru_cache(maxsize=4096)
def raw_damage(dice: int, adds: int, sides: int = 6) -> PMF:
    """Damage before armour: ``dice`` dice plus ``adds``, never below 0 (TFT-5.1)."""
    return (die(sides).times(dice) + adds).clamp_low(0) if dice else point(max(adds, 0))


@lru_cache(maxsize=16384)
def attack_damage(dice: int, adds: int, protection: int, *, per_die: bool, factor: int = 1, sides: int = 6) -> PMF:
    """Damage an attack does through armour.

    Per-die armour (missile weapons, TFT-4.2) takes ``protection`` off each die and adds
    ``adds`` afterwards; whole-attack armour (melee, TFT-4.3) takes it off the total once.
    The total never goes below 0 and is then multiplied by ``factor`` (2 for HE/HEAP,
    TFT-4.5/4.6).

    Args:
        dice: Number of dice rolled (all hits of the attack, criticals included).
        adds: Adds of the whole attack (adds per hit times hits).
        protection: Effective armour (already halved for AP).
        per_die: Per-die (True) or whole-attack (False) armour.
        factor: Multiplier of the damage that gets through.
        sides: Faces of the damage dice.
    """
    if per_die:
        through = per_die_damage(protection, sides).times(dice) + adds
    else:
        through = die(sides).times(dice) + (adds - protection)
    return through.clamp_low(0).scale(factor)
