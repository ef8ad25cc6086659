"""The benchmark workloads of Space Combat V4 (``simlab bench``): its central mechanics on fixed scenarios."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from simlab.engine.rng import stream_key
from simlab.systems.hitech_tft.oracle import icepool_available
from simlab.systems.space_v4 import kernels as space_kernels
from simlab.systems.space_v4 import rules as space_rules
from simlab.systems.space_v4.duel import resolve_duel as space_resolve_duel
from simlab.systems.space_v4.exact import exact_attack as space_exact
from simlab.systems.space_v4.reference import icepool_applied, numpy_attack_tallies
from simlab.systems.space_v4.resolve import resolve as space_resolve
from simlab.systems.space_v4.sample import attack_tallies, duel_tallies, python_attack_tallies, python_duel_tallies
from simlab.systems.workloads import Samplers, Workload, best_seconds, samplers

__all__ = ["WORKLOADS", "workloads"]


def _space_attack(scenario: space_rules.Scenario) -> Callable[[], Samplers]:
    """One Space Combat V4 attack: its kernel, numpy twin and interpreted twin."""

    def block(subject: Any, seed: int) -> Any:
        return partial(attack_tallies, subject, stream_key(seed))

    def prepare() -> Samplers:
        attack = space_resolve(scenario, space_rules.Rules())
        return samplers(attack, block, numpy_attack_tallies, python_attack_tallies, (2, space_kernels.ATTACK_DRAWS))

    return prepare


def _space_attack_exact(scenario: space_rules.Scenario) -> Callable[[], dict[str, Any]]:
    """The exact applied hits of one attack, and the same distribution by icepool."""

    def timing() -> dict[str, Any]:
        rules = space_rules.Rules()
        seconds = best_seconds(lambda: space_exact(space_resolve(scenario, rules)), 5)
        icepool_seconds = None
        if icepool_available():
            attack = space_resolve(scenario, rules)
            icepool_seconds = best_seconds(lambda: icepool_applied(attack).denominator(), 1)
        return {"seconds": seconds, "icepool_seconds": icepool_seconds, "oracle": "icepool"}

    return timing


def _space_duel() -> Samplers:
    duel = space_resolve_duel(SPACE_DUEL[0], SPACE_DUEL[1], space_rules.Rules(), ({}, {}))

    def block(subject: Any, seed: int) -> Any:
        return partial(duel_tallies, subject, stream_key(seed))

    return samplers(duel, block, None, python_duel_tallies, (2, space_kernels.DUEL_DRAWS))


#: Space Combat V4: the cruiser's nine beam lasers, one roll, at a frigate behind sand (SPC-3, SPC-4).
SPACE_TURRET_GROUP = space_rules.Scenario(weapon="beam", attacker="cruiser", defender="frigate", sand=True)


#: Space Combat V4: the frigate's nine missiles against the patrol cruiser's point defence (SPC-5).
SPACE_MISSILES = space_rules.Scenario(weapon="missile", attacker="frigate", defender="patrol cruiser")


#: Space Combat V4: a patrol cruiser closing on a mercenary cruiser that holds three lasers back (SPC-7).
SPACE_DUEL = ({"ship": "patrol cruiser", "range_policy": "close"}, {"ship": "mercenary cruiser", "pd_hold": 3})

#: What ``simlab bench`` times for this system.
WORKLOADS = (
    Workload(
        "space_turret_group",
        "space_v4",
        _space_attack(SPACE_TURRET_GROUP),
        exact=_space_attack_exact(SPACE_TURRET_GROUP),
    ),
    Workload(
        "space_missile_flight", "space_v4", _space_attack(SPACE_MISSILES), exact=_space_attack_exact(SPACE_MISSILES)
    ),
    Workload("space_duel", "space_v4", _space_duel, scale=0.01),
)


def workloads() -> tuple[Workload, ...]:
    """The workloads ``simlab bench`` times for this system."""
    return WORKLOADS
