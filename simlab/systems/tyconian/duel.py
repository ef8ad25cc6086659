"""Duels of two figures under the Tyconian rules (TYC-2 to TYC-6): second by second, by fire plan.

Each turn (5 seconds) each figure follows its fire plan (TYC-2.3, :func:`.plans.plan_seconds`):
as many quick shots (or aimed shots with ``aim`` points before each, or bursts) as its
action points allow, the points depending on its DEX at the start of the turn (TYC-2.1).
A figure may open with a Tactics roll (its 2 points spent first in turn 1; a success adds 1
point, a critical 2, in each of the next 5 turns) and may fire a weapon in each hand, one
at a time or both in the same second (TYC-3.5). Shots fired in the same second by both
figures land together; at the end of every second the wounds are counted (TYC-6): the
first slight wound costs 2 DEX, the first serious one 4 DEX more and half the STR, a
serious wound anywhere but the head calls for 3d6 under END (else unconscious), a serious
head wound, a critical or amputated location, three serious locations, a stunning head
hit or DEX 0 put the figure out; a killing wound kills it. A seriously wounded figure
rolls 3d6 under END again at the start of every turn it tries to act (TYC-6.3). The
impact damage of all hits of a turn above the DEX the figure started it with knocks it
down: no actions in the next turn (TYC-6.4). Body armour at a location loses 1 AV for
every two penetrations (TYC-5.5). Recoil builds shot by shot within a turn and resets at
the next one (TYC-3.4). Full-automatic fire is one volley at the end of the turn (TYC-4).
A figure with an empty magazine spends a turn reloading if it has a spare. A duel still
undecided after ``max_turns`` turns ends with nobody down.

Readings where the seed leaves a choice: the knockdown is judged on the turn's total
when it ends (rule ``knockdown_damage``); a knocked-down figure pays nothing to stand up;
with two weapons the hands alternate, the primary first, a pair of the same weapon is
reloaded in one turn, and in the same second only whole pairs are fired.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from simlab.engine.bounds import DRAWS_PER_TRIAL_LIMIT
from simlab.inputs.errors import ScenarioError, SimlabError, about_armour
from simlab.inputs.params import SKILL, as_plain, build, field_label, spec_field
from simlab.inputs.tables import RowOverrides, Tables
from simlab.systems.base import Deferred, duel_resolver
from simlab.systems.duels import DUEL_METRICS, DuelEngine
from simlab.systems.tyconian.fire import SKILL_MULTIPLIER, can_jam, range_band
from simlab.systems.tyconian.full_auto import table_row
from simlab.systems.tyconian.plans import MAX_SHOTS, plan_seconds, points_by_second, shot_costs
from simlab.systems.tyconian.resolve import LOCATIONS, ResolvedAttack, dice_through, resolve
from simlab.systems.tyconian.rules import (
    MODES,
    TACTICS_BONUS,
    TWO_WEAPON_FIRE,
    TWO_WEAPON_PENALTY,
    Rules,
    Scenario,
    Weapon,
    action_points,
    full_auto_rows,
)
from simlab.systems.tyconian.wounds import LIMBS

__all__ = ["DuelSide", "ResolvedDuel", "resolve_duel", "check_duel", "duel", "DUEL_METRICS", "SIDE_FIELDS"]


#: Per-side parameters of the kernel, by index.
SIDE_FIELDS = (
    "skill", "aim_skill", "dex", "str", "end", "rounds_per_shot", "magazine", "spare", "full_auto", "auto_rounds",
    "auto_reduction", "auto_minimum", "auto_recoil", "hit_face", "multiplier_x100", "recoil", "two_weapons",
    "primary_penalty", "off_penalty", "str_loss", "tactics", "can_jam",
)  # fmt: skip
#: Kinds of turn of a fire plan: plain, the first with a Tactics roll, one with its bonus (TYC-2.1).
PLAIN_TURN, TACTICS_TURN, BONUS_TURN = range(3)
#: Tactics rolls of a duel side, made in its first turn (TYC-2.1).
DUEL_TACTICS = ("none", "success", "critical")


@dataclass(frozen=True)
class DuelSide:
    """One figure of a Tyconian duel."""

    weapon: str = spec_field("", doc="row of the weapon table (or weapon.COLUMN values)")
    armor: str = spec_field("none", doc="row of the armour table")
    mode: str = spec_field("single", doc="fire mode", choices=MODES)
    skill: int = spec_field(10, doc="skill with the weapon", **SKILL)
    aim: int = spec_field(0, doc="aim points before each shot (single mode)", minimum=0, maximum=99)
    dex: int = spec_field(10, doc="DEX (action points, TYC-2.1)", minimum=1, maximum=99)
    strength: int = spec_field(10, doc="STR (recoil, capacity)", minimum=1, maximum=99)
    end: int = spec_field(10, doc="END (capacity, consciousness, stun)", minimum=1, maximum=99)
    range_m: float = spec_field(20.0, doc="distance to the other figure", minimum=0)
    cover_av: int = spec_field(0, doc="AV of cover in front of this figure", minimum=0, maximum=1000)
    magazines: int = spec_field(3, doc="magazines carried, the loaded one included", minimum=1, maximum=10000)
    tactics: str = spec_field(
        "none",
        doc="a Tactics roll in the first turn, its points spent first: success (+1 point in each of the next "
        "turns) or critical (+2) (TYC-2.1)",
        choices=DUEL_TACTICS,
    )
    two_weapons: bool = spec_field(False, doc="the same weapon in each hand, firing in turn (TYC-3.4, TYC-3.5)")
    two_weapon_fire: str = spec_field(
        "one_at_a_time",
        doc="with two weapons: one_at_a_time (one shot a second, off hand -5, STR' -1) or same_second (both "
        "together, primary -2, off hand -7, STR' -2) (TYC-3.4, TYC-3.5)",
        choices=TWO_WEAPON_FIRE,
    )


@dataclass(frozen=True, eq=False)
class ResolvedDuel:
    """The kernel's view of a duel.

    Attributes:
        a: Side A's inputs.
        b: Side B's inputs.
        rules: The rule parameters.
        names: The two weapons' names.
        sides: ``(2, len(SIDE_FIELDS))`` per-side parameters.
        locations: ``(2, wear + 1, 5, 7)``: per shooter and AV lost to wear (TYC-5.5), the whole
            d8, half d4, trauma, capacity and is-limb of each location of the other figure.
        plans: ``(2, 3, jam_clear_die + 1, 16, MAX_SHOTS)``: per side, kind of turn, points owed to clear a jam
            and DEX (15 for 15+), the second of each shot of the turn's fire plan (TYC-2.3).
        plan_shots: ``(2, 3, jam_clear_die + 1, 16)``: the shots of each of those plans.
        location_of_roll: Location index of each d20 roll.
    """

    a: DuelSide
    b: DuelSide
    rules: Rules
    names: tuple[str, str]
    sides: npt.NDArray[np.int64]
    locations: npt.NDArray[np.int64]
    plans: npt.NDArray[np.int64]
    plan_shots: npt.NDArray[np.int64]
    location_of_roll: npt.NDArray[np.int64]


def _side(
    shooter: DuelSide, target: DuelSide, rules: Rules, rows: Mapping[str, Any], tables: Mapping[str, Any]
) -> tuple[list[int], np.ndarray, np.ndarray, np.ndarray, str]:
    """Per-side parameters, its plans and the damage tables of its hits on the other figure."""
    aim = shooter.aim if shooter.mode == "single" else 0
    scenario = Scenario(
        weapon=shooter.weapon, armor=target.armor, mode=shooter.mode, skill=shooter.skill, aim=aim,
        range_m=shooter.range_m, cover_av=target.cover_av, firer_str=shooter.strength,
        target_str=target.strength, target_dex=target.dex, target_end=target.end,
    )  # fmt: skip
    attack = resolve(scenario, rules, rows, tables)
    weapon = attack.weapon
    burst = shooter.mode == "burst"
    auto = shooter.mode == "full_auto"
    if shooter.two_weapons and auto:
        raise ScenarioError("two weapons fire single shots or bursts, not full_auto (TYC-3.5)")
    band = range_band(shooter.range_m, weapon.short_range_m, aimed=aim > 0, rules=rules)
    assert band is not None
    rof = weapon.automatic_rof or 0
    recoil = weapon.burst_recoil if burst and weapon.burst_recoil is not None else weapon.recoil
    if "recoilless" in weapon.flags:
        recoil = 0
    reduction = minimum = 0
    if auto:
        row = table_row(rof, tables.get("full_auto", full_auto_rows()))
        reduction = {"medium": row.medium_reduction, "long": row.long_reduction}.get(band, 0)
        minimum = row.minimum_dice
    rounds = rof if burst else 1
    magazine = 2 * (weapon.magazine // rounds) * rounds if shooter.two_weapons else weapon.magazine
    fire = shooter.two_weapon_fire
    params = [
        shooter.skill, aim * rules.aim_bonus, shooter.dex, shooter.strength, shooter.end, rounds, magazine,
        shooter.magazines - 1, int(auto), 10 * rof, reduction, minimum, weapon.burst_recoil or 0, attack.hit_face,
        round(100 * SKILL_MULTIPLIER[band]), recoil, int(shooter.two_weapons),
        TWO_WEAPON_PENALTY[fire, "primary"] if shooter.two_weapons else 0,
        TWO_WEAPON_PENALTY[fire, "off"] if shooter.two_weapons else 0,
        (2 if fire == "same_second" else 1) if shooter.two_weapons else 0, int(shooter.tactics != "none"),
        int(can_jam(weapon, shooter.mode)),
    ]  # fmt: skip
    plans, shots = _plans(shooter, weapon, rules, tables)
    wear_levels = max(attack.armour.av_at(name) for name in LOCATIONS) if rules.armor_wear != "none" else 0
    locations = np.stack(
        [_location_rows(weapon, attack, target, rules, wear) for wear in range(wear_levels + 1)]
    )  # fmt: skip
    return params, locations, plans, shots, weapon.name


def _location_rows(weapon: Weapon, attack: ResolvedAttack, target: DuelSide, rules: Rules, wear: int) -> np.ndarray:
    """Whole d8, half d4, trauma, capacity and is-limb at each location, ``wear`` AV worn off the armour (TYC-5.5)."""
    worn = dataclasses.replace(attack.armour, av=attack.armour.av - wear) if wear else attack.armour
    whole, half, trauma = dice_through(weapon.damage, worn, target.cover_av, weapon.penetration, rules)
    limbs = np.array([name in LIMBS for name in LOCATIONS], np.int64)
    return np.vstack([whole, half, trauma, attack.capacity, limbs]).astype(np.int64)


def _plans(shooter: DuelSide, weapon: Weapon, rules: Rules, tables: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """The seconds of each shot of the side's fire plan (TYC-2.1, TYC-2.3, TYC-3.5).

    By kind of turn, action points first paid to clear a jam (0 to ``jam_clear_die``, TYC-3.6) and DEX.
    """
    table = tables.get("action_points", action_points())
    pull, between, cap = shot_costs(weapon, shooter.mode == "burst")
    per_shot = pull + (shooter.aim if shooter.mode == "single" else 0)
    bonus = TACTICS_BONUS[shooter.tactics]
    upfront = {PLAIN_TURN: 0, TACTICS_TURN: rules.tactics_cost if bonus else 0, BONUS_TURN: 0}
    plans = np.zeros((3, rules.jam_clear_die + 1, 16, MAX_SHOTS), np.int64)
    shots = np.zeros((3, rules.jam_clear_die + 1, 16), np.int64)
    for kind in (PLAIN_TURN, TACTICS_TURN, BONUS_TURN):
        for owed in range(rules.jam_clear_die + 1):
            for dex in range(1, 16):
                points = points_by_second(dex, table, bonus if kind == BONUS_TURN else 0, rules.max_action_points)
                seconds = plan_seconds(
                    points, per_shot, between, cap, upfront=upfront[kind] + owed,
                    two_weapons=shooter.two_weapon_fire if shooter.two_weapons else "",
                )  # fmt: skip
                plans[kind, owed, dex, : len(seconds)] = seconds
                shots[kind, owed, dex] = len(seconds)
    return plans, shots


def resolve_duel(
    a: Mapping[str, Any],
    b: Mapping[str, Any],
    rules: Rules,
    rows: tuple[RowOverrides, RowOverrides],
    tables: Tables | None = None,
) -> ResolvedDuel:
    """Validate both sides and tabulate the duel.

    Raises:
        SimlabError: For any bad input of either side.
    """
    tables = tables or {}
    side_a = build(DuelSide, a, what="--a name", owner="--a")
    side_b = build(DuelSide, b, what="--b name", owner="--b")
    params, locations, plans, shots, names = [], [], [], [], []
    for label, shooter, target, own, other in (
        ("A", side_a, side_b, rows[0], rows[1]),
        ("B", side_b, side_a, rows[1], rows[0]),
    ):
        try:
            p, loc, plan, shot, name = _side(
                shooter, target, rules, {"weapon": own.get("weapon", {}), "armor": other.get("armor", {})}, tables
            )
        except SimlabError as exc:
            whose = ("B" if label == "A" else "A") if about_armour(str(exc)) else label  # the target's armour
            raise SimlabError(f"side {whose}: {exc}") from None
        params.append(p)
        locations.append(loc)
        plans.append(plan)
        shots.append(shot)
        names.append(name)
    wear = max(len(table) for table in locations)  # pad both sides to the same depth: the last level repeats
    locations = [np.concatenate([t, np.repeat(t[-1:], wear - len(t), axis=0)]) for t in locations]
    attack = resolve(
        Scenario(weapon=side_a.weapon or "", armor="none"), rules, {"weapon": rows[0].get("weapon", {})}, tables
    )
    sides = np.array(params, np.int64)
    duel = ResolvedDuel(
        side_a, side_b, rules, (names[0], names[1]), sides, np.stack(locations), np.stack(plans), np.stack(shots),
        attack.location_of_roll,
    )  # fmt: skip
    per_turn = 6 + 4  # the most draws one turn can take: consciousness rolls, jam checks, every shot hitting...
    for side, table in zip(sides, duel.locations, strict=True):
        per_hit = 2 + int((table[:, 0] + table[:, 1]).max())  # location, damage dice, stun
        shots_each = MAX_SHOTS * (1 + per_hit)
        auto = side[SIDE_FIELDS.index("auto_rounds")] * (1 + per_hit) if side[SIDE_FIELDS.index("full_auto")] else 0
        per_turn += max(shots_each, int(auto))
    if per_turn * rules.max_turns + 2 * 7 * 3 >= DRAWS_PER_TRIAL_LIMIT:
        lower = field_label("--rule", "max_turns")
        raise SimlabError(f"duels of {rules.max_turns} turns may need too many draws; lower {lower}")
    return duel


def side_json(side: DuelSide, name: str) -> dict[str, Any]:
    """A side's effective inputs for the JSON output."""
    return {**as_plain(side), "weapon_name": name}


#: Validates a duel request into the resolved duel.
check_duel = duel_resolver(Rules, resolve_duel)
#: Answers a duel of two figures, second by second by fire plan (TYC-2 to TYC-6).
duel = DuelEngine(
    system="tyconian",
    resolve=check_duel,
    sample=Deferred("simlab.systems.tyconian.sample:sample_duel"),
    sides=lambda d: (side_json(d.a, d.names[0]), side_json(d.b, d.names[1])),
    names=lambda d: d.names,
)
