"""From scenario and rules to the tables an attack is computed from (STR-2 to STR-7, STR-9).

:func:`resolve` validates the scenario, adds up the to-hit DMs and tabulates everything
that depends only on a natural 2d6 total: hits per to-hit roll, and wound level and Not
Dead Yet target per penetration roll. The exact engine and the samplers both read these
tables, so they differ only by sampling noise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from simlab.inputs.errors import ScenarioError
from simlab.inputs.tables import RowOverrides, Table, Tables
from simlab.mechanics.target_number import TABLE_SLOTS, hits_by_natural, p_at_least, p_higher_with_rerolled_ties
from simlab.systems.striker.rules import (
    Armour,
    MeleeWeapon,
    Rules,
    Scenario,
    Weapon,
    armours,
    blowthroughs,
    melee_weapons,
    weapons,
)

__all__ = [
    "CATEGORIES",
    "UNHURT",
    "LIGHT",
    "SERIOUS",
    "UNCONSCIOUS",
    "NOT_DEAD_YET",
    "KILLED",
    "NONE",
    "LEVEL_LIGHT",
    "LEVEL_SERIOUS",
    "LEVEL_DEAD",
    "Treatment",
    "suppressive_wounds",
    "ResolvedAttack",
    "resolve",
    "end_dm",
    "save_end_dm",
    "rounds_fired",
    "to_hit_terms",
]

#: Worst-outcome categories, in order (STR-6.4).
CATEGORIES = ("unhurt", "light", "serious", "unconscious", "not_dead_yet", "killed")
UNHURT, LIGHT, SERIOUS, UNCONSCIOUS, NOT_DEAD_YET, KILLED = range(6)
#: Wound levels of one hit (STR-4.3).
NONE, LEVEL_LIGHT, LEVEL_SERIOUS, LEVEL_DEAD = range(4)


def end_dm(end: int) -> int:
    """END DM of the consciousness and Not Dead Yet rolls: +1 at END 10-11, +2 at 12+ (STR-6.2)."""
    return 2 if end >= 12 else 1 if end >= 10 else 0


def save_end_dm(end: int, rules: Rules) -> int:
    """END DM of the serious-wound save: +1 at END 10+, no +2 step (STR-7.1); ``steps`` reads it as STR-6.2."""
    return end_dm(end) if rules.save_end_dm == "steps" else int(end >= 10)


@dataclass(frozen=True)
class Treatment:
    """The aftermath rolls (STR-7): each a 2d6 target and its DM (None: the roll is not possible)."""

    save_dm: int
    save_target: int
    stabilise_dm: int | None
    stabilise_target: int
    treatment_dm: int | None
    treatment_target: int

    def p_dies_after(self, worst: int) -> float:
        """Chance that a target whose worst result is ``worst`` dies later (STR-7)."""
        if worst == NOT_DEAD_YET:
            if self.stabilise_dm is None or self.treatment_dm is None:
                return 1.0
            saved = p_at_least(self.stabilise_target, self.stabilise_dm)
            return 1.0 - saved * p_at_least(self.treatment_target, self.treatment_dm)
        if worst in (SERIOUS, UNCONSCIOUS):
            return 1.0 - p_at_least(self.save_target, self.save_dm)
        return 0.0


@dataclass(frozen=True, eq=False)
class ResolvedAttack:
    """Everything an attack's outcome depends on.

    Attributes:
        scenario: The inputs.
        rules: The rule parameters.
        weapon: The firearm (None in melee).
        melee: The melee weapons (attacker's, defender's) or None.
        armour: The target's armour.
        to_hit_dm: Sum of the to-hit DMs.
        to_hit_terms: The DMs by name.
        rounds: Rounds fired (the cap on hits).
        suppressive: Suppressive fire (STR-3.3).
        hits_by_roll: Hits (suppressive: suppression hits) by natural to-hit total.
        wound_hits_by_roll: Hits that wound, by natural to-hit total.
        level_by_pen: Wound level by natural penetration total (STR-4.3, HE step included).
        pen_total_by_roll: Penetration total by natural penetration roll (STR-4.2).
        ndy_target_by_pen: Not Dead Yet target by natural penetration total (STR-6.3).
        roll_dm: DM of the target's consciousness and Not Dead Yet rolls (END DM - wounds).
        conscious_target: Consciousness target (STR-6.2).
        treatment: The aftermath (STR-7).
        p_initiative: Chance the firer's side wins initiative (STR-11.1).
    """

    scenario: Scenario
    rules: Rules
    weapon: Weapon | None
    melee: tuple[MeleeWeapon, MeleeWeapon] | None
    armour: Armour
    to_hit_dm: int
    to_hit_terms: dict[str, int]
    rounds: int
    suppressive: bool
    hits_by_roll: npt.NDArray[np.int64]
    wound_hits_by_roll: npt.NDArray[np.int64]
    level_by_pen: npt.NDArray[np.int64]
    pen_total_by_roll: npt.NDArray[np.int64]
    ndy_target_by_pen: npt.NDArray[np.int64]
    roll_dm: int
    conscious_target: int
    treatment: Treatment
    p_initiative: float

    @property
    def name(self) -> str:
        """The attacking weapon's name."""
        return self.melee[0].name if self.melee else self.weapon.name if self.weapon else "?"

    @property
    def max_hits(self) -> int:
        """Most hits one attack can score."""
        return int(self.hits_by_roll.max())


def rounds_fired(weapon: Weapon, mode: str) -> int:
    """Rounds one attack fires: single 1, burst5 5, half_clip half the magazine, full_clip all (STR-3.1)."""
    return {
        "single": 1,
        "burst5": min(5, weapon.magazine),
        "half_clip": max(1, weapon.magazine // 2),
        "full_clip": weapon.magazine,
    }[mode]


def _check_mode(weapon: Weapon, scenario: Scenario) -> None:
    """Who may fire what (STR-2.4) and what suppressive fire needs (STR-3.3)."""
    if weapon.automatic:
        allowed: tuple[str, ...] = ("single", "burst5", "half_clip", "full_clip")
    elif weapon.magazine >= 5:
        allowed = ("single", "burst5")
    else:
        allowed = ("single",)
    if scenario.mode not in allowed:
        kind = "an automatic" if weapon.automatic else "a semi-automatic"
        raise ScenarioError(
            f"{weapon.name!r} is {kind} weapon with a magazine of {weapon.magazine}: it fires "
            f"{' or '.join(allowed)}, not {scenario.mode} (STR-2.4)"
        )
    if scenario.suppressive:
        needed = ("half_clip", "full_clip") if weapon.automatic else ("burst5",)
        if scenario.mode not in needed:
            raise ScenarioError(f"suppressive fire with {weapon.name!r} needs mode {' or '.join(needed)} (STR-3.3)")


def _mode_bonus(weapon: Weapon, mode: str, rules: Rules) -> int:
    """The to-hit DM of the fire mode (STR-2.2, STR-2.5)."""
    if mode == "half_clip":
        return weapon.autofire_bonus
    if mode == "full_clip":
        return (weapon.autofire_bonus if rules.full_clip_autofire_bonus else 0) + rules.full_clip_extra_bonus
    if mode == "burst5":
        if weapon.automatic:
            if "autoshotgun" in weapon.flags:
                return rules.burst5_autoshotgun_bonus
            return rules.burst5_smg_bonus if "smg" in weapon.flags else rules.burst5_auto_bonus
        return rules.burst5_shotgun_bonus if "shotgun" in weapon.flags else 0
    return 0


def to_hit_terms(scenario: Scenario, rules: Rules, weapon: Weapon) -> dict[str, int]:
    """The to-hit DMs of a ranged attack by name (STR-2.2, STR-2.3)."""
    range_dm = {
        "short": 0,
        "medium": 0,
        "long": 0 if scenario.sights != "none" else -2,
        "extreme": {"none": -4, "scope": -2, "electronic": 0}[scenario.sights],
    }[scenario.range_band]
    terms = {
        "skill": scenario.skill,
        "dex_bonus": scenario.dex_bonus,
        "mode": _mode_bonus(weapon, scenario.mode, rules),
        "firer_evading": -2 * scenario.firer_evading,
        "snapshot": -2
        * (scenario.snapshot and not (scenario.target_running and rules.snapshot_at_runner == "no_penalty")),
        "laser_designator": 1 * scenario.laser_designator,
        "suppressive": rules.suppressive_bonus * scenario.suppressive,
        "firer_light_wounds": -scenario.firer_light_wounds,
        "range": range_dm,
        "target_evading": -2 * scenario.target_evading,
        "cover": {"none": 0, "partial": -1, "full": -2, "complete": 0}[scenario.cover],
        "target_running": 4 * scenario.target_running,
        "dm": scenario.dm,
    }
    return terms


def suppressive_wounds(hits: npt.NDArray[np.int64], rules: Rules) -> npt.NDArray[np.int64]:
    """Wounding hits of a suppressive shot by natural total: one, on a hit at ``suppressive_wound_min`` or more.

    STR-3.3: suppressive fire wounds only on a natural 12, with one hit.
    """
    wounds = np.zeros_like(hits)
    for natural in range(rules.suppressive_wound_min, TABLE_SLOTS):
        wounds[natural] = int(hits[natural] > 0)
    wounds.setflags(write=False)
    return wounds


def _pen_tables(
    rules: Rules, armour_value: int, pen: int, cap: int | None, he: bool
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Penetration total, wound level and Not Dead Yet target per natural roll (STR-4, STR-6.3)."""
    totals = np.zeros(TABLE_SLOTS, np.int64)
    levels = np.zeros(TABLE_SLOTS, np.int64)
    ndy = np.zeros(TABLE_SLOTS, np.int64)
    for r in range(2, 13):
        armour = armour_value // 2 if (r >= rules.armor_halving_min and rules.crit_halves_armor) else armour_value
        bonus = pen - armour
        if cap is not None:
            bonus = min(bonus, cap)
        total = r + bonus
        level = (
            LEVEL_DEAD
            if total >= rules.dead_at
            else LEVEL_SERIOUS
            if total >= rules.serious_at
            else LEVEL_LIGHT
            if total >= rules.light_at
            else NONE
        )
        if he and level != NONE:
            level = min(level + 1, LEVEL_DEAD)  # STR-4.4
        steps = 0 if total <= rules.dead_at + 3 else 1 + (total - rules.dead_at - 4) // 5
        totals[r], levels[r], ndy[r] = total, level, rules.ndy_base_target + rules.ndy_step * steps
    for array in (totals, levels, ndy):
        array.setflags(write=False)
    return totals, levels, ndy


def _treatment(scenario: Scenario, rules: Rules) -> Treatment:
    kit = 0 if scenario.first_aid_kit else -1
    medic = scenario.medic_skill
    return Treatment(
        save_dm=save_end_dm(scenario.end, rules) + scenario.doctor_skill - scenario.target_light_wounds,
        save_target=rules.serious_save_target,
        stabilise_dm=None if medic is None else medic + kit,
        stabilise_target=rules.stabilise_target,
        treatment_dm=None if medic is None else medic + kit + int(scenario.sick_bay),
        treatment_target=rules.treatment_target,
    )


def _table(tables: Tables, name: str, default: Table[Any]) -> Table[Any]:
    return tables.get(name, default)


def resolve(
    scenario: Scenario, rules: Rules, row_overrides: RowOverrides | None = None, tables: Tables | None = None
) -> ResolvedAttack:
    """Resolve one attack: DMs, rounds and the per-roll tables.

    Args:
        scenario: The inputs (STR-1).
        rules: The rule parameters.
        row_overrides: ``weapon.COLUMN`` / ``armor.COLUMN`` (and melee) values.
        tables: Tables replacing the shipped ones (a variant's).

    Raises:
        SimlabError: For unknown rows or columns and for scenarios the rules forbid.
    """
    overrides = row_overrides or {}
    tables = tables or {}
    armour_table = _table(tables, "armor", armours())
    armour = armour_table.resolve(scenario.armor or None, overrides.get("armor", {}))
    if scenario.cover == "complete":
        raise ScenarioError("a target completely in cover cannot be shot through that cover (STR-8)")
    melee: tuple[MeleeWeapon, MeleeWeapon] | None = None
    weapon: Weapon | None = None
    if scenario.melee_weapon or overrides.get("melee_weapon"):
        if scenario.suppressive:
            raise ScenarioError("suppressive fire is fire, not melee: leave melee_weapon empty (STR-3.3)")
        table = _table(tables, "melee_weapons", melee_weapons())
        attacker = table.resolve(scenario.melee_weapon or None, overrides.get("melee_weapon", {}))
        defender = table.resolve(scenario.defender_weapon or None, overrides.get("defender_weapon", {}))
        melee = (attacker, defender)
        terms = {
            "attack": attacker.attack,
            "skill": scenario.skill,
            "defence": -defender.defence,
            "defender_skill": -scenario.defender_skill,
            "longer_weapon": int(attacker.length > defender.length),
            "firer_light_wounds": -scenario.firer_light_wounds,
            "dm": scenario.dm,
        }
        rounds, pen, cap, he, armour_value = 1, attacker.pen, None, False, armour.av
        step: int | None = None
    else:
        weapon = _table(tables, "weapons", weapons()).resolve_required(
            scenario.weapon or None, overrides.get("weapon", {}), "striker", ", or give melee_weapon"
        )
        _check_mode(weapon, scenario)
        terms = to_hit_terms(scenario, rules, weapon)
        rounds = rounds_fired(weapon, scenario.mode)
        blowthrough = _table(tables, "blowthrough", blowthroughs()).row(weapon.blowthrough)
        cap = blowthrough.max_bonus if rules.blowthrough else None
        he = "HE" in weapon.flags
        laser = weapon.blowthrough == "laser"
        armour_value = armour.av_laser if laser and armour.av_laser is not None else armour.av
        pen = weapon.pen
        step = rules.extra_hit_step
    dm = sum(terms.values())
    hits = hits_by_natural(
        dm, rules.hit_target, step, rounds, miss_max=rules.natural_miss_max, hit_min=rules.natural_hit_min
    )
    wound_hits = hits
    if scenario.suppressive:
        wound_hits = suppressive_wounds(hits, rules)
    totals, levels, ndy = _pen_tables(rules, armour_value, pen, cap, he)
    return ResolvedAttack(
        scenario=scenario,
        rules=rules,
        weapon=weapon,
        melee=melee,
        armour=armour,
        to_hit_dm=dm,
        to_hit_terms=terms,
        rounds=rounds,
        suppressive=scenario.suppressive,
        hits_by_roll=hits,
        wound_hits_by_roll=wound_hits,
        level_by_pen=levels,
        pen_total_by_roll=totals,
        ndy_target_by_pen=ndy,
        roll_dm=end_dm(scenario.end) - scenario.target_light_wounds,
        conscious_target=rules.conscious_target,
        treatment=_treatment(scenario, rules),
        p_initiative=p_higher_with_rerolled_ties(scenario.tactics, scenario.target_tactics),
    )
