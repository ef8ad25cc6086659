"""Charts read by pointing: Vega-Lite specifications of the charts the reports draw as pictures.

Each function takes the same tidy frame as its picture in :mod:`simlab.output.plots` (a
distribution's ``outcome``/``probability`` rows, a sweep's ``value``/``ci_low``/``ci_high``
points) and returns a Vega-Lite specification (plain JSON) that the page draws in the browser:
hovering a mark shows its value and its 95 % interval, a distribution turns to the chance of at
least each outcome, and a series is picked out by clicking its legend, all without asking the
server again. The colours are the pictures' (matplotlib's ten), given to the series in the
order the answer names them, so an option keeps its colour across the charts of one answer.

Why Vega-Lite: its specifications are data (a chart is a dict the server writes into the page,
checked by the tests like any JSON), and its scripts are 0.84 MB (0.28 MB compressed) against
1.1 MB for Plotly's smallest bundle; the page serves them itself, from ``/static``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from simlab.engine.intervals import wilson
from simlab.text import shown, shown_interval

__all__ = [
    "COLOURS",
    "VEGA_LITE_SCHEMA",
    "distribution_spec",
    "outcomes_spec",
    "survival_spec",
    "curve_spec",
    "heatmap_spec",
]

#: The Vega-Lite version the page's scripts draw.
VEGA_LITE_SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json"
#: The series colours: matplotlib's ten, as the pictures of the reports use them (C0, C1...).
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf")  # fmt: skip
#: Outcomes a distribution shows as bars of their own at most; past it, outcomes beyond 99.9 % are cut.
_MANY_OUTCOMES = 12
_HEIGHT = 220
_CONFIG = {
    "view": {"stroke": None},
    "axis": {"labelFontSize": 11, "titleFontSize": 11, "titleFontWeight": "normal", "gridOpacity": 0.5},
    "legend": {"labelFontSize": 11, "titleFontSize": 11, "orient": "bottom", "labelLimit": 260},
    "title": {"fontSize": 12, "fontWeight": "normal", "anchor": "start"},
}


def _chart(title: str, layers: dict[str, Any], data: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    """A whole specification: its data inline, as wide as the page lets it be."""
    return {
        "$schema": VEGA_LITE_SCHEMA,
        "title": title,
        "width": "container",
        "height": _HEIGHT,
        "data": {"values": data},
        "config": _CONFIG,
        **more,
        **layers,
    }


def _colour(series: Sequence[str]) -> dict[str, Any]:
    """The colour of each series, in the order given (the pictures' colours, and the same on every chart)."""
    return {"domain": list(series), "range": [COLOURS[i % len(COLOURS)] for i in range(len(series))]}


def _picked(field: str, title: str, series: Sequence[str]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A legend whose entries pick their series out (a click; shift-click adds one), and the series' colours."""
    params = [{"name": "picked", "select": {"type": "point", "fields": [field]}, "bind": "legend"}]
    colour = {"field": field, "type": "nominal", "title": title, "scale": _colour(series), "sort": list(series)}
    return params, colour


def distribution_spec(
    frame: pd.DataFrame,
    name: str,
    title: str,
    axis: str,
    trials: int | None = None,
    series: str | None = None,
    series_title: str = "",
    outcome_labels: Mapping[int, str] | None = None,
) -> dict[str, Any]:
    """A distribution's chart: each outcome's chance, or (a box under it) the chance of at least each.

    Args:
        frame: Rows of ``outcome`` and ``probability`` (and ``series``): one distribution.
        name: The distribution's name (kept on the chart for the tests and the page).
        title: What it shows, in words.
        axis: The outcomes' axis title.
        trials: The trials of a sampled answer (each chance then comes with its Wilson interval); None: exact.
        series: The column naming each line (a loadout, a side); None: one.
        series_title: The legend's title.
        outcome_labels: Names of the outcomes (wound levels).
    """
    lines = list(dict.fromkeys(frame[series])) if series else [""]
    rows: list[dict[str, Any]] = []
    cut = _last_outcome(frame, series)
    for line in lines:
        part = (frame[frame[series] == line] if series else frame).sort_values("outcome")
        outcomes = [int(k) for k in part["outcome"]]
        chances = [float(p) for p in part["probability"]]
        tail = 0.0
        at_least = []
        for p in reversed(chances):
            tail += p
            at_least.append(min(tail, 1.0))
        at_least.reverse()
        for outcome, each, least in zip(outcomes, chances, at_least, strict=True):
            if cut is not None and outcome > cut:
                continue
            row: dict[str, Any] = {
                "outcome": outcome,
                "label": (outcome_labels or {}).get(outcome, str(outcome)),
                "each": each,
                "at_least": least,
                "each_text": shown(each),
                "at_least_text": shown(least),
            }
            if trials:
                row.update(_bounds("each", each, trials), **_bounds("at_least", least, trials))
            if series:
                row["series"] = line
            rows.append(row)
    chance = "atLeast ? datum.at_least : datum.each"
    transforms: list[dict[str, Any]] = [
        {"calculate": chance, "as": "chance"},
        {"calculate": "atLeast ? datum.at_least_text : datum.each_text", "as": "chance_text"},
    ]
    tooltip = [
        {"field": "label", "type": "nominal", "title": axis},
        {"field": "chance_text", "type": "nominal", "title": "chance"},
    ]
    if trials:
        transforms += [
            {"calculate": "atLeast ? datum.at_least_low : datum.each_low", "as": "low"},
            {"calculate": "atLeast ? datum.at_least_high : datum.each_high", "as": "high"},
            {"calculate": "atLeast ? datum.at_least_interval : datum.each_interval", "as": "interval"},
        ]
        tooltip.append({"field": "interval", "type": "nominal", "title": "95 % interval"})
    else:
        transforms.append({"calculate": "'exact'", "as": "interval"})
        tooltip.append({"field": "interval", "type": "nominal", "title": "method"})
    toggle = {"name": "atLeast", "value": False,
                "bind": {"input": "checkbox", "name": "the chance of at least each "}}  # fmt: skip
    params: list[dict[str, Any]] = []
    order = list(dict.fromkeys(row["label"] for row in sorted(rows, key=lambda row: row["outcome"])))
    x = {"field": "label", "type": "ordinal", "title": axis, "sort": order,
         "axis": {"labelAngle": 0, "labelOverlap": True}}  # fmt: skip
    y = {"field": "chance", "type": "quantitative", "title": "chance"}
    encoding: dict[str, Any] = {"x": x, "y": y, "tooltip": tooltip}
    if series:
        picked, colour = _picked("series", series_title, lines)
        params += picked
        tooltip.insert(0, {"field": "series", "type": "nominal", "title": series_title})
        encoding.update(color=colour, xOffset={"field": "series", "sort": lines},
                        opacity={"condition": {"param": "picked", "value": 1}, "value": 0.2})  # fmt: skip
    else:
        encoding["color"] = {"value": COLOURS[0]}
    bars: dict[str, Any] = {"mark": {"type": "bar", "tooltip": True}, "encoding": encoding}
    if params:
        bars["params"] = params
    layers: list[dict[str, Any]] = [bars]
    if trials:  # each bar's interval
        whisker = {k: v for k, v in encoding.items() if k in ("x", "xOffset", "tooltip")}
        layers.append({"mark": {"type": "rule", "color": "#333"},
                       "encoding": {**whisker, "y": {"field": "low", "type": "quantitative"},
                                    "y2": {"field": "high"}}})  # fmt: skip
    return _chart(title, {"layer": layers}, rows, transform=transforms, name=name, params=[toggle],
                  usermeta={"chart": name, "marks": len(rows)})  # fmt: skip


def _bounds(prefix: str, p: float, trials: int) -> dict[str, Any]:
    low, high = wilson(round(p * trials), trials)
    return {f"{prefix}_low": low, f"{prefix}_high": high, f"{prefix}_interval": shown_interval(low, high)}


def _last_outcome(frame: pd.DataFrame, series: str | None) -> int | None:
    """The last outcome a chart of many shows: where every line has 99.9 % of its chance (None: all shown)."""
    if frame["outcome"].nunique() <= _MANY_OUTCOMES:
        return None
    last = int(frame["outcome"].min())
    for _, part in frame.groupby(series) if series else [("", frame)]:
        part = part.sort_values("outcome")
        reached = part["probability"].cumsum().to_numpy() >= 0.999 * part["probability"].sum()
        last = max(last, int(part["outcome"].to_numpy()[reached.argmax()]))
    return last


def outcomes_spec(title: str, outcomes: Sequence[tuple[str, float, tuple[float, float] | None]]) -> dict[str, Any]:
    """How an attack ends: its exclusive outcomes as one bar, each a share of it, in words.

    Args:
        title: What it shows.
        outcomes: Each outcome's words, chance and 95 % interval (None: exact).
    """
    names = [words for words, _, _ in outcomes]
    trials = any(interval for _, _, interval in outcomes)
    rows = [
        {
            "outcome": words,
            "order": i,
            "chance": value,
            "chance_text": shown(value),
            "interval": shown_interval(*interval) if interval else "exact",
        }
        for i, (words, value, interval) in enumerate(outcomes)
    ]
    params, colour = _picked("outcome", "", names)
    colour["legend"] = {"title": None, "columns": 2}
    encoding = {
        "x": {
            "field": "chance",
            "type": "quantitative",
            "stack": "zero",
            "title": "chance",
            "scale": {"domain": [0, 1]},
        },
        "color": colour,
        "order": {"field": "order"},
        "opacity": {"condition": {"param": "picked", "value": 1}, "value": 0.2},
        "tooltip": [
            {"field": "outcome", "type": "nominal", "title": "outcome"},
            {"field": "chance_text", "type": "nominal", "title": "chance"},
            {"field": "interval", "type": "nominal", "title": "95 % interval" if trials else "method"},
        ],
    }
    spec = _chart(title, {"mark": {"type": "bar", "tooltip": True}, "params": params, "encoding": encoding}, rows,
                  usermeta={"chart": "outcomes", "marks": len(rows)})  # fmt: skip
    spec["height"] = 44
    return spec


def survival_spec(title: str, frame: pd.DataFrame, sides: Mapping[str, str]) -> dict[str, Any]:
    """A battle's survival curves (ENG-5): expected figures standing after each turn, per side, with 95 % bands.

    Args:
        title: What it shows.
        frame: The battle's metrics (``metric``, ``value``, ``ci_low``, ``ci_high``): ``standing_a_turn_K`` and so on.
        sides: Each side's name (``a`` → "riflemen").
    """
    found = frame["metric"].str.extract(r"^standing_([ab])_turn_(\d+)$")
    rows = []
    for (side, turn), row in zip(found.itertuples(index=False), frame.to_dict("records"), strict=True):
        if not isinstance(side, str):
            continue
        low, high = row.get("ci_low"), row.get("ci_high")
        interval = shown_interval(low, high) if _is_number(low) and _is_number(high) else "exact"
        rows.append({"side": sides.get(side, side), "turn": int(turn), "standing": row["value"],
                     "standing_text": shown(row["value"]), "low": low if _is_number(low) else row["value"],
                     "high": high if _is_number(high) else row["value"], "interval": interval})  # fmt: skip
    names = list(dict.fromkeys(r["side"] for r in rows))
    params, colour = _picked("side", "side", names)
    x = {"field": "turn", "type": "quantitative", "title": "after turn", "axis": {"tickMinStep": 1}}
    tooltip = [
        {"field": "side", "type": "nominal"},
        {"field": "turn", "type": "quantitative", "title": "after turn"},
        {"field": "standing_text", "type": "nominal", "title": "expected figures standing"},
        {"field": "interval", "type": "nominal", "title": "95 % interval"},
    ]
    opacity = {"condition": {"param": "picked", "value": 1}, "value": 0.15}
    layers = [
        {"mark": {"type": "area", "opacity": 0.2},
         "encoding": {"x": x, "y": {"field": "low", "type": "quantitative"}, "y2": {"field": "high"},
                      "color": colour}},
        {"mark": {"type": "line", "point": True, "tooltip": True}, "params": params,
         "encoding": {"x": x, "y": {"field": "standing", "type": "quantitative",
                                    "title": "expected figures standing"},
                      "color": colour, "opacity": opacity, "tooltip": tooltip}},
    ]  # fmt: skip
    return _chart(title, {"layer": layers}, rows, usermeta={"chart": "survival", "marks": len(rows)})


def curve_spec(
    frame: pd.DataFrame, x: str, x_title: str, y_title: str, title: str, series_title: str = ""
) -> dict[str, Any]:
    """A metric against an input (a sweep's points), one line per ``series`` with its 95 % band.

    An input that is a number is a scale; one that names rows (a weapon) keeps the order given.

    Args:
        frame: The points: ``x``, ``value``, ``ci_low``, ``ci_high``, ``method`` (and ``series``, the line's words).
        x: The input along the x axis.
        x_title: Its title in words.
        y_title: The metric's title in words.
        title: What it shows.
        series_title: The legend's title (the series' input in words).
    """
    lines = list(dict.fromkeys(frame["series"])) if "series" in frame else [""]
    rows = []
    for record in frame.to_dict("records"):
        rows.append({"x": record[x], "series": record.get("series", ""), "value": record["value"],
                     "value_text": shown(record["value"]), "low": record["ci_low"], "high": record["ci_high"],
                     "interval": _point_interval(record)})  # fmt: skip
    if pd.api.types.is_numeric_dtype(frame[x]):
        axis_x: dict[str, Any] = {"field": "x", "type": "quantitative", "title": x_title, "scale": {"zero": False}}
    else:
        order = list(dict.fromkeys(str(r["x"]) for r in rows))
        axis_x = {"field": "x", "type": "ordinal", "title": x_title, "sort": order, "axis": {"labelAngle": -30}}
    tooltip = [
        {"field": "x", "type": axis_x["type"], "title": x_title},
        {"field": "value_text", "type": "nominal", "title": y_title},
        {"field": "interval", "type": "nominal", "title": "95 % interval"},
    ]
    encoding: dict[str, Any] = {"x": axis_x}
    line: dict[str, Any] = {"mark": {"type": "line", "point": True, "tooltip": True},
                            "encoding": {"y": {"field": "value", "type": "quantitative", "title": y_title},
                                         "tooltip": tooltip}}  # fmt: skip
    if len(lines) > 1 or lines != [""]:
        params, colour = _picked("series", series_title, lines)
        encoding["color"] = colour
        tooltip.insert(0, {"field": "series", "type": "nominal", "title": series_title})
        line["params"] = params
        line["encoding"]["opacity"] = {"condition": {"param": "picked", "value": 1}, "value": 0.15}
    else:
        encoding["color"] = {"value": COLOURS[0]}
    band = {"mark": {"type": "area", "opacity": 0.18},
            "encoding": {"y": {"field": "low", "type": "quantitative"}, "y2": {"field": "high"}}}  # fmt: skip
    return _chart(title, {"encoding": encoding, "layer": [band, line]}, rows,
                  usermeta={"chart": "sweep", "marks": len(rows)})  # fmt: skip


def heatmap_spec(
    frame: pd.DataFrame, rows: str, cols: str, rows_title: str, cols_title: str, value_title: str, title: str
) -> dict[str, Any]:
    """A metric over two inputs that are names (weapon × armour): a cell each, its value on pointing.

    Args:
        frame: The points: ``rows``, ``cols`` (in words), ``value``, ``ci_low``, ``ci_high``, ``method``.
        rows: The input down the side.
        cols: The input across.
        rows_title: Its title in words.
        cols_title: Its title in words.
        value_title: The metric in words.
        title: What it shows.
    """
    data = []
    for record in frame.to_dict("records"):
        data.append({"row": str(record[rows]), "col": str(record[cols]), "value": record["value"],
                     "value_text": shown(record["value"]), "interval": _point_interval(record)})  # fmt: skip
    row_order = list(dict.fromkeys(d["row"] for d in data))
    col_order = list(dict.fromkeys(d["col"] for d in data))
    encoding = {
        "y": {"field": "row", "type": "ordinal", "title": rows_title, "sort": row_order},
        "x": {"field": "col", "type": "ordinal", "title": cols_title, "sort": col_order, "axis": {"labelAngle": -30}},
        "color": {
            "field": "value",
            "type": "quantitative",
            "title": value_title,
            "scale": {"scheme": "viridis"},
            "legend": {"orient": "right"},
        },
        "tooltip": [
            {"field": "row", "type": "nominal", "title": rows_title},
            {"field": "col", "type": "nominal", "title": cols_title},
            {"field": "value_text", "type": "nominal", "title": value_title},
            {"field": "interval", "type": "nominal", "title": "95 % interval"},
        ],
    }
    spec = _chart(title, {"mark": {"type": "rect", "tooltip": True}, "encoding": encoding}, data,
                  usermeta={"chart": "sweep", "marks": len(data)})  # fmt: skip
    spec["height"] = max(_HEIGHT, 22 * len(row_order))
    return spec


def _point_interval(record: Mapping[str, Any]) -> str:
    """A point's 95 % interval in words, or "exact"."""
    return "exact" if record.get("method") == "exact" else shown_interval(record["ci_low"], record["ci_high"])


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not (isinstance(value, float) and math.isnan(value))
