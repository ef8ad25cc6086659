"""Hit locations, armour and damage of one hit in the Tyconian rules (TYC-5).

The damage of one hit at one location is an exact distribution: d8s for the whole dice
left after armour, a d4 for a half die, plus blunt trauma for the dice armour stopped.
"""

from __future__ import annotations

import math

from simlab.engine.pmf import PMF, die, point
from simlab.inputs.tables import Table
from simlab.systems.tyconian.rules import HitLocation, Rules, rows_by_roll

__all__ = ["dice_left", "blunt_trauma", "hit_damage", "location_distribution"]


def dice_left(dice: float, av: int, penetration: str) -> float:
    """Damage dice left after armour: -1 per AV, -½ high, -2 low, all if any AV nil (TYC-5.2).

    Examples (seed): high, 3 dice against AV 3 → 1.5; low, 3 dice against AV 1 → 1.
    """
    if av <= 0:
        return dice
    taken = {"normal": av, "high": av / 2, "low": 2 * av, "nil": dice}[penetration]
    return max(0.0, dice - taken)


def blunt_trauma(stopped: float, rules: Rules) -> int:
    """Blunt trauma of the dice armour stopped: 2 per whole die, 1 per half die (TYC-5.3)."""
    whole = math.floor(stopped)
    half = 1 if stopped - whole >= 0.5 else 0
    return rules.blunt_per_die * whole + (rules.blunt_per_die // 2) * half


def _roll(dice: float, critical: bool) -> PMF:
    """``floor(dice)`` d8 plus a d4 for a half die; every die its top face on a critical (TYC-5.4)."""
    whole = math.floor(dice)
    half = dice - whole >= 0.5
    if critical:
        return point(8 * whole + 4 * half)
    total = die(8).times(whole) if whole else point(0)
    return total + die(4) if half else total


def hit_damage(dice: float, av: int, cover_av: int, penetration: str, rules: Rules, *, critical: bool = False) -> PMF:
    """Damage of one hit at a location with body armour ``av`` behind cover ``cover_av`` (TYC-5.2, 5.3).

    Cover acts as armour in front of the body armour, without blunt trauma.
    """
    through_cover = dice_left(dice, cover_av, penetration)
    left = dice_left(through_cover, av, penetration)
    trauma = blunt_trauma(min(through_cover, through_cover - left), rules)
    return _roll(left, critical) + trauma


def location_distribution(
    table: Table[HitLocation], aim_steps: int = 0, aimed_at: str | None = None
) -> dict[str, float]:
    """Chance of each location: a d20 on the table, moved up to ``aim_steps`` rows toward ``aimed_at``.

    TYC-3.2 (aim points move the location one row each), TYC-5.1 (the table).
    """
    rows = list(table)
    order = [row.name for row in rows]
    target = order.index(aimed_at) if aimed_at is not None else None
    chances = dict.fromkeys(order, 0.0)
    for index in rows_by_roll(rows)[1:]:
        if target is not None:
            index += max(-aim_steps, min(aim_steps, target - index))
        chances[order[index]] += 1 / 20
    return chances
