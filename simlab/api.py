"""Short calls for notebooks and scripts: one attack, one duel, one battle, one experiment, one balance question.

Everything here is a thin layer over :mod:`simlab.systems`, :mod:`simlab.workflow.experiments`
and :mod:`simlab.workflow.runner`; the command line uses the same functions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from simlab.asking.requests import question_request
from simlab.engine.bounds import MAX_TRIALS_PER_CELL
from simlab.engine.results import Answer
from simlab.inputs.errors import KEYS_SPELLING, InvalidValueError, SimlabError, in_words
from simlab.inputs.files import described
from simlab.inputs.limits import RAISE_CELLS, RAISE_TRIALS

__all__ = ["attack", "duel", "battle", "run", "solve", "sensitivity", "tournament", "analyse"]

#: How messages name the choices of these calls (the command line says ``--exact``...).
_API_NAMES = {"exact": "method='exact'", "trials": "trials", "kind": "kind"}
#: How these calls say what a message says in the command line's words (:func:`simlab.errors.spelled`):
#: their keywords (``--set dx`` is ``dx``, ``--a skill`` is ``a.skill``, ``--in`` is ``within``).
PYTHON_SPELLING = {**KEYS_SPELLING, "--rule": "rules.", "--exact": "method='exact'", "--threads": "threads",
                   "--in": "within", RAISE_TRIALS: "", RAISE_CELLS: ""}  # fmt: skip

#: A call whose messages name its keywords rather than the command line's flags.
_in_python_words = in_words(PYTHON_SPELLING)


def _dotted(inputs: Any, keyword: str = "inputs") -> dict[str, Any]:
    """Inputs with ``ROW__COLUMN`` keyword names written ``ROW.COLUMN``, as on the command line.

    Raises:
        SimlabError: Unless a mapping of names (``keyword`` names it).
    """
    if not isinstance(inputs, Mapping) or not all(isinstance(key, str) for key in inputs):
        raise SimlabError(f"{keyword}: expected a dict of inputs by name, got {described(inputs)}")
    return {key.replace("__", "."): value for key, value in inputs.items()}


def _named_inputs(given: Any, keyword: str) -> tuple[list[dict[str, Any]], list[str]]:
    """Options or defenders by name, each a dict of inputs: their inputs and names, in order.

    Raises:
        SimlabError: Unless a dict of dicts (``keyword`` names it).
    """
    if not isinstance(given, Mapping):
        raise SimlabError(f"{keyword}: expected a dict of them by name, each a dict of inputs, got {described(given)}")
    return [_dotted(inputs, f"{keyword}[{name!r}]") for name, inputs in given.items()], [str(n) for n in given]


#: One's own rows as the functions take them: a directory, a mapping, or None.
OwnTables = str | Path | Mapping[str, Mapping[str, Mapping[str, Any]]] | None


def _own(system: str, tables: OwnTables) -> dict[str, Any]:
    """One's own tables of ``system`` (:mod:`simlab.inputs.own_tables`)."""
    from simlab.inputs.own_tables import own_tables
    from simlab.systems import get_system

    return own_tables(get_system(system).tables(), tables, "")


@_in_python_words
def attack(
    system: str,
    *,
    kind: str = "attack",
    method: str = "exact",
    trials: int = 1_000_000,
    seed: int = 0,
    rules: Mapping[str, Any] | None = None,
    threads: int | None = None,
    tables: OwnTables = None,
    **inputs: Any,
) -> Answer:
    """Answer one attack question.

    Args:
        system: System id (``hitech_tft``).
        kind: ``attack``, or another question of the system (``explosion``, ``healing``...).
        method: ``exact`` or ``monte_carlo``.
        trials: Trials to sample (``monte_carlo``).
        seed: Root seed (``monte_carlo``).
        rules: Rule parameters that differ from the spec's defaults.
        threads: Worker threads (None: all CPUs).
        tables: Your own rows: a directory of ``TABLE.csv`` files, or ``{TABLE: {ROW: {COLUMN: VALUE}}}``.
        **inputs: Scenario inputs; ``ROW__COLUMN`` (double underscore) sets a column of a
            table row, as ``--set ROW.COLUMN=...`` does.

    Example:
        >>> attack("hitech_tft", weapon="assault rifle", armor="flak jacket", mode="four", range_m=20)
        >>> attack("tyconian", kind="explosion", explosive="hand grenade", distance_m=2)
    """
    if method not in ("exact", "monte_carlo"):
        raise InvalidValueError("method", method, "exact or monte_carlo")
    exact = method == "exact"
    question, request = question_request(
        system,
        kind,
        inputs=_dotted(inputs),
        rules=_dotted(rules or {}, "rules"),
        exact=exact,
        trials=None if exact else trials,
        seed=seed,
        threads=threads,
        max_trials=MAX_TRIALS_PER_CELL,
        names=_API_NAMES,
        tables=_own(system, tables),
    )
    return question.answer(request)


@_in_python_words
def duel(
    system: str,
    a: Mapping[str, Any],
    b: Mapping[str, Any],
    *,
    trials: int = 100_000,
    seed: int = 0,
    rules: Mapping[str, Any] | None = None,
    threads: int | None = None,
    tables: OwnTables = None,
) -> Answer:
    """Sample duels of two sides, as ``simlab duel SYSTEM --a ... --b ...`` does.

    Args:
        system: System id (``space_v4``).
        a: Side A's inputs; ``ROW__COLUMN`` (or ``ROW.COLUMN``) sets a column of a table row.
        b: Side B's inputs.
        trials: Duels to sample.
        seed: Root seed.
        rules: Rule parameters that differ from the spec's defaults.
        threads: Worker threads (None: all CPUs).
        tables: Your own rows: a directory of ``TABLE.csv`` files, or ``{TABLE: {ROW: {COLUMN: VALUE}}}``.

    Example:
        >>> duel("space_v4", a={"ship": "patrol cruiser"}, b={"ship": "mercenary cruiser", "pd_hold": 3})
    """
    sides = {f"{side}.{k}": v for side, inputs in (("a", a), ("b", b)) for k, v in _dotted(inputs, side).items()}
    question, request = question_request(
        system,
        "duel",
        inputs=sides,
        rules=_dotted(rules or {}, "rules"),
        trials=trials,
        seed=seed,
        threads=threads,
        max_trials=MAX_TRIALS_PER_CELL,
        names=_API_NAMES,
        tables=_own(system, tables),
    )
    return question.answer(request)


@_in_python_words
def battle(
    system: str,
    battle: str | Path | Mapping[str, Any],
    *,
    changes: Mapping[str, Any] | None = None,
    trials: int = 100_000,
    seed: int = 0,
    rules: Mapping[str, Any] | None = None,
    threads: int | None = None,
    tables: OwnTables = None,
) -> Answer:
    """Sample a battle of several figures a side, as ``simlab battle SYSTEM BATTLE.toml`` does.

    Args:
        system: System id (``striker``).
        battle: A battle file, or the battle's values as a dict (the file's tables as dicts).
        changes: Values changed by dotted path (``{"a.count": 6, "b.doctrine.targets": "focus"}``).
        trials: Battles to sample.
        seed: Root seed.
        rules: Rule parameters that differ from the spec's defaults.
        threads: Worker threads (None: all CPUs).
        tables: Your own rows: a directory of ``TABLE.csv`` files, or ``{TABLE: {ROW: {COLUMN: VALUE}}}``.

    Example:
        >>> battle("striker", "experiments/battles/striker_fireteam.toml", changes={"a.count": 6})
    """
    from simlab.inputs.battles import battle_from_data, load_battle

    found = battle_from_data(battle, "<battle>") if isinstance(battle, Mapping) else load_battle(battle)
    question, request = question_request(
        system,
        "battle",
        battle=found,
        inputs=changes or {},
        rules=_dotted(rules or {}, "rules"),
        trials=trials,
        seed=seed,
        threads=threads,
        max_trials=MAX_TRIALS_PER_CELL,
        names=_API_NAMES,
        tables=_own(system, tables),
    )
    return question.answer(request)


@_in_python_words
def run(experiment: str | Path, *, threads: int | None = None, trials: int | None = None) -> Any:
    """Load and run one experiment file, returning its :class:`~simlab.workflow.runner.ExperimentRun`.

    Args:
        experiment: The experiment file.
        threads: Sampling threads (None: every CPU).
        trials: Trials per sampled cell instead of the file's (a quick look; None: the file's).

    Raises:
        SimlabError: For any mistake in the file, or trials out of range.
    """
    import dataclasses

    from simlab.engine.bounds import check_trials
    from simlab.workflow.experiments import load_experiment
    from simlab.workflow.runner import run_experiment

    found = load_experiment(experiment)
    if trials is not None:
        found = dataclasses.replace(found, trials=check_trials(trials))
    return run_experiment(found, threads=threads)


def _balance_setup(
    system: str,
    kind: str,
    battle: str | Path | Mapping[str, Any] | None,
    inputs: Mapping[str, Any],
    *,
    method: str,
    trials: int | None,
    seed: int,
    rules: Mapping[str, Any] | None,
    threads: int | None,
    tables: OwnTables,
) -> Any:
    """The setup of a balance question, as the command line builds it."""
    from simlab.balance.setup import Setup
    from simlab.inputs.battles import battle_from_data, load_battle

    if method not in ("exact", "monte_carlo"):
        raise InvalidValueError("method", method, "exact or monte_carlo")
    found = None
    inputs = _dotted(inputs)
    if battle is not None:
        found = battle_from_data(battle, "<battle>") if isinstance(battle, Mapping) else load_battle(battle)
        kind = "battle"
    return Setup(
        system=system, kind=kind, inputs=inputs, rules=_dotted(rules or {}, "rules"), battle=found,
        tables=_own(system, tables), exact=method == "exact", trials=None if method == "exact" else trials,
        seed=seed, threads=threads, max_trials=MAX_TRIALS_PER_CELL, names=_API_NAMES,
    )  # fmt: skip


@_in_python_words
def solve(
    system: str,
    *,
    find: str,
    within: str | tuple[float, float],
    target: str | tuple[str, float] | None = None,
    equal: str | None = None,
    a: Mapping[str, Any] | None = None,
    b: Mapping[str, Any] | None = None,
    tol: float | None = None,
    kind: str = "attack",
    battle: str | Path | Mapping[str, Any] | None = None,
    method: str = "exact",
    trials: int | None = None,
    seed: int = 0,
    rules: Mapping[str, Any] | None = None,
    threads: int | None = None,
    tables: OwnTables = None,
    **inputs: Any,
) -> Any:
    """The value of ``find`` over ``within`` at which a metric reaches ``target``, or setup A equals B.

    As ``simlab solve`` (:mod:`simlab.balance.solve`): every crossing, each with the metric on both
    sides of it, and a 95 % interval where sampled (the same random streams at every value).

    Args:
        system: System id.
        find: The unknown: an input, a rule parameter, ``ROW.COLUMN`` or a battle's path (``a.count``).
        within: Its range: ``"6..20"`` or ``(6, 20)`` (a real unknown: ``"0.5..3"``).
        target: ``"METRIC=VALUE"`` or ``(METRIC, VALUE)``.
        equal: Instead of ``target``: the metric of setup A (``a``, with the unknown) made equal to B's.
        a: Setup A's own inputs (``equal``).
        b: Setup B's own inputs (``equal``).
        tol: The precision of a real unknown's answer, in its units (default: a millionth of the range
            when exact, a thousandth when sampled): the bracket of the answer is no wider.
        kind: ``attack``, ``duel``, or a further question; ``battle`` when ``battle`` is given.
        battle: A battle file, or its values as a dict.
        method: ``exact`` or ``monte_carlo``.
        trials: Trials at each value (``monte_carlo``; default: the question's).
        seed: Root seed (``monte_carlo``).
        rules: Rule parameters that differ from the spec's defaults.
        threads: Worker threads (None: all CPUs).
        tables: Your own rows.
        **inputs: Inputs shared by every value (``ROW__COLUMN`` for ``ROW.COLUMN``).

    Returns:
        A :class:`~simlab.balance.solve.Solution` (``.answer.value``, ``.crossings``, ``.to_json()``; its
        chart: :func:`simlab.output.balance_report.search_chart`).

    Raises:
        NoCrossingError: When the goal is not crossed over the range.

    Example:
        >>> solve("hitech_tft", find="dx", within="6..20", target="p_hit=0.75",
        ...       weapon="assault rifle", armor="flak jacket", range_m=20).answer.value
        15.0
    """
    from simlab.balance.solve import Goal, parse_target
    from simlab.balance.solve import solve as solve_for
    from simlab.balance.unknowns import check_unknown, find_unknown
    from simlab.inputs.limits import Limits
    from simlab.output.words import Vocabulary

    if (target is None) == (equal is None):
        raise SimlabError("give one of target and equal")
    setup = _balance_setup(system, kind, battle, inputs, method=method, trials=trials, seed=seed, rules=rules,
                           threads=threads, tables=tables)  # fmt: skip
    span = within if isinstance(within, str) else f"{within[0]}..{within[1]}"
    keyword = {"find": "find", "in": "within", "tol": "tol"}.__getitem__  # as the keywords are called
    unknown = find_unknown(setup.owner, setup.question, find, span, tol, keyword)
    if equal is not None:
        words = Vocabulary(battle=setup.battle)
        mine = setup.with_changes(inputs={**setup.inputs, **_dotted(a or {}, "a")})
        other = setup.with_changes(inputs={**setup.inputs, **_dotted(b or {}, "b")})
        named = (words.held(_dotted(a, "a")) if a else "A", words.held(_dotted(b, "b")) if b else "B")
        goal = Goal(equal, None, other, *named)
    else:
        assert target is not None
        metric, value = parse_target(target if isinstance(target, str) else f"{target[0]}={target[1]}")
        mine, goal = setup, Goal(metric, value)
    check_unknown(mine, unknown, keyword)
    return solve_for(mine, unknown, goal, limits=Limits())


@_in_python_words
def sensitivity(
    system: str,
    *,
    metric: str,
    vary: Mapping[str, str | Sequence[Any]],
    kind: str = "attack",
    battle: str | Path | Mapping[str, Any] | None = None,
    method: str = "exact",
    trials: int | None = 10_000,
    seed: int = 0,
    trajectories: int | None = None,
    base: int | None = None,
    rules: Mapping[str, Any] | None = None,
    threads: int | None = None,
    tables: OwnTables = None,
    **inputs: Any,
) -> Any:
    """Rank what moves ``metric`` over the knobs of ``vary``, as ``simlab sensitivity`` does.

    Args:
        system: System id.
        metric: The metric.
        vary: Knob → ``"LOW..HIGH"`` or a list of values (an input, rule parameter or ``ROW.COLUMN``).
        kind: ``attack``, ``duel`` or a further question; ``battle`` when ``battle`` is given.
        battle: A battle file, or its values as a dict.
        method: ``exact`` or ``monte_carlo``.
        trials: Trials at each point (``monte_carlo``).
        seed: Seed of the points and of the streams.
        trajectories: Morris trajectories (default 20).
        base: Sobol base points (default 256).
        rules: Rule parameters that differ from the spec's defaults.
        threads: Worker threads (None: all CPUs).
        tables: Your own rows.
        **inputs: Inputs held at a value.

    Returns:
        A :class:`~simlab.balance.sensitivity.Sensitivity` (``.effects``, ``.frame()``; its chart:
        :func:`simlab.output.balance_report.shares_chart`).

    Example:
        >>> sensitivity("striker", metric="p_hit", weapon="rifle",
        ...             vary={"skill": "0..4", "range_band": ["short", "medium", "long"]}).effects[0].name
        'skill'
    """
    from simlab.balance.sensitivity import DEFAULT_BASE, DEFAULT_TRAJECTORIES, parse_factor
    from simlab.balance.sensitivity import sensitivity as rank
    from simlab.inputs.limits import Limits

    setup = _balance_setup(system, kind, battle, inputs, method=method, trials=trials, seed=seed, rules=rules,
                           threads=threads, tables=tables)  # fmt: skip
    factors = [
        parse_factor(setup, f"{name}={spread if isinstance(spread, str) else ','.join(map(str, spread))}")
        for name, spread in _dotted(vary, "vary").items()
    ]
    return rank(setup, metric, factors, trajectories=trajectories or DEFAULT_TRAJECTORIES,
                base=base or DEFAULT_BASE, limits=Limits())  # fmt: skip


@_in_python_words
def tournament(
    system: str,
    *,
    every: str | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    against: str | None = None,
    defenders: Mapping[str, Mapping[str, Any]] | None = None,
    metric: str | None = None,
    kind: str | None = None,
    battle: str | Path | Mapping[str, Any] | None = None,
    method: str = "monte_carlo",
    trials: int | None = 10_000,
    seed: int = 0,
    rules: Mapping[str, Any] | None = None,
    threads: int | None = None,
    tables: OwnTables = None,
    **inputs: Any,
) -> Any:
    """Every option against every other, or attacks against defenders, as ``simlab tournament`` does.

    Args:
        system: System id.
        every: Every row of the table this input names as an option (``"ship"``).
        options: Or the options by name, each its inputs (``{"rifles": {"weapon": "rifle"}}``).
        against: Score the options as attacks against every row of the table this input names (``"armor"``).
        defenders: Or against these defenders by name, each its inputs.
        metric: With defenders: what the attacker wants high.
        kind: The question: ``duel`` for a tournament (``battle`` with ``battle``), ``attack`` with defenders.
        battle: A battle file, or its values as a dict: each option's paths within a side, on both sides.
        method: ``monte_carlo``, or ``exact`` for attacks against defenders where the engine is exact.
        trials: Duels of each seating (attacks: trials of each cell).
        seed: Root seed: every pair on the same random streams.
        rules: Rule parameters that differ from the spec's defaults.
        threads: Worker threads (None: all CPUs).
        tables: Your own rows.
        **inputs: Inputs of both sides (or of every attack).

    Returns:
        A :class:`~simlab.balance.tournament.Tournament` (``.score``, ``.to_json()``; dominated options,
        the metagame and worth from :mod:`simlab.balance.tournament`), or with defenders a
        :class:`~simlab.balance.tournament.Matchup`.

    Example:
        >>> tournament("striker", options={"rifle": {"weapon": "rifle"}, "shotgun": {"weapon": "shotgun"}},
        ...            defenders={"mesh": {"armor": "mesh"}}, metric="p_incapacitated",
        ...            method="exact").to_json()["attacker_mix"]
        {'rifle': 1.0, 'shotgun': 0.0}
    """
    from simlab.balance.matchup import matchup
    from simlab.balance.options import every_row
    from simlab.balance.tournament import tournament as fight
    from simlab.inputs.limits import Limits

    if (every is None) == (options is None):
        raise SimlabError("give one of every and options")
    defended = against is not None or defenders is not None
    if defended and metric is None:
        raise SimlabError("attacks against defenders need metric: what the attacker wants high")
    asked = kind or ("attack" if defended else "duel")
    shared = _dotted(inputs) if defended else {f"{side}.{k}": v for side in "ab" for k, v in _dotted(inputs).items()}
    setup = _balance_setup(system, asked, battle, {}, method=method, trials=trials, seed=seed, rules=rules,
                           threads=threads, tables=tables)  # fmt: skip
    setup = setup.with_changes(inputs={**setup.inputs, **shared})
    chosen, names = every_row(setup, every) if every is not None else _named_inputs(options, "options")
    if not defended:
        return fight(setup, chosen, names, limits=Limits(), noun=every or "option")
    if against is not None:
        rows, row_names = every_row(setup, against, "against")
    else:
        rows, row_names = _named_inputs(defenders, "defenders")
    assert metric is not None
    return matchup(setup, chosen, rows, metric, names, row_names, limits=Limits())


@_in_python_words
def analyse(
    name: str,
    system: str,
    *,
    kind: str | None = None,
    battle: str | Path | Mapping[str, Any] | None = None,
    method: str = "exact",
    trials: int | None = None,
    seed: int = 0,
    rules: Mapping[str, Any] | None = None,
    threads: int | None = None,
    tables: OwnTables = None,
    inputs: Mapping[str, Any] | None = None,
    **keys: Any,
) -> Any:
    """Any registered analysis (:mod:`simlab.analyses`) by name, its keys as its experiment's table holds them.

    The keys are read and checked by the analysis's own reader, as ``[NAME]`` of an experiment is;
    the question each value asks is built as the other calls here build it.

    Args:
        name: The analysis (``solve``, ``sensitivity``, ``tournament``, ``matchup``, or one registered).
        system: System id.
        kind: The question each value asks (default: the analysis's, ``attack`` or ``duel``).
        battle: A battle file, or its values as a dict.
        method: ``exact`` or ``monte_carlo``.
        trials: Trials of each value (``monte_carlo``; default: the analysis's).
        seed: Root seed (``monte_carlo``).
        rules: Rule parameters that differ from the spec's defaults.
        threads: Worker threads (None: all CPUs).
        tables: Your own rows.
        inputs: Inputs shared by every value (``ROW.COLUMN`` keys as they are).
        **keys: The analysis's keys (``find="dx"``, ``options={"rifle": {"weapon": "rifle"}}``; a
            key that is a Python word by its keyword: ``within`` for a solve's ``in``).

    Returns:
        The analysis's result (``.to_json()`` where it has one).

    Raises:
        SimlabError: For an unknown analysis, a key it does not read, or a question without an answer
            (a solve's range that holds no crossing), in one line.

    Example:
        >>> analyse("solve", "hitech_tft", find="dx", within="6..20", target="p_hit=0.75",
        ...         inputs={"weapon": "assault rifle", "armor": "flak jacket", "range_m": 20}).answer.value
        15.0
    """
    from simlab.analyses import analysis_for, get_analysis
    from simlab.analyses.base import GivenReader
    from simlab.inputs.limits import Limits
    from simlab.output.words import Vocabulary

    analysis = get_analysis(name)
    named = {key.python: key.name for key in analysis.keys}
    analysis = analysis_for(analysis.table, {named[k]: v for k, v in keys.items() if k in named})  # its table's choice
    missing = analysis.missing()
    if missing is not None:
        raise SimlabError(f"a {name} needs {missing}: pip install {missing}")
    named = {key.python: key.name for key in analysis.keys}
    unknown = sorted(set(keys) - set(named))
    if unknown:
        raise SimlabError(f"unknown key {unknown[0]!r} of {name}: expected {', '.join(named)}")
    if trials is None and method != "exact":
        trials = analysis.trials
    setup = _balance_setup(system, kind or analysis.asks, battle, inputs or {}, method=method, trials=trials, seed=seed,
                           rules=rules, threads=threads, tables=tables)  # fmt: skip
    given = {named[key]: value for key, value in keys.items() if value is not None}
    ask = analysis.read(GivenReader(name, given, setup))
    result = analysis.answer(setup, ask, Limits(), lambda _: None, Vocabulary(battle=setup.battle))
    if isinstance(result, str):
        raise SimlabError(result)
    return result
