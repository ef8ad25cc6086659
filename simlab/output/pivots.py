"""Report tables from a run's tidy tables (pandas in, pandas out).

Each function selects rows of :attr:`~simlab.workflow.runner.ExperimentRun.table` (or its
marginals) and pivots them into the tables designers read: weapon × armour for one metric,
the ranking of weapons per armour, and the marginal value of a change such as +1 DX.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from simlab.engine.results import in_series

__all__ = [
    "select",
    "preferred_method",
    "pivot",
    "ranking",
    "marginal_value",
    "cell_table",
    "cell_values",
    "format_value",
    "describe_widths",
    "NOT_INPUTS",
    "base_rules",
    "averaged_over",
]

#: Columns of a run's (or comparison's) tidy table that are not inputs of its cells.
NOT_INPUTS = ("cell", "variant", "method", "metric", "value", "ci_low", "ci_high", "trials", "delta")


def select(frame: pd.DataFrame, where: Mapping[str, Any] | None = None, **more: Any) -> pd.DataFrame:
    """Rows of ``frame`` whose columns equal the given values (or are in a given list)."""
    mask = pd.Series(True, index=frame.index)
    for column, value in {**(where or {}), **more}.items():
        mask &= frame[column].isin(value) if isinstance(value, (list, tuple)) else frame[column] == value
    return frame[mask]


def base_rules(table: pd.DataFrame) -> pd.DataFrame:
    """The rows of the base rules (a table without variants: all of them)."""
    return table[table["variant"] == "base"] if "variant" in table else table


def averaged_over(frame: pd.DataFrame, shown: Sequence[str]) -> list[str]:
    """The inputs that vary among rows a chart or headline shows as one value (it shows their mean)."""
    return [c for c in frame.columns if c not in (*NOT_INPUTS, *shown) and frame[c].nunique(dropna=False) > 1]


def preferred_method(frame: pd.DataFrame) -> str:
    """``exact`` when the frame has exact rows, else ``monte_carlo``."""
    methods = set(frame["method"]) if "method" in frame else set()
    return "exact" if "exact" in methods or not methods else "monte_carlo"


def pivot(
    table: pd.DataFrame, metric: str, rows: str, cols: str, where: Mapping[str, Any] | None = None
) -> pd.DataFrame:
    """``metric`` with one row per value of ``rows`` and one column per value of ``cols``.

    Args:
        table: A run's tidy table.
        metric: The metric shown.
        rows: Input along the rows (``weapon``).
        cols: Input along the columns (``armor``).
        where: Values of the other inputs (``{"range_m": 20}``); exact values are preferred.
    """
    chosen = select(table, where, metric=metric)
    chosen = select(chosen, method=preferred_method(chosen))
    order_rows = list(dict.fromkeys(chosen[rows]))
    order_cols = list(dict.fromkeys(chosen[cols]))
    result = chosen.pivot_table(index=rows, columns=cols, values="value", aggfunc="first", sort=False)
    return result.reindex(index=order_rows, columns=order_cols)


def ranking(
    table: pd.DataFrame, metric: str, item: str, per: str, where: Mapping[str, Any] | None = None, top: int = 5
) -> pd.DataFrame:
    """The best ``top`` values of ``item`` (weapons) by ``metric`` for each value of ``per`` (armour).

    Returns:
        One row per value of ``per``: columns ``1``, ``2``, ... holding ``"name (value)"``.
    """
    values = pivot(table, metric, item, per, where)
    ranked = {}
    for column in values.columns:
        ordered = values[column].dropna().sort_values(ascending=False, kind="stable").head(top)
        ranked[column] = [f"{name} ({format_value(v)})" for name, v in ordered.items()]
    frame = pd.DataFrame.from_dict(ranked, orient="index")
    frame.columns = [str(i + 1) for i in range(frame.shape[1])]
    frame.index.name = per
    return frame


def marginal_value(
    marginals: pd.DataFrame, metric: str, rows: str, where: Mapping[str, Any] | None = None
) -> pd.DataFrame:
    """Change of ``metric`` for each marginal change (``+1 DX``, ``+1 armour``), per value of ``rows``.

    Where other inputs vary too (armour, range) the changes are averaged over them; ``where``
    fixes some of them first.
    """
    chosen = select(marginals, where, metric=metric)
    order = list(dict.fromkeys(chosen[rows]))
    result = chosen.pivot_table(index=rows, columns="change", values="delta", aggfunc="mean", sort=False)
    return result.reindex(index=order)


def split_series(metrics: list[str], longest: int = 8) -> tuple[list[str], list[str]]:
    """Metrics apart from long series (``p_alive_day_0`` ... ``p_alive_day_28``), and the prefixes of those series.

    A series is a prefix followed by a number, with more than ``longest`` members.
    """
    prefixes: dict[str, int] = {}
    for metric in metrics:
        found = re.match(r"^(.*_)\d+$", metric)
        if found:
            prefixes[found.group(1)] = prefixes.get(found.group(1), 0) + 1
    long = [prefix for prefix, count in prefixes.items() if count > longest]
    plain = [m for m in metrics if not any(in_series(m, p) for p in long)]
    return plain, long


def cell_table(table: pd.DataFrame, inputs: list[str], metrics: list[str] | None = None) -> pd.DataFrame:
    """One row per cell and method, one column per metric, as ``value`` or ``value ± half-width``."""
    frame = table if metrics is None else table[table["metric"].isin(metrics)]
    text = frame.assign(shown=[_shown(r.value, r.ci_low, r.ci_high) for r in frame.itertuples()])
    wide = text.pivot_table(index=["cell", *inputs, "method"], columns="metric", values="shown", aggfunc="first")
    wide = wide.reindex(columns=list(dict.fromkeys(frame["metric"])))
    return wide.reset_index(level="cell", drop=True)


def cell_values(table: pd.DataFrame, inputs: list[str], metrics: list[str] | None = None) -> pd.DataFrame:
    """The numbers behind :func:`cell_table`, in the same shape (for colour scales)."""
    frame = table if metrics is None else table[table["metric"].isin(metrics)]
    wide = frame.pivot_table(index=["cell", *inputs, "method"], columns="metric", values="value", aggfunc="first")
    wide = wide.reindex(columns=list(dict.fromkeys(frame["metric"])))
    return wide.reset_index(level="cell", drop=True)


def format_value(value: float) -> str:
    """A metric value with four significant decimals."""
    return f"{value:.4f}" if abs(value) < 100 else f"{value:.1f}"


def _shown(value: float, low: float, high: float) -> str:
    if pd.isna(low):
        return format_value(value)
    return f"{format_value(value)} ± {format_value((high - low) / 2)}"


def describe_widths(table: pd.DataFrame) -> pd.DataFrame:
    """Median 95 % half-width of sampled differences: common random numbers against independent runs."""
    sampled = table[table["method"] == "monte_carlo"]
    paired = (sampled["delta_ci_high"] - sampled["delta_ci_low"]) / 2
    frame = sampled.assign(paired_half_width=paired)
    summary = frame.groupby(["variant", "metric"], sort=False)[["paired_half_width", "independent_half_width"]].median()
    summary["ratio"] = summary["paired_half_width"] / summary["independent_half_width"]
    return summary
