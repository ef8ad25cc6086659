"""Explosives and flamethrowers of the Tyconian rules, their exact parts (TYC-7.1, TYC-7.2).

The dice an explosion throws at each distance and the number of locations they reach, the
geometry of shaped charges, and the flamethrower's tables (data files; the chance of each
location being hit is "1 in n", column ``chance_one_in``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from simlab.inputs.params import DICE, spec_field
from simlab.inputs.tables import table_loader
from simlab.mechanics.d20 import round_off

__all__ = [
    "Explosive",
    "FlamerSecond",
    "FlamerArea",
    "explosives",
    "flamer_directed",
    "flamer_area",
    "dice_at",
    "locations_hit",
    "shaped",
    "MAX_DISTINCT_LOCATIONS",
]

#: Distinct locations an explosion reaches before it repeats them (TYC-7.1).
MAX_DISTINCT_LOCATIONS = 7


@dataclass(frozen=True, kw_only=True)
class Explosive:
    """A row of the explosives table (TYC-7.1)."""

    name: str = spec_field(doc="the explosive's name")
    damage: float = spec_field(doc="damage D in dice (d8)", minimum=0, maximum=100)
    radius_m: float = spec_field(doc="burst radius B in metres (between D/2 and 2D)", minimum=0, maximum=1000)
    penetration: str = spec_field("normal", doc="penetration class", choices=("normal", "high", "low", "nil"))
    shaped: bool = spec_field(False, doc="a shaped charge")
    notes: str = spec_field("", doc="free text")


@dataclass(frozen=True, kw_only=True)
class FlamerSecond:
    """A row of the directed flamethrower table: one second of the spray (TYC-7.2)."""

    name: str = spec_field(doc="row name")
    second: int = spec_field(doc="second of the spray, 1-5", minimum=1, maximum=5)
    location_die: int = spec_field(doc="die of the number of locations (d3, d4)", minimum=1, maximum=20)
    location_bonus: int = spec_field(doc="added to that die", minimum=0, maximum=20)
    chance_one_in: int = spec_field(doc="a location is hit 1 time in this many", minimum=1, maximum=100)
    damage_dice: int = spec_field(doc="d8 per location hit", **DICE)
    notes: str = spec_field("", doc="free text")


@dataclass(frozen=True, kw_only=True)
class FlamerArea:
    """A row of the area flamethrower table, by range (TYC-7.2)."""

    name: str = spec_field(doc="row name")
    range_min_m: float = spec_field(doc="nearest range of the band", minimum=0, maximum=1000, not_above="range_max_m")
    range_max_m: float = spec_field(doc="farthest range of the band", minimum=0, maximum=1000)
    location_die: int = spec_field(doc="die of the number of locations", minimum=1, maximum=20)
    chance_one_in: int = spec_field(doc="a location is hit 1 time in this many", minimum=1, maximum=100)
    notes: str = spec_field("", doc="free text")


_DATA = "simlab.data.tyconian"
explosives = table_loader(_DATA, "explosives.csv", "explosives", "explosive", Explosive)
flamer_directed = table_loader(_DATA, "flamer_directed.csv", "flamer_directed", "flamer second", FlamerSecond)
flamer_area = table_loader(_DATA, "flamer_area.csv", "flamer_area", "flamer range", FlamerArea)


def dice_at(distance_m: float, damage: float, radius_m: float, rounding: str = "nearest") -> float:
    """Dice of an explosion at a distance (TYC-7.1).

    2D under ½ m; else ``D − floor(r) × D / B``, rounded to the nearest ½ die; none at B or beyond.

    Example (seed): D 4, B 4 → 8, 4, 3, 2, 1 dice at 0-½, ½-1, 1-2, 2-3, 3-4 m.
    """
    if distance_m >= radius_m:
        return 0.0
    if distance_m < 0.5:
        return 2 * damage
    dice = damage - math.floor(distance_m) * damage / radius_m
    return max(0.0, round_off(2 * dice, rounding) / 2)


def locations_hit(dice: float) -> tuple[int, int]:
    """Locations ``dice`` reach, (distinct, repeats): the dice rounded up, distinct up to 7 (TYC-7.1)."""
    reached = math.ceil(dice)
    return min(reached, MAX_DISTINCT_LOCATIONS), max(0, reached - MAX_DISTINCT_LOCATIONS)


def shaped(damage: float, radius_m: float, *, on_axis: bool) -> tuple[float, float]:
    """A shaped charge off its axis has a quarter of the radius and half the damage (TYC-7.1)."""
    return (damage, radius_m) if on_axis else (damage / 2, radius_m / 4)
