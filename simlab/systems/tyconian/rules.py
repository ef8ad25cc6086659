"""Parameters, scenario inputs and data tables of the Tyconian rules (TYC-0 to TYC-6).

Every number a designer may change is a field of :class:`Rules` with the spec's default;
every scenario input is a field of :class:`Scenario`. The tables are CSV files in
``simlab/data/tyconian/`` (weapons, armour, action points, full-auto reductions, hit
locations); rows not in the original text are marked illustrative.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from simlab.inputs.errors import ScenarioError
from simlab.inputs.params import ATTRIBUTE, DICE, MODIFIER, SKILL, is_digits, spec_field
from simlab.inputs.tables import Table, table_loader
from simlab.mechanics.d20 import ROUNDINGS

__all__ = [
    "Rules",
    "Scenario",
    "Target",
    "Weapon",
    "Armour",
    "ActionPoints",
    "FullAutoRow",
    "HitLocation",
    "MeleeWeapon",
    "UnarmedDamage",
    "melee_weapons",
    "unarmed_damage",
    "weapons",
    "armours",
    "action_points",
    "full_auto_rows",
    "hit_locations",
    "MODES",
    "PENETRATIONS",
    "MOVEMENTS",
    "SIGHTS",
    "TACTICS",
    "TACTICS_BONUS",
]

MODES = ("single", "burst", "full_auto")
PENETRATIONS = ("normal", "high", "low", "nil")
MOVEMENTS = ("still", "walk", "trot", "vehicle")
SIGHTS = ("none", "scope", "electronic")
WEAPON_FLAGS = ("energy", "pistol", "recoilless", "shotgun")


@dataclass(frozen=True)
class Rules:
    """Rule parameters of the Tyconian rules, with the spec's defaults."""

    skill_die: int = spec_field(20, doc="faces of the skill die (TYC-1.1)", minimum=2, maximum=100)
    critical_success_max: int = spec_field(
        1, doc="rolls at or below this always succeed, critically (TYC-1.1)", minimum=0, maximum=100
    )
    critical_failure_min: int = spec_field(
        20, doc="rolls at or above this always fail (TYC-1.1)", minimum=1, maximum=101
    )
    rounding: str = spec_field("nearest", doc="'round off': nearest (halves up) or down (TYC-1.3)", choices=ROUNDINGS)
    aim_bonus: int = spec_field(5, doc="skill per aim point (TYC-3.2)", minimum=0, maximum=99)
    max_aim_points: int = spec_field(
        3, doc="most aim points on accuracy, and most location steps (TYC-3.2)", minimum=0, maximum=99
    )
    scope_bonus_m: float = spec_field(
        15.0, doc="metres a rifle scope adds to short range, aimed shots (TYC-3.1)", minimum=0, maximum=100000
    )
    knockdown_damage: str = spec_field(
        "phase",
        doc="knockdown by the total damage of a phase (phase: every shot of the turn) or of each shot (shot) (TYC-6.4)",
        choices=("phase", "shot"),
    )
    electronic_sights: str = spec_field(
        "every_shot",
        doc="electronic sights lengthen R for every shot (every_shot, the seed) or aimed shots only (TYC-3.1)",
        choices=("every_shot", "aimed_only"),
    )
    close_range: str = spec_field(
        "below_half",
        doc="close range is less than R/2 (below_half) or at most R/2 (at_most_half) (TYC-3.1)",
        choices=("below_half", "at_most_half"),
    )
    electronic_bonus_m: float = spec_field(
        20.0, doc="metres electronic sights add to short range (TYC-3.1)", minimum=0, maximum=100000
    )
    burst_hits: str = spec_field(
        "one",
        doc="hits of a successful burst: one, or per_round as in full auto (TYC-3.7)",
        choices=("one", "per_round"),
    )
    full_auto_hit_face: int = spec_field(
        6, doc="a full-auto die hits on this face or more (TYC-4.1)", minimum=1, maximum=99
    )
    close_hit_face: int = spec_field(
        5, doc="... and on this face or more at close range (TYC-4.1)", minimum=1, maximum=99
    )
    recoil_dice_factor: int = spec_field(
        2, doc="full-auto dice lost per point of R5 over STR' (TYC-4.3)", minimum=0, maximum=99
    )
    jam_bonus: int = spec_field(3, doc="jam check 2d6 + this against the shots fired (TYC-3.6)", **MODIFIER)
    jam_clear_die: int = spec_field(
        4, doc="a jam costs a d(this) of action points to clear, paid first in the next turn (TYC-3.6)",
        minimum=1, maximum=10,
    )  # fmt: skip
    hesitation_seconds: int = spec_field(
        2, doc="seconds whose actions a figure loses after its first scratch; 0: none (TYC-6.3)", minimum=0, maximum=99
    )
    blunt_per_die: int = spec_field(
        2, doc="blunt trauma per whole die stopped by armour (TYC-5.3)", minimum=0, maximum=99
    )
    max_turns: int = spec_field(40, doc="turns after which a duel ends undecided", minimum=1, maximum=10000)
    max_action_points: int = spec_field(
        15, doc="most action points of a turn, a Tactics bonus included (TYC-2.1)", minimum=1, maximum=99
    )
    tactics_cost: int = spec_field(2, doc="action points a Tactics roll costs (TYC-2.1)", minimum=0, maximum=99)
    tactics_turns: int = spec_field(
        5, doc="turns a successful Tactics roll adds its points, from the next turn (TYC-2.1)", minimum=0, maximum=10000
    )
    consciousness_roll: str = spec_field(
        "every_turn",
        doc="duels: a seriously wounded figure rolls 3d6 under END every turn it tries to act (every_turn, "
        "the seed) or only when wounded (once) (TYC-6.3)",
        choices=("every_turn", "once"),
    )
    armor_wear: str = spec_field(
        "two_penetrations",
        doc="duels: armour at a location loses 1 AV for every two penetrations (two_penetrations, the seed) "
        "or never (none) (TYC-5.5)",
        choices=("two_penetrations", "none"),
    )
    melee_blunt_points: int = spec_field(
        6, doc="armed melee: 1 blunt trauma per this many points armour stops (TYC-8)", minimum=1, maximum=99
    )
    flame_ignition: int = spec_field(
        8, doc="damage at a location that sets it burning (TYC-7.2)", minimum=1, maximum=10000
    )
    medic_bonus: int = spec_field(1, doc="daily healing bonus of a medic's care (TYC-9)", **MODIFIER)
    doctor_bonus: int = spec_field(3, doc="daily healing bonus of a doctor's care (TYC-9)", **MODIFIER)
    hospital_bonus: int = spec_field(
        1, doc="daily healing bonus of a hospital, on top of the doctor's (TYC-9)", **MODIFIER
    )
    critical_heal_penalty: int = spec_field(
        2,
        doc="taken from a critical location's daily healing, +1 per further critical location (TYC-9)",
        minimum=0,
        maximum=99,
    )
    infection_percent: int = spec_field(
        20, doc="chance of infection per seriously wounded location (TYC-9)", minimum=0, maximum=100
    )
    antibiotics_infection_percent: int = spec_field(
        10, doc="the same with antibiotics within 8 hours (TYC-9)", minimum=0, maximum=100
    )
    surgery_locations: int = spec_field(3, doc="most locations operated on at one time (TYC-9)", minimum=1, maximum=99)
    surgery_wait_days: int = spec_field(3, doc="days between operations (TYC-9)", minimum=1, maximum=365)
    death_day: int = spec_field(
        14, doc="a wound still critical at the end of this day kills (TYC-9)", minimum=1, maximum=365
    )


#: A Tactics roll (TYC-2.1): none; made this turn (its points spent first); a success or a
#: critical success made earlier, whose bonus points this turn has.
TACTICS = ("none", "roll", "success", "critical")
#: Action points of a successful Tactics roll.
TACTICS_BONUS = {"none": 0, "roll": 0, "success": 1, "critical": 2}

#: How two weapons are fired (TYC-3.5), and whose shots an attack with two weapons is.
TWO_WEAPON_FIRE = ("one_at_a_time", "same_second")
HANDS = ("off", "primary")
#: The hands in the order they fire when the two weapons alternate (TYC-3.5).
HANDS_FIRST = ("primary", "off")
#: Skill penalty of each hand by way of firing two weapons (TYC-3.5).
TWO_WEAPON_PENALTY = {("one_at_a_time", "off"): 5, ("one_at_a_time", "primary"): 0,
                      ("same_second", "off"): 7, ("same_second", "primary"): 2}  # fmt: skip


@dataclass(frozen=True)
class Target:
    """The figure attacked, as every Tyconian question describes it: armour, cover, attributes (TYC-0)."""

    armor: str = spec_field("none", doc="row of the armour table")
    cover_av: int = spec_field(0, doc="AV of cover in front of the target (TYC-5.3)", minimum=0, maximum=1000)
    target_str: int = spec_field(10, doc="target's STR (TYC-6.1)", minimum=1, maximum=99)
    target_dex: int = spec_field(
        10, doc="target's DEX (TYC-6.4); a figure of DEX 0 is already out (TYC-6.3)", minimum=1, maximum=99
    )
    target_end: int = spec_field(10, doc="target's END (TYC-6)", minimum=1, maximum=99)


@dataclass(frozen=True)
class Scenario(Target):
    """Inputs of one Tyconian attack (TYC-0)."""

    weapon: str = spec_field("", doc="row of the weapon table (required unless weapon.COLUMN values define one)")
    mode: str = spec_field("single", doc="fire mode (TYC-3.7, TYC-4)", choices=MODES)
    skill: int = spec_field(10, doc="firer's skill with the weapon (d20 scale)", **SKILL)
    aim: int = spec_field(0, doc="aim points spent on accuracy, +5 each (TYC-3.2)", minimum=0, maximum=99)
    aim_location: int = spec_field(0, doc="aim points spent moving the hit location (TYC-3.2)", minimum=0, maximum=99)
    target_location: str = spec_field("chest", doc="location aimed at (TYC-5.1)")
    shots: int = spec_field(1, doc="shots (or bursts) fired this turn (single, burst)", minimum=1, maximum=1000)
    plan: str = spec_field(
        "",
        doc="fire plan: quick, aimed (aim points before every shot) or burst fills the turn; blank: shots (TYC-2.3)",
        choices=("", "quick", "aimed", "burst"),
    )
    dex: int = spec_field(10, doc="firer's DEX: action points of a fire plan (TYC-2.1)", **ATTRIBUTE)
    tactics: str = spec_field(
        "none",
        doc="a fire plan's Tactics roll: roll (made this turn, its points first), success (+1 point) or "
        "critical (+2) from an earlier turn (TYC-2.1)",
        choices=TACTICS,
    )
    range_m: float = spec_field(20.0, doc="distance in metres (TYC-3.1)", minimum=0)
    sights: str = spec_field("none", doc="sights (TYC-3.1)", choices=SIGHTS)
    movement: str = spec_field("still", doc="firer's movement (TYC-3.4)", choices=MOVEMENTS)
    braced: bool = spec_field(False, doc="pistol braced in both hands, recoil -1 (TYC-3.4)")
    two_weapons: bool = spec_field(False, doc="a weapon in each hand (TYC-3.4, TYC-3.5)")
    two_weapon_fire: str = spec_field(
        "one_at_a_time",
        doc="with two weapons: one_at_a_time (off hand -5, STR' -1) or same_second (primary -2, off hand -7, "
        "STR' -2) (TYC-3.4, TYC-3.5)",
        choices=TWO_WEAPON_FIRE,
    )
    hand: str = spec_field(
        "off",
        doc="with two weapons, whose shots the attack is: the off hand's or the primary's (TYC-3.5)",
        choices=HANDS,
    )
    target_ran: bool = spec_field(False, doc="the target ran this second, skill halved (TYC-3.3)")
    obscured: bool = spec_field(False, doc="the target is partly obscured, skill halved (TYC-3.3)")
    loaded: int | None = spec_field(
        None, doc="rounds in the magazine; blank: a full magazine", minimum=0, maximum=10000
    )
    firer_str: int = spec_field(10, doc="firer's STR (TYC-3.4)", **ATTRIBUTE)


@dataclass(frozen=True, kw_only=True)
class Weapon:
    """A row of the weapon table (TYC-0)."""

    name: str = spec_field(doc="the weapon's name")
    short_range_m: float = spec_field(doc="printed short range R in metres (TYC-3.1)", minimum=0, maximum=100000)
    rof: str = spec_field(
        doc="rate of fire: a number (automatic) or SA, SA<n>, SS<n>, BA, LA, PA, DAR",
        pattern=r"(?:[1-9][0-9]?|100)|SA(?:[1-9][0-9]?)?|SS[1-9][0-9]?|BA|LA|PA|DAR",
        pattern_doc="a ROF from 1 to 100, or SA, SA<n>, SS<n> (n 1-99), BA, LA, PA or DAR",
    )
    damage: float = spec_field(doc="damage dice (d8), halves allowed (TYC-5.2)", minimum=0, maximum=100)
    penetration: str = spec_field("normal", doc="penetration class (TYC-5.2)", choices=PENETRATIONS)
    recoil: int = spec_field(0, doc="recoil of one shot (TYC-3.4)", minimum=0, maximum=99)
    burst_recoil: int | None = spec_field(None, doc="recoil of a burst (TYC-3.4, TYC-4.3)", minimum=0, maximum=99)
    magazine: int = spec_field(doc="rounds per magazine", minimum=1, maximum=10000)
    magazine_type: str = spec_field("box", doc="box, R, I, B or C (TYC-2.2)", choices=("box", "R", "I", "B", "C"))
    flags: frozenset[str] = spec_field(frozenset(), doc="space-separated flags", choices=WEAPON_FLAGS)
    cost: float | None = spec_field(
        None, doc="list price in Cr (illustrative: no rules text gives one); blank: no price", minimum=0, maximum=1e12
    )
    notes: str = spec_field("", doc="free text; 'illustrative' marks values not in the seed")

    @property
    def automatic_rof(self) -> int | None:
        """The ROF of an automatic weapon (a plain number), else None."""
        return int(self.rof) if is_digits(self.rof) else None


@dataclass(frozen=True, kw_only=True)
class Armour:
    """A row of the armour table (TYC-0)."""

    name: str = spec_field(doc="the armour's name")
    av: int = spec_field(doc="armour value at the locations it covers (TYC-5.2)", minimum=0, maximum=1000)
    covers: str = spec_field("", doc="space-separated locations (TYC-5.1), or all")
    cost: float | None = spec_field(
        None, doc="list price in Cr (illustrative: no rules text gives one); blank: no price", minimum=0, maximum=1e12
    )
    notes: str = spec_field("", doc="free text")

    def av_at(self, location: str) -> int:
        """AV at one location (0 where the armour does not cover it)."""
        covered = self.covers.split()
        return self.av if ("all" in covered or location in covered) else 0


@dataclass(frozen=True, kw_only=True)
class ActionPoints:
    """A row of the action-point table (TYC-2.1)."""

    name: str = spec_field(doc="DEX band")
    dex_min: int = spec_field(doc="lowest DEX of the band", minimum=0, maximum=99, not_above="dex_max")
    dex_max: int = spec_field(doc="highest DEX of the band", minimum=0, maximum=99)
    points: int = spec_field(doc="points per turn", minimum=0, maximum=99)
    second_1: int = spec_field(doc="points in second 1", minimum=0, maximum=99)
    second_2: int = spec_field(doc="points in second 2", minimum=0, maximum=99)
    second_3: int = spec_field(doc="points in second 3", minimum=0, maximum=99)
    second_4: int = spec_field(doc="points in second 4", minimum=0, maximum=99)
    second_5: int = spec_field(doc="points in second 5", minimum=0, maximum=99)
    notes: str = spec_field("", doc="free text")


@dataclass(frozen=True, kw_only=True)
class FullAutoRow:
    """A row of the full-auto table (TYC-4.2, TYC-4.4)."""

    name: str = spec_field(doc="row name")
    rof: int = spec_field(doc="ROF of the row", minimum=1, maximum=100)
    rounds: int = spec_field(doc="rounds fired in a turn (10 x ROF)", minimum=1, maximum=1000)
    medium_reduction: int = spec_field(doc="dice lost at medium range", minimum=0, maximum=100)
    long_reduction: int = spec_field(doc="dice lost at long range", minimum=0, maximum=100)
    minimum_dice: int = spec_field(doc="reductions never leave fewer dice than this", minimum=0, maximum=100)
    notes: str = spec_field("", doc="free text")


@dataclass(frozen=True, kw_only=True)
class HitLocation:
    """A row of the hit-location table (TYC-5.1)."""

    name: str = spec_field(doc="location")
    roll_min: int = spec_field(doc="lowest d20 roll", minimum=1, maximum=100, not_above="roll_max")
    roll_max: int = spec_field(doc="highest d20 roll", minimum=1, maximum=100)
    notes: str = spec_field("", doc="free text")


@dataclass(frozen=True, kw_only=True)
class MeleeWeapon:
    """A row of the melee weapon table (TYC-8): d6s plus a share of the wielder's STR."""

    name: str = spec_field(doc="the weapon's name")
    dice: int = spec_field(doc="damage d6s", **DICE)
    str_divisor: int = spec_field(0, doc="adds STR / this (round up); 0: nothing", minimum=0, maximum=99)
    notes: str = spec_field("", doc="free text")


@dataclass(frozen=True, kw_only=True)
class UnarmedDamage:
    """A row of the unarmed damage table (TYC-8): d4s by STR."""

    name: str = spec_field(doc="row name")
    str_min: int = spec_field(doc="lowest STR of the band", minimum=0, maximum=99, not_above="str_max")
    str_max: int = spec_field(doc="highest STR of the band", minimum=0, maximum=99)
    dice: int = spec_field(doc="damage d4s", **DICE)
    notes: str = spec_field("", doc="free text")


def rows_by_roll(rows: Sequence[HitLocation]) -> list[int]:
    """The row of each d20 roll (index 1..20; index 0 unused) of a hit-location table (TYC-5.1).

    Raises:
        ScenarioError: When a roll from 1 to 20 is covered by no row or by two (a variant's
            table that does not partition the d20).
    """
    by_roll = [0]
    for roll in range(1, 21):
        covering = [i for i, row in enumerate(rows) if row.roll_min <= roll <= row.roll_max]
        if len(covering) != 1:
            names = " and ".join(repr(rows[i].name) for i in covering) or "no row"
            raise ScenarioError(f"hit_locations: d20 roll {roll} is covered by {names}; every roll 1-20 needs one row")
        by_roll.append(covering[0])
    return by_roll


_DATA = "simlab.data.tyconian"

#: The shipped tables, each read once on first use.
weapons = table_loader(_DATA, "weapons.csv", "weapons", "weapon", Weapon)
armours = table_loader(_DATA, "armor.csv", "armor", "armor", Armour)
action_points = table_loader(_DATA, "action_points.csv", "action_points", "DEX band", ActionPoints)
full_auto_rows = table_loader(_DATA, "full_auto.csv", "full_auto", "full-auto row", FullAutoRow)


def _check_hit_locations(table: Table[HitLocation]) -> None:
    """Every d20 roll is one row's (TYC-5.1)."""
    rows_by_roll(list(table))


hit_locations = table_loader(_DATA, "hit_locations.csv", "hit_locations", "location", HitLocation, _check_hit_locations)
melee_weapons = table_loader(_DATA, "melee_weapons.csv", "melee_weapons", "melee weapon", MeleeWeapon)
unarmed_damage = table_loader(_DATA, "unarmed_damage.csv", "unarmed_damage", "STR band", UnarmedDamage)
