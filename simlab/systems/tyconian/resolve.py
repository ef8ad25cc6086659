"""From scenario and rules to the tables one Tyconian attack is computed from (TYC-3 to TYC-6).

:func:`resolve` validates the scenario and works out everything that does not depend on
the dice: each shot's effective skill (recoil growing shot by shot), the full-auto dice,
and per location the damage dice that get through, the blunt trauma and the capacity.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from simlab.inputs.errors import ScenarioError, UnknownNameError
from simlab.inputs.tables import RowOverrides, Table, Tables
from simlab.systems.tyconian.damage import blunt_trauma, dice_left
from simlab.systems.tyconian.fire import effective_skill, range_band, recoil_penalties, strength_prime
from simlab.systems.tyconian.full_auto import FullAutoFire, full_auto_fire
from simlab.systems.tyconian.plans import FirePlan, fire_plan
from simlab.systems.tyconian.rules import (
    HANDS_FIRST,
    TACTICS_BONUS,
    TWO_WEAPON_PENALTY,
    Armour,
    Rules,
    Scenario,
    Weapon,
    action_points,
    armours,
    full_auto_rows,
    hit_locations,
    rows_by_roll,
    weapons,
)
from simlab.systems.tyconian.wounds import capacity

__all__ = ["ResolvedAttack", "resolve", "location_table", "dice_through", "capacities", "LOCATIONS"]

#: Locations in table order (TYC-5.1).
LOCATIONS = tuple(row.name for row in hit_locations())


@dataclass(frozen=True, eq=False)
class ResolvedAttack:
    """Everything a Tyconian attack's outcome depends on.

    Attributes:
        scenario: The inputs.
        rules: The rule parameters.
        weapon: The weapon row.
        armour: The target's armour row.
        band: Range band of the (first) shot.
        skills: Effective skill of each shot or burst (single and burst modes).
        shot_steps: Location steps each shot may move toward the aimed location (aim points).
        rounds_per_hit_roll: Rounds of a burst rolled as full-auto dice (``per_round`` reading), or 0.
        hit_face: Face a full-auto die needs to hit.
        auto: The full-auto fire (full_auto mode), else None.
        location_of_roll: Location index of each d20 roll (index 1..20).
        target_index: Index of the aimed location.
        whole_dice: Whole d8 that get through at each location.
        half_die: 1 where a d4 gets through at each location.
        trauma: Blunt trauma at each location.
        capacity: Damage capacity of each location (TYC-6.1).
        max_damage_per_hit: Most damage one hit can do.
        plan_seconds: The second of each shot when a fire plan set them (TYC-2.3).
    """

    scenario: Scenario
    rules: Rules
    weapon: Weapon
    armour: Armour
    band: str
    skills: tuple[int, ...]
    shot_steps: tuple[int, ...]
    rounds_per_hit_roll: int
    hit_face: int
    auto: FullAutoFire | None
    location_of_roll: npt.NDArray[np.int64]
    target_index: int
    whole_dice: npt.NDArray[np.int64]
    half_die: npt.NDArray[np.int64]
    trauma: npt.NDArray[np.int64]
    capacity: npt.NDArray[np.int64]
    max_damage_per_hit: int
    plan_seconds: tuple[int, ...] = ()

    @property
    def max_hits(self) -> int:
        """Most hits the attack can score."""
        if self.auto is not None:
            return self.auto.dice
        if self.rounds_per_hit_roll:
            return len(self.skills) * self.rounds_per_hit_roll
        return len(self.skills)


def _weapon(scenario: Scenario, overrides: Mapping[str, Any], table: Table[Weapon]) -> Weapon:
    return table.resolve_required(scenario.weapon or None, overrides, "tyconian")


def _check(scenario: Scenario, weapon: Weapon, rules: Rules) -> None:
    automatic = weapon.automatic_rof is not None
    if scenario.tactics != "none" and not scenario.plan:
        raise ScenarioError("tactics changes the action points of a fire plan: set plan as well (TYC-2.1, TYC-2.3)")
    if scenario.plan:
        wanted = "burst" if scenario.plan == "burst" else "single"
        if scenario.mode != wanted:
            raise ScenarioError(f"a {scenario.plan} fire plan fires in mode {wanted}, not {scenario.mode} (TYC-2.3)")
        if scenario.plan == "aimed" and not (scenario.aim or scenario.aim_location):
            raise ScenarioError("an aimed fire plan needs aim or aim_location points before each shot (TYC-2.3)")
    if scenario.mode != "single" and not automatic:
        raise ScenarioError(
            f"{weapon.name!r} (ROF {weapon.rof}) fires single shots only: burst and full_auto need a numeric ROF"
        )
    if scenario.mode != "single" and (scenario.aim or scenario.aim_location):
        raise ScenarioError("bursts and full automatic fire never get aim (TYC-3.2)")
    if (scenario.aim or scenario.aim_location) and scenario.movement != "still":
        raise ScenarioError(f"no aimed fire while {scenario.movement} (TYC-3.2)")
    for name, points in (("aim", scenario.aim), ("aim_location", scenario.aim_location)):
        if points > rules.max_aim_points:
            raise ScenarioError(f"{name} is at most {rules.max_aim_points} points (TYC-3.2), not {points}")
    if scenario.mode == "full_auto" and scenario.movement not in ("still", "walk"):
        raise ScenarioError(f"full automatic fire only standing or walking, not {scenario.movement} (TYC-4.1)")
    if scenario.target_location not in LOCATIONS:
        raise UnknownNameError("target_location", scenario.target_location, LOCATIONS)


def resolve(
    scenario: Scenario, rules: Rules, row_overrides: RowOverrides | None = None, tables: Tables | None = None
) -> ResolvedAttack:
    """Resolve one attack: effective skills, full-auto dice and per-location damage.

    Raises:
        SimlabError: For unknown rows or columns and for scenarios the rules forbid.
    """
    overrides = row_overrides or {}
    tables = tables or {}
    weapon = _weapon(scenario, overrides.get("weapon", {}), tables.get("weapons", weapons()))
    armour = tables.get("armor", armours()).resolve(scenario.armor or None, overrides.get("armor", {}))
    _check(scenario, weapon, rules)
    aimed = scenario.aim > 0 or scenario.aim_location > 0
    band = range_band(scenario.range_m, weapon.short_range_m, sights=scenario.sights, aimed=aimed, rules=rules)
    if band is None:
        raise ScenarioError(
            f"{scenario.range_m:g} m is beyond extreme range (16 x {weapon.short_range_m:g} m) "
            f"of {weapon.name!r} (TYC-3.1)"
        )
    loaded = weapon.magazine if scenario.loaded is None else scenario.loaded
    if not scenario.two_weapons and (scenario.two_weapon_fire != "one_at_a_time" or scenario.hand != "off"):
        raise ScenarioError("two_weapon_fire and hand describe firing two weapons: set two_weapons=true (TYC-3.5)")
    same_second = scenario.two_weapon_fire == "same_second"
    str_prime = strength_prime(
        scenario.firer_str, scenario.movement, two_weapons=scenario.two_weapons, both_same_second=same_second
    )
    auto = None
    seconds: tuple[int, ...] = ()
    skills: tuple[int, ...] = ()
    steps: tuple[int, ...] = ()
    per_round = 0
    hit_face = rules.close_hit_face if band == "close" else rules.full_auto_hit_face
    if scenario.mode == "full_auto":
        assert weapon.automatic_rof is not None
        burst = weapon.burst_recoil if weapon.burst_recoil is not None else weapon.recoil
        auto = full_auto_fire(
            weapon.automatic_rof, 0 if "recoilless" in weapon.flags else burst, loaded, band, str_prime,
            tables.get("full_auto", full_auto_rows()), rules,
        )  # fmt: skip
    else:
        rounds_each = weapon.automatic_rof if scenario.mode == "burst" else 1
        assert rounds_each is not None
        shots = scenario.shots
        every_shot_aimed = scenario.plan == "aimed"
        positions: list[int] | None = None  # with a two-weapon plan: this hand's shots among both hands'
        if scenario.plan:
            plan = _plan(scenario, weapon, rules, tables)
            positions = list(range(plan.shots))
            if scenario.two_weapons:
                positions = positions[HANDS_FIRST.index(scenario.hand) :: 2]
            if not positions:
                raise ScenarioError(f"DEX {scenario.dex} leaves no points for a {scenario.plan} shot this turn (TYC-2)")
            shots = len(positions)
            seconds = tuple(plan.seconds[i] for i in positions)
        scenario = dataclasses.replace(scenario, shots=shots)
        if scenario.shots * rounds_each > loaded:
            raise ScenarioError(
                f"{scenario.shots} {scenario.mode} shot(s) need {scenario.shots * rounds_each} rounds; "
                f"{loaded} are loaded"
            )
        if scenario.mode == "burst" and rules.burst_hits == "per_round":
            per_round = rounds_each
            skills = (0,) * scenario.shots
        else:
            recoil = (
                weapon.burst_recoil if scenario.mode == "burst" and weapon.burst_recoil is not None else weapon.recoil
            )
            if "recoilless" in weapon.flags:
                recoil = 0
            elif scenario.braced and "pistol" in weapon.flags:
                recoil = max(0, recoil - 1)
            # Recoil builds over every shot of the turn, both hands' with two weapons (TYC-3.4).
            fired = scenario.shots if positions is None else plan.shots
            penalties = recoil_penalties([recoil] * fired, str_prime)
            if positions is not None:
                penalties = [penalties[i] for i in positions]
            two_weapon = TWO_WEAPON_PENALTY[scenario.two_weapon_fire, scenario.hand] if scenario.two_weapons else 0
            skills = tuple(
                effective_skill(
                    scenario.skill,
                    scenario.aim if (i == 0 or every_shot_aimed) else 0,
                    band if (i == 0 or every_shot_aimed) else _band_unaimed(scenario, weapon, rules),
                    target_ran=scenario.target_ran,
                    obscured=scenario.obscured,
                    recoil_penalty=penalty,
                    two_weapon_penalty=two_weapon if scenario.two_weapons else 0,
                    rules=rules,
                )
                for i, penalty in enumerate(penalties)
            )
        steps = tuple(scenario.aim_location if (i == 0 or every_shot_aimed) else 0 for i in range(scenario.shots))
    location_of_roll = location_table(tables)
    whole, half, trauma = dice_through(weapon.damage, armour, scenario.cover_av, weapon.penetration, rules)
    caps = capacities(scenario.target_str, scenario.target_end)
    return ResolvedAttack(
        scenario=scenario,
        plan_seconds=seconds,
        rules=rules,
        weapon=weapon,
        armour=armour,
        band=band,
        skills=skills,
        shot_steps=steps,
        rounds_per_hit_roll=per_round,
        hit_face=hit_face,
        auto=auto,
        location_of_roll=location_of_roll,
        target_index=LOCATIONS.index(scenario.target_location),
        whole_dice=whole,
        half_die=half,
        trauma=trauma,
        capacity=caps,
        max_damage_per_hit=int((8 * whole + 4 * half + trauma).max()),
    )


def _plan(scenario: Scenario, weapon: Weapon, rules: Rules, tables: Tables) -> FirePlan:
    """The turn's fire plan of a scenario: its Tactics roll and both weapons' shots (TYC-2.1, TYC-2.3, TYC-3.5)."""
    return fire_plan(
        scenario.dex,
        weapon,
        scenario.plan,
        scenario.aim + scenario.aim_location,
        tables.get("action_points", action_points()),
        bonus=TACTICS_BONUS[scenario.tactics],
        upfront=rules.tactics_cost if scenario.tactics == "roll" else 0,
        two_weapons=scenario.two_weapon_fire if scenario.two_weapons else "",
        most_points=rules.max_action_points,
    )


def dice_through(
    dice: float, armour: Armour, cover_av: int, penetration: str, rules: Rules
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Per location, the whole d8, the half d4 (0 or 1) and the blunt trauma of ``dice`` through cover and armour.

    TYC-5.2 (armour removes dice by penetration), TYC-5.3 (blunt trauma; cover first, without trauma).
    """
    whole = np.zeros(len(LOCATIONS), np.int64)
    half = np.zeros(len(LOCATIONS), np.int64)
    trauma = np.zeros(len(LOCATIONS), np.int64)
    for i, location in enumerate(LOCATIONS):
        through_cover = dice_left(dice, cover_av, penetration)
        left = dice_left(through_cover, armour.av_at(location), penetration)
        whole[i] = int(left)
        half[i] = int(left - int(left) >= 0.5)
        trauma[i] = blunt_trauma(through_cover - left, rules)
    return whole, half, trauma


def capacities(strength: int, endurance: int) -> npt.NDArray[np.int64]:
    """Damage capacity of each location, in table order (TYC-6.1)."""
    return np.array([capacity(location, strength, endurance) for location in LOCATIONS], np.int64)


def location_table(tables: Tables) -> npt.NDArray[np.int64]:
    """The location index of each d20 roll (index 1..20, TYC-5.1)."""
    return np.array(rows_by_roll(list(tables.get("hit_locations", hit_locations()))), np.int64)


def _band_unaimed(scenario: Scenario, weapon: Weapon, rules: Rules) -> str:
    """The band of the shots after the first (no aim: a scope does not lengthen R, electronic sights do)."""
    band = range_band(scenario.range_m, weapon.short_range_m, sights=scenario.sights, aimed=False, rules=rules)
    if band is None:
        raise ScenarioError(f"{scenario.range_m:g} m is beyond extreme range of {weapon.name!r} without aim (TYC-3.1)")
    return band
