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

import time

#: When simlab was first imported: the whole job's time that commands print counts from here.
STARTED = time.perf_counter()

__version__ = "0.1.0"

from simlab.api import attack, battle, duel, run  # noqa: E402 (after STARTED)
from simlab.engine.results import AttackResult  # noqa: E402 (after STARTED)
from simlab.inputs.errors import SimlabError  # noqa: E402 (after STARTED)
from simlab.systems import AttackRequest, System, get_system  # noqa: E402 (after STARTED)

__all__ = [
    "__version__",
    "attack",
    "duel",
    "battle",
    "run",
    "SimlabError",
    "AttackResult",
    "AttackRequest",
    "System",
    "get_system",
]
