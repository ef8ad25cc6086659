"""The layout of the melee kernel's arrays: the index of every entry, shared by the code that packs them."""

from __future__ import annotations

__all__ = [
    "STRIKE",
    "ARMED",
    "DIVING",
    "GRAPPLE",
    "HIT",
    "KNOCKDOWN",
    "STUN",
    "INCAPACITATED",
    "KILLED",
    "ATTACKER_DOWN",
    "CONTROL",
    "CONTROLLED",
    "EXCHANGES",
    "EXCHANGES_SQ",
    "DRAWS",
    "N_MELEE_COUNTS",
    "MODE",
    "SKILL",
    "SURPRISE",
    "BLOCK",
    "DICE",
    "SIDES",
    "BONUS",
    "AIMED",
    "BLUNT_POINTS",
    "ROUNDING_DOWN",
    "CRIT_MAX",
    "FAIL_MIN",
    "DEX",
    "END",
    "HEAD",
    "DIVE_ATTACK",
    "DIVE_DEFENCE",
    "DODGE",
    "ATTACKER_STR",
    "DEFENDER_STR",
    "DEFENDER_DICE",
    "DEFENDER_SKILL",
    "MAX_EXCHANGES",
    "SKILL_DIE",
    "N_INTS",
]

STRIKE, ARMED, DIVING, GRAPPLE = range(4)
# Indices of the ``counts`` tally.
(HIT, KNOCKDOWN, STUN, INCAPACITATED, KILLED, ATTACKER_DOWN, CONTROL, CONTROLLED, EXCHANGES, EXCHANGES_SQ,
 DRAWS) = range(11)  # fmt: skip
N_MELEE_COUNTS = 11
# Indices of ``ints``.
(MODE, SKILL, SURPRISE, BLOCK, DICE, SIDES, BONUS, AIMED, BLUNT_POINTS, ROUNDING_DOWN, CRIT_MAX, FAIL_MIN, DEX, END,
 HEAD, DIVE_ATTACK, DIVE_DEFENCE, DODGE, ATTACKER_STR, DEFENDER_STR, DEFENDER_DICE, DEFENDER_SKILL,
 MAX_EXCHANGES, SKILL_DIE) = range(24)  # fmt: skip
N_INTS = 24
