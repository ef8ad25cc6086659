"""Sampling Tyconian attacks: inputs for the kernel, tallies to estimates with 95 % intervals."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from simlab.engine.blocks import Tallies, sample_cell
from simlab.engine.intervals import Estimates
from simlab.engine.rng import StreamKey
from simlab.systems.duels import N_DUEL_COUNTS, SampledDuel, duel_estimates
from simlab.systems.tyconian import duel_kernel, kernels, layout
from simlab.systems.tyconian.exact import semi_automatic
from simlab.systems.tyconian.resolve import LOCATIONS, ResolvedAttack
from simlab.systems.tyconian.rules import Rules
from simlab.systems.tyconian.wounds import LIMBS, WOUND_LEVELS

if TYPE_CHECKING:  # the resolved duel it samples (its module names this one, to load it when first sampling)
    from simlab.systems.tyconian.duel import ResolvedDuel

__all__ = [
    "KernelInputs",
    "kernel_inputs",
    "sample_attack",
    "SampledAttack",
    "estimates",
    "sample_duel",
    "duel_block_function",
    "duel_flags",
]


@dataclass(frozen=True, eq=False)
class KernelInputs:
    """The arrays :func:`kernels.attack_block` takes besides the stream and the tallies."""

    kind: int
    skills: np.ndarray
    steps: np.ndarray
    roll_limits: np.ndarray
    rolls_per_attack: int
    hit_face: int
    location_of_roll: np.ndarray
    target_index: int
    locations: np.ndarray
    target: np.ndarray
    jam: np.ndarray


def kernel_inputs(attack: ResolvedAttack) -> KernelInputs:
    """The kernel's view of an attack."""
    rules = attack.rules
    if attack.auto is not None:
        kind, rolls, skills = layout.FULL_AUTO, attack.auto.dice, np.zeros(1, np.int64)
    elif attack.rounds_per_hit_roll:
        kind, rolls, skills = layout.PER_ROUND, attack.rounds_per_hit_roll, np.array(attack.skills, np.int64)
    else:
        kind, rolls, skills = layout.SHOTS, 1, np.array(attack.skills, np.int64)
    steps = np.array(attack.shot_steps or (0,), np.int64)
    locations = np.vstack(
        [
            attack.whole_dice,
            attack.half_die,
            attack.trauma,
            attack.capacity,
            np.array([name in LIMBS for name in LOCATIONS], np.int64),
        ]
    ).astype(np.int64)
    s = attack.scenario
    jams = semi_automatic(attack)
    return KernelInputs(
        kind=kind,
        skills=skills,
        steps=steps,
        roll_limits=np.array([rules.skill_die, rules.critical_success_max, rules.critical_failure_min], np.int64),
        rolls_per_attack=rolls,
        hit_face=attack.hit_face,
        location_of_roll=attack.location_of_roll,
        target_index=attack.target_index,
        locations=locations,
        target=np.array(
            [s.target_dex, s.target_end, LOCATIONS.index("head"), int(rules.knockdown_damage == "phase")], np.int64
        ),
        jam=np.array([len(attack.skills) if jams else -1, rules.jam_bonus], np.int64),
    )


def new_tallies(attack: ResolvedAttack) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Empty tallies: hits histogram, damage histogram, wound levels by location, counts."""
    return (
        np.zeros(attack.max_hits + 1, np.int64),
        np.zeros(attack.max_hits * attack.max_damage_per_hit + 1, np.int64),
        np.zeros((len(LOCATIONS), len(WOUND_LEVELS)), np.int64),
        np.zeros(layout.N_COUNTS, np.int64),
    )


def _attack_tallies(attack: ResolvedAttack, inputs: KernelInputs, key: StreamKey, start: int, stop: int) -> Tallies:
    hits, damage, levels, counts = new_tallies(attack)
    i = inputs
    kernels.attack_block(
        np.uint64(key.offset), np.uint64(key.gamma), start, stop, i.kind, i.skills, i.steps, i.roll_limits,
        i.rolls_per_attack, i.hit_face, i.location_of_roll, i.target_index, i.locations, i.target, i.jam,
        hits, damage, levels, counts,
    )  # fmt: skip
    return hits, damage, levels, counts


def block_function(attack: ResolvedAttack, key: StreamKey) -> partial[Tallies]:
    """The engine's block function of an attack on one stream."""
    return partial(_attack_tallies, attack, kernel_inputs(attack), key)


@dataclass(frozen=True, eq=False)
class SampledAttack:
    """Estimates, 95 % intervals, distributions and tallies of a sampled attack."""

    metrics: dict[str, float]
    ci95: dict[str, tuple[float, float]]
    distributions: dict[str, dict[int, float]]
    tallies: Tallies


def estimates(attack: ResolvedAttack, tallies: Tallies, trials: int) -> SampledAttack:
    """Metrics (TYC-10), intervals and distributions from summed tallies."""
    hits, damage, levels, counts = tallies
    found = Estimates(trials)
    probability, mean = found.probability, found.mean
    probability("p_hit", int(hits[1:].sum()))
    found.histogram_mean("mean_hits", hits)
    found.histogram_mean("mean_damage", damage)
    found.probabilities(
        counts,
        {
            "p_knockdown": layout.KNOCKDOWN,
            "p_stun": layout.STUN,
            "p_incapacitated": layout.INCAPACITATED,
            "p_killed": layout.KILLED,
        },
    )
    if attack.auto is not None:
        mean("mean_bystander_hits", int(counts[layout.BYSTANDERS]), int(counts[layout.BYSTANDERS_SQ]))
    if semi_automatic(attack):
        probability("p_jam", int(counts[layout.JAMS]))
    found.histogram("hits", hits)
    add_wounds(found, damage, levels)
    return SampledAttack(found.metrics, found.ci95, found.distributions, tallies)


def add_wounds(found: Estimates, damage: np.ndarray, levels: np.ndarray) -> None:
    """The distributions of total damage and of each location's wound level (TYC-6.2)."""
    found.histogram("damage", damage)
    for i, location in enumerate(LOCATIONS):
        found.distributions[f"wounds_{location}"] = {level: int(n) / found.trials for level, n in enumerate(levels[i])}


def sample_attack(attack: ResolvedAttack, **options: Any) -> SampledAttack:
    """Sample an attack: ``options`` are those of :func:`simlab.engine.blocks.sample_cell` (``trials``, ``seed``...)."""
    inputs = kernel_inputs(attack)
    tallies = sample_cell(partial(_attack_tallies, attack, inputs), **options)
    return estimates(attack, tallies, options["trials"])


def _duel_tallies(duel: ResolvedDuel, key: StreamKey, start: int, stop: int) -> Tallies:
    rules = duel.rules
    turns = np.zeros(rules.max_turns + 1, np.int64)
    seconds = np.zeros(5 * rules.max_turns + 1, np.int64)
    counts = np.zeros(N_DUEL_COUNTS, np.int64)
    limits = np.array([rules.skill_die, rules.critical_success_max, rules.critical_failure_min], np.int64)
    duel_kernel.duel_block(
        np.uint64(key.offset), np.uint64(key.gamma), start, stop, duel.sides, duel.locations, duel.plans,
        duel.plan_shots, duel.location_of_roll, limits, duel_flags(rules), rules.recoil_dice_factor,
        rules.tactics_turns, rules.max_turns, turns, seconds, counts,
    )  # fmt: skip
    return turns, seconds, counts


def duel_flags(rules: Rules) -> npt.NDArray[np.int64]:
    """The duel and battle kernels' readings and numbers, at kernels.F_ROUND_DOWN ... F_JAM_CLEAR.

    Round down (TYC-1.3), knockdown per shot (TYC-6.4), a consciousness roll every turn (TYC-6.3),
    the jam bonus and the die of a jam's clearing points (TYC-3.6), the seconds of hesitation (TYC-6.3).
    """
    readings = [0] * 6
    readings[kernels.F_ROUND_DOWN] = rules.rounding == "down"
    readings[kernels.F_KNOCKDOWN_PER_SHOT] = rules.knockdown_damage == "shot"
    readings[kernels.F_ROLL_EVERY_TURN] = rules.consciousness_roll == "every_turn"
    readings[kernels.F_JAM_BONUS] = rules.jam_bonus
    readings[kernels.F_HESITATION] = rules.hesitation_seconds
    readings[kernels.F_JAM_CLEAR] = rules.jam_clear_die
    return np.array(readings, np.int64)


def duel_block_function(duel: ResolvedDuel, key: StreamKey) -> partial[Tallies]:
    """The engine's block function of a duel on one stream."""
    return partial(_duel_tallies, duel, key)


def sample_duel(duel: ResolvedDuel, **options: Any) -> SampledDuel:
    """Sample duels: ``options`` are those of :func:`simlab.engine.blocks.sample_cell` (``trials``, ``seed``...)."""
    return duel_estimates(sample_cell(partial(_duel_tallies, duel), **options), options["trials"])
