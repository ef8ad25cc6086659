"""The layout of the Tyconian kernels' arrays and their sentinel values, shared by the code that packs them."""

from __future__ import annotations

__all__ = [
    "KNOCKDOWN",
    "STUN",
    "INCAPACITATED",
    "KILLED",
    "BYSTANDERS",
    "BYSTANDERS_SQ",
    "JAMS",
    "DRAWS",
    "N_COUNTS",
    "SHOTS",
    "PER_ROUND",
    "FULL_AUTO",
    "N_LOCATIONS",
    "NO_ROLL",
]

# Indices of the ``counts`` tally.
KNOCKDOWN, STUN, INCAPACITATED, KILLED, BYSTANDERS, BYSTANDERS_SQ, JAMS, DRAWS = range(8)
N_COUNTS = 8
# Attack kinds.
SHOTS, PER_ROUND, FULL_AUTO = range(3)
N_LOCATIONS = 7
#: A skill input left blank (no dodge, no block): outside every valid skill, so never a skill.
NO_ROLL = -(1 << 62)
