"""Tyconian Traveller combat (system id ``tyconian``): d20 skills, recoil, full auto, locations, wounds.

Implements ``docs/rules/tyconian.md`` TYC-0 to TYC-6 and TYC-10 for one attack, and TYC-7 to
TYC-9 as further questions (:mod:`.questions`: ``explosion``, ``indirect_fire``, ``flame``,
``melee``, ``healing``; their choices are in the docstrings of :mod:`.blast`, :mod:`.flame`,
:mod:`.melee` and :mod:`.healing`). Choices where the spec is silent:

* One attack is one firer's turn of fire at one target: ``shots`` single shots (or bursts)
  with recoil growing shot by shot (TYC-3.4), or one turn of full-auto fire (TYC-4). Aim
  applies to the first shot only (TYC-3.2); the shots after it keep the range band without
  a scope's extra range. Electronic sights lengthen R for every shot (TYC-3.1; rule
  ``electronic_sights = "aimed_only"`` is the old reading), and close range is *less than*
  R/2 (``close_range = "at_most_half"`` counts R/2 as close).
* The *per_round* reading of bursts (TYC-3.7) rolls every round of each burst as a
  full-auto die (skill does not apply, a 6 hits, 5-6 at close range).
* Knockdown (TYC-6.4) compares the total impact damage of all hits of the turn (one phase:
  every shot, burst or full-auto volley of the attack) with the target's DEX; rule
  ``knockdown_damage = "shot"`` is the old reading, each shot or burst on its own.
* "3d6 under END" (TYC-6.3) is ``3d6 <= END``: higher and the target falls unconscious. The
  DEX losses of TYC-6.3 are taken once each: -2 for any slight (or worse) wound, -4 more for
  any serious (or worse) one.
* Two weapons (TYC-3.5): the shots are the off hand's (``hand = "primary"`` for the primary
  weapon's), firing one at a time (off hand -5, STR' one lower) or, with
  ``two_weapon_fire = "same_second"``, both in the same second (primary -2, off hand -7,
  STR' two lower).
* Bystanders (TYC-4.5): all missed dice are rolled (half, rounded up, near the target and the
  rest behind it); ``mean_bystander_hits`` counts the 6s of both.
* Exact values: hits, mean damage, jams and bystander hits for every attack; for attacks of
  at most one hit also the damage distribution and the wound outcome over all locations.
  The wound outcome of several hits is sampled only (``not_exact``).
"""

from __future__ import annotations

from functools import partial

from simlab.engine.results import Answer
from simlab.systems.base import Deferred, ScenarioRequest, System, attack_question, attack_resolver, plus_one, with_row
from simlab.systems.battle_keys import SPACING
from simlab.systems.battles import battle_question
from simlab.systems.duels import DUEL_METRICS, duel_question
from simlab.systems.tyconian.duel import DuelSide
from simlab.systems.tyconian.exact import exact_attack
from simlab.systems.tyconian.fire import shot_chances
from simlab.systems.tyconian.questions import QUESTIONS, WOUND_DISTRIBUTIONS, answer, tables
from simlab.systems.tyconian.resolve import ResolvedAttack, resolve
from simlab.systems.tyconian.rules import Rules, Scenario
from simlab.systems.tyconian.wounds import WOUND_LEVELS

__all__ = ["SYSTEM", "attack", "resolve_request", "Rules", "Scenario", "METRICS", "EXTRA_METRICS"]

NAME = "tyconian"
#: Sampling and battles load the compiled kernels: imported when first asked for.
_sample_attack = Deferred("simlab.systems.tyconian.sample:sample_attack")
#: Metrics of every attack (TYC-10).
METRICS = {
    "p_hit": "probability of at least one hit",
    "mean_hits": "expected hits",
    "mean_damage": "expected damage, all hits and blunt trauma together",
    "p_knockdown": "probability that the damage of all hits of the turn (one phase) exceeds the target's DEX (TYC-6.4)",
    "p_stun": "probability that a head hit stuns (2d6 + damage > END, TYC-6.4)",
    "p_incapacitated": "probability of unconscious, killed or DEX <= 0 (TYC-6.5)",
    "p_killed": "probability of a killing wound (TYC-6.2)",
}
#: Metrics of some attacks only.
EXTRA_METRICS = {
    "mean_bystander_hits": "expected hits of missed full-auto dice on figures near and behind the target (TYC-4.5)",
    "p_jam": "probability that a semi-automatic weapon jams after the turn's shots (TYC-3.6)",
}
_OUTCOMES = ("p_knockdown", "p_stun", "p_incapacitated", "p_killed")


#: Validates a request into scenario, rules and the resolved attack.
resolve_request = attack_resolver(Scenario, Rules, resolve)


def _exact(resolved: ResolvedAttack) -> tuple[dict[str, float], dict[str, dict[int, float]], list[str]]:
    exact = exact_attack(resolved)
    metrics = {
        "p_hit": float(exact.hits.p_at_least(1)),
        "mean_hits": exact.hits.mean(),
        "mean_damage": exact.mean_damage,
    }
    distributions = {"hits": exact.hits.to_dict()}
    missing: list[str] = []
    if exact.damage is not None:
        metrics.update({name: float(exact.outcome[name]) for name in _OUTCOMES})
        distributions["damage"] = exact.damage.to_dict()
        distributions.update(exact.wounds)
    else:
        missing = list(_OUTCOMES)
    if exact.mean_bystander_hits is not None:
        metrics["mean_bystander_hits"] = exact.mean_bystander_hits
    if exact.p_jam is not None:
        metrics["p_jam"] = exact.p_jam
    return metrics, distributions, missing


def attack(request: ScenarioRequest) -> Answer:
    """Answer one Tyconian attack question, exactly or by sampling (TYC-10)."""
    checked = resolve_request(request)
    resolved = checked[2]
    rows = {"weapon": resolved.weapon, "armor": resolved.armour}
    details: dict[str, object] = {
        "weapon": resolved.weapon.name,
        "band": resolved.band,
        "effective_skills": list(resolved.skills),
        "shot_chances": shot_chances(resolved.skills, resolved.rules) if not resolved.rounds_per_hit_roll else [],
        "plan_seconds": list(resolved.plan_seconds),
    }
    if resolved.auto is not None:
        details["full_auto"] = {
            "rounds": resolved.auto.rounds,
            "dice": resolved.auto.dice,
            "p_die": resolved.auto.p_die,
        }
    return answer(request, checked, rows, lambda: _exact(resolved), partial(_sample_attack, resolved), details)


def plus_one_armour(request: ScenarioRequest) -> ScenarioRequest:
    """The same attack against armour with 1 more AV where it covers."""
    _, _, resolved = resolve_request(request)
    return with_row(request, "armor", {"av": resolved.armour.av + 1})


#: Rules duels and battles never read: those of the other questions, and readings of one attack.
_HEALING = (
    "medic_bonus", "doctor_bonus", "hospital_bonus", "critical_heal_penalty", "infection_percent",
    "antibiotics_infection_percent", "surgery_locations", "surgery_wait_days", "death_day",
)  # fmt: skip
FIGHT_UNREAD_RULES = {
    **dict.fromkeys(_HEALING, 'a rule of healing after the fight (TYC-9): kind = "healing"'),
    "melee_blunt_points": 'a rule of armed melee (TYC-8): kind = "melee"',
    "flame_ignition": 'a rule of flame weapons (TYC-7.2): kind = "flame"',
    **dict.fromkeys(
        ("scope_bonus_m", "electronic_sights", "electronic_bonus_m"),
        "a rule of sights (TYC-3.1): the figures of duels and battles carry none (an attack's sights input)",
    ),
    "burst_hits": "a reading of one attack's burst (TYC-3.7): duels and battles score one hit a burst",
}

_ROWS = {"weapon": "weapons", "armor": "armor"}

SYSTEM = System(
    name=NAME,
    title="Tyconian Traveller combat",
    spec="docs/rules/tyconian.md",
    rules_type=Rules,
    tables=tables,
    questions={
        "attack": attack_question(
            Scenario,
            _ROWS,
            METRICS,
            attack,
            resolve_request,
            extra_metrics=EXTRA_METRICS,
            distributions={
                "hits": "hits on the target (TYC-3, TYC-4)",
                "damage": "damage of all hits and blunt trauma (TYC-5)",
                **WOUND_DISTRIBUTIONS,
            },
            marginals={"+1 skill": plus_one("skill", resolve_request), "+1 armour": plus_one_armour},
        ),
        "duel": duel_question(
            NAME, DuelSide, _ROWS, example={"a.weapon": "assault rifle", "b.weapon": "submachinegun"}
        ),
        "battle": battle_question(NAME, DuelSide, _ROWS, extra_metrics={"mean_seconds": DUEL_METRICS["mean_seconds"]}),
        **QUESTIONS,
    },
    fight_unread_rules=FIGHT_UNREAD_RULES,
    distribution_labels={"wounds_": WOUND_LEVELS},
    workloads=Deferred("simlab.systems.tyconian.bench:workloads"),
    battle_keys={
        "same_second": ("", "a Tyconian reading (ENG-4.2)"),
        "spacing_m": ("formation", SPACING),
    },
    example={"weapon": "assault rifle", "armor": "flak vest"},
)
