"""Outputs of one HiTech TFT attack (TFT-10), from a joint hits x damage distribution.

The exact engine produces that distribution as probabilities, the samplers as counts; both
turn it into the same metrics here, so the two can only differ by sampling noise.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["METRICS", "EXTRA_METRICS", "BLAST_DISTANCES", "Outcome", "joint_metrics", "metric_names"]

#: Metrics of every attack (TFT-10): name → one-line description.
METRICS = {
    "p_hit": "probability of at least one hit",
    "mean_hits": "expected hits",
    "mean_damage": "expected damage taken",
    "p_stagger": "probability of -2 DX next turn (knockdown damage >= stagger_threshold)",
    "p_knockdown": "probability of falling down (knockdown damage >= knockdown_threshold)",
    "p_incapacitated": "probability that damage >= ST - 1",
    "p_killed": "probability that damage >= ST",
    "p_weapon_lost": "probability of dropping or breaking the weapon (17, 18)",
}
SPLASH_METRIC = "mean_splash_damage"
#: Distances from a blast whose figures are reported (TFT-7).
BLAST_DISTANCES = range(4)
#: Metrics of some attacks only: HE splash (TFT-4.5) and blast distances (TFT-7).
EXTRA_METRICS = {
    SPLASH_METRIC: "expected splash damage to a figure adjacent to the target (HE, TFT-4.5)",
    **{f"dice_at_{k}": f"damage dice of a figure {k} hexes from the blast (TFT-7)" for k in BLAST_DISTANCES},
    **{f"mean_damage_at_{k}": f"expected damage of a figure {k} hexes from the blast (TFT-7)" for k in BLAST_DISTANCES},
}


def metric_names(*, he: bool, blast: bool) -> list[str]:
    """Metric names of an attack, in report order."""
    names = list(METRICS)
    if he:
        names.append(SPLASH_METRIC)
    if blast:
        names += [f"dice_at_{k}" for k in BLAST_DISTANCES]
        names += [f"mean_damage_at_{k}" for k in BLAST_DISTANCES]
    return names


@dataclass(frozen=True, eq=False)
class Outcome:
    """Sufficient description of an attack's outcomes.

    Attributes:
        joint: ``joint[h, d]``: probability (or count) of ``h`` hits and damage ``d``.
        p_stagger: Probability (or count) of staggering.
        p_knockdown: Probability (or count) of a knockdown.
        p_weapon_lost: Probability (or count) of losing the weapon.
        extras: Further metrics (splash, blast distances) by name.
    """

    joint: npt.NDArray[np.float64]
    p_stagger: float
    p_knockdown: float
    p_weapon_lost: float
    extras: dict[str, float]


def joint_metrics(joint: npt.NDArray[np.float64], st: int) -> tuple[dict[str, float], dict[str, dict[int, float]]]:
    """Metrics and distributions that follow from the hits x damage distribution.

    Args:
        joint: ``joint[h, d]`` probabilities summing to 1.
        st: Target's ST (TFT-6.1).

    Returns:
        ``(metrics, distributions)`` with ``p_hit``, ``mean_hits``, ``mean_damage``,
        ``p_incapacitated``, ``p_killed`` and the ``hits`` and ``damage`` distributions.
    """
    hits = joint.sum(axis=1)
    damage = joint.sum(axis=0)
    hit_values = np.arange(len(hits))
    damage_values = np.arange(len(damage))
    metrics = {
        "p_hit": float(hits[1:].sum()),
        "mean_hits": float(np.dot(hit_values, hits)),
        "mean_damage": float(np.dot(damage_values, damage)),
        "p_incapacitated": float(damage[max(0, st - 1) :].sum()),
        "p_killed": float(damage[st:].sum()),
    }
    distributions = {
        "hits": {int(v): float(p) for v, p in zip(hit_values, hits, strict=True) if p > 0},
        "damage": {int(v): float(p) for v, p in zip(damage_values, damage, strict=True) if p > 0},
    }
    return metrics, distributions
