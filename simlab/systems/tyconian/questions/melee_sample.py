"""Sampling the melee question: its kernel's inputs, block functions and estimates with 95 % intervals."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from simlab.engine.blocks import Tallies, sample_cell
from simlab.engine.interpreted import block_functions
from simlab.engine.intervals import Estimates
from simlab.systems.tyconian.questions import melee_layout as k
from simlab.systems.tyconian.questions import resolved_question
from simlab.systems.tyconian.questions.melee import ResolvedMelee
from simlab.systems.tyconian.questions.melee_kernels import melee_block
from simlab.systems.tyconian.resolve import LOCATIONS
from simlab.systems.tyconian.sample import add_wounds
from simlab.systems.tyconian.wounds import WOUND_LEVELS

__all__ = [
    "sample_melee",
    "melee_tallies",
]


def _new_tallies(melee: ResolvedMelee) -> Tallies:
    return (
        np.zeros(melee.max_damage + 1, np.int64),
        np.zeros((len(LOCATIONS), len(WOUND_LEVELS)), np.int64),
        np.zeros(k.N_MELEE_COUNTS, np.int64),
    )


def _arguments(melee: ResolvedMelee) -> tuple[Any, ...]:
    return melee.ints, melee.armour_dice, melee.capacity, melee.limb, melee.location_of_roll


#: The compiled block function of the kernel, and the same run by the interpreter (the plain reference).
melee_tallies, python_melee_tallies = block_functions(melee_block, _arguments, _new_tallies, lambda: _twin_examples())


def sample_melee(melee: ResolvedMelee, **options: Any) -> Estimates:
    """Sample melee attacks: ``options`` are those of :func:`simlab.engine.blocks.sample_cell`."""
    damage, levels, counts = sample_cell(partial(melee_tallies, melee), **options)
    found = Estimates(options["trials"])
    if melee.get(k.MODE) == k.GRAPPLE:
        found.probability("p_control", counts[k.CONTROL])
        found.probability("p_controlled", counts[k.CONTROLLED])
        found.mean("mean_exchanges", counts[k.EXCHANGES], counts[k.EXCHANGES_SQ])
        return found
    found.probability("p_hit", counts[k.HIT])
    found.histogram_mean("mean_damage", damage)
    found.probabilities(
        counts, {"p_knockdown": k.KNOCKDOWN, "p_stun": k.STUN, "p_incapacitated": k.INCAPACITATED, "p_killed": k.KILLED}
    )
    if melee.get(k.MODE) == k.DIVING:
        found.probability("p_attacker_down", counts[k.ATTACKER_DOWN])
    add_wounds(found, damage, levels)
    return found


def _twin_examples() -> list[ResolvedMelee]:
    """The fights the kernel and its twin are checked on: a blocked strike, a diving blow, a grapple."""
    return [
        resolved_question("melee", block_skill=10, armor="flak vest"),
        resolved_question("melee", attack="diving_blow", dodge_skill=8),
        resolved_question("melee", attack="grapple", block_skill=9),
    ]
