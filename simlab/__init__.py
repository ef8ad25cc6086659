"""simlab: measure combat rules of Traveller-family games, exactly and by sampling.

Public API::

    from simlab import AttackRequest, get_system
    result = get_system("hitech_tft").attack(
        AttackRequest(scenario={"weapon": "assault rifle", "mode": "four"}, method="exact")
    )
    result.metrics["p_hit"]
"""

from __future__ import annotations

__version__ = "0.1.0"

from simlab.errors import SimlabError
from simlab.results import AttackResult
from simlab.systems import AttackRequest, System, get_system

__all__ = ["__version__", "SimlabError", "AttackResult", "AttackRequest", "System", "get_system"]
