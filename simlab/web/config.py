"""What every view of one ``simlab serve`` application shares: its limits and the files it may use."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simlab.asking.variants import load_variant
from simlab.inputs.errors import SimlabError
from simlab.inputs.own_tables import table_directory
from simlab.inputs.tables import Table, Tables
from simlab.systems import System
from simlab.web.cache import AnswerCache

__all__ = ["Site", "variant_systems", "own_tables_by_system", "TEMPLATES"]

#: The templates a page renders from: its own (``simlab/web/templates``) over the reports' they extend.
TEMPLATES = ("simlab.output", "simlab.web")


@dataclass(frozen=True)
class Site:
    """One application's settings, systems and files.

    Attributes:
        max_trials: The most trials one request may sample.
        variants: The variant files a page may choose by name.
        variant_systems: The system of each of those variants.
        battles: The battle files the Battle view starts from, by name, with their systems.
        systems: Every system, in id order.
        answers: The answers computed, each kept for the page's charts, CSV and JSON.
        own: One's own tables by system (``simlab serve --tables DIR``: a folder per system).
    """

    max_trials: int
    variants: Mapping[str, Path]
    variant_systems: Mapping[str, str]
    battles: Mapping[str, tuple[str, Path]]
    systems: Sequence[System]
    answers: AnswerCache = field(default_factory=AnswerCache)
    own: Mapping[str, Tables] = field(default_factory=dict)

    def tables_of(self, system: System) -> dict[str, Table[Any]]:
        """The tables a page of ``system`` offers: the shipped ones with one's own rows."""
        return {**system.tables(), **self.own.get(system.name, {})}


def own_tables_by_system(directory: Path | None, systems: Sequence[System]) -> dict[str, dict[str, Table[Any]]]:
    """One's own tables of each system from ``DIR/SYSTEM/TABLE.csv`` (``simlab serve --tables DIR``).

    Raises:
        SimlabError: For a directory with no folder of a system, or a table file that does not read.
    """
    if directory is None:
        return {}
    if not directory.is_dir():
        raise SimlabError(f"--tables {directory}: no such directory (it holds a folder per system)")
    names = {system.name: system for system in systems}
    folders = [path for path in sorted(directory.iterdir()) if path.is_dir()]
    unknown = [path.name for path in folders if path.name not in names]
    if unknown or not folders:
        raise SimlabError(
            f"--tables {directory}: a folder per system ({', '.join(names)}), each of TABLE.csv files; "
            + (f"not {unknown[0]!r}" if unknown else "none found")
        )
    return {path.name: table_directory(names[path.name].tables(), path) for path in folders}


def variant_systems(files: Mapping[str, Path]) -> dict[str, str]:
    """The system of each variant file (files that do not load are left out)."""
    found = {}
    for name, path in files.items():
        with contextlib.suppress(SimlabError):
            found[name] = load_variant(path).system
    return found
