"""Charts of a metric along an input: curves, bars, series over time, survival and stacked outcomes."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from simlab.output.pivots import averaged_over, format_value, preferred_method, select
from simlab.output.plots.style import (
    MAX_WIDTH_IN,
    by_columns,
    chart_title,
    coinciding,
    fixed_layout,
    joined_names,
    label_of,
    line_labels,
    methods_note,
    new_figure,
    series_style,
    vocabulary_now,
)

__all__ = [
    "curve",
    "bars",
    "attacks_to_incapacitate",
    "series",
    "survival",
    "stacked",
]


def curve(
    table: pd.DataFrame,
    metric: str,
    x: str,
    by: str | Sequence[str] | None = None,
    where: Mapping[str, Any] | None = None,
    title: str | None = None,
    target: float | None = None,
) -> Figure:
    """``metric`` against a numeric input ``x``, one line per value of ``by`` (and a dashed ``target``).

    Used for hit-probability curves (``p_hit`` against ``dx``), range fall-off curves
    (``mean_damage`` against ``range_m``) and thresholds (the target a question's answer reaches).
    """
    frame = select(table, where, metric=metric)
    if pd.api.types.is_numeric_dtype(frame[x]):
        frame = frame.sort_values(x, kind="stable")  # else the grid's order (care: none, medic, doctor...)
    keys = by_columns(by)
    labels = line_labels(frame, keys)
    figure = new_figure(7.6 if keys else 6.4, 4.0, layout=None)
    axes = figure.add_subplot()
    drawn = coinciding(frame, labels, x)
    for i, (label, names) in enumerate(drawn.items()):
        part = frame[labels == label]
        exact = part[part["method"] == "exact"]
        sampled = part[part["method"] == "monte_carlo"]
        colour, marker = series_style(i, len(drawn))
        named = joined_names(names) or metric
        if len(exact):
            axes.plot(exact[x], exact["value"], color=colour, marker=marker, markersize=4, label=named)
        if len(sampled):
            errors = np.vstack([sampled["value"] - sampled["ci_low"], sampled["ci_high"] - sampled["value"]])
            errors = np.clip(errors, 0, None)  # a point interval may sit a rounding error off its value
            axes.errorbar(
                sampled[x],
                sampled["value"],
                yerr=errors,
                fmt=marker if len(exact) else f"{marker}-",
                color=colour,
                markersize=4,
                capsize=2,
                mfc="white" if len(exact) else colour,
                label=None if len(exact) else named,
            )
    if len(frame) and pd.api.types.is_numeric_dtype(frame[x]) and (frame[x] % 1 == 0).all():
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))  # counts and DX: no 2.5 riflemen
    axes.set_xlabel(label_of(x) + methods_note(frame))
    axes.set_ylabel(label_of(metric))
    if metric.startswith("p_"):
        axes.set_ylim(-0.02, 1.02)
    if target is not None:
        axes.axhline(target, color="0.35", linestyle="--", linewidth=1)
        axes.annotate(f"target {target:g}", (0.01, target), xycoords=("axes fraction", "data"), fontsize=8,
                      color="0.35", va="bottom")  # fmt: skip
    axes.grid(alpha=0.3)
    if keys:
        axes.legend(
            title=", ".join(label_of(k) for k in keys), fontsize=8, title_fontsize=8, loc="upper left",
            bbox_to_anchor=(1.01, 1.0),
        )  # fmt: skip
    axes.set_title(chart_title(title, f"{label_of(metric)} against {label_of(x)}", where), fontsize=9)
    return fixed_layout(figure)


def bars(
    table: pd.DataFrame,
    metric: str,
    x: str,
    where: Mapping[str, Any] | None = None,
    title: str | None = None,
    lowest: bool = False,
) -> Figure:
    """The options of ``x`` ranked by ``metric``, best first, with 95 % intervals where sampled.

    The picture of a ranking: inputs the chart does not hold are averaged over (the headline's
    numbers), and the title says which.
    """
    frame = select(table, where, metric=metric)
    frame = select(frame, method=preferred_method(frame))
    averaged = averaged_over(frame, [x])
    frame = frame.groupby(x, sort=False, as_index=False)[["value", "ci_low", "ci_high"]].mean()
    frame = frame.sort_values("value", ascending=not lowest, kind="stable")  # best at the top of the axes
    words = vocabulary_now()
    figure = new_figure(7.6, max(2.4, 1.2 + 0.28 * len(frame)), layout=None)
    axes = figure.add_subplot()
    positions = np.arange(len(frame))
    errors = np.clip(np.vstack([frame["value"] - frame["ci_low"], frame["ci_high"] - frame["value"]]), 0, None)
    sampled = bool(np.nan_to_num(errors).any())
    axes.barh(positions, frame["value"], color="C0", xerr=errors if sampled else None, capsize=2)
    axes.set_yticks(positions, [words.value(x, v) for v in frame[x]], fontsize=8)
    for position, shown in zip(positions, frame["value"], strict=True):
        axes.annotate(format_value(float(shown)), (float(shown), float(position)), xytext=(4, 0),
                      textcoords="offset points", va="center", fontsize=7)  # fmt: skip
    axes.set_xlabel(label_of(metric) + ("\n(bars: 95 % intervals)" if sampled else ""))
    axes.set_ylabel(label_of(x))
    axes.grid(alpha=0.3, axis="x")
    default = f"{label_of(metric)} by {label_of(x)}"
    if averaged:
        default += f", averaged over {' and '.join(words.name(k, 'inputs') for k in averaged)}"
    axes.set_title(chart_title(title, default, where), fontsize=9)
    return fixed_layout(figure)


def attacks_to_incapacitate(
    curves: pd.DataFrame,
    by: str | Sequence[str] | None = None,
    where: Mapping[str, Any] | None = None,
    title: str | None = None,
    attacks: int | None = None,
) -> Figure:
    """Chance that the target is incapacitated after n attacks, one line per value of ``by``."""
    frame = select(curves, where)
    if attacks is not None:
        frame = frame[frame["attacks"] <= attacks]
    keys = by_columns(by)
    labels = line_labels(frame, keys)
    figure = new_figure(7.6 if keys else 6.4, 4.0, layout=None)
    axes = figure.add_subplot()
    lines = list(dict.fromkeys(labels))
    for i, label in enumerate(lines):
        part = frame[labels == label]
        colour, marker = series_style(i, len(lines))
        axes.plot(part["attacks"], part["p_incapacitated"], color=colour, marker=marker, markersize=4,
                  label=label or "target")  # fmt: skip
    axes.set_xlabel("attacks")
    axes.set_ylabel("chance to be incapacitated by then")
    axes.set_ylim(-0.02, 1.02)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.grid(alpha=0.3)
    if keys:
        axes.legend(
            title=", ".join(label_of(k) for k in keys), fontsize=8, title_fontsize=8, loc="upper left",
            bbox_to_anchor=(1.01, 1.0),
        )  # fmt: skip
    axes.set_title(chart_title(title, "Attacks to incapacitate", where), fontsize=9)
    return fixed_layout(figure)


#: What k of a series ``PREFIXk`` is, by a part of the prefix: (axis label, name in titles).
_SERIES_AXES = {
    "_at_": ("hexes from the blast", "distance"),
    "_day_": ("day", "day"),
    "_margin_": ("margin (2d6 + DMs - 8)", "margin"),
}


def _series_axis(prefix: str) -> tuple[str, str]:
    """The axis label and title word of a series' k."""
    return next((axis for part, axis in _SERIES_AXES.items() if part in prefix), ("k", "k"))


def series(
    table: pd.DataFrame,
    prefix: str,
    by: str | Sequence[str] | None = None,
    where: Mapping[str, Any] | None = None,
    title: str | None = None,
) -> Figure:
    """Metrics ``PREFIXk`` (``mean_damage_at_0``, ``_1``...) against k, one line per value of ``by``."""
    pattern = re.compile(rf"^{re.escape(prefix)}(\d+)$")
    frame = select(table, where)
    frame = frame[frame["metric"].str.match(pattern)]
    frame = frame.assign(k=frame["metric"].str.extract(pattern, expand=False).astype(int))
    keys = by_columns(by)
    figure = curve(frame.assign(metric="series"), "series", "k", keys or None, title=title)
    axes = figure.axes[0]
    axis, by_what = _series_axis(prefix)
    axes.set_xlabel(axis + methods_note(frame))
    axes.set_ylabel(label_of(prefix.rstrip("_").removesuffix("_at")))
    axes.set_ylim(auto=True)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_title(chart_title(title, f"{label_of(prefix.rstrip('_'))} by {by_what}", where), fontsize=9)
    return fixed_layout(figure)


def survival(
    table: pd.DataFrame,
    by: str | Sequence[str] | None = None,
    where: Mapping[str, Any] | None = None,
    title: str | None = None,
) -> Figure:
    """Survival curves of a battle (ENG-5): expected figures standing after each turn, per side.

    Side a solid, side b dashed, one colour per value of ``by``, each with its 95 % band.
    """
    pattern = re.compile(r"^standing_([ab])_turn_(\d+)$")
    frame = select(table, where)
    found = frame["metric"].str.extract(pattern)
    frame = frame.assign(side=found[0], k=pd.to_numeric(found[1])).dropna(subset=["side"])
    keys = by_columns(by)
    labels = line_labels(frame, keys)
    figure = new_figure(7.6 if keys else 6.4, 4.0, layout=None)
    axes = figure.add_subplot()
    lines = list(dict.fromkeys(labels))
    for i, label in enumerate(lines):
        part = frame[labels == label]
        colour = series_style(i, len(lines))[0]
        for side, style in (("a", "-"), ("b", "--")):
            line = part[part["side"] == side].sort_values("k")
            if not len(line):
                continue
            who = vocabulary_now().side(side)
            name = f"{label}: {who}" if label else who
            axes.plot(line["k"], line["value"], style, color=colour, linewidth=1.4, label=name)
            axes.fill_between(line["k"], line["ci_low"], line["ci_high"], color=colour, alpha=0.18, linewidth=0)
    axes.set_xlabel("after turn\n(lines: sampled means; bands: 95 % intervals)")
    axes.set_ylabel("expected figures standing")
    axes.set_ylim(bottom=0)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.grid(alpha=0.3)
    axes.legend(title=", ".join(label_of(k) for k in keys) or None, fontsize=8, title_fontsize=8, loc="upper left",
                bbox_to_anchor=(1.01, 1.0))  # fmt: skip
    words = vocabulary_now()
    default = f"figures standing, {words.side('a')} (solid) and {words.side('b')} (dashed)"
    axes.set_title(chart_title(title, default, where), fontsize=9)
    return fixed_layout(figure)


def stacked(
    table: pd.DataFrame,
    metrics: Sequence[str],
    rows: str,
    panels: str | None = None,
    where: Mapping[str, Any] | None = None,
    title: str | None = None,
) -> Figure:
    """Exclusive outcomes (``metrics`` summing to 1) as stacked bars per value of ``rows``.

    Used for the wound outcome of an attack per weapon, one panel per armour.
    """
    frame = select(table, where)
    frame = frame[frame["metric"].isin(list(metrics))]
    frame = select(frame, method=preferred_method(frame))
    panel_values = list(dict.fromkeys(frame[panels])) if panels else [None]
    row_order = list(dict.fromkeys(frame[rows]))
    across = max(1, min(len(panel_values), int((MAX_WIDTH_IN - 2.0) // 3.2)))
    down = -(-len(panel_values) // across)
    figure = new_figure(min(max(2.0 + 3.2 * across, 6.4), MAX_WIDTH_IN), 1.6 + down * (0.6 + 0.28 * len(row_order)))
    grid = figure.subplots(down, across, squeeze=False, sharey=True).ravel()
    for axes in grid[len(panel_values) :]:
        axes.set_visible(False)
    colours = matplotlib.colormaps["RdYlGn_r"](np.linspace(0.05, 0.95, len(metrics)))
    for axes, panel in zip(grid, panel_values, strict=False):
        part = frame if panel is None else frame[frame[panels] == panel]
        values = part.pivot_table(index=rows, columns="metric", values="value", aggfunc="first", sort=False)
        values = values.reindex(index=row_order, columns=list(metrics)).fillna(0.0)
        left = np.zeros(len(row_order))
        for metric, colour in zip(metrics, colours, strict=True):
            axes.barh(range(len(row_order)), values[metric], left=left, color=colour, label=label_of(metric))
            left += values[metric].to_numpy()
        if axes is grid[0]:  # the panels share their rows: ticks and order are set once for all
            axes.set_yticks(range(len(row_order)), [str(r) for r in row_order])
            axes.yaxis.set_inverted(True)  # the first row on top
        axes.tick_params(axis="y", labelsize=7)
        axes.set_xlim(0, 1)
        axes.set_xlabel("probability")
        if panel is not None:
            axes.set_title(f"{label_of(panels or '')} = {panel}", fontsize=9)
    for axes in grid[::across]:
        axes.set_ylabel(label_of(rows))
    handles, labels = grid[0].get_legend_handles_labels()
    per_row = max(1, int(float(figure.get_size_inches()[0]) / 1.9))  # as many labels a row as fit the width
    figure.legend(handles, labels, loc="outside lower center", ncols=min(len(metrics), 6, per_row), fontsize=8)
    figure.suptitle(chart_title(title, f"Outcome of one attack by {label_of(rows)}", where), fontsize=10)
    return figure
