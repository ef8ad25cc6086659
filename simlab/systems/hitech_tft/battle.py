"""Battles of HiTech TFT figures, N against M (ENG-4.3): resolution and sampling.

A group's template is a firer's inputs of one attack (TFT-1: ``weapon``, ``ammo``, ``dx``,
``talent``, ``mode``, ``moved_hexes``, ``fire``, ``laser_scope``, ``dx_mod``...) and, as a
target, its own ``armor`` and ``st``. Every pair of groups (a firer's, a target's) is
resolved as one attack of the system (:func:`simlab.systems.hitech_tft.resolve.resolve`): its
roll table, dice, armour and HE or blast figures, so a battle uses the very rules of an attack.

Readings where ENG-4.3 and the rules are silent (docs/systems/hitech_tft.md):

* Every standing figure fires once a turn at its target, spending what its mode fires from
  the clip (``clip``, in rounds, bursts or shots: single 1, four 4, half clip // 2, full the
  clip, a belt's burst 1). A figure whose clip holds less than its mode fires spends its next
  turn reloading while it has ``magazines`` left (the loaded one counted), and otherwise fires
  no more; a weapon without a clip (melee) never runs dry. The turn's damage and knockdowns
  count at its end.
* A knocked-down figure (the attack's knockdown damage at the threshold, TFT-5.2) spends the
  next turn getting up; a staggered one fires at -2 DX in the next turn; a figure whose roll
  drops or breaks its weapon (17, 18) fires no more.
* A figure is incapacitated at ST - 1 damage and killed at ST (TFT-6.1), damage adding up
  over the battle.
* Figures stand ``spacing_m`` apart, and hexes are ``megahex_m / 3`` wide: the distance in
  hexes between two places of a line is their distance in metres over that, in exact
  arithmetic, rounded half up, the same to the left and to the right (ENG-4.3).
* HE splash (TFT-4.5) reaches the standing figures of the target's line within one hex of it.
* A blast weapon that misses scatters 1d6 hexes left or right along the target's line (a draw
  for the side, TFT-7.2 reduced to the line); every standing figure of that line within 3
  hexes of the burst takes the dice of its distance (TFT-7.3).
* The sides hold the range: ``range_policy`` other than ``hold`` is refused (a HiTech TFT
  duel never moves the range).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any

import numpy as np

from simlab.inputs.battles import TARGETS, Battle, battle_from_data, blame_pair
from simlab.inputs.errors import SimlabError
from simlab.inputs.params import build, spec_field
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
from simlab.systems.hitech_tft import battle_kernel as k
from simlab.systems.hitech_tft.exact import exact_outcome
from simlab.systems.hitech_tft.resolve import ResolvedAttack, clip_spent, resolve
from simlab.systems.hitech_tft.rules import Rules, Scenario

__all__ = [
    "BattleFigure",
    "ResolvedBattle",
    "resolve_battle",
    "battle",
    "check_battle",
    "battle_tallies",
    "python_battle_tallies",
    "hex_distance",
]

#: Turns a HiTech TFT battle lasts at most unless the battle says otherwise (ENG-2).
DEFAULT_MAX_TURNS = 20


@dataclass(frozen=True)
class BattleFigure(Scenario):
    """A figure of a battle: a firer's inputs of one attack (TFT-1), and the clips it carries (ENG-4.3)."""

    magazines: int = spec_field(
        3, doc="clips (or grenades, rockets) carried, the loaded one included (ENG-4.3)", minimum=1, maximum=10000
    )


def _scenario(figure: Scenario, **changes: Any) -> Scenario:
    """The attack's scenario of a battle figure, with some inputs changed (the target's armour and ST)."""
    return Scenario(**{f.name: getattr(figure, f.name) for f in fields(Scenario)} | changes)


def hex_distance(metres: Fraction, hex_m: Fraction) -> int:
    """Hexes between two places ``metres`` apart on a line of hexes ``hex_m`` wide, rounded half up (ENG-4.3).

    Exact arithmetic: 1.5 hexes to the left is 2 hexes, as to the right.
    """
    return int(abs(metres) / hex_m + Fraction(1, 2))


@dataclass(frozen=True, eq=False)
class ResolvedBattle:
    """The kernel's view of a battle: per group and pair of groups the resolved attacks."""

    battle: Battle
    rules: Rules
    figures: tuple[Scenario, ...]
    attacks: dict[tuple[int, int], ResolvedAttack]
    figure_group: tuple[int, ...]
    arrays: tuple[Any, ...]
    shape: BattleShape


def resolve_battle(request: BattleRequest) -> ResolvedBattle:
    """Validate a battle's templates against the rules and tabulate every pair of groups.

    Raises:
        SimlabError: For any bad input, located in the battle file.
    """
    battle: Battle = request.battle
    refuse_unread(battle, "hitech_tft")
    values = rule_values(battle, request.rules, DEFAULT_MAX_TURNS)
    max_turns = values.pop("max_turns")
    rules = build(Rules, values, what="--rule name", owner="--rule")
    if isinstance(max_turns, bool) or not isinstance(max_turns, int) or not 1 <= max_turns <= 1000:
        raise battle.error("max_turns", f"expected an integer from 1 to 1000, got {max_turns!r}")
    if battle.range_band is not None:
        raise battle.error("range_band", "hitech_tft battles take range_m, the distance in metres (ENG-3)")
    range_m = battle.range_m if battle.range_m is not None else 20.0
    templates = group_templates(
        battle, BattleFigure, one_range={"range_m": "range_m at the top of the battle"},
        battle_inputs={"range_m": range_m},
    )  # fmt: skip
    count = len(templates)
    tables = dict(request.tables)
    groups = np.zeros((count, k.N_GROUP_COLUMNS), np.int64)
    rolls = np.zeros((count, 2, 3, 19), np.int64)
    protection = np.zeros((count, count), np.int64)
    factor = np.ones((count, count), np.int64)
    dice_at = np.zeros((count, 4), np.int64)
    protection_at = np.zeros((count, count, 4), np.int64)
    attacks: dict[tuple[int, int], ResolvedAttack] = {}
    for gs, (s, key, shooter, own) in enumerate(templates):
        for gt, (t, target_key, target, other) in enumerate(templates):
            if s == t:
                continue
            pair = _scenario(shooter, armor=target.armor, st=target.st)
            try:
                attack = resolve(pair, rules, own.get("weapon", {}), other.get("armor", {}), tables)
                slow = resolve(
                    _scenario(pair, dx_mod=pair.dx_mod - 2), rules, own.get("weapon", {}), other.get("armor", {}),
                    tables,
                )  # fmt: skip
            except SimlabError as exc:
                raise battle.error(blame_pair(battle, key, target_key, str(exc)), str(exc)) from None
            attacks[gs, gt] = attack
            protection[gs, gt] = attack.protection
            factor[gs, gt] = attack.damage_factor
            for version, resolved in enumerate((attack, slow)):
                table = resolved.table
                rolls[gs, version] = (table.hits, table.multiplier, table.weapon_lost)
            if attack.blast is not None:
                dice_at[gs, : len(attack.blast.dice_at)] = attack.blast.dice_at[:4]
                protection_at[gs, gt, : len(attack.blast.protection_at)] = attack.blast.protection_at[:4]
            groups[gs] = (
                s, attack.dice_per_hit, attack.adds_per_hit,
                -1 if attack.splash_per_die is None else attack.splash_per_die, int(attack.blast is not None),
                shooter.st, 0, attack.stagger_threshold, attack.knockdown_threshold,
                clip_spent(attack.weapon, shooter.mode), int(attack.per_die),
                -1 if attack.quickdraw_dx is None else attack.quickdraw_dx,
                -1 if attack.weapon.clip is None else attack.weapon.clip, shooter.magazines - 1,
            )  # fmt: skip
    for gt, (_, _, target, other) in enumerate(templates):  # soft armour is the wearer's (TFT-5.1)
        gs = next(g for g in range(count) if templates[g][0] != templates[gt][0])
        shooter = templates[gs][2]
        worn = resolve(
            _scenario(shooter, armor=target.armor, st=target.st), rules, templates[gs][3].get("weapon", {}),
            other.get("armor", {}), tables,
        )  # fmt: skip
        groups[gt, k.G_SOFT] = int(worn.armour.soft)
        groups[gt, k.G_ST] = worn.st  # battle dress multiplies it with battle_dress_st = "hit_points" (TFT-6.2)
    figure_group: list[int] = []
    figures: list[BattleFigure] = []
    places: list[Fraction] = []
    g = 0
    for side in battle.sides:
        place = 0
        spacing = Fraction(str(side.formation.spacing_m))  # the metres as written: 1.1 is 11/10
        for group in side.groups:
            figure_group += [g] * group.count
            figures += [templates[g][2]] * group.count
            places += [spacing * (place + p) for p in range(group.count)]
            place += group.count
            g += 1
    n = len(figure_group)
    hex_m = Fraction(str(rules.megahex_m)) / 3
    side_of = [templates[figure_group[i]][0] for i in range(n)]
    blast_hexes = np.full((n, n, 2 * k.SCATTER + 1), 99, np.int64)
    for t in range(n):
        for j in range(n):
            if side_of[j] != side_of[t]:
                continue
            for o in range(2 * k.SCATTER + 1):  # a burst o - SCATTER hexes along the line from t's place
                burst = places[t] + (o - k.SCATTER) * hex_m
                blast_hexes[t, j, o] = min(99, hex_distance(places[j] - burst, hex_m))
    sides = np.zeros((2, k.N_SIDE_COLUMNS), np.int64)
    for s, side in enumerate(battle.sides):
        doctrine = side.doctrine
        sides[s] = (TARGETS.index(doctrine.targets), break_threshold(doctrine.break_at, side.count), side.count)
    most_dice = int(rolls[:, :, 0].max() * groups[:, k.G_DICE].max() * 3) + 3 * int(dice_at.max()) * n
    per_turn = 2 * n + n * (6 + 2 + most_dice)
    window = draw_window(battle, per_turn * max_turns)
    arrays = (
        window, groups, rolls, np.array(figure_group, np.int64), sides, protection, factor, dice_at, protection_at,
        blast_hexes, max_turns,
    )  # fmt: skip
    shape = BattleShape(battle.sides[0].count, battle.sides[1].count, max_turns)
    return ResolvedBattle(battle, rules, tuple(figures), attacks, tuple(figure_group), arrays, shape)


#: The compiled and interpreted block functions of the battle kernel, and the sampling of a cell
#: (:func:`simlab.systems.battle_trials.battle_block_functions`).
battle_tallies, python_battle_tallies, sample_battle = battle_block_functions(
    k.battle_block, lambda: _twin_examples()
)


def first_turn_exact(resolved: ResolvedBattle) -> dict[str, dict[int, float]] | None:
    """The exact distribution of each side's figures out after the first turn, where tractable.

    Tractable: no blast and no HE splash, targets by ``focus``, ``spread`` or ``weakest``
    (nobody is hurt yet: the lowest index). Each shot of the first turn is then an independent
    attack of the system (TFT-3 to TFT-4, exact damage distribution) on an unhurt figure; a
    target is out when the sum of the damage of the shots at it reaches ST - 1 (TFT-6.1). The
    targets' fates are independent, and the count out is their Poisson-binomial.

    Returns:
        ``first_turn_out_a`` and ``first_turn_out_b`` (None when not tractable).
    """
    if any(a.blast is not None or a.splash_per_die is not None for a in resolved.attacks.values()) or any(
        side.doctrine.targets == "random" for side in resolved.battle.sides
    ):
        return None
    damage: dict[tuple[int, int], np.ndarray] = {}
    fates: list[list[float]] = [[], []]
    for shooter_side in range(2):
        taken: dict[int, np.ndarray] = {}
        for i, t in first_turn_targets(resolved.battle, shooter_side):
            pair = resolved.figure_group[i], resolved.figure_group[t]
            if pair not in damage:
                damage[pair] = exact_outcome(resolved.attacks[pair]).joint.sum(axis=0)
            taken[t] = np.convolve(taken[t], damage[pair]) if t in taken else damage[pair]
        out = []
        for t, pmf in taken.items():
            st = resolved.attacks[next(p for p in resolved.attacks if p[1] == resolved.figure_group[t])].st
            out.append(float(pmf[max(0, st - 1) :].sum()))
        fates[1 - shooter_side] = out
    return first_turn_distributions(resolved.battle, fates)


#: Answers a HiTech TFT battle (ENG-4.3): ENG-5's metrics, with the exact first turn where tractable.
battle = BattleEngine(
    system="hitech_tft",
    resolve=resolve_battle,
    sample=sample_battle,
    window=lambda resolved: int(resolved.arrays[0]),
    where=lambda found: {"range_m": found.range_m if found.range_m is not None else 20.0},
    first_turn=first_turn_exact,
    details=lambda found, exact: {"first_turn_exact": exact},
)
#: Validates a battle request without sampling it.
check_battle = resolve_battle


def _twin_examples() -> list[ResolvedBattle]:
    """The battles the kernel and its twin are checked on.

    Four-round bursts against rifle grenades
    (blasts that scatter) and HE rounds, random targets, a break point.
    """
    data = {
        "system": "hitech_tft", "name": "twins", "range_m": 20, "max_turns": 6,
        "a": {"groups": [{"count": 3, "weapon": "assault rifle", "mode": "four", "armor": "flak jacket"}]},
        "b": {"doctrine": {"targets": "random", "break_at": 0.4}, "groups": [
            {"count": 2, "weapon": "rifle grenade TL12", "armor": "flak jacket"},
            {"count": 1, "weapon": "snub pistol", "ammo": "HE", "armor": "none"}]},
    }  # fmt: skip
    return [resolve_battle(BattleRequest(battle_from_data(data)))]
