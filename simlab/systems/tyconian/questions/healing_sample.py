"""Sampling the healing question: its kernel's inputs, block functions and estimates with 95 % intervals."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from simlab.engine.blocks import Tallies, sample_cell
from simlab.engine.interpreted import block_functions
from simlab.engine.intervals import Estimates
from simlab.systems.tyconian.questions import healing_layout as k
from simlab.systems.tyconian.questions import resolved_question
from simlab.systems.tyconian.questions.healing import ResolvedHealing
from simlab.systems.tyconian.questions.healing_kernels import healing_block
from simlab.systems.tyconian.resolve import LOCATIONS

__all__ = [
    "sample_healing",
    "healing_tallies",
]


def _new_tallies(healing: ResolvedHealing) -> Tallies:
    days = healing.scenario.days
    return np.zeros(days + 1, np.int64), np.zeros(days + 1, np.int64), np.zeros(k.N_HEALING_COUNTS, np.int64)


def _arguments(healing: ResolvedHealing) -> tuple[Any, ...]:
    return healing.ints, healing.wounds, healing.capacity, healing.limb, LOCATIONS.index("head")


#: The compiled block function of the kernel, and the same run by the interpreter (the plain reference).
healing_tallies, python_healing_tallies = block_functions(
    healing_block, _arguments, _new_tallies, lambda: _twin_examples()
)


def sample_healing(healing: ResolvedHealing, **options: Any) -> Estimates:
    """Sample the aftermath: ``options`` are those of :func:`simlab.engine.blocks.sample_cell`."""
    alive, recovered, counts = sample_cell(partial(healing_tallies, healing), **options)
    found = Estimates(options["trials"])
    days = healing.scenario.days
    found.probability("p_survival", alive[healing.rules.death_day])
    found.probability("p_alive", alive[days])
    found.probability("p_recovered", recovered[days])
    found.probability("p_bled_out", counts[k.BLED_OUT])
    found.probability("p_infected", counts[k.INFECTED])
    found.probability("p_maimed", counts[k.MAIMED])
    for day in range(days + 1):
        found.probability(f"p_alive_day_{day}", alive[day])
    for day in range(days + 1):
        found.probability(f"p_recovered_day_{day}", recovered[day])
    return found


def _twin_examples() -> list[ResolvedHealing]:
    """The aftermaths the kernel and its twin are checked on: four wounds with a doctor's care and with none."""
    wounds = "chest=34 abdomen=22 right_leg=22 left_leg=22"
    return [resolved_question("healing", wounds=wounds, care=care) for care in ("doctor", "none")]
