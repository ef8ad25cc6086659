"""Counter-based random streams (docs/architecture.md, principle 2).

Every random number simlab uses is a pure function of ``(root seed, cell, trial, draw)``:

* ``cell`` numbers one scenario of a run (one grid cell of an experiment);
* ``trial`` numbers the trial inside that cell;
* ``draw`` numbers the 64-bit draws that one trial makes.

A cell's :class:`StreamKey` is spawned from the root seed with numpy's ``SeedSequence``
(NEP 19: streams are spawned, never ``seed + i``). Draw ``j`` of trial ``t`` is the
SplitMix64 output at position ``t * DRAWS_PER_TRIAL_LIMIT + j`` of the cell's Weyl
sequence, so any trial can be generated without generating the ones before it. That
makes sampled results bit-identical for any thread count, block size and order of
blocks, and there is no global random state anywhere.

A d6 is taken from the high 32 bits of one draw by multiply-shift; its bias is below
``2e-9`` relative, far beneath what any run can detect. Where a system rolls 2d6 as one
unit, one draw gives both dice: one from its high and one from its low 32 bits.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from simlab.engine.bounds import DRAWS_PER_TRIAL_LIMIT, MAX_TRIALS_PER_CELL
from simlab.engine.streams import StreamKey, stream_key

__all__ = [
    "DRAWS_PER_TRIAL_LIMIT",
    "MAX_TRIALS_PER_CELL",
    "StreamKey",
    "stream_key",
    "mix64_py",
    "draw_py",
    "die_py",
    "mix64",
    "die_from_draw",
    "draw_die",
    "draw_2d6",
    "trial_position",
    "raw_draws",
    "mix64_np",
    "die_np",
    "two_d6_from_draw",
    "two_d6_py",
    "two_d6_np",
    "TrialDraws",
    "VectorDraws",
]


_MASK64 = (1 << 64) - 1
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB


@njit(inline="always")
def mix64(z: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    """SplitMix64 output function (Stafford's variant 13)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_M1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_M2)
    return z ^ (z >> np.uint64(31))


@njit(inline="always")
def trial_position(offset: np.uint64, gamma: np.uint64, trial: np.int64) -> np.uint64:  # pragma: no cover
    """Weyl-sequence position just before the first draw of ``trial``."""
    return offset + np.uint64(trial) * np.uint64(DRAWS_PER_TRIAL_LIMIT) * gamma


@njit(inline="always")
def die_from_draw(x: np.uint64, sides: np.int64) -> np.int64:  # pragma: no cover - compiled
    """Face 1..sides from the high 32 bits of one draw (multiply-shift)."""
    return np.int64(((x >> np.uint64(32)) * np.uint64(sides)) >> np.uint64(32)) + 1


@njit(inline="always")
def draw_die(w: np.uint64, gamma: np.uint64, sides: np.int64) -> tuple[np.uint64, np.int64]:  # pragma: no cover
    """The next draw of a trial's window as a d``sides``: (position, face)."""
    w += gamma
    return w, die_from_draw(mix64(w), sides)


def mix64_py(z: int) -> int:
    """Pure-Python SplitMix64 output function, bit-identical to the compiled one."""
    z = ((z ^ (z >> 30)) * _M1) & _MASK64
    z = ((z ^ (z >> 27)) * _M2) & _MASK64
    return z ^ (z >> 31)


def draw_py(key: StreamKey, trial: int, draw: int) -> int:
    """Draw ``draw`` (0-based) of ``trial``, in pure Python: the specification of the stream."""
    position = key.offset + (trial * DRAWS_PER_TRIAL_LIMIT + draw + 1) * key.gamma
    return mix64_py(position & _MASK64)


_LOW32 = 0xFFFFFFFF


@njit(inline="always")
def two_d6_from_draw(x: np.uint64) -> np.int64:  # pragma: no cover - compiled
    """2d6 from one draw: a die from the high and a die from the low 32 bits (multiply-shift)."""
    high = ((x >> np.uint64(32)) * np.uint64(6)) >> np.uint64(32)
    low = ((x & np.uint64(_LOW32)) * np.uint64(6)) >> np.uint64(32)
    return np.int64(high + low) + 2


@njit(inline="always")
def draw_2d6(w: np.uint64, gamma: np.uint64) -> tuple[np.uint64, np.int64]:  # pragma: no cover - compiled
    """The next draw of a trial's window as 2d6: (position, total)."""
    w += gamma
    return w, two_d6_from_draw(mix64(w))


def two_d6_py(x: int) -> int:
    """Pure-Python twin of :func:`two_d6_from_draw`."""
    return (((x >> 32) * 6) >> 32) + (((x & _LOW32) * 6) >> 32) + 2


def two_d6_np(positions: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
    """2d6 from the draws at the given stream positions (numpy twin of :func:`two_d6_from_draw`)."""
    x = mix64_np(positions)
    high = ((x >> np.uint64(32)) * np.uint64(6)) >> np.uint64(32)
    low = ((x & np.uint64(_LOW32)) * np.uint64(6)) >> np.uint64(32)
    return (high + low).astype(np.int64) + 2


def mix64_np(z: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """Vectorised numpy SplitMix64 output function, bit-identical to the compiled one."""
    with np.errstate(over="ignore"):
        z = (z ^ (z >> np.uint64(30))) * np.uint64(_M1)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(_M2)
    return z ^ (z >> np.uint64(31))


def die_np(positions: npt.NDArray[np.uint64], sides: int) -> npt.NDArray[np.int64]:
    """Faces 1..sides of the draws at the given stream positions (numpy twin of ``die_from_draw``)."""
    x = mix64_np(positions)
    return (((x >> np.uint64(32)) * np.uint64(sides)) >> np.uint64(32)).astype(np.int64) + 1


def die_py(x: int, sides: int) -> int:
    """Pure-Python twin of the compiled ``die_from_draw``."""
    return (((x >> 32) * sides) >> 32) + 1


@njit(cache=True, nogil=True, error_model="numpy")
def raw_draws(offset: np.uint64, gamma: np.uint64, count: int) -> np.uint64:  # pragma: no cover
    """Generate ``count`` consecutive draws of a stream and fold them together.

    The generator's own throughput, with nothing else to do (``simlab bench``).
    """
    folded = np.uint64(0)
    w = offset
    for _ in range(count):
        w += gamma
        folded ^= mix64(w)
    return folded


class TrialDraws:
    """The draws of one trial, in order, in pure Python: the specification the kernels follow.

    Attributes:
        next: Position (0-based) of the trial's next draw.
        made: Draws used so far (less than ``next`` where a layout leaves places unused).
    """

    def __init__(self, key: StreamKey, trial: int, first: int = 0) -> None:
        """Start at draw ``first`` of ``trial`` of the stream ``key``."""
        self.key, self.trial, self.next, self.made = key, trial, first, 0

    def _draw(self) -> int:
        x = draw_py(self.key, self.trial, self.next)
        self.next += 1
        self.made += 1
        return x

    def die(self, sides: int) -> int:
        """One die of ``sides`` faces (one draw)."""
        return die_py(self._draw(), sides)

    def d6(self) -> int:
        """One d6 (one draw)."""
        return self.die(6)

    def dice(self, count: int) -> int:
        """The sum of ``count`` dice, one draw each (``dice(3)`` is 3d6)."""
        return sum(self.d6() for _ in range(count))

    def two_d6(self) -> int:
        """2d6 from one draw (:func:`two_d6_from_draw`)."""
        return two_d6_py(self._draw())

    def skip(self) -> None:
        """Leave the next place unused."""
        self.next += 1


class VectorDraws:
    """The numpy twin of :class:`TrialDraws`: many trials at once, each draw at its stream position."""

    def __init__(self, key: StreamKey, start: int, stop: int, first: int = 0) -> None:
        """Trials ``start .. stop - 1`` of the stream ``key``, each at its draw ``first``."""
        trials = np.arange(start, stop, dtype=np.uint64)
        with np.errstate(over="ignore"):
            self.base = np.uint64(key.offset) + trials * np.uint64(DRAWS_PER_TRIAL_LIMIT) * np.uint64(key.gamma)
        self.gamma = np.uint64(key.gamma)
        self.next = np.full(stop - start, first, np.uint64)
        self.made = np.zeros(stop - start, np.uint64)

    def _positions(self, rows: npt.NDArray[np.intp]) -> npt.NDArray[np.uint64]:
        self.next[rows] += np.uint64(1)
        self.made[rows] += np.uint64(1)
        with np.errstate(over="ignore"):
            return self.base[rows] + self.next[rows] * self.gamma

    def die(self, rows: npt.NDArray[np.intp], sides: int) -> npt.NDArray[np.int64]:
        """One die of ``sides`` faces for each trial in ``rows`` (one draw each)."""
        return die_np(self._positions(rows), sides)

    def d6(self, rows: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
        """One d6 for each trial in ``rows``."""
        return self.die(rows, 6)

    def two_d6(self, rows: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
        """2d6 (one draw) for each trial in ``rows``."""
        return two_d6_np(self._positions(rows))

    def skip(self, rows: npt.NDArray[np.intp]) -> None:
        """Leave the next place of each trial in ``rows`` unused."""
        self.next[rows] += np.uint64(1)
