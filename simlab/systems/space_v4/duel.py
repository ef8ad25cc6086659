"""Duels of two ships (SPC-7): turn by turn until one is out or ``max_turns`` have passed.

Each side is a ship of the table (``ship=patrol cruiser``, with ``ship.COLUMN`` overrides)
and how it fights (:class:`DuelSide`). Choices where the spec is silent:

* A turn is both ships acting once, in order of G rating; equal drives are settled by a
  2d6 roll-off with ties rolled again, once per duel: an even chance.
* Crew skill rolls (SPC-6) are made at the start of each of the ship's turns: the pilot's
  +1 G and the navigator's +1 computer count for that turn's attacks and movement (and the
  navigator's for the target's point defence against its missiles); the chief gunner's +1
  goes to the attack with the most optimal hits; the engineer's reduction holds until the
  ship's next turn, so it covers the opponent's attacks in between.
* Lasers held back (``pd_hold``, pulses first) do not fire; in the opponent's turn they
  defend on 8+, lasers that fired on 10+. A laser that could not fire at the range counts
  as held back. Before a ship's first turn all its lasers count as held back.
* Sand (``sand``) is launched every turn by a ship with sandcasters and covers it against
  laser fire until its next turn.
* Each turn a ship fires its beam group, its pulse group, then its missile and nuclear
  flights while the magazine lasts (missiles first). Each turret with lasers engages one
  missile of each flight (turret ``i`` the missile ``i mod n``).
* A ship is out the moment its applied hits reach ``hull_hits`` or its criticals
  ``crits_to_disable``; the duel then ends, so nobody is out together.
* Movement (SPC-7): at the end of *every* ship's turn the faster ship (its G this turn
  higher than the other's, or equal and it acted first) closes, opens or holds the range by
  its ``range_policy``, so it moves the range twice a turn. A ship that opens beyond extreme
  range stays at extreme. Rule ``range_moves = "faster_turn_only"`` is the old reading: only
  the end of the faster ship's own turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from simlab.engine.bounds import DRAWS_PER_TRIAL_LIMIT
from simlab.inputs.errors import ScenarioError, SimlabError, spelled
from simlab.inputs.params import as_plain, build, field_label, spec_field
from simlab.inputs.tables import RowOverrides, Tables
from simlab.systems.space_v4 import layout as k
from simlab.systems.space_v4.fractions import damage_fractions
from simlab.systems.space_v4.resolve import applied_table, may_fire, ship_row
from simlab.systems.space_v4.rules import BAND_ORDER, BANDS, Rules, naturals
from simlab.systems.space_v4.ships import Ship, hull_hits_of, sandcasters_of, ships, turrets_of

__all__ = ["DuelSide", "ResolvedDuel", "resolve_duel", "side_json", "POLICIES"]

#: What the faster ship does with the range at the end of its turn (SPC-7).
POLICIES = ("hold", "close", "open")


@dataclass(frozen=True)
class DuelSide:
    """One ship of a duel and how it fights (SPC-7)."""

    ship: str = spec_field("", doc="row of the ship table (or ship.COLUMN values)")
    range_policy: str = spec_field("hold", doc="closes, opens or holds the range when it is faster", choices=POLICIES)
    pd_hold: int = spec_field(0, doc="lasers held back each turn for point defence (SPC-5.2)", minimum=0, maximum=10000)
    sand: bool = spec_field(True, doc="launches sand every turn if it mounts sandcasters (SPC-3.2)")
    skill_rolls: bool = spec_field(True, doc="the crew makes its skill rolls (SPC-6)")
    start_band: str = spec_field(
        "", doc="range band the duel starts at, shared by both sides; blank: typical (SPC-2)", choices=("", *BANDS)
    )


@dataclass(frozen=True, eq=False)
class ResolvedDuel:
    """The kernel's view of a duel."""

    a: DuelSide
    b: DuelSide
    ships: tuple[Ship, Ship]
    rules: Rules
    start_band: str
    sides: npt.NDArray[np.int64]
    turrets: npt.NDArray[np.int64]
    rule_ints: npt.NDArray[np.int64]
    band_dm: npt.NDArray[np.int64]
    band_fires: npt.NDArray[np.int64]
    applied: npt.NDArray[np.int64]

    @property
    def names(self) -> tuple[str, str]:
        """The two ships' names."""
        return self.ships[0].name, self.ships[1].name


def side_row(side: DuelSide, ship: Ship, rules: Rules) -> list[int]:
    """A ship's values for the kernel, indexed by ``k.G`` ... ``k.SKILL_ROLLS``."""
    values = {
        k.G: ship.g,
        k.COMPUTER: ship.computer,
        k.TONS: ship.tons,
        k.SANDCASTERS: sandcasters_of(ship),
        k.MAGAZINE: ship.missiles,
        k.HULL: hull_hits_of(ship),
        k.DISABLE: ship.crits_to_disable,
        k.PILOT: ship.pilot,
        k.NAVIGATOR: ship.navigator,
        k.GUNNER: ship.gunner,
        k.ENGINEER: ship.engineer,
        k.POLICY: POLICIES.index(side.range_policy),
        k.PD_HOLD: side.pd_hold,
        k.SAND: int(side.sand),
        k.SKILL_ROLLS: int(side.skill_rolls),
    }
    return [values[i] for i in range(k.N_SIDE_INTS)]


def _start_band(a: DuelSide, b: DuelSide) -> str:
    """The shared starting band: as either side gives it (both: the same), else typical."""
    given = {band for band in (a.start_band, b.start_band) if band}
    if len(given) > 1:
        raise ScenarioError(
            f"start_band: {field_label('--a', 'start_band')} is {a.start_band} and "
            f"{field_label('--b', 'start_band')} is {b.start_band}; a duel starts at one range band"
        )
    return given.pop() if given else "typical"


def turret_array(fleet: Sequence[Ship]) -> npt.NDArray[np.int64]:
    """Weapons of each kind per turret of each ship, ``(ships, turrets, 4)``."""
    layouts = [turrets_of(ship) for ship in fleet]
    array = np.zeros((len(fleet), max(1, *(len(t) for t in layouts)), len(k.WEAPON_KINDS)), np.int64)
    for s, layout in enumerate(layouts):
        for t, turret in enumerate(layout):
            for kind, weapon in enumerate(k.WEAPON_KINDS):
                array[s, t, kind] = turret.count(weapon)
    return array


def _draw_bound(turrets: npt.NDArray[np.int64], max_turns: int) -> int:
    """Most draws a duel can take: a roll-off, then per turn each ship's skill rolls, attacks and point defence."""
    per_side = turrets.sum(axis=1)
    lasers = per_side[:, k.BEAM] + per_side[:, k.PULSE]
    per_turn = 0
    for x in range(2):
        per_turn += 4 + int(per_side[x].sum()) + 2 * int(lasers[1 - x])
    return 1 + max_turns * per_turn


def tabulate(
    side_rows: npt.NDArray[np.int64], turrets: npt.NDArray[np.int64], rules: Rules, tables: Tables, start: str
) -> tuple[npt.NDArray[np.int64], ...]:
    """The rule integers, band DMs, weapons each band allows and applied-hits table of ships in a fight.

    Args:
        side_rows: Each ship's values (:func:`side_row`).
        turrets: Weapons of each kind per turret of each ship.
        rules: The rule parameters.
        tables: Tables replacing the shipped ones (a variant's).
        start: The range band the fight starts at.
    """
    per_kind = turrets.sum(axis=1)
    optimal = per_kind * np.array([1, 1, 3, 6])
    max_optimal = 6 if rules.grouping == "per_weapon" else int(optimal.max())
    computers, drives = side_rows[:, k.COMPUTER], side_rows[:, k.G]
    max_dm = (
        max(dm for dm, *_ in BANDS.values())
        + max(0, int(computers.max()) + 1 - int(computers.min()))
        + max(0, int(drives.max()) + 1 - int(drives.min()))
        + 2  # the chief gunner; sand read as +1
    )
    fractions = tables.get("fractions") or damage_fractions()
    rule_values = {
        k.R_TO_HIT: rules.to_hit,
        **dict(zip((k.R_NATURAL, k.R_NATURAL_HIT), naturals(rules), strict=True)),
        k.R_GROUPING: int(rules.grouping == "per_weapon"),
        k.R_HELD: rules.pd_dedicated_target,
        k.R_FIRED: rules.pd_fired_target,
        k.R_PD_DM: rules.pd_computer_dm,
        k.R_SKILL_TARGET: rules.skill_target,
        k.R_REDUCTION: rules.engineer_reduction,
        k.R_PER_CRIT: rules.hits_per_critical,
        k.R_CUMULATIVE: int(rules.crit_accounting == "cumulative"),
        k.R_MAX_TURNS: rules.max_turns,
        k.R_START_BAND: BAND_ORDER.index(start),
        k.R_SAND_PLUS_ONE: int(rules.sand_dm == "plus_one"),
        k.R_EVERY_TURN_MOVES: int(rules.range_moves == "every_turn"),
    }
    band_fires = np.array([[may_fire(w, band, rules) for w in k.WEAPON_KINDS] for band in BAND_ORDER], np.int64)
    return (
        np.array([rule_values[i] for i in range(k.N_RULE_INTS)], np.int64),
        np.array([BANDS[band][0] for band in BAND_ORDER], np.int64),
        band_fires,
        applied_table(rules, fractions, max_optimal, max(0, 12 + max_dm - rules.to_hit)),
    )


def resolve_duel(
    a: Mapping[str, Any],
    b: Mapping[str, Any],
    rules: Rules,
    rows: tuple[RowOverrides, RowOverrides],
    tables: Tables | None = None,
) -> ResolvedDuel:
    """Validate both sides and tabulate the duel (SPC-7).

    Args:
        a: Side A's inputs (``--a KEY=VALUE``).
        b: Side B's inputs.
        rules: The rule parameters.
        rows: Each side's ``ship.COLUMN`` overrides.
        tables: Tables replacing the shipped ones (a variant's).

    Raises:
        SimlabError: For any bad input of either side.
    """
    chosen = tables or {}
    table = chosen.get("ships") or ships()
    sides = (build(DuelSide, a, what="--a name", owner="--a"), build(DuelSide, b, what="--b name", owner="--b"))
    fleet: list[Ship] = []
    for label, side, own in (("--a", sides[0], rows[0]), ("--b", sides[1], rows[1])):
        unknown = set(own) - {"ship"}
        if unknown:
            column = f"{sorted(unknown)[0]}.COLUMN"
            raise SimlabError(f"{spelled(label)}: {column}: a duel side takes ship.COLUMN overrides only")
        ship = ship_row(side.ship, own.get("ship", {}), table, field_label(label, "ship"))
        if ship is None:
            raise SimlabError(f"{field_label(label, 'ship')}: name a ship (valid: {', '.join(table.rows)})")
        try:
            turrets_of(ship)
        except SimlabError as exc:
            raise SimlabError(f"{label}: {exc}") from None
        fleet.append(ship)
    pair = (fleet[0], fleet[1])
    start = _start_band(*sides)
    turrets = turret_array(pair)
    bound = _draw_bound(turrets, rules.max_turns)
    if bound >= DRAWS_PER_TRIAL_LIMIT:
        raise SimlabError(
            f"a duel of up to {rules.max_turns} turns may need {bound} draws per trial; "
            f"simlab samples at most {DRAWS_PER_TRIAL_LIMIT - 1}: lower {field_label('--rule', 'max_turns')}"
        )
    side_rows = np.array([side_row(side, ship, rules) for side, ship in zip(sides, pair, strict=True)], np.int64)
    rule_ints, band_dm, band_fires, applied = tabulate(side_rows, turrets, rules, chosen, start)
    return ResolvedDuel(
        a=sides[0],
        b=sides[1],
        ships=pair,
        rules=rules,
        start_band=start,
        sides=side_rows,
        turrets=turrets,
        rule_ints=rule_ints,
        band_dm=band_dm,
        band_fires=band_fires,
        applied=applied,
    )


def side_json(side: DuelSide, ship: Ship, start_band: str) -> dict[str, Any]:
    """A side's effective inputs for the JSON output: how it fights and its ship's values."""
    return {
        **as_plain(side),
        "start_band": start_band,
        **{f"ship.{name}": value for name, value in as_plain(ship).items() if name not in ("name", "notes")},
        "ship.hull_hits": hull_hits_of(ship),
    }
