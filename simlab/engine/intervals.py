"""95 % confidence intervals for sampled figures.

Probabilities use the Wilson score interval (well behaved near 0 and 1); means use the
normal interval with the sample variance. Both take int64 tallies, never floats summed
over trials, so they are exact functions of the counts.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

__all__ = ["Z95", "wilson", "normal_mean", "mean_interval", "Estimates"]

#: The two-sided 95 % normal quantile.
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion.

    Args:
        successes: Number of trials with the event.
        trials: Number of trials (> 0).
        z: Normal quantile of the interval.

    Returns:
        ``(low, high)``, clipped to ``[0, 1]``.
    """
    if trials <= 0:
        raise ValueError("trials must be positive")
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def normal_mean(total: float, total_sq: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Normal interval for a mean from the sum and the sum of squares of the samples.

    Args:
        total: Sum of the sampled values.
        total_sq: Sum of their squares.
        trials: Number of samples (> 1).
        z: Normal quantile of the interval.
    """
    if trials <= 1:
        raise ValueError("trials must be greater than 1")
    mean = total / trials
    variance = max(0.0, (total_sq - trials * mean * mean) / (trials - 1))
    half = z * math.sqrt(variance / trials)
    return mean - half, mean + half


def mean_interval(total: int, total_sq: int, trials: int) -> tuple[float, float]:
    """Normal 95 % interval of a mean from int64 sums (a point for a single trial)."""
    if trials < 2:
        return total / trials, total / trials
    return normal_mean(float(total), float(total_sq), trials)


class Estimates:
    """Metrics and their 95 % intervals, gathered from int64 tallies of ``trials`` trials.

    Attributes:
        trials: Trials behind every estimate.
        metrics: Metric → estimate.
        ci95: Metric → (low, high).
        distributions: Name → outcome → probability.
    """

    def __init__(self, trials: int) -> None:
        self.trials = trials
        self.metrics: dict[str, float] = {}
        self.ci95: dict[str, tuple[float, float]] = {}
        self.distributions: dict[str, dict[int, float]] = {}

    def probabilities(self, counts: Any, indices: Mapping[str, int]) -> None:
        """Proportions of several counts: metric name → index in ``counts``."""
        for name, index in indices.items():
            self.probability(name, counts[index])

    def histogram_mean(self, name: str, counts: Any) -> None:
        """The mean of a histogram of ``trials`` values (index → count), with its normal interval."""
        values = np.arange(len(counts), dtype=np.int64)
        self.mean(name, int(values @ counts), int((values * values) @ counts))

    def histogram(self, name: str, counts: Any) -> None:
        """A distribution from a histogram of ``trials`` values (index → count); empty bins left out."""
        self.distributions[name] = {int(i): int(n) / self.trials for i, n in enumerate(counts) if n}

    def probability(self, name: str, count: int) -> None:
        """A proportion ``count / trials`` with its Wilson interval."""
        self.metrics[name] = int(count) / self.trials
        self.ci95[name] = wilson(int(count), self.trials)

    def mean(self, name: str, total: int, total_sq: int) -> None:
        """A mean from the sum and the sum of squares of a per-trial value, with its normal interval."""
        self.metrics[name] = int(total) / self.trials
        self.ci95[name] = mean_interval(int(total), int(total_sq), self.trials)
