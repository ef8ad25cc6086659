"""The layout of the healing kernel's arrays: the index of every entry, shared by the code that packs them."""

from __future__ import annotations

__all__ = [
    "BONUS",
    "FIRST_AID",
    "SURGERY",
    "TREATMENT",
    "WEEKLY_CHECKS",
    "SKILL",
    "CRIT_MAX",
    "FAIL_MIN",
    "INFECTION_PERCENT",
    "LATER_PERCENT",
    "DAYS",
    "DEATH_DAY",
    "SURGERY_LOCATIONS",
    "SURGERY_WAIT",
    "FIRST_AID_ATTEMPTS",
    "CRITICAL_PENALTY",
    "SKILL_DIE",
    "N_INTS",
    "BLED_OUT",
    "INFECTED",
    "SURGERY_DEATHS",
    "MAIMED",
    "DRAWS",
    "N_HEALING_COUNTS",
    "CRITICAL",
]

# Indices of ``ints``.
(BONUS, FIRST_AID, SURGERY, TREATMENT, WEEKLY_CHECKS, SKILL, CRIT_MAX, FAIL_MIN, INFECTION_PERCENT, LATER_PERCENT,
 DAYS, DEATH_DAY, SURGERY_LOCATIONS, SURGERY_WAIT, FIRST_AID_ATTEMPTS, CRITICAL_PENALTY,
 SKILL_DIE) = range(17)  # fmt: skip
N_INTS = 17
# Indices of the ``counts`` tally.
BLED_OUT, INFECTED, SURGERY_DEATHS, MAIMED, DRAWS = range(5)
N_HEALING_COUNTS = 5
CRITICAL = 4
