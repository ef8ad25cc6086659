"""Sampling in fixed-size blocks of trials across threads (docs/architecture.md, principle 2).

A *block function* ``fn(start, stop)`` runs trials ``start .. stop - 1`` of one cell and
returns a tuple of int64 tally arrays. Because every trial's randomness depends only on
``(seed, cell, trial)`` (see :mod:`simlab.engine.rng`) and tallies are integer sums, the result
is the same for any thread count, block size and completion order. The compiled block
functions release the GIL, so plain Python threads run them in parallel; at most
``2 * threads`` blocks are in flight, so memory does not grow with the number of trials.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextvars import ContextVar
from functools import partial

import numpy as np
import numpy.typing as npt

from simlab.engine.bounds import (
    MAX_TRIALS_PER_CELL,
    ProgressFn,
    check_trials,
    default_threads,
)
from simlab.engine.cluster import current_client, run_blocks_on_cluster
from simlab.engine.streams import StreamKey, stream_key
from simlab.errors import InvalidValueError

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
    "Cancelled",
    "cancel_on",
]

#: Most trials in one block: large enough to hide the per-call overhead, small enough to balance.
DEFAULT_BLOCK_SIZE = 1 << 18
#: Fewest trials in one block chosen by the engine.
MIN_BLOCK_SIZE = 1 << 10
#: Blocks the engine aims to give each thread, so that slow trials (duels) still spread over all threads.
BLOCKS_PER_THREAD = 8

Tallies = tuple[npt.NDArray[np.int64], ...]
BlockFn = Callable[[int, int], Tallies]


def auto_block_size(trials: int, threads: int) -> int:
    """Trials per block when none is asked for: about ``BLOCKS_PER_THREAD`` blocks a thread, within bounds.

    The block size never changes the result (every trial has its own stream), only how well
    the threads share the work and how often progress is reported.
    """
    wanted = -(-trials // (BLOCKS_PER_THREAD * threads))
    return min(DEFAULT_BLOCK_SIZE, max(MIN_BLOCK_SIZE, wanted))


class Cancelled(Exception):  # noqa: N818 -- a state, as asyncio's CancelledError
    """The work was called off by whoever asked for it (a web client that went away)."""


_CANCEL: ContextVar[threading.Event | None] = ContextVar("simlab_cancel", default=None)


@contextlib.contextmanager
def cancel_on(event: threading.Event) -> Iterator[None]:
    """Inside the block, sampling stops with :class:`Cancelled` at the next block once ``event`` is set."""
    token = _CANCEL.set(event)
    try:
        yield
    finally:
        _CANCEL.reset(token)


def _check_cancelled(event: threading.Event | None) -> None:
    if event is not None and event.is_set():
        raise Cancelled


def _summed(total: list[npt.NDArray[np.int64]] | None, part: Tallies) -> list[npt.NDArray[np.int64]]:
    """``total`` with a block's tallies added (the first block's, copied, when there is none yet)."""
    if total is None:
        return [np.array(t, dtype=np.int64) for t in part]
    for acc, add in zip(total, part, strict=True):
        acc += add
    return total


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
    if threads == 1 and threading.current_thread() is not threading.main_thread():
        return _blocks_here(block_fn, bounds, progress)  # a worker thread already (a web request)
    return _blocks_on_threads(block_fn, bounds, threads, progress)


def _blocks_here(block_fn: BlockFn, bounds: Iterator[tuple[int, int]], progress: ProgressFn | None) -> Tallies:
    """The blocks one after another on this thread (``progress`` may raise to stop between blocks)."""
    total: list[npt.NDArray[np.int64]] | None = None
    done = 0
    cancel = _CANCEL.get()
    for start, stop in bounds:
        _check_cancelled(cancel)
        total = _summed(total, block_fn(start, stop))
        done += stop - start
        if progress:
            progress(done)
    assert total is not None
    return tuple(total)


def _blocks_on_threads(
    block_fn: BlockFn, bounds: Iterator[tuple[int, int]], threads: int, progress: ProgressFn | None
) -> Tallies:
    """The blocks on worker threads while this thread only waits, so that a signal stops it at once.

    On any exception here (an interrupt, or ``progress`` raising) the blocks not started are
    dropped and the running ones are left to finish on their own: nothing waits for them.
    """
    pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="simlab-block")
    total: list[npt.NDArray[np.int64]] | None = None
    done = 0
    cancel = _CANCEL.get()
    try:
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
            finished, _ = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
            _check_cancelled(cancel)
            for future in finished:
                total = _summed(total, future.result())
                done += pending.pop(future)
                if progress:
                    progress(done)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    assert total is not None
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
