"""``tournament``: every option against every other (:mod:`simlab.balance.tournament`).

Its tidy rows, one cell per option (the input columns ``option`` and ``against``): each ``score``
with its interval, then ``strength`` (with its interval), ``mean_score``, ``equilibrium`` and
``in_equilibria`` against ``all``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from simlab.analyses import register
from simlab.analyses.base import Analysis, Reader, Said, tidy_row
from simlab.balance.options import every_row
from simlab.balance.setup import Setup
from simlab.balance.tournament import check_options, equilibrium_stability, tournament, worth
from simlab.inputs.errors import SimlabError
from simlab.inputs.limits import Limits
from simlab.output.balance_report import matrix_chart, mix_chart, worth_rows
from simlab.output.balance_sentences import tournament_sentences
from simlab.output.document import Table
from simlab.output.words import Vocabulary, plural
from simlab.records import BalanceAsk, ChartSpec, ExperimentRun

__all__ = ["TOURNAMENT", "read_side", "fights", "matrix_and_mix_charts"]


def read_side(reader: Reader, every_key: str, table_key: str) -> tuple[tuple[Mapping[str, Any], ...], tuple[str, ...]]:
    """One side's options: every row of the table ``every_key`` names, or the tables of ``table_key`` by name."""
    given = reader.given
    if (every_key in given) == (table_key in given):
        raise reader.fail(every_key, f'give one of {every_key} = "INPUT" and [tournament.{table_key}]')
    if every_key in given:
        try:
            options, names = every_row(reader.setup, str(given[every_key]), every_key)
        except SimlabError as exc:
            raise reader.fail(every_key, str(exc).partition(": ")[2]) from None
        return tuple(options), tuple(names)
    table = given[table_key]
    least = 2 if table_key == "options" else 1
    if not isinstance(table, dict) or len(table) < least or not all(isinstance(v, dict) for v in table.values()):
        expected = f"expected {'two tables or more' if least == 2 else 'one table or more'} of inputs"
        raise reader.fail(table_key, f"{expected}: [tournament.{table_key}.NAME]")
    return tuple(dict(v) for v in table.values()), tuple(table)


def fights(given: Mapping[str, Any]) -> bool:
    """Whether a ``[tournament]`` fights its options against each other (else it scores attacks against defenders)."""
    return "against" not in given and "defenders" not in given


def _read(reader: Reader) -> BalanceAsk:
    """``[tournament]``: every row of ``every``, or ``[tournament.options]``, each checked on both sides."""
    setup = reader.setup
    options, names = read_side(reader, "every", "options")
    if setup.question.form not in ("sides", "battle"):
        raise reader.fail("asks", f"a tournament fights duels or battles, not {setup.kind!r}")
    if "metric" in reader.given:
        raise reader.fail("metric", "a tournament scores the chance to win; metric belongs to a matchup")
    check_options(setup, options, names)  # each option on both sides, as the seatings will ask it
    noun = str(reader.given.get("every", "option"))
    return BalanceAsk("tournament", "p_a_wins", options=options, names=names, noun=noun, analysis="tournament")


def _units(ask: BalanceAsk, setup: Setup) -> int:
    return len(ask.options) * (len(ask.options) - 1)


def _answer(setup: Setup, ask: BalanceAsk, limits: Limits, counted: Callable[[Any], None], words: Vocabulary) -> Any:
    return tournament(setup, ask.options, ask.names, limits=limits, progress=counted, noun=ask.noun)


def _rows(fought: Any, trials: int | None) -> list[dict[str, Any]]:
    """Each score (``option`` against ``against``), then each option's measures (against ``all``)."""
    names, rows = fought.names, []
    for i, option in enumerate(names):
        for j, against in enumerate(names):
            if i != j:
                score, half = float(fought.score[i, j]), float(fought.half_width[i, j])
                row = tidy_row("score", score, score - half, score + half, fought.trials)
                rows.append({"cell": i, "option": option, "against": against, **row})
    mix, share = equilibrium_stability(fought)
    for i, valued in enumerate(worth(fought)):
        low, high = valued["strength_ci95"]
        measures = [
            tidy_row("strength", valued["strength"], low, high, fought.trials),
            tidy_row("mean_score", valued["mean_score"], np.nan, np.nan, fought.trials),
            tidy_row("equilibrium", float(mix[i]), np.nan, np.nan, fought.trials),
            tidy_row("in_equilibria", float(share[i]), np.nan, np.nan, fought.trials),
        ]
        rows += [{"cell": i, "option": names[i], "against": "all", **row} for row in measures]
    return rows


def _said(run: ExperimentRun, words: Vocabulary) -> Said:
    ask, variants = run.experiment.balance, run.experiment.variants
    assert ask is not None
    headline: list[str] = []
    for variant, _, fought in run.balance:
        lines = tournament_sentences(fought)
        lines = lines[: lines.index("")] if "" in lines else lines
        headline += [f"Under {variant}: {line}" for line in lines] if variants else lines
    worth_table = pd.DataFrame(worth_rows(run.balance[0][2])).set_index("option")
    table = Table(f"What the {plural(ask.noun)} are worth: strength, mean score, the metagame, and against their "
                  "prices", worth_table)  # fmt: skip
    return Said(f"every {ask.noun} against every other: {', '.join(ask.names)}", headline, [table])


def matrix_and_mix_charts(run: ExperimentRun, matrix: Callable[[Any], Any]) -> list[tuple[ChartSpec, Any]]:
    """Each rule set's matrix (drawn by ``matrix``) and its equilibrium mix as bars."""
    charts = []
    for variant, _, result in run.balance:
        under = f" under {variant}" if run.experiment.variants else ""
        charts.append((ChartSpec("heatmap", {"name": f"matrix_{variant}"}), matrix(result)))
        mix_title = None if not under else f"The equilibrium mix{under}"
        charts.append((ChartSpec("mix", {"name": f"mix_{variant}"}), mix_chart(result, mix_title)))
    return charts


def _charts(run: ExperimentRun, words: Vocabulary) -> list[tuple[ChartSpec, Any]]:
    return matrix_and_mix_charts(run, matrix_chart)


TOURNAMENT = register(
    Analysis(
        name="tournament",
        table="tournament",
        summary="every option against every other: dominated options, the metagame, strengths",
        keys=("every", "options", "against", "defenders", "metric"),
        read=_read,
        units=_units,
        columns=("option", "against"),
        answer=_answer,
        rows=_rows,
        said=_said,
        charts=_charts,
        claims=fights,
        asks="duel",
    )
)
