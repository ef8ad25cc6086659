"""What a run says, in a few sentences computed from its table: the first thing a report shows.

Each function looks for one kind of answer and returns sentences, or nothing when the run
does not ask that question: the best weapon against each armour, the duel pairings that
are most one-sided, the largest effect of each variant, and otherwise where the main
metric is highest and lowest. :func:`headline` takes the ones that apply, most specific
first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from simlab.output.answers import answer_question, variant_effects
from simlab.output.pivots import base_rules, format_value, preferred_method, select
from simlab.output.words import Vocabulary
from simlab.records import ExperimentQuestion

__all__ = ["headline", "MAIN_METRICS"]

#: Metrics a headline is about, in order of preference.
MAIN_METRICS = (
    "p_a_wins",
    "mean_damage",
    "p_incapacitated",
    "p_survival",
    "p_hit",
    "mean_hits",
    "p_kill",
    "p_killed",
)


def headline(
    table: pd.DataFrame, inputs: Sequence[str], variants: Sequence[str] = (), words: Vocabulary | None = None
) -> list[str]:
    """The sentences that lead a run's report.

    Args:
        table: The run's tidy table.
        inputs: The inputs the grid varies.
        variants: The names of the run's variants (besides ``base``).
        words: How to name its metrics, inputs and values (the registry's words without).
    """
    words = words or Vocabulary()
    base = base_rules(table)
    metric = main_metric(base)
    if metric is None:
        return []
    sentences = _variant_effects(table, metric, variants, words)
    if "a.ship" in inputs or any(name.startswith("a.") for name in inputs):
        sentences += _one_sided_duels(base, inputs, words)
    elif "weapon" in inputs and ("armor" in inputs or "target_armor" in inputs):
        sentences += _best_weapons(base, metric, inputs, words)
    if len(sentences) <= len(variants):
        sentences += _range_of(base, metric, inputs, words)
    return sentences


def main_metric(table: pd.DataFrame) -> str | None:
    """The metric a run is mostly about: the first of :data:`MAIN_METRICS` it has, else its first."""
    metrics = list(dict.fromkeys(table["metric"]))
    return next((m for m in MAIN_METRICS if m in metrics), metrics[0] if metrics else None)


def _values(table: pd.DataFrame, metric: str) -> pd.DataFrame:
    chosen = select(table, metric=metric)
    return select(chosen, method=preferred_method(chosen))


def _best_weapons(table: pd.DataFrame, metric: str, inputs: Sequence[str], words: Vocabulary) -> list[str]:
    """The best weapon against each armour, the other inputs at their first values (as the tables show)."""
    armour = "armor" if "armor" in inputs else "target_armor"
    values = _values(table, metric)
    first = {name: values[name].iloc[0] for name in inputs if name not in ("weapon", armour)}
    asked = ExperimentQuestion("best", metric, "weapon", (armour,), where=first)
    return answer_question(table, asked, words)


def _one_sided_duels(table: pd.DataFrame, inputs: Sequence[str], words: Vocabulary) -> list[str]:
    if not {"p_a_wins", "p_b_wins"} <= set(table["metric"]):
        return []
    wide = table[table["metric"].isin(["p_a_wins", "p_b_wins"])].pivot_table(
        index=["cell", *inputs], columns="metric", values="value", aggfunc="first"
    )
    wide = wide.assign(edge=(wide["p_a_wins"] - wide["p_b_wins"]).abs()).reset_index()
    sides = [name for name in inputs if name.startswith(("a.", "b."))] or list(inputs)

    def said(row: dict[str, Any]) -> str:
        described = words.held({name: row[name] for name in sides})
        a, b = words.side("a"), words.side("b")
        return f"{described}: {a} wins {format_value(row['p_a_wins'])}, {b} {format_value(row['p_b_wins'])}"

    ordered = wide.sort_values("edge", ascending=False, kind="stable").to_dict("records")
    sentences = [f"Most one-sided: {said(row)}." for row in ordered[:3]]
    decided = [row for row in ordered[3:] if row["p_a_wins"] + row["p_b_wins"] >= 0.5]  # not all draws
    if decided:
        sentences.append(f"Most even of the fights someone wins at least half the time: {said(decided[-1])}.")
    return sentences


def _variant_effects(table: pd.DataFrame, metric: str, variants: Sequence[str], words: Vocabulary) -> list[str]:
    if not variants or "variant" not in table:
        return []
    return variant_effects(table, ExperimentQuestion("effect", metric), words, variants)


def _range_of(table: pd.DataFrame, metric: str, inputs: Sequence[str], words: Vocabulary) -> list[str]:
    values = _values(table, metric)
    if len(values) < 2 or not inputs:
        return []
    ordered = values.sort_values("value", ascending=False, kind="stable")
    top, bottom = ordered.iloc[0], ordered.iloc[-1]
    shown = [name for name in inputs if values[name].nunique() > 1] or list(inputs)
    high = words.held({name: top[name] for name in shown})
    low = words.held({name: bottom[name] for name in shown})
    return [
        f"The {words.name(metric, 'metrics')} is highest, {format_value(float(top['value']))}, at {high}; "
        f"lowest, {format_value(float(bottom['value']))}, at {low}."
    ]
