"""Action points and fire plans of the Tyconian rules (TYC-2).

A turn is 5 seconds; a DEX gives a number of action points in each second (the seed's
table, a data file). A fire plan is a sequence of actions: aim points and a trigger pull
(or burst pull) per shot, with bolt, lever or pump cycling or a single-shot reload between
shots. An action completes in the first second by which the points so far cover its cost;
points not spent carry into the next second (TYC-2.3). :func:`fire_plan` packs as many
shots of one kind into a turn as the points and the weapon's rate of fire allow.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from simlab.errors import ScenarioError
from simlab.systems.tyconian.rules import ActionPoints, Weapon
from simlab.tables import Table

__all__ = ["FirePlan", "points_by_second", "shot_costs", "fire_plan", "SECONDS"]

#: Seconds in a combat turn.
SECONDS = 5


@dataclass(frozen=True)
class FirePlan:
    """One turn's fire.

    Attributes:
        kind: ``quick`` (no aim), ``aimed`` or ``burst``.
        aim: Aim points before each shot.
        seconds: The second (1-5) in which each shot is fired.
        points: The action points of each second.
    """

    kind: str
    aim: int
    seconds: tuple[int, ...]
    points: tuple[int, ...]

    @property
    def shots(self) -> int:
        """Shots (or bursts) in the turn."""
        return len(self.seconds)


def points_by_second(dex: int, table: Table[ActionPoints]) -> tuple[int, ...]:
    """Action points in seconds 1-5 for a DEX (TYC-2.1); no actions at DEX 0 or less (TYC-6.3)."""
    if dex <= 0:
        return (0,) * SECONDS
    for row in table:
        if row.dex_min <= dex <= row.dex_max:
            return (row.second_1, row.second_2, row.second_3, row.second_4, row.second_5)
    raise ScenarioError(f"DEX {dex} is in no row of the action-point table")


def shot_costs(weapon: Weapon, burst: bool) -> tuple[int, int, int | None]:
    """(points of a trigger pull, points between two shots, most shots a turn) for a weapon (TYC-2.2).

    ``DAR`` pulls cost 2; bursts 2; ``BA``/``LA``/``PA`` cycle for 2 and ``SS<n>`` reloads for n
    between shots; a numeric ROF or ``SA<n>`` caps the shots of a turn.
    """
    rof = weapon.rof
    pull = 2 if (burst or rof == "DAR") else 1
    between = 2 if rof in ("BA", "LA", "PA") else 0
    cap: int | None = None
    if match := re.fullmatch(r"SS(\d+)", rof):
        between, cap = int(match.group(1)), None
    elif match := re.fullmatch(r"SA(\d+)", rof):
        cap = int(match.group(1))
    elif rof.isdigit() and not burst:
        cap = int(rof)
    return pull, between, cap


def fire_plan(dex: int, weapon: Weapon, kind: str, aim: int, table: Table[ActionPoints]) -> FirePlan:
    """The most shots of one kind that fit in a turn (TYC-2.3).

    Args:
        dex: The firer's DEX.
        weapon: The weapon.
        kind: ``quick``, ``aimed`` or ``burst``.
        aim: Aim points before each shot (``aimed`` only).
        table: The action-point table.
    """
    points = points_by_second(dex, table)
    pull, between, cap = shot_costs(weapon, kind == "burst")
    per_shot = pull + (aim if kind == "aimed" else 0)
    seconds: list[int] = []
    spent = 0
    available = 0
    second = 0
    while cap is None or len(seconds) < cap:
        cost = spent + (between if seconds else 0) + per_shot
        while available < cost and second < SECONDS:
            available += points[second]
            second += 1
        if available < cost:
            break
        seconds.append(second)
        spent = cost
    return FirePlan(kind, aim if kind == "aimed" else 0, tuple(seconds), points)
