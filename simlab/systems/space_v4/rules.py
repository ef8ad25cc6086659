"""Parameters, scenario inputs and range bands of Space Combat V4 (SPC-2, SPC-3, SPC-5, SPC-8).

Every number a designer may change is a field of :class:`Rules` with the spec's default;
every input of one attack is a field of :class:`Scenario`.
"""

from __future__ import annotations

from dataclasses import dataclass

from simlab.inputs.params import MODIFIER, TARGET, spec_field
from simlab.systems.space_v4.fractions import ROUNDINGS

__all__ = [
    "naturals",
    "Rules",
    "Scenario",
    "BANDS",
    "BAND_ORDER",
    "WEAPONS",
    "OPTIMAL_HITS",
    "LASERS",
    "CRIT_ACCOUNTINGS",
]

#: Range bands (SPC-2): DM, and whether beams, pulses and missiles may fire.
BANDS: dict[str, tuple[int, bool, bool, bool]] = {
    "very_short": (2, True, True, True),
    "typical": (0, True, True, True),
    "very_long": (-2, True, False, True),
    "distant": (-2, False, False, False),
    "extreme": (-5, False, False, False),
}
#: Range bands from nearest to farthest (closing and opening move one step, SPC-7).
BAND_ORDER = tuple(BANDS)
#: Optimal hits of one weapon (SPC-4.1).
OPTIMAL_HITS = {"beam": 1, "pulse": 1, "missile": 3, "nuclear": 6}
WEAPONS = tuple(OPTIMAL_HITS)
LASERS = ("beam", "pulse")
#: How criticals are counted (SPC-4.3).
CRIT_ACCOUNTINGS = ("per_attack", "cumulative")


@dataclass(frozen=True)
class Rules:
    """Rule parameters of Space Combat V4, with the spec's defaults."""

    to_hit: int = spec_field(8, doc="2d6 + DMs at least this hits (SPC-3.1)", **TARGET)
    natural_rules: bool = spec_field(False, doc="a natural 2 always misses and 12 always hits (SPC-3.1)")
    natural_miss_max: int = spec_field(
        2, doc="with natural_rules, a natural 2d6 total at or below this always misses (SPC-3.1)", minimum=1,
        maximum=12, not_above="natural_hit_min",
    )  # fmt: skip
    natural_hit_min: int = spec_field(
        12, doc="with natural_rules, a natural 2d6 total at or above this always hits (SPC-3.1)", minimum=2, maximum=13
    )
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
    hits_per_critical: int = spec_field(
        10, doc="applied hits that bring one critical (SPC-4.3)", minimum=1, maximum=10000
    )
    missiles_beyond_very_long: bool = spec_field(
        False, doc="missiles may fire at distant range, and at extreme with DM -5 (SPC-2)"
    )
    pd_dedicated_target: int = spec_field(
        8, doc="a laser held back shoots a missile down on 2d6 >= this (SPC-5.2)", **TARGET
    )
    pd_fired_target: int = spec_field(10, doc="a laser that already fired needs this (SPC-5.2)", **TARGET)
    pd_computer_dm: int = spec_field(
        2, doc="DM on the defender's roll with the better computer; -2 is the literal reading (SPC-5.2)", **MODIFIER
    )
    skill_target: int = spec_field(10, doc="a crew skill roll succeeds on 2d6 + skill >= this (SPC-6)", **TARGET)
    engineer_reduction: int = spec_field(
        1,
        doc="applied hits an engineer's success takes off each incoming attack, never below 0 (SPC-6)",
        minimum=0,
        maximum=10000,
    )
    range_moves: str = spec_field(
        "every_turn",
        doc="the faster ship moves the range at the end of every ship's turn, or of its own only (SPC-7)",
        choices=("every_turn", "faster_turn_only"),
    )
    crit_accounting: str = spec_field(
        "per_attack",
        doc="a critical per 10 applied hits of one attack, or of the running total on the target (SPC-4.3)",
        choices=CRIT_ACCOUNTINGS,
    )
    max_turns: int = spec_field(60, doc="turns after which a duel ends in a draw (SPC-7)", minimum=1, maximum=10000)


@dataclass(frozen=True)
class Scenario:
    """Inputs of one attack: a group of weapons of one type at one ship (SPC-8).

    Inputs left blank come from the named ``attacker`` and ``defender`` ships, else from
    the defaults in their descriptions.
    """

    weapon: str = spec_field("beam", doc="beam, pulse, missile or nuclear (SPC-4.1)", choices=WEAPONS)
    attacker: str = spec_field("", doc="row of the ship table that fires (or attacker.COLUMN values)")
    defender: str = spec_field("", doc="row of the ship table fired at (or defender.COLUMN values)")
    count: int | None = spec_field(
        None, doc="weapons in the group; blank: the attacker's of that type, else 1", minimum=1, maximum=10000
    )
    range_band: str = spec_field("typical", doc="range band (SPC-2)", choices=tuple(BANDS))
    attacker_computer: int | None = spec_field(
        None, doc="attacker's computer model; blank: the ship's, else 1", minimum=0, maximum=99
    )
    defender_computer: int | None = spec_field(
        None, doc="defender's computer model; blank: the ship's, else 1", minimum=0, maximum=99
    )
    attacker_g: int | None = spec_field(
        None, doc="attacker's G rating; blank: the ship's, else 1", minimum=0, maximum=99
    )
    defender_g: int | None = spec_field(
        None, doc="defender's G rating; blank: the ship's, else 1", minimum=0, maximum=99
    )
    defender_tons: int | None = spec_field(
        None, doc="defender's tonnage; blank: the ship's, else 200", minimum=1, maximum=1000000
    )
    defender_sandcasters: int | None = spec_field(
        None, doc="sandcasters the defender mounts; blank: the ship's, else 0", minimum=0, maximum=10000
    )
    sand: bool = spec_field(False, doc="the defender launched sand this turn (against lasers)")
    gunner_bonus: bool = spec_field(False, doc="the chief gunner's skill roll succeeded: +1 (SPC-6)")
    engineer_bonus: bool = spec_field(
        False, doc="the defender's engineer roll succeeded: engineer_reduction hits fewer (SPC-6)"
    )
    pd_turrets: str = spec_field(
        "", doc="lasers per defending turret, e.g. '3,2' (SPC-5.2); blank: the defender's, else none"
    )
    pd_dedicated: bool = spec_field(False, doc="those lasers were held back for point defence (SPC-5.2)")


def naturals(rules: Rules) -> tuple[int, int]:
    """(miss_max, hit_min) of the to-hit roll (SPC-3.1): the natural thresholds with ``natural_rules``, else (1, 13)."""
    return (rules.natural_miss_max, rules.natural_hit_min) if rules.natural_rules else (1, 13)
