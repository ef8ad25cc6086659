"""Revised HiTech TFT (system id ``hitech_tft``): 3d6 roll-under DX, autofire, per-die armour.

Implements ``docs/rules/hitech_tft.md`` (TFT-1 to TFT-10). Choices where the spec is silent:

* Quickdraw (TFT-6.3) is a plain ``3d6 <= DX`` roll, without criticals; only pistols and
  submachineguns (range class ``pistol``, not blast) can be quickdrawn.
* Belt weapons (clip in bursts) fire ``single`` or ``burst``; other autofire weapons
  ``single``, ``four``, ``half`` or ``full``.
* Criticals (TFT-3.2) multiply the dice of every hit of the attack; a blast that hits on a
  3 or 4 rolls triple or double dice in the blast hex.
* Adds of a missile weapon are added per hit after per-die armour; an attack's total
  damage never goes below 0.
* ``p_stagger`` counts every attack whose knockdown damage reaches ``stagger_threshold``,
  knockdowns included.
* HE splash (TFT-4.5) is reported as ``mean_splash_damage``: the expected points an
  adjacent figure takes, one splash per damage die rolled (criticals included), on hits only.
* Blasts (TFT-7): ``grenade_he_doubling`` applies to every blast weapon (grenades, rifle
  grenades, rockets). The armour of a figure in the blast hex is halved rounding up (after
  AP halving, should a blast weapon be AP). ``dice_at_k`` and ``mean_damage_at_k`` describe a
  figure at k hexes from the blast wearing the scenario's armour (no criticals).
* Range (TFT-2.2): a blank ``range_m`` is 8 m (the spec's default) for missile weapons and
  within reach for melee ones; a melee target beyond ``melee_reach_m`` (one megahex) is an
  error. Beyond 50 m the seed's metre table rules (51 m is -5 for rifles, though 13
  megahexes reach 52 m); ``metre_table_from = "mh_14"`` starts it after 13 megahexes.
* Battle dress (TFT-6.2) multiplies ST (``st_multiplier`` of the armour table) for strength
  only, so it changes no outcome here (rule ``battle_dress_st = "strength_only"``);
  ``"hit_points"`` multiplies the target's ST as hit points too. When battle dress is worn,
  the output says which reading applied (``battle_dress``, in ``--json`` under ``resolution``).
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
    build_inputs,
    plus_one,
    with_row,
)
from simlab.systems.battle_keys import SPACING
from simlab.systems.battles import battle_question
from simlab.systems.hitech_tft.exact import exact_outcome
from simlab.systems.hitech_tft.outcomes import EXTRA_METRICS, METRICS, Outcome, joint_metrics, metric_names
from simlab.systems.hitech_tft.resolve import ResolvedAttack, resolve
from simlab.systems.hitech_tft.rules import Rules, Scenario, armours, weapons

__all__ = ["SYSTEM", "Rules", "Scenario", "attack", "resolve_request", "metrics_of"]

NAME = "hitech_tft"
#: Sampling and battles load the compiled kernels: imported when first asked for.
_sample_outcome = Deferred("simlab.systems.hitech_tft.sample:sample_outcome")


def resolve_request(request: ScenarioRequest) -> tuple[Scenario, Rules, ResolvedAttack]:
    """Validate a request into scenario, rules and the resolved attack.

    Raises:
        SimlabError: For any unknown name, bad value or forbidden scenario.
    """
    scenario, rules = build_inputs(request, Scenario, Rules)
    overrides = request.row_overrides
    resolved = resolve(scenario, rules, overrides.get("weapon"), overrides.get("armor"), request.tables)
    return scenario, rules, resolved


def metrics_of(attack: ResolvedAttack, outcome: Outcome) -> tuple[dict[str, float], dict[str, dict[int, float]]]:
    """All metrics (TFT-10) of an outcome, in report order, and its distributions."""
    metrics, distributions = joint_metrics(outcome.joint, attack.st)
    metrics.update(p_stagger=outcome.p_stagger, p_knockdown=outcome.p_knockdown, p_weapon_lost=outcome.p_weapon_lost)
    metrics.update(outcome.extras)
    names = metric_names(he=attack.splash_per_die is not None, blast=attack.blast is not None)
    return {name: float(metrics[name]) for name in names}, distributions


def _battle_dress(resolved: ResolvedAttack, rules: Rules) -> dict[str, str]:
    """Which reading of battle dress applied, when the target wears it (TFT-6.2)."""
    multiplier = resolved.armour.st_multiplier
    if multiplier == 1:
        return {}
    if rules.battle_dress_st == "hit_points":
        return {"battle_dress": f"ST x{multiplier} as hit points too: the target has {resolved.st} (TFT-6.2)"}
    return {"battle_dress": f"ST x{multiplier} for strength only: no effect on these figures (TFT-6.2)"}


def attack(request: ScenarioRequest) -> Answer:
    """Answer one HiTech TFT attack question, exactly or by sampling.

    Args:
        request: The question.

    Returns:
        The :class:`Answer`; sampled results carry 95 % intervals.
    """
    checked = resolve_request(request)
    _, rules, resolved = checked

    def exact() -> ExactAnswer:
        return (*metrics_of(resolved, exact_outcome(resolved)), ())

    def sample(**options: Any) -> Estimates:
        sampled = _sample_outcome(resolved, **options)
        found = Estimates(options["trials"])
        found.metrics, found.distributions = metrics_of(resolved, sampled.outcome)
        found.ci95 = sampled.ci95
        return found

    details = {
        "weapon": resolved.weapon.name,
        "adj_dx": resolved.adj_dx,
        "adj_dx_terms": resolved.adj_dx_terms,
        "incapacitated_at": resolved.st - 1,
        **_battle_dress(resolved, rules),
    }
    rows = {"weapon": resolved.weapon, "armor": resolved.armour}
    return answer_attack(NAME, request, checked, rows, exact, sample, details)


def plus_one_armour(request: ScenarioRequest) -> ScenarioRequest:
    """The same attack against armour that stops 1 more point per die (or per attack)."""
    _, _, resolved = resolve_request(request)
    return with_row(request, "armor", {"protection": resolved.armour.protection + 1})


_ROWS = {"weapon": "weapons", "armor": "armor"}

SYSTEM = System(
    name=NAME,
    title="Revised HiTech TFT",
    spec="docs/rules/hitech_tft.md",
    rules_type=Rules,
    tables=lambda: {"weapons": weapons(), "armor": armours()},
    questions={
        "attack": attack_question(
            Scenario,
            _ROWS,
            METRICS,
            attack,
            resolve_request,
            extra_metrics=EXTRA_METRICS,
            distributions={"hits": "hits scored (TFT-3.3)", "damage": "damage taken after armour (TFT-4)"},
            marginals={"+1 DX": plus_one("dx", resolve_request), "+1 armour": plus_one_armour},
        ),
        "battle": battle_question(NAME, Scenario, _ROWS),
    },
    workloads=Deferred("simlab.systems.hitech_tft.bench:workloads"),
    battle_keys={"spacing_m": ("formation", SPACING)},
    example={"weapon": "assault rifle", "armor": "flak jacket", "mode": "four", "range_m": "20"},
)
