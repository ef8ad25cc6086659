"""Sampled outcomes of one HiTech TFT attack, with 95 % intervals (TFT-10).

Prepares the compiled kernels' inputs from a resolved attack, runs them in blocks through
:func:`simlab.engine.blocks.run_blocks` and turns the int64 tallies into an :class:`Outcome`
(point estimates) and intervals.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from simlab.engine.blocks import BlockFn, Tallies, sample_cell
from simlab.engine.intervals import mean_interval, wilson
from simlab.engine.rng import DRAWS_PER_TRIAL_LIMIT, StreamKey, stream_key
from simlab.inputs.errors import SimlabError
from simlab.systems.hitech_tft import kernels
from simlab.systems.hitech_tft.outcomes import BLAST_DISTANCES, SPLASH_METRIC, Outcome
from simlab.systems.hitech_tft.resolve import ResolvedAttack

__all__ = ["SampledOutcome", "sample_outcome", "block_function", "roll_classes", "tallies_to_outcome"]

#: Draws a trial makes besides its damage dice, at most (quickdraw, attack roll, scatter).
_ROLL_DRAWS = 7


@dataclass(frozen=True, eq=False)
class SampledOutcome:
    """Point estimates, intervals and raw tallies of a sampled attack.

    Attributes:
        outcome: Point estimates (the joint distribution as frequencies).
        ci95: 95 % interval of each metric.
        trials: Number of trials.
        draws: Random draws generated.
        tallies: The raw tallies ``(joint, counts[, distance_sums])``.
    """

    outcome: Outcome
    ci95: dict[str, tuple[float, float]]
    trials: int
    draws: int
    tallies: Tallies


def roll_classes(attack: ResolvedAttack) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Group the 3d6 totals by what follows from them, for the direct-fire kernel.

    Returns:
        ``(class_of_roll, class_hits, class_dice, class_lost)``: the class of each total
        (index 0: no attack) and, per class, its hits, damage dice and weapon loss.
    """
    columns = (attack.table.hits, attack.dice_by_roll, attack.table.weapon_lost)
    keys = sorted(set(zip(*(column.tolist() for column in columns), strict=True)))
    class_of_roll = np.array([keys.index(key) for key in zip(*(c.tolist() for c in columns), strict=True)])
    hits, dice, lost = (np.array(column, np.int64) for column in zip(*keys, strict=True))
    return class_of_roll.astype(np.int64), hits, dice, lost


def _check_draws(attack: ResolvedAttack) -> None:
    most = int(attack.dice_by_roll.max()) + _ROLL_DRAWS
    limit = kernels.DISTANCE_WINDOW if attack.blast is not None else DRAWS_PER_TRIAL_LIMIT
    if most >= limit:
        raise SimlabError(
            f"this attack rolls up to {most} dice in one trial; simlab samples at most {limit - 1} "
            "(lower dx or raise autofire_step)"
        )


def _direct_fire(attack: ResolvedAttack, key: StreamKey, start: int, stop: int) -> Tallies:
    n_damage = attack.max_damage() + 1
    n_hits = max(int(attack.table.hits.max()) + 1, 2)
    joint = np.zeros((kernels.LANES, n_hits * n_damage), np.int64)
    counts = np.zeros(kernels.N_COUNTS, np.int64)
    kernels.direct_fire_block(
        np.uint64(key.offset),
        np.uint64(key.gamma),
        start,
        stop,
        -1 if attack.quickdraw_dx is None else attack.quickdraw_dx,
        *roll_classes(attack),
        attack.protection,
        attack.per_die,
        attack.adds_per_hit,
        attack.damage_factor,
        attack.soft,
        attack.stagger_threshold,
        attack.knockdown_threshold,
        n_damage,
        joint,
        counts,
    )
    return joint.sum(axis=0).reshape(n_hits, n_damage), counts


def _blast(attack: ResolvedAttack, key: StreamKey, start: int, stop: int) -> Tallies:
    assert attack.blast is not None
    joint = np.zeros((kernels.LANES, 2, attack.max_damage() + 1), np.int64)
    counts = np.zeros(kernels.N_COUNTS, np.int64)
    distance_sums = np.zeros((kernels.N_DISTANCES, 2), np.int64)
    kernels.blast_block(
        np.uint64(key.offset),
        np.uint64(key.gamma),
        start,
        stop,
        -1 if attack.quickdraw_dx is None else attack.quickdraw_dx,
        attack.table.hits,
        attack.table.multiplier,
        attack.table.weapon_lost,
        np.array(attack.blast.dice_at, np.int64),
        np.array(attack.blast.protection_at, np.int64),
        attack.adds_per_hit,
        attack.damage_factor,
        attack.soft,
        attack.stagger_threshold,
        attack.knockdown_threshold,
        joint,
        counts,
        distance_sums,
    )
    return joint.sum(axis=0), counts, distance_sums


def block_function(attack: ResolvedAttack, seed: int, cell: int = 0) -> BlockFn:
    """The engine's block function ``(start, stop) -> tallies`` for this attack and stream."""
    _check_draws(attack)
    key = stream_key(seed, cell)
    kernel = _blast if attack.blast is not None else _direct_fire
    return partial(kernel, attack, key)


def tallies_to_outcome(
    attack: ResolvedAttack, tallies: Tallies, trials: int
) -> tuple[Outcome, dict[str, tuple[float, float]]]:
    """Point estimates and 95 % intervals from summed tallies.

    Args:
        attack: The resolved attack.
        tallies: ``(joint, counts[, distance_sums])`` summed over all blocks.
        trials: Number of trials behind them.
    """
    joint, counts = tallies[0], tallies[1]
    hits = joint.sum(axis=1)
    damage = joint.sum(axis=0)
    h = np.arange(len(hits), dtype=np.int64)
    d = np.arange(len(damage), dtype=np.int64)
    hit_count = int(hits[1:].sum())
    ci = {
        "p_hit": wilson(hit_count, trials),
        "mean_hits": mean_interval(int(h @ hits), int((h * h) @ hits), trials),
        "mean_damage": mean_interval(int(d @ damage), int((d * d) @ damage), trials),
        "p_stagger": wilson(int(counts[kernels.STAGGER]), trials),
        "p_knockdown": wilson(int(counts[kernels.KNOCKDOWN]), trials),
        "p_incapacitated": wilson(int(damage[max(0, attack.st - 1) :].sum()), trials),
        "p_killed": wilson(int(damage[attack.st :].sum()), trials),
        "p_weapon_lost": wilson(int(counts[kernels.LOST]), trials),
    }
    extras: dict[str, float] = {}
    if attack.splash_per_die is not None:
        low, high = mean_interval(int(counts[kernels.DICE]), int(counts[kernels.DICE_SQ]), trials)
        per_die = attack.splash_per_die
        extras[SPLASH_METRIC] = per_die * int(counts[kernels.DICE]) / trials
        ci[SPLASH_METRIC] = (per_die * low, per_die * high)
    if attack.blast is not None:
        distance_sums = tallies[2]
        for k in BLAST_DISTANCES:
            dice = float(attack.blast.dice_at[k])
            extras[f"dice_at_{k}"] = dice
            ci[f"dice_at_{k}"] = (dice, dice)
            total, total_sq = int(distance_sums[k, 0]), int(distance_sums[k, 1])
            extras[f"mean_damage_at_{k}"] = total / trials
            ci[f"mean_damage_at_{k}"] = mean_interval(total, total_sq, trials)
    outcome = Outcome(
        joint=joint / trials,
        p_stagger=int(counts[kernels.STAGGER]) / trials,
        p_knockdown=int(counts[kernels.KNOCKDOWN]) / trials,
        p_weapon_lost=int(counts[kernels.LOST]) / trials,
        extras=extras,
    )
    return outcome, ci


def sample_outcome(attack: ResolvedAttack, **options: Any) -> SampledOutcome:
    """Sample an attack: ``options`` are those of :func:`simlab.engine.blocks.sample_cell` (``trials``, ``seed``...)."""
    _check_draws(attack)
    kernel = _blast if attack.blast is not None else _direct_fire
    tallies = sample_cell(partial(kernel, attack), **options)
    trials = options["trials"]
    outcome, ci = tallies_to_outcome(attack, tallies, trials)
    return SampledOutcome(outcome, ci, trials, int(tallies[1][kernels.DRAWS]), tallies)
