"""95 % confidence intervals for sampled figures.

Probabilities use the Wilson score interval (well behaved near 0 and 1); means use the
normal interval with the sample variance. Both take int64 tallies, never floats summed
over trials, so they are exact functions of the counts.
"""

from __future__ import annotations

import math

__all__ = ["Z95", "wilson", "normal_mean"]

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
