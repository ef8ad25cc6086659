"""The benchmark workloads of Striker (``simlab bench``): its central mechanics on fixed scenarios."""

from __future__ import annotations

from functools import partial
from typing import Any

from simlab.engine.rng import stream_key
from simlab.inputs.battles import battle_from_data
from simlab.systems import BattleRequest, battles, duels
from simlab.systems.striker import kernels as striker_kernels
from simlab.systems.striker import reference as striker_reference
from simlab.systems.striker import rules as striker_rules
from simlab.systems.striker import sample as striker_sample
from simlab.systems.striker.battle import battle_tallies as striker_battle_tallies
from simlab.systems.striker.battle import python_battle_tallies as striker_python_battle_tallies
from simlab.systems.striker.battle import resolve_battle as striker_resolve_battle
from simlab.systems.striker.duel import resolve_duel
from simlab.systems.striker.exact import exact_outcome as striker_exact
from simlab.systems.striker.resolve import resolve as striker_resolve
from simlab.systems.workloads import Samplers, Workload, best_seconds, samplers

__all__ = ["WORKLOADS", "workloads"]


def _striker_burst() -> Samplers:
    attack = striker_resolve(STRIKER_BURST, striker_rules.Rules())
    return samplers(
        attack,
        striker_sample.block_function,
        striker_reference.numpy_attack_block,
        striker_reference.python_attack_block,
        (1, striker_kernels.DRAWS),
    )


def _striker_burst_exact() -> dict[str, Any]:
    seconds = best_seconds(lambda: striker_exact(striker_resolve(STRIKER_BURST, striker_rules.Rules())), 5)
    return {"seconds": seconds, "icepool_seconds": None, "oracle": None}


def _striker_duel() -> Samplers:
    duel = resolve_duel(STRIKER_DUEL[0], STRIKER_DUEL[1], striker_rules.Rules(), ({}, {}))
    return samplers(
        duel,
        striker_sample.duel_block_function,
        striker_reference.numpy_duel_block,
        striker_reference.python_duel_block,
        (2, duels.DUEL_DRAWS),
    )


def _striker_battle() -> Samplers:
    resolved = striker_resolve_battle(BattleRequest(battle_from_data(STRIKER_BATTLE, "striker_4_against_4")))

    def block(subject: Any, seed: int) -> Any:
        return partial(striker_battle_tallies, subject, stream_key(seed))

    return samplers(resolved, block, None, striker_python_battle_tallies, (0, battles.DRAWS))


#: Striker: a half-clip burst of an assault rifle into cloth (STR-3, STR-4, STR-6).
STRIKER_BURST = striker_rules.Scenario(weapon="assault rifle", mode="half_clip", armor="cloth", skill=2)


#: Striker: assault rifle bursts against a rifleman, both in cloth (STR-11.2).
STRIKER_DUEL = (
    {"weapon": "assault rifle", "mode": "burst5", "armor": "cloth"},
    {"weapon": "rifle", "armor": "cloth", "skill": 2},
)


#: Striker: four assault riflemen firing bursts against two riflemen and two submachinegunners (ENG-4.1).
STRIKER_BATTLE = {
    "system": "striker",
    "range_band": "medium",
    "a": {"groups": [{"count": 4, "weapon": "assault rifle", "mode": "burst5", "armor": "cloth"}]},
    "b": {
        "doctrine": {"targets": "focus"},
        "groups": [
            {"count": 2, "weapon": "rifle", "armor": "mesh", "skill": 2},
            {"count": 2, "weapon": "submachinegun", "mode": "burst5", "armor": "mesh"},
        ],
    },
}

#: What ``simlab bench`` times for this system.
WORKLOADS = (
    Workload("striker_half_clip_burst", "striker", _striker_burst, exact=_striker_burst_exact),
    Workload("striker_duel", "striker", _striker_duel, scale=0.1),
    Workload("striker_battle_4v4", "striker", _striker_battle, scale=0.02),
)


def workloads() -> tuple[Workload, ...]:
    """The workloads ``simlab bench`` times for this system."""
    return WORKLOADS
