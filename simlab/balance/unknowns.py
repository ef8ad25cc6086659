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
from dataclasses import dataclass
from typing import Any

from simlab.inputs.errors import SimlabError
from simlab.inputs.params import FieldSpec, field_specs
from simlab.systems import Question, System

__all__ = ["Unknown", "find_unknown", "parse_range", "MAX_WHOLE_VALUES"]

#: The most values a whole-number range may span (a search never needs more than 60 steps).
MAX_WHOLE_VALUES = 1 << 40
#: The last parts of a battle's paths that count something: whole numbers without a field of their own.
_WHOLE_PATHS = ("count", "suppressors", "tactics", "max_turns")
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
    """

    name: str
    rule: bool
    whole: bool
    low: float
    high: float

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
        raise SimlabError(f"invalid value {text!r} for {option}: expected LOW..HIGH with LOW below HIGH")
    written_real = any(c in match.group(1) + match.group(2) for c in ".eE")
    return low, high, written_real


def _input_spec(system: System, question: Question, name: str) -> FieldSpec | None:
    """The field an input name sets, where it has one of its own (None for a battle's count or doctrine)."""
    parts = name.split(".")
    if question.form == "sides":
        parts = parts[1:] if parts[0] in ("a", "b") else []
    elif question.form == "battle":  # a.groups.N.KEY (or a.groups.N.ROW.COLUMN): a figure's input
        parts = parts[3:] if len(parts) >= 4 and parts[1] == "groups" else []
    if len(parts) == 2 and parts[0] in question.row_inputs:
        return field_specs(system.tables()[question.row_inputs[parts[0]]].row_type).get(parts[1])
    if len(parts) == 1:
        return field_specs(question.inputs_type).get(parts[0])
    return None


def find_unknown(system: System, question: Question, name: str, range_text: str) -> Unknown:
    """The unknown ``name`` of ``question`` over ``LOW..HIGH``: a rule parameter if the system has one so named.

    Raises:
        SimlabError: For a name that takes no numbers, or a range outside what it accepts.
    """
    low, high, written_real = parse_range(range_text)
    rules = field_specs(system.rules_type)
    spec = rules.get(name)
    rule = spec is not None
    if not rule:
        spec = _input_spec(system, question, name)
    if spec is not None and (not spec.numeric or spec.kind == "ints"):
        what = "rule parameter" if rule else "input"
        raise SimlabError(f"--find {name}: the {what} takes {spec.expected()}, not a number to solve for")
    counted = name.rsplit(".", 1)[-1] in _WHOLE_PATHS  # a battle's count, suppressors, tactics, max_turns
    whole = spec.kind in ("int", "int?") if spec is not None else counted or not written_real
    if whole and written_real:
        raise SimlabError(f"--find {name} takes whole numbers: give --in as whole numbers, such as 1..8")
    if spec is not None:
        smallest, largest = spec.bounds
        if low < smallest or high > largest:
            raise SimlabError(f"--in {range_text}: {name} takes {spec.expected()}")
    if whole and high - low > MAX_WHOLE_VALUES:
        raise SimlabError(f"--in {range_text}: at most {MAX_WHOLE_VALUES:,} whole values")
    return Unknown(name, rule, whole, low, high)
