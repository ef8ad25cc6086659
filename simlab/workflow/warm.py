"""Compile every sampler ahead of its first use: numba's cache filled once, in parallel, before the work.

A sampler is compiled on its first call in each process and kept in numba's cache beside its
module. Several processes that start at once (a test run's workers, a cluster's) would each
compile every kernel they use; :func:`compile_kernels` compiles each kernel once, the kernels
shared out among a few processes, so that every later process loads them from the cache.
"""

from __future__ import annotations

import importlib
import multiprocessing
import pkgutil
import time
from concurrent.futures import ProcessPoolExecutor

from simlab.engine.interpreted import TWINS
from simlab.engine.rng import stream_key

__all__ = ["compile_kernels", "compile_kernel", "register_all"]


def register_all() -> list[str]:
    """Import every module of the systems, so that every kernel is registered; their names, largest first.

    Battles compile longest, then duels: they go first, so that processes sharing the work end together.
    """
    systems = importlib.import_module("simlab.systems")
    for module in pkgutil.walk_packages(systems.__path__, "simlab.systems."):
        importlib.import_module(module.name)
    order = ("battle_block", "duel_block")
    return sorted(TWINS, key=lambda name: (next((i for i, s in enumerate(order) if name.endswith(s)), 2), name))


def compile_kernel(name: str) -> float:
    """Compile one registered kernel (or load it from the cache) by sampling one trial; the seconds it took."""
    register_all()
    started = time.perf_counter()
    twins = TWINS[name]
    twins.compiled(twins.examples()[0], stream_key(0, 0), 0, 1)
    return time.perf_counter() - started


def compile_kernels(processes: int = 1) -> dict[str, float]:
    """Compile every registered kernel once, shared out among ``processes`` fresh processes.

    Returns:
        The seconds each kernel took (compiling, or loading from numba's cache).
    """
    names = register_all()
    if processes <= 1:
        return {name: compile_kernel(name) for name in names}
    context = multiprocessing.get_context("spawn")  # fresh interpreters: nothing of the caller's state
    with ProcessPoolExecutor(max_workers=processes, mp_context=context) as pool:
        return dict(zip(names, pool.map(compile_kernel, names, chunksize=1), strict=True))
