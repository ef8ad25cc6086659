"""3d6 roll-under with criticals and extra hits per margin (TFT-3).

The outcome of the attack roll depends only on the rolled total, so the rules are
tabulated once per attack as :class:`RollTable`: for each total 3..18, whether it hits,
how many hits it scores and the damage-dice multiplier. The exact engine weights the rows
by the 3d6 distribution; the samplers look the rolled total up in the same table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from simlab.engine.pmf import PMF, dice_sum

__all__ = ["THREE_D6", "ROLL_SLOTS", "NO_ATTACK", "RollTable", "roll_table", "extra_hits", "p_roll_at_most"]

#: The distribution of 3d6.
THREE_D6: PMF = dice_sum(3, 6)
#: Table slots: index = rolled total (3..18); index 0 stands for "no attack made".
ROLL_SLOTS = 19
NO_ATTACK = 0


@dataclass(frozen=True, eq=False)
class RollTable:
    """Per rolled total (index 3..18; index 0 = no attack): hits, dice multiplier, weapon lost.

    Attributes:
        hits: Hits scored (0 on a miss).
        multiplier: Damage-dice multiplier (3 on a 3, 2 on a 4 with criticals; else 1).
        weapon_lost: 1 where the roll drops or breaks the weapon (17, 18 with criticals).
    """

    hits: npt.NDArray[np.int64]
    multiplier: npt.NDArray[np.int64]
    weapon_lost: npt.NDArray[np.int64]

    def rolls(self) -> range:
        """The possible totals of 3d6."""
        return range(3, 19)


def extra_hits(margin: int, step: int, cap: int | None) -> int:
    """Hits of an autofire attack that hit (TFT-3.3).

    ``1 + floor(margin / step)``, at least 1 and at most ``cap`` (None: unlimited).

    Args:
        margin: ``AdjDX - roll`` (may be negative for an automatic hit).
        step: The ``autofire_step`` parameter.
        cap: Rounds fired, or None for belt bursts.
    """
    hits = max(1, 1 + margin // step)
    return hits if cap is None else min(hits, cap)


def roll_table(
    adj_dx: int,
    *,
    criticals: bool,
    autofire: bool,
    step: int,
    cap: int | None,
    thresholds: tuple[int, int, int, int, int] = (3, 4, 5, 16, 17),
) -> RollTable:
    """Tabulate the attack roll (TFT-3.1 to TFT-3.3).

    Args:
        adj_dx: The adjusted DX.
        criticals: Whether the criticals of TFT-3.2 apply: by default 3/4/5 always hit (3: x3 dice,
            4: x2 dice) and 16-18 always miss, 17-18 losing the weapon.
        autofire: Whether extra hits per margin apply (any mode but ``single``).
        step: ``autofire_step``.
        cap: Maximum hits (rounds fired), None for unlimited.
        thresholds: The rolls at or below which dice are tripled, doubled, the roll always hits, and at or
            above which it always misses and the weapon is lost (TFT-3.2's 3, 4, 5, 16, 17).
    """
    triple, double, sure_hit, sure_miss, lost_from = thresholds
    hits = np.zeros(ROLL_SLOTS, np.int64)
    multiplier = np.ones(ROLL_SLOTS, np.int64)
    lost = np.zeros(ROLL_SLOTS, np.int64)
    for roll in range(3, 19):
        if criticals:
            hit = roll <= sure_hit or (roll < sure_miss and roll <= adj_dx)
            multiplier[roll] = 3 if roll <= triple else 2 if roll <= double else 1
            lost[roll] = int(roll >= lost_from)
        else:
            hit = roll <= adj_dx
        if hit:
            hits[roll] = extra_hits(adj_dx - roll, step, cap) if autofire else 1
    for array in (hits, multiplier, lost):
        array.setflags(write=False)
    return RollTable(hits, multiplier, lost)


def p_roll_at_most(target: int) -> float:
    """``P(3d6 <= target)``: a plain roll against an attribute (quickdraw, TFT-6.3)."""
    return 1.0 - THREE_D6.p_at_least(target + 1)
