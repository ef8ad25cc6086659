"""An analysis experiment's table (``[solve]``, ``[sensitivity]``, ``[tournament]``), read as its analysis reads it.

The analysis (:mod:`simlab.analyses`) reads and checks its own keys on the first cell, as the
command line checks them; every mistake is located at its key's line.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from simlab.analyses import Analysis, analysis_for, get_analysis
from simlab.asking.variants import Variant
from simlab.balance.setup import Setup
from simlab.inputs.errors import SimlabError
from simlab.inputs.files import described
from simlab.records import BalanceAsk, Experiment
from simlab.workflow.experiment_checks import Checker, ExperimentError, MissingExtraError, read_table

__all__ = ["balance_keys", "chosen_analysis", "read_balance", "balance_setup", "balance_values"]


def balance_keys(table: str) -> tuple[str, ...]:
    """The keys of an analysis table: ``asks``, then every key of the analyses that state it."""
    from simlab.analyses import tables

    keys = ["asks"]
    for analysis in tables()[table]:
        keys += [key.name for key in analysis.keys if key.name not in keys]
    return tuple(keys)


def chosen_analysis(check: Checker, data: Mapping[str, Any], table: str) -> Analysis:
    """The analysis a table states, its keys checked first (they choose it)."""
    given = read_table(check, data, table)
    valid = balance_keys(table)
    for key in given:
        if key not in valid:
            raise check.unknown(table, key, "key", valid)
    return analysis_for(table, given)


@dataclasses.dataclass(frozen=True)
class _ExperimentReader:
    """What an analysis reads its table with, in an experiment file: mistakes located at their lines."""

    check: Checker
    table_name: str
    given: Mapping[str, Any]
    setup: Setup
    grid: Mapping[str, Any]

    def fail(self, key: str, message: str, table: str | None = None) -> Exception:
        return self.check.fail(self.table_name if table is None else table, key, message)

    def named(self, key: str) -> str:
        return key

    def text(self, key: str, example: str) -> str:
        value = self.given.get(key)
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise self.fail(key, f"expected {example}, got {described(value)}")
        return str(value)

    def table(self, key: str) -> dict[str, Any]:
        return read_table(self.check, self.given, key)


def read_balance(check: Checker, data: Mapping[str, Any], table: str, experiment: Experiment) -> BalanceAsk:
    """The experiment's analysis table, read by its analysis on the first cell as the command line would."""
    analysis = chosen_analysis(check, data, table)
    missing = analysis.missing()
    if missing is not None:
        line = check.lines.get((table, "")) or check.lines.get(("", "kind"))
        raise MissingExtraError(check.path, line, "kind", f"a {analysis.name} needs {missing}: pip install {missing}")
    setup = balance_setup(experiment, dict(next(experiment.cells())))
    reader = _ExperimentReader(check, table, read_table(check, data, table), setup, experiment.grid)
    try:
        return analysis.read(reader)
    except ExperimentError:
        raise
    except SimlabError as exc:
        raise check.fail(table, "", str(exc)) from None


def balance_setup(
    experiment: Experiment, inputs: Mapping[str, Any], variant: Variant | None = None, cell: int = 0
) -> Setup:
    """The :class:`~simlab.balance.setup.Setup` of one cell of an analysis experiment under ``variant``."""
    return Setup(
        system=experiment.system, kind=experiment.kind, inputs=dict(inputs), rules=dict(experiment.rules),
        battle=experiment.battle, variant=variant, tables=dict(experiment.tables),
        exact=experiment.method == "exact", trials=experiment.trials, seed=experiment.seed, cell=cell,
        source="experiment",
    )  # fmt: skip


def balance_values(experiment: Experiment) -> int:
    """The most values, points, seatings or cells one cell of an analysis experiment asks."""
    ask = experiment.balance
    assert ask is not None
    return get_analysis(ask.analysis).units(ask, balance_setup(experiment, dict(next(experiment.cells()))))
