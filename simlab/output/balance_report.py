"""The charts and tables of the balance answers: a search, the shares of variance, a matrix, the mixes, worth.

The web page and the analyses' reports (:mod:`simlab.analyses`) draw them from the same results.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from simlab.output import plots
from simlab.output.words import Vocabulary, sentence_case
from simlab.records import ExperimentRun

__all__ = [
    "held_in_words",
    "worth_rows",
    "matchup_table",
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


def held_in_words(run: ExperimentRun, variant: str, inputs: dict[str, Any], words: Vocabulary) -> str:
    """The cell and rule set of an answer, as the phrase that leads its sentence ("against 2 suppressing gunners")."""
    grid = run.experiment.grid
    parts = [f"{words.lead(k, inputs[k])} {words.where(k, inputs[k])}".strip() for k in grid]
    if run.experiment.variants:
        parts.append(f"under {variant}" if variant != "base" else "under the base rules")
    return ", ".join(parts)


def _verdict(valued: dict[str, Any]) -> str:
    """An option against the price line: "bargain (+1.52 [1.48, 1.56])", "in line (...)", or nothing."""
    if valued["verdict"] is None:
        return ""
    low, high = valued["residual_ci95"]
    return f"{valued['verdict']} ({valued['residual']:+.2f} [{low:+.2f}, {high:+.2f}])"


def worth_rows(fought: Any) -> list[dict[str, Any]]:
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


def matchup_table(scored: Any) -> pd.DataFrame:
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
