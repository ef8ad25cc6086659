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

from simlab.inputs.errors import ScenarioError
from simlab.inputs.params import is_digits
from simlab.inputs.tables import Table
from simlab.systems.tyconian.rules import ActionPoints, Weapon

__all__ = ["FirePlan", "points_by_second", "shot_costs", "plan_seconds", "fire_plan", "SECONDS", "MAX_SHOTS"]

#: Seconds in a combat turn.
SECONDS = 5
#: The most shots of a turn: every action costs at least one of at most 15 points (TYC-2.1, TYC-2.2).
MAX_SHOTS = 15


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


def points_by_second(dex: int, table: Table[ActionPoints], bonus: int = 0, most: int = 15) -> tuple[int, ...]:
    """Action points in seconds 1-5 for a DEX (TYC-2.1); no actions at DEX 0 or less (TYC-6.3).

    A successful Tactics roll adds ``bonus`` (1, or 2 on a critical) to the turn's total,
    which never exceeds ``most``; the seconds are then those of the table's row with that
    total (DEX 10 with +1 fires as DEX 11: 3, 2, 2, 2, 2). A DEX lowered by wounds is made
    up by the bonus the same way, up to the cap (TYC-2.1).

    Raises:
        ScenarioError: When no row holds the DEX, or none has the total a bonus asks for.
    """
    if dex <= 0:
        return (0,) * SECONDS
    row = _row(dex, table)
    if bonus:
        total = max(row.points, min(most, row.points + bonus))
        if total != row.points:
            found = next((other for other in table if other.points == total), None)
            if found is None:
                raise ScenarioError(
                    f"action_points: no row has {total} points in a turn, the total of DEX {dex} "
                    f"with a Tactics bonus of {bonus} (TYC-2.1)"
                )
            row = found
    return (row.second_1, row.second_2, row.second_3, row.second_4, row.second_5)


def _row(dex: int, table: Table[ActionPoints]) -> ActionPoints:
    for row in table:
        if row.dex_min <= dex <= row.dex_max:
            return row
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
    elif is_digits(rof) and not burst:
        cap = int(rof)
    return pull, between, cap


def plan_seconds(
    points: tuple[int, ...],
    per_shot: int,
    between: int,
    cap: int | None,
    *,
    upfront: int = 0,
    two_weapons: str = "",
    most: int = MAX_SHOTS,
) -> tuple[int, ...]:
    """The second (1-5) of each shot that fits in a turn (TYC-2.3, TYC-3.5).

    Each shot costs ``per_shot`` points (trigger pull and aim), and ``between`` more when its
    weapon has fired before in the turn; an action completes in the first second by which the
    points so far cover it, points not spent carrying on. ``upfront`` points are spent first
    (a Tactics roll, TYC-2.1). ``cap`` is the most shots of one weapon in a turn.

    With two weapons (TYC-3.5) the hands alternate, the primary first: ``one_at_a_time``
    fires at most one shot in a second; ``same_second`` fires both weapons together, each
    paying its own points, the pair landing in the second that completes both.
    """
    weapons = 2 if two_weapons else 1
    together = two_weapons == "same_second"
    per_action = per_shot * (2 if together else 1)
    between_action = between * (2 if together else 1)
    lag = 1 if together or weapons == 1 else 2  # actions before a weapon fires again
    shots_each = 2 if together else 1
    actions_cap = None if cap is None else (cap if together else weapons * cap)
    seconds: list[int] = []
    actions = 0
    spent = upfront
    available = 0
    second = 0
    last = 0
    while (actions_cap is None or actions < actions_cap) and len(seconds) + shots_each <= most:
        cost = spent + (between_action if actions >= lag else 0) + per_action
        while (available < cost or (weapons == 2 and not together and second <= last)) and second < SECONDS:
            available += points[second]
            second += 1
        if available < cost or (weapons == 2 and not together and second <= last):
            break
        seconds.extend([second] * shots_each)
        actions += 1
        spent = cost
        last = second
    return tuple(seconds)


def fire_plan(
    dex: int,
    weapon: Weapon,
    kind: str,
    aim: int,
    table: Table[ActionPoints],
    *,
    bonus: int = 0,
    upfront: int = 0,
    two_weapons: str = "",
    most_points: int = 15,
) -> FirePlan:
    """The most shots of one kind that fit in a turn (TYC-2.3).

    Args:
        dex: The firer's DEX.
        weapon: The weapon (the same in both hands with two weapons).
        kind: ``quick``, ``aimed`` or ``burst``.
        aim: Aim points before each shot (``aimed`` only).
        table: The action-point table.
        bonus: Action points a successful Tactics roll adds this turn (TYC-2.1).
        upfront: Points spent before the first shot (a Tactics roll made this turn).
        two_weapons: ``one_at_a_time`` or ``same_second`` with a weapon in each hand (TYC-3.5).
        most_points: The most action points of a turn (TYC-2.1).
    """
    points = points_by_second(dex, table, bonus, most_points)
    pull, between, cap = shot_costs(weapon, kind == "burst")
    per_shot = pull + (aim if kind == "aimed" else 0)
    seconds = plan_seconds(points, per_shot, between, cap, upfront=upfront, two_weapons=two_weapons)
    return FirePlan(kind, aim if kind == "aimed" else 0, seconds, points)
