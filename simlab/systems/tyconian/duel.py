"""Duels of two figures under the Tyconian rules (TYC-2 to TYC-6): second by second, by fire plan.

Each turn (5 seconds) each figure follows its fire plan: as many quick shots (or aimed
shots with ``aim`` points before each, or bursts) as its action points allow, the points
depending on its DEX at the start of the turn (TYC-2). Shots fired in the same second by
both figures land together; at the end of every second the wounds are counted (TYC-6):
the first slight wound costs 2 DEX, the first serious one 4 DEX more and half the STR,
a serious wound anywhere but the head calls for 3d6 under END (else unconscious), a serious
head wound, a critical or amputated location, three serious locations, a stunning head hit
or DEX 0 put the figure out; a killing wound kills it. Recoil builds shot by shot within a
turn and resets at the next one (TYC-3.4). Full-automatic fire is one volley at the end of
the turn (TYC-4). A figure with an empty magazine spends a turn reloading if it has a spare.
A duel still undecided after ``max_turns`` turns ends with nobody down.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from simlab.duels import DUEL_METRICS
from simlab.errors import SimlabError
from simlab.params import SKILL, as_plain, build, spec_field
from simlab.rng import DRAWS_PER_TRIAL_LIMIT
from simlab.systems.tyconian.fire import SKILL_MULTIPLIER, range_band
from simlab.systems.tyconian.full_auto import table_row
from simlab.systems.tyconian.plans import points_by_second, shot_costs
from simlab.systems.tyconian.resolve import LOCATIONS, resolve
from simlab.systems.tyconian.rules import MODES, Rules, Scenario, action_points, full_auto_rows
from simlab.systems.tyconian.wounds import LIMBS
from simlab.tables import Table

__all__ = ["DuelSide", "ResolvedDuel", "resolve_duel", "DUEL_METRICS", "SIDE_FIELDS"]


#: Per-side parameters of the kernel, by index.
SIDE_FIELDS = (
    "skill", "aim", "dex", "str", "end", "pull", "between", "cap", "recoil", "rounds_per_shot", "magazine",
    "spare", "full_auto", "auto_rounds", "auto_reduction", "auto_minimum", "auto_recoil", "hit_face", "multiplier_x100",
)  # fmt: skip


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


@dataclass(frozen=True, eq=False)
class ResolvedDuel:
    """The kernel's view of a duel."""

    a: DuelSide
    b: DuelSide
    rules: Rules
    names: tuple[str, str]
    sides: npt.NDArray[np.int64]
    locations: npt.NDArray[np.int64]
    points: npt.NDArray[np.int64]
    location_of_roll: npt.NDArray[np.int64]


def _side(
    shooter: DuelSide, target: DuelSide, rules: Rules, rows: Mapping[str, Any], tables: Mapping[str, Any]
) -> tuple[list[int], np.ndarray, str]:
    """Per-side parameters and the damage table of its hits on the other figure."""
    scenario = Scenario(
        weapon=shooter.weapon, armor=target.armor, mode=shooter.mode, skill=shooter.skill,
        range_m=shooter.range_m, cover_av=target.cover_av, firer_str=shooter.strength,
        target_str=target.strength, target_dex=target.dex, target_end=target.end,
    )  # fmt: skip
    attack = resolve(scenario, rules, rows, tables)
    weapon = attack.weapon
    burst = shooter.mode == "burst"
    pull, between, cap = shot_costs(weapon, burst)
    band = range_band(shooter.range_m, weapon.short_range_m, aimed=shooter.aim > 0, rules=rules)
    assert band is not None
    rof = weapon.automatic_rof or 0
    recoil = weapon.burst_recoil if burst and weapon.burst_recoil is not None else weapon.recoil
    if "recoilless" in weapon.flags:
        recoil = 0
    auto = shooter.mode == "full_auto"
    reduction = minimum = 0
    if auto:
        row = table_row(rof, tables.get("full_auto", full_auto_rows()))
        reduction = {"medium": row.medium_reduction, "long": row.long_reduction}.get(band, 0)
        minimum = row.minimum_dice
    params = [
        shooter.skill, shooter.aim if shooter.mode == "single" else 0, shooter.dex, shooter.strength, target.end,
        pull + (shooter.aim if shooter.mode == "single" else 0), between, -1 if cap is None else cap, recoil,
        rof if burst else 1, weapon.magazine, shooter.magazines - 1, int(auto), 10 * rof, reduction, minimum,
        weapon.burst_recoil or 0, attack.hit_face, round(100 * SKILL_MULTIPLIER[band]),
    ]  # fmt: skip
    locations = np.vstack(
        [attack.whole_dice, attack.half_die, attack.trauma, attack.capacity, [name in LIMBS for name in LOCATIONS]]
    ).astype(np.int64)
    return params, locations, weapon.name


def resolve_duel(
    a: Mapping[str, Any],
    b: Mapping[str, Any],
    rules: Rules,
    rows: tuple[Mapping[str, Mapping[str, Any]], Mapping[str, Mapping[str, Any]]],
    tables: Mapping[str, Table[Any]] | None = None,
) -> ResolvedDuel:
    """Validate both sides and tabulate the duel.

    Raises:
        SimlabError: For any bad input of either side.
    """
    tables = tables or {}
    side_a = build(DuelSide, a, what="--a name", owner="--a")
    side_b = build(DuelSide, b, what="--b name", owner="--b")
    params, locations, names = [], [], []
    for label, shooter, target, own, other in (
        ("A", side_a, side_b, rows[0], rows[1]),
        ("B", side_b, side_a, rows[1], rows[0]),
    ):
        try:
            p, loc, name = _side(
                shooter, target, rules, {"weapon": own.get("weapon", {}), "armor": other.get("armor", {})}, tables
            )
        except SimlabError as exc:
            raise SimlabError(f"side {label}: {exc}") from None
        params.append(p)
        locations.append(loc)
        names.append(name)
    table = tables.get("action_points", action_points())
    points = np.zeros((16, 5), np.int64)
    for dex in range(1, 16):
        points[dex] = points_by_second(dex, table)
    attack = resolve(
        Scenario(weapon=side_a.weapon or "", armor="none"), rules, {"weapon": rows[0].get("weapon", {})}, tables
    )
    sides = np.array(params, np.int64)
    duel = ResolvedDuel(
        side_a, side_b, rules, (names[0], names[1]), sides, np.stack(locations), points, attack.location_of_roll
    )
    per_turn = 0  # the most draws one turn can take: every shot or die hitting, every hit rolling its dice
    for side, table in zip(sides, duel.locations, strict=True):
        per_hit = 2 + int((table[0] + table[1]).max())  # location, damage dice, stun
        shots = 15 * (1 + per_hit)
        auto = side[SIDE_FIELDS.index("auto_rounds")] * (1 + per_hit) if side[SIDE_FIELDS.index("full_auto")] else 0
        per_turn += max(shots, int(auto))
    if per_turn * rules.max_turns + 2 * 7 * 3 >= DRAWS_PER_TRIAL_LIMIT:
        raise SimlabError(f"duels of {rules.max_turns} turns may need too many draws; lower --rule max_turns")
    return duel


def side_json(side: DuelSide, name: str) -> dict[str, Any]:
    """A side's effective inputs for the JSON output."""
    return {**as_plain(side), "weapon_name": name}
