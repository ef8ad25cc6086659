"""From scenario, ships and rules to the tables one attack is computed from (SPC-2 to SPC-5, SPC-8).

:func:`resolve` fills the inputs left blank from the named ships, adds up the DMs of the
attack roll and tabulates the applied hits of every optimal number of hits and margin. The
exact engine and the sampler both read these tables, so they differ only by sampling noise.

Choices where the spec is silent:

* With ``grouping = per_weapon`` every weapon of the group is an attack of its own: its own
  roll, its own engineer reduction and its own criticals; a missile is then a flight of one.
  The chief gunner's +1 (``gunner_bonus``) goes to the first of those rolls only (SPC-3.2).
* The engineer's reduction (SPC-6) comes off after the minimum of 1, so an engineer can
  stop a single hit.
* A weapon that cannot fire at the range band (SPC-2: pulse lasers beyond typical range, any
  weapon at distant or extreme range) is not an error: it applies no hits, and the result
  says ``in_range: false``. Grids of weapons by range band then show where each one reaches.
* At distant range (no DM in the spec) missiles allowed by ``missiles_beyond_very_long``
  take the very long range's -2: a farther band is never easier to hit at.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from simlab.engine.bounds import DRAWS_PER_TRIAL_LIMIT
from simlab.inputs.errors import ScenarioError, SimlabError, shortened
from simlab.inputs.params import is_digits
from simlab.inputs.tables import RowOverrides, Table, Tables
from simlab.mechanics.target_number import TWO_D6
from simlab.systems.space_v4.fractions import FractionRow, applied_hits, damage_fractions
from simlab.systems.space_v4.rules import BANDS, LASERS, OPTIMAL_HITS, Rules, Scenario, naturals
from simlab.systems.space_v4.ships import Ship, lasers_per_turret, sandcasters_of, ships, weapon_count

__all__ = [
    "hit_and_margin",
    "ResolvedAttack",
    "resolve",
    "dm_terms",
    "sand_dm",
    "may_fire",
    "pd_turrets",
    "pd_needs",
    "p_shot_down",
    "applied_table",
    "hit_by_natural",
    "ship_row",
]


@dataclass(frozen=True, eq=False)
class ResolvedAttack:
    """Everything one attack's outcome depends on.

    Attributes:
        scenario: The inputs, with every blank filled from the ships or the defaults.
        rules: The rule parameters.
        attacker: The attacking ship, if named.
        defender: The defending ship, if named.
        terms: The DMs of the attack roll by name (SPC-3.2).
        rolls: Attack rolls: 1 for a group sharing a roll, else one per weapon (SPC-3.3); none
            when the weapon cannot fire at the range band.
        per_roll: Weapons behind each roll.
        per_weapon_hits: Optimal hits of one weapon (SPC-4.1).
        hit: Whether each natural 2d6 total hits (index 2 to 12).
        margin: The margin of each natural total that hits (SPC-4.2).
        applied: Applied hits by optimal hits and margin, before the engineer (SPC-4.2).
        pd: Point-defence lasers held back (column 0) and already fired (column 1) that engage
            each weapon of the group (SPC-5.2; none for lasers).
        need_held: What a held-back point-defence laser needs on 2d6 (SPC-5.2).
        need_fired: What a laser that already fired needs.
        reduction: Hits the defender's engineer takes off each attack (SPC-6).
        in_range: Whether the weapon may fire at the range band at all (SPC-2).
    """

    scenario: Scenario
    rules: Rules
    attacker: Ship | None
    defender: Ship | None
    terms: dict[str, int]
    rolls: int
    per_roll: int
    per_weapon_hits: int
    hit: npt.NDArray[np.bool_]
    margin: npt.NDArray[np.int64]
    applied: npt.NDArray[np.int64]
    pd: npt.NDArray[np.int64]
    need_held: int
    need_fired: int
    reduction: int
    in_range: bool

    @property
    def dm(self) -> int:
        """Sum of the DMs."""
        return sum(self.terms.values())

    @property
    def max_applied(self) -> int:
        """Most hits the attack can apply."""
        return self.rolls * int(self.applied[self.per_roll * self.per_weapon_hits].max())

    def later_rolls(self) -> ResolvedAttack:
        """The attack as its rolls after the first see it: the chief gunner's +1 is on one roll only (SPC-3.2)."""
        if not self.terms.get("gunner"):
            return self
        terms = {**self.terms, "gunner": 0}
        hit, margin = hit_by_natural(sum(terms.values()), self.rules)
        return replace(self, terms=terms, hit=hit, margin=margin)

    def applied_of(self, natural: int, survivors: int) -> int:
        """Applied hits of one roll with ``natural`` and ``survivors`` weapons getting through."""
        if not self.hit[natural] or survivors == 0:
            return 0
        hits = int(self.applied[survivors * self.per_weapon_hits, self.margin[natural]])
        return max(0, hits - self.reduction)


def hit_and_margin(natural: int, dm: int, to_hit: int, miss_max: int, hit_min: int) -> tuple[bool, int]:
    """Whether a natural 2d6 total hits with ``dm``, and its margin (SPC-3.1, SPC-4.2; the kernels compile it).

    A natural at or below ``miss_max`` always misses, one at or above ``hit_min`` always hits (with
    ``natural_rules``: 2 and 12; without: 1 and 13, never).
    """
    total = natural + dm
    hit = natural >= hit_min or (natural > miss_max and total >= to_hit)
    return hit, max(0, total - to_hit)


def may_fire(weapon: str, band: str, rules: Rules) -> bool:
    """Whether ``weapon`` may fire at range ``band`` (SPC-2)."""
    _, beams, pulses, missiles = BANDS[band]
    if weapon in LASERS:
        return beams if weapon == "beam" else pulses
    return missiles or (rules.missiles_beyond_very_long and band in ("distant", "extreme"))


def sand_dm(rules: Rules, sandcasters: int, tons: int) -> int:
    """The DM of sand on laser fire (SPC-3.2): by sandcasters per 200 tons, or the literal +1."""
    if rules.sand_dm == "plus_one":
        return 1
    per_200 = sandcasters * 200 / tons
    return -2 if per_200 >= 2 else -1 if per_200 >= 1 else 0


def dm_terms(scenario: Scenario, rules: Rules) -> dict[str, int]:
    """The DMs of the attack roll by name (SPC-3.2) of a scenario without blanks."""
    s = scenario
    assert s.attacker_computer is not None and s.defender_computer is not None
    assert s.attacker_g is not None and s.defender_g is not None
    assert s.defender_sandcasters is not None and s.defender_tons is not None
    sand = s.weapon in LASERS and s.sand
    return {
        "range": BANDS[s.range_band][0],
        "computer": max(0, s.attacker_computer - s.defender_computer),
        "g": max(0, s.attacker_g - s.defender_g),
        "sand": sand_dm(rules, s.defender_sandcasters, s.defender_tons) if sand else 0,
        "gunner": int(s.gunner_bonus),
    }


def pd_turrets(text: str) -> list[int]:
    """Lasers per defending turret from ``'3,2'`` (SPC-5.2, SPC-8).

    Raises:
        ScenarioError: For anything but counts of lasers separated by commas.
    """
    parts = [part.strip() for part in text.split(",") if part.strip()]
    if not all(is_digits(part) and len(part) < 20 for part in parts):
        raise ScenarioError(f"pd_turrets: {shortened(text)!r} is not lasers per turret separated by commas, e.g. '3,2'")
    return [int(part) for part in parts]


def pd_needs(rules: Rules, defender_better: bool) -> tuple[int, int]:
    """What a point-defence laser needs on 2d6, held back and after firing, with the better computer's DM (SPC-5.2)."""
    dm = rules.pd_computer_dm if defender_better else 0
    return rules.pd_dedicated_target - dm, rules.pd_fired_target - dm


def applied_table(rules: Rules, fractions: Iterable[FractionRow], max_optimal: int, max_margin: int) -> np.ndarray:
    """Applied hits by optimal hits (rows) and margin (columns), 0 for no optimal hits (SPC-4.2).

    A pure function of the rounding and the fraction rows: each table is worked out once
    and shared (read-only) by every cell that needs it.
    """
    return _applied_table(rules.fraction_rounding, tuple(fractions), max_optimal, max_margin)


@lru_cache(maxsize=1024)
def _applied_table(rounding: str, rows: tuple[FractionRow, ...], max_optimal: int, max_margin: int) -> np.ndarray:
    table = np.zeros((max_optimal + 1, max_margin + 1), np.int64)
    for optimal in range(1, max_optimal + 1):
        for margin in range(max_margin + 1):
            table[optimal, margin] = applied_hits(optimal, margin, rounding, rows)
    table.setflags(write=False)
    return table


def hit_by_natural(dm: int, rules: Rules) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
    """Whether each natural 2d6 total hits, and its margin (SPC-3.1, SPC-4.2)."""
    hit = np.zeros(13, np.bool_)
    margin = np.zeros(13, np.int64)
    for natural in range(2, 13):
        hit[natural], margin[natural] = hit_and_margin(natural, dm, rules.to_hit, *naturals(rules))
    return hit, margin


def ship_row(name: str, overrides: Mapping[str, Any], table: Table[Ship], role: str) -> Ship | None:
    """The ship named by input ``role`` (``attacker``), with its ``ROLE.COLUMN`` overrides; None if neither is given."""
    if not name and not overrides:
        return None
    try:
        return table.resolve(name or None, overrides)
    except SimlabError as exc:
        raise SimlabError(f"{role}: {exc}") from None


def _filled(scenario: Scenario, attacker: Ship | None, defender: Ship | None) -> Scenario:
    """The scenario with every blank input taken from the ships, else its default."""
    s = scenario
    count = s.count
    if count is None and attacker is not None:
        count = weapon_count(attacker, s.weapon)
        if count == 0:
            raise ScenarioError(f"attacker: ship {attacker.name!r} mounts no {s.weapon}: set count")
    pd = s.pd_turrets
    if not pd.strip() and defender is not None:
        pd = ",".join(str(n) for n in lasers_per_turret(defender))
    a = attacker
    d = defender
    return replace(
        s,
        count=count or 1,
        attacker_computer=_first(s.attacker_computer, a.computer if a else None, 1),
        defender_computer=_first(s.defender_computer, d.computer if d else None, 1),
        attacker_g=_first(s.attacker_g, a.g if a else None, 1),
        defender_g=_first(s.defender_g, d.g if d else None, 1),
        defender_tons=_first(s.defender_tons, d.tons if d else None, 200),
        defender_sandcasters=_first(s.defender_sandcasters, sandcasters_of(d) if d else None, 0),
        pd_turrets=pd,
    )


def _first(given: int | None, from_ship: int | None, default: int) -> int:
    """The input as given, else the ship's value, else the default."""
    return given if given is not None else from_ship if from_ship is not None else default


def resolve(
    scenario: Scenario, rules: Rules, row_overrides: RowOverrides | None = None, tables: Tables | None = None
) -> ResolvedAttack:
    """Validate one attack and tabulate it (SPC-8).

    Args:
        scenario: The inputs (blanks come from the ships).
        rules: The rule parameters.
        row_overrides: ``attacker.COLUMN`` / ``defender.COLUMN`` overrides.
        tables: Tables replacing the shipped ones (a variant's ``ships`` or ``fractions``).

    Raises:
        SimlabError: For a bad input, a weapon out of range or a ship without the weapon.
    """
    overrides = row_overrides or {}
    unknown = set(overrides) - {"attacker", "defender"}
    if unknown:
        raise SimlabError(f"{sorted(unknown)[0]}.COLUMN: one attack takes attacker.COLUMN and defender.COLUMN")
    chosen = tables or {}
    ship_table = chosen.get("ships") or ships()
    attacker = ship_row(scenario.attacker, overrides.get("attacker", {}), ship_table, "attacker")
    defender = ship_row(scenario.defender, overrides.get("defender", {}), ship_table, "defender")
    filled = _filled(scenario, attacker, defender)
    assert filled.count is not None and filled.defender_computer is not None and filled.attacker_computer is not None
    terms = dm_terms(filled, rules)
    laser = filled.weapon in LASERS
    if rules.grouping == "per_weapon":
        rolls, per_roll = filled.count, 1
    else:
        rolls, per_roll = 1, filled.count
    per_weapon_hits = OPTIMAL_HITS[filled.weapon]
    pd = np.zeros((filled.count, 2), np.int64)
    if not laser:
        for turret, n in enumerate(pd_turrets(filled.pd_turrets)):
            pd[turret % filled.count, 0 if filled.pd_dedicated else 1] += n
    pd.setflags(write=False)
    if rolls + int(pd.sum()) >= DRAWS_PER_TRIAL_LIMIT:
        raise ScenarioError(f"count and pd_turrets need more than {DRAWS_PER_TRIAL_LIMIT - 1} rolls per attack")
    need_held, need_fired = pd_needs(rules, filled.defender_computer > filled.attacker_computer)
    dm = sum(terms.values())
    hit, margin = hit_by_natural(dm, rules)
    in_range = may_fire(filled.weapon, filled.range_band, rules)
    fractions = chosen.get("fractions") or damage_fractions()
    applied = applied_table(rules, fractions, per_roll * per_weapon_hits, int(margin.max()))
    return ResolvedAttack(
        scenario=filled,
        rules=rules,
        attacker=attacker,
        defender=defender,
        terms=terms,
        rolls=rolls if in_range else 0,
        per_roll=per_roll,
        per_weapon_hits=per_weapon_hits,
        hit=hit,
        margin=margin,
        applied=applied,
        pd=pd,
        need_held=need_held,
        need_fired=need_fired,
        reduction=rules.engineer_reduction if filled.engineer_bonus else 0,
        in_range=in_range,
    )


def p_shot_down(attack: ResolvedAttack) -> list[float]:
    """Chance that point defence destroys each weapon of the group once its roll has hit (SPC-5.2)."""
    miss_held = 1 - TWO_D6.p_at_least(attack.need_held)
    miss_fired = 1 - TWO_D6.p_at_least(attack.need_fired)
    return [1 - miss_held ** int(held) * miss_fired ** int(fired) for held, fired in attack.pd]
