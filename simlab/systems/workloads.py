"""What a benchmark workload is: a system's central mechanic on a fixed scenario, with its samplers and twins.

Each system lists its own (``simlab/systems/NAME/bench.py``, found through :attr:`System.workloads`);
``simlab bench`` times them all.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from simlab.engine.rng import stream_key

__all__ = ["SEED", "Samplers", "Workload", "samplers", "best_seconds"]

SEED = 2026


@dataclass(frozen=True)
class Samplers:
    """One workload's compiled block function, its pure-Python twin and its numpy twin (if it has one)."""

    compiled: Callable[[int, int], Any]
    numpy: Callable[[int, int], Any] | None
    python: Callable[[int, int], Any]
    draws: Callable[[Any], int]


@dataclass(frozen=True)
class Workload:
    """One benchmark workload: a system's central mechanic on a fixed scenario.

    Attributes:
        name: The workload's name in the report.
        system: System id.
        prepare: Builds the samplers of the workload.
        scale: Fraction of ``--trials`` the workload runs (duels take many rolls a trial).
        exact: Times the exact engine (and icepool) on the same question, or None.
    """

    name: str
    system: str
    prepare: Callable[[], Samplers]
    scale: float = 1.0
    exact: Callable[[], dict[str, Any]] | None = None


def samplers(subject: Any, compiled: Any, numpy_twin: Any, python_twin: Any, draws_at: tuple[int, int]) -> Samplers:
    """The samplers of one resolved question: its compiled block function and its twins (numpy_twin may be None)."""
    key = stream_key(SEED)
    tally, index = draws_at
    return Samplers(
        compiled=compiled(subject, SEED),
        numpy=partial(numpy_twin, subject, key) if numpy_twin is not None else None,
        python=partial(python_twin, subject, key),
        draws=lambda tallies: int(tallies[tally][index]),
    )


def best_seconds(fn: Callable[[], Any], repeat: int) -> float:
    """Fastest of ``repeat`` timed calls (the least disturbed by other work on the machine)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best
