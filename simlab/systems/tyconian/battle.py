"""Battles of Tyconian figures, N against M (ENG-4.2): resolution and sampling.

Every pair of groups (a shooter's, a target's) is resolved as one side of the system's duel
(:func:`simlab.systems.tyconian.duel._side`): the shooter's parameters and fire plans, and the
damage tables of its hits on the target's armour and cover, so a battle uses the very rules of
a duel. The kernel (:mod:`.battle_kernel`) runs the seconds.

Readings where ENG-4.2 and the seed are silent:

* Simultaneous actions within a second go in order of d20 + DEX, ties rolled off again among
  the tied figures, and each figure's hits count at once (ENG-4.2). A roll-off repeated until
  it parts them gives every order of the tied figures the same chance, so that order is drawn
  at once (one draw per tied figure). ``same_second = "initiative_by_line"`` breaks ties by
  place in line, side a first (the old reading); ``"together"`` lets the shots of a second
  land together at its end, as in the duel (so one against one is the duel exactly).
* Every rule of one figure holds as in the duel (ENG-4.2): hesitation after a first scratch
  (TYC-6.3), jams at the end of a turn and their points paid first in the next (TYC-3.6),
  reloading, knockdown, the consciousness roll of every turn.
* The danger zone (TYC-4.5) takes half the missed dice of a volley, rounded up, at the
  standing friends of the target within 3 m along its line (``spacing_m`` apart), each die at
  one of them chosen uniformly, hitting on a 6; with nobody within 3 m they are lost.
* A figure whose target is out shoots at the nearest standing figure beside it.
* ``weakest`` picks the figure whose wound levels have risen the most.
* The battle's ``range_m`` is every pair's distance; a group's ``cover_av`` is its cover.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from simlab.engine.blocks import Tallies
from simlab.engine.intervals import mean_interval
from simlab.inputs.battles import TARGETS, Battle, battle_from_data, blame_pair
from simlab.inputs.errors import SimlabError
from simlab.inputs.params import build
from simlab.systems.base import BattleRequest
from simlab.systems.battle_answer import BattleEngine, Estimates, draw_window
from simlab.systems.battle_figures import group_templates, rule_values
from simlab.systems.battle_keys import refuse_unread
from simlab.systems.battle_trials import battle_block_functions
from simlab.systems.battles import SAME_SECOND, BattleShape, break_threshold, new_battle_tallies
from simlab.systems.tyconian import battle_kernel as k
from simlab.systems.tyconian.duel import SIDE_FIELDS, DuelSide, _side
from simlab.systems.tyconian.resolve import resolve
from simlab.systems.tyconian.rules import Rules, Scenario
from simlab.systems.tyconian.sample import duel_flags

__all__ = ["ResolvedBattle", "resolve_battle", "battle", "check_battle", "battle_tallies", "python_battle_tallies"]

#: Turns (of 5 seconds) a Tyconian battle lasts at most unless the battle or a rule says otherwise (ENG-2).
DEFAULT_MAX_TURNS = 20
#: The danger zone's reach (ENG-4.2), in centimetres.
DANGER_CM = 300


@dataclass(frozen=True, eq=False)
class ResolvedBattle:
    """The kernel's view of a battle: per group and pair of groups the resolved rules."""

    battle: Battle
    rules: Rules
    figures: tuple[DuelSide, ...]
    arrays: tuple[Any, ...]
    shape: BattleShape


def _templates(battle: Battle) -> list[tuple[int, str, DuelSide, dict[str, dict[str, Any]]]]:
    """Each group's side, key, figure and row overrides, side a's first."""
    if battle.range_band is not None:
        raise battle.error("range_band", "tyconian battles take range_m, the distance in metres (ENG-3)")
    return group_templates(
        battle, DuelSide, one_range={"range_m": "range_m at the top of the battle"},
        battle_inputs={"range_m": battle.range_m if battle.range_m is not None else 20.0},
    )  # fmt: skip


def resolve_battle(request: BattleRequest) -> ResolvedBattle:
    """Validate a battle's templates against the rules and tabulate every pair of groups.

    Raises:
        SimlabError: For any bad input, located in the battle file.
    """
    battle: Battle = request.battle
    refuse_unread(battle, "tyconian")
    same_second = battle.data.get("same_second", "initiative")
    if same_second not in SAME_SECOND:
        raise battle.error("same_second", f"unknown same_second {same_second!r} (valid: {', '.join(SAME_SECOND)})")
    rules = build(Rules, rule_values(battle, request.rules, DEFAULT_MAX_TURNS), what="--rule name", owner="--rule")
    templates = _templates(battle)
    count = len(templates)
    tables = dict(request.tables)
    params: list[list[int]] = [[] for _ in range(count)]
    plans: list[np.ndarray] = [np.zeros(0)] * count
    shots: list[np.ndarray] = [np.zeros(0)] * count
    pair_tables: dict[tuple[int, int], np.ndarray] = {}
    for gs, (s, key, shooter, own) in enumerate(templates):
        for gt, (t, target_key, target, other) in enumerate(templates):
            if s == t:
                continue
            rows = {"weapon": own.get("weapon", {}), "armor": other.get("armor", {})}
            try:
                p, table, plan, shot, _ = _side(shooter, target, rules, rows, tables)
            except SimlabError as exc:
                raise battle.error(blame_pair(battle, key, target_key, str(exc)), str(exc)) from None
            params[gs], plans[gs], shots[gs] = p, plan, shot
            pair_tables[gs, gt] = table
    wear = max(len(table) for table in pair_tables.values())
    locations = np.zeros((count, count, wear, 5, 7), np.int64)
    for (gs, gt), table in pair_tables.items():  # pad to the same depth: the last level repeats
        locations[gs, gt] = np.concatenate([table, np.repeat(table[-1:], wear - len(table), axis=0)])
    capacity = np.zeros((count, 7), np.int64)
    for gt in range(count):
        gs = next(g for g, t in pair_tables if t == gt)
        capacity[gt] = pair_tables[gs, gt][0, 3]
    limb = np.array(pair_tables[next(iter(pair_tables))][0, 4], np.int64)
    first = templates[0]
    location_of_roll = resolve(
        Scenario(weapon=first[2].weapon or "", armor="none"), rules, {"weapon": first[3].get("weapon", {})}, tables
    ).location_of_roll
    figure_group: list[int] = []
    position: list[int] = []
    figures: list[DuelSide] = []
    g = 0
    for side in battle.sides:
        place = 0
        for group in side.groups:
            figure_group += [g] * group.count
            position += list(range(place, place + group.count))
            figures += [templates[g][2]] * group.count
            place += group.count
            g += 1
    sides = np.zeros((2, k.N_SIDE_COLUMNS), np.int64)
    for s, side in enumerate(battle.sides):
        sides[s] = (
            TARGETS.index(side.doctrine.targets),
            break_threshold(side.doctrine.break_at, side.count),
            side.count,
            round(100 * side.formation.spacing_m),
        )
    rule_ints = np.array(
        [
            rules.skill_die, rules.critical_success_max, rules.critical_failure_min, rules.recoil_dice_factor,
            rules.tactics_turns, rules.max_turns, int(same_second != "together"), DANGER_CM,
            int(same_second == "initiative_by_line"),
        ],
        np.int64,
    )  # fmt: skip
    per_hit = 2 + int((locations[:, :, :, 0] + locations[:, :, :, 1]).max())
    per_turn = 0
    for i in range(len(figure_group)):
        row = params[figure_group[i]]
        auto = row[SIDE_FIELDS.index("auto_rounds")] if row[SIDE_FIELDS.index("full_auto")] else 0
        per_turn += 4 + 5 + 2 + 5 + max(int(shots[figure_group[i]].max()) * (1 + per_hit), auto * (3 + per_hit))
    window = draw_window(battle, per_turn * rules.max_turns)
    arrays = (
        window,
        np.array(params, np.int64),
        np.array([s for s, *_ in templates], np.int64),
        np.array(figure_group, np.int64),
        np.array(position, np.int64),
        sides,
        locations,
        capacity,
        limb,
        np.stack(plans),
        np.stack(shots),
        np.asarray(location_of_roll, np.int64),
        rule_ints,
        duel_flags(rules),
    )
    shape = BattleShape(battle.sides[0].count, battle.sides[1].count, rules.max_turns)
    return ResolvedBattle(battle, rules, tuple(figures), arrays, shape)


def _new_tallies(resolved: ResolvedBattle) -> tuple[npt.NDArray[np.int64], ...]:
    return (*new_battle_tallies(resolved.shape), np.zeros(5 * resolved.shape.max_turns + 1, np.int64))



#: The compiled and interpreted block functions of the battle kernel, and the sampling of a cell
#: (:func:`simlab.systems.battle_trials.battle_block_functions`).
battle_tallies, python_battle_tallies, sample_battle = battle_block_functions(
    k.battle_block, lambda: _twin_examples(), new_tallies=_new_tallies
)


def _seconds(tallies: Tallies, trials: int, estimates: Estimates) -> None:
    """The battle's length in seconds, from the histogram after ENG-5's tallies (ENG-4.2)."""
    metrics, ci, distributions = estimates
    seconds = tallies[0]
    ticks = np.arange(len(seconds), dtype=np.int64)
    total, square = int(ticks @ seconds), int((ticks * ticks) @ seconds)
    metrics["mean_seconds"] = total / trials
    ci["mean_seconds"] = mean_interval(total, square, trials)
    distributions["seconds"] = {int(t): int(c) / trials for t, c in enumerate(seconds) if c}


#: Answers a Tyconian battle (ENG-4.2): ENG-5's metrics, with its length in seconds.
battle = BattleEngine(
    system="tyconian",
    resolve=resolve_battle,
    sample=sample_battle,
    window=lambda resolved: int(resolved.arrays[0]),
    where=lambda found: {"range_m": found.range_m if found.range_m is not None else 20.0},
    details=lambda found, exact: {"same_second": found.data.get("same_second", "initiative")},
    more=_seconds,
)
#: Validates a battle request without sampling it.
check_battle = resolve_battle


def _twin_examples() -> list[ResolvedBattle]:
    """The battles the kernel and its twin are checked on.

    Single shots, a burst and full automatic fire
    with its danger zone, random and weakest targets, a break point.
    """
    rifle = {"weapon": "battle rifle", "armor": "flak vest", "skill": 12}
    auto = {"weapon": "assault rifle", "mode": "full_auto", "armor": "flak vest", "skill": 10}
    data = {
        "system": "tyconian", "name": "twins", "range_m": 40, "max_turns": 6,
        "a": {"doctrine": {"targets": "random"}, "groups": [
            {**rifle, "count": 2}, {"count": 1, "weapon": "submachinegun", "mode": "burst", "armor": "flak vest"}]},
        "b": {"doctrine": {"targets": "weakest", "break_at": 0.4}, "groups": [{**auto, "count": 3}]},
    }  # fmt: skip
    return [resolve_battle(BattleRequest(battle_from_data(data)))]
