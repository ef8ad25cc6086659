"""Battles of Striker figures, N against M (ENG-4.1): resolution, sampling and the exact first turn.

Every pair of groups (a shooter's group, a target's group) is resolved once as one attack of
the system (:func:`simlab.systems.striker.resolve.resolve`): its to-hit DM, rounds and per-hit
wound table, so a battle uses the very rules of an attack. The kernel
(:mod:`.battle_kernel`) runs the turns.

Readings where ENG-4.1 and the seed are silent:

* Suppressive fire (a template's ``suppressive = true``, or the doctrine's first
  ``suppressors`` standing figures able to fire so) comes first, the side with the
  initiative first, and each shot is applied at once: its suppression, a green (or
  ``go_prone``) target going prone, and the one hit of a natural 12. With ``extra_hits =
  "adjacent"`` its extra hits suppress the target's neighbours as normal fire's would wound
  them (ENG-4.1: the seed's "he can apply them to other targets per the normal rules"); the
  wounding hit of a natural 12 is the target's. A figure whose target is
  put out before it fires shoots at the nearest standing neighbour of that target.
* Prone is the -1 of partial cover for the rest of the turn (a figure already in partial or
  full cover keeps its cover's DM).
* Extra hits to adjacent targets (``extra_hits = "adjacent"``) go to the standing neighbours
  of the target, nearest first, right then left; extra hits beyond them go to the target.
* A dead result takes its Not Dead Yet roll (unlike the duel, where it ends the duel at
  once), so that killed and incapacitated figures are told apart.
* Turns are counted; their length in seconds (1D × 10) is not drawn.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from simlab.inputs.battles import TARGETS, Battle, battle_from_data, blame_pair
from simlab.inputs.errors import SimlabError
from simlab.inputs.params import build
from simlab.inputs.tables import Table
from simlab.systems.base import BattleRequest
from simlab.systems.battle_answer import (
    BattleEngine,
    draw_window,
    first_turn_distributions,
    first_turn_targets,
)
from simlab.systems.battle_figures import group_templates, rule_values
from simlab.systems.battle_keys import refuse_unread
from simlab.systems.battle_trials import battle_block_functions
from simlab.systems.battles import BattleShape, break_threshold
from simlab.systems.striker import battle_kernel as k
from simlab.systems.striker.duel import BattleFigure, _attack_of
from simlab.systems.striker.exact import exact_outcome
from simlab.systems.striker.outcomes import INCAPACITATED
from simlab.systems.striker.resolve import ResolvedAttack, end_dm, resolve
from simlab.systems.striker.rules import RANGE_BANDS, Rules
from simlab.systems.striker.sample import hit_table

__all__ = [
    "BattleFigure",
    "ResolvedBattle",
    "resolve_battle",
    "sample_battle",
    "battle",
    "first_turn_exact",
    "battle_tallies",
    "python_battle_tallies",
]

#: Turns a Striker battle lasts at most unless the battle or a rule says otherwise (ENG-2).
DEFAULT_MAX_TURNS = 20


@dataclass(frozen=True, eq=False)
class ResolvedBattle:
    """The kernel's view of a battle: per group, side and pair of groups the resolved rules."""

    battle: Battle
    rules: Rules
    figures: tuple[BattleFigure, ...]
    attacks: dict[tuple[int, int], ResolvedAttack]
    groups: npt.NDArray[np.int64]
    figure_group: npt.NDArray[np.int64]
    sides: npt.NDArray[np.int64]
    dm: npt.NDArray[np.int64]
    dm_prone: npt.NDArray[np.int64]
    hit_tables: npt.NDArray[np.int64]
    rule_ints: npt.NDArray[np.int64]
    shape: BattleShape
    window: int


def _rules(request: BattleRequest) -> Rules:
    values = rule_values(request.battle, request.rules, DEFAULT_MAX_TURNS)
    return build(Rules, values, what="--rule name", owner="--rule")


def _templates(battle: Battle) -> list[tuple[int, str, BattleFigure, dict[str, dict[str, Any]]]]:
    """Each group's side, key, figure and row overrides, side a's first."""
    if battle.range_m is not None:
        raise battle.error("range_m", f"striker battles take range_band ({', '.join(RANGE_BANDS)}), not metres")
    band = battle.range_band or "short"
    if band not in RANGE_BANDS:
        raise battle.error("range_band", f"unknown range band {band!r} (valid: {', '.join(RANGE_BANDS)})")
    return group_templates(
        battle, BattleFigure, one_range={"range_band": "range_band at the top of the battle"},
        battle_inputs={"range_band": band},
    )  # fmt: skip


def resolve_battle(request: BattleRequest) -> ResolvedBattle:
    """Validate a battle's templates against the rules and tabulate every pair of groups.

    Raises:
        SimlabError: For any bad input, located in the battle file.
    """
    battle: Battle = request.battle
    refuse_unread(battle, "striker")
    rules = _rules(request)
    templates = _templates(battle)
    count = len(templates)
    tables: dict[str, Table[Any]] = dict(request.tables)
    attacks: dict[tuple[int, int], ResolvedAttack] = {}
    dm = np.zeros((2, count, count), np.int64)
    dm_prone = np.zeros((2, count, count), np.int64)
    hit_tables = np.zeros((count, count, 4, 13), np.int64)
    can_suppress = np.ones(count, bool)
    for gs, (s, key, shooter, own) in enumerate(templates):
        for gt, (t, target_key, target, other) in enumerate(templates):
            if s == t:
                continue
            overrides = {"weapon": own.get("weapon", {}), "armor": other.get("armor", {})}
            prone = dataclasses.replace(target, cover="partial") if target.cover == "none" else target
            try:
                normal = dataclasses.replace(shooter, suppressive=False)
                attack = resolve(_attack_of(normal, target), rules, overrides, tables)
                dm[0, gs, gt] = attack.to_hit_dm
                dm_prone[0, gs, gt] = resolve(_attack_of(normal, prone), rules, overrides, tables).to_hit_dm
            except SimlabError as exc:
                raise battle.error(blame_pair(battle, key, target_key, str(exc)), str(exc)) from None
            attacks[gs, gt] = attack
            hit_tables[gs, gt, :, : attack.level_by_pen.shape[0]] = hit_table(attack)
            try:
                loud = dataclasses.replace(shooter, suppressive=True)
                dm[1, gs, gt] = resolve(_attack_of(loud, target), rules, overrides, tables).to_hit_dm
                dm_prone[1, gs, gt] = resolve(_attack_of(loud, prone), rules, overrides, tables).to_hit_dm
            except SimlabError as exc:
                if shooter.suppressive:
                    raise battle.error(f"{key}.suppressive", str(exc)) from None
                can_suppress[gs] = False
    groups = np.zeros((count, k.N_GROUP_COLUMNS), np.int64)
    figure_group: list[int] = []
    for g, (s, _, figure, _) in enumerate(templates):
        some = next(a for (gs, _), a in attacks.items() if gs == g)
        assert some.weapon is not None
        groups[g] = (
            s,
            some.rounds,
            some.weapon.magazine,
            figure.magazines - 1,
            end_dm(figure.end),
            2 if figure.mode == "burst5" else 1,
            int(figure.suppressive),
            int(figure.green),
            int(can_suppress[g]),
        )
    figures: list[BattleFigure] = []
    g = 0
    for side in battle.sides:
        for group in side.groups:
            figure_group += [g] * group.count
            figures += [templates[g][2]] * group.count
            g += 1
    sides = np.zeros((2, k.N_SIDE_COLUMNS), np.int64)
    for s, side in enumerate(battle.sides):
        d = side.doctrine
        sides[s] = (
            side.tactics,
            TARGETS.index(d.targets),
            break_threshold(d.break_at, side.count),
            int(d.extra_hits == "adjacent"),
            d.suppressors,
            int(d.go_prone == "when_suppressed"),
            side.count,
        )
    initiative = bool(groups[:, k.G_SUPPRESSIVE].any() or sides[:, k.S_SUPPRESSORS].any())
    rule_ints = np.array(
        [
            rules.hit_target,
            rules.extra_hit_step,
            rules.serious_light_wounds,
            rules.suppression_first_hit,
            rules.suppression_extra_hit,
            rules.max_turns,
            int(initiative),
            rules.natural_miss_max,
            rules.natural_hit_min,
            rules.suppressive_wound_min,
        ],
        np.int64,
    )
    per_figure = [1 + 2 * int(groups[figure_group[i], k.G_PER_ATTACK]) for i in range(len(figure_group))]
    window = draw_window(battle, (2 + len(figure_group) + sum(per_figure)) * rules.max_turns)
    shape = BattleShape(battle.sides[0].count, battle.sides[1].count, rules.max_turns)
    return ResolvedBattle(
        battle,
        rules,
        tuple(figures),
        attacks,
        groups,
        np.array(figure_group, np.int64),
        sides,
        dm,
        dm_prone,
        hit_tables,
        rule_ints,
        shape,
        window,
    )


def _arguments(resolved: ResolvedBattle) -> tuple[Any, ...]:
    return (
        resolved.window,
        resolved.groups,
        resolved.figure_group,
        resolved.sides,
        resolved.dm,
        resolved.dm_prone,
        resolved.hit_tables,
        resolved.rule_ints,
    )



#: The compiled and interpreted block functions of the battle kernel, and the sampling of a cell
#: (:func:`simlab.systems.battle_trials.battle_block_functions`).
battle_tallies, python_battle_tallies, sample_battle = battle_block_functions(
    k.battle_block, lambda: _twin_examples(), _arguments
)


def first_turn_exact(resolved: ResolvedBattle) -> dict[str, dict[int, float]] | None:
    """The exact distribution of each side's figures out after the first turn, where tractable.

    Tractable: no suppressive fire, targets by ``focus``, ``spread`` or ``weakest`` (all
    unwounded at the start: the lowest index), extra hits on the target. Every shot of the
    first turn is then an independent attack of the system on an unwounded figure, applied at
    the end of the turn (STR-6.5), so a target stays in unless none of the shots at it puts it
    out; the targets' fates are independent, and the count out is their Poisson-binomial.

    Returns:
        ``first_turn_out_a`` and ``first_turn_out_b`` (None when not tractable).
    """
    if resolved.rule_ints[k.R_INITIATIVE] or any(
        side.doctrine.targets == "random" or side.doctrine.extra_hits != "target" for side in resolved.battle.sides
    ):
        return None
    p_out: dict[tuple[int, int], float] = {}
    fates: list[list[float]] = [[], []]
    for shooter_side in range(2):
        stays: dict[int, float] = {}
        for i, t in first_turn_targets(resolved.battle, shooter_side):
            gs, gt = int(resolved.figure_group[i]), int(resolved.figure_group[t])
            if resolved.groups[gs, k.G_MAGAZINE] < resolved.groups[gs, k.G_MIN_ROUNDS]:
                continue  # reloads in the first turn
            if (gs, gt) not in p_out:
                joint = exact_outcome(resolved.attacks[gs, gt]).joint
                p_out[gs, gt] = float(joint.sum(axis=0)[list(INCAPACITATED)].sum())
            stays[t] = stays.get(t, 1.0) * (1.0 - p_out[gs, gt])
        fates[1 - shooter_side] = [1.0 - stays[j] for j in stays]
    return first_turn_distributions(resolved.battle, fates)


#: Answers a Striker battle (ENG-4.1): ENG-5's metrics, with the exact first turn where tractable.
battle = BattleEngine(
    system="striker",
    resolve=resolve_battle,
    sample=sample_battle,
    window=lambda resolved: int(resolved.window),
    where=lambda found: {"range_band": found.range_band or "short"},
    first_turn=first_turn_exact,
    details=lambda found, exact: {"first_turn_exact": exact},
)
#: Validates a battle request without sampling it.
check_battle = resolve_battle


def _twin_examples() -> list[ResolvedBattle]:
    """The battles the kernel and its twin are checked on.

    Random and weakest targets, adjacent extra hits,
    a suppressor, green figures going prone, a break point.
    """
    rifleman = {"name": "rifleman", "weapon": "rifle", "armor": "cloth", "skill": 1}
    gunner = {"name": "gunner", "weapon": "assault rifle", "armor": "mesh", "skill": 1}
    data = {
        "system": "striker", "name": "twins", "max_turns": 8,
        "a": {"doctrine": {"targets": "random", "extra_hits": "adjacent"},
              "groups": [{**rifleman, "count": 2}, {**gunner, "mode": "burst5", "green": True}]},
        "b": {"doctrine": {"targets": "weakest", "suppressors": 1, "go_prone": "when_suppressed", "break_at": 0.5},
              "groups": [{**gunner, "count": 2, "mode": "half_clip"}]},
    }  # fmt: skip
    return [resolve_battle(BattleRequest(battle_from_data(data)))]
