"""Charts of a run (matplotlib): a tidy DataFrame in, a :class:`~matplotlib.figure.Figure` out.

Exact values are drawn as lines; sampled values as points with their 95 % intervals. Every
chart has labelled axes with units, a legend where lines need one, and sizes and fonts
that stay readable in print. Which charts a run gets, and drawing one from its
specification, is :mod:`simlab.output.charts`.
"""

from __future__ import annotations

import contextlib
import contextvars
import io
import re
import textwrap
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.text import Text
from matplotlib.ticker import MaxNLocator

from simlab.output.pivots import preferred_method, select

if TYPE_CHECKING:
    pass

__all__ = [
    "curve",
    "heatmap",
    "distribution",
    "attacks_to_incapacitate",
    "series",
    "stacked",
    "distribution_heatmap",
    "survival",
    "AXIS_LABELS",
    "label_of",
    "chart_title",
    "by_columns",
    "fixed_layout",
]

#: Axis labels (with units) of common inputs and metrics.
AXIS_LABELS = {
    "dx": "firer's DX",
    "skill": "skill",
    "range_m": "range (m)",
    "st": "target's ST",
    "p_hit": "P(at least one hit)",
    "mean_hits": "expected hits",
    "mean_damage": "expected damage (hit points)",
    "p_stagger": "P(stagger)",
    "p_knockdown": "P(knockdown)",
    "p_incapacitated": "P(incapacitated)",
    "p_killed": "P(killed)",
    "p_weapon_lost": "P(weapon lost)",
    "mean_splash_damage": "expected splash damage (hit points)",
    "damage": "damage of one attack (hit points)",
    "p_unhurt": "P(unhurt)",
    "p_light": "P(light wound)",
    "p_serious": "P(serious wound, conscious)",
    "p_unconscious": "P(unconscious)",
    "p_not_dead_yet": "P(not dead yet)",
    "p_survives": "P(survives attack and aftermath)",
    "p_a_wins": "P(A wins)",
    "p_b_wins": "P(B wins)",
    "mean_turns": "expected turns",
    "a.weapon": "A's weapon",
    "b.weapon": "B's weapon",
    "range_band": "range band",
    "outcome": "worst result of one attack (0 unhurt ... 5 killed)",
    "wounds_rows": "hit location",
    "wounds_outcome": "wound level (TYC-6.2)",
    "mean_bystander_hits": "expected hits on bystanders",
    "hits": "hits of one attack",
    "mean_applied_hits": "expected applied hits",
    "mean_applied_margin": "expected applied hits of one roll",
    "applied_hits": "applied hits of one attack",
    "p_draw": "P(draw)",
    "a.ship": "A's ship",
    "b.ship": "B's ship",
    "turns": "turns the fight lasted",
    "turns_a_wins": "turn A wins",
    "turns_b_wins": "turn B wins",
    "mean_missiles_destroyed": "expected missiles shot down",
    "a.count": "figures of side a",
    "b.count": "figures of side b",
    "p_both_out": "P(both sides out)",
    "standing_a": "figures of side a standing at the end",
    "standing_b": "figures of side b standing at the end",
    "killed_a": "figures of side a killed",
    "killed_b": "figures of side b killed",
}
_STYLE = {"font.size": 9}
#: The widest chart, in inches: at the figures' 110 dpi it fits a report page without shrinking.
MAX_WIDTH_IN = 12.0
#: Heatmaps label their cells with values only up to this many cells (the tables have the numbers).
MAX_ANNOTATED_CELLS = 400
_MARKERS = "osD^vP*Xh<>"


#: An experiment's own words for its inputs and metrics (``[labels]``), while its charts are drawn.
_OWN_LABELS: contextvars.ContextVar[Mapping[str, str] | None] = contextvars.ContextVar("own_labels", default=None)


@contextlib.contextmanager
def own_labels(labels: Mapping[str, str]) -> Iterator[None]:
    """Draw the charts inside in an experiment's own words (its ``[labels]``) where it gives them."""
    token = _OWN_LABELS.set(labels)
    try:
        yield
    finally:
        _OWN_LABELS.reset(token)


def label_of(name: str) -> str:
    """The axis label of an input or metric: the experiment's own words, the registry's (with units), or the name."""
    return (_OWN_LABELS.get() or {}).get(name) or AXIS_LABELS.get(name, name.replace("_", " "))


class ChartFigure(Figure):
    """A matplotlib figure that shows itself as an image in notebooks (IPython's ``_repr_png_``).

    simlab draws without pyplot, so no backend registers a notebook display for its figures;
    this one renders itself, the same PNG a results directory gets.
    """

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        self.savefig(buffer, format="png")
        return buffer.getvalue()


def _figure(width: float, height: float, layout: Literal["constrained"] | None = "constrained") -> Figure:
    """A chart's figure; one-axes charts pass ``layout=None`` and end with :func:`fixed_layout`."""
    return ChartFigure(figsize=(width, height), dpi=110, layout=layout)


def _line_labels(frame: pd.DataFrame, by: Sequence[str]) -> pd.Series:
    if not by:
        return pd.Series("", index=frame.index)
    if len(by) == 1:
        return frame[by[0]].astype(str)
    return frame[list(by)].astype(str).agg(", ".join, axis=1)


def chart_title(title: str | None, default: str, where: Mapping[str, Any] | None, width: int = 75) -> str:
    """The chart's title (wrapped): the given one, or ``default`` with the fixed inputs."""
    if not title:
        fixed = [f"{k} = {v}" for k, v in (where or {}).items() if not isinstance(v, (list, tuple))]
        title = f"{default} ({', '.join(fixed)})" if fixed else default
    return textwrap.fill(title, width)


def by_columns(by: str | Sequence[str] | None) -> list[str]:
    """The columns of a ``by`` option: none, one or several."""
    if by is None:
        return []
    return [by] if isinstance(by, str) else list(by)


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
    labels = _line_labels(frame, keys)
    figure = _figure(7.6 if keys else 6.4, 4.0, layout=None)
    axes = figure.add_subplot()
    colours = {}
    for i, label in enumerate(dict.fromkeys(labels)):
        part = frame[labels == label]
        exact = part[part["method"] == "exact"]
        sampled = part[part["method"] == "monte_carlo"]
        colour = f"C{i % 10}"
        colours[label] = colour
        marker = _MARKERS[i % len(_MARKERS)]
        if len(exact):
            axes.plot(exact[x], exact["value"], color=colour, marker=marker, markersize=4, label=label or metric)
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
                label=None if len(exact) else (label or metric),
            )
    axes.set_xlabel(label_of(x) + _methods_note(frame))
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


def _methods_note(frame: pd.DataFrame) -> str:
    """A second line for the x label saying how sampled values are drawn."""
    methods = set(frame["method"])
    if "monte_carlo" not in methods:
        return ""
    return "\n(" + ("lines: exact; " if "exact" in methods else "") + "points and bars: sampled, 95 % interval)"


def heatmap(
    table: pd.DataFrame,
    metric: str,
    rows: str,
    cols: str,
    panels: str | None = None,
    where: Mapping[str, Any] | None = None,
    title: str | None = None,
    value: str = "value",
    diverging: bool = False,
) -> Figure:
    """``metric`` over ``rows`` × ``cols`` (weapon × armour), one panel per value of ``panels``.

    Args:
        table: A tidy table (a run's, or a comparison's).
        metric: The metric shown.
        rows: Input along the rows.
        cols: Input along the columns.
        panels: Input with one panel per value, or None.
        where: Values of other inputs that select the rows of ``table``.
        title: The title (default: from the metric and inputs).
        value: The column shown (``delta`` for the differences of a comparison).
        diverging: Centre the colours on 0 (for differences).
    """
    frame = select(table, where, metric=metric)
    frame = select(frame, method=preferred_method(frame)).assign(value=lambda f: f[value])
    panel_values = list(dict.fromkeys(frame[panels])) if panels else [None]
    row_order = list(dict.fromkeys(frame[rows]))
    col_order = list(dict.fromkeys(frame[cols]))
    # Legible at the page's width: panels wrap so that the figure is never wider than the page,
    # and the cells are labelled (at the size of the tick labels) only when there are few of them.
    panel_width = 0.42 * len(col_order) + 0.9
    across = max(1, min(len(panel_values), int((MAX_WIDTH_IN - 1.6) // panel_width)))
    down = -(-len(panel_values) // across)
    annotate = len(frame) <= MAX_ANNOTATED_CELLS
    figure = _figure(
        min(max(1.6 + across * panel_width, 6.4), MAX_WIDTH_IN),
        min(max(1.4 + down * (0.8 + 0.24 * len(row_order)), 3.6), 30),
        layout=None,
    )
    grid = figure.subplots(down, across, squeeze=False, sharey=True).ravel()
    low, high = float(frame["value"].min()), float(frame["value"].max())
    cmap = "viridis"
    if diverging:
        low, high, cmap = -max(abs(low), abs(high), 1e-12), max(abs(low), abs(high), 1e-12), "RdBu_r"
    image = None
    for axes in grid[len(panel_values) :]:
        axes.set_visible(False)
    for axes, panel in zip(grid, panel_values, strict=False):
        part = frame if panel is None else frame[frame[panels] == panel]
        values = part.pivot_table(index=rows, columns=cols, values="value", aggfunc="first", sort=False)
        values = values.reindex(index=row_order, columns=col_order)
        image = axes.imshow(
            values.to_numpy(dtype=float), aspect="auto", cmap=cmap, vmin=low, vmax=high, interpolation="nearest"
        )
        axes.set_xticks(range(len(col_order)), [str(c) for c in col_order], rotation=60, ha="right", fontsize=7)
        if axes is grid[0]:  # the panels share their rows: their ticks are set once for all
            axes.set_yticks(range(len(row_order)), [str(r) for r in row_order])
        axes.tick_params(axis="y", labelsize=7, labelleft=axes in grid[::across])  # rows named once per line
        if annotate:
            middle = (low + high) / 2
            for (i, j), shown in np.ndenumerate(values.to_numpy(dtype=float)):
                if not np.isnan(shown):
                    dark = abs(shown) < 0.6 * high if diverging else shown > middle
                    colour = "black" if dark else "white"
                    axes.text(j, i, f"{shown:.2g}", ha="center", va="center", fontsize=7, color=colour)
        axes.set_xlabel(label_of(cols))
        if panel is not None:
            axes.set_title(f"{label_of(panels or '')} = {panel}", fontsize=9)
    for axes in grid[::across]:
        axes.set_ylabel(label_of(rows))
    default = f"{label_of(metric)}: {label_of(rows)} × {label_of(cols)}"
    heading = figure.suptitle(chart_title(title, default, where), fontsize=10)
    bar = _lay_out_panels(figure, grid, across, down, heading, colorbar=(low, high) if image is not None else None)
    if image is not None:
        label = label_of(metric) if value == "value" else f"{value} of {label_of(metric)}"
        figure.colorbar(image, cax=figure.add_axes(bar, label="<colorbar>"), label=label)
    return figure


def _lay_out_panels(
    figure: Figure, grid: np.ndarray, across: int, down: int, heading: Text, colorbar: tuple[float, float] | None
) -> tuple[float, float, float, float]:
    """Place a grid of heatmap panels from the sizes of their texts, instead of a layout engine.

    A layout engine measures every text of every panel twice before the figure is drawn;
    the room the panels need follows from a few of them (the longest row and column names,
    the axis labels, the titles), measured once. Returns the colorbar's rectangle
    (figure fractions) beside the panels, whose values run over ``colorbar`` (None: no colorbar).
    """
    renderer = FigureCanvasAgg(figure).get_renderer()
    inch = figure.dpi

    def size(texts: Sequence[Any]) -> tuple[float, float]:
        boxes = [t.get_window_extent(renderer) for t in texts if t.get_text()]
        return (max((b.width for b in boxes), default=0.0) / inch, max((b.height for b in boxes), default=0.0) / inch)

    first = grid[0]
    row_names, _ = size(first.get_yticklabels())
    _, column_names = size(first.get_xticklabels())
    ylabel, _ = size([first.yaxis.label])
    _, xlabel = size([first.xaxis.label])
    _, panel_title = size([first.title])
    _, suptitle = size([heading])
    tick = 0.1  # a tick and its pad, in inches
    gap = 0.08
    width, height = (float(v) for v in figure.get_size_inches())
    heading.set_y(1 - gap / height)  # its top, a gap below the figure's edge
    left = gap + ylabel + gap + row_names + tick
    bottom = gap + xlabel + gap + column_names + tick
    top = gap + suptitle + gap + (panel_title + gap if panel_title else 0.0)
    right = 0.2
    if colorbar is not None:  # the bar, its numbers (as wide as the widest a locator may choose) and its label
        numbers = [f"{v:.4g}".replace("-", "\N{MINUS SIGN}") for v in np.linspace(*colorbar, 11)]
        font = FontProperties(size=matplotlib.rcParams["ytick.labelsize"])
        widest = max(renderer.get_text_width_height_descent(n, font, ismath=False)[0] for n in numbers) / inch
        right = 0.2 + 0.18 + tick + widest + gap + 0.2 + gap
    between = 0.15  # the rows are named on the first panel of a line only
    under = column_names + tick + gap + xlabel + gap + (panel_title + gap if panel_title else 0.0) + 0.1
    panel_width = max((width - left - right - (across - 1) * between) / across, 0.5)
    panel_height = max((height - top - bottom - (down - 1) * under) / down, 0.5)
    figure.subplots_adjust(
        left=left / width,
        right=1 - right / width,
        bottom=bottom / height,
        top=1 - top / height,
        wspace=between / panel_width,
        hspace=under / panel_height,
    )
    span = height - top - bottom
    return ((width - right + 0.2) / width, (bottom + 0.1 * span) / height, 0.18 / width, 0.8 * span / height)


def distribution(
    distributions: pd.DataFrame,
    name: str = "damage",
    by: str | Sequence[str] | None = None,
    where: Mapping[str, Any] | None = None,
    title: str | None = None,
    at_least: bool = False,
    outcome_labels: Mapping[int, str] | None = None,
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
    """
    frame = select(distributions, where, distribution=name)
    frame = select(frame, method=preferred_method(frame))
    if at_least:  # P(X >= k): each line's probabilities summed from the top
        frame = frame.sort_values("outcome", ascending=False)
        group = [*by_columns(by)] or (lambda _: 0)
        frame = frame.assign(probability=frame.groupby(group)["probability"].cumsum()).sort_values("outcome")
    keys = by_columns(by)
    labels = _line_labels(frame, keys)
    figure = _figure(7.6 if keys else 6.4, 4.0, layout=None)
    axes = figure.add_subplot()
    lines = list(dict.fromkeys(labels))
    bars = frame["outcome"].nunique() <= 12
    for i, label in enumerate(lines):
        part = frame[labels == label].sort_values("outcome")
        style: dict[str, Any] = {"color": f"C{i % 10}", "label": label or name}
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
        axes.set_xlim(frame["outcome"].min() - 0.5, _quantile_end(frame, labels, 0.999) + 0.5)
    axes.set_xlabel(label_of(name) + ("" if bars else "\n(outcomes past the 99.9th percentile not shown)"))
    axes.set_ylabel("probability of at least this" if at_least else "probability")
    axes.grid(alpha=0.3)
    if keys:
        axes.legend(
            title=", ".join(label_of(k) for k in keys), fontsize=8, title_fontsize=8, loc="upper left",
            bbox_to_anchor=(1.01, 1.0),
        )  # fmt: skip
    axes.set_title(chart_title(title, f"Distribution of the {label_of(name)}", where), fontsize=9)
    return fixed_layout(figure)


def _quantile_end(frame: pd.DataFrame, labels: pd.Series, level: float) -> float:
    """The largest outcome any line needs to show ``level`` of its probability (hides far tails)."""
    end = float(frame["outcome"].min())
    for label in dict.fromkeys(labels):
        part = frame[labels == label].sort_values("outcome")
        reached = part["probability"].cumsum().to_numpy() >= level * part["probability"].sum()
        end = max(end, float(part["outcome"].to_numpy()[reached.argmax()]))
    return end


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
    labels = _line_labels(frame, keys)
    figure = _figure(7.6 if keys else 6.4, 4.0, layout=None)
    axes = figure.add_subplot()
    for i, label in enumerate(dict.fromkeys(labels)):
        part = frame[labels == label]
        axes.plot(
            part["attacks"],
            part["p_incapacitated"],
            color=f"C{i % 10}",
            marker=_MARKERS[i % len(_MARKERS)],
            markersize=4,
            label=label or "target",
        )
    axes.set_xlabel("attacks")
    axes.set_ylabel("P(incapacitated by then)")
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
    axes.set_xlabel(axis + _methods_note(frame))
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
    labels = _line_labels(frame, keys)
    figure = _figure(7.6 if keys else 6.4, 4.0, layout=None)
    axes = figure.add_subplot()
    for i, label in enumerate(dict.fromkeys(labels)):
        part = frame[labels == label]
        colour = f"C{i % 10}"
        for side, style in (("a", "-"), ("b", "--")):
            line = part[part["side"] == side].sort_values("k")
            if not len(line):
                continue
            name = f"{label}: side {side}" if label else f"side {side}"
            axes.plot(line["k"], line["value"], style, color=colour, linewidth=1.4, label=name)
            axes.fill_between(line["k"], line["ci_low"], line["ci_high"], color=colour, alpha=0.18, linewidth=0)
    axes.set_xlabel("after turn\n(lines: sampled means; bands: 95 % intervals)")
    axes.set_ylabel("expected figures standing")
    axes.set_ylim(bottom=0)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.grid(alpha=0.3)
    axes.legend(title=", ".join(label_of(k) for k in keys) or None, fontsize=8, title_fontsize=8, loc="upper left",
                bbox_to_anchor=(1.01, 1.0))  # fmt: skip
    axes.set_title(chart_title(title, "figures standing, side a (solid) and side b (dashed)", where), fontsize=9)
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
    figure = _figure(min(max(2.0 + 3.2 * across, 6.4), MAX_WIDTH_IN), 1.6 + down * (0.6 + 0.28 * len(row_order)))
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


def distribution_heatmap(
    distributions: pd.DataFrame,
    prefix: str,
    where: Mapping[str, Any] | None = None,
    title: str | None = None,
    labels: Sequence[str] | None = None,
) -> Figure:
    """The distributions named ``PREFIX<row>`` as one heatmap: a row per distribution, a column per outcome.

    Used for the wound level at each hit location (``wounds_head``, ``wounds_chest``...).
    """
    frame = select(distributions, where)
    frame = frame[frame["distribution"].str.startswith(prefix)]
    frame = select(frame, method=preferred_method(frame))
    rows = list(dict.fromkeys(frame["distribution"]))
    values = frame.pivot_table(
        index="distribution", columns="outcome", values="probability", aggfunc="mean", sort=False
    )
    values = values.reindex(index=rows).fillna(0.0)
    figure = _figure(7.0, 1.6 + 0.35 * len(rows))
    axes = figure.add_subplot()
    image = axes.imshow(values.to_numpy(dtype=float), aspect="auto", cmap="magma_r", vmin=0.0, vmax=1.0)
    outcomes = [int(o) for o in values.columns]
    names = [labels[o] if labels and o < len(labels) else str(o) for o in outcomes]
    axes.set_xticks(range(len(outcomes)), names, rotation=30, ha="right", fontsize=8)
    axes.set_yticks(range(len(rows)), [r.removeprefix(prefix).replace("_", " ") for r in rows], fontsize=8)
    for (i, j), p in np.ndenumerate(values.to_numpy(dtype=float)):
        if p >= 0.0005:
            axes.text(j, i, f"{p:.3f}", ha="center", va="center", fontsize=6.5, color="white" if p > 0.5 else "black")
    axes.set_xlabel(label_of(f"{prefix}outcome"))
    axes.set_ylabel(label_of(f"{prefix}rows"))
    figure.colorbar(image, ax=axes, label="probability", shrink=0.8)
    axes.set_title(chart_title(title, f"{prefix.rstrip('_')} by outcome", where), fontsize=9)
    return figure


def fixed_layout(figure: Figure) -> Figure:
    """Margins of a one-axes chart worked out from its texts, instead of a layout engine.

    A layout engine measures every text in an extra drawing pass; for a chart with one axes,
    a title, axis labels and a legend beside it the room each needs follows from the number
    of lines and the longest label, at a fifth of the cost of the whole chart.
    """
    axes = figure.axes[0]
    width, height = (float(v) for v in figure.get_size_inches())
    char = 0.075  # inches per character at the 8-9 pt of labels, generously
    legend = axes.get_legend()
    right = 0.25
    if legend is not None:
        texts = [t.get_text() for t in legend.get_texts()] + [legend.get_title().get_text()]
        right = 0.75 + char * max((len(t) for t in texts), default=0)
    title_lines = axes.get_title().count("\n") + 1 if axes.get_title() else 0
    xlabel_lines = axes.get_xlabel().count("\n") + 1 if axes.get_xlabel() else 0
    ticks = [t.get_text() for t in axes.get_yticklabels()] or ["0.00"]
    left = 0.45 + char * max(4, max(len(t) for t in ticks))
    bottom = 0.35 + 0.17 * xlabel_lines
    top = 0.12 + 0.17 * title_lines
    figure.subplots_adjust(
        left=min(left / width, 0.4), right=max(1 - right / width, 0.5),
        bottom=min(bottom / height, 0.4), top=max(1 - top / height, 0.6),
    )  # fmt: skip
    return figure
