"""Charts of a run (matplotlib): a tidy DataFrame in, a :class:`~matplotlib.figure.Figure` out.

Exact values are drawn as lines; sampled values as points with their 95 % intervals. Every
chart has labelled axes with units, a legend where lines need one, and sizes and fonts
that stay readable in print. Which charts a run gets, and drawing one from its
specification, is :mod:`simlab.output.charts`.

One module a job: :mod:`.style` (what every chart shares), :mod:`.lines`, :mod:`.grids`,
:mod:`.distributions` and :mod:`.balance` (the charts of each kind).
"""

from simlab.output.plots.balance import mixes, search, shares
from simlab.output.plots.distributions import distribution
from simlab.output.plots.grids import distribution_heatmap, heatmap
from simlab.output.plots.lines import attacks_to_incapacitate, bars, curve, series, stacked, survival
from simlab.output.plots.style import (
    CHART_DPI,
    MAX_ANNOTATED_CELLS,
    MAX_WIDTH_IN,
    ChartFigure,
    by_columns,
    chart_title,
    fixed_layout,
    label_of,
    robust_range,
    series_style,
    sized,
    speaking,
    value_of,
    vocabulary_now,
)
from simlab.output.words import the

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
    "search",
    "shares",
    "mixes",
    "series_style",
    "robust_range",
    "CHART_DPI",
    "MAX_WIDTH_IN",
    "MAX_ANNOTATED_CELLS",
    "vocabulary_now",
    "ChartFigure",
]
