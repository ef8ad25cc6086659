"""Sampling Striker attacks: inputs for the kernel, tallies to estimates with 95 % intervals."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from simlab.engine.blocks import Tallies, sample_cell
from simlab.engine.intervals import wilson
from simlab.engine.rng import StreamKey, stream_key
from simlab.systems.duels import N_DUEL_COUNTS, SampledDuel, duel_estimates, mean_interval
from simlab.systems.striker import kernels
from simlab.systems.striker.exact import StrikerOutcome
from simlab.systems.striker.outcomes import INCAPACITATED
from simlab.systems.striker.resolve import (
    CATEGORIES,
    KILLED,
    LEVEL_DEAD,
    LEVEL_LIGHT,
    LEVEL_SERIOUS,
    LIGHT,
    NOT_DEAD_YET,
    SERIOUS,
    UNCONSCIOUS,
    UNHURT,
    ResolvedAttack,
)

if TYPE_CHECKING:  # the resolved duel it samples (its module names this one, to load it when first sampling)
    from simlab.systems.striker.duel import ResolvedDuel

__all__ = [
    "SampledAttack",
    "SampledDuel",
    "kernel_inputs",
    "block_function",
    "duel_block_function",
    "sample_attack",
    "sample_duel",
    "duel_estimates",
    "tallies_to_outcome",
    "mean_interval",
]


@dataclass(frozen=True, eq=False)
class SampledAttack:
    """Point estimates, 95 % intervals and raw tallies of a sampled attack."""

    outcome: StrikerOutcome
    ci95: dict[str, tuple[float, float]]
    trials: int
    tallies: Tallies


def kernel_inputs(attack: ResolvedAttack) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The aftermath, suppression and initiative arrays of :func:`kernels.attack_block`."""
    t = attack.treatment
    has_medic = t.stabilise_dm is not None and t.treatment_dm is not None
    aftermath = np.array(
        [
            t.save_dm,
            t.save_target,
            int(has_medic),
            t.stabilise_dm or 0,
            t.stabilise_target,
            t.treatment_dm or 0,
            t.treatment_target,
        ],
        np.int64,
    )
    rules = attack.rules
    suppression = np.array(
        [int(attack.suppressive), rules.suppression_first_hit, rules.suppression_extra_hit], np.int64
    )
    tactics = np.array([attack.scenario.tactics, attack.scenario.target_tactics], np.int64)
    return aftermath, suppression, tactics


def hit_table(attack: ResolvedAttack) -> np.ndarray:
    """The kernel's per-hit table by natural penetration total (rows FOLLOW, TARGET, SUCCESS, FAILURE)."""
    table = np.zeros((4, attack.level_by_pen.shape[0]), np.int64)
    for r, level in enumerate(attack.level_by_pen):
        if level == LEVEL_SERIOUS:
            table[:, r] = (1, attack.conscious_target, SERIOUS, UNCONSCIOUS)
        elif level == LEVEL_DEAD:
            table[:, r] = (1, attack.ndy_target_by_pen[r], NOT_DEAD_YET, KILLED)
        else:
            category = LIGHT if level == LEVEL_LIGHT else UNHURT
            table[:, r] = (0, 0, category, category)
    return table


def _attack_tallies(attack: ResolvedAttack, key: StreamKey, start: int, stop: int) -> Tallies:
    joint = np.zeros((kernels.LANES, attack.max_hits + 1, len(CATEGORIES)), np.int64)
    counts = np.zeros(kernels.N_COUNTS, np.int64)
    kernels.attack_block(
        np.uint64(key.offset),
        np.uint64(key.gamma),
        start,
        stop,
        attack.hits_by_roll,
        attack.wound_hits_by_roll,
        hit_table(attack),
        attack.roll_dm,
        *kernel_inputs(attack),
        joint,
        counts,
    )
    return joint.sum(axis=0), counts


def block_function(attack: ResolvedAttack, seed: int, cell: int = 0) -> partial[Tallies]:
    """The engine's block function ``(start, stop) -> tallies`` for this attack and stream."""
    return partial(_attack_tallies, attack, stream_key(seed, cell))


def tallies_to_outcome(
    attack: ResolvedAttack, tallies: Tallies, trials: int
) -> tuple[StrikerOutcome, dict[str, tuple[float, float]]]:
    """Point estimates and 95 % intervals from summed tallies."""
    joint, counts = tallies
    hits = joint.sum(axis=1)
    worst = joint.sum(axis=0)
    h = np.arange(len(hits), dtype=np.int64)
    killed = int(worst[CATEGORIES.index("killed")])
    dies = int(counts[kernels.DIES_LATER])
    ci = {
        "p_hit": wilson(int(hits[1:].sum()), trials),
        "mean_hits": mean_interval(int(h @ hits), int((h * h) @ hits), trials),
        **{f"p_{c}": wilson(int(worst[i]), trials) for i, c in enumerate(CATEGORIES)},
        "p_incapacitated": wilson(int(worst[list(INCAPACITATED)].sum()), trials),
        "p_dies_later": wilson(dies, trials),
        "p_survives": wilson(trials - killed - dies, trials),
        "p_initiative": wilson(int(counts[kernels.INITIATIVE]), trials),
    }
    if attack.suppressive:
        ci["p_suppressed"] = ci["p_hit"]
        ci["mean_suppression"] = mean_interval(
            int(counts[kernels.SUPPRESSION]), int(counts[kernels.SUPPRESSION_SQ]), trials
        )
    outcome = StrikerOutcome(
        joint=joint / trials,
        dies_later=dies / trials,
        suppression=int(counts[kernels.SUPPRESSION]) / trials,
        p_initiative=int(counts[kernels.INITIATIVE]) / trials,
    )
    return outcome, ci


def sample_attack(attack: ResolvedAttack, **options: Any) -> SampledAttack:
    """Sample an attack: ``options`` are those of :func:`simlab.engine.blocks.sample_cell` (``trials``, ``seed``...)."""
    tallies = sample_cell(partial(_attack_tallies, attack), **options)
    outcome, ci = tallies_to_outcome(attack, tallies, options["trials"])
    return SampledAttack(outcome, ci, options["trials"], tallies)


def duel_naturals(rules: Any) -> np.ndarray:
    """``[natural_miss_max, natural_hit_min, suppressive_wound_min]`` of the duel kernel (STR-2.1, STR-3.3)."""
    return np.array([rules.natural_miss_max, rules.natural_hit_min, rules.suppressive_wound_min], np.int64)


def _duel_tallies(duel: ResolvedDuel, key: StreamKey, start: int, stop: int) -> Tallies:
    turns = np.zeros(duel.rules.max_turns + 1, np.int64)
    tens = np.zeros(6 * duel.rules.max_turns + 1, np.int64)
    counts = np.zeros(N_DUEL_COUNTS, np.int64)
    rules = duel.rules
    kernels.duel_block(
        np.uint64(key.offset),
        np.uint64(key.gamma),
        start,
        stop,
        duel.sides,
        duel.level_by_pen,
        rules.hit_target,
        rules.extra_hit_step,
        duel_naturals(rules),
        rules.conscious_target,
        rules.serious_light_wounds,
        rules.max_turns,
        turns,
        tens,
        counts,
    )
    return turns, tens, counts


def duel_block_function(duel: ResolvedDuel, seed: int, cell: int = 0) -> partial[Tallies]:
    """The engine's block function of a duel."""
    return partial(_duel_tallies, duel, stream_key(seed, cell))


def sample_duel(duel: ResolvedDuel, **options: Any) -> SampledDuel:
    """Sample duels: ``options`` are those of :func:`simlab.engine.blocks.sample_cell` (``trials``, ``seed``...)."""
    return duel_estimates(sample_cell(partial(_duel_tallies, duel), **options), options["trials"], seconds_per_bin=10)
