"""A designer's own rows beside the shipped ones: rows added to or changed in a system's tables.

Three ways give them, each checked like the shipped rows (one line naming the file, the row and
the column, with the valid names):

* ``[tables.TABLE."ROW"]`` tables of ``column = value`` in an experiment (or in a variant, whose
  changes then apply on top of the experiment's rows);
* a directory of CSV files (``--tables DIR`` on ``attack``, ``duel``, ``battle`` and ``serve``;
  ``tables = "DIR"`` in an experiment): ``TABLE.csv`` adds rows, or changes the columns it gives
  of a shipped row of the same name; ``TABLE.only.csv`` replaces the whole table;
* the same mapping from Python (``simlab.attack(..., tables=...)``).

The result is a mapping of table name to :class:`~simlab.inputs.tables.Table` that a request
carries (``tables``), so every question, exact or sampled, reads the rows by name as if shipped.
"""

from __future__ import annotations

import csv
import dataclasses
import io
from pathlib import Path
from typing import Any

from simlab.inputs.errors import SimlabError, UnknownNameError, shown_path
from simlab.inputs.files import FileError, read_text
from simlab.inputs.params import as_plain
from simlab.inputs.tables import Table, Tables

__all__ = ["changed_tables", "table_directory", "own_tables", "describe_tables", "ONLY"]

#: The suffix of a file that replaces a whole table (``weapons.only.csv``).
ONLY = ".only"
#: The most rows a file of one's own may hold.
MOST_ROWS = 10_000


def changed_tables(
    available: Tables, changes: Any, where: str, owner: str = "tables"
) -> dict[str, Table[Any]]:
    """The tables with rows changed or added, from ``{TABLE: {ROW: {COLUMN: VALUE}}}``.

    Args:
        available: The tables to start from, by name (the system's, or one's own rows).
        changes: The ``[tables]`` table as read from TOML.
        where: What errors name first (the file; empty: nothing before the key).
        owner: The key the changes sit under.

    Raises:
        SimlabError: ``WHERE: [tables.TABLE."ROW"]: ...`` for an unknown table or column, a bad
            value, or a new row without a required column.
    """
    at = f"{where}: " if where else ""
    if not isinstance(changes, dict):
        raise SimlabError(f'{at}{owner}: expected tables [{owner}.TABLE."ROW"] of column = value')
    tables: dict[str, Table[Any]] = {}
    for table_name, rows in changes.items():
        if table_name not in available:
            raise SimlabError(f"{at}{owner}: {UnknownNameError('table', table_name, available)}")
        if not isinstance(rows, dict) or not all(isinstance(c, dict) for c in rows.values()):
            raise SimlabError(f'{at}{owner}.{table_name}: expected [{owner}.TABLE."ROW"] tables of column = value')
        table = available[table_name]
        for row, columns in rows.items():
            try:
                table = table.with_rows({row: columns}, owner=table.row_name)
            except SimlabError as exc:
                raise SimlabError(f'{at}[{owner}.{table_name}."{row}"]: {exc}') from None
        tables[table_name] = table
    return tables


def table_directory(available: Tables, directory: Path | str) -> dict[str, Table[Any]]:
    """The tables a directory of CSV files makes: ``TABLE.csv`` adds or changes rows, ``TABLE.only.csv`` replaces.

    Each file's header is ``name`` and any of the table's columns; a row new to the table gives
    every column without a default, a row of a shipped name only those it changes (blank cells
    keep the shipped value).

    Raises:
        SimlabError: For a missing directory, a file that names no table (with the valid names),
            a table given twice, an unknown column, a bad value or a row without a required column,
            naming the file, line and column.
    """
    directory = Path(directory)
    if not directory.is_dir():
        raise SimlabError(f"--tables {directory}: no such directory (it holds TABLE.csv files: {', '.join(available)})")
    files = sorted(path for path in directory.iterdir() if path.suffix.lower() == ".csv")
    if not files:
        raise SimlabError(f"--tables {directory}: no CSV file (one per table: {', '.join(available)}; .csv)")
    tables: dict[str, Table[Any]] = {}
    for path in files:
        name = path.stem.removesuffix(ONLY)
        if name not in available:
            unknown = UnknownNameError("table", name, available)
            raise SimlabError(f"{shown_path(path)}: {unknown} (a file is named TABLE.csv)")
        if name in tables:
            raise SimlabError(f"{shown_path(path)}: table {name!r} is given twice in {directory}")
        shipped = available[name]
        rows = {} if path.stem.endswith(ONLY) else shipped.rows
        table = dataclasses.replace(shipped, rows=rows, check=None)  # the whole table is checked once, below
        for line, row, columns in _csv_rows(path):
            try:
                table = table.with_rows({row: columns}, owner=shipped.row_name)
            except SimlabError as exc:
                raise SimlabError(f"{shown_path(path)} line {line}: {row!r}: {exc}") from None
        if not len(table):
            raise SimlabError(f"{shown_path(path)}: no rows (a table needs at least one)")
        table = dataclasses.replace(table, source=str(path), check=shipped.check)
        if shipped.check is not None:
            try:
                shipped.check(table)
            except SimlabError as exc:
                raise SimlabError(f"{shown_path(path)}: {exc}") from None
        tables[name] = table
    return tables


def _csv_rows(path: Path) -> list[tuple[int, str, dict[str, str]]]:
    """The rows of a CSV file of one's own: line, name and the columns it gives (blank cells left out).

    Raises:
        SimlabError: For an unreadable file, no ``name`` column, a blank or repeated name, too many rows.
    """
    try:
        text = read_text(path, "table file")
    except FileError as exc:
        raise SimlabError(f"{shown_path(path)}: {exc.reason}") from None
    reader = csv.DictReader(io.StringIO(text))
    header = reader.fieldnames or []
    if "name" not in header:
        raise SimlabError(f"{shown_path(path)}: the header needs a name column (name, then the columns you give)")
    rows: list[tuple[int, str, dict[str, str]]] = []
    seen: set[str] = set()
    for record in reader:
        if len(rows) >= MOST_ROWS:
            raise SimlabError(f"{shown_path(path)}: more than {MOST_ROWS:,} rows")
        name = (record.get("name") or "").strip()
        if not name:
            raise SimlabError(f"{shown_path(path)} line {reader.line_num}: the row has no name")
        if name in seen:
            raise SimlabError(f"{shown_path(path)} line {reader.line_num}: duplicate name {name!r}")
        seen.add(name)
        columns = {k: v for k, v in record.items() if k not in ("name", None) and v is not None and v.strip() != ""}
        rows.append((reader.line_num, name, columns))
    return rows


def own_tables(available: Tables, given: Any, where: str = "--tables") -> dict[str, Table[Any]]:
    """One's own tables from a directory (a path) or a ``{TABLE: {ROW: {COLUMN: VALUE}}}`` mapping (None: none).

    Raises:
        SimlabError: As :func:`table_directory` or :func:`changed_tables`.
    """
    if given is None:
        return {}
    if isinstance(given, str | Path):
        return table_directory(available, given)
    return changed_tables(available, given, where)


def describe_tables(tables: Tables, shipped: Tables) -> dict[str, Any]:
    """For provenance: each table of one's own, its digest, and the rows it adds or changes."""
    described: dict[str, Any] = {}
    for name, table in tables.items():
        base = shipped.get(name)
        rows = {
            row_name: table.rows[row_name]
            for row_name in table.rows
            if base is None or row_name not in base.rows or base.rows[row_name] != table.rows[row_name]
        }
        described[name] = {
            "sha256": table.digest,
            "source": table.source,
            "replaces": base is not None and not set(base.rows) <= set(table.rows),
            "rows": {n: as_plain(r) for n, r in rows.items()},
        }
    return described
