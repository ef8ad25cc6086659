"""Writing one run's results directory: tables, charts, reports and provenance.

Everything goes into a temporary directory beside the destination, which replaces
``OUT/<name>/`` only once every file is written: a failed run leaves no partial results.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import matplotlib as mpl
from matplotlib.figure import Figure

from simlab import plots
from simlab.atomic import staged_directory
from simlab.report import Chart, build_report, to_html, to_markdown
from simlab.runner import ExperimentRun

__all__ = ["write_results", "RESULT_FILES"]

#: Files every results directory has (besides one PNG and one SVG per chart).
RESULT_FILES = ("table.csv", "table.parquet", "report.md", "report.html", "provenance.json")


def _caption(figure: Figure, title: str | None) -> str:
    if title:
        return title
    suptitle = figure.get_suptitle()
    return suptitle or (figure.axes[0].get_title() if figure.axes else "chart")


def _png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()


def draw_charts(run: ExperimentRun, directory: Path) -> list[Chart]:
    """Draw the experiment's charts (or the default choice) as PNG and SVG into ``directory``."""
    experiment = run.experiment
    specs = experiment.charts or tuple(plots.choose_charts(experiment, list(dict.fromkeys(run.table["metric"]))))
    taken: set[str] = set()
    charts = []
    with mpl.rc_context({"svg.hashsalt": "simlab", "font.size": 9}):
        for spec in specs:
            figure = plots.draw(spec, run)
            name = plots.chart_file_name(spec, taken)
            png = _png(figure)
            (directory / f"{name}.png").write_bytes(png)
            figure.savefig(directory / f"{name}.svg", format="svg", metadata={"Date": None})
            charts.append(Chart(name, _caption(figure, spec.get("title")), png))
    return charts


def write_results(run: ExperimentRun, out: Path, provenance: dict[str, object]) -> Path:
    """Write ``OUT/<name>/`` for one run, atomically.

    Args:
        run: The run.
        out: The results root (``results``).
        provenance: The ``provenance.json`` object.

    Returns:
        The results directory.
    """
    destination = out / run.experiment.name
    with staged_directory(destination) as stage:
        run.table.to_csv(stage / "table.csv", index=False, lineterminator="\n")
        run.table.to_parquet(stage / "table.parquet", index=False)
        charts = draw_charts(run, stage)
        report = build_report(run, charts)
        (stage / "report.md").write_text(to_markdown(report), encoding="utf-8")
        (stage / "report.html").write_text(to_html(report), encoding="utf-8")
        (stage / "provenance.json").write_text(json.dumps(provenance, indent=2) + "\n", encoding="utf-8")
    return destination
