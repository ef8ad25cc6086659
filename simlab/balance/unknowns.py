"""What a balance question varies: one input, rule parameter or table column, over a range.

``--find dx`` (a scenario input), ``--find natural_hit_min`` (a rule parameter), ``--find weapon.dice``
(a column of the weapon's row), ``--find a.count`` or ``--find a.groups.0.skill`` (a battle's path),
``--find a.skill`` (a duel side's input). Whether the unknown is a whole number or a real one comes
from its field (``range_m`` is real, ``dx`` whole); a path without a field of its own (a battle's
count) is whole unless the range is written with a decimal point.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from simlab.inputs.errors import InvalidValueError, SimlabError
from simlab.inputs.params import FieldSpec, field_specs
from simlab.systems import Question, System

if TYPE_CHECKING:
    from simlab.balance.setup import Setup

__all__ = [
    "Unknown",
    "UnknownKeyError",
    "find_unknown",
    "check_unknown",
    "option_named",
    "parse_range",
    "parse_tolerance",
    "MAX_WHOLE_VALUES",
    "DEFAULT_PRECISION",
]

#: The most values a whole-number range may span (a search never needs more than 60 steps).
MAX_WHOLE_VALUES = 1 << 40
#: The last parts of a battle's paths that count something: whole numbers without a field of their own.
_WHOLE_PATHS = ("count", "suppressors", "tactics", "max_turns")
#: A real unknown's answer is bracketed to this share of its range unless ``--tol`` says otherwise: exact, sampled.
DEFAULT_PRECISION = {True: 1e-6, False: 1e-3}
#: The finest ``--tol`` a range allows (a share of it: past this, floating point cannot split the bracket).
FINEST_PRECISION = 1e-12
_NUMBER = r"([-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)"
_RANGE = re.compile(rf"^\s*{_NUMBER}\s*\.\.\s*{_NUMBER}\s*$")


@dataclass(frozen=True)
class Unknown:
    """The value searched for.

    Attributes:
        name: As given (``dx``, ``natural_hit_min``, ``weapon.dice``, ``a.count``).
        rule: Whether it is a rule parameter (else an input of the question).
        whole: Whether it takes whole numbers only.
        low: The range's low end.
        high: The range's high end.
        tol: The precision of a real answer, in the unknown's units (None: :data:`DEFAULT_PRECISION`
            of the range); a whole unknown is always found to the unit.
    """

    name: str
    rule: bool
    whole: bool
    low: float
    high: float
    tol: float | None = None

    def precision(self, exact: bool) -> float:
        """How narrow the bracket of the answer is made: 1 for a whole unknown, else ``tol`` or the default."""
        if self.whole:
            return 1.0
        return self.tol if self.tol is not None else (self.high - self.low) * DEFAULT_PRECISION[exact]

    def shown_to(self, value: float, precision: float) -> str:
        """A value as text with the decimals ``precision`` needs (two values a bracket apart read apart)."""
        if self.whole:
            return str(int(value))
        decimals = max(0, 1 - math.floor(math.log10(precision)))
        text = f"{value:.{decimals}f}"
        return text.rstrip("0").rstrip(".") if "." in text else text

    def setting(self, value: float) -> dict[str, Any]:
        """The value as the question takes it (a whole number as an ``int``)."""
        return {self.name: int(value) if self.whole else float(value)}

    def shown(self, value: float) -> str:
        """A value of it as text: ``13``, ``21.75``."""
        return str(int(value)) if self.whole else f"{value:.4g}"

    @property
    def range_text(self) -> str:
        """Its range as given: ``6..20``."""
        return f"{self.shown(self.low)}..{self.shown(self.high)}"


def parse_range(text: str, option: str = "--in") -> tuple[float, float, bool]:
    """``LOW..HIGH`` as (low, high, written with a decimal point or exponent).

    Raises:
        SimlabError: For anything else, or a range whose ends are not in order.
    """
    match = _RANGE.match(str(text))
    if match is None:
        raise SimlabError(f"invalid value {str(text)[:40]!r} for {option}: expected LOW..HIGH, such as 6..20 or 0.5..3")
    low, high = float(match.group(1)), float(match.group(2))
    if not (math.isfinite(low) and math.isfinite(high)) or not low < high:
        raise InvalidValueError(option, text, "LOW..HIGH with LOW below HIGH")
    written_real = any(c in match.group(1) + match.group(2) for c in ".eE")
    return low, high, written_real


def _input_spec(system: System, question: Question, name: str) -> FieldSpec | None:
    """The field an input name sets, where it has one of its own (None for a battle's count or doctrine)."""
    parts = question.input_form.figure_parts(name)  # a duel's a.KEY, a battle's a.groups.N.KEY: a figure's KEY
    if len(parts) == 2 and parts[0] in question.row_inputs:
        return field_specs(system.tables()[question.row_inputs[parts[0]]].row_type).get(parts[1])
    if len(parts) == 1:
        return field_specs(question.inputs_type).get(parts[0])
    return None


def parse_tolerance(value: Any, option: str = "--tol") -> float:
    """A precision: a positive finite number.

    Raises:
        SimlabError: For anything else, naming ``option``.
    """
    try:
        number = float(value) if not isinstance(value, bool) else math.nan
    except (TypeError, ValueError):
        number = math.nan
    if not math.isfinite(number) or number <= 0:
        raise SimlabError(f"invalid value {str(value)[:40]!r} for {option}: expected a positive number, such as 0.01")
    return number


def option_named(key: str) -> str:
    """How the command line names a key of an unknown: ``--find``, ``--in``, ``--tol``."""
    return f"--{key}"


class UnknownKeyError(SimlabError):
    """A mistake in one key of an unknown (``find``, ``in`` or ``tol``).

    Attributes:
        key: Which key is at fault (a file's reader locates its line).
        detail: The mistake without the key's name, for a reader that names the key itself
            (``FILE:LINE: [solve] in: ...``); the message names it as ``named`` does.
    """

    def __init__(self, key: str, message: str, detail: str | None = None) -> None:
        super().__init__(message)
        self.key = key
        self.detail = detail if detail is not None else message


def find_unknown(
    system: System,
    question: Question,
    name: str,
    range_text: str,
    tol: Any = None,
    named: Callable[[str], str] = option_named,
) -> Unknown:
    """The unknown ``name`` of ``question`` over ``LOW..HIGH``: a rule parameter if the system has one so named.

    Args:
        system: The system asked.
        question: The question asked.
        name: The unknown.
        range_text: Its range, ``LOW..HIGH``.
        tol: The precision of a real answer (None: the default share of the range).
        named: How the front end names the keys ``find``, ``in`` and ``tol`` in messages
            (``--in`` on the command line, ``in`` in an experiment).

    Raises:
        UnknownKeyError: For a name that takes no numbers, a range outside what it accepts, or a
            precision that is not a positive number within the range (or given for a whole unknown).
    """
    try:
        low, high, written_real = parse_range(range_text, named("in"))
    except SimlabError as exc:
        raise UnknownKeyError("in", str(exc), str(exc).replace(f" for {named('in')}", "")) from None
    rules = field_specs(system.rules_type)
    spec = rules.get(name)
    rule = spec is not None
    if not rule:
        spec = _input_spec(system, question, name)
    if spec is not None and (not spec.numeric or spec.kind == "ints"):
        what = "rule parameter" if rule else "input"
        takes = f"the {what} takes {spec.expected()}, not a number to solve for"
        raise UnknownKeyError("find", f"{named('find')} {name}: {takes}", f"{name}: {takes}")
    counted = name.rsplit(".", 1)[-1] in _WHOLE_PATHS  # a battle's count, suppressors, tactics, max_turns
    whole = spec.kind in ("int", "int?") if spec is not None else counted or not written_real
    if whole and written_real:
        raise UnknownKeyError(
            "in",
            f"{named('find')} {name} takes whole numbers: give {named('in')} as whole numbers, such as 1..8",
            f"{name} takes whole numbers: give whole numbers, such as 1..8",
        )
    if spec is not None:
        smallest, largest = spec.bounds
        if low < smallest or high > largest:
            takes = f"{range_text}: {name} takes {spec.expected()}"
            raise UnknownKeyError("in", f"{named('in')} {takes}", takes)
    if whole and high - low > MAX_WHOLE_VALUES:
        most = f"{range_text}: at most {MAX_WHOLE_VALUES:,} whole values"
        raise UnknownKeyError("in", f"{named('in')} {most}", most)
    precision = None
    if tol is not None:
        tol_option = named("tol")
        try:
            precision = parse_tolerance(tol, tol_option)
        except SimlabError as exc:
            raise UnknownKeyError("tol", str(exc), str(exc).replace(f" for {tol_option}", "")) from None
        if whole:
            real = f"sets the precision of a real unknown: {name} is found to the unit"
            raise UnknownKeyError("tol", f"{tol_option} {real}", f"a {real.removeprefix('sets the ')}")
        if not (high - low) * FINEST_PRECISION <= precision < high - low:
            expected = (
                f"expected a precision below the range's width ({high - low:g}) "
                f"and at least {(high - low) * FINEST_PRECISION:.3g}"
            )
            given = f"invalid value {tol!r}"
            raise UnknownKeyError("tol", f"{given} for {tol_option}: {expected}", f"{given}: {expected}")
    return Unknown(name, rule, whole, low, high, precision)


def check_unknown(setup: Setup, unknown: Unknown, named: Callable[[str], str] = option_named) -> None:
    """Refuse an unknown the question does not take (an unknown input name, a column of no row), before any search.

    Raises:
        UnknownKeyError: Naming ``find`` as the front end names it.
    """
    setting = unknown.setting(unknown.low)
    try:
        setup.question.check(setup.with_changes(source="").request(setting))
    except SimlabError as exc:
        detail = str(exc)
        try:
            setup.question.check(setup.with_changes(source=named("find")).request(setting))
        except SimlabError as named_exc:
            raise UnknownKeyError("find", str(named_exc), detail) from None
        raise UnknownKeyError("find", detail) from None
