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
from typing import Any, Literal

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.text import Text
from matplotlib.ticker import MaxNLocator, PercentFormatter

from simlab.output.pivots import averaged_over, format_value, preferred_method, select
from simlab.output.words import Vocabulary, sentence_case, the

__all__ = [
    "curve",
    "bars",
    "heatmap",
    "distribution",
    "attacks_to_incapacitate",
    "series",
    "stacked",
    "distribution_heatmap",
    "survival",
    "speaking",
    "sized",
    "value_of",
    "the",
    "label_of",
    "chart_title",
    "by_columns",
    "fixed_layout",
]

_STYLE = {"font.size": 9}
#: Dots per inch of charts on screen (``simlab run --dpi 300`` for print).
CHART_DPI = 110
#: The widest chart, in inches: at the figures' 110 dpi it fits a report page without shrinking.
MAX_WIDTH_IN = 12.0
#: Heatmaps label their cells with values only up to this many cells (the tables have the numbers).
MAX_ANNOTATED_CELLS = 400
_MARKERS = "osD^vP*Xh<>"


def series_style(i: int, n: int) -> tuple[Any, str]:
    """Colour and marker of the ``i``-th of ``n`` lines: ten distinct colours, twenty beyond ten, a marker each."""
    if n <= 10:
        return f"C{i % 10}", _MARKERS[i % len(_MARKERS)]
    return matplotlib.colormaps["tab20"](i % 20), _MARKERS[(i // 2) % len(_MARKERS)]


def coinciding(frame: pd.DataFrame, labels: pd.Series, x: str) -> dict[str, list[str]]:
    """Lines that coincide, drawn once: the first label of each group → every label with the same points.

    Lines coincide when they have the same x values, values and intervals (to 1e-9); a legend that
    names all of them says so, where drawing them each would hide all but the last.
    """
    groups: dict[tuple[Any, ...], list[str]] = {}
    for label in dict.fromkeys(labels):
        part = frame[labels == label].sort_values(x, kind="stable")
        points = part[[x, "method", "value", "ci_low", "ci_high"]].to_numpy(dtype=object)
        key = tuple(tuple(round(v, 9) if isinstance(v, float) and v == v else v for v in row) for row in points)
        groups.setdefault(key, []).append(label)
    return {names[0]: names for names in groups.values()}


def _joined(names: Sequence[str], width: int = 40) -> str:
    """Several line names as one legend entry, wrapped."""
    return textwrap.fill(", ".join(names), width)


#: The words charts are drawn in: an experiment's own ``[labels]`` and its battle's sides, then the registry's.
_SPEAKING: contextvars.ContextVar[Vocabulary | None] = contextvars.ContextVar("speaking", default=None)


@contextlib.contextmanager
def speaking(words: Vocabulary) -> Iterator[None]:
    """Draw the charts inside in ``words`` (an experiment's vocabulary: its own labels, its battle's sides)."""
    token = _SPEAKING.set(words)
    try:
        yield
    finally:
        _SPEAKING.reset(token)


def vocabulary_now() -> Vocabulary:
    """The vocabulary charts are drawn in now (the registry's alone outside :func:`speaking`)."""
    return _SPEAKING.get() or Vocabulary()


def label_of(name: str, kind: str | None = None) -> str:
    """The axis label of an input, metric or distribution (``kind``), in the designer's words, with its unit."""
    return vocabulary_now().axis(name, kind)


def value_of(name: str, value: Any) -> str:
    """A value of an input as a legend or tick shows it ("full auto", "no armour", "yes")."""
    return vocabulary_now().value(name, value)


class ChartFigure(Figure):
    """A matplotlib figure that shows itself as an image in notebooks (IPython's ``_repr_png_``).

    simlab draws without pyplot, so no backend registers a notebook display for its figures;
    this one renders itself, the same PNG a results directory gets.
    """

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        self.savefig(buffer, format="png")
        return buffer.getvalue()


#: A size (inches) every chart drawn now takes instead of its own (``simlab run --size``, a chart's ``size``).
_SIZE: contextvars.ContextVar[tuple[float, float] | None] = contextvars.ContextVar("size", default=None)


@contextlib.contextmanager
def sized(size: Sequence[float] | None) -> Iterator[None]:
    """Draw the charts inside at ``size`` (width, height in inches; None: each its own size), for print.

    Charts lay out their margins from the size they are drawn at, so a chart drawn smaller for a
    column of a rulebook stays legible rather than being shrunk afterwards.
    """
    token = _SIZE.set((float(size[0]), float(size[1])) if size else None)
    try:
        yield
    finally:
        _SIZE.reset(token)


def _figure(width: float, height: float, layout: Literal["constrained"] | None = "constrained") -> Figure:
    """A chart's figure, at the size asked for if any.

    One-axes charts pass ``layout=None`` and end with :func:`fixed_layout`.
    """
    return ChartFigure(figsize=_SIZE.get() or (width, height), dpi=CHART_DPI, layout=layout)


def _line_labels(frame: pd.DataFrame, by: Sequence[str]) -> pd.Series:
    """Each row's line name in the designer's words ("full auto", "no armour, 20 m")."""
    if not by:
        return pd.Series("", index=frame.index)
    words = vocabulary_now()
    shown = []
    for key in by:  # each distinct value put in words once
        said = {v: words.value(key, v) for v in frame[key].unique()}
        shown.append(frame[key].map(lambda v, said=said, key=key: said[v] if v in said else words.value(key, v)))
    return shown[0] if len(shown) == 1 else pd.concat(shown, axis=1).agg(", ".join, axis=1)


def chart_title(title: str | None, default: str, where: Mapping[str, Any] | None, width: int = 75) -> str:
    """The chart's title (wrapped): the given one, or ``default`` with the fixed inputs in words."""
    if not title:
        words = vocabulary_now()
        held = {k: v for k, v in (where or {}).items() if not isinstance(v, (list, tuple))}
        fixed = words.held({k: v for k, v in held.items() if (k, v) != ("variant", "base")})
        title = f"{default} ({fixed})" if fixed else default
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
    drawn = coinciding(frame, labels, x)
    for i, (label, names) in enumerate(drawn.items()):
        part = frame[labels == label]
        exact = part[part["method"] == "exact"]
        sampled = part[part["method"] == "monte_carlo"]
        colour, marker = series_style(i, len(drawn))
        named = _joined(names) or metric
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
    shown_inputs = [k for k in (rows, cols, panels) if k]
    averaged = averaged_over(frame, shown_inputs)
    if averaged:  # one value per cell: the mean over the inputs the chart does not show (as headlines say)
        frame = frame.groupby(shown_inputs, sort=False, as_index=False)["value"].mean()
    words = vocabulary_now()
    panel_values = list(dict.fromkeys(frame[panels])) if panels else [None]
    row_order = list(dict.fromkeys(frame[rows]))
    col_order = list(dict.fromkeys(frame[cols]))
    # Legible at the page's width: panels wrap so that the figure is never wider than the page,
    # and the cells are labelled (at the size of the tick labels) where the numbers fit in them.
    panel_width = 0.42 * len(col_order) + 0.9
    across = max(1, min(len(panel_values), int((MAX_WIDTH_IN - 1.6) // panel_width)))
    down = -(-len(panel_values) // across)
    width = min(max(1.6 + across * panel_width, 6.4), MAX_WIDTH_IN)
    figure = _figure(width, min(max(1.4 + down * (0.8 + 0.24 * len(row_order)), 3.6), 30), layout=None)
    cell_width = (float(figure.get_size_inches()[0]) - 1.6) / across / max(len(col_order), 1) * 0.85
    annotate = len(row_order) * len(col_order) <= MAX_ANNOTATED_CELLS and cell_width >= 0.22
    grid = figure.subplots(down, across, squeeze=False, sharey=True).ravel()
    low, high, clipped = robust_range(frame["value"].to_numpy(dtype=float), diverging)
    cmap = "RdBu_r" if diverging else "viridis"
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
        names = [words.value(cols, c) for c in col_order]
        axes.set_xticks(range(len(col_order)), names, rotation=60, ha="right", fontsize=7)
        if axes is grid[0]:  # the panels share their rows: their ticks are set once for all
            axes.set_yticks(range(len(row_order)), [words.value(rows, r) for r in row_order])
        axes.tick_params(axis="y", labelsize=7, labelleft=axes in grid[::across])  # rows named once per line
        if annotate:
            colours = matplotlib.colormaps[cmap]
            for (i, j), shown in np.ndenumerate(values.to_numpy(dtype=float)):
                if not np.isnan(shown):
                    shade = colours(float(np.clip((shown - low) / (high - low or 1.0), 0.0, 1.0)))
                    dark = 0.2126 * shade[0] + 0.7152 * shade[1] + 0.0722 * shade[2] > 0.45
                    axes.text(j, i, _cell_text(shown), ha="center", va="center", fontsize=6,
                              color="black" if dark else "white")  # fmt: skip
        axes.set_xlabel(label_of(cols))
        if panel is not None:
            axes.set_title(words.where(panels or "", panel), fontsize=9)
    for axes in grid[::across]:
        axes.set_ylabel(label_of(rows))
    default = f"{label_of(metric)}: {label_of(rows)} × {label_of(cols)}"
    if averaged:
        default += f", averaged over {' and '.join(words.name(k, 'inputs') for k in averaged)}"
    heading = figure.suptitle(chart_title(title, default, where), fontsize=10)
    bar = _lay_out_panels(figure, grid, across, down, heading, colorbar=(low, high) if image is not None else None)
    if image is not None:
        label = label_of(metric) if value == "value" else f"{value} of {label_of(metric)}"
        if clipped:
            label += "\n(colours clipped to the 2nd-98th percentile)"
        extend = "both" if clipped else "neither"
        figure.colorbar(image, cax=figure.add_axes(bar, label="<colorbar>"), label=label, extend=extend)
    return figure


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
    figure = _figure(7.6, max(2.4, 1.2 + 0.28 * len(frame)), layout=None)
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


def robust_range(values: np.ndarray, diverging: bool = False) -> tuple[float, float, bool]:
    """The colour scale of a heatmap: the 2nd to 98th percentile where the extremes lie far out.

    One outlier (a rocket launcher among rifles) would otherwise turn every other cell the same
    colour. The scale is clipped only when the full range is over 1.5 times the percentiles'
    (the third value says so, for the colour bar's note); differences stay centred on 0.
    """
    shown = values[~np.isnan(values)]
    if not len(shown):
        return 0.0, 1.0, False
    low, high = float(shown.min()), float(shown.max())
    if diverging:
        edge = max(abs(low), abs(high), 1e-12)
        inner = float(np.percentile(np.abs(shown), 98)) if len(shown) >= 20 else edge
        clipped = inner > 0 and edge > 1.5 * inner
        edge = inner if clipped else edge
        return -edge, edge, clipped
    if len(shown) >= 20:
        p_low, p_high = (float(v) for v in np.percentile(shown, [2, 98]))
        if p_high > p_low and (high - low) > 1.5 * (p_high - p_low):
            return p_low, p_high, True
    return low, high if high > low else low + 1e-12, False


def _cell_text(value: float) -> str:
    """A heatmap cell's number: two significant figures, 0.52 or 25; 0 for an exact sum's rounding (-1e-16)."""
    if abs(value) < 1e-12:
        return "0"
    return f"{value:.2g}" if abs(value) < 100 else f"{value:.0f}"


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
    labels = _line_labels(frame, keys)
    views = (False, True) if beside else (at_least,)
    figure = _figure((7.6 if keys else 6.4) + (5.0 if beside else 0.0), 4.0, layout=None)
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
        axes.set_xlim(frame["outcome"].min() - 0.5, _quantile_end(frame, labels, 0.999) + 0.5)
    tail = "" if bars else "\n(outcomes past the 99.9th percentile not shown)"
    axes.set_xlabel(label_of(name, "distributions") + tail)
    axes.set_ylabel("chance of at least this" if at_least else "chance")
    axes.grid(alpha=0.3)


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
    axes.set_xlabel(label_of(f"{prefix}outcome", "distributions"))
    axes.set_ylabel(label_of(f"{prefix}rows", "distributions"))
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
    legend = figure.axes[-1].get_legend()
    right = 0.25
    if legend is not None:
        texts = [t.get_text() for t in legend.get_texts()] + [legend.get_title().get_text()]
        right = 0.75 + char * max((len(t) for t in texts), default=0)
    title_lines = axes.get_title().count("\n") + 1 if axes.get_title() else 0
    heading = figure.get_suptitle()
    title_lines += heading.count("\n") + 1 if heading else 0
    xlabel_lines = axes.get_xlabel().count("\n") + 1 if axes.get_xlabel() else 0
    ticks = [t.get_text() for t in axes.get_yticklabels()] or ["0.00"]
    left = 0.45 + char * max(4, max(len(t) for t in ticks))
    bottom = 0.35 + 0.17 * xlabel_lines
    top = 0.12 + 0.17 * title_lines
    panels = len(figure.axes)
    figure.subplots_adjust(
        left=min(left / width, 0.4), right=max(1 - right / width, 0.5),
        bottom=min(bottom / height, 0.4), top=max(1 - top / height, 0.6),
        wspace=(left + 0.2) / max((width - left - right) / panels, 1.0) if panels > 1 else None,
    )  # fmt: skip
    return figure


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
    figure = _figure(7.6, 4.2)  # its legend inside the axes: the layout engine places it
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
    figure = _figure(7.6, max(2.4, 1.3 + 0.45 * len(frame)))
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
    figure = _figure(7.6, max(2.4, 0.9 + (0.5 + 0.3 * tallest) * len(panels)))
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
