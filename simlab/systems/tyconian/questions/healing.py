"""The healing aftermath of a fight, day by day, by level of care (TYC-9).

A wound pattern (damage per location) and a level of care give the chance of being alive,
and of being fully recovered, at the end of each day; ``p_survival`` is the spec's output,
the chance of being alive after 14 days. Sampled only: the state (seven locations,
infections, surgery waits) is too large for exact enumeration. Choices where the spec and
the seed are silent (the seed breaks off in the infection rule):

* Care levels: ``none`` (no first aid, no treatment; the weekly infection checks of
  sub-standard care), ``medic`` (+1 a day), ``doctor`` (+3, surgery), ``hospital`` (the
  doctor's +3 and the hospital's +1, surgery). Every carer uses ``medical_skill``.
* First aid, with any care, on the day of the fight: each wounded location is treated until
  a skill roll succeeds (at most ``first_aid_attempts`` tries in the ten minutes), healing a
  d6 and stopping the bleeding; a critical failure adds a point and opens the wound to
  infection. A critical wound left untreated bleeds to death that day.
* Infection (TYC-9): only a figure whose serious wounds were not treated within ten minutes
  (``first_aid = "late"``, the default), or with sub-standard care (``care = "none"``) or
  conditions (``conditions = "substandard"``), risks it: then each location seriously
  wounded or worse after the fight (or opened by a fumbled first aid) is infected with 20 %
  (10 % with antibiotics), rolled on a d100. With prompt first aid, proper conditions and any
  care nothing is infected. While any location is infected no location heals. Every seventh
  day each infection is treated by a skill roll (with care) and cured on a success, else the
  location takes a d6; while care is not proper (no care, or sub-standard conditions) every
  still-wounded location is checked again (20 %).
* Daily healing: d6 + the care bonus per wounded location; a critical location loses
  2 + 1 per further critical location, never healing below 0 points a day. A chest or
  abdomen beyond 1.25 C heals only by surgery.
* Surgery (doctor, hospital): on day 1, and again after ``surgery_wait_days`` days while any
  location is critical, up to three critical locations in table order (head first); a
  success repairs the greater of 2d6 and the points down to serious, a critical success a
  d6 more; a critical failure kills (head, chest, abdomen) or costs the limb.
* Death: a killing wound (TYC-6.2) on any day; any critical wound at the end of day 14 or
  later. A lost limb (amputated, or lost in surgery) is never a full recovery.

The numbers of TYC-9 (care bonuses, infection chances, the critical penalty, surgery's three
locations and three days, the 14th day) are rule parameters (``--rule death_day=21``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from simlab.inputs.errors import ScenarioError, UnknownNameError
from simlab.inputs.params import SKILL, is_digits, spec_field
from simlab.inputs.tables import RowOverrides, Tables
from simlab.systems.tyconian.questions import healing_layout as k
from simlab.systems.tyconian.resolve import LOCATIONS, capacities
from simlab.systems.tyconian.rules import Rules
from simlab.systems.tyconian.wounds import LIMBS, WOUND_LEVELS, wound_code

__all__ = [
    "HealingScenario",
    "ResolvedHealing",
    "resolve_healing",
    "parse_wounds",
    "care_bonus",
]

#: Care levels: (first aid, surgery, infection treatment) (TYC-9); the healing bonuses are rules.
CARE: dict[str, tuple[bool, bool, bool]] = {
    "none": (False, False, False),
    "medic": (True, False, True),
    "doctor": (True, True, True),
    "hospital": (True, True, True),
}
#: The day from whose end a critical wound kills, by the spec (``death_day`` rule, TYC-9).
DEATH_DAY = 14

#: Conditions of care (TYC-9).
CONDITIONS = ("proper", "substandard")


def care_bonus(care: str, rules: Rules) -> int:
    """The daily healing bonus of a level of care: medic, doctor, or doctor and hospital (TYC-9)."""
    return {
        "none": 0,
        "medic": rules.medic_bonus,
        "doctor": rules.doctor_bonus,
        "hospital": rules.doctor_bonus + rules.hospital_bonus,
    }[care]


#: Most days one question follows (keeps a trial's draws inside its window of the stream).
MAX_DAYS = 120


@dataclass(frozen=True)
class HealingScenario:
    """Inputs of the days after a fight (TYC-9)."""

    wounds: str = spec_field(
        "chest=critical abdomen=serious", doc="damage by location, e.g. 'chest=26 left_leg=serious' (points or level)"
    )
    care: str = spec_field("medic", doc="none, medic, doctor or hospital", choices=tuple(CARE))
    medical_skill: int = spec_field(10, doc="skill of the carer: first aid, treatment, surgery (d20 scale)", **SKILL)
    antibiotics: bool = spec_field(False, doc="antibiotics within 8 hours: infection 10 % instead of 20 %")
    first_aid: str = spec_field(
        "late",
        doc="serious wounds treated within 10 minutes (prompt) or not (late); only late ones risk infection",
        choices=("prompt", "late"),
    )
    conditions: str = spec_field(
        "proper", doc="proper or substandard conditions; substandard ones risk infection (TYC-9)", choices=CONDITIONS
    )
    days: int = spec_field(
        28, doc=f"days followed (up to {MAX_DAYS}; at least the death_day rule)", minimum=1, maximum=120
    )
    target_str: int = spec_field(10, doc="the wounded figure's STR (TYC-6.1)", minimum=1, maximum=99)
    target_end: int = spec_field(10, doc="the wounded figure's END (TYC-6.1)", minimum=1, maximum=99)
    first_aid_attempts: int = spec_field(
        12, doc="first aid tries per location on the day of the fight", minimum=1, maximum=100
    )


@dataclass(frozen=True, eq=False)
class ResolvedHealing:
    """A wound pattern and the parameters of its care.

    Attributes:
        scenario: The inputs.
        rules: The rule parameters.
        wounds: Damage by location after the fight.
        capacity: Capacity per location.
        limb: 1 for a limb.
        ints: The sampler's parameters (``healing_layout`` indices).
    """

    scenario: HealingScenario
    rules: Rules
    wounds: npt.NDArray[np.int64]
    capacity: npt.NDArray[np.int64]
    limb: npt.NDArray[np.int64]
    ints: npt.NDArray[np.int64]


def lowest_damage(level: str, location: str, cap: int) -> int:
    """The fewest points that make ``level`` at a location of capacity ``cap`` (TYC-6.2)."""
    wanted = WOUND_LEVELS.index(level)
    for points in range(0, 2 * cap + 2):
        if wound_code(points, cap, location in LIMBS, location == "head") == wanted:
            return points
    raise ScenarioError(f"wounds: {location} cannot be {level} (TYC-6.2)")


def parse_wounds(text: str, caps: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Damage by location from ``'chest=26 left_leg=serious'``: points, or the lowest damage of a wound level.

    Raises:
        ScenarioError: For a malformed entry, a location given twice or a negative number.
        UnknownNameError: For an unknown location or wound level.
    """
    damage = np.zeros(len(LOCATIONS), np.int64)
    seen: set[str] = set()
    for entry in text.replace(",", " ").split():
        location, equals, value = entry.partition("=")
        if not equals or not value:
            raise ScenarioError(f"wounds: {entry!r} is not LOCATION=POINTS or LOCATION=LEVEL")
        if location not in LOCATIONS:
            raise UnknownNameError("wounds location", location, LOCATIONS)
        if location in seen:
            raise ScenarioError(f"wounds: {location} is given twice")
        seen.add(location)
        index = LOCATIONS.index(location)
        if is_digits(value.lstrip("-")) and len(value) < 20:
            if int(value) < 0:
                raise ScenarioError(f"wounds: {entry!r}: points must be 0 or more")
            damage[index] = int(value)
        elif value in WOUND_LEVELS:
            damage[index] = lowest_damage(value, location, int(caps[index]))
        else:
            raise UnknownNameError("wounds level", value, WOUND_LEVELS)
    return damage


def resolve_healing(
    scenario: HealingScenario, rules: Rules, row_overrides: RowOverrides | None = None, tables: Tables | None = None
) -> ResolvedHealing:
    """Resolve a wound pattern and its care (TYC-9).

    Raises:
        SimlabError: For a malformed wound pattern or too many days.
    """
    if not rules.death_day <= scenario.days <= MAX_DAYS:
        raise ScenarioError(f"days: from the death_day rule ({rules.death_day}) to {MAX_DAYS}, got {scenario.days}")
    caps = capacities(scenario.target_str, scenario.target_end)
    first_aid, surgery, treatment = CARE[scenario.care]
    proper_care = scenario.care != "none" and scenario.conditions == "proper"
    exposed = scenario.first_aid == "late" or not proper_care
    infection = rules.antibiotics_infection_percent if scenario.antibiotics else rules.infection_percent
    values = {
        k.BONUS: care_bonus(scenario.care, rules),
        k.FIRST_AID: int(first_aid),
        k.SURGERY: int(surgery),
        k.TREATMENT: int(treatment),
        k.WEEKLY_CHECKS: int(not proper_care),
        k.SKILL: scenario.medical_skill,
        k.CRIT_MAX: rules.critical_success_max,
        k.FAIL_MIN: rules.critical_failure_min,
        k.INFECTION_PERCENT: infection if exposed else 0,
        k.LATER_PERCENT: rules.infection_percent,
        k.DAYS: scenario.days,
        k.DEATH_DAY: rules.death_day,
        k.SURGERY_LOCATIONS: rules.surgery_locations,
        k.SURGERY_WAIT: rules.surgery_wait_days,
        k.CRITICAL_PENALTY: rules.critical_heal_penalty,
        k.FIRST_AID_ATTEMPTS: scenario.first_aid_attempts,
        k.SKILL_DIE: rules.skill_die,
    }
    ints = np.zeros(k.N_INTS, np.int64)
    for index, value in values.items():
        ints[index] = value
    return ResolvedHealing(
        scenario=scenario,
        rules=rules,
        wounds=parse_wounds(scenario.wounds, caps),
        capacity=caps,
        limb=np.array([name in LIMBS for name in LOCATIONS], np.int64),
        ints=ints,
    )
