"""What ``simlab run``, ``baseline`` and ``regress`` do for one experiment, as worker tasks.

Each function is the work of :func:`simlab.workflow.jobs.run_tasks` for one
:class:`~simlab.workflow.jobs.Task`: it loads the experiment from its file (checked by the
parent already), runs it and writes, keeps or returns what the command needs. They live at
module level so that worker processes can import them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pandas as pd

from simlab.asking.variants import load_variant
from simlab.inputs.limits import Limits
from simlab.records import Experiment, ExperimentRun
from simlab.workflow.experiments import load_experiment
from simlab.workflow.jobs import Task
from simlab.workflow.runner import run_experiment, work_units

__all__ = ["Options", "Written", "run_and_write", "run_and_keep", "run_for_regress", "task_of", "warm_up"]


@dataclass(frozen=True)
class Options:
    """What every task of a job shares.

    Attributes:
        limits: The limits the experiments were checked against.
        threads: Sampling threads (None: every CPU).
        out: Results root (``run``) or baselines directory (``baseline``).
        variant: A variant file whose rules replace the base rules (``regress --variant``).
        svg: Charts as SVG too (``run --svg``).
        dpi: Dots per inch of the PNG charts (``run --dpi``; 300 for print; None: 110).
        size: Every chart's width and height in inches (``run --size``; None: each its own).
    """

    limits: Limits
    threads: int | None = None
    out: Path | None = None
    variant: Path | None = None
    svg: bool = False
    dpi: int | None = None
    size: tuple[float, float] | None = None


@dataclass(frozen=True)
class Written:
    """What a task wrote: its rows and where."""

    rows: int
    destination: Path


def task_of(experiment: Experiment, previous: Path | None = None) -> Task:
    """The task of one experiment, weighed by the time of its last run in ``previous`` if there is one."""
    units = work_units(experiment)
    weight = units / 1000  # about a millisecond a unit, when nothing better is known
    if previous is not None:
        try:
            recorded = json.loads((previous / experiment.name / "provenance.json").read_text(encoding="utf-8"))
            weight = float(recorded["seconds"])
        except (OSError, ValueError, KeyError, TypeError):
            pass
    return Task(experiment.name, experiment.path, units, experiment.n_cells, weight)


def warm_up() -> None:
    """What a worker does once when it starts, while the parent still checks the experiments.

    Every task would pay for these on its first use in the process: the systems and the
    writers imported, numba's first kernel (its compiler's start-up, about half a second),
    matplotlib's fonts, the report templates and the package versions of provenance.
    """
    import io

    import numpy as np
    from matplotlib.figure import Figure

    from simlab.engine.rng import raw_draws
    from simlab.output import publish  # noqa: F401 - imported for its import time
    from simlab.output.provenance import package_versions
    from simlab.output.rendering import environment
    from simlab.systems import all_systems

    all_systems()
    raw_draws(np.uint64(1), np.uint64(1), 1)
    figure = Figure(figsize=(1, 1), dpi=20)
    figure.add_subplot().set_title("simlab")
    figure.savefig(io.BytesIO(), format="png")
    environment().get_template("report.html.j2")
    package_versions()


def _load(task: Task, options: Options) -> Experiment:
    """The task's experiment, as the parent checked it (its cells are not checked again)."""
    return load_experiment(task.path, options.limits, check_cells=False)


def _run(task: Task, options: Options, progress: Callable[[int], None]) -> ExperimentRun:
    experiment = _load(task, options)
    return run_experiment(experiment, threads=options.threads, progress=progress)


def run_and_write(task: Task, options: Options, progress: Callable[[int], None]) -> Written:
    """``simlab run``: the experiment's results directory, ``OUT/<name>/``."""
    from simlab.output.provenance import experiment_provenance
    from simlab.output.publish import write_results

    assert options.out is not None
    run = _run(task, options, progress)
    sampled = run.table["trials"].dropna()
    most = int(sampled.max()) if len(sampled) else 0
    provenance = experiment_provenance(run.experiment, seconds=run.seconds, trials_used=most, rows=len(run.table))
    own: dict[str, Any] = {}
    if run.experiment.balance is not None:  # an analysis: its own answer and charts
        from simlab.analyses.report import build_balance_report, draw_balance_charts

        own = {"drawer": draw_balance_charts, "builder": build_balance_report}
    written = write_results(run, options.out, provenance, options.svg, options.dpi, options.size, **own)
    return Written(len(run.table), written)


def run_and_keep(task: Task, options: Options, progress: Callable[[int], None]) -> Written:
    """``simlab baseline``: the experiment's table and provenance as its baseline."""
    from simlab.workflow.regress import write_baseline

    assert options.out is not None
    run = _run(task, options, progress)
    return Written(len(run.table), write_baseline(run, options.out))


def run_for_regress(task: Task, options: Options, progress: Callable[[int], None]) -> pd.DataFrame:
    """``simlab regress``: the experiment's table now (under ``options.variant``'s rules if given)."""
    experiment = _load(task, options)
    if options.variant is None:
        return run_experiment(experiment, threads=options.threads, progress=progress).table
    variant = load_variant(options.variant, experiment.system)
    bare = replace(experiment, variants=())
    return run_experiment(bare, threads=options.threads, progress=progress, base_variant=variant).table
