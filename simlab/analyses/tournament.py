"""``tournament``: every option against every other (:mod:`simlab.balance.tournament`).

Its tidy rows, one cell per option (the input columns ``option`` and ``against``): each ``score``
with its interval, then ``strength`` (with its interval), ``mean_score``, ``equilibrium`` and
``in_equilibria`` against ``all``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from simlab.analyses import register
from simlab.analyses.base import Analysis, Said, tidy_row
from simlab.balance.setup import Setup
from simlab.balance.tournament import equilibrium_stability, tournament, worth
from simlab.inputs.limits import Limits
from simlab.output.balance_report import matrix_chart, mix_chart, worth_rows
from simlab.output.balance_sentences import tournament_sentences
from simlab.output.document import Table
from simlab.output.words import Vocabulary, plural
from simlab.records import BalanceAsk, ChartSpec, ExperimentRun

__all__ = ["TOURNAMENT"]


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


def _charts(run: ExperimentRun, words: Vocabulary) -> list[tuple[ChartSpec, Any]]:
    charts = []
    for variant, _, fought in run.balance:
        under = f" under {variant}" if run.experiment.variants else ""
        charts.append((ChartSpec("heatmap", {"name": f"matrix_{variant}"}), matrix_chart(fought)))
        mix_title = None if not under else f"The equilibrium mix{under}"
        charts.append((ChartSpec("mix", {"name": f"mix_{variant}"}), mix_chart(fought, mix_title)))
    return charts


TOURNAMENT = register(
    Analysis(
        name="tournament",
        table="tournament",
        summary="every option against every other: dominated options, the metagame, strengths",
        columns=("option", "against"),
        answer=_answer,
        rows=_rows,
        said=_said,
        charts=_charts,
    )
)
