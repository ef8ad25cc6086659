"""Explosions, lobbed grenades and indirect fire at one figure (TYC-7.1, TYC-7.3, TYC-7.4).

Two questions share one sampler (:func:`.blast_kernels.blast_block`): an ``explosion`` at a
known distance from the target, and ``indirect_fire``, a salvo of rounds (or grenades
lobbed one after another) aimed at the target, each landing on it or deviating. Choices
where the spec is silent:

* The locations an explosion reaches are rolled on the hit location table (TYC-5.1), a
  location already hit rolled again, until there are as many as the dice rounded up (at
  most 7); beyond 7, every location once and the rest rolled on the table as repeats.
* Every location rolls all the dice through cover and armour as a hit of a weapon with the
  explosive's penetration does (TYC-5.2, TYC-5.3). Knockdown compares one explosion's damage
  with DEX; each head hit rolls for stun (TYC-6.4).
* A round on target lands at the target's feet (ground zero, under ½ m): the spec's "hit".
* Indirect fire: the chance in % is ``min(cap, 5 × min(observer, gunner) + 10 × corrections)``
  (hand-held weapons: half the gunner's skill), rolled as 1d20 ≤ chance / 5. The first round
  of a salvo rolls to hit; a miss deviates ``(d10 − corrections') × step`` m, at least one
  step, in direction d10 (36° apart). Later rounds land around the first impact,
  ``max(0, d10 − 5 − corrections') × step`` m away. ``corrections'`` is the corrections up
  to the cap of the delivery (−3 hand-held, −5 ground, −7 orbital); the step doubles beyond
  half range.
* Lobbed grenades: every throw is a skill roll (TYC-1) at the thrower's skill (halved, round
  off, at long range), +2 (10 %) for each throw before it at the same stationary target; a
  miss deviates d10 steps of 1 m (2 m at long range), at most half the distance thrown.
* Shaped charges (TYC-7.1) are used on their axis unless ``on_axis`` is false; off it they
  have a quarter of the radius and half the damage.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from simlab.inputs.errors import ScenarioError
from simlab.inputs.params import SKILL, spec_field
from simlab.inputs.tables import RowOverrides, Table, Tables
from simlab.mechanics.d20 import p_skill_success, round_off
from simlab.systems.tyconian.damage import hit_damage
from simlab.systems.tyconian.questions.explosives import Explosive, dice_at, explosives, shaped
from simlab.systems.tyconian.resolve import LOCATIONS, capacities, dice_through, location_table
from simlab.systems.tyconian.rules import Armour, Rules, Target, armours
from simlab.systems.tyconian.wounds import LIMBS

__all__ = [
    "ExplosionScenario",
    "IndirectFireScenario",
    "ResolvedBlast",
    "resolve_explosion",
    "resolve_indirect_fire",
    "DELIVERIES",
    "location_reach",
    "exact_mean_damage",
]

#: Deliveries of indirect fire: (chance cap %, deviation step m, most corrections on the distance roll).
DELIVERIES: dict[str, tuple[int, float, int]] = {
    "hand_held": (60, 5.0, 3),
    "howitzer": (75, 10.0, 5),
    "rockets": (75, 20.0, 5),
    "orbital": (85, 20.0, 7),
    "lobbed": (100, 1.0, 0),
}
#: Most rounds of one salvo (keeps a trial's draws inside its window of the stream).
MAX_ROUNDS = 20
# Sampler modes.
FIXED, ARTILLERY, LOBBED = range(3)


@dataclass(frozen=True)
class ExplosionScenario(Target):
    """Inputs of an explosion near one figure (TYC-7.1)."""

    explosive: str = spec_field("", doc="row of the explosives table")
    distance_m: float = spec_field(0.0, doc="distance of the target from the burst, metres", minimum=0, maximum=100000)
    on_axis: bool = spec_field(True, doc="a shaped charge points at the target (TYC-7.1)")


@dataclass(frozen=True)
class IndirectFireScenario(Target):
    """Inputs of a salvo of indirect fire, or of grenades lobbed, at one figure (TYC-7.3, TYC-7.4)."""

    explosive: str = spec_field("", doc="row of the explosives table")
    delivery: str = spec_field(
        "howitzer", doc="hand_held, howitzer, rockets, orbital (TYC-7.4) or lobbed (TYC-7.3)", choices=tuple(DELIVERIES)
    )
    rounds: int = spec_field(
        1, doc=f"rounds in the salvo (or grenades thrown), 1-{MAX_ROUNDS}", minimum=1, maximum=MAX_ROUNDS
    )
    skill: int = spec_field(10, doc="gunner's (or thrower's) skill, d20 scale", **SKILL)
    observer_skill: int | None = spec_field(
        None, doc="forward observer's skill; blank: the gunner sees the target", **SKILL
    )
    corrections: int = spec_field(0, doc="corrections called in before the salvo (TYC-7.4)", minimum=0, maximum=99)
    beyond_half_range: bool = spec_field(False, doc="firing beyond half the weapon's indirect range (TYC-7.4)")
    range_m: float = spec_field(
        20.0, doc="distance thrown (lobbed): 3 x STR, long range to twice that", minimum=0, maximum=100000
    )
    thrower_str: int = spec_field(10, doc="thrower's STR (lobbed, TYC-7.3)", minimum=1, maximum=99)


@dataclass(frozen=True, eq=False)
class ResolvedBlast:
    """Everything the sampler and the exact parts need of one explosion or salvo.

    Attributes:
        scenario: The inputs.
        rules: The rule parameters.
        explosive: The explosive, shaped off axis where that applies.
        armour: The target's armour.
        mode: FIXED (one burst at a distance), ARTILLERY or LOBBED.
        rounds: Bursts per trial.
        halves_by_bucket: Half-dice at each distance bucket: 0 under ½ m, ``k + 1`` for
            ``floor(r) = k``; beyond the table, none.
        fixed_bucket: The bucket of a FIXED burst.
        parts: ``(halves, 3, 7)``: whole d8, half d4 and blunt trauma per location for each
            count of half-dice.
        capacity: Damage capacity per location.
        limb: 1 for the limbs.
        location_of_roll: Location index of each d20 roll.
        chance: Roll at most this on 1d20 to land on target (first round or throw).
        chance_step: Added to ``chance`` for each throw before (lobbed).
        step_m: Metres per point of the deviation roll.
        max_deviation_m: Longest deviation (lobbed: half the distance thrown), or infinity.
        first_reduction: Taken from the d10 of a missed round.
        later_reduction: Taken from the d10 of later rounds (artillery).
    """

    scenario: ExplosionScenario | IndirectFireScenario
    rules: Rules
    explosive: Explosive
    armour: Armour
    mode: int
    rounds: int
    halves_by_bucket: npt.NDArray[np.int64]
    fixed_bucket: int
    parts: npt.NDArray[np.int64]
    capacity: npt.NDArray[np.int64]
    limb: npt.NDArray[np.int64]
    location_of_roll: npt.NDArray[np.int64]
    chance: int = 0
    chance_step: int = 0
    step_m: float = 0.0
    max_deviation_m: float = math.inf
    first_reduction: int = 0
    later_reduction: int = 0

    @property
    def max_damage(self) -> int:
        """Most damage the target can take in one trial."""
        per_burst = (8 * self.parts[:, 0] + 4 * self.parts[:, 1] + self.parts[:, 2]).max(axis=1)
        most_locations = -(-self.halves_by_bucket.max() // 2)
        return int(per_burst.max() * most_locations * self.rounds)


def _rows(
    scenario: Any, overrides: RowOverrides, tables: Tables
) -> tuple[Explosive, Armour]:
    table: Table[Explosive] = tables.get("explosives", explosives())
    if not scenario.explosive and not overrides.get("explosive"):
        raise ScenarioError(f"explosive is required (valid: {', '.join(row.name for row in table)})")
    explosive = table.resolve(scenario.explosive or None, overrides.get("explosive", {}))
    armour = tables.get("armor", armours()).resolve(scenario.armor or None, overrides.get("armor", {}))
    return explosive, armour


def _halves_by_bucket(explosive: Explosive, rules: Rules) -> npt.NDArray[np.int64]:
    """Half-dice by distance bucket (TYC-7.1): under ½ m, then each whole metre to the radius."""
    buckets = [0.0] + [float(k) + 0.5 if k == 0 else float(k) for k in range(math.ceil(explosive.radius_m) + 1)]
    return np.array([round(2 * dice_at(r, explosive.damage, explosive.radius_m, rules.rounding)) for r in buckets])


def _base(
    scenario: Any, rules: Rules, explosive: Explosive, armour: Armour, tables: Tables
) -> dict[str, Any]:
    halves = _halves_by_bucket(explosive, rules)
    parts = np.zeros((int(halves.max()) + 1, 3, len(LOCATIONS)), np.int64)
    for h in range(parts.shape[0]):
        parts[h] = np.vstack(dice_through(h / 2, armour, scenario.cover_av, explosive.penetration, rules))
    return {
        "scenario": scenario,
        "rules": rules,
        "explosive": explosive,
        "armour": armour,
        "halves_by_bucket": halves,
        "parts": parts,
        "capacity": capacities(scenario.target_str, scenario.target_end),
        "limb": np.array([name in LIMBS for name in LOCATIONS], np.int64),
        "location_of_roll": location_table(tables),
    }


def bucket_of(distance_m: float) -> int:
    """The distance bucket of :attr:`ResolvedBlast.halves_by_bucket`: 0 under ½ m, else ``floor(r) + 1``."""
    return 0 if distance_m < 0.5 else math.floor(distance_m) + 1


def resolve_explosion(
    scenario: ExplosionScenario, rules: Rules, row_overrides: RowOverrides | None = None, tables: Tables | None = None
) -> ResolvedBlast:
    """Resolve an explosion at ``distance_m`` from the target (TYC-7.1).

    Raises:
        SimlabError: For unknown rows or columns.
    """
    tables = tables or {}
    explosive, armour = _rows(scenario, row_overrides or {}, tables)
    if explosive.shaped:
        damage, radius = shaped(explosive.damage, explosive.radius_m, on_axis=scenario.on_axis)
        explosive = dataclasses.replace(explosive, damage=damage, radius_m=radius)
    base = _base(scenario, rules, explosive, armour, tables)
    beyond = scenario.distance_m >= explosive.radius_m
    bucket = len(base["halves_by_bucket"]) if beyond else bucket_of(scenario.distance_m)
    return ResolvedBlast(mode=FIXED, rounds=1, fixed_bucket=bucket, **base)


def resolve_indirect_fire(
    scenario: IndirectFireScenario,
    rules: Rules,
    row_overrides: RowOverrides | None = None,
    tables: Tables | None = None,
) -> ResolvedBlast:
    """Resolve a salvo of indirect fire or of lobbed grenades (TYC-7.3, TYC-7.4).

    Raises:
        SimlabError: For unknown rows, too many rounds, or a throw beyond long range.
    """
    if scenario.rounds > MAX_ROUNDS:
        raise ScenarioError(f"rounds: at most {MAX_ROUNDS} in one salvo, got {scenario.rounds}")
    tables = tables or {}
    explosive, armour = _rows(scenario, row_overrides or {}, tables)
    base = _base(scenario, rules, explosive, armour, tables)
    cap, step, most_corrections = DELIVERIES[scenario.delivery]
    if scenario.delivery == "lobbed":
        effective = 3 * scenario.thrower_str
        if scenario.range_m > 2 * effective:
            raise ScenarioError(
                f"range_m: {scenario.range_m:g} m is beyond long range of a lob, {2 * effective} m "
                f"(3 x STR {scenario.thrower_str}, doubled; TYC-7.3)"
            )
        long = scenario.range_m > effective
        skill = round_off(scenario.skill / 2, rules.rounding) if long else scenario.skill
        return ResolvedBlast(
            mode=LOBBED,
            rounds=scenario.rounds,
            fixed_bucket=0,
            chance=skill,
            chance_step=2,
            step_m=2.0 if long else 1.0,
            max_deviation_m=scenario.range_m / 2,
            **base,
        )
    gunner = scenario.skill // 2 if scenario.delivery == "hand_held" else scenario.skill
    seen = gunner if scenario.observer_skill is None else min(scenario.observer_skill, gunner)
    percent = max(0, min(cap, 5 * seen + 10 * scenario.corrections))
    reduction = min(scenario.corrections, most_corrections)
    return ResolvedBlast(
        mode=ARTILLERY,
        rounds=scenario.rounds,
        fixed_bucket=0,
        chance=percent // 5,
        step_m=step * (2 if scenario.beyond_half_range else 1),
        first_reduction=reduction,
        later_reduction=5 + reduction,
        **base,
    )


def p_on_target(blast: ResolvedBlast, throw: int = 0) -> float:
    """Chance that the first round (or throw number ``throw``, from 0) lands on target."""
    rules = blast.rules
    if blast.mode == LOBBED:
        return p_skill_success(
            blast.chance + blast.chance_step * throw,
            die=rules.skill_die,
            critical_success_max=rules.critical_success_max,
            critical_failure_min=rules.critical_failure_min,
        )
    if blast.mode == ARTILLERY:
        return min(20, blast.chance) / 20
    return 1.0


def location_reach(location_of_roll: npt.NDArray[np.int64], reached: int) -> npt.NDArray[np.float64]:
    """Expected times each location is hit by an explosion reaching ``reached`` locations (TYC-7.1).

    Distinct locations are rolled on the table until ``min(reached, 7)`` are found, so each
    ordered choice has the chance of its rolls given the locations already taken; repeats
    beyond 7 roll the table freely.
    """
    weights = np.bincount(location_of_roll[1:], minlength=len(LOCATIONS)) / 20
    n = len(weights)
    distinct = min(reached, n)
    expected = np.zeros(n)
    if distinct == n:
        expected += 1
    else:
        for order in itertools.permutations(range(n), distinct):
            p, taken = 1.0, 0.0
            for location in order:
                p *= weights[location] / (1 - taken)
                taken += weights[location]
            expected[list(order)] += p
    return expected + max(0, reached - n) * weights


def exact_mean_damage(blast: ResolvedBlast, bucket: int) -> float:
    """Expected damage of one burst at a distance bucket (TYC-7.1, TYC-5.2, TYC-5.3)."""
    if bucket >= len(blast.halves_by_bucket):
        return 0.0
    halves = int(blast.halves_by_bucket[bucket])
    if halves == 0:
        return 0.0
    reach = location_reach(blast.location_of_roll, -(-halves // 2))
    means = [
        hit_damage(
            halves / 2, blast.armour.av_at(name), blast.scenario.cover_av, blast.explosive.penetration, blast.rules
        ).mean()
        for name in LOCATIONS
    ]
    return float(reach @ np.array(means))
