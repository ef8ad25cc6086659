"""From scenario and rules to a resolved attack: adjusted DX and the roll table (TFT-2, TFT-3).

:func:`resolve` validates the scenario against the weapon (modes, movement, quickdraw),
computes the adjusted DX term by term and tabulates the attack roll. Both the exact engine
and the samplers start from the :class:`ResolvedAttack` it returns, so they can only differ
in how they roll dice, never in how they read the rules.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from simlab.inputs.errors import ScenarioError, SimlabError, UnknownNameError
from simlab.inputs.tables import Table, Tables
from simlab.mechanics.armour import halve_up
from simlab.mechanics.roll_under import RollTable, roll_table
from simlab.systems.hitech_tft.rules import DEFAULT_RANGE_M, Armour, Rules, Scenario, Weapon, armours, weapons

__all__ = [
    "ResolvedAttack",
    "Blast",
    "resolve",
    "adjusted_dx_terms",
    "clip_spent",
    "range_modifier",
    "effective_range",
    "resolve_weapon",
]

TALENT_MODIFIER = {"none": -2, "talent": 0, "expert": 2}
FIRE_MODIFIER = {"normal": 0, "opfire": -2, "overwatch": 0}
MODE_EXTRA = {"four": 0, "half": 1, "full": 2, "burst": 0}
#: Largest scatter of a missed blast, hexes (TFT-7.2: 1d6).
MAX_SCATTER = 6


@dataclass(frozen=True, eq=False)
class Blast:
    """Blast figures (TFT-7.3): dice and effective armour by hex distance 0..6.

    Attributes:
        dice_at: Dice at distance k from the blast (``floor(D / divisor[k])``, 0 beyond).
        protection_at: Armour at distance k (halved, rounding up, in the blast hex).
    """

    dice_at: tuple[int, ...]
    protection_at: tuple[int, ...]


@dataclass(frozen=True, eq=False)
class ResolvedAttack:
    """Everything the exact engine and the samplers need for one attack.

    Attributes:
        weapon: The weapon row (after overrides).
        armour: The armour row.
        adj_dx: Adjusted DX (TFT-2).
        adj_dx_terms: The named terms that sum to ``adj_dx``.
        quickdraw_dx: DX of the quickdraw roll, or None without quickdraw (TFT-6.3).
        table: The attack roll's outcomes (TFT-3).
        dice_per_hit: Damage dice of one hit, before criticals.
        adds_per_hit: Damage adds of one hit.
        protection: Effective armour (AP-halved where the weapon is AP or HEAP).
        per_die: Per-die (missile) or whole-attack (melee) armour.
        damage_factor: 2 for HE and HEAP, else 1 (blasts: per ``grenade_he_doubling``).
        soft: Knockdown counts dice before armour (TFT-5.1).
        st: Target's ST.
        stagger_threshold: TFT-5.2.
        knockdown_threshold: TFT-5.2.
        blast: Blast figures, or None for a direct-fire attack.
        splash_per_die: Splash points per damage die to adjacent figures (HE only), or None.
    """

    weapon: Weapon
    armour: Armour
    adj_dx: int
    adj_dx_terms: dict[str, int]
    quickdraw_dx: int | None
    table: RollTable
    dice_per_hit: int
    adds_per_hit: int
    protection: int
    per_die: bool
    damage_factor: int
    soft: bool
    st: int
    stagger_threshold: int
    knockdown_threshold: int
    blast: Blast | None
    splash_per_die: int | None

    @property
    def dice_by_roll(self) -> npt.NDArray[np.int64]:
        """Damage dice rolled for each table slot: hits x dice x critical multiplier."""
        return self.table.hits * self.table.multiplier * self.dice_per_hit

    def max_damage(self) -> int:
        """The largest damage any outcome can do (sizes the samplers' histograms)."""
        if self.blast is not None:
            most_dice = max(max(self.blast.dice_at), self.dice_per_hit * int(self.table.multiplier.max()))
            return (most_dice * 6 + max(self.adds_per_hit, 0)) * self.damage_factor
        raw = self.dice_by_roll * 6 + self.table.hits * max(self.adds_per_hit, 0)
        return int(raw.max()) * self.damage_factor


def range_modifier(range_class: str, range_m: float, rules: Rules) -> int:
    """DX modifier for range (TFT-2.2).

    Args:
        range_class: ``rifle``, ``pistol``, ``thrown`` or ``melee``.
        range_m: Distance in metres.
        rules: For ``megahex_m``, ``rifle_7_13_modifier`` and ``thrown_range_class``.
    """
    if range_class == "melee":
        return 0
    if range_class == "thrown":
        range_class = rules.thrown_range_class
    megahexes = max(1, math.ceil(range_m / rules.megahex_m))
    if range_class == "pistol":
        return -(megahexes - 1)
    metre_table = range_m > 50 if rules.metre_table_from == "51_m" else range_m > 13 * rules.megahex_m
    if metre_table:
        return -(4 + math.ceil((range_m - 50) / 50))
    if megahexes >= 7:
        return rules.rifle_7_13_modifier
    return -((megahexes - 1) // 2)


def _mode_bonus(weapon: Weapon, mode: str) -> int:
    """Autofire and shotgun DX bonus of a mode (TFT-2.5, TFT-2.6); validates the mode."""
    bonus = weapon.autofire_bonus
    flags = weapon.flags
    if mode == "single":
        return bonus if bonus is not None and flags & {"shotgun", "autoshotgun"} else 0
    if bonus is None or "shotgun" in flags or weapon.is_blast or weapon.is_melee:
        raise ScenarioError(f"weapon {weapon.name!r} cannot autofire (mode={mode}); valid modes: single")
    if weapon.is_belt != (mode == "burst"):
        valid = "single, burst" if weapon.is_belt else "single, four, half, full"
        raise ScenarioError(f"weapon {weapon.name!r} cannot fire mode={mode}; valid modes: {valid}")
    if "autoshotgun" in flags:
        bonus *= 2
    return bonus + MODE_EXTRA[mode]


def _hit_cap(weapon: Weapon, mode: str) -> int | None:
    """Most hits an autofire mode can score: the rounds it fires (TFT-3.3)."""
    clip = weapon.clip or 1
    return {"four": 4, "half": max(1, clip // 2), "full": clip, "burst": None}.get(mode, 1)


def clip_spent(weapon: Weapon, mode: str) -> int:
    """What one attack of ``mode`` takes from the clip, in the clip's unit (rounds, bursts or shots; TFT-3.3, TFT-8)."""
    return _hit_cap(weapon, mode) or 1


def adjusted_dx_terms(scenario: Scenario, weapon: Weapon, rules: Rules) -> dict[str, int]:
    """The terms of the adjusted DX (TFT-2), by name; their sum is AdjDX.

    Raises:
        ScenarioError: For a mode the weapon cannot fire, or a heavy or crew-served
            weapon fired after moving (TFT-2.3).
    """
    if "heavy" in weapon.flags and scenario.moved_hexes > 1:
        raise ScenarioError(
            f"heavy weapon {weapon.name!r} cannot fire after moved_hexes={scenario.moved_hexes}; "
            "valid: moved_hexes 0 or 1 (TFT-2.3)"
        )
    if "crew_served" in weapon.flags and scenario.moved_hexes > 0:
        raise ScenarioError(
            f"crew-served weapon {weapon.name!r} cannot fire after moved_hexes={scenario.moved_hexes}; "
            "valid: moved_hexes 0 (TFT-2.3)"
        )
    movement = (
        (-2 if scenario.moved_hexes > 1 else 0)
        + (-6 if scenario.dodged else 0)
        + (-6 if scenario.moved_over_half_ma else 0)
    )
    mode_bonus = _mode_bonus(weapon, scenario.mode)
    terms = {
        "dx": scenario.dx,
        "talent": TALENT_MODIFIER[scenario.talent],
        "range": range_modifier(weapon.range_class, effective_range(scenario, weapon, rules), rules),
        "movement": movement,
        "fire": FIRE_MODIFIER[scenario.fire],
        "mode_bonus": mode_bonus,
        "gyrostab": 1 if "gyrostab" in weapon.flags and scenario.mode != "single" else 0,
        "laser_scope": 2 if scenario.laser_scope else 0,
        "dx_mod": scenario.dx_mod,
    }
    return terms


def effective_range(scenario: Scenario, weapon: Weapon, rules: Rules) -> float:
    """The distance of the attack: ``range_m``, or when blank the default range or melee reach (TFT-2.2).

    Raises:
        ScenarioError: For a melee weapon and a target beyond its reach.
    """
    if weapon.is_melee:
        if scenario.range_m is not None and scenario.range_m > rules.melee_reach_m:
            raise ScenarioError(
                f"{weapon.name!r} is a melee weapon: the target must be within reach, at most "
                f"{rules.melee_reach_m:g} m (one megahex, rule melee_reach_m), "
                f"not range_m={scenario.range_m:g} (TFT-2.2)"
            )
        return rules.melee_reach_m if scenario.range_m is None else scenario.range_m
    return DEFAULT_RANGE_M if scenario.range_m is None else scenario.range_m


def resolve_weapon(scenario: Scenario, overrides: Mapping[str, Any], table: Table[Weapon] | None = None) -> Weapon:
    """The scenario's weapon row (``weapon`` + ``ammo``), with ``weapon.COLUMN`` overrides.

    Raises:
        SimlabError: When no weapon is named and no columns define one.
    """
    table = table or weapons()
    name = f"{scenario.weapon} {scenario.ammo}".strip() if scenario.weapon else None
    if scenario.weapon and scenario.ammo and name not in table.rows:
        loads = [row[len(scenario.weapon) + 1 :] for row in table.rows if row.startswith(f"{scenario.weapon} ")]
        if loads:
            raise UnknownNameError(f"ammo of the {scenario.weapon}", scenario.ammo, loads)
        if scenario.weapon in table.rows:
            raise ScenarioError(f"ammo {scenario.ammo!r}: the {scenario.weapon} has one load only (leave ammo blank)")
    return table.resolve_required(name, overrides, "hitech_tft")


def resolve(
    scenario: Scenario,
    rules: Rules,
    weapon_overrides: Mapping[str, Any] | None = None,
    armour_overrides: Mapping[str, Any] | None = None,
    tables: Tables | None = None,
) -> ResolvedAttack:
    """Resolve one attack: weapon, armour, AdjDX and the roll table.

    Args:
        scenario: The attack's inputs (TFT-1).
        rules: The rule parameters.
        weapon_overrides: ``weapon.COLUMN`` values (an ad-hoc weapon when no weapon is named).
        armour_overrides: ``armor.COLUMN`` values.
        tables: Tables replacing the shipped ``weapons`` or ``armor`` table (a variant's).

    Raises:
        SimlabError: For unknown rows or columns and for scenarios the rules forbid.
    """
    tables = tables or {}
    weapon = resolve_weapon(scenario, weapon_overrides or {}, tables.get("weapons"))
    armour_name = scenario.armor if scenario.armor else None
    armour = tables.get("armor", armours()).resolve(armour_name, armour_overrides or {})
    if scenario.quickdraw and (weapon.range_class != "pistol" or weapon.is_blast):
        raise ScenarioError(f"quickdraw is for pistols and submachineguns; {weapon.name!r} is not one (TFT-6.3)")
    if not rules.blast_divisors:  # each divisor's range (1 and up) is checked where the rules are built
        raise SimlabError("invalid value [] for --rule blast_divisors: expected a non-empty list of positive integers")
    terms = adjusted_dx_terms(scenario, weapon, rules)
    adj_dx = sum(terms.values())
    autofire = scenario.mode != "single"
    table = roll_table(
        adj_dx,
        criticals=rules.criticals,
        autofire=autofire,
        step=rules.autofire_step,
        thresholds=(
            rules.triple_damage_max,
            rules.double_damage_max,
            rules.automatic_hit_max,
            rules.automatic_miss_min,
            rules.weapon_lost_min,
        ),
        cap=_hit_cap(weapon, scenario.mode),
    )
    armour_piercing = bool(weapon.flags & {"AP", "HEAP"})
    protection = halve_up(armour.protection) if armour_piercing else armour.protection
    blast = None
    if weapon.is_blast:
        divisors = rules.blast_divisors
        blast = Blast(
            dice_at=tuple(weapon.dice // divisors[k] if k < len(divisors) else 0 for k in range(MAX_SCATTER + 1)),
            protection_at=tuple(halve_up(protection) if k == 0 else protection for k in range(MAX_SCATTER + 1)),
        )
        factor = 2 if rules.grenade_he_doubling else 1
    else:
        factor = 2 if weapon.flags & {"HE", "HEAP"} else 1
    splash = None
    if "HE" in weapon.flags and not weapon.is_blast:
        splash = (
            max(0, rules.he_splash_per_die - armour.protection) if rules.he_splash_armor else (rules.he_splash_per_die)
        )
    return ResolvedAttack(
        weapon=weapon,
        armour=armour,
        adj_dx=adj_dx,
        adj_dx_terms=terms,
        quickdraw_dx=scenario.dx if scenario.quickdraw else None,
        table=table,
        dice_per_hit=weapon.dice,
        adds_per_hit=weapon.adds,
        protection=protection,
        per_die=not weapon.is_melee,
        damage_factor=factor,
        soft=armour.soft,
        st=scenario.st * (armour.st_multiplier if rules.battle_dress_st == "hit_points" else 1),
        stagger_threshold=rules.stagger_threshold,
        knockdown_threshold=rules.knockdown_threshold,
        blast=blast,
        splash_per_die=splash,
    )
