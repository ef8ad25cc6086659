"""Typed, validated parameters: scenario inputs, rule parameters and table rows.

Rule systems describe their inputs as frozen dataclasses whose fields carry a type hint, a
default from the spec and optional metadata (``choices``, ``doc``, ``minimum``). This module
turns user text (``--set dx=12``) or already-typed values (from TOML) into such dataclasses,
with one clear error for an unknown name or a bad value (DESIGN.md principles 4 and 7).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from simlab.errors import InvalidValueError, SimlabError, UnknownNameError

__all__ = [
    "FieldSpec",
    "field_specs",
    "coerce",
    "build",
    "replace",
    "parse_assignments",
    "describe",
    "spec_field",
    "as_plain",
]

T = TypeVar("T")
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def spec_field(
    default: Any = dataclasses.MISSING,
    *,
    doc: str = "",
    choices: Iterable[str] | None = None,
    minimum: float | None = None,
) -> Any:
    """A dataclass field with the metadata this module reads.

    Args:
        default: The spec's default; omit for a required field.
        doc: One line for ``simlab systems`` and the docs.
        choices: The valid values of a text field.
        minimum: The smallest valid value of a number.
    """
    metadata = {"doc": doc, "choices": tuple(choices) if choices else None, "minimum": minimum}
    if isinstance(default, (list, tuple)):
        return dataclasses.field(default=tuple(default), metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


@dataclass(frozen=True)
class FieldSpec:
    """What a field accepts.

    Attributes:
        name: The field's name.
        kind: ``int``, ``float``, ``bool``, ``str``, ``int?`` (int or blank), ``ints``
            (tuple of ints) or ``flags`` (frozenset of words).
        default: The default, or ``dataclasses.MISSING`` for a required field.
        choices: Valid values of a ``str`` field or valid words of a ``flags`` field.
        minimum: Smallest valid number.
        doc: One-line description.
    """

    name: str
    kind: str
    default: Any
    choices: tuple[str, ...] | None
    minimum: float | None
    doc: str

    @property
    def required(self) -> bool:
        """Whether the field has no default."""
        return self.default is dataclasses.MISSING

    def expected(self) -> str:
        """Human description of the valid values."""
        if self.choices and self.kind == "str":
            return "one of " + ", ".join(self.choices)
        if self.kind == "flags":
            return "space-separated words from " + ", ".join(self.choices or ())
        base = {
            "int": "an integer",
            "float": "a number",
            "bool": "true or false",
            "str": "text",
            "int?": "an integer or blank",
            "ints": "a list of integers such as [1, 2, 4]",
        }[self.kind]
        if self.minimum is not None:
            base += f" >= {self.minimum:g}"
        return base


def _kind_of(hint: Any) -> str:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is bool:
        return "bool"
    if hint is int:
        return "int"
    if hint is float:
        return "float"
    if hint is str:
        return "str"
    if origin in (typing.Union, types.UnionType) and set(args) == {int, type(None)}:
        return "int?"
    if origin is tuple and args and args[0] is int:
        return "ints"
    if origin is frozenset:
        return "flags"
    raise TypeError(f"unsupported parameter type {hint!r}")


def field_specs(cls: type) -> dict[str, FieldSpec]:
    """The :class:`FieldSpec` of every field of a parameter dataclass, in order."""
    hints = typing.get_type_hints(cls)
    specs = {}
    for f in dataclasses.fields(cls):
        default = f.default
        if default is dataclasses.MISSING and f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        specs[f.name] = FieldSpec(
            name=f.name,
            kind=_kind_of(hints[f.name]),
            default=default,
            choices=f.metadata.get("choices"),
            minimum=f.metadata.get("minimum"),
            doc=f.metadata.get("doc", ""),
        )
    return specs


def _parse_int(text: str) -> int:
    value = float(text)
    if not value.is_integer():
        raise ValueError(text)
    return int(value)


def coerce(spec: FieldSpec, value: Any, owner: str) -> Any:
    """Convert ``value`` (text, or an already-typed value) to the field's type.

    Args:
        spec: The field.
        value: The user's value.
        owner: How the field is named in errors, e.g. ``"--set"`` or ``"weapons.csv line 4"``.

    Raises:
        InvalidValueError: When the value does not fit the field.
    """
    label = f"{owner}{spec.name}" if owner.endswith(".") else f"{owner} {spec.name}".strip()
    bad = InvalidValueError(label, value, spec.expected())
    text = value.strip() if isinstance(value, str) else None
    result: Any
    try:
        if spec.kind == "bool":
            if isinstance(value, bool):
                result = value
            elif text is not None and text.lower() in _TRUE | _FALSE:
                result = text.lower() in _TRUE
            else:
                raise bad
        elif spec.kind in ("int", "int?"):
            if spec.kind == "int?" and (value is None or text == ""):
                return None
            if isinstance(value, bool):
                raise bad
            if isinstance(value, int):
                result = value
            elif isinstance(value, float) and value.is_integer():
                result = int(value)
            elif text is not None:
                result = _parse_int(text)
            else:
                raise bad
        elif spec.kind == "float":
            if isinstance(value, bool):
                raise bad
            result = float(text if text is not None else value)
            if result != result or result in (float("inf"), float("-inf")):
                raise bad
        elif spec.kind == "str":
            if isinstance(value, int) and not isinstance(value, bool):
                text = str(value)  # a code that may be a number (a weapon's ROF) given as one
            if text is None:
                raise bad
            result = text
            if spec.choices and result not in spec.choices:
                raise UnknownNameError(label, result, spec.choices)
        elif spec.kind == "ints":
            items = text.strip("[]()").replace(",", " ").split() if text is not None else value
            result = tuple(_parse_int(str(i)) if isinstance(i, str) else int(i) for i in items)
        else:  # flags
            words = text.split() if text is not None else list(value)
            unknown = [w for w in words if spec.choices and w not in spec.choices]
            if unknown:
                raise UnknownNameError(f"{label} word", unknown[0], spec.choices or ())
            result = frozenset(words)
    except (ValueError, TypeError):
        raise bad from None
    if spec.minimum is not None and isinstance(result, (int, float)) and result < spec.minimum:
        raise bad
    return result


def build(cls: type[T], values: Mapping[str, Any], *, what: str, owner: str = "") -> T:
    """Build a parameter dataclass from user values, with defaults for the rest.

    Args:
        cls: The dataclass.
        values: Field name → text or typed value.
        what: How unknown names are described, e.g. ``"--set name"``.
        owner: Prefix of the field in value errors.

    Raises:
        UnknownNameError: For a name that is not a field.
        InvalidValueError: For a value that does not fit.
        SimlabError: When a required field is missing.
    """
    specs = field_specs(cls)
    for name in values:
        if name not in specs:
            raise UnknownNameError(what, name, specs)
    kwargs = {name: coerce(specs[name], value, owner) for name, value in values.items()}
    missing = [s.name for s in specs.values() if s.required and s.name not in kwargs]
    if missing:
        names = ", ".join(f"{owner}{m}" if owner.endswith(".") else m for m in missing)
        raise SimlabError(f"missing {names}: every {what} without a default must be given")
    return cls(**kwargs)


def replace(instance: T, values: Mapping[str, Any], *, what: str, owner: str = "") -> T:
    """Copy of a parameter dataclass with some fields replaced (validated like :func:`build`)."""
    merged = {**as_plain(instance, natives=True), **values}
    return build(type(instance), merged, what=what, owner=owner)


def parse_assignments(items: Iterable[str], option: str) -> dict[str, str]:
    """Parse ``KEY=VALUE`` items of a command-line option into a dict.

    Raises:
        SimlabError: For an item without ``=`` or a key given twice.
    """
    result: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise SimlabError(f"{option} expects KEY=VALUE, got {item!r}")
        if key in result:
            raise SimlabError(f"{option} {key} is given twice")
        result[key] = value
    return result


def as_plain(instance: Any, *, natives: bool = False) -> dict[str, Any]:
    """Field → value of a parameter dataclass, as JSON-friendly values.

    Args:
        instance: The dataclass instance.
        natives: Keep tuples and frozensets (for rebuilding) instead of lists and text.
    """
    result = {}
    for f in dataclasses.fields(instance):
        value = getattr(instance, f.name)
        if not natives:
            if isinstance(value, frozenset):
                value = " ".join(sorted(value))
            elif isinstance(value, tuple):
                value = list(value)
        result[f.name] = value
    return result


def describe(cls: type) -> list[dict[str, Any]]:
    """JSON-friendly description of every field: name, type, default, choices, doc."""
    rows = []
    for spec in field_specs(cls).values():
        default = None if spec.required else spec.default
        if isinstance(default, tuple):
            default = list(default)
        elif isinstance(default, frozenset):
            default = " ".join(sorted(default))
        rows.append(
            {
                "name": spec.name,
                "type": spec.kind,
                "default": default,
                "required": spec.required,
                "choices": list(spec.choices) if spec.choices else None,
                "doc": spec.doc,
            }
        )
    return rows
