"""What a tune may change: ``[OPTION:]KEY=LOW..HIGH``, one option's input or every option's, or a rule parameter.

KEY is an input of the options (``skill``), a column of the row an option names (``weapon.pen``,
``ship.cost``) or a rule parameter (``max_turns``); whole or real as the key is
(:func:`~simlab.balance.unknowns.find_unknown`). Each knob starts from its value now: the option's,
the row's column, the shared inputs' or the default.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from simlab.balance.setup import Setup
from simlab.balance.unknowns import UnknownKeyError, _input_spec, find_unknown
from simlab.inputs.errors import SimlabError, shortened, speaking
from simlab.inputs.params import field_specs

__all__ = ["Knob", "parse_knobs", "side_path"]


@dataclass(frozen=True)
class Knob:
    """One thing a tune may change.

    Attributes:
        key: An input of an option (``weapon.pen``, ``skill``), or a rule parameter.
        option: The option it changes (None: every option, or the rules).
        rule: Whether it is a rule parameter (it changes the game for every option).
        low: The range's low end.
        high: The range's high end.
        whole: Whether it takes whole numbers only.
        start: Its value now (NaN where it has none: a row without a price).
    """

    key: str
    option: str | None
    rule: bool
    low: float
    high: float
    whole: bool
    start: float

    @property
    def name(self) -> str:
        """As given: ``laser:weapon.pen``, ``max_turns``."""
        return f"{self.option}:{self.key}" if self.option is not None else self.key

    def value(self, x: float) -> int | float:
        """A value as the question takes it (a whole knob's rounded, a real one's to four significant figures)."""
        if math.isnan(x):
            return x
        return round(x) if self.whole else float(f"{x:.4g}")  # a real knob to four figures: a value one can write

    def shown(self, x: float) -> str:
        """A value as text."""
        if math.isnan(x):
            return "none"
        return str(round(x)) if self.whole else f"{x:.4g}"

    @property
    def given(self) -> bool:
        """Whether it has a value now."""
        return not math.isnan(self.start)

    def said(self, to: float, named: str | None = None) -> str:
        """The change in words: ``raise the weapon's pen from 20 to 34 for laser`` (``set`` where it has none now).

        ``named``: the key in the designer's words (``the weapon's pen``), else the key itself.
        """
        named = named or self.key
        whose = f" for {self.option}" if self.option is not None else "" if self.rule else " for every option"
        named = f"the rule {named}" if self.rule else named
        if not self.given:
            return f"set {named} to {self.shown(to)}{whose}"
        verb = "raise" if to > self.start else "lower"
        return f"{verb} {named} from {self.shown(self.start)} to {self.shown(to)}{whose}"


def _as(where: str, key: str) -> str:
    """Every key of a knob's range named as the knob's option (``--knob``)."""
    return where


def side_path(setup: Setup, key: str) -> str:
    """How the question names an option's input ``key`` (on side A: ``a.weapon.pen``)."""
    return f"a.{key}" if setup.question.input_form.sided else key


def parse_knobs(
    setup: Setup,
    options: Sequence[Mapping[str, Any]],
    names: Sequence[str],
    knobs: Sequence[str],
    each: Sequence[str] = (),
    named: Callable[[str], str] = lambda key: f"--{key.replace('_', '-')}",
) -> list[Knob]:
    """The knobs ``[OPTION:]KEY=LOW..HIGH`` (and ``KEY=LOW..HIGH`` given to every option on its own), each checked.

    Raises:
        SimlabError: For a knob that is not ``KEY=LOW..HIGH``, an unknown option, a key the question
            does not take as a number, a range it refuses, or one with no value to start from.
    """
    found: list[Knob] = []
    given = [(text, "knob") for text in knobs] + [(text, "knob_each") for text in each]
    for text, key_name in given:

        def fail(detail: str, at: str = key_name) -> UnknownKeyError:
            return UnknownKeyError(at, f"{named(at)} {detail}", detail)

        head, equals, span = str(text).partition("=")
        per_option = key_name == "knob_each"
        option, colon, key = head.rpartition(":") if ":" in head and not per_option else ("", "", head)
        option, key = option.strip(), key.strip()
        if not equals or not key or not span.strip():
            raise fail(f"{shortened(str(text))!r}: expected [OPTION:]KEY=LOW..HIGH, such as laser:weapon.pen=5..60")
        if colon and option not in names:
            raise fail(f"{shortened(option)!r}: no such option (valid: {', '.join(names)})")
        rule = key in field_specs(setup.owner.rules_type)
        if rule and (colon or per_option):
            raise fail(f"{key}: a rule parameter changes the game of every option; give it as KEY=LOW..HIGH")
        try:
            path = key if rule else side_path(setup, key)
            unknown = find_unknown(setup.owner, setup.question, path, span, named=functools.partial(_as, key_name))
        except SimlabError as exc:
            raise fail(f"{key}: {str(exc).split(': ', 1)[-1].replace(path, key)}") from None
        targets: list[str | None] = list(names) if per_option else [option if colon else None]
        for target in targets:
            index = names.index(target) if target is not None else 0
            low = int(unknown.low) if unknown.whole else unknown.low
            _check_takes(setup, options[index], key, rule, low, fail)
            start = _current(setup, options[index], key, rule)  # None: not set (a ship without a price)
            found.append(Knob(key, target, rule, unknown.low, unknown.high, unknown.whole,
                              math.nan if start is None else float(start)))  # fmt: skip
    if not found:
        raise UnknownKeyError("knob", f"a tune needs a knob: {named('knob')} [OPTION:]KEY=LOW..HIGH")
    seen = [knob.name for knob in found]
    twice = sorted({name for name in seen if seen.count(name) > 1})
    if twice:
        raise UnknownKeyError("knob", f"{named('knob')} {twice[0]} is given twice: give each knob once",
                              f"{twice[0]} is given twice: give each knob once")  # fmt: skip
    return found


def _check_takes(
    setup: Setup, option: Mapping[str, Any], key: str, rule: bool, value: float,
    fail: Callable[[str], UnknownKeyError],
) -> None:  # fmt: skip
    """Refuse a knob the question does not take (an unknown input, a column of no row), as the option asks it."""
    from simlab.balance.tournament import OPTION_SPELLING

    changed = {key: value} if rule else {f"{side}.{k}": v for side in "ab" for k, v in {**option, key: value}.items()}
    if not rule and not setup.question.input_form.sided:
        changed = {**option, key: value}
    try:
        with speaking(OPTION_SPELLING):
            setup.question.check(setup.request(changed))
    except SimlabError as exc:
        raise fail(f"{key}: {exc}") from None


def _current(setup: Setup, option: Mapping[str, Any], key: str, rule: bool) -> float | None:
    """The value of ``key`` now: the option's, the shared inputs', its row's column, or the default."""
    if rule:
        specs = field_specs(setup.owner.rules_type)
        value = setup.rules.get(key, specs[key].default)
    elif key in option:
        value = option[key]
    elif f"a.{key}" in setup.inputs:
        value = setup.inputs[f"a.{key}"]
    else:
        value = _row_value(setup, option, key)
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _row_value(setup: Setup, option: Mapping[str, Any], key: str) -> Any:
    """A column of the row an option names (``ship.cost`` of ``ship = scout``), or the input's default."""
    row_input, dot, column = key.partition(".")
    question = setup.question
    if dot and row_input in question.row_inputs:
        table = {**setup.owner.tables(), **setup.tables}[question.row_inputs[row_input]]
        row_name = option.get(row_input, setup.inputs.get(f"a.{row_input}"))
        if row_name is None or str(row_name) not in table.rows:
            return None
        return getattr(table.row(str(row_name)), column, None)
    spec = _input_spec(setup.owner, question, side_path(setup, key))
    return None if spec is None or spec.required else spec.default
