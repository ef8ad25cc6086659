"""What every chart shares: the designer's words, sizes, series styles, titles, colour ranges and layout."""

from __future__ import annotations

import contextlib
import contextvars
import io
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

from simlab.output.words import Vocabulary

__all__ = [
    "STYLE",
    "CHART_DPI",
    "MAX_WIDTH_IN",
    "MAX_ANNOTATED_CELLS",
    "MARKERS",
    "series_style",
    "coinciding",
    "joined_names",
    "speaking",
    "vocabulary_now",
    "label_of",
    "value_of",
    "ChartFigure",
    "sized",
    "new_figure",
    "line_labels",
    "chart_title",
    "by_columns",
    "methods_note",
    "robust_range",
    "cell_text",
    "lay_out_panels",
    "fixed_layout",
]


STYLE = {"font.size": 9}


#: Dots per inch of charts on screen (``simlab run --dpi 300`` for print).
CHART_DPI = 110


#: The widest chart, in inches: at the figures' 110 dpi it fits a report page without shrinking.
MAX_WIDTH_IN = 12.0


#: Heatmaps label their cells with values only up to this many cells (the tables have the numbers).
MAX_ANNOTATED_CELLS = 400


MARKERS = "osD^vP*Xh<>"


def series_style(i: int, n: int) -> tuple[Any, str]:
    """Colour and marker of the ``i``-th of ``n`` lines: ten distinct colours, twenty beyond ten, a marker each."""
    if n <= 10:
        return f"C{i % 10}", MARKERS[i % len(MARKERS)]
    return matplotlib.colormaps["tab20"](i % 20), MARKERS[(i // 2) % len(MARKERS)]


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


def joined_names(names: Sequence[str], width: int = 40) -> str:
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


def new_figure(width: float, height: float, layout: Literal["constrained"] | None = "constrained") -> Figure:
    """A chart's figure, at the size asked for if any.

    One-axes charts pass ``layout=None`` and end with :func:`fixed_layout`.
    """
    return ChartFigure(figsize=_SIZE.get() or (width, height), dpi=CHART_DPI, layout=layout)


def line_labels(frame: pd.DataFrame, by: Sequence[str]) -> pd.Series:
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


def methods_note(frame: pd.DataFrame) -> str:
    """A second line for the x label saying how sampled values are drawn."""
    methods = set(frame["method"])
    if "monte_carlo" not in methods:
        return ""
    return "\n(" + ("lines: exact; " if "exact" in methods else "") + "points and bars: sampled, 95 % interval)"


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


def cell_text(value: float) -> str:
    """A heatmap cell's number: two significant figures, 0.52 or 25; 0 for an exact sum's rounding (-1e-16)."""
    if abs(value) < 1e-12:
        return "0"
    return f"{value:.2g}" if abs(value) < 100 else f"{value:.0f}"


def lay_out_panels(
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
