"""Battles of fleets under Space Combat V4 (ENG-4.4): resolution and sampling.

Each group is ``count`` ships of one template, the inputs of one side of the system's duel
(``ship`` and ``ship.COLUMN``, ``pd_hold``, ``sand``, ``skill_rolls``); every ship is tabulated
as a duel side (:func:`simlab.systems.space_v4.duel.side_row`) and the attack rolls, point
defence and damage fractions are the duel's (:func:`simlab.systems.space_v4.kernels.fire_group`).
The kernel (:mod:`.battle_kernel`) runs the turns.

Readings where ENG-4.4 and SPC-7 are silent:

* The ships of equal G are ordered by one roll-off at the start of the battle (a draw each).
* A ship picks its target at the start of each turn by its side's doctrine (``weakest``: the
  ship with the most hits); a ship whose target is out by its turn fires at the nearest
  standing ship beside it in the enemy's line.
* The range moves at the end of every ship's turn (rule ``range_moves``: or the fastest
  ship's own turn only), by the policy of the side of the battle's fastest standing ship
  (``formation.range_policy``), the first in order among equals.
* A ship whose applied hits reach its hull is destroyed (counted as killed); one whose
  criticals reach ``crits_to_disable`` is disabled (out, not killed). ``mean_rounds_*`` are
  the missiles a side launched.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import permutations, product
from typing import Any

import numpy as np

from simlab.inputs.battles import TARGETS, Battle, battle_from_data, blame
from simlab.inputs.errors import SimlabError
from simlab.inputs.params import build
from simlab.mechanics.target_number import p_at_least
from simlab.systems.base import BattleRequest
from simlab.systems.battle_answer import (
    BattleEngine,
    draw_window,
    first_turn_targets,
)
from simlab.systems.battle_figures import group_templates, rule_values
from simlab.systems.battle_keys import refuse_unread
from simlab.systems.battle_trials import battle_block_functions
from simlab.systems.battles import BattleShape, battle_outcome, break_threshold
from simlab.systems.kernel_helpers import standing_target
from simlab.systems.space_v4 import battle_kernel as k
from simlab.systems.space_v4 import kernels as sk
from simlab.systems.space_v4.duel import POLICIES, DuelSide, side_row, tabulate, turret_array
from simlab.systems.space_v4.layout import R_NATURAL, R_NATURAL_HIT, R_TO_HIT
from simlab.systems.space_v4.resolve import hit_and_margin, ship_row
from simlab.systems.space_v4.rules import BANDS, Rules
from simlab.systems.space_v4.ships import Ship, ships, turrets_of

__all__ = ["ResolvedBattle", "resolve_battle", "battle", "check_battle", "battle_tallies", "python_battle_tallies"]

#: Turns a battle of fleets lasts at most unless the battle or a rule says otherwise (ENG-2).
DEFAULT_MAX_TURNS = 20


@dataclass(frozen=True, eq=False)
class ResolvedBattle:
    """The kernel's view of a battle of fleets."""

    battle: Battle
    rules: Rules
    figures: tuple[DuelSide, ...]
    ships: tuple[Ship, ...]
    arrays: tuple[Any, ...]
    shape: BattleShape


def resolve_battle(request: BattleRequest) -> ResolvedBattle:
    """Validate a battle's fleets and tabulate every ship (SPC-7, ENG-4.4).

    Raises:
        SimlabError: For any bad input, located in the battle file.
    """
    battle: Battle = request.battle
    refuse_unread(battle, "space_v4")
    rules = build(Rules, rule_values(battle, request.rules, DEFAULT_MAX_TURNS), what="--rule name", owner="--rule")
    if battle.range_m is not None:
        raise battle.error("range_m", f"space battles take range_band ({', '.join(BANDS)}), not metres")
    start = battle.range_band or "typical"
    if start not in BANDS:
        raise battle.error("range_band", f"unknown range band {start!r} (valid: {', '.join(BANDS)})")
    table = request.tables.get("ships") or ships()
    figures: list[DuelSide] = []
    fleet: list[Ship] = []
    side_of: list[int] = []
    templates = group_templates(
        battle, DuelSide,
        one_range={"range_policy": "the side's formation.range_policy", "start_band": "range_band at the top"},
        battle_inputs={}, rows=("ship",),
        what="ship input",
    )  # fmt: skip
    groups = [group for side in battle.sides for group in side.groups]
    for (s, key, figure, rows), group in zip(templates, groups, strict=True):
        try:
            ship = ship_row(figure.ship, rows.get("ship", {}), table, f"{key}.ship")
            if ship is None:
                raise SimlabError(f"{key}.ship: name a ship (valid: {', '.join(table.rows)})")
            turrets_of(ship)
        except SimlabError as exc:
            raise battle.error(blame(battle, key, str(exc)), str(exc)) from None
        figures += [figure] * group.count
        fleet += [ship] * group.count
        side_of += [s] * group.count
    rows_of = np.array([side_row(f, ship, rules) for f, ship in zip(figures, fleet, strict=True)], np.int64)
    turrets = turret_array(fleet)
    rule_ints, band_dm, band_fires, applied = tabulate(rows_of, turrets, rules, request.tables, start)
    sides = np.zeros((2, k.N_SIDE_COLUMNS), np.int64)
    for s, side in enumerate(battle.sides):
        sides[s] = (
            TARGETS.index(side.doctrine.targets),
            break_threshold(side.doctrine.break_at, side.count),
            side.count,
            POLICIES.index(side.formation.range_policy),
        )
    lasers = turrets[:, :, 0] + turrets[:, :, 1]
    per_turn = len(fleet) + sum(4 + int(turrets[i].sum()) * (1 + 2 * int(lasers.sum())) for i in range(len(fleet)))
    window = draw_window(battle, len(fleet) + per_turn * rules.max_turns)
    arrays = (
        window, rows_of, turrets, np.array(side_of, np.int64), sides, rule_ints, band_dm, band_fires, applied,
    )  # fmt: skip
    shape = BattleShape(battle.sides[0].count, battle.sides[1].count, rules.max_turns)
    return ResolvedBattle(battle, rules, tuple(figures), tuple(fleet), arrays, shape)


#: The most orders of equal-G ships the exact first turn goes through (their roll-off).
MAX_ORDERS = 24
#: The most states of the fleets the exact first turn carries from one ship's turn to the next.
MAX_STATES = 4000


def _group_pmf(
    size: int, per_weapon_hits: int, dm: int, rule_ints: np.ndarray, applied: np.ndarray, pd: np.ndarray, first: int,
    need_held: int, need_fired: int, reduction: int,
) -> dict[int, float]:  # fmt: skip
    """The exact applied hits of one attack roll of ``size`` weapons (SPC-3 to SPC-5): the sampler's fire_group.

    Each weapon ``j`` (a missile) survives its point defence unless one of its lasers succeeds;
    the survivors' optimal hits and the roll's margin give the applied hits (SPC-4.2).
    """
    held_kills, fired_kills = p_at_least(need_held), p_at_least(need_fired)
    survivors = np.zeros(size + 1)
    survivors[size] = 1.0
    for j in range(first, first + size):  # Poisson-binomial of the missiles shot down
        p_down = 1 - (1 - held_kills) ** int(pd[j, 0]) * (1 - fired_kills) ** int(pd[j, 1])
        survivors[:-1] = survivors[:-1] * (1 - p_down) + survivors[1:] * p_down
        survivors[-1] *= 1 - p_down
    pmf: dict[int, float] = {}
    for natural in range(2, 13):
        p_roll = (6 - abs(natural - 7)) / 36
        hit, margin = hit_and_margin(
            natural, dm, int(rule_ints[R_TO_HIT]), int(rule_ints[R_NATURAL]), int(rule_ints[R_NATURAL_HIT])
        )
        if not hit:
            pmf[0] = pmf.get(0, 0.0) + p_roll
            continue
        for alive, p_alive in enumerate(survivors):
            hits = 0 if alive == 0 else int(applied[alive * per_weapon_hits, min(margin, applied.shape[1] - 1)])
            hits = max(0, hits - reduction)
            pmf[hits] = pmf.get(hits, 0.0) + p_roll * p_alive
    return pmf


def first_turn_exact(resolved: ResolvedBattle) -> dict[str, dict[int, float]] | None:
    """The exact distribution of each side's ships out after the first turn, where tractable (ENG-4.4).

    The first turn goes ship by ship in order of G: every reachable state of the fleets (each
    ship's hits and criticals, whether it is out, its engineer's roll, the band) is carried
    with its probability through each ship's skill rolls and attack rolls, exactly as the
    sampler plays them (the same functions prepare the weapons, the defence and the point
    defence), and equal G are gone through in every order of their roll-off. Tractable:
    targets by ``focus``, ``spread`` or ``weakest``, at most MAX_ORDERS orders and MAX_STATES states.

    Returns:
        ``first_turn_out_a`` and ``first_turn_out_b`` (None when not tractable).
    """
    battle = resolved.battle
    if any(side.doctrine.targets == "random" for side in battle.sides):
        return None
    _, ships_, turrets, side_of, sides, rule_ints, band_dm, band_fires, applied = resolved.arrays
    n = len(side_of)
    blocks: dict[int, list[int]] = {}
    for i in range(n):
        blocks.setdefault(int(ships_[i, sk.G]), []).append(i)
    speeds = sorted(blocks, reverse=True)
    count_orders = 1
    for g in speeds:
        count_orders *= math.factorial(len(blocks[g]))
    if count_orders > MAX_ORDERS:
        return None
    lasers_of = (turrets[:, :, sk.BEAM] + turrets[:, :, sk.PULSE]).astype(np.int64)
    per_crit = int(rule_ints[sk.R_PER_CRIT])
    targets = {}
    for side in range(2):
        for i, t in first_turn_targets(battle, side):
            targets[i] = t
    final: dict[tuple[int, ...], float] = {}
    cache: dict[Any, Any] = {}
    orders = [sum(chosen, ()) for chosen in product(*(permutations(blocks[g]) for g in speeds))]
    for order in orders:
        # A state: per ship (hits, crits, out 0/1/2, acted band or -1, engineer 0/1), then the band.
        start = (*((0, 0, 0, -1, 0) for _ in range(n)), int(rule_ints[sk.R_START_BAND]))
        states: dict[tuple[Any, ...], float] = {start: 1.0 / len(orders)}
        for x in order:
            moved: dict[tuple[Any, ...], float] = {}
            for state, p_state in states.items():
                for outcome, p in _ship_turn(x, state, ships_, turrets, lasers_of, side_of, sides, rule_ints, band_dm,
                                             band_fires, applied, targets, order, per_crit, cache):  # fmt: skip
                    moved[outcome] = moved.get(outcome, 0.0) + p_state * p
            states = moved
            if len(states) > MAX_STATES:
                return None  # too many ways the turn can go: sampled only
        for state, p_state in states.items():
            key = tuple(int(state[i][2] != 0) for i in range(n))
            final[key] = final.get(key, 0.0) + p_state
    result: dict[str, dict[int, float]] = {}
    for s, label in enumerate("ab"):
        dist: dict[int, float] = {}
        for key, p in final.items():
            out = sum(key[i] for i in range(n) if side_of[i] == s)
            dist[out] = dist.get(out, 0.0) + p
        result[f"first_turn_out_{label}"] = {k_: float(v) for k_, v in sorted(dist.items()) if v > 0}
    return result


def _ship_turn(
    x: int, state: tuple[Any, ...], ships_: np.ndarray, turrets: np.ndarray, lasers_of: np.ndarray,
    side_of: np.ndarray, sides: np.ndarray, rule_ints: np.ndarray, band_dm: np.ndarray, band_fires: np.ndarray,
    applied: np.ndarray, targets: dict[int, int], order: tuple[int, ...], per_crit: int, cache: dict[Any, Any],
) -> list[tuple[tuple[Any, ...], float]]:  # fmt: skip
    """Ship ``x``'s turn from ``state``: the states it can lead to, with their chances (as the kernel plays it)."""
    n = len(side_of)
    band = state[n]
    if state[x][2] != 0:
        return [(state, 1.0)]
    statuses = tuple(row[2] for row in state[:n])
    aim_key = ("target", x, statuses)  # whom x shoots at, or -1 when the battle is over: the ships out decide
    if aim_key not in cache:
        over = _over([list(row) for row in state[:n]], side_of, sides)
        status = np.array(statuses, np.int64)
        cache[aim_key] = -1 if over else int(standing_target(targets[x], side_of, status, np.zeros(n, np.int64)))
    y = cache[aim_key]
    if y < 0:
        return [(state, 1.0)]
    ships = [list(row) for row in state[:n]]

    sand_up = ships[y][3] >= 0 and ships_[y, sk.SAND] == 1 and ships_[y, sk.SANDCASTERS] > 0
    # What the attack depends on: the target's damage and engineer, and the band each ship acted at
    # (its lasers held back or fired for point defence); worked out once for every fleet state that shares it.
    acted = tuple(row[3] for row in ships)
    turn_key = ("turn", x, y, band, ships[y][0], ships[y][1], ships[y][4], sand_up, acted)
    if turn_key not in cache:
        cache[turn_key] = _attack_outcomes(x, y, band, ships, acted, sand_up, ships_, turrets, lasers_of, band_dm,
                                           band_fires, applied, rule_ints, per_crit, cache)  # fmt: skip
    branches, engineer_ok = cache[turn_key]
    results: list[tuple[tuple[Any, ...], float]] = []
    side_list = side_of.tolist()  # plain ints in the loop below: numpy scalars cost more
    breaks = (int(sides[0, k.S_BREAK]), int(sides[1, k.S_BREAK]))
    standing_but_y = [0, 0]  # only y's row changes besides x's own (x acts at this band, its engineer rolls)
    for i in range(n):
        if i != y:
            standing_but_y[side_list[i]] += statuses[i] == 0
    rows = list(state[:n])
    row_x, row_y = state[x], state[y]
    moves = rule_ints[sk.R_EVERY_TURN_MOVES] == 1
    for (hits_on, crits_on, out), p_branch in branches.items():
        standing = list(standing_but_y)
        standing[side_list[y]] += out == 0
        new_band = band
        if battle_outcome(standing[0], standing[1], breaks[0], breaks[1]) < 0:
            fastest = next(i for i in order if (out if i == y else statuses[i]) == 0)
            if fastest == x or moves:
                policy = sides[side_list[fastest], k.S_POLICY]
                if policy == sk.CLOSE:
                    new_band = max(0, band - 1)
                elif policy == sk.OPEN:
                    new_band = min(band_dm.shape[0] - 1, band + 1)
        rows[y] = (hits_on, crits_on, out, row_y[3], row_y[4])
        for engineer, p_engineer in ((1, engineer_ok), (0, 1 - engineer_ok)):  # its roll only counts against it later
            if p_engineer > 0:
                rows[x] = (row_x[0], row_x[1], row_x[2], band, engineer)
                results.append(((*rows, new_band), p_branch * p_engineer))
    return results


def _attack_outcomes(
    x: int, y: int, band: int, ships: list[list[int]], acted: tuple[int, ...], sand_up: bool, ships_: np.ndarray,
    turrets: np.ndarray, lasers_of: np.ndarray, band_dm: np.ndarray, band_fires: np.ndarray, applied: np.ndarray,
    rule_ints: np.ndarray, per_crit: int, cache: dict[Any, Any],
) -> tuple[dict[tuple[int, int, int], float], float]:  # fmt: skip
    """Ship ``x``'s attack on ship ``y`` at ``band``: the target's (hits, criticals, out), and x's engineer roll.

    The target's states after the attack come with their chances, as the kernel plays it;
    ``acted`` is the band each ship acted at (-1: not yet), which sets the lasers it holds back or fired.
    """

    def plan(i: int, at: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        """Ship i's lasers held and fired, its groups and the gunner's kind, at band ``at`` (no draws)."""
        if (i, at) not in cache:
            held, fired, group = lasers_of.copy(), np.zeros_like(lasers_of), np.zeros(4, np.int64)
            _, best = sk.prepare_fire(ships_, i, at, turrets, lasers_of, band_fires, held, fired,
                                      ships_[:, sk.MAGAZINE].copy(), group)  # fmt: skip
            cache[i, at] = (held[i].copy(), fired[i].copy(), group, best)
        return cache[i, at]

    held = lasers_of.copy()  # ships that have not acted yet count every laser as held
    fired = np.zeros_like(lasers_of)
    for i, at in enumerate(acted):
        if at >= 0:
            held[i], fired[i] = plan(i, at)[:2]
    group, best = plan(x, band)[2:]
    goal = int(rule_ints[sk.R_SKILL_TARGET])
    crew = [(0, 0, 0, 1.0)]
    engineer_ok = 0.0
    if ships_[x, sk.SKILL_ROLLS] == 1:
        chance = [p_at_least(goal - int(ships_[x, c])) for c in (sk.PILOT, sk.NAVIGATOR, sk.GUNNER, sk.ENGINEER)]
        crew = []
        for pilot, navigator, gunner in product((1, 0), repeat=3):
            p = 1.0
            for ok, p_ok in zip((pilot, navigator, gunner), chance, strict=False):
                p *= p_ok if ok else 1 - p_ok
            crew.append((pilot, navigator, gunner, p))
        engineer_ok = chance[3]
    branches: dict[tuple[int, int, int], float] = {}
    pd = np.zeros((int(turrets.sum()) + 1, 2), np.int64)  # each group's point defence, cleared before use
    cumulative = int(rule_ints[sk.R_CUMULATIVE]) == 1  # plain ints in the inner loops: numpy scalars cost more
    hull, disable = int(ships_[y, sk.HULL]), int(ships_[y, sk.DISABLE])
    for pilot, navigator, gunner, p_crew in crew:
        g_x, computer_x = int(ships_[x, sk.G]) + pilot, int(ships_[x, sk.COMPUTER]) + navigator
        base_dm, sand, need_held, need_fired, reduction = sk.defence(
            ships_, y, g_x, computer_x, band_dm, band, sand_up, ships[y][4] == 1, rule_ints
        )
        reached: dict[tuple[int, int, int], float] = {(ships[y][0], ships[y][1], 0): p_crew}
        for kind in range(4):
            count = int(group[kind])
            if count == 0:
                continue
            dm = base_dm + (sand if kind < sk.MISSILE else 0)
            per_weapon_hits = 1 if kind < sk.MISSILE else 3 if kind == sk.MISSILE else 6
            rolls = count if rule_ints[sk.R_GROUPING] == 1 else 1
            size = 1 if rule_ints[sk.R_GROUPING] == 1 else count
            pd[:count, :] = 0
            if kind >= sk.MISSILE:
                sk.point_defence(pd, count, y, lasers_of, held, fired)
            for r in range(rolls):
                roll_dm = dm + gunner * (1 if (kind == best and r == 0) else 0)
                defenders = tuple(map(tuple, pd[r * size : (r + 1) * size].tolist()))
                key = ("pmf", size, per_weapon_hits, roll_dm, defenders, need_held, need_fired, reduction)
                if key not in cache:
                    cache[key] = _group_pmf(size, per_weapon_hits, roll_dm, rule_ints, applied, pd, r * size,
                                            need_held, need_fired, reduction)  # fmt: skip
                grown: dict[tuple[int, int, int], float] = {}
                for (hits_on, crits_on, out), p_branch in reached.items():
                    if out:
                        grown[hits_on, crits_on, out] = grown.get((hits_on, crits_on, out), 0.0) + p_branch
                        continue
                    for hits, p_hits in cache[key].items():
                        total = hits_on + hits
                        crits = total // per_crit if cumulative else crits_on + hits // per_crit
                        gone = 2 if total >= hull else 1 if crits >= disable else 0
                        grown[total, crits, gone] = grown.get((total, crits, gone), 0.0) + p_branch * p_hits
                reached = grown
        for outcome, p in reached.items():
            branches[outcome] = branches.get(outcome, 0.0) + p
    return branches, engineer_ok


def _over(ships: list[list[int]], side_of: np.ndarray, sides: np.ndarray) -> bool:
    """Whether the battle has ended (a side out, or broken): nobody acts any more."""
    standing = [0, 0]
    for i, row in enumerate(ships):
        standing[int(side_of[i])] += row[2] == 0
    return battle_outcome(standing[0], standing[1], int(sides[0, k.S_BREAK]), int(sides[1, k.S_BREAK])) >= 0


#: The compiled and interpreted block functions of the battle kernel, and the sampling of a cell
#: (:func:`simlab.systems.battle_trials.battle_block_functions`).
battle_tallies, python_battle_tallies, sample_battle = battle_block_functions(
    k.battle_block, lambda: _twin_examples()
)


#: Answers a battle of fleets (ENG-4.4): ENG-5's metrics, with the exact first turn where tractable.
battle = BattleEngine(
    system="space_v4",
    resolve=resolve_battle,
    sample=sample_battle,
    window=lambda resolved: int(resolved.arrays[0]),
    where=lambda found: {"range_band": found.range_band or "typical"},
    first_turn=first_turn_exact,
    details=lambda found, exact: {"first_turn_exact": exact},
)
#: Validates a battle request without sampling it.
check_battle = resolve_battle


def _twin_examples() -> list[ResolvedBattle]:
    """The battles the kernel and its twin are checked on.

    Fleets of mixed G, point defence held back,
    random and weakest targets, a break point.
    """
    data = {
        "system": "space_v4", "name": "twins", "range_band": "very_short", "max_turns": 6,
        "a": {"doctrine": {"targets": "random"}, "groups": [{"ship": "scout", "count": 2}, {"ship": "far trader"}]},
        "b": {"doctrine": {"targets": "weakest", "break_at": 0.5},
              "groups": [{"ship": "patrol cruiser", "pd_hold": 1}, {"ship": "yacht"}]},
    }  # fmt: skip
    return [resolve_battle(BattleRequest(battle_from_data(data)))]
