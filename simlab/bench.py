"""The benchmark suite behind ``simlab bench`` (DESIGN.md, "Performance").

Every figure is measured in the run that reports it: the compiled samplers with one thread
and with all threads, their numpy and pure-Python twins on the same workload, the random
draws a trial makes (counted by the kernel) against the generator's own draw rate, the
exact engine against icepool on the same distributions, and the peak memory.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from simlab.engine import default_threads, run_blocks
from simlab.rng import raw_draws, stream_key
from simlab.systems.hitech_tft import kernels
from simlab.systems.hitech_tft.exact import exact_outcome
from simlab.systems.hitech_tft.oracle import icepool_attack, icepool_available
from simlab.systems.hitech_tft.reference import numpy_block, python_block
from simlab.systems.hitech_tft.resolve import resolve
from simlab.systems.hitech_tft.rules import Rules, Scenario
from simlab.systems.hitech_tft.sample import block_function

__all__ = ["Workload", "WORKLOADS", "run_bench"]

SEED = 2026


@dataclass(frozen=True)
class Workload:
    """One benchmark workload: a system's central mechanic on a fixed scenario."""

    name: str
    system: str
    scenario: Scenario


WORKLOADS = (
    Workload(
        "tft_four_round_burst",
        "hitech_tft",
        Scenario(weapon="assault rifle", mode="four", armor="flak jacket", dx=12, range_m=20),
    ),
    Workload(
        "tft_full_burst_gauss",
        "hitech_tft",
        Scenario(weapon="gauss rifle", mode="full", armor="combat TL12", dx=12, range_m=20),
    ),
)


def _best_seconds(fn: Callable[[], Any], repeat: int) -> float:
    """Fastest of ``repeat`` timed calls (the least disturbed by other work on the machine)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def generator_draws_per_s(draws: int, repeat: int = 3) -> float:
    """The generator's own rate: draws per second of a loop that only generates them."""
    key = stream_key(SEED)
    raw_draws(np.uint64(key.offset), np.uint64(key.gamma), 10)
    seconds = _best_seconds(lambda: raw_draws(np.uint64(key.offset), np.uint64(key.gamma), draws), repeat)
    return draws / seconds


def _sampler_rates(workload: Workload, trials: int, repeat: int) -> dict[str, Any]:
    attack = resolve(workload.scenario, Rules())
    block = block_function(attack, SEED)
    block(0, 1000)  # compile outside the timing
    threads = default_threads()
    tallies: list[Any] = []

    def one_thread() -> None:
        tallies[:] = run_blocks(block, trials, threads=1)

    single = _best_seconds(one_thread, repeat)
    draws_per_trial = int(tallies[1][kernels.DRAWS]) / trials
    every = _best_seconds(lambda: run_blocks(block, trials, threads=threads), repeat)
    key = stream_key(SEED)
    numpy_trials = max(trials // 50, 10_000)
    numpy_seconds = _best_seconds(
        lambda: run_blocks(lambda a, b: numpy_block(attack, key, a, b), numpy_trials, threads=1), 1
    )
    python_trials = max(trials // 2000, 2_000)
    python_seconds = _best_seconds(lambda: python_block(attack, key, 0, python_trials), 1)
    return {
        "name": workload.name,
        "system": workload.system,
        "trials_per_s_1thread": trials / single,
        "trials_per_s_all": trials / every,
        "threads": threads,
        "numpy_trials_per_s": numpy_trials / numpy_seconds,
        "python_trials_per_s": python_trials / python_seconds,
        "draws_per_trial": draws_per_trial,
    }


def _exact_times(workload: Workload) -> dict[str, Any]:
    rules = Rules()
    attack = resolve(workload.scenario, rules)
    seconds = _best_seconds(lambda: exact_outcome(resolve(workload.scenario, rules)), 5)
    icepool_seconds = None
    if icepool_available():

        def with_icepool() -> None:
            oracle = icepool_attack(workload.scenario, rules, attack.weapon, attack.armour, attack.adj_dx)
            for die in (oracle.hits, oracle.damage, oracle.knock):
                die.denominator()

        icepool_seconds = _best_seconds(with_icepool, 1)
    return {"name": workload.name, "seconds": seconds, "icepool_seconds": icepool_seconds}


def run_bench(
    *, trials: int = 20_000_000, repeat: int = 3, progress: Callable[[str], None] | None = None
) -> dict[str, Any]:
    """Run every workload and return the ``simlab bench --json`` object.

    Args:
        trials: Trials per timed sampler run (the references run fewer, scaled).
        repeat: Timed runs per figure; the fastest counts.
        progress: Called with the name of each step as it starts.
    """
    say = progress or (lambda _: None)
    say("generator")
    generator_rate = generator_draws_per_s(max(trials * 10, 1_000_000), repeat)
    results = []
    for workload in WORKLOADS:
        say(workload.name)
        rates = _sampler_rates(workload, trials, repeat)
        rates["generator_draws_per_s"] = generator_rate
        results.append(rates)
    exact = []
    for workload in WORKLOADS:
        say(f"exact {workload.name}")
        exact.append(_exact_times(workload))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"workloads": results, "exact": exact, "peak_rss_mb": peak}
