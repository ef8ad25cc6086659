"""Charts of the balance questions: a search with its target, shares of variance, equilibrium mixes."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from simlab.output.plots.style import (
    chart_title,
    label_of,
    new_figure,
    series_style,
    vocabulary_now,
)
from simlab.output.words import sentence_case, the

__all__ = [
    "search",
    "shares",
    "mixes",
]


def search(
    tried: pd.DataFrame,
    unknown: str,
    metric: str,
    target: float | None = None,
    answers: Sequence[float] = (),
    title: str | None = None,
) -> Figure:
    """A balance search (``simlab solve``): the metric at every value tried, the target dashed, the answers marked.

    Args:
        tried: One row per value tried: ``value``, ``metric``, ``ci_low``, ``ci_high`` (NaN when
            exact), ``other`` (the other setup's metric, when two setups are made equal) and,
            for several searches on one chart, ``series`` (each one's name).
        unknown: The name of what was searched.
        metric: The metric.
        target: The target, if one (else the other setup's metric is drawn).
        answers: The values found (each crossing's), marked when there is one search.
        title: The chart's title (default: what was searched).
    """
    words = vocabulary_now()
    frame = tried.sort_values("value")
    figure = new_figure(7.6, 4.2)  # its legend inside the axes: the layout engine places it
    axes = figure.add_subplot()
    groups = list(frame.groupby("series", sort=False)) if "series" in frame else [("", frame)]
    for i, (name, part) in enumerate(groups):
        colour, marker = series_style(i, len(groups))
        label = str(name) or label_of(metric)
        axes.plot(part["value"], part["metric"], marker=marker, markersize=4, color=colour, label=label)
        if part["ci_low"].notna().any():
            axes.fill_between(part["value"], part["ci_low"], part["ci_high"], color=colour, alpha=0.2)
    if target is not None:
        axes.axhline(target, color="0.3", linestyle="--", linewidth=1, label=f"target {target:g}")
    elif "other" in frame and frame["other"].notna().any():
        other = float(frame["other"].dropna().iloc[0])
        axes.axhline(other, color="0.3", linestyle="--", linewidth=1, label="the other setup")
    for found in answers if len(groups) == 1 else ():
        axes.axvline(found, color="C3", linewidth=1)
        axes.annotate(f"{found:.4g}", (found, 1.0), xycoords=("data", "axes fraction"), xytext=(3, -12),
                      textcoords="offset points", color="C3", fontsize=8)  # fmt: skip
    axes.set_xlabel(words.axis(unknown, "inputs"))
    axes.set_ylabel(label_of(metric) + ("\n(bands: 95 % intervals)" if frame["ci_low"].notna().any() else ""))
    axes.grid(alpha=0.3)
    axes.legend(fontsize=8, loc="best")
    axes.set_title(chart_title(title, f"{sentence_case(label_of(metric))} by {label_of(unknown, 'inputs')}", None),
                   fontsize=9)  # fmt: skip
    return figure


def shares(ranking: pd.DataFrame, metric: str, title: str | None = None) -> Figure:
    """A sensitivity ranking (``simlab sensitivity``): each factor's Sobol shares with 95 % intervals.

    Args:
        ranking: One row per factor, the largest first: ``factor``, ``s1``, ``s1_conf``, ``st``,
            ``st_conf`` (NaN for a factor screened out), ``mu_star``.
        metric: The metric.
        title: The chart's title.
    """
    frame = ranking.iloc[::-1]  # the largest at the top
    figure = new_figure(7.6, max(2.4, 1.3 + 0.45 * len(frame)))
    axes = figure.add_subplot()
    positions = np.arange(len(frame))
    height = 0.38
    for offset, (column, name, colour) in enumerate((("st", "total (with the others)", "C0"),
                                                     ("s1", "alone (first order)", "C1"))):  # fmt: skip
        values = frame[column].fillna(0).to_numpy(dtype=float)
        errors = frame[f"{column}_conf"].fillna(0).to_numpy(dtype=float)
        axes.barh(positions + (0.5 - offset) * height, values, height=height, xerr=errors, capsize=2,
                  color=colour, label=name)  # fmt: skip
    axes.set_yticks(positions, [label_of(str(f), "inputs") for f in frame["factor"]], fontsize=8)
    axes.set_xlabel(f"share of the variance of {label_of(metric)}\n(bars: 95 % bootstrap intervals)")
    axes.set_xlim(left=0)
    axes.grid(alpha=0.3, axis="x")
    axes.legend(fontsize=8, loc="lower right")
    axes.set_title(chart_title(title, f"What moves {the(label_of(metric))}", None), fontsize=9)
    return figure


def mixes(panels: Sequence[tuple[str, pd.DataFrame]], title: str) -> Figure:
    """Equilibrium mixes as bars: each option's share of the mix, and of the resampled equilibria it enters.

    Args:
        panels: One panel per side (a tournament has one; a matchup the attacker's and the defender's):
            its heading and a frame with ``option``, ``mix`` and ``entered`` (a share of the
            resampled matrices' equilibria; NaN when exact), in the order shown from the top.
        title: The chart's title.
    """
    tallest = max(len(frame) for _, frame in panels)
    figure = new_figure(7.6, max(2.4, 0.9 + (0.5 + 0.3 * tallest) * len(panels)))
    grid = figure.subplots(len(panels), 1, squeeze=False).ravel()
    height = 0.38
    for axes, (heading, frame) in zip(grid, panels, strict=True):
        shown = frame.iloc[::-1]  # the first at the top
        positions = np.arange(len(shown))
        resampled = not shown["entered"].isna().all()
        bars_of = [("mix", "share of the equilibrium mix", "C0")]
        if resampled:
            bars_of.append(("entered", "in resampled equilibria", "C1"))
        for offset, (column, name, colour) in enumerate(bars_of):
            place = positions + ((0.5 - offset) * height if resampled else 0.0)
            values = shown[column].fillna(0).to_numpy(dtype=float)
            axes.barh(place, values, height=height if resampled else 0.6, color=colour, label=name)
            for y, value in zip(place, values, strict=True):
                axes.annotate(f"{value:.0%}", (value, y), xytext=(3, 0), textcoords="offset points",
                              va="center", fontsize=7)  # fmt: skip
        axes.set_yticks(positions, list(shown["option"]), fontsize=8)
        axes.set_xlim(0, 1.12)
        axes.xaxis.set_major_formatter(PercentFormatter(1.0))
        axes.grid(alpha=0.3, axis="x")
        axes.set_title(heading, fontsize=9)
        if resampled:
            axes.legend(fontsize=7, loc="lower right")
    figure.suptitle(title, fontsize=10)
    return figure
