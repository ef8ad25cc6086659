"""simlab: measure combat rules of Traveller-family games, exactly and by sampling.

Public API::

    import simlab
    result = simlab.attack("hitech_tft", weapon="assault rifle", mode="four", range_m=20)
    result.metrics["p_hit"]
    simlab.duel("space_v4", a={"ship": "frigate"}, b={"ship": "cruiser"}).metrics["p_a_wins"]

    run = simlab.run("experiments/tft_autofire_modes.toml")   # tidy pandas tables
    run.table

    simlab.solve("hitech_tft", find="dx", within="6..20", target="p_hit=0.75",
                 weapon="assault rifle", range_m=20).answer.value      # 15

:mod:`simlab.output.pivots` pivots those tables and :mod:`simlab.output.plots` charts them.
"""

from __future__ import annotations

from typing import Any

from simlab.about import STARTED, __version__  # noqa: F401 - the public names of the package

__all__ = [
    "__version__",
    "attack",
    "duel",
    "battle",
    "run",
    "solve",
    "sensitivity",
    "tournament",
    "analyse",
    "SimlabError",
    "Answer",
    "ScenarioRequest",
    "System",
    "get_system",
]

#: Where each name of the public API lives: imported when first used, so that ``import simlab``
#: (and every command, which imports only what it runs) does not load every engine up front.
_PUBLIC = {
    "attack": "simlab.api",
    "duel": "simlab.api",
    "battle": "simlab.api",
    "run": "simlab.api",
    "solve": "simlab.api",
    "sensitivity": "simlab.api",
    "tournament": "simlab.api",
    "analyse": "simlab.api",
    "Answer": "simlab.engine.results",
    "SimlabError": "simlab.inputs.errors",
    "ScenarioRequest": "simlab.systems",
    "System": "simlab.systems",
    "get_system": "simlab.systems",
}
#: The names these had before (``AttackResult`` answered duels and battles too): still served.
_FORMERLY = {"AttackResult": "Answer", "AttackRequest": "ScenarioRequest"}


def __getattr__(name: str) -> Any:
    """The public API, imported on first use (PEP 562)."""
    now = _FORMERLY.get(name, name)
    if now in _PUBLIC:
        import importlib

        value = getattr(importlib.import_module(_PUBLIC[now]), now)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'simlab' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
