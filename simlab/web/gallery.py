"""The questions designers ask, in words, each a link to its page filled in (``gallery.toml``).

The home page lists them all and each system's pages list its own; the views of several answers
(Sweep, Compare, Balance) open on their system's question of ``[opening]`` when nothing is chosen.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

__all__ = ["GalleryQuestion", "gallery", "opening_items", "GALLERY"]

#: The gallery's file.
GALLERY = Path(__file__).with_name("gallery.toml")


@dataclass(frozen=True)
class GalleryQuestion:
    """One question of the gallery: its words, the page (``KIND/SYSTEM`` or ``VIEW/SYSTEM``) and its inputs."""

    ask: str
    path: str
    query: tuple[tuple[str, str], ...]

    @property
    def system(self) -> str:
        """The system the question is asked of."""
        return self.path.rsplit("/", 1)[1]

    @property
    def href(self) -> str:
        """The page's address, with the question's inputs."""
        return f"/{self.path}?{urlencode(self.query)}"


@functools.cache
def _read() -> dict[str, object]:
    return tomllib.loads(GALLERY.read_text(encoding="utf-8"))


def gallery(system: str | None = None) -> list[GalleryQuestion]:
    """The gallery's questions (those of ``system`` only, when given), in the file's order."""
    entries = _read()["question"]
    assert isinstance(entries, list)
    found = [GalleryQuestion(e["ask"], e["path"], tuple((k, str(v)) for k, v in e["query"].items())) for e in entries]
    return [q for q in found if system is None or q.system == system]


def opening_items(system: str, view: str) -> Sequence[tuple[str, str]]:
    """The inputs a view of ``system`` opens on when its address gives none (none where the gallery has none)."""
    opening = _read().get("opening", {})
    assert isinstance(opening, dict)
    return tuple((k, str(v)) for k, v in opening.get(system, {}).get(view, {}).items())
