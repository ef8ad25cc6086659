"""Striker-derived combat (system id ``striker``): 2d6 8+, extra hits, penetration, wound levels.

Implements ``docs/rules/striker.md`` (STR-1 to STR-12). Choices where the spec is silent:

* Outputs of suppressive fire: ``p_hit`` and ``hits`` count the suppressive hits; the
  wound outcome comes from the one hit a natural 12 scores (STR-3.3). Suppressive fire
  needs ``half_clip`` or ``full_clip`` from an automatic weapon and ``burst5`` from a
  semi-automatic one (the seed: "at least half a clip", "a 5 shot burst").
* Lasers meet ``av_laser`` (``av`` when blank); every other weapon meets ``av``.
* ``target_light_wounds`` (an input the spec implies for duels) gives -1 per wound on the
  target's consciousness, Not Dead Yet and serious-wound save rolls ("all rolls", STR-6.1);
  the medic's rolls are not the target's and take no penalty.
* Aftermath (STR-7): the stabilise roll takes DM + the medic's skill (-1 without a kit); the
  treatment roll the same, +1 with a sick bay; the serious-wound save takes DM +1 at END 10+
  (no +2 step: the seed gives the step to consciousness and Not Dead Yet only; the rule
  ``save_end_dm = "steps"`` reads it as STR-6.2) and the doctor's skill. A blank
  ``medic_skill`` means no medic: Not Dead Yet then dies. One
  roll covers all wounds: a Not Dead Yet result takes the stabilise-and-treat rolls, a
  worst result of serious or unconscious the save.
* Melee (STR-9): one hit; the damage roll is 2d6 + pen - armour with the natural-12 armour
  halving of STR-4.1 and no blowthrough cap; the natural 2 and 12 of STR-2.1 apply to the
  to-hit roll. Ranged-only inputs (range, sights, mode) do not apply.
* A snapshot at a running target has no snapshot penalty (STR-8, "+4 to hit, no snapshot
  penalty"); ``snapshot_at_runner = "penalty"`` keeps the -2.
* A burst with fewer rounds left than the mode fires fires what is left, and its hits are
  capped by the rounds fired (duels); a 5-round burst needs at least 2 rounds, so a side
  with 1 round left reloads (STR-11.2; the seed does not say what becomes of that round).
* Duels (STR-11.2): both sides fire every turn, results simultaneous; a side may fire
  suppressively (``suppressive``): its shot comes first and its penalty lowers the other's
  shot of that turn only. A dead result ends the duel without a Not Dead Yet roll (either
  way the figure is down); ``max_turns`` ends a duel in which nobody can hurt anyone any more.
"""

from __future__ import annotations

from typing import Any

from simlab.engine.intervals import Estimates
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
    with_row,
)
from simlab.systems.battles import battle_question
from simlab.systems.duels import duel_question
from simlab.systems.striker.duel import DUEL_METRICS, BattleFigure, DuelSide
from simlab.systems.striker.exact import exact_outcome
from simlab.systems.striker.outcomes import EXTRA_METRICS, METRICS, metrics_of
from simlab.systems.striker.resolve import CATEGORIES, resolve
from simlab.systems.striker.rules import Rules, Scenario, armours, blowthroughs, melee_weapons, weapons

__all__ = ["SYSTEM", "attack", "resolve_request", "Rules", "Scenario"]

NAME = "striker"
#: Sampling and battles load the compiled kernels: imported when first asked for.
_sample_attack = Deferred("simlab.systems.striker.sample:sample_attack")


#: Validates a request into scenario, rules and the resolved attack.
resolve_request = attack_resolver(Scenario, Rules, resolve)


def attack(request: ScenarioRequest) -> Answer:
    """Answer one Striker attack question, exactly or by sampling (STR-12)."""
    checked = resolve_request(request)
    resolved = checked[2]

    def exact() -> ExactAnswer:
        return (*metrics_of(exact_outcome(resolved), resolved.suppressive), ())

    def sample(**options: Any) -> Estimates:
        sampled = _sample_attack(resolved, **options)
        found = Estimates(options["trials"])
        found.metrics, found.distributions = metrics_of(sampled.outcome, resolved.suppressive)
        found.ci95 = sampled.ci95
        return found

    details = {
        "weapon": resolved.name,
        "to_hit_dm": resolved.to_hit_dm,
        "to_hit_terms": resolved.to_hit_terms,
        "rounds": resolved.rounds,
        "labels": {"outcome": dict(enumerate(CATEGORIES))},
    }
    rows = {"weapon": resolved.weapon, "armor": resolved.armour}
    return answer_attack(NAME, request, checked, rows, exact, sample, details)


def plus_one_armour(request: ScenarioRequest) -> ScenarioRequest:
    """The same attack against armour with 1 more AV (and AV against lasers)."""
    _, _, resolved = resolve_request(request)
    armour = resolved.armour
    changed = {"av": armour.av + 1, **({"av_laser": armour.av_laser + 1} if armour.av_laser is not None else {})}
    return with_row(request, "armor", changed)


_ROWS = {"weapon": "weapons", "armor": "armor", "melee_weapon": "melee_weapons", "defender_weapon": "melee_weapons"}

SYSTEM = System(
    name=NAME,
    title="Striker-derived combat",
    spec="docs/rules/striker.md",
    rules_type=Rules,
    tables=lambda: {
        "weapons": weapons(),
        "armor": armours(),
        "blowthrough": blowthroughs(),
        "melee_weapons": melee_weapons(),
    },
    questions={
        "attack": attack_question(
            Scenario,
            _ROWS,
            METRICS,
            attack,
            resolve_request,
            extra_metrics=EXTRA_METRICS,
            distributions={"hits": "hits scored (STR-3)", "outcome": "worst result of the attack (STR-4.3, STR-6)"},
            marginals={"+1 skill": plus_one("skill", resolve_request), "+1 armour": plus_one_armour},
        ),
        "duel": duel_question(
            NAME, DuelSide, _ROWS, metrics=DUEL_METRICS, example={"a.weapon": "rifle", "b.weapon": "submachinegun"}
        ),
        "battle": battle_question(NAME, BattleFigure, _ROWS),
    },
    fight_unread_rules={
        **dict.fromkeys(
            ("serious_save_target", "save_end_dm", "stabilise_target", "treatment_target"),
            "a rule of saves and treatment after the fight (STR-7): an attack's aftermath",
        ),
        "snapshot_at_runner": "a reading of snapshots at running targets (STR-8): a battle's figures neither "
        "snap-shoot nor run",
    },
    outcome_metrics=tuple(f"p_{c}" for c in CATEGORIES),
    distribution_labels={"outcome": CATEGORIES},
    workloads=Deferred("simlab.systems.striker.bench:workloads"),
    battle_keys={
        "tactics": ("side", "the Striker leader's initiative (ENG-4.1); a Tyconian figure's Tactics roll is its "
                    "group's tactics input (TYC-2.1)"),
        "cover": ("side", "a Striker side's cover (ENG-3); elsewhere cover is a group's input: HiTech TFT's dx_mod, "
                  "Tyconian's cover_av, Space's sand (SPC-3.2)"),
        "extra_hits": ("doctrine", "a Striker doctrine (ENG-4.1)"),
        "suppressors": ("doctrine", "a Striker doctrine (ENG-4.1)"),
        "go_prone": ("doctrine", "a Striker doctrine (ENG-4.1)"),
    },
    example={"weapon": "rifle", "armor": "cloth"},
)
