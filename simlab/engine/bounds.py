"""The bounds of every sampling job, and their checks: light enough for any command to import.

A cell's random stream holds :data:`MAX_TRIALS_PER_CELL` trials of at most
:data:`DRAWS_PER_TRIAL_LIMIT` draws each (:mod:`simlab.engine.rng`); seeds are 64-bit and
threads are bounded.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from simlab.errors import InvalidValueError

__all__ = [
    "DRAWS_PER_TRIAL_LIMIT",
    "MAX_TRIALS_PER_CELL",
    "MAX_SEED",
    "MAX_THREADS",
    "default_threads",
    "check_seed",
    "check_threads",
    "check_trials",
    "ProgressFn",
]

#: Called with the trials done so far.
ProgressFn = Callable[[int], None]

#: Draws one trial may make; a trial's draws occupy one window of this many positions.
DRAWS_PER_TRIAL_LIMIT = 1 << 16
#: Trials one cell may run before its stream would wrap.
MAX_TRIALS_PER_CELL = 1 << 47


def default_threads() -> int:
    """The number of CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


#: Largest root seed (seeds are recorded as 64-bit integers).
MAX_SEED = (1 << 63) - 1
#: Most worker threads.
MAX_THREADS = 256


def check_seed(seed: int, option: str = "--seed") -> int:
    """Validate a root seed, returning it.

    Raises:
        InvalidValueError: When it is not between 0 and :data:`MAX_SEED`.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise InvalidValueError(option, seed, f"an integer from 0 to {MAX_SEED}")
    return seed


def check_threads(threads: int | None) -> int | None:
    """Validate a number of worker threads (None: all CPUs), returning it.

    Raises:
        InvalidValueError: When it is not between 1 and :data:`MAX_THREADS`.
    """
    if threads is not None and not 1 <= threads <= MAX_THREADS:
        raise InvalidValueError("--threads", threads, f"an integer from 1 to {MAX_THREADS}")
    return threads


def check_trials(trials: int) -> int:
    """Validate a number of trials, returning it.

    Raises:
        InvalidValueError: When it is not between 1 and the per-cell stream limit.
    """
    if not 1 <= trials <= MAX_TRIALS_PER_CELL:
        raise InvalidValueError("--trials", trials, f"an integer from 1 to {MAX_TRIALS_PER_CELL}")
    return trials
