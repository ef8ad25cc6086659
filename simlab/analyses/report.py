"""The report and charts of an analysis experiment: the answer first, whatever the analysis.

Every analysis says its own question, headline and tables (:attr:`Analysis.said`) and draws its
own charts (:attr:`Analysis.charts`); the summary around them is the same for all.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simlab.analyses import analysis_of
from simlab.output import plots
from simlab.output.document import Chart, Report
from simlab.output.saving import save_charts
from simlab.output.words import vocabulary
from simlab.records import ExperimentRun

__all__ = ["build_balance_report", "draw_balance_charts"]


def draw_balance_charts(
    run: ExperimentRun, directory: Path, svg: bool = False, dpi: int | None = None, size: Any = None
) -> list[Chart]:
    """The charts of an analysis experiment, saved into ``directory``."""
    assert run.experiment.balance is not None
    words = vocabulary(run.experiment)
    with plots.speaking(words), plots.sized(size):
        figures = analysis_of(run.experiment.balance).charts(run, words)
        return save_charts(figures, directory, svg, dpi)


def build_balance_report(run: ExperimentRun, charts: list[Chart]) -> Report:
    """The report of an analysis run: the answer, its charts, its tables."""
    experiment = run.experiment
    assert experiment.balance is not None
    system = experiment.owner
    words = vocabulary(experiment)
    said = analysis_of(experiment.balance).said(run, words)
    summary = [
        ("system", f"{system.title} ({system.name}, {system.spec})"),
        ("question", said.question),
        ("method", experiment.method),
        ("fixed inputs", words.held(experiment.fixed) or "none"),
    ]
    if experiment.method != "exact":
        summary.append(("sampling", f"{experiment.trials:,} trials at every value, seed {experiment.seed}, "
                                    "the same random streams at every value"))  # fmt: skip
    summary.append(("run time", f"{run.seconds:.1f} s"))
    return Report(experiment.name, experiment.description, summary, tables=said.tables, charts=charts,
                  headline=said.headline)  # fmt: skip
