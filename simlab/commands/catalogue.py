"""``simlab systems``, ``simlab tables`` and ``simlab docs``: what the registry holds."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from simlab.commands.options import PATH, print_json
from simlab.inputs.errors import UnknownNameError
from simlab.output.console import cell_text, field_line
from simlab.systems import get_system

__all__ = ["systems", "tables", "docs"]


@click.command(short_help="The rule systems, their inputs and rule parameters.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def systems(as_json: bool) -> None:
    """List the rule systems, their scenario inputs and rule parameters."""
    from simlab.systems.catalogue import catalogue

    payload = catalogue()
    if as_json:
        print_json(payload)
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


@click.command(short_help="Regenerate docs/systems/ and docs/reference/ from the registries.")
@click.option("--check", is_flag=True, help="Exit 1 if a page differs from what it would be now; write nothing.")
@click.option("--root", type=PATH, default=Path("."), show_default=True, help="The repository.")
def docs(check: bool, root: Path) -> None:
    """Regenerate the generated pages of the documentation.

    Each system's reference half (docs/systems/SYSTEM.md, below its marker line) and the
    reference of commands, metrics and keys (docs/reference/).
    """
    from simlab.commands.reference import stale_reference, write_reference
    from simlab.output.reference import stale_references, write_references

    if check:
        stale = [*stale_references(root), *stale_reference(root)]
        for page in stale:
            click.echo(f"{page}: out of date with the registry; run simlab docs")
        if stale:
            sys.exit(1)
        click.echo("docs/systems and docs/reference: every page matches the registries")
        return
    changed = [*write_references(root), *write_reference(root)]
    click.echo(f"{len(changed)} page(s) regenerated" + (f": {', '.join(map(str, changed))}" if changed else ""))


@click.command(short_help="The data tables of a system.")
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
        print_json({name: t.as_records() for name, t in chosen.items()})
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
