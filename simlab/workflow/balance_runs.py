"""Running a balance experiment (``kind = "solve"`` or ``"sensitivity"``) into the tidy table of every run.

A solve searches once per grid cell and rule set; a sensitivity ranks its knobs once per rule
set. Their answers go into the same tidy table as any experiment's (``cell``, ``variant``, the
inputs, ``method``, ``metric``, ``value``, ``ci_low``, ``ci_high``, ``trials``), so baselines,
``simlab regress`` and ``simlab compare`` treat them like any other:

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

import numpy as np
import pandas as pd

from simlab.asking.variants import Variant
from simlab.inputs.limits import Limits
from simlab.records import Experiment, ExperimentRun
from simlab.workflow.balance_asks import balance_setup

__all__ = ["run_balance", "SOLVE_METRICS", "SENSITIVITY_METRICS"]

#: The rows of each cell of a solve.
SOLVE_METRICS = ("found", "interpolated", "below", "reached", "crossings")
#: The rows of each knob of a sensitivity.
SENSITIVITY_METRICS = ("st", "s1", "mu_star", "sigma")


def _solve_rows(solution: Any, trials: int | None) -> list[dict[str, Any]]:
    """A solve's rows (:data:`SOLVE_METRICS`): its first crossing, or blanks when there is none."""
    nan = np.nan
    if solution is None or isinstance(solution, str):  # no crossing: its count alone (a table holds no blanks)
        return [_row("crossings", 0.0, nan, nan, trials)]
    answer = solution.answer
    interval = answer.interval or (nan, nan)

    def around(point: Any) -> tuple[float, float, float]:
        low, high = point.interval or (nan, nan)
        return point.value, low, high

    rows = [
        ("found", answer.value, *interval),
        ("interpolated", answer.interpolated, nan, nan),
        ("below", *around(answer.before)),
        ("reached", *around(answer.after)),
        ("crossings", float(len(solution.crossings)), nan, nan),
    ]
    return [_row(m, v, lo, hi, trials) for m, v, lo, hi in rows]


def _row(metric: str, value: float, low: float, high: float, trials: int | None) -> dict[str, Any]:
    """One tidy row; a sampled figure without an interval of its own (a count, an interpolation) gets [value, value].

    Such a figure is a deterministic function of the seed's streams: ``simlab regress`` then counts any change.
    """
    if trials is not None and (np.isnan(low) or np.isnan(high)):
        low = high = value
    return {"metric": metric, "value": value, "ci_low": low, "ci_high": high, "trials": trials}


def _sensitivity_rows(ranked: Any) -> list[tuple[str, dict[str, Any]]]:
    """A sensitivity's rows: per knob (in the order given), its shares and Morris measures."""
    nan = np.nan
    effects = {e.name: e for e in ranked.effects}
    rows = []
    for factor in ranked.factors:
        effect = effects[factor.name]
        measures = (
            ("st", effect.st, effect.st_conf),
            ("s1", effect.s1, effect.s1_conf),
            ("mu_star", effect.mu_star, effect.mu_star_conf),
            ("sigma", effect.sigma, None),
        )
        for metric, value, half in measures:
            if value is None:  # screened out by Morris: no Sobol share
                continue
            low, high = (nan, nan) if half is None else (value - half, value + half)
            rows.append((factor.name, _row(metric, value, low, high, ranked.trials)))
    return rows


def _tournament_rows(fought: Any) -> list[dict[str, Any]]:
    """A tournament's rows: each score (``option`` against ``against``), then each option's measures (against ``all``).

    Per option: ``strength`` (Bradley-Terry, with its interval), ``mean_score``, ``equilibrium`` (its
    share of the mix) and ``in_equilibria`` (its share of the resampled matrices' equilibria).
    """
    from simlab.balance.tournament import equilibrium_stability, worth

    names, rows = fought.names, []
    for i, option in enumerate(names):
        for j, against in enumerate(names):
            if i != j:
                score, half = float(fought.score[i, j]), float(fought.half_width[i, j])
                row = _row("score", score, score - half, score + half, fought.trials)
                rows.append({"cell": i, "option": option, "against": against, **row})
    mix, share = equilibrium_stability(fought)
    for i, valued in enumerate(worth(fought)):
        low, high = valued["strength_ci95"]
        measures = [
            _row("strength", valued["strength"], low, high, fought.trials),
            _row("mean_score", valued["mean_score"], np.nan, np.nan, fought.trials),
            _row("equilibrium", float(mix[i]), np.nan, np.nan, fought.trials),
            _row("in_equilibria", float(share[i]), np.nan, np.nan, fought.trials),
        ]
        rows += [{"cell": i, "option": names[i], "against": "all", **row} for row in measures]
    return rows


def _matchup_rows(scored: Any) -> list[dict[str, Any]]:
    """A matchup's rows: each attack's metric against each defender, then both sides' mixes and the game's value."""
    from simlab.balance.matchup import matchup_mixes, matchup_stability

    trials = scored.trials
    rows = []
    for i, attack in enumerate(scored.attackers):
        for j, defender in enumerate(scored.defenders):
            value, half = float(scored.value[i, j]), float(scored.half_width[i, j])
            low, high = (value - half, value + half) if trials is not None else (np.nan, np.nan)
            rows.append(
                {"cell": i, "option": attack, "against": defender, **_row(scored.metric, value, low, high, trials)}
            )
    attack_mix, defence_mix, value_of_game = matchup_mixes(scored)
    attack_share, defence_share = matchup_stability(scored)
    for i, attack in enumerate(scored.attackers):
        for metric, value in (("attacker_mix", attack_mix[i]), ("in_attacker_mixes", attack_share[i])):
            rows.append(
                {"cell": i, "option": attack, "against": "all", **_row(metric, float(value), np.nan, np.nan, trials)}
            )
    for j, defender in enumerate(scored.defenders):
        for metric, value in (("defender_mix", defence_mix[j]), ("in_defender_mixes", defence_share[j])):
            rows.append(
                {"cell": j, "option": "all", "against": defender, **_row(metric, float(value), np.nan, np.nan, trials)}
            )
    rows.append(
        {
            "cell": 0,
            "option": "all",
            "against": "all",
            **_row("value_of_the_game", value_of_game, np.nan, np.nan, trials),
        }
    )
    return rows


def run_balance(
    experiment: Experiment,
    *,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    base_variant: Variant | None = None,
) -> ExperimentRun:
    """Answer a balance experiment's question in every cell and rule set.

    Args:
        experiment: A validated experiment with ``balance``.
        threads: Sampling threads.
        progress: Called with 1 after each value (solve) or point (sensitivity) asked.
        base_variant: A variant in the place of the base rules (rows still say ``base``).
    """
    from simlab.balance.matchup import matchup
    from simlab.balance.sensitivity import parse_factor, sensitivity
    from simlab.balance.solve import Goal, NoCrossingError, solve
    from simlab.balance.tournament import tournament
    from simlab.balance.unknowns import find_unknown

    ask = experiment.balance
    assert ask is not None
    started = time.perf_counter()
    method = experiment.method
    inputs_columns = list(experiment.inputs)
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
            if ask.kind == "tournament" and ask.defenders:
                scored = matchup(setup, ask.options, ask.defenders, ask.metric, ask.names, ask.defender_names,
                                 limits=limits, progress=counted)  # fmt: skip
                answers.append((variant_name, inputs, scored))
                rows += [{**labels, **row, "method": method} for row in _matchup_rows(scored)]
                continue
            if ask.kind == "tournament":
                fought = tournament(setup, ask.options, ask.names, limits=limits, progress=counted, noun=ask.noun)
                answers.append((variant_name, inputs, fought))
                rows += [{**labels, **row, "method": method} for row in _tournament_rows(fought)]
                continue
            if ask.kind == "sensitivity":
                factors = [parse_factor(setup, f"{name}={value}") for name, value in ask.vary.items()]
                ranked = sensitivity(setup, ask.metric, factors, trajectories=ask.trajectories, base=ask.base,
                                     limits=limits, progress=counted)  # fmt: skip
                answers.append((variant_name, inputs, ranked))
                order = [f.name for f in ranked.factors]
                for factor, row in _sensitivity_rows(ranked):  # one cell per knob
                    rows.append({**labels, "cell": order.index(factor), "factor": factor, "method": method, **row})
                continue
            unknown = find_unknown(setup.owner, setup.question, str(ask.find), str(ask.within), ask.tol, "tol")
            if ask.target is not None:
                mine, goal = setup, Goal(ask.metric, ask.target)
            else:
                from simlab.output.words import vocabulary

                words = vocabulary(experiment)
                mine = setup.with_changes(inputs={**setup.inputs, **ask.a})
                other = setup.with_changes(inputs={**setup.inputs, **ask.b})
                goal = Goal(ask.metric, None, other, words.held(ask.a) or "A", words.held(ask.b) or "B")
            found: Any
            try:
                found = solve(mine, unknown, goal, limits=limits, tried=counted)
            except NoCrossingError as none:
                found = str(none)
            answers.append((variant_name, inputs, found))
            trials = None if method == "exact" else setup.trials_each
            rows += [{**labels, "method": method, **row} for row in _solve_rows(found, trials)]
    extra = {"sensitivity": ["factor"], "tournament": ["option", "against"]}.get(ask.kind, [])
    keys = ["cell", "variant", *inputs_columns, *extra]
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
