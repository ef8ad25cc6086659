"""Data tables of the rule systems (docs/architecture.md, principle 4: rules are data).

A table is a CSV file under ``simlab/data/<system>/`` whose rows become frozen row
dataclasses (one per table, declared by the system). Rows are looked up by their exact
``name``; an unknown name fails with the closest valid names. Single columns of a row can
be overridden (``--set weapon.dice=3``), and with no row named the overrides define an
ad-hoc row, for which every column without a default must be given.
"""

from __future__ import annotations

import csv
import dataclasses
import functools
import hashlib
import io
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any, Generic, TypeAlias, TypeVar

from simlab.inputs.errors import SimlabError, UnknownNameError, spelled
from simlab.inputs.files import decode_text
from simlab.inputs.params import as_plain, build, check_order, coerce, field_specs

__all__ = ["Table", "Tables", "RowOverrides", "load_table", "table_loader"]

R = TypeVar("R")


@dataclass(frozen=True)
class Table(Generic[R]):
    """A named table of rows of one row dataclass.

    Attributes:
        name: The table's name (``weapons``).
        row_name: What one row is called in messages (``weapon``).
        row_type: The row dataclass; its first field is ``name``.
        rows: Rows by name, in file order.
        source: The file the rows came from.
        digest: SHA-256 of the file's bytes (for provenance).
        check: Checks what only the whole table can break (every d20 roll covered once...);
            raises :class:`~simlab.inputs.errors.SimlabError`. Run on the shipped table and on
            every table a variant changes.
    """

    name: str
    row_name: str
    row_type: type[R]
    rows: Mapping[str, R]
    source: str
    digest: str
    check: Callable[[Table[R]], None] | None = dataclasses.field(default=None, compare=False, repr=False)

    def __iter__(self) -> Iterator[R]:
        """Iterate over the rows in file order."""
        return iter(self.rows.values())

    def __len__(self) -> int:
        """Number of rows."""
        return len(self.rows)

    def row(self, name: str) -> R:
        """The row called ``name``.

        Raises:
            UnknownNameError: With the closest valid names.
        """
        try:
            return self.rows[name]
        except KeyError:
            raise UnknownNameError(self.row_name, name, self.rows) from None

    def resolve(self, name: str | None, overrides: Mapping[str, Any]) -> R:
        """A row with some columns overridden, or an ad-hoc row when ``name`` is None.

        Args:
            name: The row to start from, or None for an ad-hoc row.
            overrides: Column → text or typed value.

        Raises:
            UnknownNameError: For an unknown row or column.
            InvalidValueError: For a value that does not fit its column.
            SimlabError: When an ad-hoc row lacks a required column.
        """
        what = f"{self.row_name} column"
        owner = f"{self.row_name}."
        if name is None:
            values = {"name": f"custom {self.row_name}", **overrides}
            return build(self.row_type, values, what=what, owner=owner)
        base = self.row(name)
        if not overrides:
            return base
        merged = {**as_plain(base, natives=True), **overrides}
        specs = field_specs(self.row_type)
        for column in overrides:
            if column not in specs:
                raise UnknownNameError(what, column, specs)
        return build(self.row_type, merged, what=what, owner=owner)

    def with_rows(self, changes: Mapping[str, Mapping[str, Any]], owner: str = "") -> Table[R]:
        """A copy with some rows changed (the given columns) or added (every required column).

        Args:
            changes: Row name → column → value.
            owner: How the changes are named in errors (``variant.toml [tables.weapons."x"]``).

        Raises:
            UnknownNameError: For an unknown column.
            SimlabError: For a bad value, or a new row without a required column.
        """
        rows = dict(self.rows)
        specs = field_specs(self.row_type)
        what = f"{owner} column".strip()
        for name, columns in changes.items():
            for column in columns:
                if column not in specs or column == "name":
                    raise UnknownNameError(what, column, [c for c in specs if c != "name"])
            base = as_plain(rows[name], natives=True) if name in rows else {}
            rows[name] = build(self.row_type, {**base, **columns, "name": name}, what=what, owner=owner)
        canonical = json.dumps({k: dict(v) for k, v in changes.items()}, sort_keys=True, default=str)
        digest = hashlib.sha256((self.digest + canonical).encode()).hexdigest()
        changed = dataclasses.replace(self, rows=rows, digest=digest, source=f"{self.source} with changes")
        if self.check is not None:
            self.check(changed)
        return changed

    def resolve_required(self, name: str | None, overrides: Mapping[str, Any], system: str, also: str = "") -> R:
        """:meth:`resolve`, with a clear error when neither a name nor any column is given.

        Args:
            name: The row to start from, or None.
            overrides: Column → value.
            system: The system id (named in the hint to list the table).
            also: A further way to go without this row, for the message (``", or give melee_weapon"``).

        Raises:
            SimlabError: When both are missing; otherwise as :meth:`resolve`.
        """
        if name is None and not overrides:
            given = f"{spelled('--set')} ".lstrip()
            listed = f"see 'simlab tables {system} {self.name}'" if given else f"a row of the {self.name} table"
            raise SimlabError(
                f"no {self.row_name}: give {given}{self.row_name}=NAME ({listed}) "
                f"or define one with {given}{self.row_name}.COLUMN=VALUE{also}"
            )
        return self.resolve(name, overrides)

    def as_records(self) -> list[dict[str, Any]]:
        """The rows as JSON-friendly dicts."""
        return [as_plain(row) for row in self]


Tables: TypeAlias = Mapping[str, Table[Any]]
"""Tables by name (``weapons``): a variant's or a designer's, replacing the system's own."""

RowOverrides: TypeAlias = Mapping[str, Mapping[str, Any]]
"""Row input (``weapon``) → column → value: the columns a request changes in the rows it names."""


def load_table(
    package: str,
    filename: str,
    name: str,
    row_name: str,
    row_type: type[R],
    check: Callable[[Table[R]], None] | None = None,
) -> Table[R]:
    """Read a CSV data table shipped in ``package``.

    Args:
        package: The package holding the file (``simlab.data.hitech_tft``).
        filename: The CSV file's name.
        name: The table's name.
        row_name: What one row is called in messages.
        row_type: The row dataclass; the CSV header must name exactly its fields.
        check: What only the whole table can break (see :class:`Table`).

    Raises:
        SimlabError: Naming file, line and column for any malformed cell or header.
    """
    data = resources.files(package).joinpath(filename).read_bytes()
    text = decode_text(data, filename)
    specs = field_specs(row_type)
    reader = csv.DictReader(io.StringIO(text))
    header = reader.fieldnames or []
    if set(header) != set(specs):
        raise SimlabError(f"{filename}: header must be exactly {', '.join(specs)}; got {', '.join(header)}")
    rows: dict[str, R] = {}
    for record in reader:
        line = reader.line_num
        owner = f"{filename} line {line} column"
        values = {}
        for column, raw in record.items():
            spec = specs[column]
            if raw == "" and not spec.required and spec.kind not in ("int?", "float?"):
                continue
            values[column] = coerce(spec, raw, owner)
        try:
            check_order(row_type, values, owner)
            row = row_type(**values)
        except TypeError as exc:
            raise SimlabError(f"{filename} line {line}: {exc}") from None
        row_key: str = row.name  # type: ignore[attr-defined]
        if row_key in rows:
            raise SimlabError(f"{filename} line {line}: duplicate name {row_key!r}")
        rows[row_key] = row
    table = Table(name, row_name, row_type, rows, filename, hashlib.sha256(data).hexdigest(), check)
    if check is not None:
        try:
            check(table)
        except SimlabError as exc:
            raise SimlabError(f"{filename}: {exc}") from None
    return table


def table_loader(
    package: str,
    filename: str,
    name: str,
    row_name: str,
    row_type: type[R],
    check: Callable[[Table[R]], None] | None = None,
) -> Callable[[], Table[R]]:
    """A loader of one shipped table that reads the file once, on first use (arguments as :func:`load_table`)."""

    @functools.cache
    def load() -> Table[R]:
        return load_table(package, filename, name, row_name, row_type, check)

    load.__doc__ = f"The {name} table ({filename})."
    return load
