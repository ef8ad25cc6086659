"""The Sweep view: one input along the x axis, a metric on the y axis, one line per value of another.

``/sweep/SYSTEM?x=range_m&values=4,20,60&metric=p_hit&series=weapon&series_values=...`` with
the scenario's other inputs as on the Ask page: the hit-probability and damage-by-range
charts designers ask for, or (with a ``series`` and an ``x`` that is not a number) a heatmap
such as weapon × armour. Any question sweeps (``kind=duel`` with ``x=a.weapon``,
``kind=battle`` with ``x=a.groups.0.count``): its inputs are its own page's fields
(:mod:`simlab.web.varied`). Every point is one answer of the system, exact or sampled, so the
chart is the one ``simlab run`` would draw of an experiment with that grid.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from simlab.inputs.errors import SimlabError
from simlab.output import interactive
from simlab.output.plots import label_of
from simlab.output.words import Vocabulary
from simlab.text import same_value, shown_interval
from simlab.web.answers import grid_answer, shown
from simlab.web.cache import answer_of
from simlab.web.config import Site
from simlab.web.forms import ALL, field, listed, options_field
from simlab.web.query import joined
from simlab.web.questions import Query
from simlab.web.varied import requests_within, varied, view_form, view_items, view_query

__all__ = [
    "SweepQuery",
    "parse_sweep",
    "sweep_items",
    "sweep_table",
    "sweep_chart",
    "sweep_experiment",
    "MAX_POINTS",
    "SWEEP_KEYS",
    "sweep_points",
    "sweep_answer",
    "sweep_fields",
]

#: The most points (answers) one sweep may ask for.
MAX_POINTS = 400
#: The keys of a sweep besides those of the question it varies.
SWEEP_KEYS = ("x", "values", "metric", "series", "series_values")


@dataclass(frozen=True)
class SweepQuery:
    """A sweep as a URL holds it: the question it varies (any kind) and how."""

    query: Query
    x: str
    values: tuple[str, ...]
    metric: str
    series: str | None = None
    series_values: tuple[str, ...] = ()

    def cells(self) -> list[dict[str, str]]:
        """The values of x (and of the series) at every point, series by series."""
        lines = self.series_values if self.series else ("",)
        series = [{self.series: line} if self.series else {} for line in lines]
        return [{self.x: value, **line} for line in series for value in self.values]

    def points(self) -> list[Query]:
        """The questions of every point, series by series."""
        return [varied(self.query, cell) for cell in self.cells()]


def parse_sweep(site: Site, system: str, items: Iterable[tuple[str, str]]) -> SweepQuery:
    """The sweep of a query string's pairs.

    Raises:
        SimlabError: For a missing ``x`` or ``metric``, an input the question's page has no field for,
            an empty list of values, an input swept twice, or too many points.
    """
    pairs = list(items)
    own = joined(pairs, SWEEP_KEYS)
    base, asked, question = view_query(site, system, pairs, SWEEP_KEYS)
    for key in ("x", "metric"):
        if key not in own:
            raise SimlabError(f"a sweep needs {key}: the input along the x axis and the metric shown")
    series = own.get("series")
    if series == own["x"]:
        raise SimlabError(f"series {series!r} is also x: choose another input for the lines")
    _, fields = view_form(site, base, asked, question)
    query = SweepQuery(
        query=question,
        x=own["x"],
        values=listed(fields, own["x"], own.get("values"), "values"),
        metric=own["metric"],
        series=series,
        series_values=listed(fields, series, own.get("series_values"), "series_values") if series else (),
    )
    if len(query.values) * max(1, len(query.series_values)) > MAX_POINTS:
        raise SimlabError(f"the sweep asks for more than {MAX_POINTS} answers: give fewer values")
    return query


def sweep_table(query: SweepQuery, answers: list[dict[str, Any]]) -> pd.DataFrame:
    """The tidy table of the answers (one row per point and metric), as a run's table is."""
    rows = []
    for point, answer in zip(query.cells(), answers, strict=True):
        if query.metric not in answer["metrics"]:
            raise SimlabError(f"unknown metric {query.metric!r} (valid: {', '.join(answer['metrics'])})")
        low, high = answer.get("ci95", {}).get(query.metric, (None, None))
        rows.append(
            {
                query.x: _number(point[query.x]),
                **({query.series: point[query.series]} if query.series else {}),
                "method": answer["method"],
                "metric": query.metric,
                "value": answer["metrics"][query.metric],
                "ci_low": answer["metrics"][query.metric] if low is None else low,
                "ci_high": answer["metrics"][query.metric] if high is None else high,
            }
        )
    return pd.DataFrame(rows)


def _number(text: str) -> Any:
    try:
        return float(text)
    except ValueError:
        return text


def sweep_chart(query: SweepQuery, table: pd.DataFrame, caption: str) -> dict[str, Any]:
    """A curve of the metric against x (one line per series value), or a heatmap when x is not a number.

    The page's chart (Vega-Lite) of the picture ``simlab run`` draws of the sweep's experiment.
    """
    words = Vocabulary()
    metric = label_of(query.metric, "metrics")
    x_title = label_of(query.x)
    numeric = pd.api.types.is_numeric_dtype(table[query.x])
    in_words = table.assign(**{query.x: [v if numeric else words.value(query.x, v) for v in table[query.x]]})
    if query.series:
        in_words = in_words.assign(series=[words.value(query.series, v) for v in table[query.series]])
        if not numeric:
            return interactive.heatmap_spec(in_words, "series", query.x, label_of(query.series), x_title, metric,
                                            caption)  # fmt: skip
    return interactive.curve_spec(in_words, query.x, x_title, metric, caption, label_of(query.series or ""))


def sweep_items(query: SweepQuery) -> list[tuple[str, Any]]:
    """The query string of a sweep (the inverse of :func:`parse_sweep`)."""
    own: list[tuple[str, Any]] = [("x", query.x), ("values", ",".join(query.values)), ("metric", query.metric)]
    if query.series:
        own += [("series", query.series), ("series_values", ",".join(query.series_values))]
    return own + view_items(query.query, (query.x, query.series or ""))


def _toml(value: Any) -> str:
    """A value typed in a form as TOML: a number or a boolean as such, anything else a string."""
    text = str(value)
    if text.lower() in ("true", "false"):
        return text.lower()
    number = _number(text)
    return text if isinstance(number, float) and text.strip() == text else json.dumps(text)


def sweep_experiment(query: SweepQuery, site: Site) -> str:
    """The experiment file that runs the same sweep with ``simlab run`` (and draws the same chart).

    A battle's experiment names its battle file by its full path, so the file runs wherever it is saved.
    """
    asked = query.query
    lines = ['name = "sweep"', f'system = "{asked.system}"']
    if asked.kind != "attack":
        lines.append(f'kind = "{asked.kind}"')
    battle = str(getattr(asked, "battle", ""))
    if battle in site.battles:
        lines.append(f"battle = {json.dumps(str(site.battles[battle][1].resolve()))}")
    lines.append(f'method = "{asked.method}"')
    if asked.method != "exact":
        lines += [*([f"trials = {asked.trials}"] if asked.trials else []), f"seed = {asked.seed}"]
    fixed = {k: v for k, v in asked.inputs.items() if k not in (query.x, query.series)}
    if fixed:
        lines += ["", "[fixed]", *(f"{json.dumps(k)} = {_toml(v)}" for k, v in fixed.items())]
    if asked.rules:
        lines += ["", "[rules]", *(f"{json.dumps(k)} = {_toml(v)}" for k, v in asked.rules.items())]
    lines += ["", "[grid]", f"{json.dumps(query.x)} = [{', '.join(_toml(v) for v in query.values)}]"]
    if query.series:
        lines.append(f"{json.dumps(query.series)} = [{', '.join(_toml(v) for v in query.series_values)}]")
    chart = "heatmap" if query.series and not isinstance(_number(query.values[0]), float) else "curve"
    lines += ["", "[[charts]]", f'kind = "{chart}"', f'metric = "{query.metric}"']
    if chart == "heatmap":
        lines += [f'rows = "{query.series}"', f'cols = "{query.x}"']
    else:
        lines += [f'x = "{query.x}"', *([f'by = "{query.series}"'] if query.series else [])]
    return "\n".join(lines) + "\n"


def sweep_points(query: SweepQuery, site: Site) -> list[dict[str, Any]]:
    """Each point of a sweep: its inputs, method, metrics and intervals (the trials of all within the cap)."""
    points = query.points()
    found = []
    for point, asked in zip(points, requests_within(site, points, "sweep"), strict=True):
        result = answer_of(site.answers, point, asked)
        found.append({"inputs": dict(point.inputs), "method": result["method"], "metrics": result["metrics"],
                      "ci95": result.get("ci95", {})})  # fmt: skip
    return found


def sweep_answer(query: SweepQuery, site: Site) -> dict[str, Any]:
    """The chart and table of a sweep, its links, and the experiment file that runs it."""
    answers = sweep_points(query, site)
    table = sweep_table(query, answers)
    words = Vocabulary()
    caption = f"{words.name(query.metric, 'metrics')} against {words.name(query.x, 'inputs')}"
    chart = {"name": "sweep", "caption": caption, "spec": sweep_chart(query, table, caption)}
    keys = [query.x, *([query.series] if query.series else [])]
    metrics = [
        {
            "name": ", ".join(shown(row[k]) for k in keys),
            "words": words.held({k: row[k] for k in keys}),
            "shown": shown(row["value"]),
            "interval": shown_interval(row["ci_low"], row["ci_high"]),
            "doc": "",
        }
        for row in table.to_dict("records")
    ]
    note = "The same as an experiment: save it as sweep.toml and run simlab run sweep.toml"
    experiment = sweep_experiment(query, site)
    answered = grid_answer("sweep", query.query, sweep_items(query), metrics, [chart], experiment, note)
    answered["answer"]["key"] = extremes(table, keys, query.metric)
    return answered


def extremes(table: pd.DataFrame, keys: Sequence[str], metric: str) -> list[dict[str, str]]:
    """A sweep's key numbers: its highest and lowest points, where they are, with their 95 % intervals.

    Exact points of the same value are said as tied (the first named, and how many more).
    """
    if not len(table):
        return []
    words = Vocabulary()
    found = []
    for said, row in (("highest", table.loc[table["value"].idxmax()]), ("lowest", table.loc[table["value"].idxmin()])):
        exact = row["method"] == "exact"
        tied = sum(same_value(float(v), float(row["value"])) for v in table["value"])
        found.append({
            "name": f"{said} {metric}",
            "shown": shown(float(row["value"]), 3),
            "words": f"{said} {words.name(metric, 'metrics')}: {words.held({k: row[k] for k in keys})}",
            **({"note": f"exact, tied with {tied - 1} more" if tied > 1 else "exact"} if exact else
               {"interval": shown_interval(row["ci_low"], row["ci_high"], digits=3)}),
        })  # fmt: skip
    return found


def sweep_fields(
    fields: Mapping[str, dict[str, Any]], metrics: Sequence[str], given: dict[str, str]
) -> list[dict[str, Any]]:
    """The Sweep view's own fields: the x input and its values, the metric, the series and its values.

    Args:
        fields: The fields of the question's page that may vary, by key.
        metrics: The question's metrics.
        given: The query's values.
    """
    names = list(fields)
    x = field({"name": "x", "default": "", "choices": names, "doc": "the input along the x axis"}, "x", given.get("x"))
    series = field(
        {"name": "series", "default": "", "doc": "an input with one line per value (optional)"}, "series",
        given.get("series"), names,
    )  # fmt: skip
    metric = field(
        {"name": "metric", "default": "", "choices": list(metrics), "doc": "the metric shown"}, "metric",
        given.get("metric"),
    )  # fmt: skip
    doc = f"its values (or {ALL}), separated by commas"
    return [
        {**x, "reload": True},
        options_field(fields, given.get("x") or names[0], "values", given.get("values"), doc),
        metric,
        {**series, "reload": True, "blank": "(none)"},
        options_field(fields, given.get("series"), "series_values", given.get("series_values"), doc),
    ]
