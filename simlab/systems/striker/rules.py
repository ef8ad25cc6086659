"""Parameters, scenario inputs and data tables of the Striker-derived system (STR-1, STR-10).

Every number a designer may change is a field of :class:`Rules` with the spec's default;
every scenario input is a field of :class:`Scenario`. The tables are CSV files in
``simlab/data/striker/`` (weapons, armour, blowthrough maxima, melee weapons).
"""

from __future__ import annotations

from dataclasses import dataclass

from simlab.inputs.params import ATTRIBUTE, MODIFIER, SKILL, TARGET, spec_field
from simlab.inputs.tables import table_loader

__all__ = [
    "Rules",
    "Scenario",
    "Weapon",
    "Armour",
    "Blowthrough",
    "MeleeWeapon",
    "weapons",
    "armours",
    "blowthroughs",
    "melee_weapons",
    "MODES",
    "RANGE_BANDS",
    "COVERS",
    "SIGHTS",
    "WEAPON_FLAGS",
]

#: Fire modes (STR-1).
MODES = ("single", "burst5", "half_clip", "full_clip")
RANGE_BANDS = ("short", "medium", "long", "extreme")
SIGHTS = ("none", "scope", "electronic")
#: ``complete``: the target declared itself completely in cover and cannot be shot (STR-8).
COVERS = ("none", "partial", "full", "complete")
WEAPON_FLAGS = ("smg", "shotgun", "autoshotgun", "HE", "HEAP")
#: Readings of the END DM of the serious-wound save (STR-7.1).
SAVE_END_DMS = ("end_10", "steps")
#: Readings of a snapshot at a running target (STR-8).
SNAPSHOT_AT_RUNNER = ("no_penalty", "penalty")


@dataclass(frozen=True)
class Rules:
    """Rule parameters of the Striker-derived system, with the spec's defaults."""

    hit_target: int = spec_field(8, doc="2d6 + DMs needed to hit (STR-2.1)", **TARGET)
    natural_miss_max: int = spec_field(
        2, doc="a natural 2d6 total at or below this always misses; 1: no automatic miss (STR-2.1)",
        minimum=1, maximum=12, not_above="natural_hit_min",
    )  # fmt: skip
    natural_hit_min: int = spec_field(
        12, doc="a natural 2d6 total at or above this always hits (1 hit); 13: no automatic hit (STR-2.1, STR-3.1)",
        minimum=2, maximum=13,
    )  # fmt: skip
    extra_hit_step: int = spec_field(
        2, doc="one more hit for every this much over the target (STR-3.1)", minimum=1, maximum=99
    )
    full_clip_autofire_bonus: bool = spec_field(
        True, doc="full_clip gets the autofire bonus of half_clip; false: the text's literal reading (STR-2.5)"
    )
    full_clip_extra_bonus: int = spec_field(
        0, doc="DM of full_clip on top of the half-clip bonus (STR-2.5)", **MODIFIER
    )
    burst5_auto_bonus: int = spec_field(1, doc="burst5 DM of automatic weapons (STR-2.2)", **MODIFIER)
    burst5_smg_bonus: int = spec_field(2, doc="burst5 DM of submachineguns (STR-2.2)", **MODIFIER)
    burst5_autoshotgun_bonus: int = spec_field(4, doc="burst5 DM of autoshotguns (STR-2.2)", **MODIFIER)
    burst5_shotgun_bonus: int = spec_field(2, doc="burst5 DM of (semi-automatic) shotguns (STR-2.2)", **MODIFIER)
    suppressive_bonus: int = spec_field(2, doc="to-hit DM of suppressive fire (STR-2.2)", **MODIFIER)
    suppression_first_hit: int = spec_field(
        2, doc="penalty of the first suppressive hit (STR-3.3)", minimum=0, maximum=99
    )
    suppression_extra_hit: int = spec_field(
        1, doc="penalty of each further suppressive hit (STR-3.3)", minimum=0, maximum=99
    )
    suppressive_wound_min: int = spec_field(
        12, doc="a suppressive shot wounds (with one hit) only on a natural 2d6 total at or above this (STR-3.3)",
        minimum=2, maximum=13,
    )  # fmt: skip
    crit_halves_armor: bool = spec_field(True, doc="a penetration roll of 12 halves armour, rounding down (STR-4.1)")
    armor_halving_min: int = spec_field(
        12, doc="a natural penetration roll at or above this halves armour, with crit_halves_armor (STR-4.1)",
        minimum=2, maximum=13,
    )  # fmt: skip
    blowthrough: bool = spec_field(True, doc="cap the penetration bonus at the weapon's blowthrough maximum (STR-4.2)")
    light_at: int = spec_field(4, doc="penetration total of a light wound (STR-4.3)", minimum=-99, maximum=999)
    serious_at: int = spec_field(8, doc="penetration total of a serious wound (STR-4.3)", minimum=-99, maximum=999)
    dead_at: int = spec_field(12, doc="penetration total of a dead result (STR-4.3)", minimum=-99, maximum=999)
    conscious_target: int = spec_field(
        8, doc="2d6 + END DM to stay conscious after a serious wound (STR-6.2)", **TARGET
    )
    serious_light_wounds: int = spec_field(
        2, doc="light wounds a conscious serious wound counts as (STR-6.2)", minimum=0, maximum=99
    )
    ndy_base_target: int = spec_field(8, doc="Not Dead Yet target for totals up to dead_at + 3 (STR-6.3)", **TARGET)
    ndy_step: int = spec_field(
        2, doc="Not Dead Yet target rise per further 5 of the total (STR-6.3)", minimum=0, maximum=99
    )
    serious_save_target: int = spec_field(6, doc="save against death from serious wounds (STR-7.1)", **TARGET)
    save_end_dm: str = spec_field(
        "end_10",
        doc="END DM of the serious-wound save: end_10 (+1 at END 10+, the seed) or steps (+1/+2 as STR-6.2) (STR-7.1)",
        choices=SAVE_END_DMS,
    )
    stabilise_target: int = spec_field(8, doc="medic's roll to stabilise a Not Dead Yet figure (STR-7.2)", **TARGET)
    treatment_target: int = spec_field(8, doc="treatment roll after stabilising (STR-7.2)", **TARGET)
    max_turns: int = spec_field(
        100, doc="a duel still undecided after this many turns ends with nobody down", minimum=1, maximum=10000
    )
    snapshot_at_runner: str = spec_field(
        "no_penalty",
        doc="a snapshot at a running target: no_penalty (the seed) or penalty (-2 still applies) (STR-8)",
        choices=SNAPSHOT_AT_RUNNER,
    )


@dataclass(frozen=True)
class Scenario:
    """Inputs of one Striker attack (STR-1), with the aftermath (STR-7), melee (STR-9) and initiative (STR-11.1)."""

    weapon: str = spec_field("", doc="row of the weapon table (required unless weapon.COLUMN values define one)")
    armor: str = spec_field("none", doc="row of the armour table")
    skill: int = spec_field(1, doc="firer's weapon skill", **SKILL)
    dex_bonus: int = spec_field(0, doc="firer's DEX bonus with the weapon", **MODIFIER)
    mode: str = spec_field("single", doc="fire mode (STR-1, STR-2.4)", choices=MODES)
    range_band: str = spec_field("short", doc="range band (STR-2.3)", choices=RANGE_BANDS)
    sights: str = spec_field("none", doc="sights (STR-2.3)", choices=SIGHTS)
    firer_evading: bool = spec_field(False, doc="firer evading, -2 (STR-2.2)")
    snapshot: bool = spec_field(False, doc="snapshot, -2 (STR-2.2)")
    suppressive: bool = spec_field(False, doc="suppressive fire, +2; wounds only on a natural 12 (STR-3.3)")
    laser_designator: bool = spec_field(False, doc="laser designator at 25 m or less, +1 (STR-2.2)")
    firer_light_wounds: int = spec_field(0, doc="light wounds of the firer, -1 each (STR-2.2)", minimum=0, maximum=99)
    target_evading: bool = spec_field(False, doc="target evading, -2 (STR-2.3)")
    target_running: bool = spec_field(False, doc="target running past cover, +4 (STR-2.3)")
    cover: str = spec_field("none", doc="target's cover: partial -1, full -2, complete: cannot be shot", choices=COVERS)
    end: int = spec_field(7, doc="target's END (STR-6)", **ATTRIBUTE)
    target_light_wounds: int = spec_field(
        0,
        doc="light wounds the target already has: -1 on its consciousness and Not Dead Yet rolls",
        minimum=0,
        maximum=99,
    )
    dm: int = spec_field(0, doc="any other to-hit DM", **MODIFIER)
    medic_skill: int | None = spec_field(
        0, doc="medical skill of the medic at hand; blank: no medic (STR-7.2)", **SKILL
    )
    doctor_skill: int = spec_field(0, doc="medical skill of the doctor for the serious-wound save (STR-7.1)", **SKILL)
    first_aid_kit: bool = spec_field(True, doc="the medic has a first-aid kit (STR-7.2)")
    sick_bay: bool = spec_field(False, doc="a decent sick bay for the treatment (STR-7.2)")
    melee_weapon: str = spec_field("", doc="melee attack with this row of the melee table instead of fire (STR-9)")
    defender_weapon: str = spec_field("unarmed", doc="defender's melee weapon (STR-9)")
    defender_skill: int = spec_field(0, doc="defender's melee skill (STR-9)", **SKILL)
    tactics: int = spec_field(0, doc="tactics skill of the firer's leader, for initiative (STR-11.1)", **SKILL)
    target_tactics: int = spec_field(0, doc="tactics skill of the target's leader (STR-11.1)", **SKILL)


@dataclass(frozen=True, kw_only=True)
class Weapon:
    """A row of the weapon table (STR-10)."""

    name: str = spec_field(doc="the weapon's name, as used in scenarios")
    kind: str = spec_field(doc="semi (semi-automatic) or auto (automatic)", choices=("semi", "auto"))
    flags: frozenset[str] = spec_field(frozenset(), doc="space-separated flags", choices=WEAPON_FLAGS)
    blowthrough: str = spec_field(doc="blowthrough class: a row of the blowthrough table (STR-5)")
    pen: int = spec_field(doc="penetration (STR-4.2)", minimum=0, maximum=100)
    autofire_bonus: int = spec_field(0, doc="half-clip to-hit bonus; 0 when none (STR-2.2)", minimum=0, maximum=99)
    magazine: int = spec_field(doc="rounds per magazine", minimum=1, maximum=10000)
    cost: float | None = spec_field(
        None, doc="list price in Cr (illustrative: no rules text gives one); blank: no price", minimum=0, maximum=1e12
    )
    notes: str = spec_field("", doc="free text; 'illustrative' marks values not in the seed")

    @property
    def automatic(self) -> bool:
        """Automatic weapons: an autofire bonus (or the auto kind), plain shotguns excepted (STR-2.4)."""
        return (self.kind == "auto" or self.autofire_bonus > 0) and "shotgun" not in self.flags


@dataclass(frozen=True, kw_only=True)
class Armour:
    """A row of the armour table (STR-10)."""

    name: str = spec_field(doc="the armour's name, as used in scenarios")
    av: int = spec_field(doc="armour value (STR-4.2)", minimum=0, maximum=100)
    av_laser: int | None = spec_field(None, doc="armour value against lasers; blank: av", minimum=0, maximum=100)
    cost: float | None = spec_field(
        None, doc="list price in Cr (illustrative: no rules text gives one); blank: no price", minimum=0, maximum=1e12
    )
    notes: str = spec_field("", doc="free text; 'illustrative' marks values not in the seed")


@dataclass(frozen=True, kw_only=True)
class Blowthrough:
    """A row of the blowthrough table (STR-5)."""

    name: str = spec_field(doc="blowthrough class")
    max_bonus: int = spec_field(doc="largest penetration bonus against people", **MODIFIER)
    notes: str = spec_field("", doc="free text")


@dataclass(frozen=True, kw_only=True)
class MeleeWeapon:
    """A row of the melee weapon table (STR-9, illustrative)."""

    name: str = spec_field(doc="the weapon's name")
    attack: int = spec_field(doc="attack value", **MODIFIER)
    defence: int = spec_field(doc="defence value", **MODIFIER)
    pen: int = spec_field(doc="penetration of its damage roll", minimum=0, maximum=100)
    length: int = spec_field(doc="reach rank: the longer weapon gets +1 to hit", minimum=0, maximum=99)
    notes: str = spec_field("", doc="free text")


_DATA = "simlab.data.striker"


#: The shipped tables, each read once on first use.
weapons = table_loader(_DATA, "weapons.csv", "weapons", "weapon", Weapon)
armours = table_loader(_DATA, "armor.csv", "armor", "armor", Armour)
blowthroughs = table_loader(_DATA, "blowthrough.csv", "blowthrough", "blowthrough class", Blowthrough)
melee_weapons = table_loader(_DATA, "melee_weapons.csv", "melee_weapons", "melee weapon", MeleeWeapon)
