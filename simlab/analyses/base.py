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
from simlab.inputs.limits import Limits
from simlab.output.document import Table
from simlab.output.words import Vocabulary
from simlab.records import BalanceAsk, ChartSpec, ExperimentRun

__all__ = ["Analysis", "Said", "Reader", "tidy_row"]


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

    def text(self, key: str, example: str) -> str:
        """The value of ``key`` as text (a number reads as its digits), refused unless a text or a number."""

    def table(self, key: str) -> dict[str, Any]:
        """The table ``key`` (empty when absent), refused unless a table."""


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
        keys: The keys of its table (besides ``asks``, the question each value asks).
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
    """

    name: str
    table: str
    summary: str
    keys: tuple[str, ...]
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


def tidy_row(metric: str, value: float, low: float, high: float, trials: int | None) -> dict[str, Any]:
    """One tidy row; a sampled figure without an interval of its own (a count, an interpolation) gets [value, value].

    Such a figure is a deterministic function of the seed's streams: ``simlab regress`` then counts any change.
    """
    if trials is not None and (np.isnan(low) or np.isnan(high)):
        low = high = value
    return {"metric": metric, "value": value, "ci_low": low, "ci_high": high, "trials": trials}
