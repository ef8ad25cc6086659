"""2d6 + DM against a target number, with natural 2 and 12 (STR-2.1) and extra hits per margin.

The outcome of such a roll depends only on the natural 2d6 total, so the rules are
tabulated once per attack, indexed by the natural total 2..12; the exact engine weights the
entries by the 2d6 distribution and the samplers look the rolled total up.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from simlab.engine.pmf import PMF, dice_sum
from simlab.mechanics.roll_under import extra_hits

__all__ = ["TWO_D6", "NATURALS", "TABLE_SLOTS", "p_at_least", "hits_by_natural", "p_higher_with_rerolled_ties"]

#: The distribution of 2d6.
TWO_D6: PMF = dice_sum(2, 6)
#: The natural totals of 2d6.
NATURALS = range(2, 13)
#: Length of a table indexed by the natural total (indices 0 and 1 unused).
TABLE_SLOTS = 13


def p_at_least(target: int, dm: int = 0) -> float:
    """``P(2d6 + dm >= target)`` of a plain roll (no natural 2 or 12 rule)."""
    return TWO_D6.p_at_least(target - dm)


def hits_by_natural(
    dm: int, target: int, step: int | None, cap: int, *, natural_miss: int = 2, natural_hit: int = 12
) -> npt.NDArray[np.int64]:
    """Hits scored for each natural 2d6 total (STR-2.1, STR-3.1).

    A total ``natural + dm >= target`` hits, a natural 2 always misses and a natural 12
    always hits; a hit scores ``1 + floor((total - target) / step)`` hits, at least 1 and at
    most ``cap`` (``step`` None: always 1 hit).

    Args:
        dm: Sum of the roll's DMs.
        target: The target number.
        step: Margin per extra hit, or None for no extra hits.
        cap: Most hits (rounds fired).
        natural_miss: Natural total that always misses.
        natural_hit: Natural total that always hits.
    """
    hits = np.zeros(TABLE_SLOTS, np.int64)
    for natural in NATURALS:
        total = natural + dm
        if natural == natural_miss or (total < target and natural != natural_hit):
            continue
        hits[natural] = extra_hits(total - target, step, cap) if step is not None else 1
    hits.setflags(write=False)
    return hits


def p_higher_with_rerolled_ties(dm_a: int, dm_b: int) -> float:
    """``P(2d6 + dm_a > 2d6 + dm_b)`` when ties are rolled again (initiative, STR-11.1)."""
    a = TWO_D6 + dm_a
    b = TWO_D6 + dm_b
    difference = a + b.map(lambda v: -v)
    higher = difference.p_at_least(1)
    tie = difference.p_equal(0)
    return higher / (1.0 - tie)
