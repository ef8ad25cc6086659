"""What ``simlab regress`` says, for a reader other than a terminal: a pull-request comment in Markdown, a JUnit file.

The Markdown ranks the moved rows of each experiment by weight (the chances first, then |Δ| over
its standard error), each with its value before and after (with its 95 % interval where sampled),
within the size a pull-request comment allows, with "and N more" for the rest. The JUnit file has
one test case per experiment, a failure for each experiment that moved, for any CI that reads it.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ElementTree
from typing import Any

import numpy as np
import pandas as pd

from simlab.workflow.regress import Regression

__all__ = ["regress_markdown", "regress_junit", "regress_report", "moved_summary", "COMMENT_CHARACTERS", "CHARTED"]

#: The moved rows of an experiment drawn in its chart of the report, the heaviest first (all are in its table).
CHARTED = 25

#: The most characters of a comment (GitHub allows 65,536): the rest is said as "and N more".
COMMENT_CHARACTERS = 60_000
#: The columns of a compared row that are not its inputs.
_MEASURES = ("cell", "method", "metric", "baseline", "current", "delta", "p_value", "weight", "changed",
             "baseline_ci_low", "baseline_ci_high", "current_ci_low", "current_ci_high")  # fmt: skip


def _number(value: float) -> str:
    return "—" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.4g}"


def _with_interval(value: float, low: float, high: float, exact: bool) -> str:
    """A value, and its 95 % interval where sampled: ``0.6250 [0.6201, 0.6299]``."""
    if exact or low is None or (isinstance(low, float) and math.isnan(low)) or low == high:
        return _number(value)
    return f"{_number(value)} [{_number(low)}, {_number(high)}]"


def _cell(text: Any) -> str:
    """A table cell of Markdown: its pipes escaped, one line."""
    return " ".join(str(text).split()).replace("|", "\\|")


def _inputs(rows: pd.DataFrame, every: pd.DataFrame) -> list[str]:
    """The input columns that tell the moved rows apart (those the same in every row of the experiment left out)."""
    return [c for c in rows.columns if c not in _MEASURES and every[c].nunique() > 1]


def _cells(rows: pd.DataFrame, every: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """The moved rows as a table's header and cells: their inputs, the metric, before → after, Δ and the evidence."""
    inputs = _inputs(rows, every)
    header = [*inputs, "metric", "before", "after", "Δ", "evidence"]
    body = []
    for _, row in rows.iterrows():
        exact = row["method"] == "exact"
        before = _with_interval(row["baseline"], row.get("baseline_ci_low"), row.get("baseline_ci_high"), exact)
        after = _with_interval(row["current"], row.get("current_ci_low"), row.get("current_ci_high"), exact)
        p = row["p_value"]
        evidence = "exact" if exact else f"{'p < 1e-16' if p == 0 else f'p = {p:.2g}'}, {row['weight']:.1f} SE"
        body.append([str(c) for c in (*(row[c] for c in inputs), row["metric"], before, after,
                                      _number(row["delta"]), evidence)])  # fmt: skip
    return header, body


def _table(rows: pd.DataFrame, every: pd.DataFrame) -> list[str]:
    """The moved rows as a Markdown table."""
    header, body = _cells(rows, every)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(_cell(c) for c in cells) + " |" for cells in body]


def regress_markdown(result: Regression, limit: int = 20, most: int = COMMENT_CHARACTERS) -> str:
    """The check as a pull-request comment: what moved, ranked by weight, grouped by experiment.

    Args:
        result: The check.
        limit: The most rows shown per experiment (the rest: "and N more").
        most: The most characters of the comment (experiments past it: "and N more experiments").
    """
    changed = result.changed
    total = sum(len(rows) for rows in result.rows.values())
    if not changed:
        lines = ["## simlab regress: no change", "",
                 f"All {total:,} rows of {len(result.rows)} experiment(s) match their baselines."]  # fmt: skip
        return "\n".join([*lines, *(f"> {note}" for note in result.notes)]) + "\n"
    moved = sum(len(rows) for rows in changed.values())
    lines = [f"## simlab regress: {moved:,} of {total:,} rows moved in {len(changed)} of {len(result.rows)} "
             "experiment(s)", "",
             "Ranked by weight within each experiment: the chances first, then |Δ| over its standard error "
             "(exact rows: |Δ| relative to the baseline). Sampled values with their 95 % intervals.", ""]  # fmt: skip
    lines += [f"> {note}" for note in result.notes]
    shown_experiments = 0
    for name, rows in changed.items():
        block = ["", f"### {name}: {len(rows):,} row{'s' if len(rows) != 1 else ''} moved", "",
                 *_table(rows.head(limit), result.rows[name])]  # fmt: skip
        if len(rows) > limit:
            block += ["", f"… and {len(rows) - limit:,} more (`simlab regress --all` lists them)."]
        if len("\n".join(lines + block)) > most:
            break
        lines += block
        shown_experiments += 1
    if shown_experiments < len(changed):
        lines += ["", f"… and {len(changed) - shown_experiments} more experiment(s) that moved."]
    return "\n".join(lines) + "\n"


def regress_junit(result: Regression) -> str:
    """The check as JUnit XML: one test case per experiment, a failure for each that moved."""
    changed = result.changed
    suite = ElementTree.Element("testsuite", name="simlab regress", tests=str(len(result.rows)),
                                failures=str(len(changed)), errors="0", skipped="0")  # fmt: skip
    for name, every in result.rows.items():
        case = ElementTree.SubElement(suite, "testcase", classname="regress", name=name)
        if name in changed:
            rows = changed[name]
            failure = ElementTree.SubElement(case, "failure", message=f"{len(rows)} of {len(every)} rows moved",
                                             type="regression")  # fmt: skip
            failure.text = "\n".join(_table(rows.head(20), every))
    suites = ElementTree.Element("testsuites", name="simlab", tests=str(len(result.rows)), failures=str(len(changed)))
    suites.append(suite)
    ElementTree.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(suites, encoding="unicode") + "\n"


def _row_words(row: pd.Series, inputs: list[str]) -> str:
    """One moved row in a few words: ``p_killed of auto rifle, full 0.2455 → 0.4082``."""
    held = ", ".join(str(row[c]) for c in inputs)
    return f"{row['metric']}{f' of {held}' if held else ''} {_number(row['baseline'])} → {_number(row['current'])}"


def moved_summary(result: Regression, new: list[str], remade: list[str], heaviest: int = 3) -> list[str]:
    """What a new set of baselines moved, in lines for a commit message.

    Args:
        result: The new baselines against those before them.
        new: Experiments that had no baseline before.
        remade: Experiments whose rows changed (an experiment edited): compared as a whole, not row by row.
        heaviest: The moved rows named per experiment.
    """
    changed = result.changed
    if not changed and not new and not remade:
        return ["Nothing moved since the last baselines."]
    lines = ["What moved since the last baselines:"]
    for name, rows in changed.items():
        inputs = _inputs(rows, result.rows[name])
        named = "; ".join(_row_words(row, inputs) for _, row in rows.head(heaviest).iterrows())
        more = f"; and {len(rows) - heaviest} more" if len(rows) > heaviest else ""
        lines.append(f"- {name}: {len(rows)} of {len(result.rows[name])} rows ({named}{more})")
    lines += [f"- {name}: a new baseline" for name in new]
    lines += [f"- {name}: the experiment changed (its rows are not those of its last baseline)" for name in remade]
    return lines


def _chart(rows: pd.DataFrame, inputs: list[str], name: str) -> bytes:
    """The moved rows before and after, each with its 95 % interval: the heaviest on top."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from simlab.output.saving import png_bytes

    shown = rows.head(CHARTED).iloc[::-1]
    both = shown["method"].nunique() > 1  # the same row sampled and exact: said which
    labels = [f"{row['metric']}" + (f" · {', '.join(str(row[c]) for c in inputs)}" if inputs else "")
              + (f" ({row['method'].replace('monte_carlo', 'sampled')})" if both else "")
              for _, row in shown.iterrows()]  # fmt: skip
    figure, axes = plt.subplots(figsize=(8, 0.9 + 0.32 * len(shown)))
    y = np.arange(len(shown))
    for offset, side, colour in ((-0.12, "baseline", "#888888"), (0.12, "current", "#d62728")):
        value = shown[side].to_numpy(dtype=float)
        low = shown.get(f"{side}_ci_low", shown[side]).to_numpy(dtype=float)
        high = shown.get(f"{side}_ci_high", shown[side]).to_numpy(dtype=float)
        low, high = np.where(np.isnan(low), value, low), np.where(np.isnan(high), value, high)
        axes.errorbar(value, y + offset, xerr=[value - low, high - value], fmt="o", color=colour, capsize=2,
                      label="before" if side == "baseline" else "after")  # fmt: skip
    axes.set_yticks(y, [label[:60] for label in labels])
    axes.set_title(f"{name}: before and after (95 % intervals)")
    axes.legend(loc="lower right")
    axes.grid(axis="x", alpha=0.3)
    figure.tight_layout()
    data = png_bytes(figure)
    plt.close(figure)
    return data


def regress_report(result: Regression) -> str:
    """The check as an HTML page: every moved row of each experiment, and a chart of them before and after."""
    from simlab.output.rendering import render

    changed = result.changed
    total = sum(len(rows) for rows in result.rows.values())
    moved = sum(len(rows) for rows in changed.values())
    sections = []
    for name, rows in changed.items():
        header, body = _cells(rows, result.rows[name])
        shown = min(len(rows), CHARTED)
        caption = f"The {shown} heaviest of its {len(rows)} moved rows, before (grey) and after (red)"
        sections.append({"name": name, "moved": f"{len(rows):,} of {len(result.rows[name]):,} rows moved",
                         "png": _chart(rows, _inputs(rows, result.rows[name]), name), "caption": caption,
                         "header": header, "rows": body})  # fmt: skip
    heading = f"{moved:,} of {total:,} rows moved" if changed else f"No change: {total:,} rows match their baselines"
    ranking = ("Ranked by weight within each experiment: the chances first, then |Δ| over its standard error "
               "(exact rows: |Δ| relative to the baseline). Sampled values with their 95 % intervals.")  # fmt: skip
    return render("regress.html.j2", heading=heading, ranking=ranking, notes=result.notes, sections=sections)
