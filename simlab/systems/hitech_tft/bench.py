"""The benchmark workloads of Revised HiTech TFT (``simlab bench``): its central mechanics on fixed scenarios."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simlab.systems.hitech_tft import kernels
from simlab.systems.hitech_tft.exact import exact_outcome
from simlab.systems.hitech_tft.oracle import icepool_attack, icepool_available
from simlab.systems.hitech_tft.reference import numpy_block, python_block
from simlab.systems.hitech_tft.resolve import resolve
from simlab.systems.hitech_tft.rules import Rules, Scenario
from simlab.systems.hitech_tft.sample import block_function
from simlab.systems.workloads import Samplers, Workload, best_seconds, samplers

__all__ = ["WORKLOADS", "workloads"]


def _tft(scenario: Scenario) -> Callable[[], Samplers]:
    def prepare() -> Samplers:
        attack = resolve(scenario, Rules())
        return samplers(attack, block_function, numpy_block, python_block, (1, kernels.DRAWS))

    return prepare


def _tft_exact(scenario: Scenario) -> Callable[[], dict[str, Any]]:
    def timing() -> dict[str, Any]:
        rules = Rules()
        attack = resolve(scenario, rules)
        seconds = best_seconds(lambda: exact_outcome(resolve(scenario, rules)), 5)
        icepool_seconds = None
        if icepool_available():

            def with_icepool() -> None:
                oracle = icepool_attack(scenario, rules, attack.weapon, attack.armour, attack.adj_dx)
                for die in (oracle.hits, oracle.damage, oracle.knock):
                    die.denominator()

            icepool_seconds = best_seconds(with_icepool, 1)
        return {"seconds": seconds, "icepool_seconds": icepool_seconds, "oracle": "icepool"}

    return timing


TFT_BURST = Scenario(weapon="assault rifle", mode="four", armor="flak jacket", dx=12, range_m=20)


TFT_GAUSS = Scenario(weapon="gauss rifle", mode="full", armor="combat TL12", dx=12, range_m=20)

#: What ``simlab bench`` times for this system.
WORKLOADS = (
    Workload("tft_four_round_burst", "hitech_tft", _tft(TFT_BURST), exact=_tft_exact(TFT_BURST)),
    Workload("tft_full_burst_gauss", "hitech_tft", _tft(TFT_GAUSS), exact=_tft_exact(TFT_GAUSS)),
)


def workloads() -> tuple[Workload, ...]:
    """The workloads ``simlab bench`` times for this system."""
    return WORKLOADS
