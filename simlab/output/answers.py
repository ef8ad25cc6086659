"""The headline of a report that states its question (``[question]``): the answer, in one or two sentences.

:func:`answer_question` answers the four kinds of :class:`~simlab.records.ExperimentQuestion`
from the run's table: ``threshold`` (the fewest, or most, of an input reaching a target), ``best``
(the best option per value of another input), ``ranking`` (the options in order, ties named) and
``effect`` (what each variant changes). Sampled values carry their 95 % interval. Inputs the
question neither holds (``where``) nor names are averaged over. Names are the designer's words:
the experiment's ``[labels]``, else the registry's (:func:`~simlab.output.plots.label_of`).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from simlab.output.pivots import format_value, preferred_method, select
from simlab.output.plots import label_of
from simlab.records import ExperimentQuestion

__all__ = ["answer_question", "question_chart", "words", "variant_effects"]

#: Most sentences of one answer (one per value of ``per``).
MOST = 6


def words(name: str, labels: Mapping[str, str]) -> str:
    """How a report names an input or a metric: the experiment's own words, else the registry's."""
    return labels.get(name) or label_of(name)


def value_words(value: Any) -> str:
    """How a report names an input's value: yes and no, spaces for underscores (very_short: very short)."""
    if isinstance(value, bool) or str(value) in ("True", "False"):
        return "yes" if str(value) == "True" else "no"
    return str(value).replace("_", " ") if isinstance(value, str) else str(value)


def _shown(row: Mapping[str, Any]) -> str:
    """A value, with its 95 % interval where it was sampled."""
    value = format_value(float(row["value"]))
    low, high = row.get("ci_low"), row.get("ci_high")
    if low is None or high is None or pd.isna(low) or (low == row["value"] == high):
        return value
    return f"{value} [{format_value(float(low))}, {format_value(float(high))}]"


def _averaged(table: pd.DataFrame, asks: ExperimentQuestion, keys: Sequence[str]) -> pd.DataFrame:
    """The question's metric by ``keys`` under the base rules (the preferred method), held and averaged."""
    base = table[table["variant"] == "base"] if "variant" in table else table
    chosen = select(base, asks.where, metric=asks.metric)
    chosen = select(chosen, method=preferred_method(chosen))
    return chosen.groupby(list(keys), as_index=False, sort=False)[["value", "ci_low", "ci_high"]].mean()


def _combos(frame: pd.DataFrame, per: Sequence[str]) -> list[dict[str, Any]]:
    if not per:
        return [{}]
    return [dict(zip(per, values, strict=True)) for values in itertools.product(*(frame[p].unique() for p in per))]


def _where(combo: Mapping[str, Any], labels: Mapping[str, str]) -> str:
    return ", ".join(f"{words(k, labels)} {value_words(v)}" for k, v in combo.items())


def answer_question(
    table: pd.DataFrame, asks: ExperimentQuestion, labels: Mapping[str, str], variants: Sequence[str] = ()
) -> list[str]:
    """The sentences that answer ``asks`` from a run's table (the report's headline)."""
    if asks.kind == "effect":
        return variant_effects(table, asks, labels, variants)
    assert asks.input is not None  # every other kind names its input (checked when the file is read)
    frame = _averaged(table, asks, [asks.input, *asks.per])
    if not len(frame):
        held = ", ".join(f"{words(k, labels)} {value_words(v)}" for k, v in asks.where.items())
        return [f"No cell of the run has the {words(asks.metric, labels)} with {held or 'these inputs'}."]
    if asks.kind == "threshold":
        return _threshold(frame, asks, labels)
    if asks.kind == "best":
        return _best(frame, asks, labels)
    return _ranking(frame, asks, labels)


def _threshold(frame: pd.DataFrame, asks: ExperimentQuestion, labels: Mapping[str, str]) -> list[str]:
    option = str(asks.input)
    name, metric = words(str(asks.input), labels), words(asks.metric, labels)
    target = float(asks.target or 0.0)
    counted = "count" in str(asks.input).rsplit(".", 1)[-1]  # figures or missiles: "the fewest riflemen"
    most = ("fewest" if asks.smallest else "most") if counted else ("smallest" if asks.smallest else "largest")
    reach = "at least" if asks.at_least else "at most"
    sentences: list[str] = []
    found: list[Any] = []
    combos = _combos(frame, asks.per)
    for combo in combos[:MOST]:
        part = select(frame, combo).sort_values(str(asks.input), ascending=asks.smallest, kind="stable")
        rows = part.to_dict("records")
        reached = [r["value"] >= target if asks.at_least else r["value"] <= target for r in rows]
        lead = f"With {_where(combo, labels)}, the" if combo else "The"
        if not any(reached):
            top = max(r["value"] for r in rows) if rows else float("nan")
            sentences.append(f"{lead} {metric} never reaches {target:g}: at most {format_value(top)}.")
            found.append(None)
            continue
        at = reached.index(True)
        row = rows[at]
        before = f" (with {value_words(rows[at - 1][option])}: {_shown(rows[at - 1])})" if at else ""
        sentences.append(
            f"{lead} {most} {name} for which the {metric} is {reach} {target:g}: {value_words(row[option])}, "
            f"at {_shown(row)}{before}."
        )
        found.append(row[option])
    if len(asks.per) == 1 and len(found) > 1 and None not in found and found[0] != found[-1]:
        per, last = words(asks.per[0], labels), combos[len(found) - 1][asks.per[0]]
        sentences.append(
            f"The {most} {name}: {value_words(found[0])} with {per} {value_words(combos[0][asks.per[0]])}, "
            f"{value_words(found[-1])} with {per} {value_words(last)}."
        )
    if len(combos) > MOST:
        sentences.append(f"… and {len(combos) - MOST} more in the tables below.")
    return sentences


def _ordered(part: pd.DataFrame, asks: ExperimentQuestion) -> list[dict[str, Any]]:
    return part.sort_values("value", ascending=asks.lowest, kind="stable").to_dict("records")


def _tie(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Equal exact values, or overlapping 95 % intervals."""
    if pd.isna(a.get("ci_low")) or a.get("ci_low") == a.get("ci_high"):
        return abs(float(a["value"]) - float(b["value"])) < 1e-12
    return bool(a["ci_low"] <= b["ci_high"] and b["ci_low"] <= a["ci_high"])


def _best(frame: pd.DataFrame, asks: ExperimentQuestion, labels: Mapping[str, str]) -> list[str]:
    option = str(asks.input)
    metric = words(asks.metric, labels)
    which = "lowest" if asks.lowest else "highest"
    sentences = []
    combos = _combos(frame, asks.per)
    for combo in combos[:MOST]:
        rows = _ordered(select(frame, combo), asks)
        if not rows:
            continue
        best = rows[0]
        lead = f"Against {_where(combo, labels)}: " if combo else ""
        tied = [value_words(r[option]) for r in rows[1:] if _tie(best, r)]
        name = value_words(best[option])
        first = f"{name} and {', '.join(tied)} tie for" if tied else f"{name} has"
        sentence = f"{lead}{first} the {which} {metric}, {_shown(best)}"
        following = rows[1 + len(tied)] if len(rows) > 1 + len(tied) else None
        if following is not None:
            sentence += f" (next {value_words(following[option])}, {_shown(following)})"
        sentences.append(sentence + ".")
    if len(combos) > MOST:
        sentences.append(f"… and {len(combos) - MOST} more in the tables below.")
    return sentences


def _ranking(frame: pd.DataFrame, asks: ExperimentQuestion, labels: Mapping[str, str]) -> list[str]:
    option = str(asks.input)
    metric = words(asks.metric, labels)
    order = "lowest" if asks.lowest else "highest"
    sentences = []
    for combo in _combos(frame, asks.per)[:MOST]:
        rows = _ordered(select(frame, combo), asks)
        listed = ", ".join(f"{value_words(r[option])} {_shown(r)}" for r in rows[:8]) + (" …" if len(rows) > 8 else "")
        pairs = [(a, b) for a, b in itertools.pairwise(rows) if _tie(a, b)]
        ties = [f"{value_words(a[option])} and {value_words(b[option])}" for a, b in pairs]
        lead = f"Against {_where(combo, labels)}, the" if combo else "The"
        tie = f"; {', '.join(ties)} tie" if ties else ""
        sentences.append(f"{lead} {words(option, labels)} by {metric}, {order} first: {listed}{tie}.")
    return sentences


def variant_effects(
    table: pd.DataFrame, asks: ExperimentQuestion, labels: Mapping[str, str], variants: Sequence[str]
) -> list[str]:
    """What each variant changes most of the question's metric, and in how many cells (``effect``)."""
    metric = words(asks.metric, labels)
    chosen = select(table, asks.where, metric=asks.metric)
    chosen = select(chosen, method=preferred_method(chosen))
    keys = [
        c for c in chosen.columns if c not in ("variant", "method", "metric", "value", "ci_low", "ci_high", "trials")
    ]
    base = chosen[chosen["variant"] == "base"].set_index(keys)["value"]
    sentences = []
    for name in variants:
        other = chosen[chosen["variant"] == name].set_index(keys)["value"]
        delta = (other - base).dropna()
        if not len(delta) or float(delta.abs().max()) < 1e-12:
            sentences.append(f"Variant {name} changes no {metric} at all.")
            continue
        at = delta.abs().idxmax()
        where = dict(zip(keys, at if isinstance(at, tuple) else (at,), strict=True))
        where.pop("cell", None)
        shown = ", ".join(f"{words(k, labels)} {value_words(v)}" for k, v in where.items())
        changed = int((delta.abs() > 1e-12).sum())
        sentences.append(
            f"Variant {name} moves the {metric} most at {shown}: {format_value(float(base[at]))} → "
            f"{format_value(float(other[at]))}; it changes {changed} of {len(delta)} cells."
        )
    return sentences


def question_chart(asks: ExperimentQuestion) -> tuple[str, dict[str, Any]] | None:
    """The chart that shows the answer: a curve with the target for a threshold, a heatmap for the best."""
    if asks.kind == "threshold":
        shown = {"metric": asks.metric, "x": asks.input, "by": list(asks.per[:1]), "target": asks.target}
        return "curve", {**shown, "where": dict(asks.where)}
    if asks.kind in ("best", "ranking") and asks.per:
        return "heatmap", {"metric": asks.metric, "rows": asks.input, "cols": asks.per[0], "where": dict(asks.where)}
    return None
