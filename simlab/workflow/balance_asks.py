"""A balance experiment's ``[solve]``, ``[sensitivity]`` or ``[tournament]``, checked as the command line checks it."""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from typing import Any

from simlab.asking.variants import Variant
from simlab.inputs.errors import SimlabError
from simlab.records import (
    BalanceAsk,
    Experiment,
)
from simlab.workflow.experiment_checks import (
    Checker,
    ExperimentError,
    MissingExtraError,
    describe,
    read_table,
)

__all__ = [
    "BALANCE_KEYS",
    "read_balance",
    "balance_setup",
    "balance_values",
]


#: The keys of ``[solve]`` and ``[sensitivity]``.
BALANCE_KEYS = {
    "solve": ("asks", "find", "in", "target", "equal", "a", "b", "tol"),
    "sensitivity": ("asks", "metric", "vary", "trajectories", "base"),
    "tournament": ("asks", "every", "options", "against", "defenders", "metric"),
}


def read_balance(check: Checker, data: Mapping[str, Any], kind: str, experiment: Experiment) -> BalanceAsk:
    """The experiment's ``[solve]`` or ``[sensitivity]``, checked on its first cell as the command line would."""
    from simlab.balance.sensitivity import DEFAULT_BASE, DEFAULT_TRAJECTORIES, parse_factor
    from simlab.balance.solve import parse_target
    from simlab.balance.unknowns import find_unknown

    given = read_table(check, data, kind)
    for key in given:
        if key not in BALANCE_KEYS[kind]:
            raise check.unknown(kind, key, "key", BALANCE_KEYS[kind])
    setup = balance_setup(experiment, dict(next(experiment.cells())))

    def text(key: str, example: str) -> str:
        value = given.get(key)
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise check.fail(kind, key, f"expected {example}, got {describe(value)}")
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
                    raise check.fail(kind, key, f"expected a whole number, got {describe(sizes[key])}")
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
        sides = {side: read_table(check, given, side) for side in ("a", "b")}
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
    check: Checker, given: Mapping[str, Any], setup: Any, every_key: str, table_key: str
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


def _tournament_ask(check: Checker, given: Mapping[str, Any], setup: Any) -> BalanceAsk:
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
            raise check.fail("tournament", "metric", f"{expected}, got {describe(metric)}")
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
