"""``simlab bench``: the samplers, references, exact engines, start-up and the web, timed."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import click

from simlab.commands.options import WHOLE, print_json
from simlab.engine.bounds import check_trials
from simlab.inputs.errors import SimlabError
from simlab.output.console import print_bench, print_cluster_bench

__all__ = ["bench"]


@click.command(short_help="Measure the samplers, references and exact engines.")
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
            print_json(cluster)
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
        print_json(report)
        return
    print_bench(report)
