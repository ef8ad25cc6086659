"""Sampling explosions and salvos: the kernel's inputs, its tallies and their estimates (TYC-7)."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from simlab.engine.blocks import Tallies, sample_cell
from simlab.engine.interpreted import block_functions
from simlab.engine.intervals import Estimates
from simlab.engine.rng import StreamKey
from simlab.systems.tyconian.questions import blast_kernels as k
from simlab.systems.tyconian.questions import resolved_question
from simlab.systems.tyconian.questions.blast import ResolvedBlast
from simlab.systems.tyconian.resolve import LOCATIONS
from simlab.systems.tyconian.sample import add_wounds
from simlab.systems.tyconian.wounds import WOUND_LEVELS

__all__ = ["blast_tallies", "python_blast_tallies", "sample_blast", "blast_block_function"]


def _arguments(blast: ResolvedBlast) -> tuple[Any, ...]:
    rules, s = blast.rules, blast.scenario
    ints = np.array(
        [
            blast.mode, blast.rounds, blast.fixed_bucket, blast.chance, blast.chance_step,
            rules.critical_success_max, rules.critical_failure_min, blast.first_reduction, blast.later_reduction,
            s.target_dex, s.target_end, LOCATIONS.index("head"), rules.skill_die,
        ],
        np.int64,
    )  # fmt: skip
    floats = np.array([blast.step_m, blast.max_deviation_m, blast.explosive.radius_m], np.float64)
    return (
        ints, floats, blast.halves_by_bucket, blast.parts, blast.capacity, blast.limb, blast.location_of_roll,
        k.DIRECTIONS,
    )  # fmt: skip


def _new_tallies(blast: ResolvedBlast) -> Tallies:
    return (
        np.zeros(blast.max_damage + 1, np.int64),
        np.zeros((len(LOCATIONS), len(WOUND_LEVELS)), np.int64),
        np.zeros(k.N_BLAST_COUNTS, np.int64),
    )


#: The compiled block function of the kernel, and the same run by the interpreter (the plain reference).
blast_tallies, python_blast_tallies = block_functions(k.blast_block, _arguments, _new_tallies, lambda: _twin_examples())


def blast_block_function(blast: ResolvedBlast, key: StreamKey) -> partial[Tallies]:
    """The engine's block function of a blast on one stream."""
    return partial(blast_tallies, blast, key)


def sample_blast(blast: ResolvedBlast, **options: Any) -> Estimates:
    """Sample: ``options`` are those of :func:`simlab.engine.blocks.sample_cell` (``trials``, ``seed``...)."""
    damage, levels, counts = sample_cell(partial(blast_tallies, blast), **options)
    trials = options["trials"]
    estimates = Estimates(trials)
    mean = estimates.mean

    estimates.histogram_mean("mean_damage", damage)
    mean("mean_locations", int(counts[k.LOCATIONS_HIT]), int(counts[k.LOCATIONS_SQ]))
    if blast.mode != k.FIXED:
        mean("mean_in_burst", int(counts[k.IN_BURST]), int(counts[k.IN_BURST_SQ]))
        if blast.mode == k.LOBBED:
            mean("mean_on_target", int(counts[k.ON_TARGET]), int(counts[k.ON_TARGET_SQ]))
        else:
            estimates.probability("p_on_target", counts[k.ON_TARGET])
    estimates.probabilities(
        counts, {"p_knockdown": k.KNOCKDOWN, "p_stun": k.STUN, "p_incapacitated": k.INCAPACITATED, "p_killed": k.KILLED}
    )
    add_wounds(estimates, damage, levels)
    return estimates


def _twin_examples() -> list[ResolvedBlast]:
    """The blasts the kernel and its twin are checked on: a grenade at the figure, mortar bombs, lobbed grenades."""
    return [
        resolved_question("explosion", explosive="hand grenade", distance_m=0.2),
        resolved_question("indirect_fire", explosive="mortar bomb", rounds=4, skill=14),
        resolved_question("indirect_fire", explosive="hand grenade", delivery="lobbed", rounds=2, range_m=35),
    ]
