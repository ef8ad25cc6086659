"""Paired comparisons of house-rule variants against the base rules, cell by cell.

Exact metrics give exact differences. Sampled metrics use **common random numbers**: base
and variant sample the same trials of the same streams (trial ``t`` of cell ``i`` draws the
same numbers under both rules), so whatever the rules do not change cancels out of the
difference. The trials are split into ``batches`` equal batches; the difference of each
batch is one observation, and the interval of the mean difference is a Student-t interval
over the batches. For reference each sampled row also carries the half-width that two
independent runs of the same size would give (``independent_half_width``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from simlab.asking.variants import Variant
from simlab.engine.paired import batch_metrics, paired_differences
from simlab.inputs.errors import SimlabError
from simlab.records import Comparison, Experiment
from simlab.systems import System, question_of
from simlab.workflow.experiments import answer, cell_request
from simlab.workflow.side_by_side import BATCHES

__all__ = ["compare_experiment", "DEFAULT_BATCHES", "comparison_units"]

#: Batches the trials of a sampled cell are split into.
DEFAULT_BATCHES = BATCHES
#: Most batches a comparison splits its trials into (each batch is a pass over every cell).
MAX_BATCHES = 1000


def check_batches(batches: int) -> None:
    """Refuse a number of batches outside 2 to :data:`MAX_BATCHES`.

    Raises:
        SimlabError: Naming ``--batches`` and the valid range.
    """
    if not 2 <= batches <= MAX_BATCHES:
        raise SimlabError(f"invalid value {batches} for --batches: expected 2 to {MAX_BATCHES:,}")


def comparison_units(experiment: Experiment, variants: Sequence[Variant]) -> int:
    """Units of progress of a comparison: one per cell, method and variant."""
    return experiment.n_cells * len(experiment.methods) * len(variants)


def _sampled_batches(
    system: System,
    experiment: Experiment,
    inputs: dict[str, Any],
    cell: int,
    variant: Variant | None,
    batches: int,
    per_batch: int,
    threads: int | None,
) -> pd.DataFrame:
    """Metrics of each batch of trials: one row per batch, one column per metric."""
    asked = question_of(system, experiment.kind)
    request = cell_request(
        system, asked, inputs, variant, experiment.battle, experiment.rules, tables=experiment.tables,
        method="monte_carlo", trials=per_batch * batches, seed=experiment.seed, cell=cell, threads=threads,
    )  # fmt: skip
    return batch_metrics(asked, request, batches)


def compare_experiment(
    experiment: Experiment,
    variants: Sequence[Variant],
    *,
    batches: int = DEFAULT_BATCHES,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Comparison:
    """Compare each variant with the base rules on every cell of ``experiment``.

    Args:
        experiment: The experiment (its grid, methods, trials and seed).
        variants: The variants.
        batches: Batches of the sampled trials (2 to :data:`MAX_BATCHES`); ``trials`` is rounded up to a
            multiple of it.
        threads: Worker threads for sampling.
        progress: Called with 1 after each cell, method and variant.

    Raises:
        SimlabError: For bad batches, or a solve or sensitivity (its variants are listed in it instead).
    """
    check_batches(batches)
    if experiment.balance is not None:
        raise SimlabError(
            f"{experiment.path}: a {experiment.balance.kind} answers under every rule set it lists: "
            "add the variants to its variants = [...] and simlab run it"
        )
    started = time.perf_counter()
    system = experiment.owner
    inputs_columns = list(experiment.inputs)
    per_batch = -(-experiment.trials // batches)
    rows: list[dict[str, Any]] = []
    own: dict[str, Any] = {"rules": experiment.rules, "tables": experiment.tables}  # the experiment's own
    for cell, inputs in experiment.kept_cells():
        labels = {k: inputs[k] for k in inputs_columns}
        base_exact = None
        base_batches = None
        for variant in variants:
            head = {"cell": cell, "variant": variant.name, **labels}
            for method in experiment.methods:
                if method == "exact":
                    if base_exact is None:
                        base_exact = answer(system, experiment.kind, inputs, method="exact", **own).metrics
                    changed = answer(system, experiment.kind, inputs, variant, method="exact", **own).metrics
                    for metric, value in changed.items():
                        if experiment.metrics is None or metric in experiment.metrics:
                            rows.append(_row(head, method, metric, base_exact[metric], value, None, None, None))
                else:
                    if base_batches is None:
                        base_batches = _sampled_batches(
                            system, experiment, inputs, cell, None, batches, per_batch, threads
                        )
                    variant_batches = _sampled_batches(
                        system, experiment, inputs, cell, variant, batches, per_batch, threads
                    )
                    differences = paired_differences(base_batches, variant_batches)
                    for metric, (b, v, d, paired, independent) in differences.items():
                        if experiment.metrics is None or metric in experiment.metrics:
                            trials = per_batch * batches
                            rows.append(_row(head, method, metric, b, v, paired, independent, trials, d))
                if progress is not None:
                    progress(1)
    columns = [
        "cell",
        "variant",
        *inputs_columns,
        "method",
        "metric",
        "base",
        "value",
        "delta",
        "delta_ci_low",
        "delta_ci_high",
        "independent_half_width",
        "trials",
    ]
    table = pd.DataFrame(rows, columns=columns)
    table["trials"] = table["trials"].astype("Int64")
    return Comparison(experiment, tuple(variants), table, batches, time.perf_counter() - started)


def _row(
    head: dict[str, Any],
    method: str,
    metric: str,
    base: float,
    value: float,
    paired: float | None,
    independent: float | None,
    trials: int | None,
    delta: float | None = None,
) -> dict[str, Any]:
    delta = value - base if delta is None else delta
    return {
        **head,
        "method": method,
        "metric": metric,
        "base": base,
        "value": value,
        "delta": delta,
        "delta_ci_low": np.nan if paired is None else delta - paired,
        "delta_ci_high": np.nan if paired is None else delta + paired,
        "independent_half_width": np.nan if independent is None else independent,
        "trials": trials,
    }
