"""``solve``: the value of an input, rule parameter or table column at which a metric reaches a target.

Or at which two setups' metrics are equal (:mod:`simlab.balance.solve`). Its tidy rows, per cell
and rule set: ``found`` (the answer, with its 95 % interval where sampled), ``interpolated`` (the
crossing between the two values around it), ``below`` and ``reached`` (the metric at the value
short of it and at it, with their intervals), ``crossings`` (how many; only this row, 0, when the
range holds none).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from simlab.analyses import register
from simlab.analyses.base import Analysis, Key, Listed, Reader, Said, tidy_row
from simlab.balance.setup import Setup
from simlab.balance.solve import Goal, NoCrossingError, most_values, parse_target, solve
from simlab.balance.unknowns import UnknownKeyError, check_unknown, find_unknown
from simlab.inputs.limits import Limits
from simlab.inputs.params import parse_assignments
from simlab.output import plots
from simlab.output.balance_report import held_in_words, search_chart
from simlab.output.balance_sentences import crossing_sentence, goal_text, said, solution_sentences
from simlab.output.document import Table, in_words
from simlab.output.words import Vocabulary, sentence_case
from simlab.records import BalanceAsk, ChartSpec, ExperimentRun
from simlab.text import shown, shown_interval

__all__ = ["SOLVE", "SOLVE_METRICS"]

#: The rows of each cell of a solve.
SOLVE_METRICS = ("found", "interpolated", "below", "reached", "crossings")


def _read(reader: Reader) -> BalanceAsk:
    """``[solve]``: ``find``, ``in``, ``tol``, and ``target`` or ``equal`` with ``[solve.a]`` and ``[solve.b]``."""
    given, setup = reader.given, reader.setup
    find, within = reader.text("find", 'the unknown, such as "dx"'), reader.text("in", 'its range, such as "6..20"')
    if ("target" in given) == ("equal" in given):
        raise reader.fail("target", 'give one of target = "METRIC=VALUE" and equal = "METRIC"')
    sides = {side: reader.table(side) for side in ("a", "b")}
    mine = setup if "target" in given else setup.with_changes(inputs={**setup.inputs, **sides["a"]})
    try:
        unknown = find_unknown(setup.owner, setup.question, find, within, given.get("tol"), reader.named)
        check_unknown(mine, unknown, reader.named)  # the setup the unknown is set in (A's, when made equal)
    except UnknownKeyError as exc:
        raise reader.fail(exc.key, exc.detail) from None
    if find in reader.grid:
        raise reader.fail(find, f"{find} is the unknown [solve] searches: leave it out of [grid]", "grid")
    if "target" in given:
        for side in ("a", "b"):
            if side in given:
                raise reader.fail(side, f"[solve.{side}] is a setup of equal; a target has one setup")
        metric, target = parse_target(reader.text("target", 'METRIC=VALUE, such as "p_hit=0.75"'))
        setup.check_metric(metric)
        return BalanceAsk("solve", metric, find, within, target, tol=unknown.tol, analysis="solve")
    metric = reader.text("equal", 'the metric made equal, such as "mean_damage"')
    setup.check_metric(metric)
    return BalanceAsk("solve", metric, find, within, None, sides["a"], sides["b"], tol=unknown.tol, analysis="solve")


def _units(ask: BalanceAsk, setup: Setup) -> int:
    """The most values one search asks (twice as many questions when two setups are made equal)."""
    unknown = find_unknown(setup.owner, setup.question, str(ask.find), str(ask.within), ask.tol)
    return most_values(unknown, setup.exact) * (2 if ask.target is None else 1)


def _answer(setup: Setup, ask: BalanceAsk, limits: Limits, counted: Callable[[Any], None], words: Vocabulary) -> Any:
    """One cell's search: its solution, or the sentence that says the range holds no crossing."""
    unknown = find_unknown(setup.owner, setup.question, str(ask.find), str(ask.within), ask.tol)
    if ask.target is not None:
        mine, goal = setup, Goal(ask.metric, ask.target)
    else:
        mine = setup.with_changes(inputs={**setup.inputs, **ask.a})
        other = setup.with_changes(inputs={**setup.inputs, **ask.b})
        goal = Goal(ask.metric, None, other, words.held(ask.a) or "A", words.held(ask.b) or "B")
    try:
        return solve(mine, unknown, goal, limits=limits, tried=counted)
    except NoCrossingError as none:
        return f"no crossing: {none}"


def _rows(solution: Any, trials: int | None) -> list[dict[str, Any]]:
    """A solve's rows (:data:`SOLVE_METRICS`): its first crossing, or its count alone when there is none."""
    nan = np.nan
    if solution is None or isinstance(solution, str):  # a table holds no blanks
        return [tidy_row("crossings", 0.0, nan, nan, trials)]
    answer = solution.answer
    interval = answer.interval or (nan, nan)

    def around(point: Any) -> tuple[float, float, float]:
        low, high = point.interval or (nan, nan)
        return point.value, low, high

    rows = [
        ("found", answer.value, *interval),
        ("interpolated", answer.interpolated, nan, nan),
        ("below", *around(answer.before)),
        ("reached", *around(answer.after)),
        ("crossings", float(len(solution.crossings)), nan, nan),
    ]
    return [tidy_row(m, v, lo, hi, trials) for m, v, lo, hi in rows]


def _headline(run: ExperimentRun, words: Vocabulary) -> list[str]:
    """Each cell's answer, led by where it was asked; then how it was found, said once."""
    lines = []
    last = None
    for variant, inputs, found in run.balance:
        held = held_in_words(run, variant, dict(inputs), words)
        if isinstance(found, str):
            lines.append(sentence_case(f"{held + ', ' if held else ''}{found}") + ".")
            continue
        each = "; and ".join(crossing_sentence(found, c, words) for c in found.crossings)
        lines.append(sentence_case(f"{held + ', ' if held else ''}{each}") + ".")
        last = found
    if last is not None:
        lines += solution_sentences(last, words)[len(last.crossings) :]
    return lines


def _table(run: ExperimentRun) -> pd.DataFrame:
    """One row a cell: the answer, its interval, the metric short of it and at it."""
    rows = []
    for variant, inputs, found in run.balance:
        row: dict[str, Any] = {"variant": variant, **{k: inputs[k] for k in run.experiment.grid}}
        if isinstance(found, str):
            row.update({"answer": "none in the range", "95 % interval": "", "short of it": "", "at it": ""})
        else:
            answer = found.answer
            shown = found.unknown.shown
            interval = f"{shown(answer.interval[0])} to {shown(answer.interval[1])}" if answer.interval else "exact"
            row.update({
                "answer": shown(answer.value),
                "95 % interval": interval,
                "short of it": f"{shown(answer.before.x)}: {said(answer.before)}",
                "at it": f"{shown(answer.after.x)}: {said(answer.after)}",
                "crossings": len(found.crossings),
            })  # fmt: skip
        rows.append(row)
    frame = pd.DataFrame(rows)
    return frame if run.experiment.variants else frame.drop(columns="variant")


def _said(run: ExperimentRun, words: Vocabulary) -> Said:
    ask = run.experiment.balance
    assert ask is not None
    first = next((found for _, _, found in run.balance if not isinstance(found, str)), None)
    question = goal_text(first, words) if first is not None else f"{ask.find} over {ask.within}"
    question = f"{question}, {run.experiment.question.title.lower()} at each value"
    table = in_words(Table("The answer in every cell", _table(run)), words, run.experiment.grid)
    return Said(question, _headline(run, words), [table])


def _tried(run: ExperimentRun, words: Vocabulary) -> pd.DataFrame:
    """Every value tried in every search, one series per cell and rule set."""
    frames = []
    for variant, inputs, found in run.balance:
        if isinstance(found, str):
            continue
        frame = found.tried_frame()
        frame["series"] = held_in_words(run, variant, dict(inputs), words) or words.name(found.goal.metric, "metrics")
        frames.append(frame)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def _charts(run: ExperimentRun, words: Vocabulary) -> list[tuple[ChartSpec, Any]]:
    """Every search with its target, in one chart."""
    ask = run.experiment.balance
    assert ask is not None
    tried = _tried(run, words)
    if not len(tried):
        return []
    answers = [c.value for _, _, found in run.balance if not isinstance(found, str) for c in found.crossings]
    return [(ChartSpec("search", {"name": "search"}), plots.search(tried, str(ask.find), ask.metric, ask.target,
                                                                   answers))]  # fmt: skip


def _sentences(found: Any, words: Vocabulary) -> list[str]:
    return [found] if isinstance(found, str) else solution_sentences(found, words)


def _figures(found: Any, words: Vocabulary) -> list[tuple[str, str, Any]]:
    return [("balance", f"{words.name(found.goal.metric, 'metrics')} at every value tried", search_chart(found))]


def _listed(found: Any, words: Vocabulary) -> Listed:
    """Every value tried, in order: the metric there and its interval."""
    unknown, rows = found.unknown, []
    for point in found.tried:
        interval = shown_interval(*point.interval) if point.interval else ""
        at = int(point.x) if unknown.whole else round(point.x, 4)
        rows.append({"name": unknown.shown(point.x), "words": words.where(unknown.name, at),
                     "shown": shown(point.value), "doc": "", "interval": interval})  # fmt: skip
    return Listed("values tried", rows)


def _setup_inputs(texts: list[str], where: str) -> dict[str, Any]:
    """A setup's own inputs, ``KEY=VALUE`` each."""
    return dict(parse_assignments(texts, where))


#: The keys of ``[solve]``, ``simlab solve``'s options, the page's fields.
KEYS = (
    Key("find", "the unknown: an input, rule parameter or ROW.COLUMN (a battle's a.count)", "NAME",
        choices="numbers", leads=True, names_input=True),
    Key("in", "its range, LOW..HIGH: 6..20, or 0.5..3 for a real one", "LOW..HIGH", keyword="within"),
    Key("target", "METRIC=VALUE, the value the metric must reach: {metrics}", "METRIC=VALUE"),
    Key("equal", "or make this metric of setup A (with the unknown) equal to B's", "METRIC", web=False),
    Key("a", "with equal: setup A's own inputs", "KEY=VALUE", many=";", convert=_setup_inputs, web=False),
    Key("b", "with equal: setup B's own inputs", "KEY=VALUE", many=";", convert=_setup_inputs, web=False),
    Key("tol", "a real unknown's precision, in its units (blank: a millionth of the range when exact, a "
        "thousandth when sampled)", "PRECISION"),
)  # fmt: skip


SOLVE = register(
    Analysis(
        name="solve",
        table="solve",
        summary="the value that makes a metric reach a target, or two setups equal",
        keys=KEYS,
        read=_read,
        units=_units,
        columns=(),
        answer=_answer,
        rows=_rows,
        said=_said,
        charts=_charts,
        sentences=_sentences,
        figures=_figures,
        listed=_listed,
        frame=lambda found: found.tried_frame(),
    )
)
