"""Duels of two figures (STR-11.2): both fire every turn until one or both are down.

Each side is described by :class:`DuelSide`. A turn lasts 1D × 10 seconds; both sides fire
and the results apply at the end of the turn (simultaneous fire, STR-11.2). A side with an
empty magazine spends the turn reloading if it has a spare one; a 5-round burst needs at
least 2 rounds left (it fires what is left), so a burst-firing side with 1 round left
reloads instead (where the seed is silent: the last round goes with the magazine). A side
may fire suppressively (``suppressive``, STR-3.3): its shot comes first in the turn, and its
penalty (``suppression_first_hit`` for the first hit, ``suppression_extra_hit`` for each
further one) lowers the other's shot of that turn only; it wounds only on a natural 12, one
hit. When both fire suppressively their shots are simultaneous and neither feels the other's. Light wounds (a
conscious serious wound counts as ``serious_light_wounds`` of them) give -1 on every later
roll of the wounded figure; an unconscious, Not Dead Yet or killed result ends the duel.
A duel still undecided after ``max_turns`` turns (both out of ammunition, say) ends with
nobody down.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from simlab.engine.bounds import DRAWS_PER_TRIAL_LIMIT
from simlab.inputs.errors import SimlabError, about_armour
from simlab.inputs.params import ATTRIBUTE, MODIFIER, SKILL, as_plain, build, field_label, spec_field
from simlab.inputs.tables import RowOverrides, Tables
from simlab.systems.base import Deferred, duel_resolver
from simlab.systems.duels import DUEL_METRICS, DuelEngine
from simlab.systems.striker.resolve import ResolvedAttack, end_dm, resolve
from simlab.systems.striker.rules import COVERS, MODES, RANGE_BANDS, SIGHTS, Rules, Scenario

__all__ = ["DuelSide", "ResolvedDuel", "resolve_duel", "check_duel", "duel", "DUEL_METRICS"]


@dataclass(frozen=True)
class DuelSide:
    """One figure of a duel: its weapon and how it fires, its armour, END and cover."""

    weapon: str = spec_field("", doc="row of the weapon table (or weapon.COLUMN values)")
    armor: str = spec_field("none", doc="row of the armour table")
    skill: int = spec_field(1, doc="weapon skill", **SKILL)
    dex_bonus: int = spec_field(0, doc="DEX bonus with the weapon", **MODIFIER)
    mode: str = spec_field("single", doc="fire mode", choices=MODES)
    range_band: str = spec_field("short", doc="range band to the other figure", choices=RANGE_BANDS)
    sights: str = spec_field("none", doc="sights", choices=SIGHTS)
    evading: bool = spec_field(False, doc="evading: -2 on its own shots and on shots at it")
    cover: str = spec_field("none", doc="cover (partial -1, full -2 on shots at it)", choices=COVERS[:3])
    end: int = spec_field(7, doc="END", **ATTRIBUTE)
    laser_designator: bool = spec_field(False, doc="laser designator (+1)")
    dm: int = spec_field(0, doc="any other DM on its shots", **MODIFIER)
    magazines: int = spec_field(3, doc="magazines carried, the loaded one included", minimum=1, maximum=10000)
    suppressive: bool = spec_field(
        False, doc="fires suppressively (half_clip or full_clip): -2 and more on the other's shot this turn (STR-3.3)"
    )


@dataclass(frozen=True)
class BattleFigure(DuelSide):
    """A figure of a battle: the inputs of one side of a duel, and whether it is green (ENG-4.1)."""

    green: bool = spec_field(False, doc="green troops go prone when suppressed (ENG-4.1)")


@dataclass(frozen=True, eq=False)
class ResolvedDuel:
    """The kernel's view of a duel: per side its DM, rounds and the wound table of its hits."""

    a: DuelSide
    b: DuelSide
    rules: Rules
    attacks: tuple[ResolvedAttack, ResolvedAttack]
    sides: npt.NDArray[np.int64]
    level_by_pen: npt.NDArray[np.int64]

    @property
    def max_hits(self) -> int:
        """Most hits one attack of either side scores."""
        return max(attack.max_hits for attack in self.attacks)


def _attack_of(shooter: DuelSide, target: DuelSide) -> Scenario:
    return Scenario(
        weapon=shooter.weapon,
        skill=shooter.skill,
        dex_bonus=shooter.dex_bonus,
        mode=shooter.mode,
        range_band=shooter.range_band,
        sights=shooter.sights,
        firer_evading=shooter.evading,
        laser_designator=shooter.laser_designator,
        dm=shooter.dm,
        suppressive=shooter.suppressive,
        armor=target.armor,
        end=target.end,
        cover=target.cover,
        target_evading=target.evading,
    )


def resolve_duel(
    a: Mapping[str, Any],
    b: Mapping[str, Any],
    rules: Rules,
    rows: tuple[RowOverrides, RowOverrides],
    tables: Tables | None = None,
) -> ResolvedDuel:
    """Validate both sides and tabulate the duel.

    Args:
        a: Side A's inputs (``--a KEY=VALUE``).
        b: Side B's inputs.
        rules: The rule parameters.
        rows: Each side's ``weapon.COLUMN`` / ``armor.COLUMN`` overrides.
        tables: Tables replacing the shipped ones (a variant's).

    Raises:
        SimlabError: For any bad input of either side.
    """
    side_a = build(DuelSide, a, what="--a name", owner="--a")
    side_b = build(DuelSide, b, what="--b name", owner="--b")
    attacks = []
    for label, shooter, target, own, other in (
        ("A", side_a, side_b, rows[0], rows[1]),
        ("B", side_b, side_a, rows[1], rows[0]),
    ):
        overrides = {"weapon": own.get("weapon", {}), "armor": other.get("armor", {})}
        try:
            attacks.append(resolve(_attack_of(shooter, target), rules, overrides, tables))
        except SimlabError as exc:
            whose = ("B" if label == "A" else "A") if about_armour(str(exc)) else label  # the target's armour
            raise SimlabError(f"side {whose}: {exc}") from None
    sides = np.zeros((2, 9), np.int64)
    levels = np.zeros((2, attacks[0].level_by_pen.shape[0]), np.int64)
    for s, (side, attack) in enumerate(zip((side_a, side_b), attacks, strict=True)):
        assert attack.weapon is not None
        sides[s] = (
            attack.to_hit_dm,
            attack.rounds,
            attack.weapon.magazine,
            side.magazines - 1,
            end_dm(side.end),
            2 if side.mode == "burst5" else 1,
            int(side.suppressive),
            rules.suppression_first_hit,
            rules.suppression_extra_hit,
        )
        levels[s] = attack.level_by_pen
    worst_turn = 1 + sum(1 + 2 * attack.max_hits for attack in attacks)
    if worst_turn * rules.max_turns >= DRAWS_PER_TRIAL_LIMIT:
        raise SimlabError(
            f"a duel of up to {rules.max_turns} turns may need {worst_turn * rules.max_turns} draws per trial; "
            f"simlab samples at most {DRAWS_PER_TRIAL_LIMIT - 1}: lower {field_label('--rule', 'max_turns')}"
        )
    return ResolvedDuel(side_a, side_b, rules, (attacks[0], attacks[1]), sides, levels)


def side_json(side: DuelSide, attack: ResolvedAttack) -> dict[str, Any]:
    """A side's effective inputs for the JSON output."""
    return {**as_plain(side), "to_hit_dm": attack.to_hit_dm, "rounds_per_attack": attack.rounds}


#: Validates a duel request into the resolved duel.
check_duel = duel_resolver(Rules, resolve_duel)
#: Answers a duel of two figures (STR-11.2).
duel = DuelEngine(
    system="striker",
    resolve=check_duel,
    sample=Deferred("simlab.systems.striker.sample:sample_duel"),
    sides=lambda d: (side_json(d.a, d.attacks[0]), side_json(d.b, d.attacks[1])),
    names=lambda d: (d.attacks[0].name, d.attacks[1].name),
)
