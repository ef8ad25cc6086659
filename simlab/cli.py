"""The ``simlab`` command line (README, "Two commands"): parsing and orchestration; :mod:`simlab.output.console` prints.

Every user error is a :class:`~simlab.inputs.errors.SimlabError` (or a click usage error); both
are printed as one line ``error: ...`` on stderr with exit status 2, never a traceback.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import multiprocessing
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import click

from simlab import __version__
from simlab.engine.bounds import check_threads, check_trials
from simlab.inputs.errors import SimlabError, UnknownNameError
from simlab.inputs.limits import DEFAULT_MAX_CELLS, DEFAULT_MAX_TRIALS, DEFAULT_TRIALS, Limits
from simlab.inputs.params import parse_assignments
from simlab.output.console import cell_text, field_line, print_battle, print_bench, print_cluster_bench, print_result
from simlab.systems import SYSTEM_NAMES, get_system, question_of
from simlab.text import whole_number

__all__ = ["main", "cli"]


class _WholeNumber(click.ParamType):
    """An integer option in ASCII digits (``int()`` also reads ``٣``; a thousand digits are no count)."""

    name = "integer"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        number = whole_number(str(value))
        if number is None:
            self.fail(f"{str(value)[:40]!r} is not a whole number", param, ctx)
        return number


WHOLE = _WholeNumber()


def _max_trials_option(command: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--max-trials",
        type=WHOLE,
        default=DEFAULT_MAX_TRIALS,
        show_default=True,
        help="Refuse a job that would sample more trials than this.",
    )(command)


def _scheduler_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--scheduler`` (or ``SIMLAB_SCHEDULER``): sampling on a Dask cluster, bit-identical to the threads.

    With a scheduler the experiments of a job run one after another here, their blocks of
    trials spread over the cluster's workers.
    """

    @functools.wraps(command)
    def with_scheduler(*args: Any, scheduler_address: str | None, **kwargs: Any) -> Any:
        from simlab.engine.cluster import scheduler

        with scheduler(scheduler_address):
            if scheduler_address and "jobs" in kwargs:
                kwargs["jobs"] = 1  # the cluster's workers share the work, not local processes
            return command(*args, **kwargs)

    return click.option(
        "--scheduler",
        "scheduler_address",
        envvar="SIMLAB_SCHEDULER",
        default=None,
        metavar="ADDRESS",
        help="Sample on a Dask cluster: tcp://HOST:PORT, or local:N worker processes [env SIMLAB_SCHEDULER].",
    )(with_scheduler)


def _jobs_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--jobs``: experiments run side by side in worker processes."""
    return click.option(
        "--jobs",
        type=WHOLE,
        default=None,
        help="Experiments run side by side, each in a worker process [default: one per CPU]; 1: one after another.",
    )(command)


def _limit_options(command: Callable[..., Any]) -> Callable[..., Any]:
    command = _max_trials_option(command)
    return click.option(
        "--max-cells",
        type=WHOLE,
        default=DEFAULT_MAX_CELLS,
        show_default=True,
        help="Refuse an experiment with more grid cells (times rule sets) than this.",
    )(command)


#: Examples under ``simlab attack --help`` (\b keeps click from rewrapping them).
ATTACK_EXAMPLES = f"""\b
Systems: {", ".join(SYSTEM_NAMES)} (simlab systems lists their inputs).
\b
Examples:
  simlab attack hitech_tft --set "weapon=assault rifle" --set mode=four --exact
  simlab attack striker --set weapon=rifle --set armor=cloth --trials 200000
  simlab attack tyconian --kind explosion --set "explosive=hand grenade" --set distance_m=2 --exact
  simlab attack space_v4 --set weapon=missile --set attacker=frigate --set "defender=patrol cruiser" --exact
"""


def _print_json(payload: Any) -> None:
    click.echo(json.dumps(payload, indent=2))


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 120})
@click.version_option(__version__, prog_name="simlab")
def cli() -> None:
    """simlab: measure combat rules of Traveller-family games, exactly and by sampling."""


@cli.command(short_help="The rule systems, their inputs and rule parameters.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def systems(as_json: bool) -> None:
    """List the rule systems, their scenario inputs and rule parameters."""
    from simlab.systems.catalogue import catalogue

    payload = catalogue()
    if as_json:
        _print_json(payload)
        return
    for entry in payload:
        click.echo(f"{entry['name']}: {entry['title']} ({entry['spec']})")
        options = {"scenario": "--set", "rules": "--rule", "duel_side": "simlab duel --a/--b"}
        for section in [name for name in options if name in entry]:
            click.echo(f"  {section.replace('_', ' ')} ({options[section]}):")
            for f in entry[section]:
                click.echo(field_line(f))
        click.echo(f"  tables: {', '.join(entry['tables'])}")
        click.echo(f"  metrics: {', '.join(entry['metrics'])}")
        click.echo(f"  distributions: {', '.join(entry['distributions']) or 'none'}")
        for name, question in entry.get("questions", {}).items():
            sampled = ", sampled only" if question["sampled_only"] else ""
            click.echo(f"  question {name} (simlab attack --kind {name}): {question['title']}{sampled}")
            for f in question["scenario"]:
                click.echo(field_line(f))
            click.echo(f"    metrics: {', '.join(question['metrics'])}")


@cli.command(short_help="Regenerate docs/systems/ from the registry.")
@click.option("--check", is_flag=True, help="Exit 1 if a page differs from what it would be now; write nothing.")
@click.option("--root", type=click.Path(path_type=Path), default=Path("."), show_default=True, help="The repository.")
def docs(check: bool, root: Path) -> None:
    """Regenerate the registry half of each system's reference, docs/systems/SYSTEM.md."""
    from simlab.output.reference import stale_references, write_references

    if check:
        stale = stale_references(root)
        for page in stale:
            click.echo(f"{page}: out of date with the registry; run simlab docs")
        if stale:
            sys.exit(1)
        click.echo("docs/systems: every page matches the registry")
        return
    changed = write_references(root)
    click.echo(f"{len(changed)} page(s) regenerated" + (f": {', '.join(map(str, changed))}" if changed else ""))


@cli.command(short_help="The data tables of a system.")
@click.argument("system")
@click.argument("table", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def tables(system: str, table: str | None, as_json: bool) -> None:
    """Show the data tables of SYSTEM (or only TABLE)."""
    all_tables = get_system(system).tables()
    if table is not None and table not in all_tables:
        raise UnknownNameError("table", table, all_tables)
    chosen = {table: all_tables[table]} if table else dict(all_tables)
    if as_json:
        _print_json({name: t.as_records() for name, t in chosen.items()})
        return
    for name, t in chosen.items():
        records = t.as_records()
        columns = list(records[0]) if records else []
        widths = {c: max(len(c), *(len(cell_text(r[c])) for r in records)) for c in columns}
        click.echo(f"{name} ({t.source}, {len(t)} rows)")
        click.echo("  " + "  ".join(c.ljust(widths[c]) for c in columns))
        for r in records:
            click.echo("  " + "  ".join(cell_text(r[c]).ljust(widths[c]) for c in columns))
        click.echo()


class _Progress:
    """Sampling progress as a tqdm bar on a terminal's stderr (the engine reports trials done so far)."""

    def __init__(self, total: int) -> None:
        from tqdm import tqdm

        self.bar = tqdm(total=total, desc="sampling", unit=" trials", unit_scale=True, file=sys.stderr, leave=False)

    def __call__(self, done: int) -> None:
        self.bar.update(done - self.bar.n)
        if done >= (self.bar.total or 0):
            self.bar.close()


@cli.command(
    short_help="One attack (or other question) of a system.",
    epilog=ATTACK_EXAMPLES,
)
@_scheduler_option
@click.argument("system")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Scenario input (or ROW.COLUMN).")
@click.option("--rule", "rule_items", multiple=True, metavar="KEY=VALUE", help="Rule parameter.")
@click.option(
    "--kind",
    default="attack",
    show_default=True,
    help="What to ask: one attack, or one of the system's questions (simlab systems lists them).",
)
@click.option("--variant", "variant_file", type=click.Path(path_type=Path), help="House-rule variant (TOML).")
@click.option("--exact", is_flag=True, help="Compute exact values instead of sampling.")
@click.option("--trials", type=WHOLE, default=None, help=f"Trials to sample [default: {DEFAULT_TRIALS:,}].")
@click.option("--seed", type=WHOLE, default=0, show_default=True, help="Root seed of the random streams.")
@click.option("--threads", type=WHOLE, default=None, help="Worker threads [default: all CPUs].")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@_max_trials_option
def attack(
    system: str,
    sets: tuple[str, ...],
    rule_items: tuple[str, ...],
    kind: str,
    variant_file: Path | None,
    exact: bool,
    trials: int | None,
    seed: int,
    threads: int | None,
    as_json: bool,
    max_trials: int,
) -> None:
    """Answer one attack question of SYSTEM (or another --kind), exactly (--exact) or by sampling."""
    _ask(
        system,
        kind,
        parse_assignments(sets, "--set"),
        rule_items,
        variant_file,
        as_json,
        exact=exact,
        trials=trials,
        seed=seed,
        threads=threads,
        max_trials=max_trials,
    )


def _ask(
    system: str,
    kind: str,
    inputs: dict[str, Any],
    rule_items: tuple[str, ...],
    variant_file: Path | None,
    as_json: bool,
    *,
    battle: str | None = None,
    exact: bool = False,
    trials: int | None,
    **options: Any,
) -> None:
    """Answer one question of any kind and print it: the one path of ``attack``, ``duel`` and ``battle``."""
    from simlab.inputs.requests import DEFAULT_BY_FORM, question_request

    question = question_of(system, kind)
    n_trials = DEFAULT_BY_FORM[question.form] if trials is None else trials
    question, request = question_request(
        system,
        kind,
        inputs=inputs,
        battle=battle,
        rules=parse_assignments(rule_items, "--rule"),
        exact=exact,
        trials=trials,
        variant=_variant(variant_file, system),
        progress=_Progress(n_trials) if sys.stderr.isatty() and not exact else None,
        **options,
    )
    result = question.answer(request)
    if as_json:
        _print_json(result.to_json())
    elif question.form == "battle":
        print_battle(result)
    else:
        print_result(result)


@cli.command(short_help="Run experiments into results/<name>/ (the main job).")
@_scheduler_option
@click.argument("experiment_files", nargs=-1, type=click.Path(path_type=Path), metavar="[EXPERIMENT.toml ...]")
@click.option(
    "--out", type=click.Path(path_type=Path), default=Path("results"), show_default=True, help="Results root."
)
@click.option("--threads", type=WHOLE, default=None, help="Worker threads for sampling [default: all CPUs].")
@click.option("--svg", is_flag=True, help="Write every chart as SVG too (for print), besides the PNG.")
@_jobs_option
@_limit_options
def run(
    experiment_files: tuple[Path, ...],
    out: Path,
    threads: int | None,
    svg: bool,
    jobs: int | None,
    max_cells: int,
    max_trials: int,
) -> None:
    """Run experiments (default: every experiments/*.toml) into OUT/<name>/."""
    from simlab.output.atomic import check_writable
    from simlab.workflow.jobs import seconds_text
    from simlab.workflow.tasks import Options, run_and_write

    check_threads(threads)
    limits = Limits(max_cells, max_trials)
    experiments = _load_experiments(experiment_files, limits)
    check_writable(out)
    done, processes = _each_experiment(
        "run",
        experiments,
        run_and_write,
        Options(limits, threads, out, svg=svg),
        jobs,
        lambda task, done: (
            f"{task.name}: {task.cells} cells, {done.result.rows} rows, {seconds_text(done.seconds)} -> "
            f"{done.result.destination}/"
        ),
        previous=out,
    )
    rows = sum(d.result.rows for d in done)
    _close(f"{len(done)} experiment(s), {rows:,} rows", processes)


def _each_experiment(
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


def _close(what: str, processes: int) -> None:
    """The closing line of a job: what it did and its whole time, start-up included."""
    from simlab.workflow.jobs import seconds_text, since_start

    side = f", {processes} experiments at a time" if processes > 1 else ""
    click.echo(f"{what} in {seconds_text(since_start())}{side}")


def _variant(path: Path | None, system: str) -> Any:
    """The house-rule variant of ``--variant`` (None without one)."""
    if path is None:
        return None
    from simlab.inputs.variants import load_variant

    return load_variant(path, system)


def _load_experiments(files: Sequence[Path], limits: Limits) -> list[Any]:
    """Every experiment named (default: experiments/*.toml), all checked (against ``limits`` too) before any runs."""
    from simlab.workflow.experiments import find_experiments, load_experiment

    experiments = [load_experiment(path, limits) for path in (list(files) or find_experiments("experiments"))]
    names: dict[str, Path] = {}
    for experiment in experiments:
        if experiment.name in names:
            other = names[experiment.name]
            raise SimlabError(f"{experiment.path}: name {experiment.name!r} is also the name of {other}")
        names[experiment.name] = experiment.path
    return experiments


@contextlib.contextmanager
def _progress_bar(length: int, label: str) -> Iterator[Callable[[int], None] | None]:
    """A tqdm progress bar on a terminal's stderr; nothing elsewhere."""
    if not sys.stderr.isatty():
        yield None
        return
    from tqdm import tqdm

    with tqdm(total=length, desc=label, unit="cell", file=sys.stderr, leave=False) as bar:
        yield bar.update


@cli.command(short_help="Variants against the base rules, cell by cell.")
@_scheduler_option
@click.argument("experiment_file", type=click.Path(path_type=Path), metavar="EXPERIMENT.toml")
@click.option(
    "--variant", "variant_files", multiple=True, type=click.Path(path_type=Path), help="Variant (TOML); repeatable."
)
@click.option(
    "--out", type=click.Path(path_type=Path), default=Path("results"), show_default=True, help="Results root."
)
@click.option("--batches", type=WHOLE, default=None, help="Batches for the intervals of sampled differences [40].")
@click.option("--threads", type=WHOLE, default=None, help="Worker threads for sampling [default: all CPUs].")
@click.option("--svg", is_flag=True, help="Write every chart as SVG too (for print), besides the PNG.")
@_limit_options
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
    from simlab.inputs.variants import load_variant
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
    with _progress_bar(comparison_units(experiment, variants), label) as progress:
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


@cli.command(short_help="Store experiments' results as their baselines.")
@_scheduler_option
@click.argument("experiment_files", nargs=-1, type=click.Path(path_type=Path), metavar="[EXPERIMENT.toml ...]")
@click.option(
    "--dir", "directory", type=click.Path(path_type=Path), default=None, help="Baselines [results/baselines]."
)
@click.option("--threads", type=WHOLE, default=None, help="Worker threads for sampling [default: all CPUs].")
@_jobs_option
@_limit_options
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
    from simlab.workflow.regress import BASELINES
    from simlab.workflow.tasks import Options, run_and_keep

    check_threads(threads)
    limits = Limits(max_cells, max_trials)
    experiments = _load_experiments(experiment_files, limits)
    check_writable(directory or BASELINES)
    done, processes = _each_experiment(
        "baseline",
        experiments,
        run_and_keep,
        Options(limits, threads, directory or BASELINES),
        jobs,
        lambda task, done: (
            f"{task.name}: {done.result.rows} rows, {seconds_text(done.seconds)} -> {done.result.destination}"
        ),
        previous=directory or BASELINES,
    )
    _close(f"{len(done)} baseline(s)", processes)


@cli.command(short_help="Check experiments against their baselines.")
@_scheduler_option
@click.argument("experiment_files", nargs=-1, type=click.Path(path_type=Path), metavar="[EXPERIMENT.toml ...]")
@click.option("--variant", "variant_file", type=click.Path(path_type=Path), help="Check a variant's rules instead.")
@click.option("--margin", type=float, default=0.0, show_default=True, help="Practical margin of sampled metrics.")
@click.option(
    "--dir", "directory", type=click.Path(path_type=Path), default=None, help="Baselines [results/baselines]."
)
@click.option("--threads", type=WHOLE, default=None, help="Worker threads for sampling [default: all CPUs].")
@_jobs_option
@_limit_options
def regress(
    experiment_files: tuple[Path, ...],
    variant_file: Path | None,
    margin: float,
    directory: Path | None,
    threads: int | None,
    jobs: int | None,
    max_cells: int,
    max_trials: int,
) -> None:
    """Compare experiments with their baselines: exit 0 if nothing changed, 1 if something did."""
    import pandas as pd

    from simlab.inputs.variants import load_variant
    from simlab.workflow.regress import BASELINES, load_baseline
    from simlab.workflow.regress import regress as check
    from simlab.workflow.tasks import Options, run_for_regress

    check_threads(threads)
    limits = Limits(max_cells, max_trials)
    experiments = _load_experiments(experiment_files, limits)
    variant = None
    if variant_file is not None:
        systems = {e.system for e in experiments}
        variant = load_variant(variant_file, systems.pop() if len(systems) == 1 else None)
        experiments = [e for e in experiments if e.system == variant.system]
    for experiment in experiments:  # a missing or broken baseline fails before anything runs
        load_baseline(experiment, directory or BASELINES)
    done, _ = _each_experiment(
        "regress",
        experiments,
        run_for_regress,
        Options(limits, threads, variant=variant_file if variant is not None else None),
        jobs,
        lambda task, done: None,
        quiet_start=not sys.stderr.isatty(),
        previous=directory or BASELINES,
    )
    current = {e.name: d.result for e, d in zip(experiments, done, strict=True)}
    result = check(
        experiments, variant=variant, margin=margin, directory=directory or BASELINES, threads=threads, current=current
    )
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
            click.echo(f"\n{name}: {len(rows)} changed rows, largest first (inputs the same in every row left out)")
            every = result.rows[name]
            constant = [c for c in every.columns[: every.columns.get_loc("method")] if every[c].nunique() == 1]
            shown = rows.drop(columns=["cell", *constant]).head(40)
            click.echo(shown.to_string(index=False, float_format=lambda v: f"{v:.6g}"))
            if len(rows) > 40:
                click.echo(f"... and {len(rows) - 40} more")
    sys.exit(1)


@cli.command(short_help="Duels of two figures or ships of a system.")
@_scheduler_option
@click.argument("system")
@click.option("--a", "a_items", multiple=True, metavar="KEY=VALUE", help="Side A's input (or ROW.COLUMN).")
@click.option("--b", "b_items", multiple=True, metavar="KEY=VALUE", help="Side B's input (or ROW.COLUMN).")
@click.option("--rule", "rule_items", multiple=True, metavar="KEY=VALUE", help="Rule parameter.")
@click.option("--variant", "variant_file", type=click.Path(path_type=Path), help="House-rule variant (TOML).")
@click.option("--trials", type=WHOLE, default=None, help="Duels to sample [default: 100,000].")
@click.option("--seed", type=WHOLE, default=0, show_default=True, help="Root seed of the random streams.")
@click.option("--threads", type=WHOLE, default=None, help="Worker threads [default: all CPUs].")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@_max_trials_option
def duel(
    system: str,
    a_items: tuple[str, ...],
    b_items: tuple[str, ...],
    rule_items: tuple[str, ...],
    variant_file: Path | None,
    trials: int | None,
    seed: int,
    threads: int | None,
    as_json: bool,
    max_trials: int,
) -> None:
    """Sample duels of two figures of SYSTEM (each side's inputs as for attack, plus magazines)."""
    sides = {f"a.{k}": v for k, v in parse_assignments(a_items, "--a").items()}
    sides.update({f"b.{k}": v for k, v in parse_assignments(b_items, "--b").items()})
    _ask(system, "duel", sides, rule_items, variant_file, as_json, trials=trials, seed=seed, threads=threads,
         max_trials=max_trials)  # fmt: skip


@cli.command(short_help="Battles of several figures or ships a side, fought to the end (N against M).")
@_scheduler_option
@click.argument("system")
@click.argument("battle_file", metavar="BATTLE.toml", type=click.Path(path_type=Path))
@click.option(
    "--set",
    "set_items",
    multiple=True,
    metavar="PATH=VALUE",
    help="Change the battle by dotted path: a.count=6, b.doctrine.targets=focus, a.groups.0.weapon=...",
)
@click.option("--rule", "rule_items", multiple=True, metavar="KEY=VALUE", help="Rule parameter.")
@click.option("--variant", "variant_file", type=click.Path(path_type=Path), help="House-rule variant (TOML).")
@click.option("--trials", type=WHOLE, default=None, help="Battles to sample [default: 100,000].")
@click.option("--seed", type=WHOLE, default=0, show_default=True, help="Root seed of the random streams.")
@click.option("--threads", type=WHOLE, default=None, help="Worker threads [default: all CPUs].")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@_max_trials_option
def battle(
    system: str,
    battle_file: Path,
    set_items: tuple[str, ...],
    rule_items: tuple[str, ...],
    variant_file: Path | None,
    trials: int | None,
    seed: int,
    threads: int | None,
    as_json: bool,
    max_trials: int,
) -> None:
    """Sample battles of SYSTEM described by BATTLE.toml (sides, groups, doctrine; docs/rules/engagements.md)."""
    _ask(
        system,
        "battle",
        parse_assignments(set_items, "--set"),
        rule_items,
        variant_file,
        as_json,
        battle=str(battle_file),
        trials=trials,
        seed=seed,
        threads=threads,
        max_trials=max_trials,
    )


@cli.command(short_help="A local web page to ask, see and share answers.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (this machine only).")
@click.option("--port", type=WHOLE, default=8765, show_default=True, help="Port to listen on.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the default browser.")
@click.option(
    "--results", type=click.Path(path_type=Path), default=Path("results"), show_default=True, help="Results root."
)
@click.option(
    "--max-trials",
    type=WHOLE,
    default=None,
    help="The most trials one request may sample [default: 2,000,000].",
)
def serve(host: str, port: int, open_browser: bool, results: Path, max_trials: int | None) -> None:
    """Serve the web page: Ask (/attack/SYSTEM), Results (/results) and the JSON API (/api/...)."""
    try:
        import uvicorn

        from simlab.web.app import DEFAULT_WEB_MAX_TRIALS, create_app
    except ImportError as exc:
        hint = "pip install 'simlab[web]'"
        raise SimlabError(f"simlab serve needs the web extra ({exc.name} is missing): {hint}") from None
    if not 1 <= port <= 65535:
        raise SimlabError(f"invalid value {port} for --port: expected a whole number from 1 to 65535")
    limit = DEFAULT_WEB_MAX_TRIALS if max_trials is None else max_trials
    check_trials(limit)
    listening = _listen(host, port)
    app = create_app(max_trials=limit, results=results)
    url = f"http://{host}:{port}/"
    click.echo(f"simlab serve: {url} (Ctrl+C stops it)")
    if open_browser:
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1)
    _server_class(app.state.runner.stop_all)(config).run(sockets=[listening])


def _server_class(stop_work: Callable[[], None]) -> type[Any]:
    """The uvicorn server, whose stop (SIGINT, SIGTERM) first calls ``stop_work`` (the answers being computed)."""
    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            stop_work()  # sampling ends at its next block of trials
            super().handle_exit(sig, frame)

    return Server


def _listen(host: str, port: int) -> Any:
    """A socket listening at ``host:port`` for the server, or one line saying why there cannot be one.

    Raises:
        SimlabError: For an unknown host, a port taken or not allowed.
    """
    import errno
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise SimlabError(f"cannot serve on --host {host!r}: {getattr(exc, 'strerror', None) or exc}") from None
    family, kind, proto, _, address = infos[0]
    listening = socket.socket(family, kind, proto)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(address)
        listening.listen(128)
    except OSError as exc:
        listening.close()
        taken = " (try another --port)" if exc.errno == errno.EADDRINUSE else ""
        raise SimlabError(f"cannot serve on {host}:{port}: {exc.strerror or exc}{taken}") from None
    listening.set_inheritable(True)
    return listening


@cli.command(short_help="Measure the samplers, references and exact engines.")
@click.option("--trials", type=WHOLE, default=20_000_000, show_default=True, help="Trials per timed run.")
@click.option("--repeat", type=WHOLE, default=3, show_default=True, help="Timed runs per figure (fastest counts).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option(
    "--scheduler",
    "scheduler_address",
    envvar="SIMLAB_SCHEDULER",
    default=None,
    metavar="ADDRESS",
    help="Time sampled experiments on this Dask cluster against one local thread instead.",
)
def bench(trials: int, repeat: int, as_json: bool, scheduler_address: str | None) -> None:
    """Measure the samplers, their references, the generator and the exact engine (or a Dask cluster)."""
    from simlab.workflow.bench import cluster_bench, run_bench

    check_trials(trials)
    if repeat < 1:
        raise SimlabError(f"invalid value {repeat} for --repeat: expected an integer >= 1")
    if scheduler_address:
        cluster = cluster_bench(scheduler_address, progress=lambda step: click.echo(f"bench: {step}", err=True))
        if as_json:
            _print_json(cluster)
            return
        print_cluster_bench(cluster)
        return
    sections: dict[str, Callable[[], Any]] = {}
    try:
        from simlab.web.bench import serve_bench
    except ImportError:  # the web extra is not installed: no serve section
        pass
    else:
        sections["serve"] = functools.partial(serve_bench, repeat=15 * repeat)  # p95 needs a few dozen requests
    report = run_bench(
        trials=trials, repeat=repeat, progress=lambda step: click.echo(f"bench: {step}", err=True), sections=sections
    )
    if as_json:
        _print_json(report)
        return
    print_bench(report)


class _Stopped(KeyboardInterrupt):
    """SIGTERM, raised where the program is so that it unwinds as on Ctrl+C (workers stopped, nothing half-written)."""


def _stop_on_sigterm(signum: int, frame: Any) -> None:
    raise _Stopped


@contextlib.contextmanager
def _signals_unwind() -> Iterator[None]:
    """SIGTERM and SIGINT unwind the program inside the block (the handlers before it are restored after)."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    # SIGINT too: a shell starts background jobs with it ignored, and ``kill -INT`` should still stop them.
    before = signal.signal(signal.SIGTERM, _stop_on_sigterm), signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before[0])
        signal.signal(signal.SIGINT, before[1])


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``simlab`` script: one-line errors and exit status 2.

    SIGINT and SIGTERM stop any command within moments: the work unwinds (worker processes
    stopped, partial files removed, earlier results left as they were), one line says so, and
    the exit status is 130 or 143. Run as the script (``argv`` None), the process then ends at
    once, without waiting for a compiled block of trials still running on a thread.
    """
    try:
        with _signals_unwind():
            cli.main(args=list(argv) if argv is not None else None, prog_name="simlab", standalone_mode=False)
    except SimlabError as exc:
        click.echo(f"error: {_one_line(str(exc))}", err=True)
        sys.exit(2)
    except (click.exceptions.Abort, KeyboardInterrupt) as exc:
        terminated = isinstance(exc, _Stopped) or isinstance(exc.__cause__, _Stopped)  # click wraps it in Abort
        signal_name = "SIGTERM" if terminated else "SIGINT"
        click.echo(f"error: stopped by {signal_name}; nothing was left half-written", err=True)
        code = 143 if terminated else 130
        if argv is None:
            _exit_now(code)
        sys.exit(code)
    except click.ClickException as exc:
        click.echo(f"error: {_one_line(exc.format_message())}", err=True)
        sys.exit(2)
    except BrokenPipeError:
        sys.exit(0)
    except MemoryError:
        click.echo("error: out of memory: ask for a smaller job (fewer trials, cells or dice)", err=True)
        sys.exit(2)
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        click.echo(f"error: {where}{exc.strerror or exc}", err=True)
        sys.exit(2)


def _exit_now(code: int) -> None:
    """End the process now: sampling threads in a compiled kernel cannot be stopped, only left behind."""
    import os

    with contextlib.suppress(Exception):
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)


def _one_line(message: str) -> str:
    return " ".join(message.split())
