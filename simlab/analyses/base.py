"""What every analysis is: one record of what it needs, how one cell of it is answered, and how it is said.

An analysis (a solve, a sensitivity, a tournament, a matchup) asks a question of a system again
and again (:class:`~simlab.balance.setup.Setup`) and answers with one result. Its record says
everything the front ends loop over: how an experiment's cell runs it and which tidy rows it
writes, and how its report and charts say the answer. Each analysis is one module of
:mod:`simlab.analyses` registering one record.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from simlab.balance.setup import Setup
from simlab.inputs.limits import Limits
from simlab.output.document import Table
from simlab.output.words import Vocabulary
from simlab.records import BalanceAsk, ChartSpec, ExperimentRun

__all__ = ["Analysis", "Said", "tidy_row"]


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
        columns: The input columns its tidy rows add (a tournament's ``option`` and ``against``).
        answer: Answers one cell: ``(setup, ask, limits, progress, words)`` → its result (a solve
            that finds no crossing answers the sentence that says so).
        rows: A result's tidy rows (``metric``, ``value``, ``ci_low``, ``ci_high``, ``trials``, and
            ``cell`` and its own columns where it has them), given the trials of each value.
        said: What its report says of a run: ``(run, words)`` → :class:`Said`.
        charts: Its charts of a run: ``(run, words)`` → ``(spec, figure)`` pairs.
    """

    name: str
    table: str
    summary: str
    columns: tuple[str, ...]
    answer: Callable[[Setup, BalanceAsk, Limits, Callable[[Any], None], Vocabulary], Any]
    rows: Callable[[Any, int | None], list[dict[str, Any]]]
    said: Callable[[ExperimentRun, Vocabulary], Said]
    charts: Callable[[ExperimentRun, Vocabulary], Sequence[tuple[ChartSpec, Any]]]


def tidy_row(metric: str, value: float, low: float, high: float, trials: int | None) -> dict[str, Any]:
    """One tidy row; a sampled figure without an interval of its own (a count, an interpolation) gets [value, value].

    Such a figure is a deterministic function of the seed's streams: ``simlab regress`` then counts any change.
    """
    if trials is not None and (np.isnan(low) or np.isnan(high)):
        low = high = value
    return {"metric": metric, "value": value, "ci_low": low, "ci_high": high, "trials": trials}
