"""What every analysis is: one record of what it needs, how one cell of it is answered, and how it is said.

An analysis (a solve, a sensitivity, a tournament, a matchup) asks a question of a system again
and again (:class:`~simlab.balance.setup.Setup`) and answers with one result. Its record says
everything the front ends loop over: how an experiment's cell runs it and which tidy rows it
writes, and how its report and charts say the answer. Each analysis is one module of
:mod:`simlab.analyses` registering one record.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from simlab.balance.setup import Setup
from simlab.inputs.errors import SimlabError
from simlab.inputs.files import described
from simlab.inputs.limits import Limits
from simlab.output.document import Table
from simlab.output.words import Vocabulary
from simlab.records import BalanceAsk, ChartSpec, ExperimentRun

__all__ = ["Analysis", "Key", "Said", "Reader", "GivenReader", "Listed", "tidy_row", "as_given"]


class Reader(Protocol):
    """What an analysis reads its table with: the values given, the first cell's setup, and its mistakes located.

    An experiment's reader locates a mistake at the key's line (``FILE:LINE: [solve] find: ...``).
    """

    @property
    def given(self) -> Mapping[str, Any]:
        """The table's values as given."""

    @property
    def setup(self) -> Setup:
        """The first cell's question, each value of which the analysis asks."""

    @property
    def grid(self) -> Mapping[str, Any]:
        """The experiment's grid (empty where the analysis is not an experiment's)."""

    def fail(self, key: str, message: str, table: str | None = None) -> Exception:
        """The error of ``key`` (of the analysis's table, or of ``table``: ``grid``), located."""

    def named(self, key: str) -> str:
        """How this front end names ``key`` in a message (``--find`` on the command line, ``find`` in a file)."""

    def text(self, key: str, example: str) -> str:
        """The value of ``key`` as text (a number reads as its digits), refused unless a text or a number."""

    def table(self, key: str) -> dict[str, Any]:
        """The table ``key`` (empty when absent), refused unless a table."""


@dataclass(frozen=True)
class Key:
    """One key of an analysis: its experiment table's key, the page's field, the command's option, the Python keyword.

    All of them are read by the analysis's one reader (:attr:`Analysis.read`).

    Attributes:
        name: The key (``find``): the TOML key, the URL key and the Python keyword.
        doc: What it is, for the command's help and the page's field (``{metrics}``: a few of the
            question's metrics).
        metavar: How the command's help shows its value (``LOW..HIGH``).
        flag: The command's option, without dashes, where it is not the name (``option`` for ``options``).
        many: Given more than once: the command repeats the option, the page separates the values
            with this (``|``, ``;``); ``convert`` makes the table's value of the list.
        convert: ``(the values given as text, how the front end names the key)`` → the table's
            value (``options``: the table of named options); None: the text as it is.
        choices: The page offers ``metrics`` (the question's metrics) or ``numbers`` (its number
            inputs) to choose from.
        leads: Giving it asks for the answer (the page answers once it is filled in).
        names_input: Its value names an input the analysis sets itself (``find = "dx"``): that input
            is left out of the command's ``--set``.
        web: On the page's form (a sensitivity's sizes are the page's own).
        keyword: The Python call's keyword where the name is a reserved word (``within`` for ``in``).
    """

    name: str
    doc: str = ""
    metavar: str = "TEXT"
    flag: str = ""
    many: str = ""
    convert: Callable[[list[str], str], Any] | None = None
    choices: str = ""
    leads: bool = False
    names_input: bool = False
    web: bool = True
    keyword: str = ""

    @property
    def python(self) -> str:
        """The Python call's keyword: ``within`` for ``in``."""
        return self.keyword or self.name

    @property
    def option(self) -> str:
        """The command's option: ``--find``."""
        return f"--{self.flag or self.name}"

    def value(self, texts: Sequence[str], where: str) -> Any:
        """The table's value of the texts given (one, or each of many), as an experiment holds it."""
        texts = [t.strip() for t in texts if t.strip()]
        if self.convert is not None:
            return self.convert(texts, where)
        return texts if self.many else texts[-1]

    def split(self, text: str) -> list[str]:
        """One text of the page as the values it holds (``a | b``: two when ``many`` is ``|``)."""
        if not self.many:
            return [text]
        return [part.strip() for part in text.replace("\n", self.many).split(self.many) if part.strip()]


def as_given(
    keys: Sequence[Key], texts: Mapping[str, Sequence[str]], named: Callable[[Key], str] = lambda key: key.name
) -> dict[str, Any]:
    """The table of values that texts given by key (a page's fields, a command's options) stand for.

    ``named`` says how the front end names a key in a message (``--option``, ``options``).
    """
    known = {key.name: key for key in keys}
    given = {name: texts for name, texts in texts.items() if any(t.strip() for t in texts)}
    return {name: known[name].value(values, named(known[name])) for name, values in given.items()}


@dataclass(frozen=True)
class GivenReader:
    """The reader of values given outside a file (the command line, the page, Python): mistakes name the key.

    Attributes:
        analysis: The analysis's name, for a missing key (``a solve needs --find: ...``).
        given: The values, as an experiment's table holds them.
        setup: The question each value asks.
        named: How this front end names a key (``--find`` on the command line, ``find`` on the page).
    """

    analysis: str
    given: Mapping[str, Any]
    setup: Setup
    named: Callable[[str], str] = field(default=lambda key: key)

    @property
    def grid(self) -> Mapping[str, Any]:
        """No grid: one question is asked."""
        return {}

    def fail(self, key: str, message: str, table: str | None = None) -> Exception:
        """The error of ``key``, named as this front end names it."""
        return SimlabError(f"{self.named(key)}: {message}" if key else message)

    def text(self, key: str, example: str) -> str:
        """The value of ``key`` as text; missing: what the analysis needs."""
        value = self.given.get(key)
        if value is None:
            raise SimlabError(f"a {self.analysis} needs {self.named(key)}: {example}")
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise self.fail(key, f"expected {example}, got {described(value)}")
        return str(value)

    def table(self, key: str) -> dict[str, Any]:
        """The table ``key`` (empty when absent)."""
        value = self.given.get(key, {})
        if not isinstance(value, Mapping):
            raise self.fail(key, f"expected a table of inputs, got {described(value)}")
        return dict(value)


@dataclass(frozen=True)
class Listed:
    """What the page lists under an answer: the rows' noun (``values tried``) and the rows.

    Each row: ``name``, ``words`` (the name in the designer's words), ``shown`` (the value),
    ``interval`` and ``doc``.
    """

    noun: str
    rows: list[dict[str, Any]]


def _listed(analysis: Analysis, result: Any, words: Vocabulary) -> Listed:
    """A result's tidy rows, one a metric."""
    rows = analysis.rows(result, None)
    return Listed("rows", [{"name": r["metric"], "words": words.name(str(r["metric"]), "metrics"),
                            "shown": f"{r['value']:.6g}", "interval": "", "doc": ""} for r in rows])  # fmt: skip


def _frame(analysis: Analysis, result: Any) -> Any:
    import pandas as pd

    return pd.DataFrame(analysis.rows(result, None))


def _json(analysis: Analysis, result: Any) -> dict[str, Any]:
    own = getattr(result, "to_json", None)
    return dict(own()) if callable(own) else {"analysis": analysis.name, "rows": analysis.rows(result, None)}


@dataclass(frozen=True)
class Said:
    """What a report of an analysis says: its question, the answer first, its tables.

    Attributes:
        question: The question in words (the report's ``question`` line).
        headline: The answer, in sentences, for every cell and rule set.
        tables: The report's tables.
    """

    question: str
    headline: list[str]
    tables: list[Table]


@dataclass(frozen=True)
class Analysis:
    """One analysis, as every front end finds it in the registry.

    Attributes:
        name: Its name (``solve``): the command, ``kind = "..."`` of an experiment, the web view's ``do``.
        table: The table of an experiment that states it (``[solve]``; a matchup's is ``[tournament]``).
        summary: One line of what it answers.
        keys: The keys of its table (besides ``asks``, the question each value asks): plain names
            are made :class:`Key` records.
        read: Its table read and checked on the first cell, as the command line checks it → its ask.
        units: The most values (points, seatings, cells) one cell asks: the run's progress.
        columns: The input columns its tidy rows add (a tournament's ``option`` and ``against``).
        answer: Answers one cell: ``(setup, ask, limits, progress, words)`` → its result (a solve
            that finds no crossing answers the sentence that says so).
        rows: A result's tidy rows (``metric``, ``value``, ``ci_low``, ``ci_high``, ``trials``, and
            ``cell`` and its own columns where it has them), given the trials of each value.
        said: What its report says of a run: ``(run, words)`` → :class:`Said`.
        charts: Its charts of a run: ``(run, words)`` → ``(spec, figure)`` pairs.
        claims: Whether a table given is this analysis's (two analyses share ``[tournament]``).
        asks: The question each value asks unless ``asks`` says: ``attack``, or ``duel`` (a battle
            experiment's always asks its battle).
        needs: Modules it needs beyond the core (checked before it is read).
        trials: Trials of each value when sampled unless told, on every front end (None: the question's).
        exact: Whether it can be asked exactly (a tournament's duels are always sampled).
        own_cells: Its cells are incomplete until it fills them (a tournament's options give each
            side's inputs): they are checked by its reader, not as they stand.
        page_given: What the page gives it besides its fields (a sensitivity's smaller sizes).
        sentences: A result in sentences, the answer first (``""`` parts the answer from the rest).
        figures: A result's charts: ``(name, caption, figure)`` each.
        listed: What the page lists of a result (default: its tidy rows).
        frame: A result as a table, for CSV (default: its tidy rows).
        to_json: A result's JSON (default: its own ``to_json``, else its tidy rows).
        succeeded: Whether a result answers the question asked (a tune that cannot reach its goal
            does not: the command says so and exits with status 1).
    """

    name: str
    table: str
    summary: str
    keys: tuple[Key, ...]
    read: Callable[[Reader], BalanceAsk]
    units: Callable[[BalanceAsk, Setup], int]
    columns: tuple[str, ...]
    answer: Callable[[Setup, BalanceAsk, Limits, Callable[[Any], None], Vocabulary], Any]
    rows: Callable[[Any, int | None], list[dict[str, Any]]]
    said: Callable[[ExperimentRun, Vocabulary], Said]
    charts: Callable[[ExperimentRun, Vocabulary], Sequence[tuple[ChartSpec, Any]]]
    claims: Callable[[Mapping[str, Any]], bool] = field(default=lambda given: True)
    asks: str = "attack"
    needs: tuple[str, ...] = ()
    trials: int | None = None
    exact: bool = True
    own_cells: bool = False
    page_given: Mapping[str, Any] = field(default_factory=dict)
    sentences: Callable[[Any, Vocabulary], list[str]] = field(default=lambda result, words: [str(result)])
    figures: Callable[[Any, Vocabulary], list[tuple[str, str, Any]]] = field(default=lambda result, words: [])
    listed: Callable[[Any, Vocabulary], Listed] | None = None
    frame: Callable[[Any], Any] | None = None
    to_json: Callable[[Any], dict[str, Any]] | None = None
    succeeded: Callable[[Any], bool] = field(default=lambda result: True)

    def __post_init__(self) -> None:
        keys = tuple(key if isinstance(key, Key) else Key(str(key)) for key in self.keys)
        object.__setattr__(self, "keys", keys)

    @property
    def line(self) -> str:
        """Its summary as a sentence, for a list of commands."""
        return f"{self.summary[:1].upper()}{self.summary[1:]}."

    def missing(self) -> str | None:
        """The first module it needs that is not installed, else None."""
        import importlib.util

        return next((module for module in self.needs if importlib.util.find_spec(module) is None), None)

    def key(self, name: str) -> Key:
        """The key called ``name``."""
        return next(key for key in self.keys if key.name == name)

    def listing(self, result: Any, words: Vocabulary) -> Listed:
        """What the page lists of a result."""
        return self.listed(result, words) if self.listed is not None else _listed(self, result, words)

    def table_of(self, result: Any) -> Any:
        """A result as a table, for CSV."""
        return self.frame(result) if self.frame is not None else _frame(self, result)

    def json_of(self, result: Any) -> dict[str, Any]:
        """A result's JSON."""
        return self.to_json(result) if self.to_json is not None else _json(self, result)


def tidy_row(metric: str, value: float, low: float, high: float, trials: int | None) -> dict[str, Any]:
    """One tidy row; a sampled figure without an interval of its own (a count, an interpolation) gets [value, value].

    Such a figure is a deterministic function of the seed's streams: ``simlab regress`` then counts any change.
    """
    if trials is not None and (np.isnan(low) or np.isnan(high)):
        low = high = value
    return {"metric": metric, "value": value, "ci_low": low, "ci_high": high, "trials": trials}
