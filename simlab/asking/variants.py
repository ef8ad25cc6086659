"""House-rule variants: TOML files of rule parameters and table rows that differ from the spec.

A variant names its system and changes any rule parameter and any column of any table row,
or adds rows::

    system = "hitech_tft"
    name = "tft_extra_hit_every_2"
    description = "One more autofire hit for every 2 points under AdjDX instead of 3"

    [rules]
    autofire_step = 2

    [tables.weapons."assault rifle"]     # change columns of a row
    dice = 3

    [tables.weapons."needle rifle"]      # or add a row (every column without a default)
    range_class = "rifle"
    dice = 2

Applying a variant never edits code or the shipped tables: requests carry the variant's
rules and changed tables. Every unknown name fails with the valid ones and a suggestion.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from simlab.inputs.errors import SimlabError, UnknownNameError, shown_path
from simlab.inputs.files import FileError, parse_toml, read_text
from simlab.inputs.own_tables import changed_tables
from simlab.inputs.params import NAME_RULE, as_plain, build, valid_name
from simlab.inputs.tables import Tables
from simlab.systems import BattleRequest, DuelRequest, ScenarioRequest, get_system

__all__ = ["Variant", "VariantError", "load_variant", "parse_variant", "BASE"]

Request = TypeVar("Request", bound=ScenarioRequest | DuelRequest | BattleRequest)

#: The name of the unchanged rules in tables that list variants.
BASE = "base"
_KEYS = ("system", "name", "description", "rules", "tables")


class VariantError(SimlabError):
    """A mistake in a variant file, naming the file and the key."""

    def __init__(self, path: Path, key: str, message: str) -> None:
        super().__init__(f"{shown_path(path)}: {key}: {message}" if key else f"{shown_path(path)}: {message}")


@dataclass(frozen=True, eq=False)
class Variant:
    """A validated variant.

    Attributes:
        path: The file.
        system: System id.
        name: Short name (a column value in tables of results).
        description: What the house rule is.
        rules: Rule parameter → value (validated).
        table_changes: Table → row → column → value, as written.
        tables: The changed tables, ready to replace the system's.
    """

    path: Path
    system: str
    name: str
    description: str
    rules: Mapping[str, Any]
    table_changes: Mapping[str, Mapping[str, Mapping[str, Any]]]
    tables: Tables

    def apply(self, request: Request) -> Request:
        """The request under this variant; its own ``rules`` still win over the variant's.

        The variant's row changes apply on top of the request's own rows (a designer's tables).
        """
        tables = {**request.tables, **self.tables}
        for name in self.tables.keys() & request.tables.keys():
            tables[name] = changed_tables(request.tables, {name: self.table_changes[name]}, str(self.path))[name]
        return dataclasses.replace(request, rules={**self.rules, **request.rules}, tables=tables, variant=self.name)

    def describe(self) -> dict[str, Any]:
        """What the variant changes, for provenance."""
        return {
            "name": self.name,
            "file": str(self.path),
            "rules": dict(self.rules),
            "tables": {t: {r: dict(c) for r, c in rows.items()} for t, rows in self.table_changes.items()},
            "tables_sha256": {name: table.digest for name, table in self.tables.items()},
        }


def load_variant(
    path: Path | str, system: str | None = None, tables: Tables | None = None
) -> Variant:
    """Read and validate a variant file.

    Args:
        path: The TOML file.
        system: The system the variant must be for (None: any).
        tables: One's own tables, whose rows the variant may change too (None: the shipped ones only).

    Raises:
        VariantError: Naming the file and key, with the valid names.
    """
    path = Path(path)
    try:
        text = read_text(path, "variant file")
    except FileError as exc:
        raise VariantError(path, "", exc.reason) from None
    return parse_variant(text, path, system, tables)


def parse_variant(
    text: str, path: Path | str, system: str | None = None, tables: Tables | None = None
) -> Variant:
    """Validate a variant's TOML text (a file's, or an upload's, which is never written).

    Args:
        text: The TOML.
        path: What errors name (the file, or the upload's file name).
        system: The system the variant must be for (None: any).
        tables: One's own tables, whose rows the variant may change too (None: the shipped ones only).

    Raises:
        VariantError: Naming the file and key, with the valid names.
    """
    path = Path(path)
    try:
        data = parse_toml(text, path)
    except FileError as exc:
        raise VariantError(path, "", exc.reason if exc.line is None else f"line {exc.line}: {exc.reason}") from None
    for key in data:
        if key not in _KEYS:
            raise VariantError(path, key, str(UnknownNameError("key", key, _KEYS)))
    for key in ("system", "name"):
        if not isinstance(data.get(key), str):
            raise VariantError(path, key, "missing or not text (every variant needs system and name)")
    try:
        chosen = get_system(data["system"])
    except UnknownNameError as exc:
        raise VariantError(path, "system", str(exc)) from None
    if system is not None and chosen.name != system:
        raise VariantError(path, "system", f"the variant is for {chosen.name!r}, the question for {system!r}")
    if not valid_name(data["name"]) or data["name"] == BASE:
        raise VariantError(path, "name", f"{data['name'][:60]!r} is not a valid variant name ({NAME_RULE}; not 'base')")
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        raise VariantError(path, "rules", "expected a table [rules]")
    try:
        checked: Any = build(chosen.rules_type, rules, what="rule parameter", owner="")
    except SimlabError as exc:
        raise VariantError(path, "[rules]", str(exc)) from None
    plain = as_plain(checked, natives=True)
    changes = data.get("tables", {})
    try:
        changed = changed_tables({**chosen.tables(), **(tables or {})}, changes, str(path))
    except SimlabError as exc:
        raise VariantError(path, "", str(exc).removeprefix(f"{shown_path(path)}: ")) from None
    return Variant(
        path=path,
        system=chosen.name,
        name=data["name"],
        description=str(data.get("description", "")),
        rules={name: plain[name] for name in rules},
        table_changes=changes,
        tables=changed,
    )
