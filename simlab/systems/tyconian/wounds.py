"""Wound levels per location in the Tyconian rules (TYC-6.1, TYC-6.2)."""

from __future__ import annotations

__all__ = ["WOUND_LEVELS", "capacity", "wound_code", "wound_level", "LIMBS"]

#: Wound levels in order of severity (TYC-6.2).
WOUND_LEVELS = ("none", "scratch", "slight", "serious", "critical", "amputated", "killed")
LIMBS = ("right_arm", "left_arm", "right_leg", "left_leg")


def capacity(location: str, strength: int, endurance: int) -> int:
    """Damage capacity C of a location: head ceil((STR+END)/2), chest ceil(3(STR+END)/2), others STR+END (TYC-6.1)."""
    total = strength + endurance
    if location == "head":
        return -(-total // 2)
    if location == "chest":
        return -(-3 * total // 2)
    return total


def wound_code(damage: int, cap: int, limb: bool, head: bool) -> int:
    """Index in :data:`WOUND_LEVELS` of ``damage`` points at a location of capacity ``cap`` (TYC-6.2).

    0 < d ≤ C/4 scratch; ≤ C/2 slight; ≤ 3C/4 serious; above, critical. A limb above 1.25 C is
    amputated; the head above 1.25 C is killed; above 2 C the location is destroyed, which
    kills at the head, chest and abdomen (and amputates a limb). Integer arithmetic only, so
    the compiled sampler uses this very function.
    """
    if damage <= 0:
        return 0
    if damage > 2 * cap:
        return 5 if limb else 6
    if 4 * damage > 5 * cap:
        if limb:
            return 5
        if head:
            return 6
    if 4 * damage <= cap:
        return 1
    if 2 * damage <= cap:
        return 2
    if 4 * damage <= 3 * cap:
        return 3
    return 4


def wound_level(damage: int, location: str, cap: int) -> str:
    """The wound level of ``damage`` points at a location of capacity ``cap`` (TYC-6.2), by name."""
    return WOUND_LEVELS[wound_code(damage, cap, location in LIMBS, location == "head")]
