"""Charts of a metric over two inputs: heatmaps of values and of distributions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from simlab.output.pivots import averaged_over, preferred_method, select
from simlab.output.plots.style import (
    MAX_ANNOTATED_CELLS,
    MAX_WIDTH_IN,
    cell_text,
    chart_title,
    label_of,
    lay_out_panels,
    new_figure,
    robust_range,
    vocabulary_now,
)

__all__ = [
    "heatmap",
    "distribution_heatmap",
]


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
    figure = new_figure(width, min(max(1.4 + down * (0.8 + 0.24 * len(row_order)), 3.6), 30), layout=None)
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
                    axes.text(j, i, cell_text(shown), ha="center", va="center", fontsize=6,
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
    bar = lay_out_panels(figure, grid, across, down, heading, colorbar=(low, high) if image is not None else None)
    if image is not None:
        label = label_of(metric) if value == "value" else f"{value} of {label_of(metric)}"
        if clipped:
            label += "\n(colours clipped to the 2nd-98th percentile)"
        extend = "both" if clipped else "neither"
        figure.colorbar(image, cax=figure.add_axes(bar, label="<colorbar>"), label=label, extend=extend)
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
    figure = new_figure(7.0, 1.6 + 0.35 * len(rows))
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
