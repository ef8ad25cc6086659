"""``tune``: the change set that balances a game of options, proved on fresh dice (:mod:`simlab.balance.tune`).

Its table is ``[tune]``: the options as a tournament's (``every`` or ``[tune.options]``), the knobs
(``knob``, ``knob_each``), the ``goal`` and the search's sizes. Its tidy rows, one cell per option
(the input column ``option``): each knob's value now and proposed (``from``, ``to``), each option's
share of the equilibrium and what it scores against the other side's mix (``against_mix``) on the
proof's streams, and against ``all`` the
proposal's ``distance`` to the goal, ``goal_met`` (1 or 0) and the search's ``evaluations``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simlab.analyses import register
from simlab.analyses.base import Analysis, Key, Listed, Reader, Said, tidy_row
from simlab.analyses.tournament import KEYS as TOURNAMENT_KEYS
from simlab.analyses.tournament import fights, read_side
from simlab.balance.goals import DEFAULT_MIN_SHARE, DEFAULT_TOL, GOALS, Goal, mix_of, parse_goal
from simlab.balance.knobs import parse_knobs
from simlab.balance.matchup import check_matchup
from simlab.balance.setup import Setup
from simlab.balance.tournament import TOURNAMENT_TRIALS, check_options
from simlab.balance.tune import (
    DEFAULT_BUDGET,
    VERIFY_TRIALS_FACTOR,
    Defence,
    Tuning,
    check_tune,
    tune,
    tuned_toml,
    tuned_variant,
)
from simlab.balance.unknowns import UnknownKeyError
from simlab.inputs.errors import SimlabError, speaking
from simlab.inputs.files import described
from simlab.inputs.limits import Limits
from simlab.output.balance_report import matchup_chart, matrix_chart
from simlab.output.document import Table
from simlab.output.tune_sentences import tune_sentences
from simlab.output.words import Vocabulary
from simlab.records import BalanceAsk, ChartSpec, ExperimentRun

__all__ = ["TUNE", "TUNE_MATCHUP", "KEYS"]

#: Settings of a tune, each with its default and what it must be.
_NUMBERS: dict[str, tuple[Any, type | tuple[type, ...], str]] = {
    "min_share": (DEFAULT_MIN_SHARE, (int, float), "a share such as 0.1"),
    "tol": (DEFAULT_TOL, (int, float), "a number such as 0.05"),
    "budget": (DEFAULT_BUDGET, int, "a whole number of tournaments such as 60"),
    "verify_seed": (None, int, "a whole number"),
    "verify_trials": (None, int, "a whole number of duels a seating"),
}


def _texts(reader: Reader, key: str) -> list[str]:
    """A list of knobs as given: one text or several."""
    value = reader.given.get(key, [])
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise reader.fail(key, f"expected KEY=LOW..HIGH texts, got {described(value)}")
    return list(values)


def _read(reader: Reader) -> BalanceAsk:
    """``[tune]``: the options, each checked on both sides; the knobs, the goal and the sizes."""
    setup = reader.setup
    options, names = read_side(reader, "every", "options")
    defenders: tuple[Mapping[str, Any], ...] = ()
    defender_names: tuple[str, ...] = ()
    metric = "score"
    if fights(reader.given):
        if not setup.question.input_form.sided:
            raise reader.fail("asks", f"a tune fights tournaments of duels or battles, not {setup.kind!r}")
        check_options(setup, options, names)
    else:  # attacks tuned against defenders, scored by the metric the attacker wants high
        defenders, defender_names = read_side(reader, "against", "defenders")
        metric = reader.text("metric", "the metric the attacker wants high, such as p_incapacitated")
        check_matchup(setup, options, defenders, names, defender_names)
        setup.check_metric(metric, [{**option, **defenders[0]} for option in options])
    settings: dict[str, Any] = {}
    for key, (default, kind, example) in _NUMBERS.items():
        value = reader.given.get(key, default)
        if value is not None and (isinstance(value, bool) or not isinstance(value, kind)):
            raise reader.fail(key, f"expected {example}, got {described(value)}")
        settings[key] = value
    settings["knob"], settings["knob_each"] = _texts(reader, "knob"), _texts(reader, "knob_each")
    try:
        parse_knobs(setup, options, names, settings["knob"], settings["knob_each"], reader.named)
    except UnknownKeyError as exc:
        raise reader.fail(exc.key, exc.detail) from None
    settings["goal"] = reader.text("goal", " or ".join(GOALS)) if "goal" in reader.given else "viable"
    try:
        parse_goal(settings["goal"], names, float(settings["min_share"]), float(settings["tol"]),
                   reader.named("goal"), defender_names or None)  # fmt: skip
    except SimlabError as exc:
        raise reader.fail("goal", str(exc).replace(f" for {reader.named('goal')}", "")) from None
    trials = settings["verify_trials"] or VERIFY_TRIALS_FACTOR * max(1, setup.trials_each)
    try:  # the sizes: a budget or a proof that is no number, or over the caps
        with speaking({"--budget": reader.named("budget"), "--verify-trials": reader.named("verify_trials")}):
            check_tune(setup, len(options), settings["budget"], trials, None, len(defenders))
    except SimlabError as exc:
        raise reader.fail("budget", str(exc).replace(f" for {reader.named('budget')}", "")) from None
    settings["write"] = str(reader.given["write"]) if "write" in reader.given else None
    noun = str(reader.given.get("every", "option"))
    return BalanceAsk("tune", metric, options=options, names=names, defenders=defenders, defender_names=defender_names,
                      noun=noun, analysis="tune" if not defenders else "tune_matchup", settings=settings)  # fmt: skip


def _units(ask: BalanceAsk, setup: Setup) -> int:
    return int(ask.settings["budget"]) + 1


def goal_of(ask: BalanceAsk) -> Goal:
    """The ask's goal, as its reader checked it."""
    settings = ask.settings
    return parse_goal(settings["goal"], ask.names, float(settings["min_share"]), float(settings["tol"]),
                      against=ask.defender_names or None)  # fmt: skip


def _answer(setup: Setup, ask: BalanceAsk, limits: Limits, counted: Callable[[Any], None], words: Vocabulary) -> Any:
    settings = ask.settings
    knobs = parse_knobs(setup, ask.options, ask.names, settings["knob"], settings["knob_each"])
    against = Defence(ask.defenders, ask.defender_names, ask.metric) if ask.defenders else None
    tuned = tune(setup, ask.options, ask.names, knobs, goal_of(ask), budget=settings["budget"],
                 verify_seed=settings["verify_seed"], verify_trials=settings["verify_trials"], limits=limits,
                 progress=counted, noun=ask.noun, against=against)  # fmt: skip
    if settings.get("write"):  # a variant where the changes are one, else the experiment of the tournament proposed
        from simlab.output.atomic import staged_file

        with staged_file(Path(settings["write"])) as staged:
            staged.write_text(tuned_variant(tuned, setup) or tuned_toml(tuned, setup), encoding="utf-8")
    return tuned


def _rows(tuned: Tuning, trials: int | None) -> list[dict[str, Any]]:
    """Each knob's value now and proposed; each option's share and score against the mix on fresh dice; the verdict.

    A sampled tune's rows are functions of its seed's streams, each with the trials of the proof's seatings.
    """
    rows = []
    verified = tuned.verified
    trials = verified.trials if trials is not None else None
    for knob, value in zip(tuned.knobs, tuned.proposal, strict=True):
        for metric, shown in (("from", knob.start), ("to", knob.value(value))):
            rows.append({"cell": 0, "option": knob.name, **tidy_row(metric, float(shown), np.nan, np.nan, trials)})
    mix, scored, _ = mix_of(verified)
    for i, name in enumerate(tuned.names):
        rows.append({"cell": 0, "option": name, **tidy_row("equilibrium", float(mix[i]), np.nan, np.nan, trials)})
        rows.append({"cell": 0, "option": name, **tidy_row("against_mix", float(scored[i]), np.nan, np.nan, trials)})
    for metric, value in (("distance", tuned.distance), ("goal_met", float(tuned.met)),
                          ("evaluations", float(tuned.evaluations))):  # fmt: skip
        rows.append({"cell": 0, "option": "all", **tidy_row(metric, value, np.nan, np.nan, trials)})
    return rows


def _said(run: ExperimentRun, words: Vocabulary) -> Said:
    ask, variants = run.experiment.balance, run.experiment.variants
    assert ask is not None
    headline: list[str] = []
    tables = []
    for variant, _, tuned in run.balance:
        lines = tune_sentences(tuned, words)
        lines = lines[: lines.index("")] if "" in lines else lines
        headline += [f"Under {variant}: {line}" for line in lines] if variants else lines
        changes = pd.DataFrame([{"knob": k.name, "now": k.shown(k.start), "proposed": k.shown(v)}
                                for k, v in zip(tuned.knobs, tuned.proposal, strict=True)])  # fmt: skip
        under = f" under {variant}" if variants else ""
        tables.append(Table(f"The knobs{under}: now and proposed", changes.set_index("knob")))
        pareto = pd.DataFrame([{"knobs changed": c, "distance": round(d, 4)} for c, d, _ in tuned.pareto])
        title = f"Fewer changes against the distance to the goal{under}"
        tables.append(Table(title, pareto.set_index("knobs changed")))
    return Said(f"what to change so that {goal_of(ask).words}: {', '.join(ask.names)}", headline, tables)


def _matrices(tuned: Tuning) -> list[tuple[str, str, Any]]:
    before = "The matrix now (rows beat columns)"
    after = f"The matrix proposed, on fresh dice (seed {tuned.verified.seed})"
    chart = matchup_chart if tuned.against is not None else matrix_chart
    return [("after", after, chart(tuned.verified, after)), ("before", before, chart(tuned.before, before))]


def _charts(run: ExperimentRun, words: Vocabulary) -> list[tuple[ChartSpec, Any]]:
    charts = []
    for variant, _, tuned in run.balance:
        for name, _, figure in _matrices(tuned):
            charts.append((ChartSpec("heatmap", {"name": f"{name}_{variant}"}), figure))
    return charts


def _listed(tuned: Tuning, words: Vocabulary) -> Listed:
    """Each knob: its value proposed, and where it stands now."""
    rows = [{"name": k.name, "words": k.name, "shown": k.shown(v), "interval": "", "doc": f"now {k.shown(k.start)}"}
            for k, v in zip(tuned.knobs, tuned.proposal, strict=True)]  # fmt: skip
    return Listed("knobs", rows)


def _knob_texts(texts: list[str], where: str) -> list[str]:
    return list(texts)


def _number(texts: list[str], where: str) -> Any:
    from simlab.text import whole_number

    text = texts[-1]
    found = whole_number(text)
    if found is not None:
        return found
    try:
        return float(text)
    except ValueError:
        return text


#: The keys of ``[tune]``, ``simlab tune``'s options, the page's fields.
KEYS = (
    *TOURNAMENT_KEYS,
    Key("knob", "what may change: [OPTION:]KEY=LOW..HIGH (an input, rule parameter or ROW.COLUMN)",
        "[OPTION:]KEY=LOW..HIGH", many="|", convert=_knob_texts, leads=True),
    Key("knob_each", "every option its own copy of KEY=LOW..HIGH (ship.cost=10..200)", "KEY=LOW..HIGH",
        flag="knob-each", many="|", convert=_knob_texts, leads=True),
    Key("goal", f"what to reach: {', '.join(GOALS)} (default viable)", "GOAL"),
    Key("min_share", f"viable: the least share of the mix each option takes (default {DEFAULT_MIN_SHARE})",
        "SHARE", flag="min-share", convert=_number),
    Key("tol", f"even, target: how near each score; fair-price: how level (default {DEFAULT_TOL})", "TOL",
        convert=_number),
    Key("budget", f"tournaments the search may fight (default {DEFAULT_BUDGET})", "N", convert=_number),
    Key("verify_seed", "the proof's seed (default: the seed plus one)", "SEED", flag="verify-seed", convert=_number,
        web=False),
    Key("verify_trials", f"the proof's duels a seating (default {VERIFY_TRIALS_FACTOR} times the search's)", "N",
        flag="verify-trials", convert=_number, web=False),
    Key("write", "write the proposal: a variant (--variant reads it) where its changes are table rows or rules, "
        "else an experiment that simlab run fights again", "FILE.toml", web=False),
)  # fmt: skip


def _analysis(name: str, asks: str, claims: Callable[[Mapping[str, Any]], bool], summary: str) -> Analysis:
    """A tune of a tournament of options, or of attacks against defenders: the same keys, reader and answer."""
    return Analysis(
        name=name,
        table="tune",
        summary=summary,
        keys=KEYS,
        read=_read,
        units=_units,
        columns=("option",),
        answer=_answer,
        rows=_rows,
        said=_said,
        charts=_charts,
        asks=asks,
        trials=TOURNAMENT_TRIALS // 5,
        exact=asks == "attack",
        own_cells=True,
        sentences=tune_sentences,
        figures=lambda tuned, words: _matrices(tuned),
        listed=_listed,
        frame=lambda tuned: pd.DataFrame(_rows(tuned, tuned.verified.trials)),
        succeeded=lambda tuned: bool(tuned.met),
        claims=claims,
    )


TUNE = register(_analysis("tune", "duel", fights, "the changes that balance a game of options, proved on fresh dice"))
TUNE_MATCHUP = register(_analysis("tune_matchup", "attack", lambda given: not fights(given),
                                  "or of attacks against defenders"))  # fmt: skip
