"""One task for each of several experiments, on every core, with one progress display.

``simlab run``, ``simlab baseline`` and ``simlab regress`` do the same work for each
experiment they are given (run it; write, keep or check its table). The experiments are
independent, so :func:`run_tasks` gives them to worker processes (``processes`` at a time,
largest first so that the last one to finish is a short one) or, with one process, does
them here. Results do not depend on the number of processes: every cell's randomness is a
pure function of the experiment's seed and the cell (docs/architecture.md, principle 2).

Workers report to the parent through a queue: an experiment started, so many units of it
done, it ended. :class:`JobDisplay` shows them as one tqdm bar for the whole job on a
terminal, or as a line when each experiment starts and ends elsewhere (logs), and closes
with the whole job's time. Every time printed is wall-clock time of everything the step
did, writing included.
"""

from __future__ import annotations

import contextlib
import importlib
import multiprocessing
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing.context import BaseContext
from typing import Any, Generic, TypeVar

import click
from tqdm import tqdm

from simlab.about import STARTED

__all__ = ["Task", "JobDisplay", "Workers", "run_tasks", "default_processes", "since_start", "seconds_text"]

R = TypeVar("R")

#: A worker's channel to the parent (set in each worker process).
_CHANNEL: Any = None


@dataclass(frozen=True)
class Task:
    """One experiment's share of a job: what a worker needs to do it (picklable).

    Attributes:
        name: The experiment's name.
        path: Its file.
        units: Its units of progress (cells × methods × rule sets).
        cells: Its grid cells.
        weight: How long it is expected to take (its last time, when known): tasks start
            heaviest first.
    """

    name: str
    path: Any
    units: int
    cells: int
    weight: float = 0.0


@dataclass(frozen=True)
class Done(Generic[R]):
    """A task's result and the wall time it took in its worker, writing included."""

    result: R
    seconds: float


#: A task's work: (task, options, progress callback) → a picklable result.
Work = Callable[[Task, Any, Callable[[int], None]], R]


def since_start() -> float:
    """Seconds since simlab was imported: the whole job's time, start-up included."""
    return time.perf_counter() - STARTED


def seconds_text(seconds: float) -> str:
    """A time as printed: hundredths below 10 s (so short steps are not off by a rounding), tenths above."""
    return f"{seconds:.2f} s" if seconds < 10 else f"{seconds:.1f} s"


def default_processes(tasks: int) -> int:
    """One process per CPU, never more than there are tasks."""
    cpus = multiprocessing.cpu_count()
    return max(1, min(cpus, tasks))


class _Bar(tqdm):
    """tqdm without its monitor thread: worker processes are forked after the bar exists, from one thread."""

    monitor_interval = 0


class JobDisplay:
    """The progress of a whole job: a bar on a terminal, a line per start and end elsewhere.

    Args:
        verb: What the job does, for the bar (``run``, ``baseline``, ``regress``).
        tasks: The job's tasks.
        interactive: A terminal (default: whether stderr is one).
        quiet_start: No start lines (for jobs that print nothing per experiment).
    """

    def __init__(
        self, verb: str, tasks: Sequence[Task], *, interactive: bool | None = None, quiet_start: bool = False
    ) -> None:
        self.interactive = sys.stderr.isatty() if interactive is None else interactive
        self.quiet_start = quiet_start
        self.cells = {task.name: task.cells for task in tasks}
        self.running: list[str] = []
        self.ended: set[str] = set()
        self.bar: tqdm[Any] | None = None
        if self.interactive:
            self.bar = _Bar(
                total=sum(task.units for task in tasks),
                desc=f"simlab {verb}",
                unit="cell",
                file=sys.stderr,
                dynamic_ncols=True,
                leave=False,
            )

    def start(self, name: str) -> None:
        """An experiment began (a start that arrives after its end, from a very short task, is dropped)."""
        if name in self.ended:
            return
        self.running.append(name)
        if self.bar is not None:
            self.bar.set_postfix_str(", ".join(self.running), refresh=True)
        elif not self.quiet_start:
            click.echo(f"{name}: started, {self.cells.get(name, 0):,} cells")

    def advance(self, units: int) -> None:
        """Some units of work were done."""
        if self.bar is not None:
            self.bar.update(units)

    def finish(self, name: str, line: str | None) -> None:
        """An experiment ended; ``line`` says what it did (its start is shown first if its message is late)."""
        if name not in self.running and name not in self.ended:
            self.start(name)
        self.ended.add(name)
        if name in self.running:
            self.running.remove(name)
        if self.bar is not None:
            self.bar.set_postfix_str(", ".join(self.running), refresh=False)
            if line:
                self.bar.write(line, file=sys.stdout)
        elif line:
            click.echo(line)

    def close(self, line: str | None = None) -> None:
        """The job ended: the closing line (with the whole job's time)."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None
        if line:
            click.echo(line)


class Workers:
    """The worker processes of a job, each ready for work when it starts.

    A worker's start-up (simlab's writers imported, numba's first kernel, matplotlib's fonts
    and the report templates: a second or two) would otherwise be paid by the first task
    of every worker. Forked workers inherit it from the parent, which does it once before
    forking; workers of a fresh interpreter (forkserver, spawn) do it in their initializer.
    Use as a context manager: leaving it on an error stops the workers at once.

    Args:
        processes: Worker processes (at least 2).
        warm_up: ``"module:function"`` called once for the workers (None: nothing); a forkserver
            preloads its module.
    """

    def __init__(self, processes: int, warm_up: str | None = None) -> None:
        self.processes = processes
        context = _context([warm_up.partition(":")[0]] if warm_up else [])
        if warm_up and context.get_start_method() == "fork":
            _warm_up(warm_up)
            warm_up = None
        self.channel = context.Queue()
        self._others = set(multiprocessing.active_children())  # children that are not this pool's
        self.pool = ProcessPoolExecutor(
            max_workers=processes, mp_context=context, initializer=_init_worker, initargs=(self.channel, warm_up)
        )

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        self.close(abort=kind is not None)

    def close(self, abort: bool = False) -> None:
        """Stop the workers: after their tasks, or (``abort``) at once.

        Aborting never waits for a task: every worker this pool started is terminated,
        including one forked a moment before the stop and not yet in the executor's record
        (a signal can arrive between the two), then killed if it has not ended within half a second.
        """
        if not abort:
            try:
                self.pool.shutdown(wait=True)
            except BaseException:  # a stop while waiting for the last tasks
                self.close(abort=True)
                raise
            return
        # The executor has no public way to stop a worker in the middle of its task or start-up.
        recorded = set(getattr(self.pool, "_processes", {}).values())
        workers = recorded | (set(multiprocessing.active_children()) - self._others)
        for process in workers:
            process.terminate()
        self.pool.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + 0.5
        for process in workers:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join(0.5)


def run_tasks(
    tasks: Sequence[Task],
    work: Work[R],
    options: Any,
    *,
    processes: int,
    display: JobDisplay,
    describe: Callable[[Task, Done[R]], str | None],
    workers: Workers | None = None,
) -> list[Done[R]]:
    """Do ``work`` for every task, in worker processes when ``processes`` > 1.

    Args:
        tasks: The tasks, in the order of the results.
        work: A module-level function (it must pickle): ``work(task, options, progress)``.
        options: Passed to every call (picklable).
        processes: Worker processes; 1 does the work in this process.
        display: Where progress goes.
        describe: The line that tells a task's end (None: no line).
        workers: Workers started already (see :class:`Workers`); default: started here.

    Returns:
        Each task's result and time, in the order of ``tasks``.

    Raises:
        Exception: The first error of a task; the tasks not yet started are cancelled.
    """
    if processes <= 1 or len(tasks) <= 1:
        return [_here(task, work, options, display, describe) for task in tasks]
    if workers is None:
        with Workers(processes, _warm_up_of(work)) as started:
            return run_tasks(
                tasks, work, options, processes=processes, display=display, describe=describe, workers=started
            )
    done: dict[int, Done[R]] = {}
    order = sorted(range(len(tasks)), key=lambda i: -tasks[i].weight)  # heaviest first
    futures: dict[Future[Done[R]], int] = {workers.pool.submit(_in_worker, work, tasks[i], options): i for i in order}
    pending = set(futures)
    try:
        while pending:
            finished, pending = wait(pending, timeout=0.02, return_when=FIRST_COMPLETED)
            _drain(workers.channel, display)
            for future in finished:
                index = futures[future]
                done[index] = future.result()
                _drain(workers.channel, display)
                display.finish(tasks[index].name, describe(tasks[index], done[index]))
    except BaseException:
        for future in pending:
            future.cancel()
        raise
    return [done[i] for i in range(len(tasks))]


def _here(
    task: Task, work: Work[R], options: Any, display: JobDisplay, describe: Callable[[Task, Done[R]], str | None]
) -> Done[R]:
    display.start(task.name)
    started = time.perf_counter()
    result = Done(work(task, options, display.advance), time.perf_counter() - started)
    display.finish(task.name, describe(task, result))
    return result


def _warm_up_of(work: Callable[..., Any]) -> str | None:
    """The ``warm_up`` function beside ``work`` in its module, as ``"module:warm_up"`` (None where there is none)."""
    module = sys.modules.get(getattr(work, "__module__", ""), None)
    return f"{module.__name__}:warm_up" if module is not None and hasattr(module, "warm_up") else None


def _context(preload: list[str]) -> BaseContext:
    """``fork`` from a single-threaded parent (start-up for free); ``forkserver`` otherwise (safe with threads)."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(preload)  # the module of the work, imported once for every worker
        return context
    return multiprocessing.get_context("spawn")


def _warm_up(name: str) -> None:
    """Call the function ``"module:function"``: only a head start, so a failure is left to the task that meets it."""
    module, _, function = name.partition(":")
    with contextlib.suppress(Exception):
        getattr(importlib.import_module(module), function)()


def _init_worker(channel: Any, warm_up: str | None) -> None:
    global _CHANNEL
    # The parent stops the job: Ctrl+C in the terminal reaches every process of its group, and
    # a worker that unwound on its own would only report the interrupt as a task's error.
    # SIGTERM ends a worker at once (a forked worker inherits the parent's handler otherwise).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _CHANNEL = channel
    if warm_up:
        _warm_up(warm_up)


def _in_worker(work: Work[R], task: Task, options: Any) -> Done[R]:
    """A task in a worker process: its start, progress and time go to the parent."""
    channel = _CHANNEL
    channel.put(("start", task.name, 0))
    started = time.perf_counter()
    pending = [0]
    last = [started]

    def progress(units: int) -> None:  # batched: a message at most every 0.1 s
        pending[0] += units
        now = time.perf_counter()
        if now - last[0] >= 0.1:
            channel.put(("units", task.name, pending[0]))
            pending[0] = 0
            last[0] = now

    result = work(task, options, progress)
    if pending[0]:
        channel.put(("units", task.name, pending[0]))
    return Done(result, time.perf_counter() - started)


def _drain(channel: Any, display: JobDisplay) -> None:
    """Show every message the workers have sent."""
    while True:
        try:
            kind, name, units = channel.get_nowait()
        except queue.Empty:
            return
        if kind == "start":
            display.start(name)
        else:
            display.advance(units)
