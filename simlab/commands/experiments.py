"""``simlab run``, ``compare``, ``baseline`` and ``regress``: the jobs over experiment files."""

from __future__ import annotations

import dataclasses
import multiprocessing
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from simlab.commands.options import (
    COUNT,
    PATH,
    WHOLE,
    jobs_option,
    limit_options,
    load_experiments,
    progress_bar,
    scheduler_option,
)
from simlab.engine.bounds import check_threads
from simlab.inputs.errors import SimlabError
from simlab.inputs.limits import Limits

__all__ = ["run", "compare", "baseline", "regress", "each_experiment", "close_job"]


def _chart_size(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[float, float] | None:
    """``--size WxH``: a chart size in inches, or a one-line error naming what is valid."""
    from simlab.inputs.params import parse_size

    try:
        return None if value is None else parse_size(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


@click.command(short_help="Run experiments into results/<name>/ (the main job).")
@scheduler_option
@click.argument("experiment_files", nargs=-1, type=PATH, metavar="[EXPERIMENT.toml ...]")
@click.option(
    "--out", type=PATH, default=Path("results"), show_default=True, help="Results root."
)
@click.option("--threads", type=WHOLE, default=None, help="Worker threads for sampling [default: all CPUs].")
@click.option("--svg", is_flag=True, help="Write every chart as SVG too (for print), besides the PNG.")
@click.option(
    "--dpi", type=click.IntRange(50, 600), default=110, show_default=True,
    help="Dots per inch of the PNG charts (300 for print).",
)
@click.option(
    "--size", callback=_chart_size, metavar="WxH", default=None,
    help="Every chart's width and height in inches, for print (6.5x4) [default: each chart's own].",
)
@jobs_option
@limit_options
def run(
    experiment_files: tuple[Path, ...],
    out: Path,
    threads: int | None,
    svg: bool,
    dpi: int,
    size: tuple[float, float] | None,
    jobs: int | None,
    max_cells: int,
    max_trials: int,
) -> None:
    """Run experiments (default: every experiments/*.toml) into OUT/<name>/."""
    from simlab.output.atomic import check_writable
    from simlab.workflow.jobs import seconds_text
    from simlab.workflow.tasks import Options, run_and_write

    limits, experiments = load_experiments(experiment_files, threads, max_cells, max_trials)
    check_writable(out)
    done, processes = each_experiment(
        "run",
        experiments,
        run_and_write,
        Options(limits, threads, out, svg=svg, dpi=dpi, size=size),
        jobs,
        lambda task, done: (
            f"{task.name}: {task.cells} cells, {done.result.rows} rows, {seconds_text(done.seconds)} -> "
            f"{done.result.destination}/"
        ),
        previous=out,
    )
    rows = sum(d.result.rows for d in done)
    close_job(f"{len(done)} experiment(s), {rows:,} rows", processes)


def each_experiment(
    verb: str,
    experiments: Sequence[Any],
    work: Callable[..., Any],
    options: Any,
    jobs: int | None,
    describe: Callable[[Any, Any], str | None],
    *,
    quiet_start: bool = False,
    previous: Path | None = None,
) -> tuple[list[Any], int]:
    """Do ``work`` for every experiment with one progress display: (results, processes used)."""
    from simlab.workflow.jobs import JobDisplay, default_processes, run_tasks
    from simlab.workflow.tasks import task_of

    if jobs is not None and not 1 <= jobs <= 256:
        raise SimlabError(f"invalid value {jobs} for --jobs: expected a whole number from 1 to 256")
    tasks = [task_of(experiment, previous) for experiment in experiments]
    processes = min(jobs, len(tasks)) if jobs is not None else default_processes(len(tasks))
    if processes > 1 and options.threads is None:
        # Each worker samples with its share of the CPUs: threads beyond the cores only wait
        # for each other at the end of every cell.
        options = dataclasses.replace(options, threads=max(1, multiprocessing.cpu_count() // processes))
    display = JobDisplay(verb, tasks, quiet_start=quiet_start)
    try:
        done = run_tasks(tasks, work, options, processes=max(processes, 1), display=display, describe=describe)
    finally:
        display.close()
    return done, max(processes, 1)


def close_job(what: str, processes: int) -> None:
    """The closing line of a job: what it did and its whole time, start-up included."""
    from simlab.workflow.jobs import seconds_text, since_start

    side = f", {processes} experiments at a time" if processes > 1 else ""
    click.echo(f"{what} in {seconds_text(since_start())}{side}")


@click.command(short_help="Variants against the base rules, cell by cell.")
@scheduler_option
@click.argument("experiment_file", type=PATH, metavar="EXPERIMENT.toml")
@click.option(
    "--variant", "variant_files", multiple=True, type=PATH, help="Variant (TOML); repeatable."
)
@click.option(
    "--out", type=PATH, default=Path("results"), show_default=True, help="Results root."
)
@click.option("--batches", type=WHOLE, default=None, help="Batches for the intervals of sampled differences [40].")
@click.option("--threads", type=WHOLE, default=None, help="Worker threads for sampling [default: all CPUs].")
@click.option("--svg", is_flag=True, help="Write every chart as SVG too (for print), besides the PNG.")
@limit_options
def compare(
    experiment_file: Path,
    variant_files: tuple[Path, ...],
    out: Path,
    batches: int | None,
    threads: int | None,
    svg: bool,
    max_cells: int,
    max_trials: int,
) -> None:
    """Compare variants with the base rules on every cell of an experiment → OUT/compare_<name>/."""
    from simlab.asking.variants import load_variant
    from simlab.output.atomic import check_writable
    from simlab.output.provenance import experiment_provenance
    from simlab.output.publish import write_comparison
    from simlab.workflow.compare import DEFAULT_BATCHES, check_batches, compare_experiment, comparison_units
    from simlab.workflow.experiments import load_experiment
    from simlab.workflow.jobs import seconds_text

    check_threads(threads)
    batches = DEFAULT_BATCHES if batches is None else batches
    check_batches(batches)
    limits = Limits(max_cells, max_trials)
    experiment = load_experiment(experiment_file, limits)
    variants = [load_variant(path, experiment.system) for path in variant_files] or list(experiment.variants)
    if not variants:
        raise SimlabError(f"nothing to compare: give --variant FILE (the experiment {experiment_file} lists none)")
    if len({v.name for v in variants}) != len(variants):
        raise SimlabError("two variants have the same name")
    limits.check_experiment(experiment.n_cells, 1 + len(variants), experiment.sampled_trials, str(experiment_file))
    check_writable(out)
    label = f"compare {experiment.name}"
    started = time.perf_counter()
    with progress_bar(comparison_units(experiment, variants), label) as progress:
        comparison = compare_experiment(experiment, variants, batches=batches, threads=threads, progress=progress)
    sampled = comparison.table["trials"].dropna()
    provenance = experiment_provenance(
        experiment,
        seconds=comparison.seconds,
        trials_used=int(sampled.max()) if len(sampled) else 0,
        rows=len(comparison.table),
    )
    provenance["variants"] = [v.describe() for v in variants]
    provenance["batches"] = batches
    destination = write_comparison(comparison, out, provenance, svg)
    changed = int((comparison.table["delta"].abs() > 1e-12).sum())
    click.echo(
        f"{experiment.name}: {len(variants)} variant(s), {changed} of {len(comparison.table)} rows changed, "
        f"{seconds_text(time.perf_counter() - started)} -> {destination}/"
    )


@click.command(short_help="Store experiments' results as their baselines.")
@scheduler_option
@click.argument("experiment_files", nargs=-1, type=PATH, metavar="[EXPERIMENT.toml ...]")
@click.option(
    "--dir", "directory", type=PATH, default=None, help="Baselines [results/baselines]."
)
@click.option("--threads", type=WHOLE, default=None, help="Worker threads for sampling [default: all CPUs].")
@jobs_option
@limit_options
def baseline(
    experiment_files: tuple[Path, ...],
    directory: Path | None,
    threads: int | None,
    jobs: int | None,
    max_cells: int,
    max_trials: int,
) -> None:
    """Store the current results of experiments as their baselines."""
    from simlab.output.atomic import check_writable
    from simlab.workflow.jobs import seconds_text
    from simlab.workflow.tasks import Options, run_and_keep

    limits, experiments = load_experiments(experiment_files, threads, max_cells, max_trials)
    check_writable(_baselines(directory))
    before = _baselines_now(experiments, _baselines(directory))
    done, processes = each_experiment(
        "baseline",
        experiments,
        run_and_keep,
        Options(limits, threads, _baselines(directory)),
        jobs,
        lambda task, done: (
            f"{task.name}: {done.result.rows} rows, {seconds_text(done.seconds)} -> {done.result.destination}"
        ),
        previous=_baselines(directory),
    )
    close_job(f"{len(done)} baseline(s)", processes)
    for line in _moved(experiments, before, _baselines(directory)):
        click.echo(line)


def _baselines_now(experiments: list[Any], directory: Path) -> dict[str, Any]:
    """Each experiment's baseline table before it is written again (an experiment without one left out)."""
    from simlab.inputs.errors import SimlabError
    from simlab.workflow.regress import load_baseline

    found = {}
    for experiment in experiments:
        try:
            found[experiment.name] = load_baseline(experiment, directory)[0]
        except SimlabError:
            continue
    return found


def _moved(experiments: list[Any], before: dict[str, Any], directory: Path) -> list[str]:
    """What the new baselines moved against those before them, for the commit message."""
    from simlab.inputs.errors import SimlabError
    from simlab.workflow.regress import compare_rows, judged, load_baseline
    from simlab.workflow.regress_formats import moved_summary

    rows, new, remade = {}, [], []
    for experiment in experiments:
        if experiment.name not in before:
            new.append(experiment.name)
            continue
        try:
            rows[experiment.name] = compare_rows(before[experiment.name], load_baseline(experiment, directory)[0])
        except SimlabError:
            remade.append(experiment.name)
    return moved_summary(judged(rows, []), new, remade)


@click.command(short_help="Check experiments against their baselines.")
@scheduler_option
@click.argument("experiment_files", nargs=-1, type=PATH, metavar="[EXPERIMENT.toml ...]")
@click.option("--variant", "variant_file", type=PATH, help="Check a variant's rules instead.")
@click.option("--margin", type=float, default=0.0, show_default=True, help="Practical margin of sampled metrics.")
@click.option(
    "--dir", "directory", type=PATH, default=None, help="Baselines [results/baselines]."
)
@click.option("--threads", type=WHOLE, default=None, help="Worker threads for sampling [default: all CPUs].")
@click.option("--limit", type=COUNT, default=40, show_default=True, help="Changed rows shown per experiment.")
@click.option("--all", "show_all", is_flag=True, help="Show every changed row.")
@click.option("--format", "said_as", type=click.Choice(["text", "markdown"]), default="text", show_default=True,
              help="markdown: a pull-request comment (moved rows by weight, before → after with intervals).")
@click.option("--junit", "junit_file", type=PATH, default=None, metavar="FILE.xml",
              help="Also write a JUnit file: a test case per experiment, a failure per experiment that moved.")
@click.option("--report", "report_dir", type=PATH, default=None, metavar="DIR",
              help="Also write DIR/index.html: every moved row, with each experiment's rows charted before and after.")
@jobs_option
@limit_options
def regress(
    experiment_files: tuple[Path, ...],
    variant_file: Path | None,
    margin: float,
    directory: Path | None,
    threads: int | None,
    limit: int,
    show_all: bool,
    said_as: str,
    junit_file: Path | None,
    report_dir: Path | None,
    jobs: int | None,
    max_cells: int,
    max_trials: int,
) -> None:
    """Compare experiments with their baselines: exit 0 if nothing changed, 1 if something did.

    Changes are listed by what matters: the chances first, each metric's rows together, the rows
    of most statistical weight first (|Δ| over its standard error; relative |Δ| for exact rows).
    """
    import pandas as pd

    from simlab.asking.variants import load_variant
    from simlab.workflow.regress import load_baseline
    from simlab.workflow.regress import regress as check
    from simlab.workflow.tasks import Options, run_for_regress

    limits, experiments = load_experiments(experiment_files, threads, max_cells, max_trials)
    variant = None
    if variant_file is not None:
        systems = {e.system for e in experiments}
        variant = load_variant(variant_file, systems.pop() if len(systems) == 1 else None)
        experiments = [e for e in experiments if e.system == variant.system]
    for experiment in experiments:  # a missing or broken baseline fails before anything runs
        load_baseline(experiment, _baselines(directory))
    done, _ = each_experiment(
        "regress",
        experiments,
        run_for_regress,
        Options(limits, threads, variant=variant_file if variant is not None else None),
        jobs,
        lambda task, done: None,
        quiet_start=not sys.stderr.isatty(),
        previous=_baselines(directory),
    )
    current = {e.name: d.result for e, d in zip(experiments, done, strict=True)}
    result = check(
        experiments, variant=variant, margin=margin, directory=_baselines(directory), threads=threads, current=current
    )
    if junit_file is not None:
        from simlab.output.atomic import staged_file
        from simlab.workflow.regress_formats import regress_junit

        with staged_file(junit_file) as staged:
            staged.write_text(regress_junit(result), encoding="utf-8")
    if report_dir is not None:
        from simlab.output.atomic import staged_file
        from simlab.workflow.regress_formats import regress_report

        with staged_file(report_dir / "index.html") as staged:
            staged.write_text(regress_report(result), encoding="utf-8")
    if said_as == "markdown":
        from simlab.workflow.regress_formats import regress_markdown

        said = regress_markdown(result, limit=len(max(result.rows.values(), key=len)) if show_all else limit)
        if report_dir is not None and result.changed:
            said += f"\nEvery moved row, charted before and after: [{report_dir}/index.html]({report_dir}/index.html)\n"
        click.echo(said, nl=False)
        sys.exit(1 if result.changed else 0)
    for note in result.notes:
        click.echo(f"note: {note}")
    changed = result.changed
    total = sum(len(rows) for rows in result.rows.values())
    if not changed:
        click.echo(f"no change: {total} rows of {len(result.rows)} experiment(s) match their baselines")
        return
    count = sum(len(rows) for rows in changed.values())
    click.echo(f"changed: {count} of {total} rows")
    with pd.option_context("display.width", 200, "display.max_columns", 30, "display.max_colwidth", 30):
        for name, rows in changed.items():
            click.echo(
                f"\n{name}: {len(rows)} changed rows, the chances first, then by weight "
                "(|Δ|/SE; exact rows |Δ|/|baseline|; inputs the same in every row left out)"
            )
            every = result.rows[name]
            constant = [c for c in every.columns[: every.columns.get_loc("method")] if every[c].nunique() == 1]
            intervals = [c for c in rows.columns if c.endswith(("_ci_low", "_ci_high"))]
            shown = rows.drop(columns=["cell", *constant, *intervals])
            shown = shown if show_all else shown.head(limit)
            exact = shown["method"] == "exact"
            shown = shown.astype({"p_value": object})
            shown.loc[exact, "p_value"] = "exact"
            click.echo(shown.to_string(index=False, float_format=lambda v: f"{v:.6g}"))
            if len(rows) > len(shown):
                click.echo(f"... and {len(rows) - len(shown)} more (--all shows them, --limit N more of them)")
    sys.exit(1)


def _baselines(directory: Path | None) -> Path:
    """Where the baselines are: ``--dir``, else the project's (``simlab.toml``), else ``results/baselines``."""
    from simlab.inputs.project import project_here
    from simlab.workflow.regress import BASELINES

    if directory is not None:
        return directory
    project = project_here()
    return project.baselines if project is not None and project.baselines is not None else BASELINES
