"""Experiment files: the questions ``simlab run`` answers (TOML, one file an experiment).

An experiment names a system, a method and a grid of scenarios; the run covers the
Cartesian product of the grid on top of the fixed inputs::

    name = "tft_autofire_modes"
    system = "hitech_tft"
    description = "What each autofire mode buys against flak"
    method = "both"            # exact, monte_carlo or both
    trials = 200000
    seed = 1
    precision = 0.002          # optional: sample until every 95 % half-width is at most this
    variants = ["variants/tft_extra_hit_every_2.toml"]   # optional: cover these rules too
    metrics = ["p_hit", "mean_damage"]   # optional subset

    [fixed]
    armor = "flak jacket"

    [grid]
    weapon = ["assault rifle", "submachinegun"]
    mode = ["single", "four", "half", "full"]

    [rules]                    # optional: rule parameters of every cell (a variant's win over them)
    criticals = false

    [[charts]]                 # optional; sensible charts are chosen when absent
    kind = "curve"
    x = "dx"
    metric = "p_hit"
    by = "mode"

Every mistake is reported as ``FILE:LINE: KEY: what is wrong (what is valid)`` before
anything runs or is written.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from simlab.asking.requests import build_request
from simlab.asking.variants import Variant, load_variant
from simlab.engine.bounds import check_seed, check_trials
from simlab.engine.results import METHODS, in_series
from simlab.inputs.battles import Battle, BattleError, load_battle
from simlab.inputs.errors import SimlabError, UnknownNameError
from simlab.inputs.files import FileError, read_toml
from simlab.inputs.limits import Limits
from simlab.inputs.own_tables import own_tables
from simlab.inputs.params import NAME_RULE, SIZE_TEXT, build, coerce, field_specs, valid_name, valid_size
from simlab.inputs.tables import Table
from simlab.records import (
    BALANCE_KINDS,
    CHART_KINDS,
    QUESTION_KINDS,
    BalanceAsk,
    ChartSpec,
    Experiment,
    ExperimentQuestion,
)
from simlab.systems import Question, System, get_system, question_of

__all__ = [
    "RUN_METHODS",
    "ExperimentError",
    "MissingExtraError",
    "load_experiment",
    "find_experiments",
    "cell_request",
    "answer",
    "balance_setup",
    "balance_values",
]

#: Values of ``method``.
RUN_METHODS = (*METHODS, "both")
#: Values of ``kind`` every system knows: what one cell asks (systems add their questions).
KINDS = ("attack", "duel", "battle")
_CHART_COMMON = ("kind", "title", "name", "where", "size", "dpi")
_TOP_KEYS = (
    "name",
    "system",
    "kind",
    "description",
    "method",
    "trials",
    "seed",
    "precision",
    "variants",
    "fixed",
    "grid",
    "metrics",
    "charts",
    "battle",
    "rules",
    "tables",
    "skip_invalid",
    "question",
    "labels",
    "solve",
    "sensitivity",
    "tournament",
)
#: The keys of ``[solve]`` and ``[sensitivity]``.
_BALANCE_KEYS = {
    "solve": ("asks", "find", "in", "target", "equal", "a", "b", "tol"),
    "sensitivity": ("asks", "metric", "vary", "trajectories", "base"),
    "tournament": ("asks", "every", "options", "against", "defenders", "metric"),
}
#: The keys of ``[question]``.
_QUESTION_KEYS = ("kind", "metric", "input", "per", "target", "at_least", "smallest", "lowest", "where")
_SCALARS = (str, int, float, bool)
DEFAULT_TRIALS = 1_000_000
#: Attacks covered by the attacks-to-incapacitate curves (and most an ``attacks`` chart shows).
ATTACKS = 10


class ExperimentError(SimlabError):
    """A mistake in an experiment file, located by file, line and key."""

    def __init__(self, path: Path, line: int | None, key: str, message: str) -> None:
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {key}: {message}" if key else f"{where}: {message}")
        self.path, self.line, self.key = path, line, key


def _key_lines(text: str) -> dict[tuple[str, str], int]:
    """Line of each ``key =`` by table (``""`` for the top level, ``charts.N`` for charts)."""
    lines: dict[tuple[str, str], int] = {}
    table = ""
    charts = -1
    header = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
    key = re.compile(r"""^\s*("([^"]*)"|'([^']*)'|[A-Za-z0-9_.\-]+)\s*=""")
    for number, line in enumerate(text.splitlines(), start=1):
        if match := header.match(line):
            name = match.group(2).strip().strip("\"'")
            if match.group(1) == "[[":
                charts += 1
                name = f"{name}.{charts}"
            table = name
            lines.setdefault((table, ""), number)
        elif match := key.match(line):
            name = match.group(2) or match.group(3) or match.group(1)
            lines.setdefault((table, name), number)
    return lines


class MissingExtraError(ExperimentError):
    """An experiment that needs an optional part of simlab that is not installed (SALib for a sensitivity)."""


class _Checker:
    """Validates one file's values, raising :class:`ExperimentError` with its line."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.lines = _key_lines(text)

    def fail(self, table: str, key: str, message: str) -> ExperimentError:
        line = self.lines.get((table, key)) or self.lines.get((table, ""))
        label = f"[{table.split('.')[0]}] {key}".rstrip() if table else key
        return ExperimentError(self.path, line, label, message)

    def unknown(self, table: str, key: str, kind: str, valid: Any, name: str | None = None) -> ExperimentError:
        """An unknown-name error (with suggestions) located at ``table``/``key``."""
        return self.fail(table, key, str(UnknownNameError(kind, key if name is None else name, valid)))

    def typed(self, data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], what: str) -> Any:
        value = data[key]
        if isinstance(value, bool) and kind in (int, float, (int, float)):
            raise self.fail("", key, f"expected {what}, got {value!r}")
        if not isinstance(value, kind):
            raise self.fail("", key, f"expected {what}, got {_describe(value)}")
        return value


def _describe(value: Any) -> str:
    if isinstance(value, list):
        return f"a list {value!r}"
    if isinstance(value, dict):
        return "a table"
    return repr(value)


def load_experiment(path: Path | str, limits: Limits | None = None, *, check_cells: bool = True) -> Experiment:
    """Read and validate an experiment file, every grid cell included.

    Args:
        path: The TOML file.
        limits: Caps on its cells and trials (default: :class:`~simlab.inputs.limits.Limits`),
            checked before any cell is.
        check_cells: Resolve every cell to check it; a worker given a file its parent has
            checked already leaves this off.

    Raises:
        ExperimentError: For a malformed file, naming the file, line and key.
        TooMuchWorkError: For a grid or a run above its caps.
    """
    limits = limits or Limits()
    path = Path(path)
    try:
        data, text = read_toml(path, "experiment file")
    except FileError as exc:
        raise ExperimentError(path, exc.line, "", exc.reason) from None
    check = _Checker(path, text)
    for key in data:
        if key not in _TOP_KEYS:
            raise check.unknown("", key, "key", _TOP_KEYS)
    for key in ("name", "system"):
        if key not in data:
            raise ExperimentError(path, None, key, "missing (every experiment needs name and system)")
    name = check.typed(data, "name", str, "text")
    if not valid_name(name):
        raise check.fail("", "name", f"{name[:60]!r} is not a valid directory name ({NAME_RULE})")
    try:
        system = get_system(check.typed(data, "system", str, "text"))
    except UnknownNameError as exc:
        raise check.fail("", "system", str(exc)) from None
    kind = check.typed(data, "kind", str, "text") if "kind" in data else "attack"
    balance_kind = kind if kind in BALANCE_KINDS else None
    for other in BALANCE_KINDS:
        if other in data and other != balance_kind:
            raise check.fail("", other, f'[{other}] belongs to kind = "{other}"')
    if balance_kind is not None:  # each value asks the question [solve] or [sensitivity] names
        given = _table(check, data, balance_kind)
        for key in given:  # before the question is chosen by them
            if key not in _BALANCE_KEYS[balance_kind]:
                raise check.unknown(balance_kind, key, "key", _BALANCE_KEYS[balance_kind])
        fights = balance_kind == "tournament" and not ("against" in given or "defenders" in given)
        default = "battle" if "battle" in data else "duel" if fights else "attack"
        kind = given.get("asks", default)
        if not isinstance(kind, str):
            raise check.fail(balance_kind, "asks", f"expected the question each value asks, got {_describe(kind)}")
    try:
        asked = question_of(system, kind)
    except SimlabError as exc:
        raise check.fail("", "kind", str(exc)) from None
    battle = None
    if asked.form == "battle":
        battle = _battle(check, data, path, system.name)
    elif "battle" in data:
        raise check.fail("", "battle", 'a battle file belongs to kind = "battle"')
    sampled = asked.sampled_only
    method = data.get("method", "monte_carlo" if sampled else "exact")
    if balance_kind is not None and method == "both":
        raise check.fail("", "method", f"a {balance_kind} is exact or monte_carlo, not both")
    if method not in RUN_METHODS:
        raise check.fail("", "method", f"unknown method {method!r} (valid: {', '.join(RUN_METHODS)})")
    if sampled and method != "monte_carlo":
        what = {"duel": "duels are", "battle": "battles are"}.get(kind, f"{kind} questions are")  # as users say it
        raise check.fail("", "method", f"{what} sampled: method must be monte_carlo")
    trials = check.typed(data, "trials", int, "an integer") if "trials" in data else DEFAULT_TRIALS
    try:
        check_trials(trials)
    except SimlabError as exc:
        raise check.fail("", "trials", str(exc)) from None
    seed = check.typed(data, "seed", int, "an integer >= 0") if "seed" in data else 0
    try:
        check_seed(seed, "seed")
    except SimlabError as exc:
        raise check.fail("", "seed", str(exc)) from None
    precision = None
    if "precision" in data:
        precision = float(check.typed(data, "precision", (int, float), "a number > 0"))
        if not precision > 0:
            raise check.fail("", "precision", f"expected a number > 0, got {precision}")
    own = _own_tables(check, data, path, system)
    variants = []
    for variant_file in _strings(check, data, "variants"):
        try:
            variants.append(load_variant(path.parent / variant_file, system.name, own))
        except SimlabError as exc:
            raise check.fail("", "variants", str(exc)) from None
    if len({v.name for v in variants}) != len(variants):
        raise check.fail("", "variants", "two variants have the same name")
    skip_invalid = check.typed(data, "skip_invalid", bool, "true or false") if "skip_invalid" in data else False
    fixed = _table(check, data, "fixed")
    rules = _table(check, data, "rules")
    try:
        build(system.rules_type, rules, what="rule parameter")
    except SimlabError as exc:
        raise check.fail(
            "rules", next((k for k in rules if repr(k) in str(exc) or k in str(exc)), ""), str(exc)
        ) from None
    grid = _table(check, data, "grid")
    for key, value in fixed.items():
        if not isinstance(value, _SCALARS):
            raise check.fail("fixed", key, f"expected a single value, got {_describe(value)} (lists belong in [grid])")
    grid_values: dict[str, tuple[Any, ...]] = {}
    for key, values in grid.items():
        if not isinstance(values, list) or not values:
            raise check.fail("grid", key, f"expected a non-empty list of values, got {_describe(values)}")
        for value in values:
            if not isinstance(value, _SCALARS):
                raise check.fail("grid", key, f"expected a list of single values, got {_describe(value)} in it")
        if key in fixed:
            raise check.fail("grid", key, "is also in [fixed]; give it in one place")
        grid_values[key] = tuple(values)
    metrics = tuple(_strings(check, data, "metrics")) or None
    known_metrics = asked.metric_docs
    for metric in metrics or ():
        if metric not in known_metrics:
            raise check.unknown("", "metrics", "metric", known_metrics, metric)
    experiment = Experiment(
        path=path,
        name=name,
        system=system.name,
        kind=kind,
        description=str(data.get("description", "")),
        method=method,
        trials=trials,
        seed=seed,
        precision=precision,
        variants=tuple(variants),
        fixed=fixed,
        grid=grid_values,
        metrics=metrics,
        charts=(),
        battle=battle,
        rules=rules,
        tables=own,
        skip_invalid=skip_invalid,
    )
    charts = tuple(_chart(check, experiment, known_metrics, i, c) for i, c in enumerate(_charts(check, data)))
    labels = _table(check, data, "labels")
    _check_labels(check, labels, system, experiment, known_metrics)
    asks = _question(check, data, experiment, known_metrics) if "question" in data else None
    if balance_kind is not None and (asks is not None or charts):
        raise check.fail("", "question" if asks is not None else "charts",
                         f"a {balance_kind} states its own question and draws its own charts")  # fmt: skip
    experiment = Experiment(**{**experiment.__dict__, "charts": charts, "asks": asks, "labels": labels})
    trials_each = experiment.sampled_trials
    if balance_kind is not None:
        experiment = dataclasses.replace(experiment, balance=_balance(check, data, balance_kind, experiment))
        trials_each = None if trials_each is None else trials_each * balance_values(experiment)
    limits.check_experiment(experiment.n_cells, 1 + len(experiment.variants), trials_each, str(path))
    if check_cells:
        _check_values(check, system, experiment)
    if skip_invalid:  # worked out by every process that loads the file: all leave out the same cells
        experiment = dataclasses.replace(experiment, skipped=_invalid_cells(system, experiment))
    fights = experiment.balance is not None and experiment.balance.kind == "tournament"  # its options checked
    if check_cells and not fights:
        _check_cells(check, system, experiment)
    return experiment


def _own_tables(check: _Checker, data: Mapping[str, Any], path: Path, system: System) -> dict[str, Table[Any]]:
    """The experiment's own rows: ``[tables.TABLE."ROW"]`` tables, or ``tables = "DIR"`` (beside the file)."""
    if "tables" not in data:
        return {}
    given = data["tables"]
    if isinstance(given, str):
        given = str(path.parent / given)
    elif not isinstance(given, dict):
        expected = 'a directory ("mygear/") or [tables.TABLE."ROW"] tables'
        raise check.fail("", "tables", f"expected {expected}, got {given!r}")
    try:
        return own_tables(system.tables(), given, str(path))
    except SimlabError as exc:
        raise check.fail("", "tables", str(exc).removeprefix(f"{path}: ")) from None


def _battle(check: _Checker, data: Mapping[str, Any], path: Path, system: str) -> Battle:
    """The battle file of a battle experiment, for ``system``."""
    if "battle" not in data:
        raise check.fail("", "battle", 'missing: kind = "battle" names its battle file (battle = "battles/NAME.toml")')
    name = check.typed(data, "battle", str, "the path of a battle file")
    try:
        found = load_battle(path.parent / name)
    except BattleError as exc:
        raise check.fail("", "battle", str(exc)) from None
    if found.system != system:
        raise check.fail("", "battle", f"{name} is a battle of {found.system!r}, not {system!r}")
    return found


def _strings(check: _Checker, data: Mapping[str, Any], key: str) -> list[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise check.fail("", key, f"expected a list of text values, got {_describe(value)}")
    return value


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


def _check_labels(check: _Checker, labels: Mapping[str, Any], system: Any, experiment: Experiment,
                  metrics: Mapping[str, str]) -> None:  # fmt: skip
    """Refuse a ``[labels]`` key that names nothing the experiment or its system has, and a label without words."""
    known = _labelled(system, experiment, metrics)
    for key, label in labels.items():
        if key not in known and key.rsplit(".", 1)[-1] not in known:
            shown = sorted({*metrics, *experiment.grid, *experiment.fixed})
            raise check.fail("labels", key, str(UnknownNameError("name to label", key, shown)))
        if not isinstance(label, str) or not label.strip():
            raise check.fail("labels", key, f"expected the words for {key}, got {_describe(label)}")


def _question(
    check: _Checker, data: Mapping[str, Any], experiment: Experiment, metrics: Mapping[str, str]
) -> ExperimentQuestion:
    """The experiment's ``[question]``, checked against its grid, metrics and variants."""
    given = _table(check, data, "question")
    for key in given:
        if key not in _QUESTION_KEYS:
            raise check.unknown("question", key, "key", _QUESTION_KEYS)
    kind = given.get("kind")
    if kind not in QUESTION_KINDS:
        raise check.fail("question", "kind", f"expected one of {', '.join(QUESTION_KINDS)}, got {kind!r}")
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
        raise check.fail("question", "target", f"expected a finite number, got {_describe(target)}")
    if kind == "threshold":
        if isinstance(target, bool) or not isinstance(target, int | float):
            raise check.fail("question", "target", "a threshold needs the target value of the metric (target = 0.75)")
        if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in grid[str(chosen)]):
            raise check.fail("question", "input", f"a threshold's input takes numbers; {chosen} does not")
    flags = {}
    for flag, default in (("at_least", True), ("smallest", True), ("lowest", False)):
        value = given.get(flag, default)
        if not isinstance(value, bool):
            raise check.fail("question", flag, f"expected true or false, got {value!r}")
        flags[flag] = value
    return ExperimentQuestion(
        kind, metric, chosen, tuple(per), None if target is None else float(target), where=where, **flags
    )


def _balance(check: _Checker, data: Mapping[str, Any], kind: str, experiment: Experiment) -> BalanceAsk:
    """The experiment's ``[solve]`` or ``[sensitivity]``, checked on its first cell as the command line would."""
    from simlab.balance.sensitivity import DEFAULT_BASE, DEFAULT_TRAJECTORIES, parse_factor
    from simlab.balance.solve import parse_target
    from simlab.balance.unknowns import find_unknown

    given = _table(check, data, kind)
    for key in given:
        if key not in _BALANCE_KEYS[kind]:
            raise check.unknown(kind, key, "key", _BALANCE_KEYS[kind])
    setup = balance_setup(experiment, dict(next(experiment.cells())))

    def text(key: str, example: str) -> str:
        value = given.get(key)
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise check.fail(kind, key, f"expected {example}, got {_describe(value)}")
        return str(value)

    if kind == "sensitivity" and importlib.util.find_spec("SALib") is None:
        line = check.lines.get((kind, "")) or check.lines.get(("", "kind"))
        raise MissingExtraError(check.path, line, "kind", "a sensitivity needs SALib: pip install 'simlab[balance]'")
    try:
        if kind == "tournament":
            return _tournament_ask(check, given, setup)
        if kind == "sensitivity":
            if experiment.grid:
                raise check.fail("", "grid", "a sensitivity spreads [sensitivity.vary]; hold the rest in [fixed]")
            metric = text("metric", 'the metric, such as "p_hit"')
            setup.check_metric(metric)
            vary = given.get("vary")
            if not isinstance(vary, dict) or len(vary) < 2:
                raise check.fail(kind, "vary", 'expected two knobs or more: {skill = "0..4", cover = ["none", "full"]}')
            spread = {
                name: value if isinstance(value, str) else ",".join(map(str, value)) if isinstance(value, list) else ""
                for name, value in vary.items()
            }
            for name, value in spread.items():
                parse_factor(setup, f"{name}={value}")
            sizes = {}
            for key, default in (("trajectories", DEFAULT_TRAJECTORIES), ("base", DEFAULT_BASE)):
                sizes[key] = given.get(key, default)
                if isinstance(sizes[key], bool) or not isinstance(sizes[key], int):
                    raise check.fail(kind, key, f"expected a whole number, got {_describe(sizes[key])}")
            if sizes["trajectories"] < 2 or sizes["base"] < 16 or sizes["base"] & (sizes["base"] - 1):
                raise check.fail(kind, "base", "expected trajectories of at least 2 and base a power of 2 from 16")
            return BalanceAsk(kind, metric, vary=spread, **sizes)
        find, within = text("find", 'the unknown, such as "dx"'), text("in", 'its range, such as "6..20"')
        try:
            unknown = find_unknown(setup.owner, setup.question, find, within, given.get("tol"), "tol")
        except SimlabError as exc:
            raise check.fail(kind, "tol" if "tol" in str(exc).split(":")[0] else "find", str(exc)) from None
        if find in experiment.grid:
            raise check.fail("grid", find, f"{find} is the unknown [solve] searches: leave it out of [grid]")
        if ("target" in given) == ("equal" in given):
            raise check.fail(kind, "target", 'give one of target = "METRIC=VALUE" and equal = "METRIC"')
        sides = {side: _table(check, given, side) for side in ("a", "b")}
        if "target" in given:
            for side in ("a", "b"):
                if side in given:
                    raise check.fail(kind, side, f"[solve.{side}] is a setup of equal; a target has one setup")
            metric, target = parse_target(text("target", 'METRIC=VALUE, such as "p_hit=0.75"'))
            setup.check_metric(metric)
            return BalanceAsk(kind, metric, find, within, target, tol=unknown.tol)
        metric = text("equal", 'the metric made equal, such as "mean_damage"')
        setup.check_metric(metric)
        return BalanceAsk(kind, metric, find, within, None, sides["a"], sides["b"], tol=unknown.tol)
    except ExperimentError:
        raise
    except SimlabError as exc:
        raise check.fail(kind, "", str(exc)) from None


def _tournament_side(
    check: _Checker, given: Mapping[str, Any], setup: Any, every_key: str, table_key: str
) -> tuple[tuple[Mapping[str, Any], ...], tuple[str, ...]]:
    """One side's options of ``[tournament]``: every row of the table ``every_key`` names, or its ``table_key``."""
    from simlab.balance.options import every_row

    if (every_key in given) == (table_key in given):
        raise check.fail("tournament", every_key, f'give one of {every_key} = "INPUT" and [tournament.{table_key}]')
    if every_key in given:
        try:
            options, names = every_row(setup, str(given[every_key]), every_key)
        except SimlabError as exc:
            raise check.fail("tournament", every_key, str(exc).partition(": ")[2]) from None
        return tuple(options), tuple(names)
    table = given[table_key]
    least = 2 if table_key == "options" else 1
    if not isinstance(table, dict) or len(table) < least or not all(isinstance(v, dict) for v in table.values()):
        expected = f"expected {'two tables or more' if least == 2 else 'one table or more'} of inputs"
        raise check.fail("tournament", table_key, f"{expected}: [tournament.{table_key}.NAME]")
    return tuple(dict(v) for v in table.values()), tuple(table)


def _tournament_ask(check: _Checker, given: Mapping[str, Any], setup: Any) -> BalanceAsk:
    """A tournament's options, and a matchup's defenders and metric, each checked as the fights will ask them.

    Options: every row of the table ``every`` names, or ``[tournament.options]`` by name. A matchup
    (``against = "INPUT"`` or ``[tournament.defenders]``) scores each option against each defender by
    ``metric``; a tournament fights duels of the options on both sides.
    """
    from simlab.balance.matchup import check_matchup
    from simlab.balance.tournament import check_options

    options, names = _tournament_side(check, given, setup, "every", "options")
    noun = str(given.get("every", "option"))
    if "against" in given or "defenders" in given:
        defenders, defender_names = _tournament_side(check, given, setup, "against", "defenders")
        metric = given.get("metric")
        if not isinstance(metric, str):
            expected = "expected the metric the attacker wants high"
            raise check.fail("tournament", "metric", f"{expected}, got {_describe(metric)}")
        setup.check_metric(metric)
        check_matchup(setup, options, defenders, names, defender_names)  # as the cells will ask them
        return BalanceAsk("tournament", metric, options=options, names=names, defenders=defenders,
                          defender_names=defender_names, noun=noun)  # fmt: skip
    if setup.question.form not in ("sides", "battle"):
        raise check.fail("tournament", "asks", f"a tournament fights duels or battles, not {setup.kind!r}")
    if "metric" in given:
        raise check.fail("tournament", "metric", "a tournament scores the chance to win; metric belongs to a matchup")
    check_options(setup, options, names)  # each option on both sides, as the seatings will ask it
    return BalanceAsk("tournament", "p_a_wins", options=options, names=names, noun=noun)


def balance_setup(
    experiment: Experiment, inputs: Mapping[str, Any], variant: Variant | None = None, cell: int = 0
) -> Any:
    """The :class:`~simlab.balance.setup.Setup` of one cell of a balance experiment under ``variant``."""
    from simlab.balance.setup import Setup

    return Setup(
        system=experiment.system, kind=experiment.kind, inputs=dict(inputs), rules=dict(experiment.rules),
        battle=experiment.battle, variant=variant, tables=dict(experiment.tables),
        exact=experiment.method == "exact", trials=experiment.trials, seed=experiment.seed, cell=cell,
        source="experiment",
    )  # fmt: skip


def balance_values(experiment: Experiment) -> int:
    """The most values (solve) or points (sensitivity) one cell of a balance experiment asks."""
    from simlab.balance.sensitivity import points_needed
    from simlab.balance.solve import most_values
    from simlab.balance.unknowns import find_unknown

    ask = experiment.balance
    assert ask is not None
    if ask.kind == "tournament":
        return len(ask.options) * (len(ask.defenders) if ask.defenders else len(ask.options) - 1)
    if ask.kind == "sensitivity":
        return points_needed(len(ask.vary), ask.trajectories, ask.base)
    setup = balance_setup(experiment, dict(next(experiment.cells())))
    unknown = find_unknown(setup.owner, setup.question, str(ask.find), str(ask.within), ask.tol, "tol")
    return most_values(unknown, setup.exact) * (2 if ask.target is None else 1)


def _table(check: _Checker, data: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise check.fail("", key, f"expected a table [{key}], got {_describe(value)}")
    return dict(value)


def _charts(check: _Checker, data: Mapping[str, Any]) -> list[dict[str, Any]]:
    value = data.get("charts", [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise check.fail("", "charts", "expected [[charts]] tables")
    return value


def _chart(
    check: _Checker, experiment: Experiment, metrics: Mapping[str, str], index: int, data: Mapping[str, Any]
) -> ChartSpec:
    table = f"charts.{index}"
    kind = data.get("kind")
    if kind not in CHART_KINDS:
        raise check.fail(table, "kind", f"unknown chart kind {kind!r} (valid: {', '.join(CHART_KINDS)})")
    allowed = (*_CHART_COMMON, *CHART_KINDS[kind])
    for key in data:
        if key not in allowed:
            raise check.unknown(table, key, f"key of a {kind} chart", allowed)
    for key in ("title", "name", "metric", "x", "rows", "cols", "panels", "prefix", "distribution"):
        if key in data and not isinstance(data[key], str):
            raise check.fail(table, key, f"expected text, got {_describe(data[key])}")
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
        raise check.fail(table, "at_least", f"expected true or false, got {_describe(data['at_least'])}")
    if "by" in data and not isinstance(data["by"], str | list):
        raise check.fail(table, "by", f"expected a grid input or a list of them, got {_describe(data['by'])}")
    if "metrics" in data and not isinstance(data["metrics"], list):
        raise check.fail(table, "metrics", f"expected a list of metrics, got {_describe(data['metrics'])}")
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
        raise check.fail(table, "where", f"expected a table of grid input = value, got {_describe(where)}")
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


def _check_value(
    system: System,
    asked: Question,
    key: str,
    value: Any,
    battle: Battle | None = None,
    own: Mapping[str, Table[Any]] | None = None,
) -> None:
    """Check one input on its own: its name, its type, and the table row it names (one's own rows among them)."""
    tables = {**system.tables(), **(own or {})}
    if asked.form == "battle":
        assert battle is not None  # a battle question's experiment has its battle
        asked.check(build_request(system, asked, {key: value}, battle=battle, trials=1, tables=dict(own or {})))
        return
    what = "scenario input"
    if asked.form == "sides":
        side, dot, key = key.partition(".")
        if not dot or side not in ("a", "b"):
            raise SimlabError(f"duel inputs are a.KEY or b.KEY (side a or b), not {side!r}")
        what = "duel side input"
    prefix, dot, column = key.partition(".")
    if dot:
        if prefix not in asked.row_inputs:
            raise UnknownNameError("row input", prefix, asked.row_inputs)
        specs = field_specs(tables[asked.row_inputs[prefix]].row_type)
        if column not in specs:
            raise UnknownNameError(f"{prefix} column", column, specs)
        coerce(specs[column], value, "")
        return
    specs = field_specs(asked.inputs_type)
    if key not in specs:
        raise UnknownNameError(what, key, specs)
    value = coerce(specs[key], value, "")
    if key in asked.row_inputs and value:
        tables[asked.row_inputs[key]].row(value)


def _check_values(check: _Checker, system: System, experiment: Experiment) -> None:
    """Validate every input of ``[fixed]`` and ``[grid]`` on its own: a misspelt name is refused, skipped or not."""
    first = next(experiment.cells())
    for table, values in (("fixed", {k: [v] for k, v in experiment.fixed.items()}), ("grid", experiment.grid)):
        for key, options in values.items():
            for value in options:
                try:
                    _check_value(system, experiment.question, key, value, experiment.battle, experiment.tables)
                except UnknownNameError as exc:
                    if _allowed(system, experiment, {**first, key: value}):
                        continue  # a name that only exists with other inputs (weapon + ammo)
                    raise check.fail(table, key, str(exc)) from None
                except SimlabError as exc:
                    raise check.fail(table, key, str(exc)) from None


def _check_cells(check: _Checker, system: System, experiment: Experiment) -> None:
    """Validate every cell the run computes, under every variant (for combinations the rules forbid)."""
    for variant in (None, *experiment.variants):
        for _, cell in experiment.kept_cells():
            try:
                _check_request(system, experiment, cell, variant)
            except SimlabError as exc:
                shown = ", ".join(f"{k}={cell[k]!r}" for k in experiment.grid)
                under = f" under variant {variant.name}" if variant else ""
                raise check.fail("grid", "", f"cell {shown}{under}: {exc} (or skip_invalid = true)") from None


def _invalid_cells(system: System, experiment: Experiment) -> tuple[tuple[int, dict[str, Any], str], ...]:
    """The cells the rules forbid (under the base rules or any variant), each with the reason."""
    found = []
    for index, cell in enumerate(experiment.cells()):
        for variant in (None, *experiment.variants):
            try:
                _check_request(system, experiment, cell, variant)
            except SimlabError as exc:
                under = f" (under variant {variant.name})" if variant else ""
                found.append((index, {k: cell[k] for k in experiment.grid}, f"{exc}{under}"))
                break
    return tuple(found)


def _allowed(system: System, experiment: Experiment, inputs: Mapping[str, Any]) -> bool:
    try:
        _check_request(system, experiment, inputs, None)
    except SimlabError:
        return False
    return True


def _check_request(system: System, experiment: Experiment, inputs: Mapping[str, Any], variant: Variant | None) -> None:
    asked = question_of(system, experiment.kind)
    request = cell_request(
        system, asked, inputs, variant, experiment.battle, experiment.rules, tables=experiment.tables, trials=1
    )
    asked.check(request)


def cell_request(
    system: System,
    asked: Question,
    inputs: Mapping[str, Any],
    variant: Variant | None = None,
    battle: Battle | None = None,
    rules: Mapping[str, Any] | None = None,
    tables: Mapping[str, Table[Any]] | None = None,
    **options: Any,
) -> Any:
    """The request of one cell of an experiment (under a variant), its inputs named as in the file.

    ``rules`` are the experiment's own (``[rules]``); a variant's rules win over them. ``tables``
    are its own rows; a variant's row changes apply on top of them.
    """
    given = {**(rules or {}), **(variant.rules if variant is not None else {})}
    return build_request(system, asked, inputs, battle=battle, variant=variant, rules=given, source="experiment",
                         tables=dict(tables or {}), **options)  # fmt: skip


def answer(
    system: System,
    kind: str,
    inputs: Mapping[str, Any],
    variant: Variant | None = None,
    battle: Battle | None = None,
    **options: Any,
) -> Any:
    """The :class:`~simlab.engine.results.AttackResult` of one cell, whatever its kind.

    The options are those of :func:`cell_request`.
    """
    asked = question_of(system, kind)
    return asked.answer(cell_request(system, asked, inputs, variant, battle, **options))


def find_experiments(directory: Path | str = "experiments") -> list[Path]:
    """The experiment files of a directory (not its subdirectories), in name order.

    Raises:
        SimlabError: When the directory does not exist or holds no experiment.
    """
    directory = Path(directory)
    if not directory.is_dir():
        raise SimlabError(f"no experiment directory {str(directory)!r}: give experiment files or run from a project")
    found = sorted(directory.glob("*.toml"))
    if not found:
        raise SimlabError(f"no experiment files (*.toml) in {str(directory)!r}")
    return found
