"""The settings of a designer's project (``simlab.toml`` in the folder simlab runs in): read by every command.

``simlab init`` writes it. Inside the project, a command without ``--tables`` asks with the
project's own rows (``tables/SYSTEM/TABLE.csv``), as ``--tables tables/SYSTEM`` would; a question
asked without ``--trials`` samples the project's ``trials``; ``baseline`` and ``regress`` keep the
baselines where it says. An experiment states its own trials.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from simlab.inputs.errors import SimlabError
from simlab.inputs.files import described, read_toml

__all__ = ["SETTINGS", "Project", "project_here", "project_tables", "project_trials"]

#: The settings file of a project, in the folder simlab runs in.
SETTINGS = Path("simlab.toml")
_KEYS = ("systems", "tables", "baselines", "trials")


@dataclass(frozen=True)
class Project:
    """A project's settings.

    Attributes:
        systems: The systems it uses.
        tables: The folder of its own rows (a folder per system), or None.
        baselines: Where its baselines are kept, or None (``results/baselines``).
        trials: The trials of a question asked without ``--trials``, or None (the question's own).
    """

    systems: tuple[str, ...] = ()
    tables: Path | None = None
    baselines: Path | None = None
    trials: int | None = None


def project_here() -> Project | None:
    """The project simlab runs in (``./simlab.toml``), or None outside one.

    Raises:
        SimlabError: For a settings file that does not read, in one line naming it and the key.
    """
    if not SETTINGS.is_file():
        return None
    data, _ = read_toml(SETTINGS, "project settings file")
    for key in data:
        if key not in _KEYS:
            raise SimlabError(f"{SETTINGS}: unknown key {key!r} (valid: {', '.join(_KEYS)})")
    folders = {}
    for key in ("tables", "baselines"):
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            raise SimlabError(f"{SETTINGS}: {key}: expected a folder, got {described(value)}")
        folders[key] = Path(value) if value else None
    systems = data.get("systems", [])
    if not isinstance(systems, list) or not all(isinstance(s, str) for s in systems):
        raise SimlabError(f"{SETTINGS}: systems: expected a list of system names, got {described(systems)}")
    trials = data.get("trials")
    if trials is not None and (isinstance(trials, bool) or not isinstance(trials, int) or trials < 1):
        raise SimlabError(f"{SETTINGS}: trials: expected a whole number from 1, got {described(trials)}")
    return Project(tuple(systems), folders["tables"], folders["baselines"], trials)


def project_tables(system: str) -> Path | None:
    """The project's own rows of ``system`` (``tables/SYSTEM``), where the project has any; else None."""
    project = project_here()
    if project is None or project.tables is None:
        return None
    folder = project.tables / system
    return folder if folder.is_dir() and any(folder.glob("*.csv")) else None


def project_trials(trials: int | None) -> int | None:
    """The trials given, else the project's (``trials`` of ``simlab.toml``), else None (the question's own)."""
    if trials is not None:
        return trials
    project = project_here()
    return project.trials if project is not None else None
