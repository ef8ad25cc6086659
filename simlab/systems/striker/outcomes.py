"""Outputs of one Striker attack (STR-12, STR-3.3, STR-7, STR-11.1) from its outcome.

The exact engine gives the joint distribution of hits and worst result as probabilities,
the sampler as counts; both become the same metrics here.
"""

from __future__ import annotations

import numpy as np

from simlab.systems.striker.exact import StrikerOutcome
from simlab.systems.striker.resolve import CATEGORIES, NOT_DEAD_YET, UNCONSCIOUS

__all__ = ["METRICS", "EXTRA_METRICS", "metrics_of", "INCAPACITATED"]

#: Metrics of every attack: name → description.
METRICS = {
    "p_hit": "probability of at least one hit (suppressive fire: one suppressive hit)",
    "mean_hits": "expected hits",
    **{
        f"p_{c}": f"probability that the worst result of the attack is {c.replace('_', ' ')} (STR-6.4)"
        for c in CATEGORIES
    },
    "p_incapacitated": "probability of unconscious, not dead yet or killed",
    "p_dies_later": "probability of surviving the attack but dying of its wounds (STR-7)",
    "p_survives": "probability of surviving the attack and its aftermath (STR-7)",
    "p_initiative": "probability that the firer's side wins initiative (STR-11.1)",
}
#: Metrics of suppressive fire only (STR-3.3).
EXTRA_METRICS = {
    "p_suppressed": "probability that the target is suppressed (STR-3.3)",
    "mean_suppression": "expected penalty on the target's next shot (STR-3.3)",
}
#: Worst categories that count as incapacitated.
INCAPACITATED = (UNCONSCIOUS, NOT_DEAD_YET, CATEGORIES.index("killed"))


def metrics_of(outcome: StrikerOutcome, suppressive: bool) -> tuple[dict[str, float], dict[str, dict[int, float]]]:
    """Metrics (in report order) and the ``hits`` and ``outcome`` distributions."""
    joint = outcome.joint
    hits = joint.sum(axis=1)
    worst = joint.sum(axis=0)
    metrics = {
        "p_hit": float(hits[1:].sum()),
        "mean_hits": float(np.dot(np.arange(len(hits)), hits)),
        **{f"p_{c}": float(worst[i]) for i, c in enumerate(CATEGORIES)},
        "p_incapacitated": float(worst[list(INCAPACITATED)].sum()),
        "p_dies_later": outcome.dies_later,
        "p_survives": float(1.0 - worst[CATEGORIES.index("killed")] - outcome.dies_later),
        "p_initiative": outcome.p_initiative,
    }
    if suppressive:
        metrics["p_suppressed"] = metrics["p_hit"]
        metrics["mean_suppression"] = outcome.suppression
    distributions = {
        "hits": {h: float(p) for h, p in enumerate(hits) if p > 0},
        "outcome": {i: float(p) for i, p in enumerate(worst)},
    }
    return metrics, distributions
