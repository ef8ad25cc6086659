"""Blocks of trials on a Dask cluster (the ``simlab[cluster]`` extra), bit-identical to the threads.

``--scheduler tcp://host:8786`` connects to a running Dask scheduler; ``--scheduler local:N``
starts a ``LocalCluster`` of N worker processes (one thread each) for the command and stops it
after. While :func:`scheduler` is active, :func:`simlab.engine.blocks.run_blocks` sends the
blocks of every sampled cell to the cluster instead of its threads: consecutive blocks go
together as one task (so that scheduling costs little beside the sampling), the tallies come
back as int64 arrays and are summed in the order of the blocks (exact cells travel in chunks
too: :mod:`simlab.workflow.runner`). Every trial's randomness is a
pure function of (seed, cell, trial), so the sums equal the threads' to the last bit for any
number of workers, and a task whose worker dies is simply run again elsewhere.

Dask is imported only when a scheduler is asked for.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import re
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from typing import Any

import numpy as np

from simlab.errors import SimlabError
from simlab.text import is_digits

__all__ = [
    "scheduler",
    "parse_address",
    "current_client",
    "run_blocks_on_cluster",
    "worker_versions",
    "task_overhead_seconds",
    "TASK_TRIALS",
]

#: Trials one task samples at least (its blocks run one after another on a worker): about a
#: tenth of a second of the quickest kernels, so the scheduler's few milliseconds a task are small.
TASK_TRIALS = 1 << 20
_CLIENT: ContextVar[Any] = ContextVar("simlab_dask_client", default=None)
#: The packages whose versions must agree between this process and every worker.
_CHECKED = ("simlab", "numpy", "numba")
CONNECT_SECONDS = 5
#: Dask settings of a ``local:N`` cluster: its servers share this machine's cores with the
#: sampling, so the workers do not profile themselves and the housekeeping ticks seldom.
LOCAL_CLUSTER_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "1s",
}


def current_client() -> Any:
    """The Dask client blocks are sent to (None: the local threads)."""
    return _CLIENT.get()


def worker_versions() -> dict[str, str]:
    """The versions of the packages results depend on, in the process that runs this."""
    return {name: importlib.metadata.version(name) for name in _CHECKED}


@contextlib.contextmanager
def scheduler(address: str | None) -> Iterator[Any]:
    """Send sampling to the Dask scheduler at ``address`` (``tcp://...`` or ``local:N``) inside the block.

    Args:
        address: The scheduler, or None for the local threads (nothing changes).

    Raises:
        SimlabError: When the extra is not installed, the address is malformed, the scheduler
            cannot be reached within a few seconds, or a worker runs other versions.
    """
    if not address:
        yield None
        return
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        raise SimlabError("--scheduler needs the cluster extra: pip install 'simlab[cluster]'") from None
    kind, value = parse_address(address)
    with contextlib.ExitStack() as stack:
        if kind == "local":
            stack.enter_context(dask.config.set(LOCAL_CLUSTER_CONFIG))  # read by the servers and workers as they start
            try:
                cluster = stack.enter_context(
                    LocalCluster(
                        n_workers=int(value),
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address=None,
                        silence_logs=50,
                    )
                )
            except (OSError, RuntimeError) as exc:  # e.g. a script without ``if __name__ == "__main__":``
                raise SimlabError(f"could not start {address} (a LocalCluster of worker processes): {exc}") from None
            client = stack.enter_context(Client(cluster))
        else:
            _probe(str(value))
            try:
                client = stack.enter_context(Client(str(value), timeout=CONNECT_SECONDS))
            except (OSError, TimeoutError) as exc:
                raise SimlabError(f"cannot reach the Dask scheduler at {value}: {exc}") from None
        _check_versions(client, address)
        token = _CLIENT.set(client)
        try:
            yield client
        finally:
            _CLIENT.reset(token)


#: ``tcp://HOST:PORT``: a host name, an IPv4 address or a bracketed IPv6 address, and a port.
_TCP = re.compile(r"tcp://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9.\-]*):(?P<port>[0-9]{1,5})")
#: Seconds a scheduler has to answer who it is (connecting included).
PROBE_SECONDS = 6.0


def parse_address(address: str) -> tuple[str, int | str]:
    """``("local", N)`` for ``local:N``, ``("tcp", "tcp://HOST:PORT")`` for a scheduler's address.

    Raises:
        SimlabError: One line for every other form, saying what is valid.
    """
    text = address.strip()
    shown = repr(text[:100] + ("..." if len(text) > 100 else ""))
    if text.startswith("local:"):
        count = text.removeprefix("local:")
        if not is_digits(count) or len(count) > 3 or not 1 <= int(count) <= 256:
            raise SimlabError(f"invalid --scheduler {shown}: local:N takes N from 1 to 256 worker processes")
        return "local", int(count)
    scheme = text.partition("://")[0] if "://" in text else ""
    if scheme != "tcp" and re.fullmatch(r"[A-Za-z][A-Za-z0-9+.\-]{0,19}", scheme):
        raise SimlabError(
            f"invalid --scheduler {shown}: simlab connects to a scheduler by tcp://HOST:PORT "
            f"(not {scheme}://), or starts local:N worker processes"
        )
    match = _TCP.fullmatch(text)
    if match is None or not 1 <= int(match.group("port")) <= 65535:
        raise SimlabError(f"invalid --scheduler {shown}: expected tcp://HOST:PORT (PORT 1 to 65535) or local:N")
    return "tcp", text


def _probe(address: str) -> None:
    """Ask the endpoint at ``address`` who it is, within :data:`PROBE_SECONDS`.

    A port where something else listens (a web server, a silent socket) would keep a Dask
    client waiting without end; this asks once, with a deadline.

    Raises:
        SimlabError: When nothing answers in time, or what answers is not a Dask scheduler.
    """
    import asyncio
    import socket

    from distributed.comm import connect

    host, _, port = address.removeprefix("tcp://").rpartition(":")
    try:  # a refused connection is known at once; Dask's connect would retry it until its timeout
        socket.create_connection((host.strip("[]"), int(port)), timeout=PROBE_SECONDS - 1).close()
    except ConnectionRefusedError:
        raise SimlabError(f"cannot reach the Dask scheduler at {address}: nothing listens there") from None
    except OSError:
        pass  # unreachable or unknown: the probe below says so within its deadline

    async def identity() -> Any:
        comm = await connect(address, timeout=PROBE_SECONDS - 1)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    try:
        reply = asyncio.run(asyncio.wait_for(identity(), PROBE_SECONDS))
    except TimeoutError:
        raise SimlabError(
            f"no Dask scheduler answered at {address} within {PROBE_SECONDS:g} s (is it the scheduler's address?)"
        ) from None
    except OSError as exc:
        raise SimlabError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    except Exception as exc:  # whatever a stranger sends back, it is not a scheduler
        raise SimlabError(f"{address} is not a Dask scheduler ({type(exc).__name__})") from None
    kind = reply.get("type") if isinstance(reply, dict) else None
    if kind != "Scheduler":
        raise SimlabError(f"{address} is not a Dask scheduler (it answers as {kind or 'something else'})")


def _check_versions(client: Any, address: str) -> None:
    """Refuse workers whose simlab, numpy or numba differ from this process's."""
    here = worker_versions()
    for worker, versions in client.run(worker_versions).items():
        differ = [
            f"{name} {versions.get(name)} (here {here[name]})" for name in _CHECKED if versions.get(name) != here[name]
        ]
        if differ:
            raise SimlabError(f"the worker {worker} of {address} runs other versions: {', '.join(differ)}")


def _run_chunk(block_fn: Callable[[int, int], Sequence[np.ndarray]], bounds: list[tuple[int, int]]) -> list[np.ndarray]:
    """One task: consecutive blocks on one worker, their tallies summed."""
    total: list[np.ndarray] | None = None
    for start, stop in bounds:
        part = [np.asarray(t, dtype=np.int64) for t in block_fn(start, stop)]
        total = part if total is None else [a + b for a, b in zip(total, part, strict=True)]
    assert total is not None
    return total


def run_blocks_on_cluster(
    client: Any,
    block_fn: Callable[[int, int], Sequence[np.ndarray]],
    bounds: list[tuple[int, int]],
    progress: Callable[[int], None] | None = None,
) -> tuple[np.ndarray, ...]:
    """The summed tallies of ``bounds`` (``(start, stop)`` blocks), computed by the cluster's workers.

    Args:
        client: The Dask client.
        block_fn: Runs trials ``[start, stop)`` and returns int64 tallies (it must pickle).
        bounds: The blocks, in order.
        progress: Called with the trials done so far as tasks complete.
    """
    from distributed import as_completed

    chunks: list[list[tuple[int, int]]] = [[]]
    for start, stop in bounds:
        if sum(b - a for a, b in chunks[-1]) >= TASK_TRIALS:
            chunks.append([])
        chunks[-1].append((start, stop))
    # The block function is small (a kernel and its cell's parameters): it travels with each task.
    futures = [client.submit(_run_chunk, block_fn, chunk, pure=False) for chunk in chunks]
    trials = {future.key: sum(b - a for a, b in chunk) for future, chunk in zip(futures, chunks, strict=True)}
    done = 0
    for future in as_completed(futures):
        done += trials[future.key]
        if progress:
            progress(done)
    results = client.gather(futures)  # in the order of the blocks
    total = [np.array(t, dtype=np.int64) for t in results[0]]
    for part in results[1:]:
        for acc, add in zip(total, part, strict=True):
            acc += add
    return tuple(total)


def _nothing(index: int) -> int:
    """A task that does nothing: what the scheduler costs by itself."""
    return index


def task_overhead_seconds(client: Any, tasks: int = 200) -> float:
    """Wall seconds a task costs beside its work: ``tasks`` empty tasks submitted and gathered."""
    import time

    client.gather(client.map(_nothing, range(20), pure=False))  # the workers are awake
    started = time.perf_counter()
    client.gather(client.map(_nothing, range(tasks), pure=False))
    return (time.perf_counter() - started) / tasks
