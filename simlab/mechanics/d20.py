"""d20 roll-under skill rolls and the rounding of the Tyconian rules (TYC-1).

A skill roll is 1d20 against the effective skill: success on ``roll <= skill``; a roll of
``critical_success_max`` or less always succeeds and is a critical success; a roll of
``critical_failure_min`` or more always fails (TYC-1.1). "Round off" is to the nearest
whole number, halves up, or down in the other reading (TYC-1.3).
"""

from __future__ import annotations

import math

__all__ = ["ROUNDINGS", "round_off", "p_skill_success", "p_critical_success"]

#: The two readings of "round off" (TYC-1.3).
ROUNDINGS = ("nearest", "down")


def round_off(value: float, rounding: str = "nearest") -> int:
    """Round as TYC-1.3 says: to the nearest whole number with halves up, or down.

    Raises:
        ValueError: For an unknown rounding.
    """
    if rounding == "nearest":
        return math.floor(value + 0.5)
    if rounding == "down":
        return math.floor(value)
    raise ValueError(f"unknown rounding {rounding!r} (valid: {', '.join(ROUNDINGS)})")


def p_skill_success(
    skill: int, *, die: int = 20, critical_success_max: int = 1, critical_failure_min: int = 20
) -> float:
    """Chance that 1d``die`` rolls at most ``skill``, with automatic success and failure (TYC-1.1).

    Args:
        skill: The effective skill.
        die: Faces of the die.
        critical_success_max: Rolls at or below this always succeed.
        critical_failure_min: Rolls at or above this always fail.
    """
    successes = sum(
        1
        for roll in range(1, die + 1)
        if roll <= critical_success_max or (roll < critical_failure_min and roll <= skill)
    )
    return successes / die


def p_critical_success(*, die: int = 20, critical_success_max: int = 1) -> float:
    """Chance of a critical success (TYC-1.1, TYC-5.4)."""
    return max(0, min(critical_success_max, die)) / die
