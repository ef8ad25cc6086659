"""The report of a run: what it says first, then its charts and tables, as Markdown and as HTML.

:func:`build_report` decides what a designer sees: a headline computed from the data
(:mod:`simlab.output.headline`), the key chart, then pivot tables weapon × armour, rankings,
marginal values, or one row per cell for other grids. :func:`to_markdown` and
:func:`to_html` only render it; the HTML comes from the Jinja2 templates of
:mod:`simlab.output.rendering` and is one self-contained file: styles inline, charts
embedded as PNG, large tables collapsed, colour-scaled and scrollable.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
from markupsafe import Markup

from simlab.inputs.own_tables import describe_tables
from simlab.output import pivots as reports
from simlab.output.answers import answer_question
from simlab.output.headline import headline
from simlab.output.rendering import render
from simlab.output.words import Vocabulary, sentence_case, vocabulary
from simlab.records import Comparison, ExperimentRun

__all__ = ["Chart", "Table", "Report", "build_report", "build_comparison_report", "to_markdown", "to_html"]

#: Metrics shown as weapon × armour tables, in order of preference.
_PIVOT_METRICS = ("mean_damage", "p_incapacitated", "p_hit")
#: A key chart wider than this (inches) goes under the headline at the page's full width, not beside it.
WIDE_CHART_IN = 8.5
#: Tables up to this many rows are shown open; longer ones collapsed.
OPEN_ROWS = 20
#: Tables up to this many cells are colour-scaled (beyond, the page would grow heavy).
SHADED_CELLS = 6000
#: The variant label of a row that is the same under every rule set.
EVERY_VARIANT = "every variant"


@dataclass(frozen=True)
class Chart:
    """A drawn chart: its file stem, caption, PNG bytes and size in inches."""

    name: str
    caption: str
    png: bytes
    width_in: float = 6.4
    height_in: float = 4.0


def key_chart(charts: list[Chart]) -> Chart | None:
    """The chart of the first screen: the first one that is legible there (not taller than wide)."""
    fitting = [chart for chart in charts if chart.height_in <= 0.8 * chart.width_in]
    return fitting[0] if fitting else (charts[0] if charts else None)


@dataclass(frozen=True, eq=False)
class Table:
    """A table of a report.

    Attributes:
        caption: What it shows.
        frame: The values as shown.
        shading: Numbers of the same shape that the cells' colours follow (None: the frame's
            own numbers, if any).
        note: A line under the caption (rows folded together, say).
    """

    caption: str
    frame: pd.DataFrame
    shading: pd.DataFrame | None = None
    note: str = ""


@dataclass
class Report:
    """What the report says, independent of its format."""

    title: str
    description: str
    summary: list[tuple[str, str]]
    tables: list[Table] = field(default_factory=list)
    charts: list[Chart] = field(default_factory=list)
    headline: list[str] = field(default_factory=list)


def build_report(run: ExperimentRun, charts: list[Chart]) -> Report:
    """The report of ``run`` with its drawn ``charts``."""
    experiment = run.experiment
    system = experiment.owner
    words = vocabulary(experiment)
    sampled = run.table[run.table["method"] == "monte_carlo"]
    summary = [
        ("system", f"{system.title} ({system.name}, {system.spec})"),
        ("question", f"{experiment.question.title} (kind {experiment.kind})"),
        ("method", experiment.method),
        ("grid", " × ".join(f"{words.name(k)} ({len(v)})" for k, v in experiment.grid.items()) or "one cell"),
        ("cells", f"{experiment.n_cells:,}" + (f" ({len(experiment.skipped)} skipped, listed below)"
                                               if experiment.skipped else "")),
        ("fixed inputs", words.held(experiment.fixed) or "none"),
    ]  # fmt: skip
    if experiment.tables:
        own = describe_tables(experiment.tables, system.tables())
        summary.append(("your own rows", "; ".join(f"{name}: {', '.join(t['rows'])}" for name, t in own.items())))
    if len(sampled):
        trials = sampled["trials"].astype("int64")
        used = f"{trials.min():,}" if trials.min() == trials.max() else f"{trials.min():,} to {trials.max():,}"
        summary.append(("sampling", f"{used} trials per cell, seed {experiment.seed}, 95 % intervals"))
        if experiment.precision is not None:
            summary.append(("precision", f"every 95 % half-width at most {experiment.precision:g}"))
    summary.append(("run time", f"{run.seconds:.1f} s"))
    grid = experiment.dimensions
    variants = [v.name for v in experiment.variants]
    if experiment.asks is not None:  # the question it states, answered
        said = answer_question(run.table, experiment.asks, words, variants)
    else:
        said = headline(run.table, [k for k in grid if k != "variant"], variants, words)
    report = Report(experiment.name, experiment.description, summary, charts=list(charts), headline=said)
    metrics = list(dict.fromkeys(run.table["metric"]))
    if experiment.skipped:
        left_out = pd.DataFrame([{**inputs, "why it cannot be": reason} for _, inputs, reason in experiment.skipped])
        report.tables.append(Table("Cells skipped: combinations the rules forbid (skip_invalid = true)", left_out))
    if "weapon" in grid and "armor" in grid and len(grid["weapon"]) > 1 and len(grid["armor"]) > 1:
        _weapon_armour_tables(report, run, metrics, words)
    else:
        inputs = list(grid)
        plain, series = reports.split_series(metrics)
        title = f"Every cell: {_what_values(run.table)}"
        if series:
            title += f"; the series {', '.join(p + 'k' for p in series)} are in table.csv and the charts"
        chosen = plain if series else None
        shown = reports.cell_table(run.table, inputs, chosen)
        shading = reports.cell_values(run.table, inputs, chosen)
        shown, shading, note = _fold_variants(shown, shading)
        report.tables.append(Table(title, shown, shading, note))
        if len(run.marginals) and "weapon" in grid and "mean_damage" in metrics:
            report.tables.append(
                Table(
                    "Marginal value: change of expected damage",
                    reports.marginal_value(run.marginals, "mean_damage", "weapon"),
                )
            )
    report.tables = [in_words(table, words, grid) for table in report.tables]
    return report


def _what_values(table: pd.DataFrame) -> str:
    """What the values of a cell table are: exact, sampled with intervals, or both."""
    methods = set(table["method"])
    if methods == {"exact"}:
        return "exact values"
    if "exact" not in methods:
        return "sampled values ± 95 % half-width"
    return "exact values, and sampled ones as value ± 95 % half-width"


def _fold_variants(shown: pd.DataFrame, shading: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    """Rows that are the same under every rule set, shown once (variant: every variant)."""
    if "variant" not in (shown.index.names or []) or shown.index.get_level_values("variant").nunique() < 2:
        return shown, shading, ""
    others = [name for name in shown.index.names if name != "variant"]
    keep: list[int] = []
    labels: list[Any] = []
    folded = 0
    positions = pd.Series(range(len(shown)), index=shown.index)
    for _, group in positions.groupby(level=others, sort=False):
        rows = shown.iloc[group.to_numpy()]
        if len(rows) > 1 and (rows.nunique(dropna=False) <= 1).all():
            keep.append(int(group.iloc[0]))
            labels.append(EVERY_VARIANT)
            folded += 1
        else:
            keep += [int(i) for i in group]
            labels += list(rows.index.get_level_values("variant"))
    if not folded:
        return shown, shading, ""

    def relabel(frame: pd.DataFrame) -> pd.DataFrame:
        picked = frame.iloc[keep].reset_index()
        picked["variant"] = labels
        return picked.set_index(list(shown.index.names))

    note = f"{folded} cell(s) have the same values under every rule set; each is shown once, as '{EVERY_VARIANT}'."
    return relabel(shown), relabel(shading), note


def _weapon_armour_tables(report: Report, run: ExperimentRun, metrics: list[str], words: Vocabulary) -> None:
    experiment = run.experiment
    grid = experiment.dimensions
    others = [k for k, v in grid.items() if k not in ("weapon", "armor") and len(v) > 1]
    first = {k: grid[k][0] for k in others}
    panel = others[0] if others else None
    shown = [m for m in _PIVOT_METRICS if m in metrics]
    main = shown[0]
    for value in grid[panel] if panel else [None]:
        where = {**first, **({panel: value} if panel else {})}
        suffix = _where_text(where, words)
        report.tables.append(
            Table(
                f"{sentence_case(words.name(main))} by weapon and armour{suffix}",
                reports.pivot(run.table, main, "weapon", "armor", where),
            )
        )
    for metric in shown[1:2]:
        report.tables.append(
            Table(
                f"{sentence_case(words.name(metric))} by weapon and armour{_where_text(first, words)}",
                reports.pivot(run.table, metric, "weapon", "armor", first),
            )
        )
    report.tables.insert(
        0,
        Table(
            f"Best weapons by {words.name(main)} against each armour{_where_text(first, words)}",
            reports.ranking(run.table, main, "weapon", "armor", first),
        ),
    )
    if len(run.marginals):
        report.tables.append(
            Table(
                f"Marginal value: change of {words.name(main)} per weapon, averaged over armour"
                f"{_where_text(first, words)}",
                reports.marginal_value(run.marginals, main, "weapon", first),
            )
        )


def build_comparison_report(comparison: Comparison, charts: list[Chart]) -> Report:
    """The report of a comparison of variants with the base rules."""
    experiment = comparison.experiment
    table = comparison.table
    system = experiment.owner
    summary = [
        ("system", f"{system.title} ({system.name})"),
        ("question", f"{experiment.question.title} (kind {experiment.kind})"),
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
    report = Report(
        f"{experiment.name}: variants compared",
        description,
        summary,
        charts=list(charts),
        headline=_comparison_headline(comparison),
    )
    inputs = list(experiment.grid)
    changed = table[table["delta"].abs() > 1e-12]
    largest = changed.reindex(changed["delta"].abs().sort_values(ascending=False, kind="stable").index).head(25)
    columns = ["variant", *inputs, "method", "metric", "base", "value", "delta"]
    shown = largest[columns].assign(
        interval=[_interval_text(r.delta_ci_low, r.delta_ci_high) for r in largest.itertuples()],
        independent=[_half_width_text(r.independent_half_width) for r in largest.itertuples()],
    )
    report.tables.append(
        Table(
            f"Largest changes ({len(changed):,} of {len(table):,} rows changed; sampled rows with the 95 % "
            "interval of the difference and the half-width two independent runs would give)",
            shown.set_index("variant"),
        )
    )
    widths = reports.describe_widths(table)
    if len(widths):
        report.tables.append(
            Table("Interval half-widths of sampled differences: common random numbers against independent runs", widths)
        )
    return report


def _comparison_headline(comparison: Comparison) -> list[str]:
    """The largest change of each variant, and how many rows it changes."""
    table = comparison.table
    sentences = []
    for variant in comparison.variants:
        rows = table[table["variant"] == variant.name]
        moved = rows[rows["delta"].abs() > 1e-12]
        if not len(moved):
            sentences.append(f"Variant {variant.name} changes nothing.")
            continue
        top = moved.loc[moved["delta"].abs().idxmax()]
        inputs = ", ".join(f"{k} = {top[k]}" for k in comparison.experiment.grid if k in top)
        sentences.append(
            f"Variant {variant.name} changes {len(moved):,} of {len(rows):,} rows; most {top['metric']} at "
            f"{inputs}: {reports.format_value(float(top['base']))} → {reports.format_value(float(top['value']))}."
        )
    return sentences


def _interval_text(low: float, high: float) -> str:
    return "" if pd.isna(low) else f"[{reports.format_value(low)}, {reports.format_value(high)}]"


def _half_width_text(value: float) -> str:
    return "" if pd.isna(value) else f"± {reports.format_value(value)}"


def _where_text(where: dict[str, Any], words: Vocabulary) -> str:
    return f" ({words.held(where)})" if where else ""


def in_words(table: Table, words: Vocabulary, inputs: Iterable[str]) -> Table:
    """A table whose headers and input values are the designer's words (``table.csv`` keeps the raw names).

    Columns and index levels named after a metric or input take its words (with the unit); the
    values of input columns take theirs ("full auto", "no armour"). A header whose words another
    header already has keeps its raw name, so that no two columns look alike.
    """
    taken: set[str] = set()

    def header(name: Any) -> Any:
        if not isinstance(name, str) or name in _KEPT_HEADERS or not words.has_words(name):
            return name
        said = words.axis(name)
        if said in taken:
            return name
        taken.add(said)
        return said

    def value_of(name: str) -> Callable[[Any], Any]:
        return lambda value: words.value(name, value) if isinstance(value, str) else value

    def worded(frame: pd.DataFrame) -> pd.DataFrame:
        frame = frame.copy()
        for column in frame.columns:
            if isinstance(column, str) and column in inputs and frame[column].dtype == object:
                frame[column] = frame[column].map(value_of(column))
        for name in frame.index.names:
            if name in inputs:
                frame = frame.rename(index=value_of(name), level=name)
        frame.index = frame.index.set_names([header(n) for n in frame.index.names])
        if not isinstance(frame.columns, pd.MultiIndex):
            frame.columns = pd.Index([header(c) for c in frame.columns], name=header(frame.columns.name))
        return frame

    inputs = set(inputs)
    shown = worded(table.frame)
    shading = None
    if table.shading is not None:
        taken.clear()
        shading = worded(table.shading)
    return Table(table.caption, shown, shading, table.note)


#: Headers that stay as they are: the method and rule set columns say what they are already.
_KEPT_HEADERS = ("method", "variant", "cell")


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
    if report.headline:
        parts += ["## What this says", ""] + [f"- {esc(sentence)}" for sentence in report.headline] + [""]
    first = key_chart(report.charts)
    if first is not None:
        parts += [f"![{esc(first.caption)}]({first.name}.png)", ""]
    parts += ["## Summary", ""]
    parts += [f"- **{esc(key)}**: {esc(value)}" for key, value in report.summary]
    more = [chart for chart in report.charts if chart is not first]
    if more:
        parts += ["", "## More charts"]
        for chart in more:
            parts += ["", f"### {esc(chart.caption)}", "", f"![{esc(chart.caption)}]({chart.name}.png)"]
    for table in report.tables:
        parts += ["", f"## {esc(table.caption)}", ""]
        if table.note:
            parts += [esc(table.note), ""]
        parts.append(_markdown_table(table.frame))
    return "\n".join(parts) + "\n"


def to_html(report: Report) -> str:
    """The report as one self-contained HTML page (templates ``report.html.j2`` and ``base.html.j2``)."""
    tables = [
        {"caption": t.caption, "note": t.note, "rows": len(t.frame), "html": Markup(_table_html(t))}
        for t in report.tables
    ]
    first = key_chart(report.charts)
    return render(
        "report.html.j2",
        report=report,
        key_chart=first,
        more_charts=[chart for chart in report.charts if chart is not first],
        tables=tables,
        open_rows=OPEN_ROWS,
        wide_chart_in=WIDE_CHART_IN,
    )


def _table_html(table: Table) -> str:
    """A table as HTML, its numbers colour-scaled by column when it is not too large."""
    frame = table.frame
    shading = table.shading
    if not frame.index.is_unique or not frame.columns.is_unique:  # Styler needs unique labels
        frame = frame.reset_index()
        shading = None
    if shading is None:
        numeric = frame.select_dtypes("number")
        shading = numeric if len(numeric.columns) else None
    # Every label and value may be a designer's text (grid values, names): escaped, never markup.
    frame = frame.rename_axis(index=_escaped_names(frame.index), columns=_escaped_names(frame.columns))
    styler = frame.style.format(_display, na_rep="", escape="html")
    styler = styler.format_index(escape="html", axis=0).format_index(escape="html", axis=1)
    if shading is not None and frame.size <= SHADED_CELLS and len(frame) > 1:
        css = shading_css(shading.reindex(index=frame.index, columns=frame.columns).astype(float))
        styler = styler.apply(lambda _: css, axis=None)
    styler = styler.set_table_attributes('class="report-table"')
    return styler.to_html()


def _escaped_names(axis: pd.Index) -> list[str | None]:
    """The names of an axis's levels, HTML-escaped (Styler escapes labels, not names)."""
    return [None if name is None else html.escape(str(name)) for name in axis.names]


def shading_css(values: pd.DataFrame, low: float = 0.05, high: float = 0.35) -> pd.DataFrame:
    """The CSS of each cell of a colour-scaled table: Styler's ``background_gradient`` look, all columns at once.

    Each column is on its own scale (metrics differ in range), from its smallest value
    (``low`` into the "Blues" map) to its largest (``high`` from its end), with dark or
    light text by the colour's luminance. Columns with fewer than two distinct numbers,
    and empty cells, stay plain.
    """
    css = pd.DataFrame("", index=values.index, columns=values.columns)
    blues = matplotlib.colormaps["Blues"]
    for position in range(values.shape[1]):
        column = values.iloc[:, position].to_numpy(dtype=float)
        shown = ~np.isnan(column)
        if shown.sum() < 2 or np.nanmax(column) <= np.nanmin(column):
            continue
        smallest, largest = np.nanmin(column), np.nanmax(column)
        spread = largest - smallest
        start, end = smallest - spread * low, largest + spread * high
        rgb = blues((column[shown] - start) / (end - start))[:, :3]
        linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
        dark = linear @ np.array([0.2126, 0.7152, 0.0722]) < 0.408
        codes = np.round(rgb * 255).astype(int)
        cells = [
            f"background-color: #{r:02x}{g:02x}{b:02x};color: {'#f1f1f1' if d else '#000000'};"
            for (r, g, b), d in zip(codes, dark, strict=True)
        ]
        target = css.iloc[:, position].to_numpy(dtype=object)
        target[shown] = cells
        css.iloc[:, position] = target
    return css


def _display(value: Any) -> str:
    if isinstance(value, float):
        return "" if pd.isna(value) else reports.format_value(value)
    return str(value)
