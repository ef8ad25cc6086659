"""2d6 + DM against a target number, with natural 2 and 12 (STR-2.1) and extra hits per margin.

The outcome of such a roll depends only on the natural 2d6 total, so the rules are
tabulated once per attack, indexed by the natural total 2..12; the exact engine weights the
entries by the 2d6 distribution and the samplers look the rolled total up.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from simlab.engine.pmf import PMF, dice_sum

__all__ = [
    "TWO_D6",
    "NATURALS",
    "TABLE_SLOTS",
    "p_at_least",
    "hits_scored",
    "hits_by_natural",
    "p_higher_with_rerolled_ties",
]

#: The distribution of 2d6.
TWO_D6: PMF = dice_sum(2, 6)
#: The natural totals of 2d6.
NATURALS = range(2, 13)
#: Length of a table indexed by the natural total (indices 0 and 1 unused).
TABLE_SLOTS = 13


def p_at_least(target: int, dm: int = 0) -> float:
    """``P(2d6 + dm >= target)`` of a plain roll (no natural 2 or 12 rule)."""
    return TWO_D6.p_at_least(target - dm)


#: An extra-hit step no margin reaches: one hit a roll (melee, STR-9).
ONE_HIT = 1 << 40


def hits_scored(natural: int, total: int, target: int, step: int, cap: int, miss_max: int, hit_min: int) -> int:
    """Hits of one 2d6 roll, the one definition of STR-2.1 and STR-3.1 (plain; compiled below).

    A natural total at or below ``miss_max`` always misses (STR-2.1, default 2); otherwise the
    roll hits when ``total = natural + DMs >= target``, or when the natural total is at least
    ``hit_min`` (default 12), and then scores ``1 + floor((total - target) / step)`` hits, at
    least 1 and at most ``cap`` (the rounds fired, STR-3.1).

    Args:
        natural: The natural 2d6 total.
        total: The natural total plus every DM.
        target: The target number (``hit_target``).
        step: Margin per extra hit (``extra_hit_step``; :data:`ONE_HIT` for one hit a roll).
        cap: Most hits (rounds fired).
        miss_max: ``natural_miss_max``: naturals at or below always miss (1: none).
        hit_min: ``natural_hit_min``: naturals at or above always hit (13: none).
    """
    if natural <= miss_max or (total < target and natural < hit_min):
        return 0
    return max(1, min(1 + (total - target) // step, cap))


def hits_by_natural(
    dm: int, target: int, step: int | None, cap: int, *, miss_max: int = 2, hit_min: int = 12
) -> npt.NDArray[np.int64]:
    """Hits scored for each natural 2d6 total (STR-2.1, STR-3.1), by :func:`hits_scored`.

    Args:
        dm: Sum of the roll's DMs.
        target: The target number.
        step: Margin per extra hit, or None for no extra hits.
        cap: Most hits (rounds fired).
        miss_max: Naturals at or below always miss.
        hit_min: Naturals at or above always hit.
    """
    hits = np.zeros(TABLE_SLOTS, np.int64)
    for natural in NATURALS:
        hits[natural] = hits_scored(natural, natural + dm, target, ONE_HIT if step is None else step, cap,
                                    miss_max, hit_min)  # fmt: skip
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
