"""Running an analysis experiment (``kind = "solve"``, ``"sensitivity"``, ``"tournament"``) into the tidy table.

The analysis (:mod:`simlab.analyses`) answers once per grid cell and rule set. Its answers go into
the same tidy table as any experiment's (``cell``, ``variant``, the inputs, ``method``, ``metric``,
``value``, ``ci_low``, ``ci_high``, ``trials``), so baselines, ``simlab regress`` and ``simlab
compare`` treat them like any other. Each analysis's module says its rows:

* a solve's rows: ``found`` (the answer, with its 95 % interval where sampled), ``interpolated``
  (the crossing between the two values around it), ``below`` and ``reached`` (the metric at the
  value short of it and at it, with their intervals), ``crossings`` (how many; only this row,
  0, when the range holds none);
* a tournament's rows, one cell per option (the input columns ``option`` and ``against``): each
  ``score`` with its interval, then ``strength`` (with its interval), ``mean_score``,
  ``equilibrium`` and ``in_equilibria`` against ``all``;
* a matchup's rows (attacks against defenders, the same input columns): the metric of each attack
  against each defender with its interval, each attack's ``attacker_mix`` and ``in_attacker_mixes``
  (against ``all``), each defender's ``defender_mix`` and ``in_defender_mixes`` (option ``all``),
  and ``value_of_the_game`` (``all`` against ``all``);
* a sensitivity's rows, one cell per knob (the input column ``factor``): ``st`` and ``s1`` (the
  Sobol total and first-order shares, their bootstrap intervals as ``ci_low``/``ci_high``; none
  for a knob screened out), ``mu_star`` and ``sigma`` (Morris).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import pandas as pd

from simlab.analyses import analysis_of
from simlab.asking.variants import Variant
from simlab.inputs.limits import Limits
from simlab.output.words import vocabulary
from simlab.records import Experiment, ExperimentRun
from simlab.workflow.balance_asks import balance_setup

__all__ = ["run_balance"]


def run_balance(
    experiment: Experiment,
    *,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    base_variant: Variant | None = None,
) -> ExperimentRun:
    """Answer an analysis experiment's question in every cell and rule set.

    Args:
        experiment: A validated experiment with ``balance``.
        threads: Sampling threads.
        progress: Called with 1 after each value, point, seating or cell asked.
        base_variant: A variant in the place of the base rules (rows still say ``base``).
    """
    ask = experiment.balance
    assert ask is not None
    analysis = analysis_of(ask)
    started = time.perf_counter()
    method = experiment.method
    inputs_columns = list(experiment.inputs)
    words = vocabulary(experiment)
    rows: list[dict[str, Any]] = []
    answers: list[tuple[str, Mapping[str, Any], Any]] = []
    limits = Limits(max_trials=1 << 62)  # the experiment's trials were checked when it was loaded

    def counted(_: Any) -> None:
        if progress is not None:
            progress(1)

    for variant_name, variant in experiment.rule_sets(base_variant):
        for cell, inputs in experiment.kept_cells():
            setup = balance_setup(experiment, inputs, variant, cell).with_changes(threads=threads)
            labels = {"cell": cell, "variant": variant_name, **{k: inputs[k] for k in inputs_columns}}
            found = analysis.answer(setup, ask, limits, counted, words)
            answers.append((variant_name, inputs, found))
            trials = None if method == "exact" else setup.trials_each
            rows += [{**labels, "method": method, **row} for row in analysis.rows(found, trials)]
    keys = ["cell", "variant", *inputs_columns, *analysis.columns]
    table = pd.DataFrame(rows, columns=[*keys, "method", "metric", "value", "ci_low", "ci_high", "trials"])
    table["trials"] = table["trials"].astype("Int64")
    empty = pd.DataFrame(columns=keys)
    return ExperimentRun(
        experiment=experiment,
        table=table,
        distributions=empty,
        incapacitation=empty,
        marginals=empty,
        seconds=time.perf_counter() - started,
        balance=tuple(answers),
    )
