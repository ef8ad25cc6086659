"""The report of a run: its summary, tables and charts, rendered as Markdown and as HTML.

:func:`build_report` decides what a designer sees (pivot tables weapon × armour, rankings,
marginal values, or one row per cell for other grids); :func:`to_markdown` and
:func:`to_html` only render it. The HTML is one self-contained file: styles inline and
charts embedded as PNG.
"""

from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from simlab.output import pivots as reports
from simlab.workflow.compare import Comparison, describe_widths
from simlab.workflow.runner import ExperimentRun

__all__ = ["Chart", "Report", "build_report", "build_comparison_report", "to_markdown", "to_html"]

#: Metrics shown as weapon × armour tables, in order of preference.
_PIVOT_METRICS = ("mean_damage", "p_incapacitated", "p_hit")


@dataclass(frozen=True)
class Chart:
    """A drawn chart: its file stem, caption and PNG bytes."""

    name: str
    caption: str
    png: bytes


@dataclass
class Report:
    """What the report says, independent of its format."""

    title: str
    description: str
    summary: list[tuple[str, str]]
    tables: list[tuple[str, pd.DataFrame]] = field(default_factory=list)
    charts: list[Chart] = field(default_factory=list)


def build_report(run: ExperimentRun, charts: list[Chart]) -> Report:
    """The report of ``run`` with its drawn ``charts``."""
    experiment = run.experiment
    system = experiment.answering
    sampled = run.table[run.table["method"] == "monte_carlo"]
    summary = [
        ("system", f"{system.title} ({system.name}, {system.spec})"),
        ("method", experiment.method),
        ("grid", " × ".join(f"{k} ({len(v)})" for k, v in experiment.grid.items()) or "one cell"),
        ("cells", f"{experiment.n_cells:,}"),
        ("fixed inputs", ", ".join(f"{k} = {v}" for k, v in experiment.fixed.items()) or "none"),
    ]
    if len(sampled):
        trials = sampled["trials"].astype("int64")
        used = f"{trials.min():,}" if trials.min() == trials.max() else f"{trials.min():,} to {trials.max():,}"
        summary.append(("sampling", f"{used} trials per cell, seed {experiment.seed}, 95 % intervals"))
        if experiment.precision is not None:
            summary.append(("precision", f"every 95 % half-width at most {experiment.precision:g}"))
    summary.append(("run time", f"{run.seconds:.1f} s"))
    report = Report(experiment.name, experiment.description, summary, charts=list(charts))
    grid = experiment.dimensions
    metrics = list(dict.fromkeys(run.table["metric"]))
    if "weapon" in grid and "armor" in grid and len(grid["weapon"]) > 1 and len(grid["armor"]) > 1:
        _weapon_armour_tables(report, run, metrics)
    else:
        inputs = list(grid)
        plain, series = reports.split_series(metrics)
        title = "Every cell (exact values; sampled ones as value ± 95 % half-width)"
        if series:
            title += f"; the series {', '.join(p + 'k' for p in series)} are in table.csv and the charts"
        report.tables.append((title, reports.cell_table(run.table, inputs, plain if series else None)))
        if len(run.marginals) and "weapon" in grid and "mean_damage" in metrics:
            report.tables.append(
                (
                    "Marginal value: change of expected damage",
                    reports.marginal_value(run.marginals, "mean_damage", "weapon"),
                )
            )
    return report


def _weapon_armour_tables(report: Report, run: ExperimentRun, metrics: list[str]) -> None:
    experiment = run.experiment
    grid = experiment.dimensions
    others = [k for k, v in grid.items() if k not in ("weapon", "armor") and len(v) > 1]
    first = {k: grid[k][0] for k in others}
    panel = others[0] if others else None
    shown = [m for m in _PIVOT_METRICS if m in metrics]
    main = shown[0]
    for value in grid[panel] if panel else [None]:
        where = {**first, **({panel: value} if panel else {})}
        suffix = _where_text(where)
        report.tables.append(
            (f"{main} by weapon and armour{suffix}", reports.pivot(run.table, main, "weapon", "armor", where))
        )
    for metric in shown[1:2]:
        report.tables.append(
            (
                f"{metric} by weapon and armour{_where_text(first)}",
                reports.pivot(run.table, metric, "weapon", "armor", first),
            )
        )
    report.tables.append(
        (
            f"Best weapons by {main} against each armour{_where_text(first)}",
            reports.ranking(run.table, main, "weapon", "armor", first),
        )
    )
    if len(run.marginals):
        report.tables.append(
            (
                f"Marginal value: change of {main} per weapon, averaged over armour{_where_text(first)}",
                reports.marginal_value(run.marginals, main, "weapon", first),
            )
        )


def build_comparison_report(comparison: Comparison, charts: list[Chart]) -> Report:
    """The report of a comparison of variants with the base rules."""
    experiment = comparison.experiment
    table = comparison.table
    system = experiment.answering
    summary = [
        ("system", f"{system.title} ({system.name})"),
        ("experiment", f"{experiment.name} ({experiment.path})"),
        ("cells", f"{experiment.n_cells:,}; method {experiment.method}"),
    ]
    for variant in comparison.variants:
        summary.append((f"variant {variant.name}", variant.description or str(variant.path)))
    sampled = table[table["method"] == "monte_carlo"]
    if len(sampled):
        trials = int(sampled["trials"].max())
        summary.append(
            (
                "sampling",
                f"{trials:,} trials per cell and rule set, seed {experiment.seed}, common random numbers "
                f"(the same trials under both rules); 95 % intervals of the differences from "
                f"{comparison.batches} batches",
            )
        )
    summary.append(("run time", f"{comparison.seconds:.1f} s"))
    description = f"What each variant changes against the base rules, cell by cell. {experiment.description}".strip()
    report = Report(f"{experiment.name}: variants compared", description, summary, charts=list(charts))
    inputs = list(experiment.grid)
    changed = table[table["delta"].abs() > 1e-12]
    largest = changed.reindex(changed["delta"].abs().sort_values(ascending=False, kind="stable").index).head(25)
    columns = ["variant", *inputs, "method", "metric", "base", "value", "delta"]
    shown = largest[columns].assign(
        interval=[_interval_text(r.delta_ci_low, r.delta_ci_high) for r in largest.itertuples()],
        independent=[_half_width_text(r.independent_half_width) for r in largest.itertuples()],
    )
    report.tables.append(
        (
            f"Largest changes ({len(changed):,} of {len(table):,} rows changed; sampled rows with the 95 % "
            "interval of the difference and the half-width two independent runs would give)",
            shown.set_index("variant"),
        )
    )
    widths = describe_widths(table)
    if len(widths):
        report.tables.append(
            ("Interval half-widths of sampled differences: common random numbers against independent runs", widths)
        )
    return report


def _interval_text(low: float, high: float) -> str:
    return "" if pd.isna(low) else f"[{reports.format_value(low)}, {reports.format_value(high)}]"


def _half_width_text(value: float) -> str:
    return "" if pd.isna(value) else f"± {reports.format_value(value)}"


def _where_text(where: dict[str, Any]) -> str:
    return f" ({', '.join(f'{k} = {v}' for k, v in where.items())})" if where else ""


_MARKDOWN_SPECIAL = re.compile(r"([\\`*\[\]|])")


def markdown_text(text: Any) -> str:
    """Text from an experiment or variant file, safe in Markdown: one line, HTML escaped, no markup.

    Markdown viewers render raw HTML and links, so a description such as ``<script>`` or
    ``[x](javascript:...)`` must reach the reader as the characters it is.
    """
    line = " ".join(str(text).split())
    return _MARKDOWN_SPECIAL.sub(r"\\\1", html.escape(line, quote=False))


def _markdown_table(frame: pd.DataFrame) -> str:
    frame = frame.reset_index() if frame.index.name or any(frame.index.names) else frame
    columns = [markdown_text(c) for c in frame.columns]
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join(_cell(v) for v in row) + " |")
    return "\n".join(lines)


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return "" if pd.isna(value) else reports.format_value(value)
    return markdown_text(value)


def to_markdown(report: Report) -> str:
    """The report as Markdown (charts linked as the PNG files beside it)."""
    esc = markdown_text
    parts = [f"# {esc(report.title)}", ""]
    if report.description:
        parts += [esc(report.description), ""]
    parts += ["## Summary", ""]
    parts += [f"- **{esc(key)}**: {esc(value)}" for key, value in report.summary]
    for caption, frame in report.tables:
        parts += ["", f"## {esc(caption)}", "", _markdown_table(frame)]
    if report.charts:
        parts += ["", "## Charts"]
        for chart in report.charts:
            parts += ["", f"### {esc(chart.caption)}", "", f"![{esc(chart.caption)}]({chart.name}.png)"]
    return "\n".join(parts) + "\n"


_CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px; color: #222; padding: 0 1em; }
h1 { border-bottom: 2px solid #444; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; white-space: nowrap; }
th { background: #f0f0f0; }
td:first-child, th:first-child { text-align: left; }
dl.summary { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dl.summary dt { font-weight: bold; }
figure { margin: 1em 0 2em; }
figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { font-style: italic; color: #555; }
.scroll { overflow-x: auto; }
"""


def to_html(report: Report) -> str:
    """The report as one self-contained HTML page."""
    esc = html.escape
    body = [f"<h1>{esc(report.title)}</h1>"]
    if report.description:
        body.append(f"<p>{esc(report.description)}</p>")
    body.append('<section id="summary"><h2>Summary</h2><dl class="summary">')
    body += [f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in report.summary]
    body.append("</dl></section>")
    body.append('<section id="tables">')
    for caption, frame in report.tables:
        table = frame.to_html(classes="report-table", border=0, na_rep="", float_format=reports.format_value)
        body.append(f'<h2>{esc(caption)}</h2><div class="scroll">{table}</div>')
    body.append("</section>")
    if report.charts:
        body.append('<section id="charts"><h2>Charts</h2>')
        for chart in report.charts:
            data = base64.b64encode(chart.png).decode("ascii")
            body.append(
                f'<figure><img class="chart" data-chart="{esc(chart.name)}" alt="{esc(chart.caption)}" '
                f'onload="this.dataset.loaded=\'yes\'" src="data:image/png;base64,{data}">'
                f"<figcaption>{esc(chart.caption)}</figcaption></figure>"
            )
        body.append("</section>")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{esc(report.title)} · simlab</title><style>{_CSS}</style></head>\n<body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )
