"""The settings of a designer's project (``simlab.toml`` in the folder simlab runs in): read by every command.

``simlab init`` writes it. Inside the project, a command without ``--tables`` asks with the
project's own rows (``tables/SYSTEM/TABLE.csv``), as ``--tables tables/SYSTEM`` would, and
``baseline`` and ``regress`` keep the baselines where it says.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from simlab.inputs.errors import SimlabError
from simlab.inputs.files import described, read_toml

__all__ = ["SETTINGS", "Project", "project_here", "project_tables"]

#: The settings file of a project, in the folder simlab runs in.
SETTINGS = Path("simlab.toml")
_KEYS = ("systems", "tables", "baselines")


@dataclass(frozen=True)
class Project:
    """A project's settings.

    Attributes:
        systems: The systems it uses.
        tables: The folder of its own rows (a folder per system), or None.
        baselines: Where its baselines are kept, or None (``results/baselines``).
    """

    systems: tuple[str, ...] = ()
    tables: Path | None = None
    baselines: Path | None = None


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
    return Project(tuple(systems), folders["tables"], folders["baselines"])


def project_tables(system: str) -> Path | None:
    """The project's own rows of ``system`` (``tables/SYSTEM``), where the project has any; else None."""
    project = project_here()
    if project is None or project.tables is None:
        return None
    folder = project.tables / system
    return folder if folder.is_dir() and any(folder.glob("*.csv")) else None
