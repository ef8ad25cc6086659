"""``simlab notebooks``: run the walk-through notebooks and write them back with their outputs (or check them)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from simlab.commands.options import WHOLE
from simlab.workflow.notebooks import NOTEBOOK_TRIALS

__all__ = ["notebooks"]


@click.command(short_help="Run the notebooks and write them back with their outputs (--check: find stale ones).")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path), metavar="[NOTEBOOK.ipynb ...]")
@click.option("--check", is_flag=True, help="Write nothing: exit 1 naming each cell whose committed output is stale.")
@click.option(
    "--trials",
    type=WHOLE,
    default=None,
    help=f"Trials per sampled experiment cell [default: {NOTEBOOK_TRIALS:,}, as committed].",
)
def notebooks(paths: tuple[Path, ...], check: bool, trials: int | None) -> None:
    """Execute the notebooks of notebooks/ top to bottom and write them back with their outputs.

    With --check, execute them in memory and compare: every text output must be what the committed
    notebook shows (the answers are pure functions of their seeds), every chart must be there.
    """
    from simlab.workflow.notebooks import NOTEBOOK_TRIALS, execute, notebook_paths, stale_cells, write_notebook

    stale_found = False
    for path in notebook_paths(paths):
        fresh = execute(path, trials or NOTEBOOK_TRIALS)
        if check:
            import nbformat

            stale = stale_cells(nbformat.read(path, as_version=4), fresh)
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
