"""Compiled sampler of the healing aftermath, day by day (TYC-9).

Draw order of a trial: first aid for each wounded location in table order (d20s until a
success, then the d6 it heals); the infection d100 of each location at risk; then day by
day: surgery (a d20 per location operated on, then 2d6 in one draw and, on a critical
success, a d6), the d6 of each wounded location's healing (none while an infection lasts),
and every seventh day, per infected location, the treatment d20 (with care) and, when the
infection is not cured, its d6; without care, the weekly infection d100 of every wounded
location.

The plain reference is this same function run by the interpreter (``healing_block.py_func``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine.rng import DRAWS_PER_TRIAL_LIMIT, mix64, two_d6_from_draw
from simlab.systems.tyconian.kernels import draw_die
from simlab.systems.tyconian.layout import N_LOCATIONS
from simlab.systems.tyconian.questions.healing_layout import (
    BLED_OUT,
    BONUS,
    CRIT_MAX,
    CRITICAL,
    CRITICAL_PENALTY,
    DAYS,
    DEATH_DAY,
    DRAWS,
    FAIL_MIN,
    FIRST_AID,
    FIRST_AID_ATTEMPTS,
    INFECTED,
    INFECTION_PERCENT,
    LATER_PERCENT,
    MAIMED,
    SKILL,
    SKILL_DIE,
    SURGERY,
    SURGERY_DEATHS,
    SURGERY_LOCATIONS,
    SURGERY_WAIT,
    TREATMENT,
    WEEKLY_CHECKS,
)
from simlab.systems.tyconian.wounds import wound_code

__all__ = ["healing_block"]

_level = njit(inline="always")(wound_code)


@njit(inline="always")
def _skill(w: np.uint64, gamma: np.uint64, ints: np.ndarray) -> tuple[np.uint64, bool, bool, bool]:  # pragma: no cover
    """The carer's skill roll on the skill die (TYC-1.1): (position, success, critical success, critical failure)."""
    w, roll = draw_die(w, gamma, ints[SKILL_DIE])
    critical = roll <= ints[CRIT_MAX]
    fumble = roll >= ints[FAIL_MIN]
    return w, critical or (not fumble and roll <= ints[SKILL]), critical, fumble


@njit(inline="always")
def _recovered(damage: np.ndarray, infected: np.ndarray, maimed: bool) -> bool:  # pragma: no cover - compiled
    """Fully recovered: no damage anywhere, no infection, no limb lost."""
    clean = not maimed
    for i in range(N_LOCATIONS):
        clean = clean and damage[i] <= 0 and not infected[i]
    return clean


@njit(cache=True, nogil=True, error_model="numpy")
def healing_block(
    offset: np.uint64,
    gamma: np.uint64,
    start: int,
    stop: int,
    ints: np.ndarray,
    wounds: np.ndarray,
    capacity: np.ndarray,
    limb: np.ndarray,
    head: int,
    alive_hist: np.ndarray,
    recovered_hist: np.ndarray,
    counts: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Sample the days after a fight and add their tallies.

    Args:
        offset: Stream offset of the cell.
        gamma: Stream increment of the cell.
        start: First trial.
        stop: One past the last trial.
        ints: Parameters indexed by BONUS ... SKILL_DIE.
        wounds: Damage at each location after the fight.
        capacity: Capacity per location.
        limb: 1 for a limb.
        head: Index of the head.
        alive_hist: Trials alive at the end of each day (0 = the day of the fight).
        recovered_hist: Trials fully recovered by the end of each day.
        counts: Tallies indexed by BLED_OUT ... DRAWS.
    """
    stride = np.uint64(DRAWS_PER_TRIAL_LIMIT) * gamma
    damage = np.zeros(N_LOCATIONS, np.int64)
    infected = np.zeros(N_LOCATIONS, np.bool_)
    at_risk = np.zeros(N_LOCATIONS, np.bool_)
    levels = np.zeros(N_LOCATIONS, np.int64)
    days = ints[DAYS]
    for trial in range(start, stop):
        w = offset + np.uint64(trial) * stride
        made = 0
        maimed = False
        dead = False
        any_infection = False
        for i in range(N_LOCATIONS):
            damage[i] = wounds[i]
            infected[i] = False
            level = _level(damage[i], capacity[i], limb[i] == 1, i == head)
            at_risk[i] = level >= 3
            maimed = maimed or level == 5
            dead = dead or level == 6
        # The day of the fight: first aid stops bleeding; without it a critical wound bleeds to death.
        for i in range(N_LOCATIONS):
            if dead or damage[i] <= 0:
                continue
            treated = False
            if ints[FIRST_AID] == 1:
                for _ in range(ints[FIRST_AID_ATTEMPTS]):
                    w, success, _, fumble = _skill(w, gamma, ints)
                    made += 1
                    if success:
                        w, healed = draw_die(w, gamma, 6)
                        made += 1
                        damage[i] = max(0, damage[i] - healed)
                        treated = True
                        break
                    if fumble:  # an extra point, and the wound open to infection
                        damage[i] += 1
                        at_risk[i] = True
            if not treated and _level(damage[i], capacity[i], limb[i] == 1, i == head) >= CRITICAL:
                dead = True
                counts[BLED_OUT] += 1
        if not dead:
            for i in range(N_LOCATIONS):
                if at_risk[i]:
                    w, roll = draw_die(w, gamma, 100)
                    made += 1
                    if roll <= ints[INFECTION_PERCENT]:
                        infected[i] = True
                        any_infection = True
        recovered = False
        if not dead:
            alive_hist[0] += 1
            recovered = _recovered(damage, infected, maimed)
            recovered_hist[0] += recovered
        next_surgery = 1
        for i in range(N_LOCATIONS):  # wound levels, kept up to date as damage changes
            levels[i] = _level(damage[i], capacity[i], limb[i] == 1, i == head)
        for day in range(1, days + 1):
            if dead:
                break
            infection = False
            critical_count = 0
            for i in range(N_LOCATIONS):
                infection = infection or infected[i]
                if levels[i] >= CRITICAL:
                    critical_count += 1
            # Surgery: up to three critical locations, then a wait (TYC-9).
            if ints[SURGERY] == 1 and critical_count > 0 and day >= next_surgery:
                operated = 0
                for i in range(N_LOCATIONS):
                    if operated >= ints[SURGERY_LOCATIONS] or dead:
                        break
                    if levels[i] < CRITICAL:
                        continue
                    operated += 1
                    w, success, critical, fumble = _skill(w, gamma, ints)
                    made += 1
                    if success:
                        w += gamma
                        made += 1
                        repaired = max(two_d6_from_draw(mix64(w)), damage[i] - (3 * capacity[i]) // 4)
                        if critical:
                            w, extra = draw_die(w, gamma, 6)
                            made += 1
                            repaired += extra
                        damage[i] = max(0, damage[i] - repaired)
                        levels[i] = _level(damage[i], capacity[i], limb[i] == 1, i == head)
                    elif fumble:
                        if limb[i] == 1:
                            maimed = True
                        else:
                            dead = True
                            counts[SURGERY_DEATHS] += 1
                next_surgery = day + ints[SURGERY_WAIT]
                critical_count = 0
                for i in range(N_LOCATIONS):
                    if levels[i] >= CRITICAL:
                        critical_count += 1
            if dead:
                break
            # Daily healing, stopped by any infection (TYC-9).
            if not infection:
                for i in range(N_LOCATIONS):
                    if damage[i] <= 0:
                        continue
                    level = levels[i]
                    if level >= CRITICAL and limb[i] == 0 and 4 * damage[i] > 5 * capacity[i]:
                        continue  # chest or abdomen beyond 1.25 C heals only by surgery
                    w, face = draw_die(w, gamma, 6)
                    made += 1
                    penalty = ints[CRITICAL_PENALTY] + critical_count - 1 if level >= CRITICAL else 0
                    damage[i] = max(0, damage[i] - max(0, face + ints[BONUS] - penalty))
                    levels[i] = _level(damage[i], capacity[i], limb[i] == 1, i == head)
            # Weekly: infections are treated or worsen; without care, new infections.
            if day % 7 == 0:
                for i in range(N_LOCATIONS):
                    if not infected[i]:
                        continue
                    cured = False
                    if ints[TREATMENT] == 1:
                        w, cured, _, _ = _skill(w, gamma, ints)
                        made += 1
                    if cured:
                        infected[i] = False
                    else:
                        w, worse = draw_die(w, gamma, 6)
                        made += 1
                        damage[i] += worse
                        levels[i] = _level(damage[i], capacity[i], limb[i] == 1, i == head)
                if ints[WEEKLY_CHECKS] == 1:
                    for i in range(N_LOCATIONS):
                        if damage[i] > 0 and not infected[i]:
                            w, roll = draw_die(w, gamma, 100)
                            made += 1
                            if roll <= ints[LATER_PERCENT]:
                                infected[i] = True
                                any_infection = True
            # Deaths: a killing wound at any time; any critical wound from the death day on.
            for i in range(N_LOCATIONS):
                if levels[i] == 6 or (day >= ints[DEATH_DAY] and levels[i] >= CRITICAL):
                    dead = True
            if dead:
                break
            alive_hist[day] += 1
            recovered = recovered or _recovered(damage, infected, maimed)
            if recovered:
                recovered_hist[day] += 1
                # Healed for good: nothing is rolled on the days left, and every one of them
                # finds the figure alive and recovered.
                for later in range(day + 1, days + 1):
                    alive_hist[later] += 1
                    recovered_hist[later] += 1
                break
        counts[INFECTED] += any_infection
        counts[MAIMED] += maimed
        counts[DRAWS] += made
