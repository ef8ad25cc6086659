"""Ships as data (SPC-1): tonnage, drive, computer, turrets, magazine, toughness and crew.

A ship's turrets are written ``beam+beam+missile;sandcaster``: turrets separated by ``;``,
the weapons of one turret by ``+``. The seed gives no ship statistics beyond the classic
tonnages; every armament, magazine and crew value in ``ships.csv`` is illustrative, and
``hull_hits`` left blank is ``tons // 10`` (SPC-1).
"""

from __future__ import annotations

from dataclasses import dataclass

from simlab.inputs.errors import ScenarioError
from simlab.inputs.params import SKILL, spec_field
from simlab.inputs.tables import table_loader
from simlab.systems.space_v4.rules import LASERS, WEAPONS

__all__ = [
    "Ship",
    "ships",
    "TURRET_WEAPONS",
    "turrets_of",
    "hull_hits_of",
    "sandcasters_of",
    "weapon_count",
    "lasers_per_turret",
]

#: What a turret may mount (SPC-1).
TURRET_WEAPONS = (*WEAPONS, "sandcaster")


@dataclass(frozen=True, kw_only=True)
class Ship:
    """A row of the ship table (SPC-1)."""

    name: str = spec_field(doc="ship name")
    tons: int = spec_field(doc="displacement in tons", minimum=1, maximum=1000000)
    g: int = spec_field(doc="maneuver drive G rating", minimum=0, maximum=99)
    computer: int = spec_field(doc="computer model", minimum=0, maximum=99)
    turrets: str = spec_field("", doc="turrets separated by ';', weapons of a turret by '+' (beam+missile;sandcaster)")
    missiles: int = spec_field(
        0, doc="missiles in the magazine (missile and nuclear launchers share it)", minimum=0, maximum=10000
    )
    hull_hits: int | None = spec_field(
        None, doc="applied hits that put the ship out; blank: tons // 10 (SPC-1)", minimum=1, maximum=100000
    )
    crits_to_disable: int = spec_field(3, doc="critical hits that put the ship out (SPC-1)", minimum=1, maximum=10000)
    pilot: int = spec_field(0, doc="pilot skill (SPC-6)", **SKILL)
    navigator: int = spec_field(0, doc="navigator skill (SPC-6)", **SKILL)
    gunner: int = spec_field(0, doc="chief gunner skill (SPC-6)", **SKILL)
    engineer: int = spec_field(0, doc="engineer skill (SPC-6)", **SKILL)
    cost: float | None = spec_field(
        None, doc="list price in MCr (illustrative: no rules text gives one); blank: no price", minimum=0, maximum=1e12
    )
    notes: str = spec_field("", doc="free text")


ships = table_loader("simlab.data.space_v4", "ships.csv", "ships", "ship", Ship)


def turrets_of(ship: Ship) -> list[tuple[str, ...]]:
    """The weapons of each turret of ``ship``, in turret order.

    Raises:
        ScenarioError: For an empty turret or a weapon no turret mounts, naming the ship.
    """
    turrets: list[tuple[str, ...]] = []
    for text in ship.turrets.split(";"):
        if not text.strip():
            continue
        weapons = tuple(part.strip() for part in text.split("+"))
        for weapon in weapons:
            if weapon not in TURRET_WEAPONS:
                raise ScenarioError(
                    f"ship {ship.name!r}: turrets: {weapon!r} in {text.strip()!r} is not a turret weapon "
                    f"(valid: {', '.join(TURRET_WEAPONS)}; turrets separated by ';', weapons by '+')"
                )
        turrets.append(weapons)
    return turrets


def weapon_count(ship: Ship, weapon: str) -> int:
    """How many ``weapon`` the ship mounts over all its turrets."""
    return sum(turret.count(weapon) for turret in turrets_of(ship))


def sandcasters_of(ship: Ship) -> int:
    """Sandcasters the ship mounts (SPC-3.2)."""
    return weapon_count(ship, "sandcaster")


def lasers_per_turret(ship: Ship) -> list[int]:
    """Lasers in each turret that mounts any (the point defence of SPC-5.2)."""
    counts = [sum(weapon in LASERS for weapon in turret) for turret in turrets_of(ship)]
    return [count for count in counts if count]


def hull_hits_of(ship: Ship) -> int:
    """Applied hits that put the ship out: the table's value, else ``tons // 10`` (SPC-1)."""
    return ship.hull_hits if ship.hull_hits is not None else max(1, ship.tons // 10)
