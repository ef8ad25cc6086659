"""What several commands share: whole-number options, limits, the scheduler, progress, experiments and variants."""

from __future__ import annotations

import contextlib
import functools
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import click

from simlab.inputs.errors import SimlabError
from simlab.inputs.limits import DEFAULT_MAX_CELLS, DEFAULT_MAX_TRIALS, Limits
from simlab.text import whole_number

__all__ = [
    "PATH",
    "WHOLE",
    "COUNT",
    "rules_options",
    "sampling_options",
    "max_trials_option",
    "scheduler_option",
    "jobs_option",
    "limit_options",
    "print_json",
    "Progress",
    "progress_bar",
    "variant_of",
    "load_experiments",
]


class WholeNumber(click.ParamType):
    """An integer option in ASCII digits (``int()`` also reads ``٣``; a thousand digits are no count)."""

    name = "integer"

    def __init__(self, minimum: int | None = None) -> None:
        self.minimum = minimum

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        number = value if isinstance(value, int) and not isinstance(value, bool) else whole_number(str(value))
        if number is None:
            self.fail(f"{str(value)[:40]!r} is not a whole number", param, ctx)
        if self.minimum is not None and number < self.minimum:
            self.fail(f"{number} is below {self.minimum}: expected a whole number from {self.minimum}", param, ctx)
        return number


WHOLE = WholeNumber()
#: A count: a whole number from 0.
COUNT = WholeNumber(minimum=0)


class FilePath(click.Path):
    """A path option or argument (a :class:`~pathlib.Path`): one that cannot name a file is refused in one line."""

    def __init__(self) -> None:
        super().__init__(path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if "\0" in str(value):  # the file system refuses it with a ValueError, not an OSError
            self.fail("a path cannot hold a NUL byte", param, ctx)
        return super().convert(value, param, ctx)


#: A path, as every command takes one.
PATH = FilePath()


def max_trials_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--max-trials``: a job that would sample more is refused before it starts."""
    return click.option(
        "--max-trials",
        type=WHOLE,
        default=DEFAULT_MAX_TRIALS,
        show_default=True,
        help="Refuse a job that would sample more trials than this.",
    )(command)


def scheduler_option(command: Callable[..., Any]) -> Callable[..., Any]:
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


def jobs_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--jobs``: experiments run side by side in worker processes."""
    return click.option(
        "--jobs",
        type=WHOLE,
        default=None,
        help="Experiments run side by side, each in a worker process [default: one per CPU]; 1: one after another.",
    )(command)


def limit_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--max-trials`` and ``--max-cells``: the bounds of an experiment job."""
    command = max_trials_option(command)
    return click.option(
        "--max-cells",
        type=WHOLE,
        default=DEFAULT_MAX_CELLS,
        show_default=True,
        help="Refuse an experiment with more grid cells (times rule sets) than this.",
    )(command)


def print_json(payload: Any) -> None:
    """Print one JSON object, indented."""
    click.echo(json.dumps(payload, indent=2))


class Progress:
    """Sampling progress as a tqdm bar on a terminal's stderr (the engine reports trials done so far)."""

    def __init__(self, total: int) -> None:
        from tqdm import tqdm

        self.bar = tqdm(total=total, desc="sampling", unit=" trials", unit_scale=True, file=sys.stderr, leave=False)

    def __call__(self, done: int) -> None:
        """Move the bar to ``done`` trials."""
        self.bar.update(done - self.bar.n)
        if done >= (self.bar.total or 0):
            self.bar.close()


@contextlib.contextmanager
def progress_bar(length: int, label: str) -> Iterator[Callable[..., None] | None]:
    """A tqdm progress bar on stderr of a terminal (``advance(n, note)``, a note such as the best so far); else none."""
    if not sys.stderr.isatty():
        yield None
        return
    from tqdm import tqdm

    with tqdm(total=length, desc=label, unit="cell", file=sys.stderr, leave=False) as bar:

        def advance(done: int, note: str | None = None) -> None:
            if note:
                bar.set_postfix_str(note, refresh=False)
            bar.update(done)

        yield advance


def variant_of(path: Path | None, system: str) -> Any:
    """The house-rule variant of ``--variant`` (None without one)."""
    if path is None:
        return None
    from simlab.asking.variants import load_variant  # reading a variant loads its system

    return load_variant(path, system)


def load_experiments(
    files: Sequence[Path], threads: int | None, max_cells: int, max_trials: int
) -> tuple[Limits, list[Any]]:
    """The job's limits and every experiment named (default: experiments/*.toml), all checked before any runs.

    Of the default set, an experiment that needs an optional part not installed (SALib for a
    sensitivity) is left out with a line saying so; named, it is refused like any mistake.

    Raises:
        SimlabError: For bad threads, a mistake in a file, a job over the limits, or two experiments of one name.
    """
    from simlab.engine.bounds import check_threads
    from simlab.workflow.experiment_checks import MissingExtraError
    from simlab.workflow.experiments import find_experiments, load_experiment

    check_threads(threads)
    limits = Limits(max_cells, max_trials)
    if files:
        experiments = [load_experiment(path, limits) for path in files]
    else:  # every experiment of the project: one that needs a part not installed is left out, and said so
        experiments = []
        for path in find_experiments("experiments"):
            try:
                experiments.append(load_experiment(path, limits))
            except MissingExtraError as missing:
                click.echo(f"left out {missing}", err=True)
    names: dict[str, Path] = {}
    for experiment in experiments:
        if experiment.name in names:
            other = names[experiment.name]
            raise SimlabError(f"{experiment.path}: name {experiment.name!r} is also the name of {other}")
        names[experiment.name] = experiment.path
    return limits, experiments


def rules_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--rule``, ``--variant`` and ``--tables``: the rules and tables a question is asked under."""
    for option in reversed(
        [
            click.option("--rule", "rule_items", multiple=True, metavar="KEY=VALUE", help="Rule parameter."),
            click.option(
                "--variant", "variant_file", type=PATH, help="House-rule variant (TOML)."
            ),
            click.option(
                "--tables",
                "tables_dir",
                type=PATH,
                metavar="DIR",
                help="Your own rows: TABLE.csv adds or changes rows, TABLE.only.csv replaces the table.",
            ),
        ]
    ):
        command = option(command)
    return command


def sampling_options(what: str, default: int) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--trials`` (of ``what``), ``--seed``, ``--threads``, ``--json`` and ``--max-trials``."""
    options: list[Callable[[Callable[..., Any]], Callable[..., Any]]] = [
        click.option("--trials", type=WHOLE, default=None, help=f"{what} to sample [default: {default:,}]."),
        click.option("--seed", type=WHOLE, default=0, show_default=True, help="Root seed of the random streams."),
        click.option("--threads", type=WHOLE, default=None, help="Worker threads [default: all CPUs]."),
        click.option("--json", "as_json", is_flag=True, help="Print one JSON object."),
        max_trials_option,
    ]

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed(options):
            command = option(command)
        return command

    return decorate
