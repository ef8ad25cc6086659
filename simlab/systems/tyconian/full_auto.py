"""Full automatic fire of the Tyconian rules: dice after range and recoil, hits (TYC-4).

One d6 per round fired; each die showing ``full_auto_hit_face`` (or ``close_hit_face`` at
close range) hits, so the hits are exactly binomial in the dice the rules leave.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simlab.engine.pmf import PMF
from simlab.inputs.errors import ScenarioError
from simlab.inputs.tables import Table
from simlab.mechanics.d20 import round_off
from simlab.systems.tyconian.rules import FullAutoRow, Rules

__all__ = ["FullAutoFire", "table_row", "full_auto_fire", "binomial"]


@dataclass(frozen=True)
class FullAutoFire:
    """One turn of full-automatic fire.

    Attributes:
        rounds: Rounds fired.
        dice: Dice rolled after the reductions (TYC-4.2 to TYC-4.4).
        p_die: Chance that one die hits.
        reduction: Dice taken off for range and recoil (before the minimum).
    """

    rounds: int
    dice: int
    p_die: float
    reduction: int

    def hits(self) -> PMF:
        """The exact distribution of hits: Binomial(dice, p_die)."""
        return binomial(self.dice, self.p_die)


def binomial(n: int, p: float) -> PMF:
    """Binomial(n, p) as a :class:`PMF`."""
    k = np.arange(n + 1)
    coefficients = np.array([math.comb(n, int(i)) for i in k], dtype=float)
    return PMF(0, coefficients * p**k * (1 - p) ** (n - k))


def table_row(rof: int, table: Table[FullAutoRow]) -> FullAutoRow:
    """The row of the nearest listed ROF; ties go to the lower (TYC-4.2)."""
    return min(table, key=lambda row: (abs(row.rof - rof), row.rof))


def full_auto_fire(
    rof: int, burst_recoil: int, loaded: int, band: str, str_prime: int, table: Table[FullAutoRow], rules: Rules
) -> FullAutoFire:
    """The dice and hit chance of a turn of full-auto fire (TYC-4.1 to TYC-4.4).

    Raises:
        ScenarioError: Beyond long range, or with an empty magazine.
    """
    if band not in ("close", "short", "medium", "long"):
        raise ScenarioError(f"full automatic fire reaches long range at most, not {band.replace('_', ' ')} (TYC-4.1)")
    rounds = min(10 * rof, loaded)
    if rounds <= 0:
        raise ScenarioError("the magazine is empty: full automatic fire needs rounds (TYC-4.1)")
    row = table_row(rof, table)
    scale = rounds / (10 * rof)
    reduction = {"medium": row.medium_reduction, "long": row.long_reduction}.get(band, 0)
    reduction = round_off(reduction * scale, rules.rounding)
    r5 = 5 * burst_recoil
    if r5 > str_prime:
        reduction += rules.recoil_dice_factor * (r5 - str_prime)
    dice = rounds - reduction
    if reduction > 0:
        dice = max(dice, round_off(row.minimum_dice * scale, rules.rounding))
    dice = max(0, min(dice, rounds))
    face = rules.close_hit_face if band == "close" else rules.full_auto_hit_face
    return FullAutoFire(rounds, dice, max(0, 7 - face) / 6, reduction)
