"""Sampling the flame question: its kernel's inputs, block functions and estimates with 95 % intervals."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from simlab.engine.blocks import Tallies, sample_cell
from simlab.engine.interpreted import block_functions
from simlab.engine.intervals import Estimates
from simlab.systems.tyconian.layout import NO_ROLL
from simlab.systems.tyconian.questions import flame_layout as k
from simlab.systems.tyconian.questions import resolved_question
from simlab.systems.tyconian.questions.flame import ResolvedFlame
from simlab.systems.tyconian.questions.flame_kernels import flame_block
from simlab.systems.tyconian.resolve import LOCATIONS
from simlab.systems.tyconian.sample import add_wounds
from simlab.systems.tyconian.wounds import WOUND_LEVELS

__all__ = [
    "sample_flame",
    "flame_tallies",
]


def _arguments(flame: ResolvedFlame) -> tuple[Any, ...]:
    rules, s = flame.rules, flame.scenario
    ints = np.array(
        [
            NO_ROLL if s.dodge_skill is None else s.dodge_skill, rules.critical_success_max, rules.critical_failure_min,
            -1 if s.burn_seconds is None else s.burn_seconds, rules.flame_ignition, s.target_dex, s.target_end,
            LOCATIONS.index("head"), rules.skill_die,
        ],
        np.int64,
    )  # fmt: skip
    return flame.seconds, ints, flame.capacity, flame.limb, flame.location_of_roll


def _new_tallies(flame: ResolvedFlame) -> Tallies:
    return (
        np.zeros(flame.max_damage + 1, np.int64),
        np.zeros((len(LOCATIONS), len(WOUND_LEVELS)), np.int64),
        np.zeros(k.N_FLAME_COUNTS, np.int64),
    )


#: The compiled block function of the kernel, and the same run by the interpreter (the plain reference).
flame_tallies, python_flame_tallies = block_functions(flame_block, _arguments, _new_tallies, lambda: _twin_examples())


def sample_flame(flame: ResolvedFlame, **options: Any) -> Estimates:
    """Sample sprays: ``options`` are those of :func:`simlab.engine.blocks.sample_cell`."""
    damage, levels, counts = sample_cell(partial(flame_tallies, flame), **options)
    trials = options["trials"]
    found = Estimates(trials)
    found.mean("mean_location_hits", counts[k.LOCATION_HITS], counts[k.LOCATION_HITS_SQ])
    found.histogram_mean("mean_damage", damage)
    found.probabilities(
        counts, {"p_burning": k.BURNING, "p_stun": k.STUN, "p_incapacitated": k.INCAPACITATED, "p_killed": k.KILLED}
    )
    add_wounds(found, damage, levels)
    return found


def _twin_examples() -> list[ResolvedFlame]:
    """The sprays the kernel and its twin are checked on: five seconds at a dodging figure."""
    return [resolved_question("flame", seconds=5, dodge_skill=10)]
