"""``simlab notebooks``: run the walk-through notebooks and write them back with their outputs (or check them)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from simlab.commands.options import PATH, WHOLE
from simlab.workflow.notebooks import NOTEBOOK_TRIALS

__all__ = ["notebooks"]


@click.command(short_help="Run the notebooks and write them back with their outputs (--check: find stale ones).")
@click.argument("paths", nargs=-1, type=PATH, metavar="[NOTEBOOK.ipynb ...]")
@click.option("--check", is_flag=True, help="Write nothing: exit 1 naming each cell whose committed output is stale.")
@click.option(
    "--trials",
    type=WHOLE,
    default=None,
    help=f"Trials per sampled experiment cell [default: {NOTEBOOK_TRIALS:,}, as committed].",
)
def notebooks(paths: tuple[Path, ...], check: bool, trials: int | None) -> None:
    """Execute the notebooks of notebooks/ top to bottom and write them back with their outputs.

    With --check, execute them in memory and compare: every output a reader sees (printed text,
    values' text and HTML, each chart by its hash) must be what the committed notebook shows (the
    answers are pure functions of their seeds).
    """
    from simlab.workflow.notebooks import (
        NOTEBOOK_TRIALS,
        execute,
        notebook_paths,
        read_notebook,
        stale_cells,
        write_notebook,
    )

    stale_found = False
    for path in notebook_paths(paths):
        committed = read_notebook(path)  # before the kernel starts: a file that is no notebook is refused at once
        fresh = execute(path, trials or NOTEBOOK_TRIALS)
        if check:
            stale = stale_cells(committed, fresh)
            for line in stale:
                click.echo(f"{path}: {line}")
            stale_found = stale_found or bool(stale)
            if not stale:
                click.echo(f"{path}: current")
        else:
            write_notebook(fresh, path)
            click.echo(f"{path}: written with its outputs")
    if stale_found:
        click.echo("stale: run simlab notebooks to write them again", err=True)
        sys.exit(1)
