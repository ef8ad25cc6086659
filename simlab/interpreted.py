"""Kernels run by the interpreter: the plain reference of a compiled sampler (DESIGN.md principle 3).

:func:`interpreted` gives the pure-Python function of a numba kernel in which every compiled
function it calls (dice, the stream's mixer, wound levels) is itself interpreted, so the
uint64 stream positions stay numpy scalars throughout, exactly as in the compiled code.
The reference then takes the very same draws and must give the very same tallies; tests
compare the two and ``simlab bench`` times them side by side.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import numpy as np
from numba.core.registry import CPUDispatcher

__all__ = ["interpreted", "run_interpreted"]


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
