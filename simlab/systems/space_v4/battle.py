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

from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from simlab.engine.blocks import Tallies, sample_cell
from simlab.engine.interpreted import block_functions
from simlab.engine.results import AttackResult
from simlab.inputs.battles import TARGETS, Battle, blame
from simlab.inputs.errors import SimlabError
from simlab.inputs.params import build
from simlab.systems.base import BattleRequest, sampling_options
from simlab.systems.battles import (
    BattleShape,
    battle_estimates,
    battle_result,
    break_threshold,
    check_trials_in_window,
    draw_window,
    group_inputs,
    new_battle_tallies,
    refuse_unread,
    rule_values,
)
from simlab.systems.space_v4 import battle_kernel as k
from simlab.systems.space_v4.duel import POLICIES, DuelSide, side_row, tabulate, turret_array
from simlab.systems.space_v4.resolve import ship_row
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
    for s, side in enumerate(battle.sides):
        if side.cover is not None:
            raise battle.error(f"{'ab'[s]}.cover", "ships have no cover: sand is a group's input (SPC-3.2)")
        for g, group in enumerate(side.groups):
            key = f"{'ab'[s]}.groups.{g}"
            for name in ("range_policy", "start_band"):
                if name in group.inputs:
                    where = "the side's formation.range_policy" if name == "range_policy" else "range_band at the top"
                    raise battle.error(f"{key}.{name}", f"give {where} (ENG-3: one range for the battle)")
            scenario, rows = group_inputs(battle, key, group.inputs, ("ship",))
            try:
                figure = build(DuelSide, scenario, what="ship input", owner=f"{key}.")
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


def _arguments(resolved: ResolvedBattle) -> tuple[Any, ...]:
    return resolved.arrays


def _new_tallies(resolved: ResolvedBattle) -> tuple[npt.NDArray[np.int64], ...]:
    return new_battle_tallies(resolved.shape)


battle_tallies, python_battle_tallies = block_functions(k.battle_block, _arguments, _new_tallies)


def sample_battle(resolved: ResolvedBattle, **options: Any) -> Tallies:
    """The summed tallies of sampled battles: ``options`` are those of :func:`sample_cell`."""
    return sample_cell(partial(battle_tallies, resolved), **options)


def battle(request: BattleRequest, system: str = "space_v4") -> AttackResult:
    """Sample a battle of fleets (ENG-4.4) into ENG-5's metrics."""
    resolved = resolve_battle(request)
    check_trials_in_window(request, int(resolved.arrays[0]))
    tallies = sample_battle(resolved, **sampling_options(request))
    estimates = battle_estimates(tallies, request.trials, resolved.shape)
    where = {"range_band": request.battle.range_band or "typical"}
    return battle_result(system, request, resolved.figures, resolved.rules, estimates, where)


#: Validates a battle request without sampling it.
check_battle = resolve_battle
