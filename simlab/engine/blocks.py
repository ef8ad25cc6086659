"""Sampling in fixed-size blocks of trials across threads (docs/architecture.md, principle 2).

A *block function* ``fn(start, stop)`` runs trials ``start .. stop - 1`` of one cell and
returns a tuple of int64 tally arrays. Because every trial's randomness depends only on
``(seed, cell, trial)`` (see :mod:`simlab.engine.rng`) and tallies are integer sums, the result
is the same for any thread count, block size and completion order. The compiled block
functions release the GIL, so plain Python threads run them in parallel; at most
``2 * threads`` blocks are in flight, so memory does not grow with the number of trials.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from functools import partial

import numpy as np
import numpy.typing as npt

from simlab.engine.cluster import current_client, run_blocks_on_cluster
from simlab.engine.rng import MAX_TRIALS_PER_CELL, StreamKey, stream_key
from simlab.inputs.errors import InvalidValueError

__all__ = [
    "DEFAULT_BLOCK_SIZE",
    "MIN_BLOCK_SIZE",
    "auto_block_size",
    "Tallies",
    "BlockFn",
    "ProgressFn",
    "default_threads",
    "run_blocks",
    "check_trials",
    "sample_cell",
]

#: Most trials in one block: large enough to hide the per-call overhead, small enough to balance.
DEFAULT_BLOCK_SIZE = 1 << 18
#: Fewest trials in one block chosen by the engine.
MIN_BLOCK_SIZE = 1 << 10
#: Blocks the engine aims to give each thread, so that slow trials (duels) still spread over all threads.
BLOCKS_PER_THREAD = 8

Tallies = tuple[npt.NDArray[np.int64], ...]
BlockFn = Callable[[int, int], Tallies]
ProgressFn = Callable[[int], None]


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


def auto_block_size(trials: int, threads: int) -> int:
    """Trials per block when none is asked for: about ``BLOCKS_PER_THREAD`` blocks a thread, within bounds.

    The block size never changes the result (every trial has its own stream), only how well
    the threads share the work and how often progress is reported.
    """
    wanted = -(-trials // (BLOCKS_PER_THREAD * threads))
    return min(DEFAULT_BLOCK_SIZE, max(MIN_BLOCK_SIZE, wanted))


def _add_into(total: list[npt.NDArray[np.int64]], part: Tallies) -> None:
    for acc, add in zip(total, part, strict=True):
        acc += add


def run_blocks(
    block_fn: BlockFn,
    trials: int,
    *,
    threads: int | None = None,
    block_size: int | None = None,
    progress: ProgressFn | None = None,
    first: int = 0,
) -> Tallies:
    """Run ``trials`` trials in blocks and return the summed tallies.

    Args:
        block_fn: Runs trials ``[start, stop)`` and returns int64 tally arrays.
        trials: Number of trials (>= 1).
        first: Index of the first trial (trials ``first .. first + trials - 1`` run).
        threads: Worker threads; default: every CPU this process may use.
        block_size: Trials per block (> 0); it never changes the result. Default:
            :func:`auto_block_size`.
        progress: Called with the number of trials done after every finished block.

    Returns:
        The element-wise sum of every block's tallies.
    """
    check_trials(trials)
    if first < 0 or first + trials > MAX_TRIALS_PER_CELL:
        raise InvalidValueError("first trial", first, f"an integer from 0 to {MAX_TRIALS_PER_CELL - trials}")
    threads = default_threads() if threads is None else threads
    if threads < 1:
        raise InvalidValueError("--threads", threads, "a positive integer")
    block_size = auto_block_size(trials, threads) if block_size is None else block_size
    if block_size < 1:
        raise InvalidValueError("block_size", block_size, "a positive integer")
    end = first + trials
    client = current_client()
    if client is not None:  # a Dask cluster samples the blocks (simlab.engine.cluster)
        blocks = [(start, min(start + block_size, end)) for start in range(first, end, block_size)]
        return run_blocks_on_cluster(client, block_fn, blocks, progress)
    bounds = ((start, min(start + block_size, end)) for start in range(first, end, block_size))
    first_start, first_stop = next(bounds)
    total = [np.array(t, dtype=np.int64) for t in block_fn(first_start, first_stop)]
    done = first_stop - first
    if progress:
        progress(done)
    if threads == 1:
        for start, stop in bounds:
            _add_into(total, block_fn(start, stop))
            done += stop - start
            if progress:
                progress(done)
        return tuple(total)
    with ThreadPoolExecutor(max_workers=threads) as pool:
        pending: dict[Future[Tallies], int] = {}
        exhausted = False
        while pending or not exhausted:
            while not exhausted and len(pending) < 2 * threads:
                nxt = next(bounds, None)
                if nxt is None:
                    exhausted = True
                    break
                pending[pool.submit(block_fn, *nxt)] = nxt[1] - nxt[0]
            if not pending:
                break
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                _add_into(total, future.result())
                done += pending.pop(future)
            if progress:
                progress(done)
    return tuple(total)


def sample_cell(
    tallies: Callable[[StreamKey, int, int], Tallies],
    *,
    trials: int,
    seed: int,
    cell: int = 0,
    first_trial: int = 0,
    threads: int | None = None,
    block_size: int | None = None,
    progress: ProgressFn | None = None,
) -> Tallies:
    """Sample one cell: the tallies of trials ``first_trial ..`` of its stream.

    Args:
        tallies: Runs trials ``[start, stop)`` of the stream with the given key.
        trials: Number of trials (>= 1).
        seed: Root seed of the run.
        cell: Index of this scenario in the run (selects its stream).
        first_trial: Index of the first trial.
        threads: Worker threads (default: all CPUs); never changes the result.
        block_size: Trials per block (default: :func:`auto_block_size`); never changes the result.
        progress: Called with the number of trials done.
    """
    block = partial(tallies, stream_key(seed, cell))
    return run_blocks(block, trials, threads=threads, block_size=block_size, progress=progress, first=first_trial)
