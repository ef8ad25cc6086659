"""Parameters, scenario inputs and range bands of Space Combat V4 (SPC-2, SPC-3, SPC-5, SPC-8).

Every number a designer may change is a field of :class:`Rules` with the spec's default;
every input of one attack is a field of :class:`Scenario`.
"""

from __future__ import annotations

from dataclasses import dataclass

from simlab.params import spec_field
from simlab.systems.space_v4.fractions import ROUNDINGS

__all__ = ["Rules", "Scenario", "BANDS", "WEAPONS", "OPTIMAL_HITS", "LASERS"]

#: Range bands (SPC-2): DM, and whether beams, pulses and missiles may fire.
BANDS: dict[str, tuple[int, bool, bool, bool]] = {
    "very_short": (2, True, True, True),
    "typical": (0, True, True, True),
    "very_long": (-2, True, False, True),
    "distant": (0, False, False, False),
    "extreme": (-5, False, False, False),
}
#: Optimal hits of one weapon (SPC-4.1).
OPTIMAL_HITS = {"beam": 1, "pulse": 1, "missile": 3, "nuclear": 6}
WEAPONS = tuple(OPTIMAL_HITS)
LASERS = ("beam", "pulse")


@dataclass(frozen=True)
class Rules:
    """Rule parameters of Space Combat V4, with the spec's defaults."""

    to_hit: int = spec_field(8, doc="2d6 + DMs at least this hits (SPC-3.1)")
    natural_rules: bool = spec_field(False, doc="a natural 2 always misses and 12 always hits (SPC-3.1)")
    sand_dm: str = spec_field(
        "by_sandcasters",
        doc="sand against lasers: -1/-2 by sandcasters per 200 tons, or the literal +1 (SPC-3.2)",
        choices=("by_sandcasters", "plus_one"),
    )
    grouping: str = spec_field(
        "by_type", doc="a group of weapons shares one roll, or each rolls (SPC-3.3)", choices=("by_type", "per_weapon")
    )
    fraction_rounding: str = spec_field(
        "floor", doc="fraction of optimal hits rounded down or to the nearest (SPC-4.2)", choices=ROUNDINGS
    )
    hits_per_critical: int = spec_field(10, doc="applied hits that bring one critical (SPC-4.3)", minimum=1)
    missiles_beyond_very_long: bool = spec_field(
        False, doc="missiles may fire at distant range, and at extreme with DM -5 (SPC-2)"
    )
    pd_dedicated_target: int = spec_field(8, doc="a laser held back shoots a missile down on 2d6 >= this (SPC-5.2)")
    pd_fired_target: int = spec_field(10, doc="a laser that already fired needs this (SPC-5.2)")
    pd_computer_dm: int = spec_field(
        2, doc="DM on the defender's roll with the better computer; -2 is the literal reading (SPC-5.2)"
    )


@dataclass(frozen=True)
class Scenario:
    """Inputs of one attack: a group of weapons of one type at one ship (SPC-8)."""

    weapon: str = spec_field("beam", doc="beam, pulse, missile or nuclear (SPC-4.1)", choices=WEAPONS)
    count: int = spec_field(1, doc="weapons in the group", minimum=1)
    range_band: str = spec_field("typical", doc="range band (SPC-2)", choices=tuple(BANDS))
    attacker_computer: int = spec_field(1, doc="attacker's computer model", minimum=0)
    defender_computer: int = spec_field(1, doc="defender's computer model", minimum=0)
    attacker_g: int = spec_field(1, doc="attacker's G rating", minimum=0)
    defender_g: int = spec_field(1, doc="defender's G rating", minimum=0)
    defender_tons: int = spec_field(200, doc="defender's tonnage (sand per 200 tons)", minimum=1)
    defender_sandcasters: int = spec_field(0, doc="sandcasters the defender mounts", minimum=0)
    sand: bool = spec_field(False, doc="the defender launched sand this turn (against lasers)")
    gunner_bonus: bool = spec_field(False, doc="the chief gunner's skill roll succeeded: +1 (SPC-6)")
    pd_turrets: str = spec_field("", doc="lasers per defending turret, e.g. '3,2' (SPC-5.2); blank: none")
    pd_dedicated: bool = spec_field(False, doc="those lasers were held back for point defence (SPC-5.2)")
