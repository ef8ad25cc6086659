"""``matchup``: attacks scored against defenders (:mod:`simlab.balance.matchup`), a ``[tournament]`` with defenders.

Its tidy rows (the input columns ``option`` and ``against``): the metric of each attack against
each defender with its interval, each attack's ``attacker_mix`` and ``in_attacker_mixes`` (against
``all``), each defender's ``defender_mix`` and ``in_defender_mixes`` (option ``all``), and
``value_of_the_game`` (``all`` against ``all``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from simlab.analyses import register
from simlab.analyses.base import Analysis, Listed, Reader, Said, tidy_row
from simlab.analyses.tournament import KEYS, fights, matrix_and_mix_charts, mix_figure, read_side
from simlab.balance.matchup import MATCHUP_TRIALS, check_matchup, matchup, matchup_mixes, matchup_stability
from simlab.balance.setup import Setup
from simlab.inputs.files import described
from simlab.inputs.limits import Limits
from simlab.output.balance_report import matchup_chart, matchup_table
from simlab.output.balance_sentences import matchup_sentences
from simlab.output.document import Table
from simlab.output.words import Vocabulary, sentence_case, the
from simlab.records import BalanceAsk, ChartSpec, ExperimentRun

__all__ = ["MATCHUP"]


def _read(reader: Reader) -> BalanceAsk:
    """``[tournament]`` with defenders: the attacks, the defenders, and the metric the attacker wants high."""
    setup = reader.setup
    options, names = read_side(reader, "every", "options")
    defenders, defender_names = read_side(reader, "against", "defenders")
    metric = reader.given.get("metric")
    if not isinstance(metric, str):
        raise reader.fail("metric", f"expected the metric the attacker wants high, got {described(metric)}")
    check_matchup(setup, options, defenders, names, defender_names)  # as the cells will ask them
    setup.check_metric(metric, [{**option, **defenders[0]} for option in options])  # each attack's price
    noun = str(reader.given.get("every", "option"))
    return BalanceAsk("tournament", metric, options=options, names=names, defenders=defenders,
                      defender_names=defender_names, noun=noun, analysis="matchup")  # fmt: skip


def _units(ask: BalanceAsk, setup: Setup) -> int:
    return len(ask.options) * len(ask.defenders)


def _answer(setup: Setup, ask: BalanceAsk, limits: Limits, counted: Callable[[Any], None], words: Vocabulary) -> Any:
    return matchup(setup, ask.options, ask.defenders, ask.metric, ask.names, ask.defender_names, limits=limits,
                   progress=counted)  # fmt: skip


def _rows(scored: Any, trials: int | None) -> list[dict[str, Any]]:
    """Each attack's metric against each defender, then both sides' mixes and the game's value."""
    trials = scored.trials
    nan = np.nan
    rows = []
    for i, attack in enumerate(scored.attackers):
        for j, defender in enumerate(scored.defenders):
            value, half = float(scored.value[i, j]), float(scored.half_width[i, j])
            low, high = (value - half, value + half) if trials is not None else (nan, nan)
            rows.append(
                {"cell": i, "option": attack, "against": defender, **tidy_row(scored.metric, value, low, high, trials)}
            )
    attack_mix, defence_mix, value_of_game = matchup_mixes(scored)
    attack_share, defence_share = matchup_stability(scored)
    for i, attack in enumerate(scored.attackers):
        for metric, value in (("attacker_mix", attack_mix[i]), ("in_attacker_mixes", attack_share[i])):
            rows.append({"cell": i, "option": attack, "against": "all",
                         **tidy_row(metric, float(value), nan, nan, trials)})  # fmt: skip
    for j, defender in enumerate(scored.defenders):
        for metric, value in (("defender_mix", defence_mix[j]), ("in_defender_mixes", defence_share[j])):
            rows.append({"cell": j, "option": "all", "against": defender,
                         **tidy_row(metric, float(value), nan, nan, trials)})  # fmt: skip
    rows.append({"cell": 0, "option": "all", "against": "all",
                 **tidy_row("value_of_the_game", value_of_game, nan, nan, trials)})  # fmt: skip
    return rows


def _said(run: ExperimentRun, words: Vocabulary) -> Said:
    ask, variants = run.experiment.balance, run.experiment.variants
    assert ask is not None
    metric = words.name(ask.metric, "metrics")
    question = (f"{the(metric)} of each attack ({', '.join(ask.names)}) against each defender "
                f"({', '.join(ask.defender_names)})")  # fmt: skip
    headline: list[str] = []
    for variant, _, scored in run.balance:
        lines = matchup_sentences(scored, words)
        lines = lines[: lines.index("")] if "" in lines else lines
        headline += [f"Under {variant}: {line}" for line in lines] if variants else lines
    table = Table(f"{sentence_case(the(metric))} of each attack against each defender, and both sides' mixes",
                  matchup_table(run.balance[0][2]))  # fmt: skip
    return Said(question, headline, [table])


def _charts(run: ExperimentRun, words: Vocabulary) -> list[tuple[ChartSpec, Any]]:
    return matrix_and_mix_charts(run, matchup_chart)


def _figures(scored: Any, words: Vocabulary) -> list[tuple[str, str, Any]]:
    caption = f"{words.name(scored.metric, 'metrics')} of each attack against each defender"
    return [("balance", caption, matchup_chart(scored)), mix_figure(scored)]


def _listed(scored: Any, words: Vocabulary) -> Listed:
    """Each attack's and each defender's share of its side's best mix."""
    attack, defence, _ = matchup_mixes(scored)
    rows = []
    for names, mix, side in ((scored.attackers, attack, "attack"), (scored.defenders, defence, "defender")):
        for name, share in zip(names, mix, strict=True):
            rows.append({"name": name, "words": name, "shown": f"{share:.0%}", "interval": "",
                         "doc": f"{side}: its share of the best mix"})  # fmt: skip
    return Listed("shares of the mixes", rows)


MATCHUP = register(
    Analysis(
        name="matchup",
        table="tournament",
        summary="attacks against defenders: dominated attacks and both sides' best mixes",
        keys=KEYS,
        read=_read,
        units=_units,
        columns=("option", "against"),
        answer=_answer,
        rows=_rows,
        said=_said,
        charts=_charts,
        claims=lambda given: not fights(given),
        trials=MATCHUP_TRIALS,
        sentences=matchup_sentences,
        own_cells=True,
        figures=_figures,
        listed=_listed,
        frame=lambda scored: pd.DataFrame(scored.value, index=list(scored.attackers), columns=list(scored.defenders)),
    )
)
