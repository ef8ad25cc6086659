"""``simlab init``: a new project of house rules, run and baselined, checked by CI on every pull request."""

from __future__ import annotations

from pathlib import Path

import click

from simlab.commands.options import PATH

__all__ = ["init"]


@click.command(short_help="A new project of house rules: experiments, own tables, baselines and CI.")
@click.argument("directory", type=PATH, metavar="DIR")
@click.option("--system", "systems", multiple=True, metavar="NAME", help="A system of the project (repeat; all).")
def init(directory: Path, systems: tuple[str, ...]) -> None:
    """Write a new project in DIR, run its examples and store their baselines.

    It holds an example experiment per system reading the project's own rows
    (tables/SYSTEM/TABLE.csv), variants/, a README, .gitignore, a GitHub Actions workflow and a plain
    CI script that run simlab regress. It never writes over a file.
    """
    import os

    from simlab.commands.experiments import baseline
    from simlab.workflow.project import project_files, write_project

    files = project_files(systems)
    written = write_project(directory, files)
    click.echo(f"{len(written)} files written in {directory}/")
    here = Path.cwd()
    os.chdir(directory)
    try:
        experiments = sorted(str(p) for p in Path("experiments").glob("*.toml"))
        baseline.main([*experiments], prog_name="simlab baseline", standalone_mode=False)
    finally:
        os.chdir(here)
    click.echo(f"Next: cd {directory} && git init && simlab regress experiments/*.toml")
