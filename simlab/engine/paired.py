"""Common random numbers compared batch by batch: the paired 95 % interval of a difference.

Two requests that differ only in their rules or inputs, sampled with the same seed and cell, draw
the same numbers trial by trial. Split into equal batches (batch ``k`` samples trials
``k * per_batch`` onwards), the difference of each batch is one observation, and the interval of
the mean difference is a Student-t interval over the batches: whatever the change does not touch
cancels out. ``simlab compare``, the options side by side of ``simlab attack`` and the equalities
of ``simlab solve`` all take their paired intervals from here.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["batch_metrics", "paired_differences"]


def batch_metrics(question: Any, request: Any, batches: int) -> pd.DataFrame:
    """The metrics of each of ``batches`` equal batches of a sampled request's trials, one row per batch.

    Batch ``k`` samples trials ``k * per_batch`` onwards of the request's stream, so two requests that
    differ only in their rules or inputs draw the same numbers batch by batch (common random numbers).
    """
    per_batch = -(-int(request.trials) // batches)
    rows = []
    for batch in range(batches):
        part = dataclasses.replace(request, trials=per_batch, first_trial=batch * per_batch, progress=None)
        rows.append(question.answer(part).metrics)
    return pd.DataFrame(rows)


def paired_differences(
    base: pd.DataFrame, changed: pd.DataFrame
) -> dict[str, tuple[float, float, float, float, float]]:
    """Per metric: (base mean, variant mean, delta, half-width paired, half-width independent).

    Args:
        base: The metrics of each batch of trials under the base (one row per batch).
        changed: The same batches (the same trials of the same streams) under the change.
    """
    n = len(base)
    from scipy import stats  # imported here: a run that compares nothing does not pay for it

    t = float(stats.t.ppf(0.975, n - 1))
    result = {}
    for metric in changed.columns:
        b = base[metric].to_numpy(dtype=float)
        v = changed[metric].to_numpy(dtype=float)
        d = v - b
        paired = t * float(np.std(d, ddof=1)) / math.sqrt(n)
        independent = t * math.sqrt((float(np.var(b, ddof=1)) + float(np.var(v, ddof=1))) / n)
        result[metric] = (float(b.mean()), float(v.mean()), float(d.mean()), paired, independent)
    return result
