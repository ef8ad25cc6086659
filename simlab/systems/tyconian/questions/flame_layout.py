"""The layout of the flame kernel's arrays: the index of every entry, shared by the code that packs them."""

from __future__ import annotations

__all__ = [
    "STUN",
    "INCAPACITATED",
    "KILLED",
    "BURNING",
    "LOCATION_HITS",
    "LOCATION_HITS_SQ",
    "DRAWS",
    "N_FLAME_COUNTS",
]

# Indices of the ``counts`` tally.
STUN, INCAPACITATED, KILLED, BURNING, LOCATION_HITS, LOCATION_HITS_SQ, DRAWS = range(7)
N_FLAME_COUNTS = 7
