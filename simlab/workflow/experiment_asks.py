"""What an experiment asks of its table: its ``[question]``, its ``[labels]`` and its ``[[charts]]``, checked."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

from simlab.engine.results import in_series
from simlab.inputs.errors import UnknownNameError
from simlab.inputs.files import described
from simlab.inputs.params import NAME_RULE, SIZE_TEXT, valid_name, valid_size
from simlab.records import (
    CHART_KINDS,
    QUESTION_KINDS,
    ChartSpec,
    Experiment,
    ExperimentQuestion,
)
from simlab.workflow.experiment_checks import (
    Checker,
    read_table,
)

#: Attacks covered by the attacks-to-incapacitate curves (and most an ``attacks`` chart shows).
ATTACKS = 10

__all__ = [
    "ATTACKS",
    "CHART_COMMON",
    "QUESTION_KEYS",
    "check_labels",
    "read_question",
    "read_charts",
    "read_chart",
]


CHART_COMMON = ("kind", "title", "name", "where", "size", "dpi")


#: The keys of ``[question]``.
QUESTION_KEYS = ("kind", "metric", "input", "per", "target", "at_least", "smallest", "lowest", "where")


#: The keys each kind of question reads.
READ_BY_KIND = {
    "threshold": {"kind", "metric", "input", "per", "where", "target", "at_least", "smallest"},
    "best": {"kind", "metric", "input", "per", "where", "lowest"},
    "ranking": {"kind", "metric", "input", "per", "where", "lowest"},
    "effect": {"kind", "metric", "where"},
}


def _among(value: Any, values: Sequence[Any]) -> bool:
    """Whether ``value`` is one of ``values`` as TOML typed it: true is not 1, and 1 is not true."""
    return any(value == v and isinstance(value, bool) == isinstance(v, bool) for v in values)


def _labelled(system: Any, experiment: Experiment, metrics: Mapping[str, str]) -> set[str]:
    """What a ``[labels]`` key may name.

    A metric, an input of the grid or [fixed], or any name of the system's inputs, rule parameters,
    table columns and battle paths (the last part of a dotted path, ``b.doctrine.suppressors``).
    """
    from simlab.inputs.battles import Doctrine, Formation, Group, Side

    known = {*metrics, *experiment.grid, *experiment.fixed, *(f.name for f in dataclasses.fields(system.rules_type))}
    for question in system.questions.values():
        known |= {f.name for f in dataclasses.fields(question.inputs_type)} | set(question.row_inputs)
    for table in system.tables().values():
        known |= {f.name for f in dataclasses.fields(table.row_type)}
    for shape in (Doctrine, Formation, Group, Side):
        known |= {f.name for f in dataclasses.fields(shape)}
    return known


#: The longest ``[labels]`` value: a few words, as a chart's axis or a table's column shows them.
MAX_LABEL = 120


def check_labels(check: Checker, labels: Mapping[str, Any], system: Any, experiment: Experiment,
                  metrics: Mapping[str, str]) -> None:  # fmt: skip
    """Refuse a ``[labels]`` key that names nothing the experiment or its system has, and a label without words."""
    known = _labelled(system, experiment, metrics)
    for key, label in labels.items():
        if key not in known and key.rsplit(".", 1)[-1] not in known:
            shown = sorted({*metrics, *experiment.grid, *experiment.fixed})
            raise check.fail("labels", key, str(UnknownNameError("name to label", key, shown)))
        if not isinstance(label, str) or not label.strip():
            raise check.fail("labels", key, f"expected the words for {key}, got {described(label)}")
        if len(label) > MAX_LABEL or not label.isprintable():
            got = f"{len(label):,} characters" if len(label) > MAX_LABEL else f"{described(label)[:60]}"
            expected = f"expected a few words on one line (at most {MAX_LABEL} characters), got {got}"
            raise check.fail("labels", key, expected)


def read_question(
    check: Checker, data: Mapping[str, Any], experiment: Experiment, metrics: Mapping[str, str]
) -> ExperimentQuestion:
    """The experiment's ``[question]``, checked against its grid, metrics and variants."""
    given = read_table(check, data, "question")
    for key in given:
        if key not in QUESTION_KEYS:
            raise check.unknown("question", key, "key", QUESTION_KEYS)
    kind = given.get("kind")
    if kind not in QUESTION_KINDS:
        raise check.fail("question", "kind", f"expected one of {', '.join(QUESTION_KINDS)}, got {kind!r}")
    for key in given:  # a key the question's kind never reads is refused, not ignored
        if key not in READ_BY_KIND[kind]:
            reads = ", ".join(k for k in QUESTION_KEYS if k in READ_BY_KIND[kind])
            raise check.fail("question", key, f"a {kind} question does not read {key} (it reads {reads})")
    metric = given.get("metric")
    reported = experiment.metrics or tuple(metrics)  # the experiment's own list of metrics, where it has one
    if not isinstance(metric, str) or metric not in reported:
        raise check.fail("question", "metric", str(UnknownNameError("metric", str(metric), reported)))
    grid = experiment.dimensions
    varying = [k for k, v in grid.items() if len(v) > 1]
    chosen = given.get("input")
    if kind == "effect":
        if not experiment.variants:
            raise check.fail("question", "kind", "effect needs variants: what a variant changes (variants = [...])")
    elif not isinstance(chosen, str) or chosen not in varying:
        raise check.fail("question", "input", f"expected an input the grid varies ({', '.join(varying) or 'none'})")
    per = given.get("per", [])
    per = [per] if isinstance(per, str) else per
    if not isinstance(per, list) or any(p not in varying or p == chosen for p in per) or len(set(per)) < len(per):
        raise check.fail(
            "question", "per", f"expected inputs the grid varies besides input, each once ({', '.join(varying)})"
        )
    where = given.get("where", {})
    if not isinstance(where, dict) or any(k not in grid or not _among(v, grid[k]) for k, v in where.items()):
        raise check.fail("question", "where", "expected {INPUT = VALUE} of the grid's inputs and values")
    target = given.get("target")
    if target is not None and (isinstance(target, bool) or not isinstance(target, int | float)
                               or not math.isfinite(target)):  # fmt: skip
        raise check.fail("question", "target", f"expected a finite number, got {described(target)}")
    if kind == "threshold":
        if isinstance(target, bool) or not isinstance(target, int | float):
            raise check.fail("question", "target", "a threshold needs the target value of the metric (target = 0.75)")
        if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in grid[str(chosen)]):
            raise check.fail("question", "input", f"a threshold's input takes numbers; {chosen} does not")
    flags = {}
    for flag, default in (("at_least", True), ("smallest", True), ("lowest", False)):
        value = given.get(flag, default)
        if not isinstance(value, bool):
            raise check.fail("question", flag, f"expected true or false, got {described(value)}")
        flags[flag] = value
    return ExperimentQuestion(
        kind, metric, chosen, tuple(per), None if target is None else float(target), where=where, **flags
    )


def read_charts(check: Checker, data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The experiment's ``[[charts]]`` tables, as given."""
    value = data.get("charts", [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise check.fail("", "charts", "expected [[charts]] tables")
    return value


def read_chart(
    check: Checker, experiment: Experiment, metrics: Mapping[str, str], index: int, data: Mapping[str, Any]
) -> ChartSpec:
    """One ``[[charts]]`` table checked against the experiment and its metrics."""
    table = f"charts.{index}"
    kind = data.get("kind")
    if kind not in CHART_KINDS:
        raise check.fail(table, "kind", f"unknown chart kind {kind!r} (valid: {', '.join(CHART_KINDS)})")
    allowed = (*CHART_COMMON, *CHART_KINDS[kind])
    for key in data:
        if key not in allowed:
            raise check.unknown(table, key, f"key of a {kind} chart", allowed)
    for key in ("title", "name", "metric", "x", "rows", "cols", "panels", "prefix", "distribution"):
        if key in data and not isinstance(data[key], str):
            raise check.fail(table, key, f"expected text, got {described(data[key])}")
    if "name" in data and not valid_name(data["name"]):
        raise check.fail(table, "name", f"{data['name'][:60]!r} is not a valid file name ({NAME_RULE})")
    if "attacks" in data:
        attacks = data["attacks"]
        if isinstance(attacks, bool) or not isinstance(attacks, int) or not 1 <= attacks <= ATTACKS:
            raise check.fail(table, "attacks", f"expected an integer from 1 to {ATTACKS}, got {attacks!r}")
    if "size" in data and not valid_size(data["size"]):
        raise check.fail(table, "size", f"expected [width, height] in inches, each {SIZE_TEXT}, got {data['size']!r}")
    dpi = data.get("dpi", 110)
    if isinstance(dpi, bool) or not isinstance(dpi, int) or not 50 <= dpi <= 600:
        raise check.fail(table, "dpi", f"expected a whole number from 50 to 600, got {data['dpi']!r}")
    if "at_least" in data and not isinstance(data["at_least"], bool):
        raise check.fail(table, "at_least", f"expected true or false, got {described(data['at_least'])}")
    if "by" in data and not isinstance(data["by"], str | list):
        raise check.fail(table, "by", f"expected a grid input or a list of them, got {described(data['by'])}")
    if "metrics" in data and not isinstance(data["metrics"], list):
        raise check.fail(table, "metrics", f"expected a list of metrics, got {described(data['metrics'])}")
    used = [data[k] for k in ("x", "rows", "cols", "panels") if k in data]
    by = data.get("by", [])
    used += [by] if isinstance(by, str) else by
    twice = sorted({str(name) for name in used if used.count(name) > 1})
    if twice:
        raise check.fail(table, "kind", f"{', '.join(twice)} is given to two of x, rows, cols, panels and by")
    inputs = experiment.dimensions
    for key in ("x", "by", "rows", "cols", "panels"):
        named = data.get(key, [])
        for name in named if key == "by" and isinstance(named, list) else [named] if key in data else []:
            if not isinstance(name, str) or name not in inputs:
                raise check.unknown(table, key, "grid input", inputs, str(name))
    if "metric" in data and data["metric"] not in (experiment.metrics or metrics):
        raise check.unknown(table, "metric", "metric", experiment.metrics or metrics, str(data["metric"]))
    where = data.get("where", {})
    if not isinstance(where, dict):
        raise check.fail(table, "where", f"expected a table of grid input = value, got {described(where)}")
    for key, value in where.items():
        if key not in inputs:
            raise check.unknown(table, "where", "grid input", inputs, key)
        for one in value if isinstance(value, list) else [value]:
            if one not in inputs[key]:
                raise check.fail(table, "where", f"{key} = {one!r} is not in the grid (grid values: {inputs[key]})")
    for metric in data.get("metrics", []) if isinstance(data.get("metrics", []), list) else [None]:
        if metric not in (experiment.metrics or metrics):
            raise check.unknown(table, "metrics", "metric", experiment.metrics or metrics, str(metric))
    for key in CHART_KINDS[kind]:
        if key not in data and key in ("metric", "x", "rows", "cols", "prefix", "metrics"):
            raise check.fail(table, "kind", f"a {kind} chart needs {key}")
    asked = experiment.question
    distributions = asked.distributions
    if kind == "distribution" and data.get("distribution", "damage") not in distributions:
        raise check.unknown(
            table, "distribution", "distribution", distributions, str(data.get("distribution", "damage"))
        )
    if kind == "distribution_heatmap" and not any(name.startswith(data["prefix"]) for name in distributions):
        raise check.fail(
            table,
            "prefix",
            f"no distribution starts with {data['prefix']!r} (distributions: {', '.join(distributions) or 'none'})",
        )
    if kind == "series" and not any(m == data["prefix"] or in_series(m, data["prefix"]) for m in metrics):
        series = sorted(m for m in metrics if m.endswith("_")) + sorted(
            {m.rstrip("0123456789") for m in metrics if m[-1:].isdigit()}
        )
        raise check.fail(table, "prefix", f"no series {data['prefix']!r} (series: {', '.join(series) or 'none'})")
    return ChartSpec(kind=kind, options={k: v for k, v in data.items() if k != "kind"})
