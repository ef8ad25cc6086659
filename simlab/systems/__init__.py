"""The rule systems simlab implements, by id."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from simlab.errors import SimlabError, UnknownNameError

if TYPE_CHECKING:
    from simlab.systems.base import AttackRequest, BattleRequest, DuelRequest, System

__all__ = [
    "AttackRequest",
    "DuelRequest",
    "BattleRequest",
    "System",
    "SYSTEM_NAMES",
    "get_system",
    "all_systems",
    "require_duels",
    "require_battles",
]

#: System id → module that defines ``SYSTEM``.
_MODULES = {
    "hitech_tft": "simlab.systems.hitech_tft",
    "striker": "simlab.systems.striker",
    "tyconian": "simlab.systems.tyconian",
    "space_v4": "simlab.systems.space_v4",
}
SYSTEM_NAMES = tuple(_MODULES)
#: The request and system types, imported on first use: naming the systems costs nothing.
_BASE = ("AttackRequest", "DuelRequest", "BattleRequest", "System")


def __getattr__(name: str) -> Any:
    """The types of :mod:`simlab.systems.base`, imported when first asked for (PEP 562)."""
    if name in _BASE:
        from simlab.systems import base

        return getattr(base, name)
    raise AttributeError(f"module 'simlab.systems' has no attribute {name!r}")


def get_system(name: str) -> System:
    """The system called ``name``.

    Raises:
        UnknownNameError: With the valid system ids.
    """
    if name not in _MODULES:
        raise UnknownNameError("system", name, _MODULES)
    import importlib

    module = importlib.import_module(_MODULES[name])
    system: System = module.SYSTEM
    return system


def all_systems() -> list[System]:
    """Every system, in id order."""
    return [get_system(name) for name in SYSTEM_NAMES]


def require_duels(system: System) -> None:
    """Raise unless ``system`` has duels, naming those that do.

    Raises:
        SimlabError: When the system has no duels.
    """
    if system.duel is None:
        with_duels = [s.name for s in all_systems() if s.duel is not None]
        raise SimlabError(f"{system.name} has no duels (systems with duels: {', '.join(with_duels)})")


def require_battles(system: System) -> None:
    """Raise unless ``system`` fights battles (ENG-4), naming those that do.

    Raises:
        SimlabError: When the system has no battles.
    """
    if system.battle is None:
        with_battles = [s.name for s in all_systems() if s.battle is not None]
        raise SimlabError(f"{system.name} has no battles yet (systems with battles: {', '.join(with_battles)})")
