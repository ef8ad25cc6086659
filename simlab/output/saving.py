"""Charts as files: a figure as the PNG that reports embed and the web page shows, and a report's charts saved."""

from __future__ import annotations

import io
from collections.abc import Iterable
from pathlib import Path

import matplotlib as mpl
from matplotlib.figure import Figure

from simlab.output.charts import chart_file_name
from simlab.output.document import Chart
from simlab.records import ChartSpec

__all__ = ["png_bytes", "save_charts"]


def _caption(figure: Figure, title: str | None) -> str:
    if title:
        return title
    suptitle = figure.get_suptitle()
    return suptitle or (figure.axes[0].get_title() if figure.axes else "chart")


def png_bytes(figure: Figure, compress_level: int = 6, dpi: int | None = None) -> bytes:
    """A figure as the PNG that reports embed and the web page shows.

    Args:
        figure: The chart.
        compress_level: zlib's level, 0 to 9: the web page, which draws a chart per request, takes 1
            (a fifth quicker to encode, about a tenth larger).
        dpi: Dots per inch (the figure's own, 110, without).
    """
    buffer = io.BytesIO()
    figure.savefig(
        buffer, format="png", dpi=dpi or figure.dpi, metadata={"Software": None},
        pil_kwargs={"compress_level": compress_level},
    )  # fmt: skip
    return buffer.getvalue()


def save_charts(
    figures: Iterable[tuple[ChartSpec, Figure]], directory: Path, svg: bool = False, dpi: int | None = None
) -> list[Chart]:
    """Save each figure as PNG (and SVG with ``svg``) into ``directory`` under a unique name.

    The PNG is what reports embed; the SVG, for print, costs about as much again to write,
    so it is made only when asked for (``simlab run --svg``).
    """
    taken: set[str] = set()
    charts = []
    # SVG text stays text (smaller, selectable, and far quicker to write than glyph paths).
    with mpl.rc_context({"svg.hashsalt": "simlab", "font.size": 9, "svg.fonttype": "none"}):
        for spec, figure in figures:
            name = chart_file_name(spec, taken)
            png = png_bytes(figure, dpi=spec.get("dpi") or dpi)  # a chart's own dpi, else the run's
            (directory / f"{name}.png").write_bytes(png)
            if svg:
                figure.set_layout_engine("none")  # laid out once, for the PNG; the SVG keeps that layout
                figure.savefig(directory / f"{name}.svg", format="svg", metadata={"Date": None})
            width, height = (float(v) for v in figure.get_size_inches())
            charts.append(Chart(name, _caption(figure, spec.get("title")), png, width, height))
    return charts
