"""The Tyconian questions besides one attack and a duel: explosions, indirect fire, flame, melee, healing.

Each question is described as a :class:`~simlab.systems.base.System` of its own (its
scenario, metrics and answer) that shares the system's id, rules and tables, so that
``simlab attack --kind``, experiments (``kind = "explosion"``), variants and baselines treat
it as they treat attacks (TYC-7 to TYC-9).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from simlab.engine.results import Answer
from simlab.inputs.errors import ScenarioError, spelled
from simlab.systems.base import Deferred, ExactAnswer, Question, ScenarioRequest, answer_attack, attack_resolver
from simlab.systems.tyconian.questions.blast import (
    ARTILLERY,
    LOBBED,
    ExplosionScenario,
    IndirectFireScenario,
    ResolvedBlast,
    exact_mean_damage,
    p_on_target,
    resolve_explosion,
    resolve_indirect_fire,
)
from simlab.systems.tyconian.questions.explosives import explosives, flamer_area, flamer_directed
from simlab.systems.tyconian.questions.flame import FlameScenario, mean_location_hits, resolve_flame
from simlab.systems.tyconian.questions.healing import DEATH_DAY, HealingScenario, resolve_healing
from simlab.systems.tyconian.questions.melee import MeleeScenario, exact_melee, resolve_melee
from simlab.systems.tyconian.resolve import LOCATIONS
from simlab.systems.tyconian.rules import (
    Rules,
    action_points,
    armours,
    full_auto_rows,
    hit_locations,
    melee_weapons,
    unarmed_damage,
    weapons,
)
from simlab.systems.tyconian.wounds import WOUND_LEVELS

#: The questions' samplers load the compiled kernels: imported when first asked for.
sample_blast = Deferred("simlab.systems.tyconian.questions.blast_sample:sample_blast")
sample_flame = Deferred("simlab.systems.tyconian.questions.flame_sample:sample_flame")
sample_healing = Deferred("simlab.systems.tyconian.questions.healing_sample:sample_healing")
sample_melee = Deferred("simlab.systems.tyconian.questions.melee_sample:sample_melee")

__all__ = ["tables", "question", "QUESTIONS", "OUTCOMES", "answer"]

NAME = "tyconian"
#: Wound outcomes every question about a figure's wounds reports (TYC-6.4, TYC-6.5).
OUTCOMES = {
    "p_stun": "probability that a head wound stuns (2d6 + damage > END, TYC-6.4)",
    "p_incapacitated": "probability of unconscious, killed or DEX <= 0 (TYC-6.5)",
    "p_killed": "probability of a killing wound (TYC-6.2)",
}
_KNOCKDOWN = {"p_knockdown": "probability that one burst's (or blow's) damage exceeds the target's DEX (TYC-6.4)"}
_WOUND_LABELS = {f"wounds_{name}": dict(enumerate(WOUND_LEVELS)) for name in LOCATIONS}
#: The wound level at each hit location, as distributions (TYC-6.2).
WOUND_DISTRIBUTIONS = {f"wounds_{name}": f"wound level at the {name.replace('_', ' ')} (TYC-6.2)" for name in LOCATIONS}
#: Distributions of the questions that wound one figure: its damage and its wounds.
_DAMAGE_AND_WOUNDS = {"damage": "damage of the attack, all locations (TYC-5)", **WOUND_DISTRIBUTIONS}


def tables() -> dict[str, Any]:
    """Every data table of the Tyconian rules, by name."""
    return {
        "weapons": weapons(),
        "armor": armours(),
        "action_points": action_points(),
        "full_auto": full_auto_rows(),
        "hit_locations": hit_locations(),
        "explosives": explosives(),
        "flamer_directed": flamer_directed(),
        "flamer_area": flamer_area(),
        "melee_weapons": melee_weapons(),
        "unarmed_damage": unarmed_damage(),
    }


def answer(
    request: ScenarioRequest,
    checked: tuple[Any, Rules, Any],
    rows: Mapping[str, Any],
    exact: Callable[[], ExactAnswer],
    sample: Callable[..., Any],
    details: Mapping[str, Any],
) -> Answer:
    """The result of one Tyconian question (:func:`~simlab.systems.base.answer_attack`), with the wound labels."""
    return answer_attack(NAME, request, checked, rows, exact, sample, {"labels": _WOUND_LABELS, **details})


def question(
    kind: str,
    title: str,
    scenario_type: type,
    row_inputs: Mapping[str, str],
    metrics: Mapping[str, str],
    answer: Callable[[ScenarioRequest], Answer],
    check: Callable[[ScenarioRequest], object],
    *,
    extra_metrics: Mapping[str, str] | None = None,
    sampled_only: bool = False,
    distributions: Mapping[str, str] = _DAMAGE_AND_WOUNDS,
    example: Mapping[str, str] | None = None,
) -> Question:
    """One Tyconian question of one scenario, answered by ``simlab attack --kind KIND``."""
    return Question(
        kind=kind,
        title=title,
        form="scenario",
        inputs_type=scenario_type,
        row_inputs=row_inputs,
        metrics=metrics,
        answer=answer,
        check=check,
        extra_metrics=extra_metrics or {},
        distributions=distributions,
        sampled_only=sampled_only,
        example=example or {},
    )


# --- explosions (TYC-7.1) -------------------------------------------------------------

_check_explosion = attack_resolver(ExplosionScenario, Rules, resolve_explosion)
EXPLOSION_METRICS = {
    "dice": "damage dice at the target's distance (TYC-7.1)",
    "mean_locations": "expected locations reached (TYC-7.1)",
    "mean_damage": "expected damage, all locations and blunt trauma together",
    **_KNOCKDOWN,
    **OUTCOMES,
}
_EXACT_OUTCOMES = ["p_knockdown", *OUTCOMES]


def _blast_rows(blast: ResolvedBlast) -> dict[str, Any]:
    return {"explosive": blast.explosive, "armor": blast.armour}


def _dice(blast: ResolvedBlast) -> float:
    bucket = blast.fixed_bucket
    return float(blast.halves_by_bucket[bucket]) / 2 if bucket < len(blast.halves_by_bucket) else 0.0


def _explosion(request: ScenarioRequest) -> Answer:
    """An explosion at a distance from one figure (TYC-7.1)."""
    checked = _check_explosion(request)
    scenario, _, blast = checked
    dice = _dice(blast)

    def exact() -> ExactAnswer:
        metrics = {
            "dice": dice,
            "mean_locations": float(math.ceil(dice)),
            "mean_damage": exact_mean_damage(blast, blast.fixed_bucket),
        }
        return metrics, {}, list(_EXACT_OUTCOMES)

    def sample(**options: Any) -> Any:
        sampled = sample_blast(blast, **options)
        sampled.metrics["dice"] = dice
        sampled.ci95["dice"] = (dice, dice)
        return sampled

    details = {
        "subject": f"{blast.explosive.name} at {scenario.distance_m:g} m",
        "explosive": blast.explosive.name,
        "radius_m": blast.explosive.radius_m,
    }
    return answer(request, checked, _blast_rows(blast), exact, sample, details)


EXPLOSION = question(
    "explosion",
    "Tyconian explosions: dice, locations and wounds by distance (TYC-7.1)",
    ExplosionScenario,
    {"explosive": "explosives", "armor": "armor"},
    EXPLOSION_METRICS,
    _explosion,
    _check_explosion,
    example={"explosive": "hand grenade", "armor": "flak vest", "distance_m": "2"},
)

# --- lobbed grenades and indirect fire (TYC-7.3, TYC-7.4) --------------------------------

_check_indirect = attack_resolver(IndirectFireScenario, Rules, resolve_indirect_fire)
INDIRECT_METRICS = {
    "mean_in_burst": "expected rounds whose burst reaches the target",
    "mean_locations": "expected locations reached, all rounds together",
    "mean_damage": "expected damage, all rounds together",
    **_KNOCKDOWN,
    **OUTCOMES,
}
INDIRECT_EXTRA = {
    "p_on_target": "probability that the first round lands on target (TYC-7.4)",
    "mean_on_target": "expected grenades that land on target (TYC-7.3)",
}


def _indirect(request: ScenarioRequest) -> Answer:
    """A salvo of indirect fire, or grenades lobbed one after another, at one figure (TYC-7.3, TYC-7.4)."""
    checked = _check_indirect(request)
    scenario, _, blast = checked

    def exact() -> ExactAnswer:
        metrics: dict[str, float] = {}
        if blast.mode == LOBBED:
            metrics["mean_on_target"] = sum(p_on_target(blast, throw) for throw in range(blast.rounds))
        else:
            metrics["p_on_target"] = p_on_target(blast)
        return metrics, {}, [name for name in INDIRECT_METRICS]

    details = {
        "subject": f"{scenario.rounds} x {blast.explosive.name}, {scenario.delivery}",
        "explosive": blast.explosive.name,
        "radius_m": blast.explosive.radius_m,
        "chance_percent": 5 * blast.chance if blast.mode == ARTILLERY else None,
        "deviation_step_m": blast.step_m,
    }
    return answer(request, checked, _blast_rows(blast), exact, lambda **o: sample_blast(blast, **o), details)


INDIRECT_FIRE = question(
    "indirect_fire",
    "Tyconian indirect fire and lobbed grenades: a salvo of N rounds at one figure (TYC-7.3, TYC-7.4)",
    IndirectFireScenario,
    {"explosive": "explosives", "armor": "armor"},
    INDIRECT_METRICS,
    _indirect,
    _check_indirect,
    extra_metrics=INDIRECT_EXTRA,
    example={"explosive": "mortar bomb", "armor": "flak vest", "rounds": "4"},
)

# --- flamethrowers (TYC-7.2) -----------------------------------------------------------

_check_flame = attack_resolver(FlameScenario, Rules, resolve_flame)
FLAME_METRICS = {
    "mean_location_hits": "expected locations hit by flame, over all seconds (TYC-7.2)",
    "mean_damage": "expected damage, burning included",
    "p_burning": "probability that a location burns (8 or more points, TYC-7.2)",
    **OUTCOMES,
}


def _flame(request: ScenarioRequest) -> Answer:
    """A flamethrower's spray at one figure (TYC-7.2)."""
    checked = _check_flame(request)
    scenario, _, flame = checked

    def exact() -> ExactAnswer:
        return (
            {"mean_location_hits": mean_location_hits(flame)},
            {},
            [m for m in FLAME_METRICS if m != "mean_location_hits"],
        )

    if scenario.flamer_mode == "area":
        where = f"at {scenario.range_m:g} m"
    else:
        where = "beside the target" if scenario.adjacent else "at the target"
    details = {
        "subject": f"{scenario.seconds} s {scenario.flamer_mode} spray, figure {where}",
        "seconds_reaching": [
            dict(zip(("die", "bonus", "one_in", "dice"), map(int, row), strict=True)) for row in flame.seconds
        ],
    }
    return answer(request, checked, {"armor": None}, exact, lambda **o: sample_flame(flame, **o), details)


FLAME = question(
    "flame",
    "Tyconian flamethrowers: directed and area sprays, dodges, burning, adjacent figures (TYC-7.2)",
    FlameScenario,
    {"armor": "armor"},
    FLAME_METRICS,
    _flame,
    _check_flame,
    example={"armor": "flak vest"},
)

# --- melee (TYC-8) ------------------------------------------------------------------------

_check_melee = attack_resolver(MeleeScenario, Rules, resolve_melee)
MELEE_METRICS = {
    "p_hit": "probability that the blow lands",
    "mean_damage": "expected damage, blunt trauma included",
    **_KNOCKDOWN,
    **OUTCOMES,
}
MELEE_EXTRA = {
    "p_attacker_down": "probability that a diving attacker falls: dodged, or beaten (TYC-8)",
    "p_control": "probability that the attacker brings the defender's STR to 0 in a grapple (TYC-8)",
    "p_controlled": "probability that the defender grappling back controls the attacker (TYC-8)",
    "mean_exchanges": "expected exchanges of a grapple",
}


def _melee(request: ScenarioRequest) -> Answer:
    """One melee attack: a strike, an armed blow, a diving blow or a grapple (TYC-8)."""
    checked = _check_melee(request)
    scenario, _, melee = checked

    def exact() -> ExactAnswer:
        metrics, distributions = exact_melee(melee)
        return metrics, distributions, []

    weapon = melee.weapon.name if melee.weapon is not None else "unarmed"
    subject = weapon if scenario.attack == "thrown" else f"{scenario.attack.replace('_', ' ')} ({weapon})"
    details = {"subject": subject}
    rows = {"armor": melee.armour, "melee_weapon": melee.weapon}
    return answer(request, checked, rows, exact, lambda **o: sample_melee(melee, **o), details)


MELEE = question(
    "melee",
    "Tyconian melee and throws: strikes, armed blows, blocks, melee armour, diving blows, grapples (TYC-8, TYC-7.3)",
    MeleeScenario,
    {"armor": "armor", "melee_weapon": "melee_weapons"},
    MELEE_METRICS,
    _melee,
    _check_melee,
    extra_metrics=MELEE_EXTRA,
    example={"melee_weapon": "sword", "armor": "flak vest"},
)

# --- healing (TYC-9) ----------------------------------------------------------------------

_check_healing = attack_resolver(HealingScenario, Rules, resolve_healing)
HEALING_METRICS = {
    "p_survival": f"probability of being alive after {DEATH_DAY} days (the death_day rule, TYC-9)",
    "p_alive": "probability of being alive at the end of the days followed",
    "p_recovered": "probability of a full recovery (no damage, infection or lost limb) by then",
    "p_bled_out": "probability of bleeding to death on the day of the fight (TYC-6.3)",
    "p_infected": "probability of an infection (TYC-9)",
    "p_maimed": "probability of a lost limb (amputated, or lost in surgery)",
}
HEALING_SERIES = {
    "p_alive_day_": "probability of being alive at the end of day k (series)",
    "p_recovered_day_": "probability of a full recovery by the end of day k (series)",
}


def _healing(request: ScenarioRequest) -> Answer:
    """The days after a fight: survival and recovery by day for a wound pattern and care (TYC-9)."""
    checked = _check_healing(request)
    scenario, _, healing = checked

    def exact() -> ExactAnswer:
        raise ScenarioError(f"healing is sampled only: leave out {spelled('--exact')}")

    pattern = {name: int(v) for name, v in zip(LOCATIONS, healing.wounds, strict=True) if v}
    details = {"subject": f"{scenario.wounds}, care {scenario.care}", "wounds": pattern, "series": HEALING_SERIES}
    return answer(request, checked, {}, exact, lambda **o: sample_healing(healing, **o), details)


HEALING = question(
    "healing",
    "Tyconian healing: survival and full recovery by day for a wound pattern and care (TYC-9)",
    HealingScenario,
    {},
    HEALING_METRICS,
    _healing,
    _check_healing,
    extra_metrics=HEALING_SERIES,
    sampled_only=True,
    distributions={},
)

#: The questions, by kind.
QUESTIONS: dict[str, Question] = {
    "explosion": EXPLOSION,
    "indirect_fire": INDIRECT_FIRE,
    "flame": FLAME,
    "melee": MELEE,
    "healing": HEALING,
}


def resolved_question(kind: str, **scenario: Any) -> Any:
    """The resolved inputs of a question of ``kind`` with ``scenario``: what its sampler takes."""
    checked: Any = QUESTIONS[kind].check(ScenarioRequest(scenario=scenario))  # (scenario, rules, resolved)
    return checked[2]
