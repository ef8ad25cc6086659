"""The rule systems simlab implements, by id."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from simlab.errors import SimlabError, UnknownNameError

if TYPE_CHECKING:
    from simlab.systems.base import BattleRequest, DuelRequest, Question, ScenarioRequest, System

__all__ = [
    "ScenarioRequest",
    "DuelRequest",
    "BattleRequest",
    "System",
    "SYSTEM_NAMES",
    "get_system",
    "all_systems",
    "Question",
    "question_of",
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
_BASE = ("ScenarioRequest", "DuelRequest", "BattleRequest", "System", "Question")


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


def question_of(system: str | System, kind: str) -> Question:
    """The question of ``kind`` that ``system`` (a system or its id) answers.

    Raises:
        UnknownNameError: For an unknown system, or a kind the system does not ask (with those it does).
        SimlabError: For a system without duels or battles, naming the systems that have them.
    """
    chosen = get_system(system) if isinstance(system, str) else system
    if chosen.asks(kind):
        return chosen.questions[kind]
    if kind in ("duel", "battle"):
        having = ", ".join(s.name for s in all_systems() if s.asks(kind))
        yet = " yet" if kind == "battle" else ""
        raise SimlabError(f"{chosen.name} has no {kind}s{yet} (systems with {kind}s: {having})")
    raise UnknownNameError(f"{chosen.name} question", kind, chosen.kinds)
