"""Charts of a distribution: each outcome's chance, in panels by input."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from simlab.output.pivots import preferred_method, select
from simlab.output.plots.style import (
    by_columns,
    chart_title,
    fixed_layout,
    label_of,
    line_labels,
    new_figure,
    series_style,
)
from simlab.output.words import the

__all__ = [
    "distribution",
    "quantile_end",
]


def distribution(
    distributions: pd.DataFrame,
    name: str = "damage",
    by: str | Sequence[str] | None = None,
    where: Mapping[str, Any] | None = None,
    title: str | None = None,
    at_least: bool = False,
    outcome_labels: Mapping[int, str] | None = None,
    beside: bool = False,
) -> Figure:
    """Distribution ``name`` (damage or hits of one attack), one line per value of ``by``.

    Args:
        distributions: The tidy distributions (``distribution``, ``outcome``, ``probability``...).
        name: The distribution drawn.
        by: Inputs with a line (or bar) each.
        where: The rows kept (input = value).
        title: The title instead of the default.
        at_least: Draw the chance of *at least* each outcome (``P(X >= k)``) instead of each outcome's.
        outcome_labels: Names of the outcomes (wound levels) for the axis.
        beside: Draw both views side by side: each outcome's chance, and the chance of at least each
            (what reports show: "how likely is 3 or more?" is read off the right panel).
    """
    frame = select(distributions, where, distribution=name)
    frame = select(frame, method=preferred_method(frame))
    keys = by_columns(by)
    labels = line_labels(frame, keys)
    views = (False, True) if beside else (at_least,)
    figure = new_figure((7.6 if keys else 6.4) + (5.0 if beside else 0.0), 4.0, layout=None)
    panels = figure.subplots(1, len(views), squeeze=False).ravel()
    bars = frame["outcome"].nunique() <= 12
    for axes, cumulative in zip(panels, views, strict=True):
        _distribution_axes(axes, frame, labels, name, bars, cumulative, outcome_labels, keys)
    if keys:
        panels[-1].legend(
            title=", ".join(label_of(k) for k in keys), fontsize=8, title_fontsize=8, loc="upper left",
            bbox_to_anchor=(1.01, 1.0),
        )  # fmt: skip
    heading = chart_title(title, f"Distribution of {the(label_of(name, 'distributions'))}", where)
    if beside:
        figure.suptitle(heading, fontsize=9)
        panels[0].set_title("chance of each", fontsize=9)
        panels[1].set_title("chance of at least each", fontsize=9)
    else:
        panels[0].set_title(heading, fontsize=9)
    return fixed_layout(figure)


def _distribution_axes(
    axes: Any,
    frame: pd.DataFrame,
    labels: pd.Series,
    name: str,
    bars: bool,
    at_least: bool,
    outcome_labels: Mapping[int, str] | None,
    keys: Sequence[str],
) -> None:
    """One view of a distribution: each outcome's chance, or the chance of at least each (``P(X >= k)``)."""
    if at_least:  # each line's probabilities summed from the top
        frame = frame.assign(line=labels).sort_values("outcome", ascending=False)
        frame = frame.assign(probability=frame.groupby("line")["probability"].cumsum()).sort_values("outcome")
        labels = frame["line"]
    lines = list(dict.fromkeys(labels))
    for i, label in enumerate(lines):
        part = frame[labels == label].sort_values("outcome")
        style: dict[str, Any] = {"color": series_style(i, len(lines))[0], "label": label or name}
        if bars:  # few outcomes: grouped bars
            width = 0.8 / len(lines)
            axes.bar(part["outcome"] + (i - (len(lines) - 1) / 2) * width, part["probability"], width=width, **style)
        else:
            axes.plot(part["outcome"], part["probability"], drawstyle="steps-mid", **style)
    if bars and outcome_labels:
        shown = sorted(frame["outcome"].unique())
        axes.set_xticks(shown, [outcome_labels.get(int(k), str(k)) for k in shown], rotation=20, fontsize=8)
    elif bars:
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    elif len(frame):
        axes.set_xlim(frame["outcome"].min() - 0.5, quantile_end(frame, labels, 0.999) + 0.5)
    tail = "" if bars else "\n(outcomes past the 99.9th percentile not shown)"
    axes.set_xlabel(label_of(name, "distributions") + tail)
    axes.set_ylabel("chance of at least this" if at_least else "chance")
    axes.grid(alpha=0.3)


def quantile_end(frame: pd.DataFrame, labels: pd.Series, level: float) -> float:
    """The largest outcome any line needs to show ``level`` of its probability (hides far tails)."""
    end = float(frame["outcome"].min())
    for label in dict.fromkeys(labels):
        part = frame[labels == label].sort_values("outcome")
        reached = part["probability"].cumsum().to_numpy() >= level * part["probability"].sum()
        end = max(end, float(part["outcome"].to_numpy()[reached.argmax()]))
    return end
