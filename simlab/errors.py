"""Errors that simlab reports to its users (docs/architecture.md, principle 7).

Every error a user can cause is a :class:`SimlabError`: the command line prints its
message as one line, ``error: ...``, and exits with status 2. Anything else is a bug.
"""

from __future__ import annotations

import contextvars
import difflib
import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from types import MappingProxyType
from typing import Any, TypeVar

__all__ = [
    "SimlabError",
    "UnknownNameError",
    "InvalidValueError",
    "ScenarioError",
    "close_names",
    "spelled",
    "speaking",
    "in_words",
    "KEYS_SPELLING",
    "shortened",
    "shown_path",
]

F = TypeVar("F", bound=Callable[..., Any])

#: How the front end answering now names what the command line names (``--set`` → the page's
#: fields): a message is written in the command line's words, each spelled through this.
_SPELLING: contextvars.ContextVar[Mapping[str, str]] = contextvars.ContextVar(
    "spelling", default=MappingProxyType({})
)


#: How a front end without flags (the page, a Python call, an experiment file) says the command line's
#: words: its keys by name (``--set dx`` is ``dx``, ``--a skill`` is ``a.skill``). Each adds its own.
KEYS_SPELLING = MappingProxyType({
    "--set": "", "--set name": "input", "--a": "a.", "--a name": "side A input", "--b": "b.",
    "--b name": "side B input", "--rule name": "rule parameter", "--trials": "trials", "--seed": "seed",
    "--kind": "kind", "--variant": "variant", "--battle": "battle", "--target": "target", "--vary": "vary",
    "--find": "find", "--in": "in", "--metric": "metric", "--option": "options", "--trajectories": "trajectories",
    "--base": "base",
})  # fmt: skip


def spelled(words: str) -> str:
    """How the front end answering now says ``words`` of a message, written as the command line says them.

    The command line says them as written; the web page names its fields (``--set dx`` is the
    field ``dx``, ``--trials`` is ``trials``); a tournament's option names its inputs without a
    side (:func:`speaking`).
    """
    return _SPELLING.get().get(words, words)


@contextmanager
def speaking(names: Mapping[str, str]) -> Iterator[None]:
    """Messages raised within say the command line's ``names`` as the mapping says (over the outer spelling)."""
    token = _SPELLING.set(MappingProxyType({**_SPELLING.get(), **names}))
    try:
        yield
    finally:
        _SPELLING.reset(token)


def in_words(names: Mapping[str, str]) -> Callable[[F], F]:
    """A function whose messages say the command line's ``names`` as the mapping says (:func:`speaking`)."""

    def decorate(call: F) -> F:
        @functools.wraps(call)
        def spoken(*args: Any, **kwargs: Any) -> Any:
            with speaking(names):
                return call(*args, **kwargs)

        return spoken  # type: ignore[return-value]

    return decorate


def shortened(value: Any) -> Any:
    """A user's value as messages show it: text longer than 60 characters is cut (a message stays readable)."""
    return value[:57] + "..." if isinstance(value, str) and len(value) > 60 else value


def shown_path(path: object) -> str:
    """A path as messages show it: control characters escaped, a path over 200 characters cut at its start."""
    text = str(path)
    if not text.isprintable():
        text = text.encode("unicode_escape").decode("ascii")
    return "..." + text[-197:] if len(text) > 200 else text


class SimlabError(Exception):
    """A problem with the user's input; the message says what is wrong and what is valid."""


class UnknownNameError(SimlabError):
    """A name (weapon, parameter, system, table...) that does not exist."""

    def __init__(self, kind: str, name: str, valid: Iterable[str]) -> None:
        """Build the message, suggesting the closest valid names.

        Args:
            kind: What was looked up, e.g. ``"weapon"`` or ``"--set name"``.
            name: The name the user gave.
            valid: Every valid name.
        """
        kind = spelled(kind)
        valid_list = sorted(valid)
        close = close_names(name, valid_list)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        super().__init__(f"unknown {kind} {shortened(name)!r}{hint} (valid: {', '.join(valid_list)})")
        self.kind = kind
        self.name = name
        self.valid = valid_list


class InvalidValueError(SimlabError):
    """A value of the wrong type or out of range."""

    def __init__(self, field: str, value: object, expected: str) -> None:
        """Build the message.

        Args:
            field: The field or option the value was given for.
            value: The value as the user gave it.
            expected: What would be valid.
        """
        super().__init__(f"invalid value {shortened(value)!r} for {spelled(field)}: expected {expected}")


class ScenarioError(SimlabError):
    """A scenario the rules do not allow (autofire with a single-shot weapon, ...)."""


def close_names(name: str, valid: Iterable[str], limit: int = 3) -> list[str]:
    """Return up to ``limit`` valid names that look like ``name`` (case-insensitive).

    Args:
        name: The misspelled name.
        valid: The valid names.
        limit: How many suggestions at most.
    """
    by_lower = {v.lower(): v for v in valid}
    lowered = [v for v in by_lower if name.lower() in v] if len(name) >= 3 else []
    matches = difflib.get_close_matches(name.lower(), list(by_lower), n=limit, cutoff=0.6)
    ordered = list(dict.fromkeys(matches + lowered))[:limit]
    return [by_lower[m] for m in ordered]
