"""The report of a balance experiment (``kind = "solve"`` or ``"sensitivity"``): the answer first.

A solve's report leads with the value found in every cell ("Against no suppressing machinegunners,
4 riflemen are the fewest for which the fireteam's chance to win reaches 0.75: 0.8438 [0.8387,
0.8488]; 3 riflemen: ..."), its key chart shows every search with the target dashed, and its table
gives one row per cell. A sensitivity's report leads with the ranking, its key chart is the shares
with their intervals, and its table the Morris and Sobol measures of every knob.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simlab.output import plots
from simlab.output.document import Chart, Report, Table, in_words
from simlab.output.saving import save_charts
from simlab.output.words import Vocabulary, plural, sentence_case, the, vocabulary
from simlab.records import ChartSpec, ExperimentRun

__all__ = [
    "draw_balance_charts",
    "build_balance_report",
    "search_chart",
    "shares_chart",
    "matrix_chart",
    "matchup_chart",
    "mix_chart",
]


def search_chart(solution: Any, title: str | None = None) -> Any:
    """A search as a chart: the metric at every value tried, the target dashed, the answers marked."""
    values = [c.value for c in solution.crossings]
    goal = solution.goal
    return plots.search(solution.tried_frame(), solution.unknown.name, goal.metric, goal.target, values, title)


def matrix_chart(fought: Any, title: str | None = None) -> Any:
    """A tournament's matrix as a heatmap, the strongest options first (rows beat columns), dominated rows marked."""
    from simlab.balance.strengths import strengths
    from simlab.balance.tournament import dominated

    order = [int(i) for i in np.argsort(-strengths(fought.score))]
    beaten = {k for k, _ in dominated(fought)}
    shown = [f"{name} (dominated)" if i in beaten else name for i, name in enumerate(fought.names)]
    rows = [  # the diagonal blank, so that rows and columns keep the same order
        {fought.noun: shown[i], "against": fought.names[j], "method": "monte_carlo", "metric": "score",
         "variant": "base", "value": np.nan if i == j else float(fought.score[i, j]), "ci_low": np.nan,
         "ci_high": np.nan}
        for i in order for j in order
    ]  # fmt: skip
    heading = title or "The chance of each row to beat each column (draws half), the strongest first"
    return plots.heatmap(pd.DataFrame(rows), "score", fought.noun, "against", title=heading)


def matchup_chart(scored: Any, title: str | None = None) -> Any:
    """A matchup's matrix as a heatmap: each attack (the best on average first) against each defender."""
    from simlab.balance.matchup import dominated_rows

    order = [int(i) for i in np.argsort(-scored.value.mean(axis=1), kind="stable")]
    beaten = {k for k, _ in dominated_rows(scored)}
    method = "exact" if scored.method == "exact" else "monte_carlo"
    rows = [
        {"attacks": f"{scored.attackers[i]} (dominated)" if i in beaten else scored.attackers[i],
         "defenders": defender, "method": method, "metric": scored.metric, "variant": "base",
         "value": float(scored.value[i, j]), "ci_low": np.nan, "ci_high": np.nan}
        for i in order for j, defender in enumerate(scored.defenders)
    ]  # fmt: skip
    heading = title or f"{sentence_case(plots.label_of(scored.metric))} of each attack against each defender"
    return plots.heatmap(pd.DataFrame(rows), scored.metric, "attacks", "defenders", title=heading)


def mix_chart(result: Any, title: str | None = None) -> Any:
    """The equilibrium mix as bars (a matchup: both sides'), with each option's share of the resampled equilibria."""
    from simlab.balance.matchup import Matchup, matchup_mixes, matchup_stability
    from simlab.balance.strengths import strengths
    from simlab.balance.tournament import equilibrium_stability

    if isinstance(result, Matchup):
        attack, defence, _ = matchup_mixes(result)
        attack_in, defence_in = matchup_stability(result)
        exact = result.method == "exact"
        panels = [
            ("The attacker's mix", _mix_frame(result.attackers, attack, None if exact else attack_in)),
            ("The defender's mix", _mix_frame(result.defenders, defence, None if exact else defence_in)),
        ]
        return plots.mixes(panels, title or "The best mixes of the zero-sum game of attacks against defenders")
    mix, entered = equilibrium_stability(result)
    order = np.argsort(-strengths(result.score), kind="stable")  # ties in the mix: the strongest first
    frame = _mix_frame([result.names[i] for i in order], mix[order], entered[order])
    return plots.mixes([("", frame)], title or "The metagame: the equilibrium mix, and how often each option enters it")


def _mix_frame(names: Any, mix: np.ndarray, entered: np.ndarray | None) -> pd.DataFrame:
    """A mix for :func:`plots.mixes`, the largest share first."""
    shares = np.zeros(len(mix)) if entered is None else np.asarray(entered, dtype=float)
    order = np.lexsort((-shares, -np.asarray(mix)))  # the mix, then the resampled share; ties as given
    frame = pd.DataFrame({"option": list(names), "mix": mix, "entered": np.nan if entered is None else entered})
    return frame.iloc[order]


def shares_chart(ranked: Any, title: str | None = None) -> Any:
    """A sensitivity's ranking as bars: each knob's total and first-order shares with their intervals."""
    return plots.shares(ranked.frame(), ranked.metric, title)


def _held(run: ExperimentRun, variant: str, inputs: dict[str, Any], words: Vocabulary) -> str:
    """The cell and rule set of an answer, as the phrase that leads its sentence ("against 2 suppressing gunners")."""
    grid = run.experiment.grid
    parts = [f"{words.lead(k, inputs[k])} {words.where(k, inputs[k])}".strip() for k in grid]
    if run.experiment.variants:
        parts.append(f"under {variant}" if variant != "base" else "under the base rules")
    return ", ".join(parts)


def _solve_headline(run: ExperimentRun, words: Vocabulary) -> list[str]:
    from simlab.output.balance_sentences import crossing_sentence, solution_sentences

    lines = []
    last = None
    for variant, inputs, found in run.balance:
        held = _held(run, variant, dict(inputs), words)
        if isinstance(found, str):
            lines.append(sentence_case(f"{held + ', ' if held else ''}no crossing: {found}") + ".")
            continue
        said = "; and ".join(crossing_sentence(found, c, words) for c in found.crossings)
        lines.append(sentence_case(f"{held + ', ' if held else ''}{said}") + ".")
        last = found
    if last is not None:
        lines += solution_sentences(last, words)[len(last.crossings) :]  # how it was found, said once
    return lines


def _tried(run: ExperimentRun, words: Vocabulary) -> pd.DataFrame:
    """Every value tried in every search, one series per cell and rule set."""
    frames = []
    for variant, inputs, found in run.balance:
        if isinstance(found, str):
            continue
        frame = found.tried_frame()
        frame["series"] = _held(run, variant, dict(inputs), words) or words.name(found.goal.metric, "metrics")
        frames.append(frame)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def draw_balance_charts(
    run: ExperimentRun, directory: Path, svg: bool = False, dpi: int | None = None, size: Any = None
) -> list[Chart]:
    """The key chart of a balance experiment: every search with its target, or the ranking's shares."""
    experiment = run.experiment
    ask = experiment.balance
    assert ask is not None
    words = vocabulary(experiment)
    figures = []
    with plots.speaking(words), plots.sized(size):
        if ask.kind == "tournament":
            for variant, _, fought in run.balance:
                under = f" under {variant}" if experiment.variants else ""
                matrix = matchup_chart(fought) if ask.defenders else matrix_chart(fought)
                figures.append((ChartSpec("heatmap", {"name": f"matrix_{variant}"}), matrix))
                mix_title = None if not under else f"The equilibrium mix{under}"
                figures.append((ChartSpec("mix", {"name": f"mix_{variant}"}), mix_chart(fought, mix_title)))
        elif ask.kind == "sensitivity":
            for variant, _, ranked in run.balance:
                title = None if not experiment.variants else f"What moves it under {variant}"
                figures.append((ChartSpec("shares", {"name": f"shares_{variant}"}), shares_chart(ranked, title)))
        else:
            tried = _tried(run, words)
            if len(tried):
                answers = [
                    c.value for _, _, found in run.balance if not isinstance(found, str) for c in found.crossings
                ]
                figure = plots.search(tried, str(ask.find), ask.metric, ask.target, answers)
                figures.append((ChartSpec("search", {"name": "search"}), figure))
        return save_charts(figures, directory, svg, dpi)


def _solve_table(run: ExperimentRun) -> pd.DataFrame:
    rows = []
    for variant, inputs, found in run.balance:
        row: dict[str, Any] = {"variant": variant, **{k: inputs[k] for k in run.experiment.grid}}
        if isinstance(found, str):
            row.update({"answer": "none in the range", "95 % interval": "", "short of it": "", "at it": ""})
        else:
            from simlab.output.balance_sentences import said

            answer = found.answer
            shown = found.unknown.shown
            interval = f"{shown(answer.interval[0])} to {shown(answer.interval[1])}" if answer.interval else "exact"
            row.update({
                "answer": shown(answer.value),
                "95 % interval": interval,
                "short of it": f"{shown(answer.before.x)}: {said(answer.before)}",
                "at it": f"{shown(answer.after.x)}: {said(answer.after)}",
                "crossings": len(found.crossings),
            })  # fmt: skip
        rows.append(row)
    frame = pd.DataFrame(rows)
    return frame if run.experiment.variants else frame.drop(columns="variant")


def _ranking_table(ranked: Any, words: Vocabulary) -> pd.DataFrame:
    """A sensitivity's ranking in words: each share with its 95 % half-width."""

    def with_half(value: float, half: float) -> str:
        return "" if pd.isna(value) else f"{value:.3f} ± {half:.3f}"

    frame = ranked.frame()
    return pd.DataFrame(
        {
            "knob": [words.name(f, "inputs") for f in frame["factor"]],
            "spread over": frame["range"],
            "share with the others (ST)": [with_half(v, h) for v, h in zip(frame["st"], frame["st_conf"], strict=True)],
            "share alone (S1)": [with_half(v, h) for v, h in zip(frame["s1"], frame["s1_conf"], strict=True)],
            "Morris μ*": [with_half(v, h) for v, h in zip(frame["mu_star"], frame["mu_star_conf"], strict=True)],
            "Morris σ": [f"{v:.3f}" for v in frame["sigma"]],
        }
    ).set_index("knob")


def _verdict(valued: dict[str, Any]) -> str:
    """An option against the price line: "bargain (+1.52 [1.48, 1.56])", "in line (...)", or nothing."""
    if valued["verdict"] is None:
        return ""
    low, high = valued["residual_ci95"]
    return f"{valued['verdict']} ({valued['residual']:+.2f} [{low:+.2f}, {high:+.2f}])"


def _worth_rows(fought: Any) -> list[dict[str, Any]]:
    """Each option's worth in a report's words."""
    from simlab.balance.tournament import equilibrium_stability, worth

    mix, share = equilibrium_stability(fought)
    rows = []
    for i, valued in enumerate(worth(fought)):
        low, high = valued["strength_ci95"]
        rows.append({
            "option": valued["option"],
            "strength (Bradley-Terry)": f"{valued['strength']:.2f} [{low:.2f}, {high:.2f}]",
            "mean score": f"{valued['mean_score']:.3f}",
            "in the metagame": f"{mix[i]:.0%}",
            "in resampled metagames": f"{share[i]:.0%}",
            "price": "" if valued["cost"] is None else f"{valued['cost']:.4g}",
            "worth at its strength": "" if valued["fair_cost"] is None else f"{valued['fair_cost']:.4g}",
            "against its price": _verdict(valued),
        })  # fmt: skip
    return rows


def _matchup_table(scored: Any) -> pd.DataFrame:
    """Each attack's metric against each defender (with its interval where sampled), its mix, and the defender's."""
    from simlab.balance.matchup import matchup_mixes

    attack, defence, _ = matchup_mixes(scored)
    sampled = scored.method != "exact"
    table: dict[str, list[str]] = {"attack": [*scored.attackers, "defender's mix"]}
    for j, defender in enumerate(scored.defenders):
        cells = [
            f"{scored.value[i, j]:.4g}" + (f" ± {scored.half_width[i, j]:.2g}" if sampled else "")
            for i in range(len(scored.attackers))
        ]
        table[defender] = [*cells, f"{defence[j]:.0%}"]
    table["attacker's mix"] = [*(f"{x:.0%}" for x in attack), ""]
    return pd.DataFrame(table).set_index("attack")


def build_balance_report(run: ExperimentRun, charts: list[Chart]) -> Report:
    """The report of a balance run: the answer, its key chart, its table."""
    from simlab.output.balance_sentences import goal_text, sensitivity_sentences

    experiment = run.experiment
    ask = experiment.balance
    assert ask is not None
    system = experiment.owner
    words = vocabulary(experiment)
    summary = [("system", f"{system.title} ({system.name}, {system.spec})")]
    if ask.kind == "tournament" and ask.defenders:
        from simlab.output.balance_sentences import matchup_sentences

        metric = words.name(ask.metric, "metrics")
        summary.append(("question", f"{the(metric)} of each attack ({', '.join(ask.names)}) against each "
                                    f"defender ({', '.join(ask.defender_names)})"))  # fmt: skip
        headline: list[str] = []
        for variant, _, scored in run.balance:
            said = matchup_sentences(scored, words)
            said = said[: said.index("")] if "" in said else said
            headline += [f"Under {variant}: {line}" for line in said] if experiment.variants else said
        tables = [Table(f"{sentence_case(the(metric))} of each attack against each defender, and both sides' mixes",
                        _matchup_table(run.balance[0][2]))]  # fmt: skip
    elif ask.kind == "tournament":
        from simlab.output.balance_sentences import tournament_sentences

        noun = plural(ask.noun)
        summary.append(("question", f"every {ask.noun} against every other: {', '.join(ask.names)}"))
        headline = []
        for variant, _, fought in run.balance:
            said = tournament_sentences(fought)
            said = said[: said.index("")] if "" in said else said
            headline += [f"Under {variant}: {line}" for line in said] if experiment.variants else said
        worth_table = pd.DataFrame(_worth_rows(run.balance[0][2])).set_index("option")
        tables = [Table(f"What the {noun} are worth: strength, mean score, the metagame, and against their prices",
                        worth_table)]  # fmt: skip
    elif ask.kind == "sensitivity":
        metric = words.name(ask.metric, "metrics")
        knobs = ", ".join(words.name(k, "inputs") for k in ask.vary)
        summary.append(("question", f"what moves {the(metric)} over {knobs}"))
        headline = []
        for variant, _, ranked in run.balance:
            said = sensitivity_sentences(ranked, words)
            if experiment.variants:
                said[0] = f"Under {variant}: {said[0]}"
            headline += said if not headline else said[:1]
        tables = [Table("The knobs, ranked: Sobol shares (total and first order) and Morris measures",
                        _ranking_table(run.balance[0][2], words))]  # fmt: skip
    else:
        first = next((found for _, _, found in run.balance if not isinstance(found, str)), None)
        question = goal_text(first, words) if first is not None else f"{ask.find} over {ask.within}"
        summary.append(("question", f"{question}, {experiment.question.title.lower()} at each value"))
        headline = _solve_headline(run, words)
        tables = [in_words(Table("The answer in every cell", _solve_table(run)), words, experiment.grid)]
    summary += [
        ("method", experiment.method),
        ("fixed inputs", words.held(experiment.fixed) or "none"),
    ]
    if experiment.method != "exact":
        summary.append(("sampling", f"{experiment.trials:,} trials at every value, seed {experiment.seed}, "
                                    "the same random streams at every value"))  # fmt: skip
    summary.append(("run time", f"{run.seconds:.1f} s"))
    return Report(experiment.name, experiment.description, summary, tables=tables, charts=charts, headline=headline)
