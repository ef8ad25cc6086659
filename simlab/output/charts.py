"""Which charts a run gets, and each drawn from its specification (:class:`~simlab.output.chart_spec.ChartSpec`).

:func:`choose_charts` picks sensible charts for an experiment that names none; :func:`draw`
draws one chart of a run with the functions of :mod:`simlab.output.plots`;
:func:`comparison_charts` draws the differences a variant makes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from matplotlib.figure import Figure

from simlab.asking.variants import BASE
from simlab.output.plots import (
    attacks_to_incapacitate,
    bars,
    by_columns,
    chart_title,
    curve,
    distribution,
    distribution_heatmap,
    heatmap,
    label_of,
    series,
    stacked,
    survival,
)
from simlab.records import ChartSpec, Comparison, Experiment, ExperimentRun

__all__ = ["choose_charts", "draw", "chart_file_name", "comparison_charts"]


def _numeric(values: Sequence[Any]) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def choose_charts(experiment: Experiment, metrics: Sequence[str]) -> list[ChartSpec]:
    """Sensible charts for an experiment that names none.

    * a curve of ``p_hit`` against ``dx`` (or ``skill``) when the grid varies it;
    * range fall-off curves of ``mean_damage`` when the grid varies ``range_m``;
    * weapon × armour heatmaps of ``mean_damage`` and ``p_incapacitated`` (a panel per range);
    * ``PREFIXk`` series (blast damage by distance) when the metrics have them;
    * for small grids, the damage distributions and attacks-to-incapacitate curves.
    """
    grid = experiment.dimensions
    varying = [k for k, v in grid.items() if len(v) > 1]
    few = [k for k in varying if len(grid[k]) <= 8]  # inputs that can be told apart as lines
    charts: list[ChartSpec] = []

    def others(*used: str) -> list[str]:
        return [k for k in varying if k not in used]

    def where_first(*keep: str) -> dict[str, Any]:
        return {k: grid[k][0] for k in varying if k not in keep}

    for x in ("dx", "skill"):
        if x in varying and _numeric(grid[x]) and "p_hit" in metrics:
            by = [k for k in few if k != x]
            charts.append(
                ChartSpec("curve", {"metric": "p_hit", "x": x, "by": by[:2], "where": where_first(x, *by[:2])})
            )
    if "range_m" in varying and _numeric(grid["range_m"]):
        metric = "mean_damage" if "mean_damage" in metrics else "p_hit"
        by = [k for k in few if k != "range_m"][:1]
        charts.append(
            ChartSpec("curve", {"metric": metric, "x": "range_m", "by": by, "where": where_first("range_m", *by)})
        )
    if "weapon" in varying and "armor" in varying:
        panels = [k for k in others("weapon", "armor") if len(grid[k]) <= 6][:1]
        for metric in ("mean_damage", "p_incapacitated"):
            if metric in metrics:
                options: dict[str, Any] = {"metric": metric, "rows": "weapon", "cols": "armor"}
                if panels:
                    options["panels"] = panels[0]
                options["where"] = where_first("weapon", "armor", *panels)
                charts.append(ChartSpec("heatmap", options))
    prefixes = sorted({m[: m.rindex("_") + 1] for m in metrics if re.search(r"_at_\d+$", m) and "damage" in m})
    for prefix in prefixes:
        charts.append(ChartSpec("series", {"prefix": prefix, "by": few[:2], "where": where_first(*few[:2])}))
    outcomes = [m for m in experiment.owner.outcome_metrics if m in metrics]
    if outcomes and few:
        rows = next((k for k in ("weapon", "a.weapon") if k in varying), few[0])
        panels = [k for k in few if k != rows][:1]
        options = {"metrics": outcomes, "rows": rows, "where": where_first(rows, *panels)}
        charts.append(ChartSpec("stacked", {**options, **({"panels": panels[0]} if panels else {})}))
    if "a.weapon" in varying and "b.weapon" in varying and "p_a_wins" in metrics:
        where = where_first("a.weapon", "b.weapon")
        charts.append(
            ChartSpec("heatmap", {"metric": "p_a_wins", "rows": "a.weapon", "cols": "b.weapon", "where": where})
        )
    if experiment.kind == "battle":
        charts += _battle_charts(grid, varying, few, where_first)
    if experiment.n_cells <= 12 and experiment.kind == "attack":
        charts.append(ChartSpec("distribution", {"distribution": "outcome" if outcomes else "damage", "by": varying}))
        if not outcomes:  # systems with damage points: attacks until the target goes down
            charts.append(ChartSpec("attacks_to_incapacitate", {"by": varying}))
    return charts


def _battle_charts(
    grid: Mapping[str, Sequence[Any]], varying: list[str], few: list[str], where_first: Callable[..., dict[str, Any]]
) -> list[ChartSpec]:
    """A battle's charts: survival curves, the win probability over two inputs, the casualties."""
    charts = []
    lines = few[:1]
    charts.append(ChartSpec("survival", {"by": lines, "where": where_first(*lines)}))
    if len(varying) >= 2:
        rows, cols = varying[:2]
        charts.append(ChartSpec("heatmap", {"metric": "p_a_wins", "rows": rows, "cols": cols,
                                            "where": where_first(rows, cols)}))  # fmt: skip
    elif varying:
        charts.append(ChartSpec("curve", {"metric": "p_a_wins", "x": varying[0], "where": {}}))
    for name in ("standing_a", "standing_b"):
        charts.append(ChartSpec("distribution", {"distribution": name, "by": lines, "where": where_first(*lines)}))
    return charts


def _chart_options(spec: ChartSpec, run: ExperimentRun) -> dict[str, Any]:
    """A chart's options; with variants in the run, the base rules only unless the chart names ``variant``.

    Without this, the rows of every rule set would meet in one line or one cell of the chart.
    """
    options = {k: v for k, v in spec.options.items() if k not in ("name", "size", "dpi")}  # how it is saved
    named = {options.get(k) for k in ("x", "rows", "cols", "panels")} | set(by_columns(options.get("by")))
    where = dict(options.get("where") or {})
    if run.experiment.variants and "variant" not in named and "variant" not in where:
        where["variant"] = BASE
        options["where"] = where
    return options


def draw(spec: ChartSpec, run: ExperimentRun) -> Figure:
    """Draw one chart of an :class:`~simlab.workflow.runner.ExperimentRun`."""
    options = _chart_options(spec, run)
    if spec.kind == "curve":
        return curve(run.table, **options)
    if spec.kind == "heatmap":
        return heatmap(run.table, **options)
    if spec.kind == "bars":
        return bars(run.table, **options)
    if spec.kind == "distribution":
        at_least = bool(options.pop("at_least", False))  # the chart names one view: that one; else both
        name = options.pop("distribution", "damage")
        return distribution(run.distributions, name=name, at_least=at_least, beside=not at_least, **options)
    if spec.kind == "attacks_to_incapacitate":
        return attacks_to_incapacitate(run.incapacitation, **options)
    if spec.kind == "series":
        return series(run.table, **options)
    if spec.kind == "stacked":
        return stacked(run.table, **options)
    if spec.kind == "survival":
        return survival(run.table, **options)
    if spec.kind == "distribution_heatmap":
        prefix = options["prefix"]
        names = run.experiment.owner.distribution_labels.get(prefix)
        return distribution_heatmap(run.distributions, labels=names, **options)
    raise ValueError(f"unknown chart kind {spec.kind!r}")


#: The options that say what a chart shows (its others say how: lines, target, title).
_SHOWS = ("metric", "x", "rows", "cols", "prefix", "distribution")


def key_chart_first(specs: Sequence[ChartSpec], key: tuple[str, dict[str, Any]] | None) -> tuple[ChartSpec, ...]:
    """The charts with the one that shows the question's answer first.

    A chart of the experiment that shows the same thing (kind, metric, axes) becomes that chart,
    keeping its title and name and taking the answer's lines and target, rather than being drawn twice.
    """
    if key is None:
        return tuple(specs)
    kind, options = key
    same = [s for s in specs if s.kind == kind and all(s.get(k) == options.get(k) for k in _SHOWS)]
    own = {k: v for k, v in same[0].options.items() if k in ("title", "name", "size", "dpi")} if same else {}
    return (ChartSpec(kind, {**options, **own}), *(s for s in specs if not same or s is not same[0]))


def chart_file_name(spec: ChartSpec, taken: set[str]) -> str:
    """A file name (without extension) for a chart, unique among ``taken``."""
    if spec.get("name"):
        base = str(spec.get("name"))
    else:
        parts = [spec.kind] + [str(spec.get(k)) for k in ("metric", "prefix", "distribution", "x") if spec.get(k)]
        base = "_".join(parts)
    base = re.sub(r"[^A-Za-z0-9_.-]+", "_", base).strip("_") or "chart"
    name, n = base, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    taken.add(name)
    return name


def comparison_charts(comparison: Comparison) -> list[tuple[ChartSpec, Figure]]:
    """Heatmaps of the differences a variant makes (a :class:`~simlab.workflow.compare.Comparison`)."""
    experiment = comparison.experiment
    table = comparison.table
    grid = experiment.grid
    varying = [k for k, v in grid.items() if len(v) > 1]
    if "weapon" in varying and "armor" in varying:
        rows, cols = "weapon", "armor"
    else:
        rows, cols = ([*varying, "variant", "variant"])[:2] if varying else ("variant", "method")
    rest = [k for k in varying if k not in (rows, cols)]
    panels = next((k for k in rest if len(grid[k]) <= 6), None)
    fixed = {k: grid[k][0] for k in rest if k != panels}
    metrics = list(dict.fromkeys(table["metric"]))
    shown = [m for m in ("mean_damage", "p_incapacitated") if m in metrics] or metrics[:1]
    charts = []
    for variant in comparison.variants:
        where = {**fixed, **({"variant": variant.name} if "variant" not in (rows, cols) else {})}
        for metric in shown:
            shown_where = {k: v for k, v in where.items() if k != "variant"}
            title = chart_title(None, f"Change of {label_of(metric)} under {variant.name}", shown_where)
            figure = heatmap(table, metric, rows, cols, panels, where, title, value="delta", diverging=True)
            options = {"metric": metric, "rows": rows, "cols": cols, "panels": panels, "where": where, "title": title}
            charts.append((ChartSpec("heatmap", {**options, "name": f"delta_{metric}_{variant.name}"}), figure))
    return charts
