"""The Sweep view: one input along the x axis, a metric on the y axis, one line per value of another.

``/sweep/SYSTEM?x=range_m&values=4,20,60&metric=p_hit&series=weapon&series_values=...`` with
the scenario's other inputs as on the Ask page: the hit-probability and damage-by-range
charts designers ask for, or (with a ``series`` and an ``x`` that is not a number) a heatmap
such as weapon × armour. Every point is one answer of the system, exact or sampled, so the
chart is the one ``simlab run`` would draw of an experiment with that grid.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd

from simlab.inputs.errors import SimlabError
from simlab.inputs.params import describe
from simlab.output import plots
from simlab.output.document import Chart
from simlab.output.publish import png_bytes
from simlab.systems import Question, System, get_system, question_of
from simlab.web.answers import grid_answer, shown
from simlab.web.cache import answer_of
from simlab.web.config import Site
from simlab.web.forms import ALL, field, listed, options_field
from simlab.web.query import AttackQuery, joined, parse_attack, query_items

__all__ = [
    "SweepQuery",
    "parse_sweep",
    "sweep_items",
    "sweep_table",
    "sweep_chart",
    "sweep_experiment",
    "MAX_POINTS",
    "SWEEP_KEYS",
    "sweep_point",
    "sweep_answer",
    "sweep_fields",
]

#: The most points (answers) one sweep may ask for.
MAX_POINTS = 400
#: The keys of a sweep besides those of one attack.
SWEEP_KEYS = ("x", "values", "metric", "series", "series_values")


@dataclass(frozen=True)
class SweepQuery:
    """A sweep as a URL holds it: the attack it varies and how."""

    attack: AttackQuery
    x: str
    values: tuple[str, ...]
    metric: str
    series: str | None = None
    series_values: tuple[str, ...] = ()

    def points(self) -> list[AttackQuery]:
        """The attacks of every point, series by series."""
        lines = self.series_values if self.series else ("",)
        result = []
        for line in lines:
            for value in self.values:
                inputs = {**self.attack.inputs, self.x: value, **({self.series: line} if self.series else {})}
                result.append(replace(self.attack, inputs=inputs))
        return result


def parse_sweep(system: str, items: Iterable[tuple[str, str]], sampled_only: bool = False) -> SweepQuery:
    """The sweep of a query string's pairs.

    Raises:
        SimlabError: For a missing ``x``, ``values`` or ``metric``, an input swept twice, or too many points.
    """
    pairs = list(items)
    own = joined(pairs, SWEEP_KEYS)
    attack = parse_attack(system, [(k, v) for k, v in pairs if k not in SWEEP_KEYS], sampled_only)
    for key in ("x", "metric"):
        if key not in own:
            raise SimlabError(f"a sweep needs {key}: the input along the x axis and the metric shown")
    base = get_system(system)
    asked = question_of(base, attack.kind)
    series = own.get("series")
    if series == own["x"]:
        raise SimlabError(f"series {series!r} is also x: choose another input for the lines")
    query = SweepQuery(
        attack=attack,
        x=own["x"],
        values=listed(base, asked, own["x"], own.get("values"), "values"),
        metric=own["metric"],
        series=series,
        series_values=listed(base, asked, series, own.get("series_values"), "series_values") if series else (),
    )
    if len(query.values) * max(1, len(query.series_values)) > MAX_POINTS:
        raise SimlabError(f"the sweep asks for more than {MAX_POINTS} answers: give fewer values")
    return query


def sweep_table(query: SweepQuery, answers: list[dict[str, Any]]) -> pd.DataFrame:
    """The tidy table of the answers (one row per point and metric), as a run's table is."""
    rows = []
    for point, answer in zip(query.points(), answers, strict=True):
        if query.metric not in answer["metrics"]:
            raise SimlabError(f"unknown metric {query.metric!r} (valid: {', '.join(answer['metrics'])})")
        low, high = answer.get("ci95", {}).get(query.metric, (None, None))
        rows.append(
            {
                query.x: _number(point.inputs[query.x]),
                **({query.series: point.inputs[query.series]} if query.series else {}),
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


def sweep_chart(query: SweepQuery, table: pd.DataFrame) -> Any:
    """A curve of the metric against x (one line per series value), or a heatmap when x is not a number."""
    numeric = pd.api.types.is_numeric_dtype(table[query.x])
    if query.series and not numeric:
        return plots.heatmap(table, query.metric, rows=query.series, cols=query.x)
    return plots.curve(table, query.metric, query.x, by=query.series)


def sweep_items(query: SweepQuery) -> list[tuple[str, Any]]:
    """The query string of a sweep (the inverse of :func:`parse_sweep`)."""
    own: list[tuple[str, Any]] = [("x", query.x), ("values", ",".join(query.values)), ("metric", query.metric)]
    if query.series:
        own += [("series", query.series), ("series_values", ",".join(query.series_values))]
    return own + [(k, v) for k, v in query_items(query.attack) if k not in (query.x, query.series)]


def _toml(value: Any) -> str:
    """A value typed in a form as TOML: a number or a boolean as such, anything else a string."""
    text = str(value)
    if text.lower() in ("true", "false"):
        return text.lower()
    number = _number(text)
    return text if isinstance(number, float) and text.strip() == text else json.dumps(text)


def sweep_experiment(query: SweepQuery) -> str:
    """The experiment file that runs the same sweep with ``simlab run`` (and draws the same chart)."""
    attack = query.attack
    lines = ['name = "sweep"', f'system = "{attack.system}"']
    if attack.kind != "attack":
        lines.append(f'kind = "{attack.kind}"')
    lines.append(f'method = "{attack.method}"')
    if attack.method != "exact":
        lines += [*([f"trials = {attack.trials}"] if attack.trials else []), f"seed = {attack.seed}"]
    fixed = {k: v for k, v in attack.inputs.items() if k not in (query.x, query.series)}
    if fixed:
        lines += ["", "[fixed]", *(f"{json.dumps(k)} = {_toml(v)}" for k, v in fixed.items())]
    if attack.rules:
        lines += ["", "[rules]", *(f"{json.dumps(k)} = {_toml(v)}" for k, v in attack.rules.items())]
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


def sweep_point(point: AttackQuery, site: Site) -> dict[str, Any]:
    """One point of a sweep: its method, metrics and intervals."""
    result = answer_of(site.answers, point, point.request(site))
    return {"method": result["method"], "metrics": result["metrics"], "ci95": result.get("ci95", {})}


def sweep_answer(query: SweepQuery, site: Site) -> dict[str, Any]:
    """The chart and table of a sweep, its links, and the experiment file that runs it."""
    answers = [sweep_point(point, site) for point in query.points()]
    table = sweep_table(query, answers)
    figure = sweep_chart(query, table)
    width, height = (float(v) for v in figure.get_size_inches())
    chart = Chart("sweep", f"{query.metric} against {query.x}", png_bytes(figure), width, height)
    keys = [query.x, *([query.series] if query.series else [])]
    metrics = [
        {
            "name": ", ".join(shown(row[k]) for k in keys),
            "shown": shown(row["value"]),
            "interval": f"{shown(row['ci_low'])} – {shown(row['ci_high'])}",
            "doc": "",
        }
        for row in table.to_dict("records")
    ]
    note = "The same as an experiment: save it as sweep.toml and run simlab run sweep.toml"
    return grid_answer("sweep", query.attack, sweep_items(query), metrics, [chart], sweep_experiment(query), note)


def sweep_fields(base: System, asked: Question, given: dict[str, str]) -> list[dict[str, Any]]:
    """The Sweep view's own fields: the x input and its values, the metric, the series and its values."""
    names = [spec["name"] for spec in describe(asked.inputs_type)]
    x = field({"name": "x", "default": "", "choices": names, "doc": "the input along the x axis"}, "x", given.get("x"))
    series = field(
        {"name": "series", "default": "", "doc": "an input with one line per value (optional)"}, "series",
        given.get("series"), ["", *names],
    )  # fmt: skip
    metric = field(
        {"name": "metric", "default": "", "choices": list(asked.metrics), "doc": "the metric shown"}, "metric",
        given.get("metric"),
    )  # fmt: skip
    doc = f"its values (or {ALL}), separated by commas"
    return [
        {**x, "reload": True},
        options_field(base, asked, given.get("x") or names[0], "values", given.get("values"), doc),
        metric,
        {**series, "reload": True},
        options_field(base, asked, given.get("series"), "series_values", given.get("series_values"), doc),
    ]
