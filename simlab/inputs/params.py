"""Typed, validated parameters: scenario inputs, rule parameters and table rows.

Rule systems describe their inputs as frozen dataclasses whose fields carry a type hint, a
default from the spec and optional metadata (``choices``, ``doc``, ``minimum``, ``maximum``).
This module turns user text (``--set dx=12``) or already-typed values (from TOML) into such
dataclasses, with one clear error for an unknown name or a bad value (docs/architecture.md, principles 4
and 7). It is the one place where text becomes typed values, so it is where every number is
checked against its valid range.

Valid ranges: every number has one. A field states its own (attributes and skills 0-99, dice
0-100, counts up to 10,000...); a field that states none takes the range of its kind,
:data:`INT_RANGE` for integers and :data:`FLOAT_RANGE` for other numbers, wide enough for any
plausible design and narrow enough that no kernel overflows or allocates without bound. Lists
of integers hold at most :data:`MAX_LIST_ITEMS` items, and text at most :data:`MAX_TEXT`
characters.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from simlab.inputs.errors import InvalidValueError, SimlabError, UnknownNameError, shortened, spelled
from simlab.text import is_digits

__all__ = [
    "SIZE_TEXT",
    "valid_size",
    "parse_size",
    "FieldSpec",
    "field_specs",
    "coerce",
    "build",
    "replace",
    "parse_assignments",
    "describe",
    "spec_field",
    "as_plain",
    "range_text",
    "check_order",
    "valid_name",
    "is_digits",
    "NAME_RULE",
    "MAX_NAME",
    "Bounds",
    "INT_RANGE",
    "FLOAT_RANGE",
    "MAX_LIST_ITEMS",
    "MAX_TEXT",
    "ATTRIBUTE",
    "SKILL",
    "MODIFIER",
    "DICE",
    "TARGET",
]

T = TypeVar("T")
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}

#: Most characters of the name of an experiment or variant (it names directories and files).
MAX_NAME = 100
#: What a valid name is, for messages.
NAME_RULE = f"letters, digits, _ . -, starting with a letter or digit, at most {MAX_NAME} characters"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")

#: Valid range of an integer field that states none of its own.
INT_RANGE = (-10_000, 10_000)
#: Valid range of a number (float) field that states none of its own.
FLOAT_RANGE = (-1_000_000.0, 1_000_000.0)
#: Most items of a list of integers (``blast_divisors``, point-defence layouts).
MAX_LIST_ITEMS = 100
#: Most characters of a text value (names of weapons, flags...).
MAX_TEXT = 1000


class Bounds(typing.TypedDict):
    """A valid range as ``spec_field`` keywords: ``spec_field(12, **ATTRIBUTE)``."""

    minimum: float
    maximum: float


# Ranges shared by many fields.
#: An attribute of a figure (DX, STR, END...).
ATTRIBUTE: Bounds = {"minimum": 0, "maximum": 99}
#: A skill level (negative levels for unskilled use).
SKILL: Bounds = {"minimum": -10, "maximum": 99}
#: A modifier (DM, DX modifier, bonus).
MODIFIER: Bounds = {"minimum": -99, "maximum": 99}
#: A number of dice.
DICE: Bounds = {"minimum": 0, "maximum": 100}
#: A target number of a roll (roll this or more, or this or less).
TARGET: Bounds = {"minimum": -99, "maximum": 99}


def spec_field(
    default: Any = dataclasses.MISSING,
    *,
    doc: str = "",
    choices: Iterable[str] | None = None,
    minimum: float | None = None,
    maximum: float | None = None,
    not_above: str | None = None,
    pattern: str | None = None,
    pattern_doc: str = "",
) -> Any:
    """A dataclass field with the metadata this module reads.

    Args:
        default: The spec's default; omit for a required field.
        doc: One line for ``simlab systems`` and the docs.
        choices: The valid values of a text field.
        minimum: The smallest valid value of a number (default: that of :data:`INT_RANGE`
            or :data:`FLOAT_RANGE`).
        maximum: The largest valid value of a number (default likewise).
        not_above: Another field this one may not exceed (``roll_min`` of ``roll_max``).
        pattern: A regular expression a text value must match in full.
        pattern_doc: What the pattern accepts, for messages (``a number 1-100, SA, BA...``).
    """
    metadata = {
        "doc": doc,
        "choices": tuple(choices) if choices else None,
        "minimum": minimum,
        "maximum": maximum,
        "not_above": not_above,
        "pattern": pattern,
        "pattern_doc": pattern_doc,
    }
    if isinstance(default, (list, tuple)):
        return dataclasses.field(default=tuple(default), metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


@dataclass(frozen=True)
class FieldSpec:
    """What a field accepts.

    Attributes:
        name: The field's name.
        kind: ``int``, ``float``, ``bool``, ``str``, ``int?`` (int or blank), ``float?``, ``ints``
            (tuple of ints) or ``flags`` (frozenset of words).
        default: The default, or ``dataclasses.MISSING`` for a required field.
        choices: Valid values of a ``str`` field or valid words of a ``flags`` field.
        minimum: Smallest valid number (of each item of an ``ints`` field).
        maximum: Largest valid number (likewise).
        doc: One-line description.
        not_above: Another field whose value this one may not exceed, or None.
        pattern: A regular expression a text value must match in full, or None.
        pattern_doc: What the pattern accepts.
    """

    name: str
    kind: str
    default: Any
    choices: tuple[str, ...] | None
    minimum: float | None
    maximum: float | None
    doc: str
    not_above: str | None = None
    pattern: str | None = None
    pattern_doc: str = ""

    @property
    def required(self) -> bool:
        """Whether the field has no default."""
        return self.default is dataclasses.MISSING

    @property
    def numeric(self) -> bool:
        """Whether the field holds numbers."""
        return self.kind in ("int", "int?", "float", "float?", "ints")

    @property
    def bounds(self) -> tuple[float, float]:
        """The valid range of a numeric field: its own, or that of its kind."""
        low, high = FLOAT_RANGE if self.kind in ("float", "float?") else INT_RANGE
        return (low if self.minimum is None else self.minimum, high if self.maximum is None else self.maximum)

    def range_text(self) -> str:
        """The valid range as text (``0 to 99``), or ``""`` for a field that is not numeric."""
        if not self.numeric:
            return ""
        return range_text(*self.bounds)

    def expected(self) -> str:
        """Human description of the valid values."""
        if self.choices and self.kind == "str":
            return "one of " + ", ".join(self.choices)
        if self.pattern and self.kind == "str":
            return self.pattern_doc or f"text matching {self.pattern}"
        if self.kind == "flags":
            return "space-separated words from " + ", ".join(self.choices or ())
        base = {
            "int": "an integer",
            "float": "a number",
            "bool": "true or false",
            "str": f"text of at most {MAX_TEXT} characters",
            "int?": "an integer or blank",
            "float?": "a number or blank",
            "ints": f"a list of at most {MAX_LIST_ITEMS} integers such as [1, 2, 4]",
        }[self.kind]
        if self.numeric:
            base += f" from {self.range_text()}" if self.kind != "ints" else f", each from {self.range_text()}"
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
    if origin in (typing.Union, types.UnionType) and set(args) == {float, type(None)}:
        return "float?"
    if origin is tuple and args and args[0] is int:
        return "ints"
    if origin is frozenset:
        return "flags"
    raise TypeError(f"unsupported parameter type {hint!r}")


def field_specs(cls: type) -> Mapping[str, FieldSpec]:
    """The :class:`FieldSpec` of every field of a parameter dataclass, in order (computed once per class)."""
    return _field_specs(cls)


@functools.cache
def _field_specs(cls: type) -> Mapping[str, FieldSpec]:
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
            maximum=f.metadata.get("maximum"),
            doc=f.metadata.get("doc", ""),
            not_above=f.metadata.get("not_above"),
            pattern=f.metadata.get("pattern"),
            pattern_doc=f.metadata.get("pattern_doc", ""),
        )
    return types.MappingProxyType(specs)


def valid_name(name: str) -> bool:
    """Whether ``name`` may name an experiment or variant: a file and directory name on every system."""
    return len(name) <= MAX_NAME and _NAME.fullmatch(name) is not None


#: A chart's width and height for print (``simlab run --size``, a chart's ``size``): inches, each side.
SIZE_RANGE = (1.0, 40.0)
SIZE_TEXT = "1 to 40 inches"


def valid_size(size: Any) -> bool:
    """Whether ``size`` is a chart's [width, height] in inches, each within :data:`SIZE_RANGE`."""
    return (
        isinstance(size, (list, tuple))
        and len(size) == 2
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in size)
        and all(SIZE_RANGE[0] <= float(v) <= SIZE_RANGE[1] for v in size)
    )


def parse_size(text: str) -> tuple[float, float]:
    """A chart size given as ``WIDTHxHEIGHT`` in inches (``6.5x4``).

    Raises:
        ValueError: With what is valid, for anything else.
    """
    width, sep, height = text.lower().partition("x")
    try:
        size = (float(width), float(height)) if sep else None
    except ValueError:
        size = None
    if size is None or not valid_size(size):
        raise ValueError(f"expected WIDTHxHEIGHT in inches, each {SIZE_TEXT} (6.5x4), got {text!r}")
    return size


def range_text(low: float, high: float) -> str:
    """A valid range as text: ``0 to 99``, ``0.001 to 1,000``, ``-1,000,000 to 1,000,000``."""

    def number(value: float) -> str:
        return f"{value:,.0f}" if float(value).is_integer() else f"{value:,g}"

    return f"{number(low)} to {number(high)}"


def _parse_int(text: str) -> int:
    """An integer from text: ``12``, ``-3``, ``1e3`` or ``12.0`` (not ``1.5``, ``nan``, ``inf`` or ``٣``)."""
    text = text.strip()
    if len(text) > 40 or not text.isascii():
        raise ValueError(text)  # longer than any number in range; never parse megabytes of digits
    try:
        return int(text)
    except ValueError:
        value = float(text)
    if not value.is_integer():  # also nan and inf
        raise ValueError(text)
    return int(value)


def _in_range(spec: FieldSpec, value: float) -> bool:
    low, high = spec.bounds
    return low <= value <= high


def field_label(owner: str, name: str) -> str:
    """A field as a message names it: ``--set dx`` on the command line, ``dx`` on the page, ``a.skill``.

    Args:
        owner: Where the field was given, as the command line says it (``--set``, ``a.``,
            ``weapons.csv line 4``), spelled as the front end answering says it (:func:`spelled`).
        name: The field's name.
    """
    owner = spelled(owner)
    return f"{owner}{name}" if owner.endswith(".") else f"{owner} {name}".strip()


def coerce(spec: FieldSpec, value: Any, owner: str) -> Any:
    """Convert ``value`` (text, or an already-typed value) to the field's type.

    Args:
        spec: The field.
        value: The user's value.
        owner: How the field is named in errors, e.g. ``"--set"`` or ``"weapons.csv line 4"``.

    Raises:
        InvalidValueError: When the value does not fit the field.
    """
    label = field_label(owner, spec.name)
    shown = shortened(value)
    bad = InvalidValueError(label, shown, spec.expected())
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
            elif isinstance(value, float):
                result = _whole(value)
            elif text is not None:
                result = _parse_int(text)
            else:
                raise bad
        elif spec.kind in ("float", "float?"):
            if spec.kind == "float?" and (value is None or text == ""):
                return None
            if isinstance(value, bool):
                raise bad
            if text is not None and not text.isascii():
                raise bad  # float() reads other scripts' digits too
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
                raise UnknownNameError(label, shortened(result), spec.choices)
            if len(result) > MAX_TEXT or not result.isprintable():
                raise bad
            if spec.pattern and re.fullmatch(spec.pattern, result) is None:
                raise bad
        elif spec.kind == "ints":
            items = text.strip("[]()").replace(",", " ").split() if text is not None else value
            if isinstance(items, (str, bytes, Mapping)) or len(items) > MAX_LIST_ITEMS:
                raise bad
            result = tuple(_parse_int(i) if isinstance(i, str) else _whole(i) for i in items)
            if not all(_in_range(spec, i) for i in result):
                raise bad
        else:  # flags
            if text is not None and len(text) > MAX_TEXT:
                raise bad
            words = text.split() if text is not None else list(value)
            unknown = [w for w in words if spec.choices and w not in spec.choices]
            if unknown:
                raise UnknownNameError(f"{label} word", unknown[0], spec.choices or ())
            result = frozenset(words)
    except (ValueError, TypeError, OverflowError):
        raise bad from None
    if spec.kind in ("int", "int?", "float", "float?") and not _in_range(spec, result):
        raise bad
    return result



def _whole(value: Any) -> int:
    """An integer from a typed value (an int, or a float with no fraction), else ValueError."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(value)
    if isinstance(value, float) and not value.is_integer():
        raise ValueError(value)
    return int(value)


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
    try:  # the same values give the same (frozen) dataclass: build each once
        key = (cls, tuple((name, type(value), value) for name, value in values.items()), what, owner)
        hash(key)
    except TypeError:  # a list among the values: nothing to share
        return _build(cls, values, what, owner)
    return _cached_build(key)


@functools.lru_cache(maxsize=65536)
def _cached_build(key: tuple[Any, ...]) -> Any:
    cls, items, what, owner = key
    return _build(cls, {name: value for name, _, value in items}, what, owner)


def _build(cls: type[T], values: Mapping[str, Any], what: str, owner: str) -> T:
    specs = field_specs(cls)
    for name in values:
        if name not in specs:
            raise UnknownNameError(what, name, specs)
    kwargs = {name: coerce(specs[name], value, owner) for name, value in values.items()}
    missing = [s.name for s in specs.values() if s.required and s.name not in kwargs]
    if missing:
        names = ", ".join(field_label(owner, m) if spelled(owner).endswith(".") else m for m in missing)
        raise SimlabError(f"missing {names}: every {spelled(what)} without a default must be given")
    check_order(cls, {**{n: s.default for n, s in specs.items() if not s.required}, **kwargs}, owner)
    return cls(**kwargs)


def check_order(cls: type, values: Mapping[str, Any], owner: str = "") -> None:
    """Check the fields that may not exceed another (``roll_min <= roll_max``) of typed ``values``.

    Raises:
        InvalidValueError: Naming both fields and their values.
    """
    for spec in field_specs(cls).values():
        if spec.not_above is None:
            continue
        low, high = values.get(spec.name), values.get(spec.not_above)
        if low is not None and high is not None and low > high:
            label = field_label(owner, spec.name)
            raise InvalidValueError(label, low, f"at most {spec.not_above} ({high})")


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
            raise SimlabError(f"{option} expects KEY=VALUE, got {shortened(item)!r}")
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
                "minimum": spec.bounds[0] if spec.numeric else None,
                "maximum": spec.bounds[1] if spec.numeric else None,
                "doc": spec.doc,
            }
        )
    return rows
