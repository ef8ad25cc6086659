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
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from simlab.analyses import analysis_of, tables
from simlab.asking.requests import build_request
from simlab.asking.variants import Variant, load_variant
from simlab.engine.bounds import check_seed, check_trials
from simlab.engine.results import METHODS
from simlab.inputs.battles import Battle, BattleError, load_battle
from simlab.inputs.errors import KEYS_SPELLING, SimlabError, UnknownNameError, in_words, shown_path
from simlab.inputs.files import FileError, described, read_toml
from simlab.inputs.limits import Limits
from simlab.inputs.own_tables import own_tables
from simlab.inputs.params import NAME_RULE, build, coerce, field_specs, valid_name
from simlab.inputs.tables import Table, Tables
from simlab.records import (
    Experiment,
)
from simlab.systems import Question, System, get_system, question_of
from simlab.workflow.balance_asks import (
    balance_values,
    chosen_analysis,
    read_balance,
)
from simlab.workflow.experiment_asks import (
    check_labels,
    read_chart,
    read_charts,
    read_question,
)
from simlab.workflow.experiment_checks import (
    SCALARS,
    Checker,
    ExperimentError,
    read_strings,
    read_table,
)

__all__ = [
    "RUN_METHODS",
    "TOP_KEYS",
    "ExperimentError",
    "load_experiment",
    "find_experiments",
    "cell_request",
    "answer",
]

#: Values of ``method``.
RUN_METHODS = (*METHODS, "both")


#: Values of ``kind`` every system knows: what one cell asks (systems add their questions).
KINDS = ("attack", "duel", "battle")


#: The keys of an experiment file, each with what it is (besides the table of each analysis, ``tables()``).
TOP_KEYS = {
    "name": "its name: the folder of its results (results/NAME/) and its baseline",
    "system": "the rule system: hitech_tft, striker, tyconian or space_v4",
    "kind": "what each cell asks: attack, duel, battle or a further question of the system (explosion...); "
    "or an analysis (solve, sensitivity, tournament, tune)",
    "description": "the question it answers, in words: the report's first line",
    "method": "exact, monte_carlo or both (exact where the engine is, sampled besides)",
    "trials": "trials of each sampled cell (default 1,000,000)",
    "seed": "the root seed of every random stream (recorded in provenance.json)",
    "precision": "sample each cell until every 95 % half-width is at most this, instead of fixed trials",
    "variants": "variant files (house rules) run beside the base rules, on the same random streams",
    "fixed": "inputs every cell shares (the keys of --set)",
    "grid": "inputs that vary, a list each: every combination is a cell",
    "metrics": "the metrics kept in its table and report (default: all)",
    "charts": "the charts its report draws ([[charts]]: kind, metric, x, by...)",
    "battle": "the battle file a battle experiment fights (its cells vary its keys)",
    "rules": "rule parameters of every cell (the names of --rule)",
    "tables": "rows of its own ([tables.TABLE.\"NAME\"]) or a folder of CSV files",
    "skip_invalid": "leave out the cells the rules forbid instead of refusing the grid",
    "question": "what its report answers first ([question]: threshold, best, ranking or effect)",
    "labels": "its own words for inputs, values and metrics in its report and charts",
}
_TOP_KEYS = tuple(TOP_KEYS)  # and the table of each analysis (tables())


DEFAULT_TRIALS = 1_000_000
#: How an experiment's messages say what the command line's say: its keys (``--set dx`` is ``dx`` of
#: ``[fixed]`` or ``[grid]``, ``--rule`` is ``[rules]``).
EXPERIMENT_SPELLING = {**KEYS_SPELLING, "--rule": "rules.", "--exact": 'method = "exact"'}




@in_words(EXPERIMENT_SPELLING)
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
    check = Checker(path, text)
    for key in data:
        if key not in _TOP_KEYS and key not in tables():
            raise check.unknown("", key, "key", (*_TOP_KEYS, *tables()))
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
    analysis_tables = tables()
    balance_kind = kind if kind in analysis_tables else None
    for other in analysis_tables:
        if other in data and other != balance_kind:
            raise check.fail("", other, f'[{other}] belongs to kind = "{other}"')
    if balance_kind is not None:  # each value asks the question its analysis's table names
        chosen = chosen_analysis(check, data, balance_kind)
        default = "battle" if "battle" in data else chosen.asks
        kind = read_table(check, data, balance_kind).get("asks", default)
        if not isinstance(kind, str):
            raise check.fail(balance_kind, "asks", f"expected the question each value asks, got {described(kind)}")
    try:
        asked = question_of(system, kind)
    except SimlabError as exc:
        raise check.fail("", "kind", str(exc)) from None
    battle = None
    if asked.input_form.battle:
        battle = _battle(check, data, path, system.name)
    elif "battle" in data:
        raise check.fail("", "battle", 'a battle file belongs to kind = "battle"')
    sampled = asked.sampled_only
    method = check.typed(data, "method", str, "a method") if "method" in data else "monte_carlo" if sampled else "exact"
    if balance_kind is not None and method == "both":
        raise check.fail("", "method", f"a {balance_kind} is exact or monte_carlo, not both")
    if method not in RUN_METHODS:
        raise check.unknown("", "method", "method", RUN_METHODS, method)
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
    for variant_file in read_strings(check, data, "variants"):
        try:
            variants.append(load_variant(path.parent / variant_file, system.name, own))
        except SimlabError as exc:
            raise check.fail("", "variants", str(exc)) from None
    if len({v.name for v in variants}) != len(variants):
        raise check.fail("", "variants", "two variants have the same name")
    skip_invalid = check.typed(data, "skip_invalid", bool, "true or false") if "skip_invalid" in data else False
    fixed = read_table(check, data, "fixed")
    rules = read_table(check, data, "rules")
    try:
        build(system.rules_type, rules, what="rule parameter")
    except SimlabError as exc:
        raise check.fail(
            "rules", next((k for k in rules if repr(k) in str(exc) or k in str(exc)), ""), str(exc)
        ) from None
    grid = read_table(check, data, "grid")
    for key, value in fixed.items():
        if not isinstance(value, SCALARS):
            raise check.fail("fixed", key, f"expected a single value, got {described(value)} (lists belong in [grid])")
    grid_values: dict[str, tuple[Any, ...]] = {}
    for key, values in grid.items():
        if not isinstance(values, list) or not values:
            raise check.fail("grid", key, f"expected a non-empty list of values, got {described(values)}")
        for value in values:
            if not isinstance(value, SCALARS):
                raise check.fail("grid", key, f"expected a list of single values, got {described(value)} in it")
        if key in fixed:
            raise check.fail("grid", key, "is also in [fixed]; give it in one place")
        grid_values[key] = tuple(values)
    metrics = tuple(read_strings(check, data, "metrics")) or None
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
    charts = tuple(read_chart(check, experiment, known_metrics, i, c) for i, c in enumerate(read_charts(check, data)))
    labels = read_table(check, data, "labels")
    check_labels(check, labels, system, experiment, known_metrics)
    asks = read_question(check, data, experiment, known_metrics) if "question" in data else None
    if balance_kind is not None and (asks is not None or charts):
        raise check.fail("", "question" if asks is not None else "charts",
                         f"a {balance_kind} states its own question and draws its own charts")  # fmt: skip
    experiment = Experiment(**{**experiment.__dict__, "charts": charts, "asks": asks, "labels": labels})
    trials_each = experiment.sampled_trials
    if balance_kind is not None:
        experiment = dataclasses.replace(experiment, balance=read_balance(check, data, balance_kind, experiment))
        values = balance_values(experiment)
        try:  # every value of every cell counts, exact ones too (a sensitivity's points)
            limits.check_work(experiment.n_cells * (1 + len(experiment.variants)) * values, 0,
                              "values (cells times rule sets times the values each asks)", f"the {balance_kind}")
        except SimlabError as exc:
            raise check.fail(balance_kind, "", str(exc)) from None
        trials_each = None if trials_each is None else trials_each * values
    limits.check_experiment(experiment.n_cells, 1 + len(experiment.variants), trials_each, str(path))
    if check_cells:
        _check_values(check, system, experiment)
    if skip_invalid:  # worked out by every process that loads the file: all leave out the same cells
        experiment = dataclasses.replace(experiment, skipped=_invalid_cells(system, experiment))
        if next(experiment.kept_cells(), None) is None:
            _, cell, reason = experiment.skipped[0]
            shown = ", ".join(f"{k}={v!r}" for k, v in cell.items())
            raise check.fail("", "skip_invalid", f"every cell is left out, none is left to run; cell {shown}: {reason}")
    own_cells = experiment.balance is not None and analysis_of(experiment.balance).own_cells  # checked as read
    if check_cells and not own_cells:
        _check_cells(check, system, experiment)
    return experiment


def _own_tables(check: Checker, data: Mapping[str, Any], path: Path, system: System) -> dict[str, Table[Any]]:
    """The experiment's own rows: ``[tables.TABLE."ROW"]`` tables, or ``tables = "DIR"`` (beside the file)."""
    if "tables" not in data:
        return {}
    given = data["tables"]
    if isinstance(given, str):
        given = str(path.parent / given)
    elif not isinstance(given, dict):
        expected = 'a directory ("mygear/") or [tables.TABLE."ROW"] tables'
        raise check.fail("", "tables", f"expected {expected}, got {described(given)}")
    try:
        return own_tables(system.tables(), given, str(path))
    except SimlabError as exc:
        raise check.fail("", "tables", str(exc).removeprefix(f"{shown_path(path)}: ")) from None


def _battle(check: Checker, data: Mapping[str, Any], path: Path, system: str) -> Battle:
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


def _check_value(
    system: System, asked: Question, key: str, value: Any, battle: Battle | None = None, own: Tables | None = None
) -> None:
    """Check one input on its own: its name, its type, and the table row it names (one's own rows among them)."""
    tables = {**system.tables(), **(own or {})}
    if asked.input_form.battle:
        assert battle is not None  # a battle question's experiment has its battle
        asked.check(build_request(system, asked, {key: value}, battle=battle, trials=1, tables=dict(own or {})))
        return
    what = "scenario input"
    if asked.input_form.sided:
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


def _check_values(check: Checker, system: System, experiment: Experiment) -> None:
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


def _check_cells(check: Checker, system: System, experiment: Experiment) -> None:
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
    tables: Tables | None = None,
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
    """The :class:`~simlab.engine.results.Answer` of one cell, whatever its kind.

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
