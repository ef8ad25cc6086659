"""Writing one run's results directory: tables, charts, reports and provenance.

Everything goes into a temporary directory beside the destination, which replaces
``OUT/<name>/`` only once every file is written: a failed run leaves no partial results.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from simlab.output import plots
from simlab.output.answers import question_chart
from simlab.output.atomic import staged_directory
from simlab.output.charts import choose_charts, comparison_charts, draw, key_chart_first
from simlab.output.document import Chart, Report, build_comparison_report, build_report, to_html, to_markdown
from simlab.output.saving import save_charts
from simlab.output.words import vocabulary
from simlab.records import ChartSpec, Comparison, ExperimentRun

__all__ = ["write_results", "write_comparison", "write_bundle", "RESULT_FILES"]

#: Files every results directory has (besides one PNG per chart, and one SVG with ``svg``).
RESULT_FILES = ("table.csv", "table.parquet", "report.md", "report.html", "provenance.json")


def draw_charts(
    run: ExperimentRun,
    directory: Path,
    svg: bool = False,
    dpi: int | None = None,
    size: tuple[float, float] | None = None,
) -> list[Chart]:
    """Draw the experiment's charts (or the default choice) as PNG (and SVG) into ``directory``."""
    experiment = run.experiment
    specs = experiment.charts or tuple(choose_charts(experiment, list(dict.fromkeys(run.table["metric"]))))
    if experiment.asks is not None:
        specs = key_chart_first(specs, question_chart(experiment.asks, experiment.dimensions))

    def drawn(spec: ChartSpec) -> Figure:
        with plots.sized(spec.get("size") or size):  # a chart's own size for print, else the run's, else its own
            return draw(spec, run)

    with plots.speaking(vocabulary(experiment)):  # in the experiment's own words
        return save_charts(((spec, drawn(spec)) for spec in specs), directory, svg, dpi)


def write_bundle(
    destination: Path,
    table: pd.DataFrame,
    charts: Callable[[Path], list[Chart]],
    report: Callable[[list[Chart]], Report],
    provenance: Mapping[str, object],
) -> Path:
    """Write one results directory atomically: tables, charts, reports, provenance.

    Args:
        destination: The directory (replaced whole once everything is written).
        table: The tidy table (``table.csv``, ``table.parquet``).
        charts: Draws the charts into a directory and returns them.
        report: Builds the report from the drawn charts.
        provenance: The ``provenance.json`` object.
    """
    with staged_directory(destination) as stage:
        table.to_csv(stage / "table.csv", index=False, lineterminator="\n")
        _parquet_ready(table).to_parquet(stage / "table.parquet", index=False)
        built = report(charts(stage))
        (stage / "report.md").write_text(to_markdown(built), encoding="utf-8")
        (stage / "report.html").write_text(to_html(built), encoding="utf-8")
        (stage / "provenance.json").write_text(json.dumps(provenance, indent=2) + "\n", encoding="utf-8")
    return destination


def write_results(
    run: ExperimentRun,
    out: Path,
    provenance: Mapping[str, object],
    svg: bool = False,
    dpi: int | None = None,
    size: tuple[float, float] | None = None,
    *,
    drawer: Callable[..., list[Chart]] | None = None,
    builder: Callable[[ExperimentRun, list[Chart]], Report] | None = None,
) -> Path:
    """Write ``OUT/<name>/`` for one run of an experiment.

    Args:
        run: The run.
        out: The results root.
        provenance: The ``provenance.json`` object.
        svg: Charts as SVG too.
        dpi: Dots per inch of the PNGs (a chart's own ``dpi`` first; None: 110).
        size: Every chart's width and height in inches (a chart's own ``size`` first; None: each its own).
        drawer: Draws and saves its charts (None: the charts of the grid; an analysis has its own:
            :mod:`simlab.analyses.report`).
        builder: Builds its report from the run and the charts (None: the grid's report).
    """
    draw, build = drawer or draw_charts, builder or build_report
    return write_bundle(
        out / run.experiment.name,
        run.table,
        lambda directory: draw(run, directory, svg, dpi, size),
        lambda charts: build(run, charts),
        provenance,
    )


def write_comparison(comparison: Comparison, out: Path, provenance: Mapping[str, object], svg: bool = False) -> Path:
    """Write ``OUT/compare_<name>/`` for a comparison of variants."""

    def charts(directory: Path) -> list[Chart]:
        return save_charts(comparison_charts(comparison), directory, svg)

    return write_bundle(
        out / f"compare_{comparison.experiment.name}",
        comparison.table,
        charts,
        lambda drawn: build_comparison_report(comparison, drawn),
        provenance,
    )


def _parquet_ready(table: pd.DataFrame) -> pd.DataFrame:
    """The table with each input column of mixed types (a blank and numbers) written as text for Parquet."""
    mixed = [
        column
        for column in table.columns
        if table[column].dtype == object and len({type(v) for v in table[column].dropna()}) > 1
    ]
    return table.astype({column: str for column in mixed}) if mixed else table
