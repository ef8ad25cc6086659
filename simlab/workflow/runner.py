"""Running an experiment: every grid cell by every method, into tidy pandas tables.

The tables are *tidy* (one row per cell, method and metric), so reports and charts select
and pivot them with plain pandas. Cell ``i`` of the grid samples the random stream
``(seed, i)``; a run is therefore reproducible to the bit for any thread count.
"""

from __future__ import annotations

import contextvars
import itertools
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pandas as pd

from simlab.asking.variants import Variant
from simlab.engine.bounds import MAX_TRIALS_PER_CELL
from simlab.engine.cluster import current_client
from simlab.engine.results import Answer
from simlab.inputs.errors import SimlabError
from simlab.inputs.tables import Tables
from simlab.records import Experiment, ExperimentRun
from simlab.systems import System, get_system
from simlab.workflow.balance_asks import balance_values
from simlab.workflow.balance_runs import run_balance
from simlab.workflow.experiment_asks import ATTACKS
from simlab.workflow.experiments import answer, cell_request

__all__ = ["run_experiment", "work_units", "incapacitation_curve", "ATTACKS"]

#: Most trials a cell may grow to while meeting ``precision``.
PRECISION_TRIAL_CAP = 1 << 32


def work_units(experiment: Experiment) -> int:
    """Units of progress of a run: one per cell, method and rule set (a balance run: per value or point asked)."""
    units = experiment.n_cells * len(experiment.methods) * (1 + len(experiment.variants))
    if experiment.balance is not None:
        units *= balance_values(experiment)
    return units


def _half_width(result: Answer) -> float:
    return max(((high - low) / 2 for low, high in result.ci95.values()), default=0.0)


#: The metrics of a cell under each of its system's marginal changes (``+1 DX``...).
Marginals = dict[str, dict[str, float]]


def _exact_cell(
    system: System, kind: str, inputs: dict[str, Any], variant: Variant | None, rules: Mapping[str, Any], tables: Tables
) -> tuple[Answer, Marginals]:
    """A cell's exact answer and its metrics under each of the system's marginal changes."""
    asked = system.questions[kind]
    request = cell_request(system, asked, inputs, variant, rules=rules, tables=tables, method="exact")
    result = asked.answer(request)
    changed: Marginals = {}
    for change, apply in asked.marginals.items():
        try:
            changed[change] = asked.answer(apply(request)).metrics
        except SimlabError:
            continue  # the change leaves the rules (a DX beyond the tables...): no marginal value
    return result, changed


def _answers(
    system: System,
    experiment: Experiment,
    cells: list[tuple[int, dict[str, Any], Variant | None]],
    threads: int | None,
    progress: Callable[[int], None] | None,
) -> list[tuple[dict[str, Answer], Marginals]]:
    """Every cell's answer by each method (and its exact marginal metrics), in the order of ``cells``.

    Here, one cell after another. On a Dask cluster (simlab.engine.cluster) the exact cells
    go to the workers in chunks and the sampled ones are asked side by side, so that the
    blocks of several cells keep every worker busy; the answers are the same either way,
    each a pure function of its cell.
    """
    client = current_client()
    exact: dict[int, tuple[Answer, Marginals]] = {}
    if client is not None and "exact" in experiment.methods and len(cells) > 1:
        exact = dict(enumerate(_exact_on_cluster(client, experiment, cells)))

    def one(
        index: int, cell: int, inputs: dict[str, Any], variant: Variant | None
    ) -> tuple[dict[str, Answer], Marginals]:
        results: dict[str, Answer] = {}
        marginals: Marginals = {}
        for method in experiment.methods:
            if method == "exact":
                found = exact.get(index)
                results[method], marginals = found or _exact_cell(
                    system, experiment.kind, inputs, variant, experiment.rules, experiment.tables
                )
            else:
                results[method] = _sampled(system, experiment, inputs, cell, variant, threads)
            if progress is not None:
                progress(1)
        return results, marginals

    if client is None or len(cells) < 2:
        return [one(index, *cell) for index, cell in enumerate(cells)]
    side_by_side = min(len(cells), 2 * max(1, len(client.scheduler_info()["workers"])))
    with ThreadPoolExecutor(max_workers=side_by_side) as pool:  # each thread keeps this context: the client
        futures = []
        for index, (cell, inputs, variant) in enumerate(cells):
            context = contextvars.copy_context()
            futures.append(pool.submit(context.run, lambda n=index, c=cell, i=inputs, v=variant: one(n, c, i, v)))
        return [future.result() for future in futures]


#: Exact cells one task of a cluster computes: each takes a millisecond or less, so they
#: travel in dozens, not one by one (a task's round trip costs a few milliseconds).
EXACT_CELLS_PER_TASK = 48


def _exact_chunk(
    system_name: str,
    kind: str,
    cells: list[tuple[dict[str, Any], Variant | None]],
    rules: Mapping[str, Any],
    tables: Tables,
) -> list[tuple[Answer, Marginals]]:
    """A task of a cluster: the exact answers of a few cells (the system is looked up on the worker)."""
    system = get_system(system_name)
    return [_exact_cell(system, kind, inputs, variant, rules, tables) for inputs, variant in cells]


def _exact_on_cluster(
    client: Any, experiment: Experiment, cells: list[tuple[int, dict[str, Any], Variant | None]]
) -> list[tuple[Answer, Marginals]]:
    """The exact answers (and marginals) of every cell, computed by the cluster's workers in chunks, in order."""
    pairs = [(inputs, variant) for _, inputs, variant in cells]
    chunks = [pairs[i : i + EXACT_CELLS_PER_TASK] for i in range(0, len(pairs), EXACT_CELLS_PER_TASK)]
    futures = [
        client.submit(
            _exact_chunk,
            experiment.system,
            experiment.kind,
            chunk,
            dict(experiment.rules),
            dict(experiment.tables),
            pure=False,
        )
        for chunk in chunks
    ]
    return [result for part in client.gather(futures) for result in part]


def _sampled(
    system: System,
    experiment: Experiment,
    inputs: dict[str, Any],
    cell: int,
    variant: Variant | None,
    threads: int | None,
) -> Answer:
    trials = experiment.trials
    while True:
        result: Answer = answer(
            system,
            experiment.kind,
            inputs,
            variant,
            experiment.battle,
            rules=experiment.rules,
            tables=experiment.tables,
            method="monte_carlo",
            trials=trials,
            seed=experiment.seed,
            cell=cell,
            threads=threads,
        )
        width = _half_width(result)
        if experiment.precision is None or width <= experiment.precision or trials >= PRECISION_TRIAL_CAP:
            return result
        # Half-widths shrink as 1/sqrt(trials): aim 10 % past the estimate, at least double.
        needed = int(trials * (width / experiment.precision) ** 2 * 1.1) + 1
        trials = min(max(needed, 2 * trials), PRECISION_TRIAL_CAP, MAX_TRIALS_PER_CELL)


def incapacitation_curve(damage: dict[int, float], threshold: int, attacks: int = ATTACKS) -> list[float]:
    """Chance that the damage of ``n`` independent attacks reaches ``threshold``, n = 1..attacks.

    Args:
        damage: Damage of one attack → probability.
        threshold: Total damage that incapacitates.
        attacks: Largest number of attacks.
    """
    if threshold <= 0:
        return [1.0] * attacks
    one = np.zeros(threshold + 1)
    for value, p in damage.items():
        one[min(max(int(value), 0), threshold)] += p
    state = np.zeros(threshold + 1)
    state[0] = 1.0
    curve = []
    for _ in range(attacks):
        grown = np.convolve(state[:threshold], one)
        nxt = grown[: threshold + 1].copy()
        nxt[threshold] += grown[threshold + 1 :].sum() + state[threshold]
        state = nxt
        curve.append(float(min(state[threshold], 1.0)))
    return curve


def run_experiment(
    experiment: Experiment,
    *,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    base_variant: Variant | None = None,
) -> ExperimentRun:
    """Compute every cell of ``experiment`` by each of its methods.

    Args:
        experiment: A validated experiment.
        threads: Worker threads for sampling (None: all CPUs).
        progress: Called with 1 after each cell and method.
        base_variant: A variant that takes the place of the base rules (rows still say
            ``base``; ``simlab regress --variant`` compares them with a baseline).

    Returns:
        The run's tidy tables.
    """
    if experiment.balance is not None:
        return run_balance(experiment, threads=threads, progress=progress, base_variant=base_variant)
    started = time.perf_counter()
    system = experiment.owner
    inputs_columns = list(experiment.inputs)
    rows: list[dict[str, Any]] = []
    dist_rows: list[dict[str, Any]] = []
    curve_rows: list[dict[str, Any]] = []
    marginal_rows: list[dict[str, Any]] = []
    jobs = list(itertools.product(experiment.rule_sets(base_variant), experiment.kept_cells()))
    cells = [(cell, inputs, variant) for (_, variant), (cell, inputs) in jobs]
    answers = _answers(system, experiment, cells, threads, progress)
    for ((variant_name, _), (cell, inputs)), (results, changed) in zip(jobs, answers, strict=True):
        labels = {"cell": cell, "variant": variant_name, **{k: inputs[k] for k in inputs_columns}}
        for method, result in results.items():
            for metric, value in result.metrics.items():
                if not experiment.keeps(metric):
                    continue
                low, high = result.ci95.get(metric, (np.nan, np.nan))
                rows.append(
                    {
                        **labels,
                        "method": method,
                        "metric": metric,
                        "value": value,
                        "ci_low": low,
                        "ci_high": high,
                        "trials": result.trials,
                    }
                )
            for name, dist in result.distributions.items():
                for outcome, p in sorted(dist.items()):
                    dist_rows.append(
                        {**labels, "method": method, "distribution": name, "outcome": outcome, "probability": p}
                    )
        best = results.get("exact") or results["monte_carlo"]
        threshold = best.details.get("incapacitated_at")  # damage that incapacitates, if the system has one
        if threshold is not None and "damage" in best.distributions:
            for n, p in enumerate(incapacitation_curve(best.distributions["damage"], int(threshold)), start=1):
                curve_rows.append({**labels, "method": best.method, "attacks": n, "p_incapacitated": p})
        if "exact" in results:
            base = results["exact"].metrics
            marginal_rows += [
                {**labels, "change": change, "metric": metric, "delta": metrics[metric] - value}
                for change, metrics in changed.items()
                for metric, value in base.items()
                if experiment.keeps(metric)
            ]
    keys = ["cell", "variant", *inputs_columns]
    table = pd.DataFrame(rows, columns=[*keys, "method", "metric", "value", "ci_low", "ci_high", "trials"])
    table["trials"] = table["trials"].astype("Int64")
    return ExperimentRun(
        experiment=experiment,
        table=table,
        distributions=pd.DataFrame(dist_rows, columns=[*keys, "method", "distribution", "outcome", "probability"]),
        incapacitation=pd.DataFrame(curve_rows, columns=[*keys, "method", "attacks", "p_incapacitated"]),
        marginals=pd.DataFrame(marginal_rows, columns=[*keys, "change", "metric", "delta"]),
        seconds=time.perf_counter() - started,
    )
