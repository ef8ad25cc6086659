"""What every system offers, as plain data: ``simlab systems --json`` and the generated docs share it.

One description per system from the registry: its scenario inputs and rule parameters
(name, type, default, valid range, meaning), tables, metrics, distributions, duel side and
further questions. :func:`catalogue` describes every system; the description is a pure
function of simlab's files, so it is kept in the user's cache (``$SIMLAB_CACHE``, else
``$XDG_CACHE_HOME/simlab`` or ``~/.cache/simlab``) under a key of the version and of every file's
size and modification time, and ``simlab systems`` answers without importing a system.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simlab import about
from simlab.inputs.params import describe

if TYPE_CHECKING:
    from simlab.systems.base import Question, System

__all__ = ["describe_system", "describe_question", "catalogue"]


def catalogue() -> list[dict[str, Any]]:
    """The description of every system, in id order (from the cache when simlab's files are unchanged)."""
    path: Path | None = None
    try:
        path = _cache_path()
        return list(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        pass
    from simlab.systems import all_systems

    found = [describe_system(system) for system in all_systems()]
    if path is not None:
        _store(found, path)
    return found


def _cache_path() -> Path:
    """Where the catalogue of this version and these files is kept."""
    root = Path(about.__file__).parent
    key = hashlib.sha256(about.__version__.encode())
    for path in sorted(root.rglob("*")):
        if path.suffix in (".py", ".csv", ".json", ".toml") and "__pycache__" not in path.parts:
            info = path.stat()
            key.update(f"{path.relative_to(root)}:{info.st_size}:{info.st_mtime_ns};".encode())
    base = os.environ.get("SIMLAB_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "simlab"
    )
    return Path(base) / f"systems-{key.hexdigest()[:20]}.json"


def _store(found: list[dict[str, Any]], path: Path) -> None:
    """Keep the catalogue at ``path`` for the next command (silently not, where the cache cannot be written)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, delete=False, suffix=".tmp") as out:
            json.dump(found, out)
        os.replace(out.name, path)
    except OSError:
        pass


#: The kinds every description lists at the system's top: their distributions are the system's.
_FIGHTS = ("attack", "duel", "battle")


def describe_system(system: System) -> dict[str, Any]:
    """Everything the registry knows of one system."""
    distributions: dict[str, str] = {}
    for kind in _FIGHTS:
        if system.asks(kind):
            distributions.update(system.questions[kind].distributions)
    further = {kind: describe_question(q, system.spec) for kind, q in system.questions.items() if kind not in _FIGHTS}
    return {
        "name": system.name,
        "title": system.title,
        "spec": system.spec,
        "scenario": describe(system.attack.inputs_type),
        "rules": describe(system.rules_type),
        "tables": list(system.tables()),
        "metrics": dict(system.attack.metrics),
        "distributions": distributions,
        **({"duel_side": describe(system.questions["duel"].inputs_type)} if system.asks("duel") else {}),
        **({"questions": further} if further else {}),
    }


def describe_question(question: Question, spec: str = "") -> dict[str, Any]:
    """The description of one of a system's further questions."""
    return {
        "title": question.title,
        "spec": spec,
        "scenario": describe(question.inputs_type),
        "metrics": dict(question.metrics),
        "distributions": dict(question.distributions),
        "sampled_only": question.sampled_only,
    }
