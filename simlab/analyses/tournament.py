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
from simlab.analyses.base import Analysis, Key, Listed, Reader, Said, tidy_row
from simlab.balance.options import every_row, parse_options
from simlab.balance.setup import Setup
from simlab.balance.tournament import TOURNAMENT_TRIALS, check_options, equilibrium_stability, tournament, worth
from simlab.inputs.errors import SimlabError
from simlab.inputs.limits import Limits
from simlab.output.balance_report import matrix_chart, mix_chart, worth_rows
from simlab.output.balance_sentences import tournament_sentences
from simlab.output.document import Table
from simlab.output.words import Vocabulary, plural
from simlab.records import BalanceAsk, ChartSpec, ExperimentRun

__all__ = ["TOURNAMENT", "KEYS", "read_side", "fights", "matrix_and_mix_charts", "mix_figure"]


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
    if not setup.question.input_form.sided:
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


def mix_figure(result: Any) -> tuple[str, str, Any]:
    """The equilibrium as bars (both sides' of a matchup), shown beside the matrix."""
    return "mix", "The equilibrium mix, and how often each option enters it", mix_chart(result)


def _figures(fought: Any, words: Vocabulary) -> list[tuple[str, str, Any]]:
    caption = "The chance of each row to beat each column, the strongest first"
    return [("balance", caption, matrix_chart(fought)), mix_figure(fought)]


def _listed(fought: Any, words: Vocabulary) -> Listed:
    """Each option's strength with its interval, and its mean score."""
    rows = []
    for valued in worth(fought):
        low, high = valued["strength_ci95"]
        rows.append({"name": valued["option"], "words": valued["option"], "shown": f"{valued['strength']:.2f}",
                     "interval": f"{low:.2f} – {high:.2f}",
                     "doc": f"mean score {valued['mean_score']:.3f}"})  # fmt: skip
    return Listed("strengths", rows)


def _named_options(texts: list[str], where: str) -> dict[str, dict[str, Any]]:
    """Options ``[NAME:] KEY=VALUE;KEY=VALUE`` as a table of them by name, each name once."""
    chosen, names = parse_options(texts, where)
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise SimlabError(f"{where}: {twice[0]!r} is named twice: name each option once (NAME: KEY=VALUE)")
    return dict(zip(names, chosen, strict=True))


#: The keys of ``[tournament]`` (a tournament's and a matchup's), ``simlab tournament``'s options, the page's fields.
KEYS = (
    Key("every", "every row of this table as an option (ship)", "INPUT", leads=True, names_input=True),
    Key("options", "or the options: [NAME:] KEY=VALUE;KEY=VALUE each", "[NAME:]KEY=VALUE[;KEY=VALUE]",
        flag="option", many="|", convert=_named_options, leads=True),
    Key("against", "attacks: score the options against every row of this table (armor)", "INPUT",
        names_input=True),
    Key("defenders", "or against these defenders: [NAME:] KEY=VALUE;KEY=VALUE each", "[NAME:]KEY=VALUE[;KEY=VALUE]",
        flag="defender", many="|", convert=_named_options),
    Key("metric", "attacks: what the attacker wants high", "METRIC", choices="metrics"),
)  # fmt: skip


TOURNAMENT = register(
    Analysis(
        name="tournament",
        table="tournament",
        summary="every option against every other: dominated options, the metagame, strengths",
        keys=KEYS,
        read=_read,
        units=_units,
        columns=("option", "against"),
        answer=_answer,
        rows=_rows,
        said=_said,
        charts=_charts,
        claims=fights,
        asks="duel",
        trials=TOURNAMENT_TRIALS,
        exact=False,
        sentences=lambda fought, words: tournament_sentences(fought),
        own_cells=True,
        figures=_figures,
        listed=_listed,
        frame=lambda fought: pd.DataFrame(fought.score, index=list(fought.names), columns=list(fought.names)),
    )
)
