"""The key of each cell's random stream, spawned from one root seed (docs/architecture.md, principle 2).

A cell's stream is the Weyl sequence ``offset + n * gamma`` whose positions the SplitMix64
output function turns into draws (:mod:`simlab.engine.rng`, compiled). The key is all a block of
trials needs to know of its randomness, so it is computed here, without the compiler.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["StreamKey", "stream_key"]


@dataclass(frozen=True)
class StreamKey:
    """The key of one cell's stream: the Weyl sequence ``offset + n * gamma``.

    Attributes:
        offset: Start of the Weyl sequence (any 64-bit value).
        gamma: Odd increment with well-spread bits.
    """

    offset: int
    gamma: int


def _fix_gamma(gamma: int) -> int:
    """Make a SplitMix64 increment odd and well mixed (Steele et al., ``mixGamma``)."""
    gamma |= 1
    if bin(gamma ^ (gamma >> 1)).count("1") < 24:
        gamma ^= 0xAAAAAAAAAAAAAAAA
    return gamma


def stream_key(seed: int, cell: int = 0) -> StreamKey:
    """Spawn the stream key of one cell from the root seed.

    Args:
        seed: The run's root seed (a non-negative integer).
        cell: Index of the scenario cell in the run.

    Returns:
        The cell's key; equal inputs always give equal keys.
    """
    if seed < 0 or cell < 0:
        raise ValueError("seed and cell must be non-negative")
    state = np.random.SeedSequence(entropy=seed, spawn_key=(cell,)).generate_state(2, np.uint64)
    return StreamKey(offset=int(state[0]), gamma=_fix_gamma(int(state[1])))
