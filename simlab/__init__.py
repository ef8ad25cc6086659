"""simlab: measure combat rules of Traveller-family games, exactly and by sampling.

Public API::

    import simlab
    result = simlab.attack("hitech_tft", weapon="assault rifle", mode="four", range_m=20)
    result.metrics["p_hit"]
    simlab.duel("space_v4", a={"ship": "frigate"}, b={"ship": "cruiser"}).metrics["p_a_wins"]

    run = simlab.run("experiments/tft_autofire_modes.toml")   # tidy pandas tables
    run.table

:mod:`simlab.output.pivots` pivots those tables and :mod:`simlab.output.plots` charts them.
"""

from __future__ import annotations

__version__ = "0.1.0"

from simlab.api import attack, duel, run
from simlab.engine.results import AttackResult
from simlab.inputs.errors import SimlabError
from simlab.systems import AttackRequest, System, get_system

__all__ = [
    "__version__",
    "attack",
    "duel",
    "run",
    "SimlabError",
    "AttackResult",
    "AttackRequest",
    "System",
    "get_system",
]
