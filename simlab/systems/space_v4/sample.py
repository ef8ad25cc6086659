"""Sampling Space Combat V4: kernel inputs, block functions and estimates with 95 % intervals."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from simlab.engine.blocks import Tallies, sample_cell
from simlab.engine.interpreted import block_functions
from simlab.engine.intervals import Estimates, mean_interval
from simlab.systems.space_v4 import kernels as k
from simlab.systems.space_v4.duel import ResolvedDuel, resolve_duel
from simlab.systems.space_v4.outcomes import MARGIN_SERIES
from simlab.systems.space_v4.resolve import ResolvedAttack, resolve
from simlab.systems.space_v4.rules import Rules, Scenario, naturals

__all__ = [
    "attack_tallies",
    "python_attack_tallies",
    "duel_tallies",
    "python_duel_tallies",
    "sample_attack",
    "sample_duel",
    "attack_estimates",
    "duel_estimates",
]


def attack_ints(attack: ResolvedAttack) -> np.ndarray:
    """The one-attack kernel's parameters, indexed by ``k.ROLLS`` ... ``k.GUNNER_DM``."""
    rules = attack.rules
    values = {
        k.ROLLS: attack.rolls,
        k.PER_ROLL: attack.per_roll,
        k.PER_WEAPON_HITS: attack.per_weapon_hits,
        k.DM: attack.dm,
        k.TO_HIT: rules.to_hit,
        **dict(zip((k.NATURAL_RULES, k.NATURAL_HIT), naturals(rules), strict=True)),
        k.NEED_HELD: attack.need_held,
        k.NEED_FIRED: attack.need_fired,
        k.REDUCTION: attack.reduction,
        k.PER_CRITICAL: rules.hits_per_critical,
        k.CUMULATIVE: int(rules.crit_accounting == "cumulative"),
        k.GUNNER_DM: attack.terms.get("gunner", 0),
    }
    return np.array([values[i] for i in range(k.N_ATTACK_INTS)], np.int64)


def _attack_arguments(attack: ResolvedAttack) -> tuple[Any, ...]:
    return attack_ints(attack), attack.applied, attack.pd


def _new_attack_tallies(attack: ResolvedAttack) -> Tallies:
    return (
        np.zeros(attack.max_applied + 1, np.int64),
        np.zeros((3, int(attack.margin.max()) + 1), np.int64),
        np.zeros(k.N_ATTACK_COUNTS, np.int64),
    )


#: The compiled block function of one attack, and its interpreted twin (the plain reference).
attack_tallies, python_attack_tallies = block_functions(
    k.attack_block, _attack_arguments, _new_attack_tallies, lambda: _attack_twin_examples()
)


def attack_estimates(tallies: Tallies, trials: int) -> Estimates:
    """The metrics of one attack (SPC-8) from summed tallies, with their intervals."""
    hist, by_margin, counts = tallies
    found = Estimates(trials)
    found.probability("p_hit", int(hist[1:].sum()))
    found.histogram_mean("mean_applied_hits", hist)
    found.mean("mean_criticals", counts[k.CRITS], counts[k.CRITS_SQ])
    found.mean("mean_missiles_destroyed", counts[k.DESTROYED], counts[k.DESTROYED_SQ])
    found.histogram("applied_hits", hist)
    for margin in np.flatnonzero(by_margin[0]):
        rolls, total, square = (int(v) for v in by_margin[:, margin])
        found.metrics[f"{MARGIN_SERIES}{margin}"] = total / rolls
        found.ci95[f"{MARGIN_SERIES}{margin}"] = mean_interval(total, square, rolls)
    return found


def sample_attack(attack: ResolvedAttack, **options: Any) -> Estimates:
    """Sample one attack: ``options`` are those of :func:`simlab.engine.blocks.sample_cell`."""
    return attack_estimates(sample_cell(partial(attack_tallies, attack), **options), options["trials"])


def _duel_arguments(duel: ResolvedDuel) -> tuple[Any, ...]:
    return duel.sides, duel.turrets, duel.rule_ints, duel.band_dm, duel.band_fires, duel.applied


def _new_duel_tallies(duel: ResolvedDuel) -> Tallies:
    turns = duel.rules.max_turns + 1
    return np.zeros(turns, np.int64), np.zeros((2, turns), np.int64), np.zeros(k.N_DUEL_COUNTS, np.int64)


#: The compiled block function of a duel, and its interpreted twin.
duel_tallies, python_duel_tallies = block_functions(
    k.duel_block, _duel_arguments, _new_duel_tallies, lambda: _duel_twin_examples()
)


def duel_estimates(tallies: Tallies, trials: int) -> Estimates:
    """The metrics of a duel (SPC-7) from summed tallies, with their intervals."""
    turns, wins, counts = tallies
    found = Estimates(trials)
    found.probabilities(counts, {"p_a_wins": k.A_WINS, "p_b_wins": k.B_WINS, "p_draw": k.NEITHER})
    found.mean("mean_turns", counts[k.TURNS], counts[k.TURNS_SQ])
    for name, total in (
        ("mean_hits_on_a", k.HITS_ON_A),
        ("mean_hits_on_b", k.HITS_ON_B),
        ("mean_missiles_a", k.MISSILES_A),
        ("mean_missiles_b", k.MISSILES_B),
    ):
        found.mean(name, counts[total], counts[total + 1])
    found.probability("p_a_first", counts[k.A_FIRST])
    found.histogram("turns", turns)
    found.histogram("turns_a_wins", wins[0])
    found.histogram("turns_b_wins", wins[1])
    return found


def sample_duel(duel: ResolvedDuel, **options: Any) -> Estimates:
    """Sample duels: ``options`` are those of :func:`simlab.engine.blocks.sample_cell`."""
    return duel_estimates(sample_cell(partial(duel_tallies, duel), **options), options["trials"])


def _attack_twin_examples() -> list[ResolvedAttack]:
    """The attacks the kernel and its twin are checked on.

    Missiles into point defence, beams one roll each with the engineer's bonus, nuclear missiles at
    a dedicated defence.
    """
    nuclear = Scenario(weapon="nuclear", count=2, range_band="very_short", pd_turrets="2", pd_dedicated=True)
    return [
        resolve(Scenario(weapon="missile", count=6, pd_turrets="3,2,1"), Rules()),
        resolve(Scenario(weapon="beam", count=5, engineer_bonus=True), Rules(grouping="per_weapon")),
        resolve(nuclear, Rules()),
    ]


def _duel_twin_examples() -> list[ResolvedDuel]:
    """The duels the kernel and its twin are checked on: a far trader holding a laser back against a scout closing."""
    a, b = {"ship": "far trader", "pd_hold": 1}, {"ship": "scout", "range_policy": "close"}
    return [resolve_duel(a, b, Rules(), ({}, {}))]
