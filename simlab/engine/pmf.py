"""Exact distributions of small integer random variables (docs/architecture.md, principle 1).

A :class:`PMF` is an immutable probability mass function on the integers
``offset, offset + 1, ..., offset + len(probs) - 1``. The algebra here (sums of
independent variables, n-fold sums, mixtures, maps) is all that the exact engines of
the rule systems need; everything is numpy arithmetic on float64 arrays.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import numpy.typing as npt

__all__ = ["PMF", "point", "die", "mixture", "dice_sum"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class PMF:
    """Probability mass function on consecutive integers.

    Attributes:
        offset: The smallest value of the support.
        probs: ``probs[i]`` is the probability of ``offset + i``.
    """

    offset: int
    probs: FloatArray = field(repr=False)

    def __post_init__(self) -> None:
        """Freeze the array so that a PMF is a value."""
        probs = np.array(self.probs, dtype=np.float64)
        probs.setflags(write=False)
        object.__setattr__(self, "probs", probs)
        object.__setattr__(self, "offset", int(self.offset))

    @property
    def values(self) -> IntArray:
        """The support as an int64 array."""
        return np.arange(self.offset, self.offset + len(self.probs), dtype=np.int64)

    @property
    def max_value(self) -> int:
        """The largest value of the support."""
        return self.offset + len(self.probs) - 1

    def total(self) -> float:
        """Sum of the probabilities (1 for a distribution)."""
        return float(self.probs.sum())

    def mean(self) -> float:
        """Expected value."""
        return float(np.dot(self.values, self.probs))

    def variance(self) -> float:
        """Variance."""
        centred = self.values - self.mean()
        return float(np.dot(centred * centred, self.probs))

    def p_at_least(self, threshold: int) -> float:
        """``P(X >= threshold)`` (remembered per threshold: shared PMFs are asked again and again)."""
        tails: dict[int, float] = self.__dict__.setdefault("_tails", {})
        found = tails.get(threshold)
        if found is None:
            start = max(0, threshold - self.offset)
            found = tails[threshold] = float(self.probs[start:].sum())
        return found

    def p_equal(self, value: int) -> float:
        """``P(X == value)``."""
        index = value - self.offset
        return float(self.probs[index]) if 0 <= index < len(self.probs) else 0.0

    def __add__(self, other: PMF | int) -> PMF:
        """Distribution of the sum of two independent variables (or a shift by a constant)."""
        if isinstance(other, int):
            return PMF(self.offset + other, self.probs)
        return PMF(self.offset + other.offset, np.convolve(self.probs, other.probs))

    def times(self, n: int) -> PMF:
        """Distribution of the sum of ``n`` independent copies (``n @ die`` in dice notation)."""
        if n < 0:
            raise ValueError("n must be non-negative")
        result = point(0)
        power = self
        while n:
            if n & 1:
                result = result + power
            n >>= 1
            if n:
                power = power + power
        return result

    def map(self, fn: Callable[[IntArray], IntArray]) -> PMF:
        """Distribution of ``fn(X)`` for a vectorised integer function ``fn``."""
        mapped = np.asarray(fn(self.values), dtype=np.int64)
        low = int(mapped.min())
        probs = np.bincount(mapped - low, weights=self.probs).astype(np.float64)
        return PMF(low, probs)

    def clamp_low(self, low: int) -> PMF:
        """Distribution of ``max(X, low)``."""
        return self.map(lambda v: np.maximum(v, low))

    def scale(self, factor: int) -> PMF:
        """Distribution of ``factor * X``."""
        return self.map(lambda v: v * factor)

    def to_dict(self, tol: float = 0.0) -> dict[int, float]:
        """Outcome → probability, omitting outcomes with probability ``<= tol``."""
        return {int(v): float(p) for v, p in zip(self.values, self.probs, strict=True) if p > tol}


def point(value: int) -> PMF:
    """The distribution that is ``value`` with certainty."""
    return PMF(value, np.ones(1))


@lru_cache(maxsize=256)
def die(sides: int) -> PMF:
    """A fair die with faces ``1..sides``."""
    return PMF(1, np.full(sides, 1.0 / sides))


@lru_cache(maxsize=1024)
def dice_sum(count: int, sides: int) -> PMF:
    """The sum of ``count`` fair dice (``3d6`` is ``dice_sum(3, 6)``)."""
    return die(sides).times(count)


def mixture(weights: Sequence[float], pmfs: Sequence[PMF]) -> PMF:
    """The mixture ``sum(w_i * pmf_i)``; weights need not sum to 1 (sub-distributions)."""
    if len(weights) != len(pmfs) or not pmfs:
        raise ValueError("mixture needs one weight per pmf")
    low = min(p.offset for p in pmfs)
    high = max(p.max_value for p in pmfs)
    probs = np.zeros(high - low + 1)
    for weight, pmf in zip(weights, pmfs, strict=True):
        if weight:
            start = pmf.offset - low
            probs[start : start + len(pmf.probs)] += weight * pmf.probs
    return PMF(low, probs)
