"""Parameters, scenario inputs and data tables of Revised HiTech TFT (TFT-1, TFT-8, TFT-9).

Every number a designer may change is a field of :class:`Rules` with the spec's default;
every scenario input is a field of :class:`Scenario`. The weapon and armour tables are
CSV files in ``simlab/data/hitech_tft/``.
"""

from __future__ import annotations

from dataclasses import dataclass

from simlab.inputs.params import ATTRIBUTE, DICE, MODIFIER, spec_field
from simlab.inputs.tables import table_loader

__all__ = ["Rules", "Scenario", "Weapon", "Armour", "weapons", "armours", "MODES", "WEAPON_FLAGS"]

#: Fire modes of TFT-1 / TFT-2.5.
MODES = ("single", "four", "half", "full", "burst")
#: Words of the weapon table's ``flags`` column (TFT-8).
WEAPON_FLAGS = (
    "AP",
    "HE",
    "HEAP",
    "gyrostab",
    "grenade_launcher",
    "heavy",
    "crew_served",
    "shotgun",
    "autoshotgun",
    "melee",
    "blast",
)
RANGE_CLASSES = ("rifle", "pistol", "thrown", "melee")
#: Range of a missile attack when none is given (the spec's default).
DEFAULT_RANGE_M = 8.0
#: Readings of battle dress's ST multiplier (TFT-6.2).
BATTLE_DRESS_ST = ("strength_only", "hit_points")
#: Readings of where the rifle's metre table starts (TFT-2.2).
METRE_TABLE_FROM = ("51_m", "mh_14")


@dataclass(frozen=True)
class Rules:
    """Rule parameters of HiTech TFT, with the spec's defaults (the vocabulary of variants)."""

    megahex_m: float = spec_field(4.0, doc="metres per megahex (TFT-2.2)", minimum=0.001, maximum=1000)
    rifle_7_13_modifier: int = spec_field(
        -4, doc="rifle DX modifier at 7-13 megahexes; -3 is the other reading (TFT-2.2)", **MODIFIER
    )
    thrown_range_class: str = spec_field(
        "pistol", doc="range class used for thrown weapons (TFT-2.2)", choices=("pistol", "rifle")
    )
    metre_table_from: str = spec_field(
        "51_m",
        doc="rifles beyond 50 m use the metre table (51_m, the seed's table) or only beyond 13 MH (mh_14) (TFT-2.2)",
        choices=METRE_TABLE_FROM,
    )
    melee_reach_m: float = spec_field(
        4.0, doc="a melee weapon reaches a target this near, one megahex (TFT-2.2)", minimum=0, maximum=1000
    )
    battle_dress_st: str = spec_field(
        "strength_only",
        doc="battle dress multiplies ST for strength only (strength_only, the seed) or as hit points too (TFT-6.2)",
        choices=BATTLE_DRESS_ST,
    )
    criticals: bool = spec_field(True, doc="3/4/5 always hit with x3/x2 dice, 16-18 miss (TFT-3.2)")
    triple_damage_max: int = spec_field(
        3, doc="with criticals, a roll at or below this triples the damage dice (TFT-3.2)", minimum=2, maximum=18
    )
    double_damage_max: int = spec_field(
        4, doc="with criticals, a roll at or below this (above triple_damage_max) doubles them (TFT-3.2)",
        minimum=2, maximum=18,
    )  # fmt: skip
    automatic_hit_max: int = spec_field(
        5, doc="with criticals, a roll at or below this always hits (TFT-3.2)", minimum=2, maximum=18,
        not_above="automatic_miss_min",
    )  # fmt: skip
    automatic_miss_min: int = spec_field(
        16, doc="with criticals, a roll at or above this always misses; 19: never (TFT-3.2)", minimum=3, maximum=19
    )
    weapon_lost_min: int = spec_field(
        17, doc="with criticals, a roll at or above this drops or breaks the weapon; 19: never (TFT-3.2)",
        minimum=3, maximum=19,
    )  # fmt: skip
    autofire_step: int = spec_field(3, doc="one more hit per this much under AdjDX (TFT-3.3)", minimum=1, maximum=99)
    he_splash_per_die: int = spec_field(1, doc="HE splash points per damage die (TFT-4.5)", minimum=0, maximum=100)
    he_splash_armor: bool = spec_field(False, doc="armour reduces HE splash, per die (TFT-4.5)")
    knockdown_threshold: int = spec_field(
        8, doc="damage of one attack that knocks down (TFT-5.2)", minimum=0, maximum=10000
    )
    stagger_threshold: int = spec_field(
        5, doc="damage of one attack that gives -2 DX (TFT-5.2)", minimum=0, maximum=10000
    )
    blast_divisors: tuple[int, ...] = spec_field(
        (1, 2, 4, 8),
        doc="blast dice divisor by hex distance; [1, 2, 8] is the other reading (TFT-7.3)",
        minimum=1,
        maximum=1000,
    )
    grenade_he_doubling: bool = spec_field(False, doc="blast damage through armour is doubled (TFT-7.3)")


@dataclass(frozen=True)
class Scenario:
    """Inputs of one HiTech TFT attack (TFT-1)."""

    weapon: str = spec_field("", doc="row of the weapon table (required unless weapon.COLUMN values define one)")
    ammo: str = spec_field("", doc="ammunition: appended to the weapon's name ('snub pistol' + 'HE')")
    dx: int = spec_field(12, doc="firer's DX", **ATTRIBUTE)
    talent: str = spec_field(
        "talent", doc="firer's talent for the weapon (TFT-2.1)", choices=("none", "talent", "expert")
    )
    mode: str = spec_field("single", doc="fire mode (TFT-2.5)", choices=MODES)
    range_m: float | None = spec_field(
        None,
        doc=f"distance to the target in metres (TFT-2.2); blank: {DEFAULT_RANGE_M:g} m, or within reach for melee",
        minimum=0,
    )
    moved_hexes: int = spec_field(0, doc="hexes the firer moved this turn (TFT-2.3)", minimum=0, maximum=1000)
    dodged: bool = spec_field(False, doc="firer dodged (-6 DX, TFT-2.3)")
    moved_over_half_ma: bool = spec_field(False, doc="firer moved over half its MA (-6 DX, TFT-2.3)")
    fire: str = spec_field(
        "normal", doc="normal, opfire (-2 DX) or overwatch (TFT-2.4)", choices=("normal", "opfire", "overwatch")
    )
    laser_scope: bool = spec_field(False, doc="weapon has a laser targeting scope (+2 DX, TFT-2.7)")
    quickdraw: bool = spec_field(False, doc="the firer quickdraws the pistol first (TFT-6.3)")
    dx_mod: int = spec_field(0, doc="any other DX modifier (cover, base TFT missile modifiers...)", **MODIFIER)
    armor: str = spec_field("none", doc="row of the armour table (TFT-9)")
    st: int = spec_field(12, doc="target's ST (hit points)", minimum=1, maximum=1000)


@dataclass(frozen=True, kw_only=True)
class Weapon:
    """A row of the weapon table (TFT-8)."""

    name: str = spec_field(doc="the weapon's name, as used in scenarios")
    talent: str = spec_field("rifle", doc="talent that fires it")
    range_class: str = spec_field(doc="range class (TFT-2.2)", choices=RANGE_CLASSES)
    dice: int = spec_field(doc="damage dice (d6) per hit", **DICE)
    adds: int = spec_field(0, doc="damage adds per hit (melee weapons: 2d-1)", minimum=-100, maximum=100)
    autofire_bonus: int | None = spec_field(None, doc="autofire (or shotgun) DX bonus; blank = none", **MODIFIER)
    clip: int | None = spec_field(None, doc="rounds (or bursts, or shots) per clip", minimum=1, maximum=10000)
    clip_unit: str = spec_field("rounds", doc="unit of the clip", choices=("rounds", "bursts", "shots"))
    flags: frozenset[str] = spec_field(frozenset(), doc="space-separated flags", choices=WEAPON_FLAGS)
    cost: float | None = spec_field(
        None, doc="list price; blank: no price (the rules give none)", minimum=0, maximum=1e12
    )
    notes: str = spec_field("", doc="free text")

    @property
    def is_melee(self) -> bool:
        """Melee weapons: whole-attack armour, no range modifier (TFT-4.3)."""
        return "melee" in self.flags or self.range_class == "melee"

    @property
    def is_blast(self) -> bool:
        """Grenades, rifle grenades and rockets (TFT-7)."""
        return "blast" in self.flags

    @property
    def is_belt(self) -> bool:
        """Belt weapons: clip given in bursts, fire ``burst`` (TFT-2.5)."""
        return self.clip_unit == "bursts"


@dataclass(frozen=True, kw_only=True)
class Armour:
    """A row of the armour table (TFT-9)."""

    name: str = spec_field(doc="the armour's name, as used in scenarios")
    protection: int = spec_field(doc="points taken off each die (TFT-4.2)", minimum=0, maximum=100)
    soft: bool = spec_field(False, doc="knockdown from the dice before armour (TFT-5.1)")
    st_multiplier: int = spec_field(
        1, doc="battle dress multiplies the wearer's ST by this (TFT-6.2)", minimum=1, maximum=10
    )
    cost: float | None = spec_field(
        None, doc="list price; blank: no price (the rules give none)", minimum=0, maximum=1e12
    )
    notes: str = spec_field("", doc="free text")


_DATA = "simlab.data.hitech_tft"


#: The shipped tables, each read once on first use.
weapons = table_loader(_DATA, "weapons.csv", "weapons", "weapon", Weapon)
armours = table_loader(_DATA, "armor.csv", "armor", "armor", Armour)
