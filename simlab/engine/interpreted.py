"""Kernels run by the interpreter: the plain reference of a compiled sampler (docs/architecture.md, principle 3).

:func:`interpreted` gives the pure-Python function of a numba kernel in which every compiled
function it calls (dice, the stream's mixer, wound levels) is itself interpreted, so the
uint64 stream positions stay numpy scalars throughout, exactly as in the compiled code.
The reference then takes the very same draws and must give the very same tallies; tests
compare the two and ``simlab bench`` times them side by side.
"""

from __future__ import annotations

import importlib
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba.core.registry import CPUDispatcher

from simlab.engine.rng import StreamKey

__all__ = ["interpreted", "run_interpreted", "block_functions", "register_twins", "Twins", "TWINS"]


_TWINS: dict[Any, Callable[..., Any]] = {}


def interpreted(kernel: Any) -> Callable[..., Any]:
    """The pure-Python twin of a compiled ``kernel``, calling interpreted twins of its helpers."""
    if kernel in _TWINS:
        return _TWINS[kernel]
    source = kernel.py_func
    scope: dict[str, Any] = dict(source.__globals__)
    twin = types.FunctionType(source.__code__, scope, source.__name__, source.__defaults__, source.__closure__)
    _TWINS[kernel] = twin
    for name in source.__code__.co_names:
        if isinstance(scope.get(name), CPUDispatcher):
            scope[name] = interpreted(scope[name])
    return twin


def run_interpreted(kernel: Any, *args: Any) -> None:
    """Call the interpreted twin of ``kernel``; uint64 arithmetic wraps as in compiled code."""
    with np.errstate(over="ignore"):
        interpreted(kernel)(*args)


class _BlockFunction:
    """Tallies of trials ``[start, stop)`` of a kernel, compiled or by its interpreted twin.

    It pickles by reference (the kernel's module and name), so a task of a Dask cluster
    carries a few bytes rather than the kernel's source, and the workers use the kernel
    their own import compiled (numba's cache).
    """

    def __init__(
        self,
        kernel: Any,
        arguments: Callable[[Any], tuple[Any, ...]],
        new_tallies: Callable[[Any], tuple[Any, ...]],
        plain: bool,
    ) -> None:
        self.kernel = kernel
        self.arguments = arguments
        self.new_tallies = new_tallies
        self.plain = plain
        how = "source run in the interpreter (the plain reference)" if plain else "compiled kernel"
        self.__doc__ = f"Tallies of trials [start, stop) by {kernel.__name__}'s {how}."

    def __call__(self, subject: Any, key: StreamKey, start: int, stop: int) -> Any:
        tallies = self.new_tallies(subject)
        arguments = (np.uint64(key.offset), np.uint64(key.gamma), start, stop, *self.arguments(subject), *tallies)
        if self.plain:
            run_interpreted(self.kernel, *arguments)
        else:
            self.kernel(*arguments)
        return tallies

    def __reduce__(self) -> tuple[Any, ...]:
        where = (self.kernel.py_func.__module__, self.kernel.__name__)
        return (_rebuild_block_function, (*where, self.arguments, self.new_tallies, self.plain))


def _rebuild_block_function(
    module: str, name: str, arguments: Callable[..., Any], new_tallies: Callable[..., Any], plain: bool
) -> _BlockFunction:
    """A block function unpickled: its kernel looked up in its module."""
    return _BlockFunction(getattr(importlib.import_module(module), name), arguments, new_tallies, plain)


@dataclass(frozen=True)
class Twins:
    """A kernel's compiled block function, its twins, and the subjects they are checked on.

    Attributes:
        name: ``module:kernel``.
        compiled: The compiled block function ``(subject, key, start, stop) -> tallies``.
        references: The twins of a subject, each ``(subject, key, start, stop) -> tallies``: the
            kernel's own source run by the interpreter, or references written apart from it in
            plain Python and numpy (some only for some subjects).
        examples: Builds resolved subjects (every branch worth checking) to run them all on.
    """

    name: str
    compiled: Callable[..., Any]
    references: Callable[[Any], Sequence[Callable[..., Any]]]
    examples: Callable[[], Sequence[Any]]


#: Every kernel's twins, registered by :func:`block_functions` as its module is imported.
TWINS: dict[str, Twins] = {}


def block_functions(
    kernel: Any,
    arguments: Callable[[Any], tuple[Any, ...]],
    new_tallies: Callable[[Any], tuple[Any, ...]],
    examples: Callable[[], Sequence[Any]],
) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The compiled block function of a kernel and its interpreted twin, registered in :data:`TWINS`.

    The kernel is called as ``kernel(offset, gamma, start, stop, *arguments(subject), *tallies)``
    and adds into ``tallies = new_tallies(subject)``. Both returned functions take
    ``(subject, key, start, stop)`` and return the tallies of trials ``[start, stop)``. One test
    battery runs every registered pair on its ``examples`` and finds the tallies equal.
    """
    compiled = _BlockFunction(kernel, arguments, new_tallies, plain=False)
    plain = _BlockFunction(kernel, arguments, new_tallies, plain=True)
    register_twins(f"{kernel.py_func.__module__}:{kernel.__name__}", compiled, lambda subject: (plain,), examples)
    return compiled, plain


def register_twins(
    name: str,
    compiled: Callable[..., Any],
    references: Callable[[Any], Sequence[Callable[..., Any]]],
    examples: Callable[[], Sequence[Any]],
) -> None:
    """Register a kernel's block function with its twins and the subjects worth checking them on.

    Args:
        name: ``module:kernel`` of the compiled kernel.
        compiled: Its block function ``(subject, key, start, stop) -> tallies``.
        references: The twins of a subject, each taking the same arguments and giving the same tallies.
        examples: Builds the resolved subjects to run them on.
    """
    TWINS[name] = Twins(name, compiled, references, examples)
