"""Flamethrowers at one figure, directed and area modes (TYC-7.2).

Choices where the spec is silent:

* Each location the spray may reach is rolled on the hit location table (TYC-5.1); a
  location may be hit more than once, its damage adds up.
* Flame is not stopped by armour (the seed gives armour no part against it); cover that
  blocks the flame (``cover_av`` above 0) keeps it off entirely, as the seed says for area
  mode and "unobstructed" implies for directed mode.
* A dodge (directed mode) is a skill roll each second; a success takes one location off
  that second's roll, a critical success two and makes the chance one step worse (1 in n
  becomes 1 in n + 1, at most 1 in 6). Area mode cannot be dodged.
* A figure adjacent to the target (directed mode) is sprayed one second behind: the first
  second misses it, the second second attacks it as the first, and so on.
* Burning (8 or more points at a location after the spray) adds as many points as the
  location took, or ``burn_seconds`` points when the fire is put out sooner. Fire is not
  impact damage: it never knocks down; head wounds from it may stun, once for the spray's
  hits as they land and once for the burning.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from simlab.inputs.errors import ScenarioError
from simlab.inputs.params import SKILL, spec_field
from simlab.inputs.tables import RowOverrides, Table, Tables
from simlab.mechanics.d20 import p_critical_success, p_skill_success
from simlab.systems.tyconian.questions.explosives import flamer_area, flamer_directed
from simlab.systems.tyconian.resolve import LOCATIONS, capacities, location_table
from simlab.systems.tyconian.rules import Rules, Target
from simlab.systems.tyconian.wounds import LIMBS

__all__ = [
    "FlameScenario",
    "ResolvedFlame",
    "resolve_flame",
    "mean_location_hits",
]


#: The shortest spray of each mode, in seconds (TYC-7.2; the longest is the table's).
SHORTEST_SPRAY = {"directed": 2, "area": 3}


@dataclass(frozen=True)
class FlameScenario(Target):
    """Inputs of a flamethrower's spray at one figure (TYC-7.2)."""

    flamer_mode: str = spec_field("directed", doc="directed at the target, or area", choices=("directed", "area"))
    seconds: int = spec_field(5, doc="seconds of the spray: 2-5 directed, 3-5 area (TYC-7.2)", minimum=1, maximum=5)
    range_m: float = spec_field(
        2.0, doc="range of the figure in area mode (bands of the area table)", minimum=0, maximum=100000
    )
    dodge_skill: int | None = spec_field(None, doc="the figure dodges each second with this skill (directed)", **SKILL)
    adjacent: bool = spec_field(False, doc="the figure stands beside the target: one second behind (directed)")
    burn_seconds: int | None = spec_field(
        None, doc="seconds before burning is put out; blank: it burns out", minimum=0, maximum=10000
    )


@dataclass(frozen=True, eq=False)
class ResolvedFlame:
    """The seconds of a spray that reach the figure and what the sampler needs.

    Attributes:
        scenario: The inputs.
        rules: The rule parameters.
        seconds: ``(n, 4)``: location die, bonus, "1 in n" and d8s of each second that reaches the figure.
        capacity: Capacity per location.
        limb: 1 for a limb.
        location_of_roll: Location index of each d20 roll.
    """

    scenario: FlameScenario
    rules: Rules
    seconds: npt.NDArray[np.int64]
    capacity: npt.NDArray[np.int64]
    limb: npt.NDArray[np.int64]
    location_of_roll: npt.NDArray[np.int64]

    @property
    def max_damage(self) -> int:
        """Most damage the figure can take (burning doubles a location at most)."""
        if not len(self.seconds):
            return 0
        return int(2 * 8 * ((self.seconds[:, 0] + self.seconds[:, 1]) * self.seconds[:, 3]).sum())


def _area_row(scenario: FlameScenario, table: Table[Any]) -> Any:
    for row in table:
        if scenario.range_m <= row.range_max_m:
            return row
    bands = ", ".join(row.name for row in table)
    raise ScenarioError(f"range_m: {scenario.range_m:g} m is beyond the area table of the flamer ({bands}; TYC-7.2)")


def resolve_flame(
    scenario: FlameScenario, rules: Rules, row_overrides: RowOverrides | None = None, tables: Tables | None = None
) -> ResolvedFlame:
    """Resolve a spray: the seconds that reach the figure (TYC-7.2).

    Raises:
        SimlabError: For more seconds than the table has, or inputs the mode does not take.
    """
    tables = tables or {}
    directed = list(tables.get("flamer_directed", flamer_directed()))
    most = len(directed)
    shortest = SHORTEST_SPRAY[scenario.flamer_mode]
    if not shortest <= scenario.seconds <= most:
        raise ScenarioError(
            f"seconds: {scenario.flamer_mode} sprays last {shortest} to {most} seconds (TYC-7.2), "
            f"got {scenario.seconds}"
        )
    if scenario.flamer_mode == "area":
        for name in ("dodge_skill", "adjacent"):
            if getattr(scenario, name) not in (None, False):
                raise ScenarioError(f"{name}: applies to directed mode only (area fire cannot be dodged; TYC-7.2)")
        row = _area_row(scenario, tables.get("flamer_area", flamer_area()))
        rows = [[row.location_die, 0, row.chance_one_in, 1]] * scenario.seconds
    else:
        reached = directed[: scenario.seconds - 1] if scenario.adjacent else directed[: scenario.seconds]
        rows = [[r.location_die, r.location_bonus, r.chance_one_in, r.damage_dice] for r in reached]
    if scenario.cover_av > 0:
        rows = []
    return ResolvedFlame(
        scenario=scenario,
        rules=rules,
        seconds=np.array(rows, np.int64).reshape(-1, 4),
        capacity=capacities(scenario.target_str, scenario.target_end),
        limb=np.array([name in LIMBS for name in LOCATIONS], np.int64),
        location_of_roll=location_table(tables),
    )


def mean_location_hits(flame: ResolvedFlame) -> float:
    """Expected location hits of the spray, exactly (TYC-7.2): the dodge, the location die and the chance."""
    rules, dodge = flame.rules, flame.scenario.dodge_skill
    if dodge is None:
        outcomes = [(1.0, 0, 0)]
    else:
        p_critical = p_critical_success(die=rules.skill_die, critical_success_max=rules.critical_success_max)
        p_success = p_skill_success(
            dodge,
            die=rules.skill_die,
            critical_success_max=rules.critical_success_max,
            critical_failure_min=rules.critical_failure_min,
        )
        outcomes = [(1 - p_success, 0, 0), (p_success - p_critical, 1, 0), (p_critical, 2, 1)]
    total = 0.0
    for sides, bonus, one_in, _ in flame.seconds:
        for p, fewer, worse in outcomes:
            locations = np.mean([max(0, face + bonus - fewer) for face in range(1, sides + 1)])
            total += p * locations / min(6, one_in + worse) if worse else p * locations / one_in
    return float(total)
