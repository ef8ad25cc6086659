"""How the web page runs the work of a request: off the event loop, bounded, and stopped when nobody waits.

Every answer is computed on a worker thread. Sampled answers run in one of a few *slots*
(:data:`DEFAULT_SAMPLED_SLOTS` by default; the CPUs are shared among those sampling, :func:`threads_now`) and wait in a
short queue for one (a page's charts arrive together); when the queue is full too, a new one
is refused at once with HTTP 503 and a one-line reason. Exact answers (milliseconds) run on
threads of their own, so they never wait behind sampled ones. A watcher polls the connection: once the
client has gone, the sampling stops at its next block of trials
(:func:`simlab.engine.blocks.cancel_on`) and the slot is free again.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Callable, Sequence
from typing import Any

import anyio
from fastapi import Request
from fastapi.responses import Response

from simlab.engine.blocks import Cancelled, cancel_on
from simlab.engine.bounds import default_threads
from simlab.inputs.errors import SimlabError

__all__ = ["WorkRunner", "BusyError", "DEFAULT_SAMPLED_SLOTS", "is_sampled", "Work", "threads_now"]

#: Sampled answers computed at once: one per CPU (each samples on one thread), at least two.
DEFAULT_SAMPLED_SLOTS = max(2, default_threads())
#: Sampled answers that may wait for a slot, per slot (a page and its charts fit).
QUEUE_PER_SLOT = 8
#: Exact answers computed at once (each takes milliseconds).
EXACT_THREADS = 8
#: Seconds between two looks at whether the client is still there.
WATCH_SECONDS = 0.1

Work = Callable[[Callable[[int], None]], Response]
#: The threads the work on this thread may sample on (set by :meth:`WorkRunner.run`).
_THREADS: contextvars.ContextVar[int] = contextvars.ContextVar("threads", default=1)


def threads_now() -> int:
    """The threads a sampled answer computed now may use: the CPUs shared among the answers sampled at once.

    A lone designer's battle samples on every CPU; ten requests at once sample on one thread each.
    The result is the same for any count (counter-based streams).
    """
    return _THREADS.get()


class BusyError(SimlabError):
    """Every slot for sampled work is taken (HTTP 503)."""


def is_sampled(items: Sequence[tuple[str, str]], sampled_only: bool) -> bool:
    """Whether a query's answer is sampled: its ``method`` (default exact), or a question only sampling answers."""
    return sampled_only or dict(items).get("method", "exact") != "exact"


class WorkRunner:
    """The answers being computed by one application, and the bounds on them.

    Args:
        sampled_slots: Sampled answers computed at once; :data:`QUEUE_PER_SLOT` times as many more may
            wait for a slot, and any beyond those are refused with 503.
    """

    def __init__(self, sampled_slots: int = DEFAULT_SAMPLED_SLOTS) -> None:
        self.sampled_slots = sampled_slots
        self.most_admitted = sampled_slots * (1 + QUEUE_PER_SLOT)
        self.running: dict[int, int] = {}  # answers being computed now → trials sampled so far (/api/status)
        self._admitted = 0  # sampled answers running or waiting (counted on the event loop only)
        self._stops: set[threading.Event] = set()
        self.closing = False
        self._limiters: dict[bool, anyio.CapacityLimiter] = {}
        self._sampling = 0  # sampled answers computing now (on worker threads)
        self._lock = threading.Lock()

    def _limiter(self, sampled: bool) -> anyio.CapacityLimiter:
        if sampled not in self._limiters:  # made on the event loop, on first use
            self._limiters[sampled] = anyio.CapacityLimiter(self.sampled_slots if sampled else EXACT_THREADS)
        return self._limiters[sampled]

    async def run(self, request: Request, work: Work, *, sampled: bool) -> Response:
        """Run ``work`` on a worker thread, stopping it if the client goes away.

        ``work`` gets a progress callback (trials done so far, shown by ``/api/status``).

        Raises:
            BusyError: When ``sampled`` and every slot is taken.
        """
        if self.closing:
            raise BusyError("the server is stopping")
        if sampled:
            if self._admitted >= self.most_admitted:
                raise BusyError(
                    f"busy: {self._admitted} sampled answers are being computed or waiting; try again in a moment "
                    "(exact answers are not held up)"
                )
            self._admitted += 1
        stop = threading.Event()
        token = id(stop)

        def progress(done: int) -> None:
            self.running[token] = done

        def guarded() -> Response:
            with self._lock:
                self._sampling += sampled
                share = max(1, default_threads() // max(1, self._sampling))
            token_threads = _THREADS.set(share if sampled else 1)
            try:
                with cancel_on(stop):
                    return work(progress)
            finally:
                _THREADS.reset(token_threads)
                with self._lock:
                    self._sampling -= sampled

        async def watch() -> None:
            while not await request.is_disconnected():
                await asyncio.sleep(WATCH_SECONDS)
            stop.set()

        self.running[token] = 0
        self._stops.add(stop)
        watcher = asyncio.ensure_future(watch())
        try:
            return await anyio.to_thread.run_sync(guarded, limiter=self._limiter(sampled))
        except Cancelled:
            return Response(status_code=499)  # nobody is left to read it
        finally:
            stop.set()  # a request cancelled by the server's shutdown stops its sampling too
            watcher.cancel()
            self._stops.discard(stop)
            self.running.pop(token, None)
            if sampled:
                self._admitted -= 1

    def stop_all(self) -> None:
        """Call off every answer being computed or waiting, and refuse new ones: the server is stopping."""
        self.closing = True
        for stop in list(self._stops):
            stop.set()

    def status(self) -> dict[str, Any]:
        """What ``/api/status`` says of the work."""
        return {
            "running": len(self.running),
            "trials_done": sorted(self.running.values(), reverse=True),
            "sampled_slots": self.sampled_slots,
            "sampled_admitted": self._admitted,
        }
