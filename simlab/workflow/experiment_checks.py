"""How an experiment file is checked: every mistake one ``FILE:LINE: KEY: what is wrong`` line."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from simlab.inputs.errors import SimlabError, UnknownNameError, shown_path
from simlab.inputs.files import described

__all__ = [
    "SCALARS",
    "ExperimentError",
    "key_lines",
    "MissingExtraError",
    "Checker",
    "read_strings",
    "read_table",
]


SCALARS = (str, int, float, bool)


class ExperimentError(SimlabError):
    """A mistake in an experiment file, located by file, line and key."""

    def __init__(self, path: Path, line: int | None, key: str, message: str) -> None:
        where = f"{shown_path(path)}:{line}" if line else shown_path(path)
        super().__init__(f"{where}: {key}: {message}" if key else f"{where}: {message}")
        self.path, self.line, self.key = path, line, key


def key_lines(text: str) -> dict[tuple[str, str], int]:
    """Line of each ``key =`` by table (``""`` for the top level, ``charts.N`` for charts)."""
    lines: dict[tuple[str, str], int] = {}
    table = ""
    charts = -1
    header = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
    key = re.compile(r"""^\s*("([^"]*)"|'([^']*)'|[A-Za-z0-9_.\-]+)\s*=""")
    for number, line in enumerate(text.splitlines(), start=1):
        if match := header.match(line):
            name = match.group(2).strip().strip("\"'")
            if match.group(1) == "[[":
                charts += 1
                name = f"{name}.{charts}"
            table = name
            lines.setdefault((table, ""), number)
        elif match := key.match(line):
            name = match.group(2) or match.group(3) or match.group(1)
            lines.setdefault((table, name), number)
    return lines


class MissingExtraError(ExperimentError):
    """An experiment that needs an optional part of simlab that is not installed (SALib for a sensitivity)."""


class Checker:
    """Validates one file's values, raising :class:`ExperimentError` with its line."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.lines = key_lines(text)

    def fail(self, table: str, key: str, message: str) -> ExperimentError:
        """The error of ``key`` of ``table``, at its line."""
        line = self.lines.get((table, key)) or self.lines.get((table, ""))
        label = f"[{table.split('.')[0]}] {key}".rstrip() if table else key
        return ExperimentError(self.path, line, label, message)

    def unknown(self, table: str, key: str, kind: str, valid: Any, name: str | None = None) -> ExperimentError:
        """An unknown-name error (with suggestions) located at ``table``/``key``."""
        return self.fail(table, key, str(UnknownNameError(kind, key if name is None else name, valid)))

    def typed(self, data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], what: str) -> Any:
        """The value of ``key``, refused unless of ``kind`` (true and false are not numbers)."""
        value = data[key]
        if isinstance(value, bool) and kind in (int, float, (int, float)):
            raise self.fail("", key, f"expected {what}, got {described(value)}")
        if not isinstance(value, kind):
            raise self.fail("", key, f"expected {what}, got {described(value)}")
        return value


def read_strings(check: Checker, data: Mapping[str, Any], key: str) -> list[str]:
    """A list of text values (empty when absent)."""
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise check.fail("", key, f"expected a list of text values, got {described(value)}")
    return value


def read_table(check: Checker, data: Mapping[str, Any], key: str) -> dict[str, Any]:
    """A table ``[KEY]`` (empty when absent)."""
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise check.fail("", key, f"expected a table [{key}], got {described(value)}")
    return dict(value)
