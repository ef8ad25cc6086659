"""What every view of one ``simlab serve`` application shares: its limits and the files it may use."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from simlab.inputs.errors import SimlabError
from simlab.inputs.variants import load_variant
from simlab.systems import System
from simlab.web.cache import AnswerCache

__all__ = ["Site", "variant_systems"]


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
    """

    max_trials: int
    variants: Mapping[str, Path]
    variant_systems: Mapping[str, str]
    battles: Mapping[str, tuple[str, Path]]
    systems: Sequence[System]
    answers: AnswerCache = field(default_factory=AnswerCache)


def variant_systems(files: Mapping[str, Path]) -> dict[str, str]:
    """The system of each variant file (files that do not load are left out)."""
    found = {}
    for name, path in files.items():
        with contextlib.suppress(SimlabError):
            found[name] = load_variant(path).system
    return found
