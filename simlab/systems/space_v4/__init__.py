"""Traveller Space Combat, version 4 (system id ``space_v4``): 2d6 8+, damage fractions, missiles, duels.

Implements ``docs/rules/space_v4.md`` (SPC-1 to SPC-8). One attack (SPC-8) is exact for every
output and sampled by a compiled kernel; duels of two ships (SPC-7) are sampled. Choices
where the spec is silent are written in the docstrings of :mod:`.resolve` (one attack),
:mod:`.duel` (the turn sequence) and :mod:`.ships` (illustrative ship data).
"""

from __future__ import annotations

from functools import partial

from simlab.engine.results import Answer
from simlab.systems.base import (
    Deferred,
    ExactAnswer,
    ScenarioRequest,
    System,
    answer_attack,
    attack_question,
    attack_resolver,
    plus_one,
)
from simlab.systems.battles import battle_question
from simlab.systems.duels import duel_question
from simlab.systems.space_v4.duel import DuelSide
from simlab.systems.space_v4.exact import exact_attack
from simlab.systems.space_v4.fractions import damage_fractions
from simlab.systems.space_v4.outcomes import DUEL_METRICS, MARGIN_SERIES
from simlab.systems.space_v4.resolve import ResolvedAttack, p_shot_down, resolve
from simlab.systems.space_v4.rules import Rules, Scenario
from simlab.systems.space_v4.ships import ships

__all__ = ["SYSTEM", "attack", "resolve_request", "Rules", "Scenario"]

NAME = "space_v4"
#: Sampling and battles load the compiled kernels: imported when first asked for.
_sample_attack = Deferred("simlab.systems.space_v4.sample:sample_attack")

#: Metrics of one attack (SPC-8): name → description.
METRICS = {
    "p_hit": "probability that the attack applies at least one hit",
    "mean_applied_hits": "expected applied hits (SPC-4.2)",
    "mean_criticals": "expected critical hits (SPC-4.3)",
    "mean_missiles_destroyed": "expected missiles shot down by point defence (SPC-5.2)",
}

#: Validates a request into scenario, rules and the resolved attack.
resolve_request = attack_resolver(Scenario, Rules, resolve)


def _details(resolved: ResolvedAttack) -> dict[str, object]:
    """What the attack's figures rest on: the roll's DMs, the rolls and the point defence."""
    return {
        "weapon": _subject(resolved),
        "in_range": resolved.in_range,
        "to_hit_dm": resolved.dm,
        "to_hit_terms": resolved.terms,
        "rolls": resolved.rolls,
        "weapons_per_roll": resolved.per_roll,
        "p_shot_down": p_shot_down(resolved),
        "pd_dedicated": resolved.scenario.pd_dedicated,
        "pd_turrets": resolved.scenario.pd_turrets,
        "pd_lasers_held": int(resolved.pd[:, 0].sum()),
        "pd_lasers_fired": int(resolved.pd[:, 1].sum()),
        "pd_needs": {"held": resolved.need_held, "fired": resolved.need_fired},
    }


def _subject(resolved: ResolvedAttack) -> str:
    """What fires at what: ``frigate: 9 × missile at patrol cruiser``."""
    s = resolved.scenario
    text = f"{s.count} × {s.weapon}"
    if resolved.attacker is not None:
        text = f"{resolved.attacker.name}: {text}"
    return text + (f" at {resolved.defender.name}" if resolved.defender is not None else "")


def attack(request: ScenarioRequest) -> Answer:
    """Answer one Space Combat V4 attack question, exactly or by sampling (SPC-8)."""
    checked = resolve_request(request)
    resolved = checked[2]

    def exact() -> ExactAnswer:
        found = exact_attack(resolved)
        return found.metrics(), {"applied_hits": found.applied.to_dict()}, ()

    rows = {"attacker": resolved.attacker, "defender": resolved.defender}
    sample = partial(_sample_attack, resolved)
    return answer_attack(NAME, request, (resolved.scenario, *checked[1:]), rows, exact, sample, _details(resolved))


def _filled(request: ScenarioRequest) -> tuple[Scenario]:
    """The request's scenario with its blanks filled from the ships."""
    return (resolve_request(request)[2].scenario,)


_ROWS = {"attacker": "ships", "defender": "ships", "ship": "ships"}

SYSTEM = System(
    name=NAME,
    title="Traveller Space Combat V4",
    spec="docs/rules/space_v4.md",
    rules_type=Rules,
    tables=lambda: {"ships": ships(), "fractions": damage_fractions()},
    questions={
        "attack": attack_question(
            Scenario,
            _ROWS,
            METRICS,
            attack,
            resolve_request,
            extra_metrics={MARGIN_SERIES: "expected applied hits of one roll that succeeds by margin k (series)"},
            distributions={"applied_hits": "applied hits of the attack (SPC-4.2)"},
            marginals={"+1 computer": plus_one("attacker_computer", _filled), "+1 G": plus_one("attacker_g", _filled)},
        ),
        "duel": duel_question(
            NAME,
            DuelSide,
            _ROWS,
            engine="duel_engine",
            example={"a.ship": "frigate", "b.ship": "patrol cruiser"},
            metrics=DUEL_METRICS,
            distributions={
                "turns": "turns the duel lasted (SPC-7)",
                "turns_a_wins": "turns of the duels A won",
                "turns_b_wins": "turns of the duels B won",
            },
        ),
        "battle": battle_question(NAME, DuelSide, _ROWS),
    },
    workloads=Deferred("simlab.systems.space_v4.bench:workloads"),
    battle_keys={
        "range_policy": ("formation", "Space Combat's (ENG-4.4): only its battles move the range, the other "
                         "systems' sides hold it (ENG-3)"),
    },
    example={"weapon": "beam", "attacker": "frigate", "defender": "patrol cruiser"},
)
