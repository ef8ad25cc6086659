"""The headline of a report that states its question (``[question]``): the answer, in one or two sentences.

:func:`answer_question` answers the four kinds of :class:`~simlab.records.ExperimentQuestion`
from the run's table: ``threshold`` (the fewest, or most, of an input reaching a target), ``best``
(the best option per value of another input), ``ranking`` (the options in order, ties named) and
``effect`` (what each variant changes). Sampled values carry their 95 % interval. Inputs the
question neither holds (``where``) nor names are averaged over. Names and values are the designer's
words: the experiment's :class:`~simlab.output.words.Vocabulary` (its ``[labels]``, its battle's sides,
the registry's words).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from simlab.output.pivots import NOT_INPUTS, averaged_over, base_rules, format_value, preferred_method, select
from simlab.output.words import Vocabulary, sentence_case
from simlab.records import ExperimentQuestion

__all__ = ["answer_question", "question_chart", "variant_effects"]

#: Most sentences of one answer (one per value of ``per``).
MOST = 6


def _shown(row: Mapping[str, Any]) -> str:
    """A value, with its 95 % interval where it was sampled."""
    value = format_value(float(row["value"]))
    low, high = row.get("ci_low"), row.get("ci_high")
    if low is None or high is None or pd.isna(low) or (low == row["value"] == high):
        return value
    return f"{value} [{format_value(float(low))}, {format_value(float(high))}]"


def _averaged_note(table: pd.DataFrame, asks: ExperimentQuestion, words: Vocabulary) -> str:
    """The inputs a best or ranking question's values are means over, as words (", averaged over opponent")."""
    chosen = select(base_rules(table), asks.where, metric=asks.metric)
    over = averaged_over(chosen, [str(asks.input), *asks.per, *asks.where])
    return f", averaged over {' and '.join(words.name(c, 'inputs') for c in over)}" if over else ""


def _averaged(table: pd.DataFrame, asks: ExperimentQuestion, keys: Sequence[str]) -> pd.DataFrame:
    """The question's metric by ``keys`` under the base rules (the preferred method), held and averaged."""
    chosen = select(base_rules(table), asks.where, metric=asks.metric)
    chosen = select(chosen, method=preferred_method(chosen))
    return chosen.groupby(list(keys), as_index=False, sort=False)[["value", "ci_low", "ci_high"]].mean()


def _combos(frame: pd.DataFrame, per: Sequence[str]) -> list[dict[str, Any]]:
    if not per:
        return [{}]
    return [dict(zip(per, values, strict=True)) for values in itertools.product(*(frame[p].unique() for p in per))]


def _lead(combo: Mapping[str, Any], words: Vocabulary) -> str:
    """The held inputs that open a sentence: "Against flak jacket", "At range 10 m", "With 2 corrections"."""
    first = next(iter(combo))
    return sentence_case(f"{words.lead(first, combo[first])} {words.held(combo)}".strip())


def answer_question(
    table: pd.DataFrame, asks: ExperimentQuestion, words: Vocabulary, variants: Sequence[str] = ()
) -> list[str]:
    """The sentences that answer ``asks`` from a run's table (the report's headline), in ``words``."""
    if asks.kind == "effect":
        return variant_effects(table, asks, words, variants)
    assert asks.input is not None  # every other kind names its input (checked when the file is read)
    frame = _averaged(table, asks, [asks.input, *asks.per])
    if not len(frame):
        held = words.held(asks.where) if asks.where else "these inputs"
        return [f"No cell of the run has the {words.name(asks.metric, 'metrics')} with {held}."]
    if asks.kind == "threshold":
        return _threshold(frame, asks, words)
    if asks.kind == "best":
        return _best(frame, asks, words, _averaged_note(table, asks, words))
    return _ranking(frame, asks, words, _averaged_note(table, asks, words))


def _threshold(frame: pd.DataFrame, asks: ExperimentQuestion, words: Vocabulary) -> list[str]:
    """The fewest (or most) of an input reaching the target: "With no suppressing gunners, 4 riflemen are..."."""
    option = str(asks.input)
    metric = words.name(asks.metric, "metrics")
    target = float(asks.target or 0.0)
    counted = words.counted(option)  # figures, rounds, missiles: "4 riflemen"
    most = ("fewest" if asks.smallest else "most") if counted else ("smallest" if asks.smallest else "largest")
    reach = "at least" if asks.at_least else "at most"
    sentences: list[str] = []
    found: list[Any] = []
    combos = _combos(frame, asks.per)
    for combo in combos[:MOST]:
        part = select(frame, combo).sort_values(option, ascending=asks.smallest, kind="stable")
        rows = part.to_dict("records")
        reached = [r["value"] >= target if asks.at_least else r["value"] <= target for r in rows]
        lead = f"{_lead(combo, words)}, " if combo else ""
        if not any(reached):
            top = max(r["value"] for r in rows) if rows else float("nan")
            sentence = f"the {metric} never reaches {target:g}: at most {format_value(top)}."
            sentences.append(lead + sentence if lead else sentence_case(sentence))
            found.append(None)
            continue
        at = reached.index(True)
        row = rows[at]
        if counted:
            verb = "is" if float(row[option]) == 1 else "are"
            said = f"{words.where(option, row[option])} {verb} the {most} for which the {metric} is {reach} {target:g}"
            before = f"; {words.where(option, rows[at - 1][option])}: {_shown(rows[at - 1])}" if at else ""
        else:
            said = (f"the {most} {words.name(option, 'inputs')} for which the {metric} is {reach} {target:g} is "
                    f"{words.amount(option, row[option])}")  # fmt: skip
            before = f"; {words.where(option, rows[at - 1][option])}: {_shown(rows[at - 1])}" if at else ""
        sentence = f"{said}: {_shown(row)}{before}."
        sentences.append(lead + sentence if lead else sentence_case(sentence))
        found.append(row[option])
    if len(asks.per) == 1 and len(found) > 1 and None not in found and found[0] != found[-1]:
        per, first_at, last_at = asks.per[0], combos[0][asks.per[0]], combos[len(found) - 1][asks.per[0]]
        ends = [f"{words.amount(option, v)} {words.lead(per, at)} {words.where(per, at)}".replace("  ", " ")
                for v, at in ((found[0], first_at), (found[-1], last_at))]  # fmt: skip
        sentences.append(f"The {most} {words.name(option, 'inputs')}: {ends[0]}, {ends[1]}.")
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


def _best(frame: pd.DataFrame, asks: ExperimentQuestion, words: Vocabulary, note: str) -> list[str]:
    """The best option per value of the other inputs: "Against flak jacket: the rocket launcher has..."."""
    option = str(asks.input)
    metric = words.name(asks.metric, "metrics")
    which = "lowest" if asks.lowest else "highest"
    sentences = []
    combos = _combos(frame, asks.per)
    for combo in combos[:MOST]:
        rows = _ordered(select(frame, combo), asks)
        if not rows:
            continue
        best = rows[0]
        lead = f"{_lead(combo, words)}: " if combo else ""
        tied = [words.value(option, r[option]) for r in rows[1:] if _tie(best, r)]
        name = words.value(option, best[option])
        first = f"{name} and {', '.join(tied)} tie for" if tied else f"{name} has"
        sentence = f"{lead}{first} the {which} {metric}{note}, {_shown(best)}"
        following = rows[1 + len(tied)] if len(rows) > 1 + len(tied) else None
        if following is not None:
            sentence += f" (next {words.value(option, following[option])}, {_shown(following)})"
        sentences.append(sentence + ".")
    if len(combos) > MOST:
        sentences.append(f"… and {len(combos) - MOST} more in the tables below.")
    return sentences


def _ranking(frame: pd.DataFrame, asks: ExperimentQuestion, words: Vocabulary, note: str) -> list[str]:
    """The options in order, ties named."""
    option = str(asks.input)
    metric = words.name(asks.metric, "metrics")
    order = "lowest" if asks.lowest else "highest"
    sentences = []
    for combo in _combos(frame, asks.per)[:MOST]:
        rows = _ordered(select(frame, combo), asks)
        named = [f"{words.value(option, r[option])} {_shown(r)}" for r in rows[:8]]
        listed = ", ".join(named) + (" …" if len(rows) > 8 else "")
        pairs = [(a, b) for a, b in itertools.pairwise(rows) if _tie(a, b)]
        ties = [f"{words.value(option, a[option])} and {words.value(option, b[option])}" for a, b in pairs]
        lead = f"{_lead(combo, words)}, the" if combo else "The"
        tie = f"; {', '.join(ties)} tie" if ties else ""
        sentences.append(f"{lead} {words.name(option, 'inputs')} by {metric}{note}, {order} first: {listed}{tie}.")
    return sentences


def variant_effects(
    table: pd.DataFrame, asks: ExperimentQuestion, words: Vocabulary, variants: Sequence[str]
) -> list[str]:
    """What each variant changes most of the question's metric, and in how many cells (``effect``)."""
    metric = words.name(asks.metric, "metrics")
    chosen = select(table, asks.where, metric=asks.metric)
    chosen = select(chosen, method=preferred_method(chosen))
    keys = [c for c in chosen.columns if c == "cell" or c not in NOT_INPUTS]  # a cell's inputs, and the cell
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
        changed = int((delta.abs() > 1e-12).sum())
        sentences.append(
            f"Variant {name} moves the {metric} most with {words.held(where)}: {format_value(float(base[at]))} → "
            f"{format_value(float(other[at]))}; it changes {changed} of {len(delta)} cells."
        )
    return sentences


def question_chart(asks: ExperimentQuestion, grid: Mapping[str, Sequence[Any]]) -> tuple[str, dict[str, Any]] | None:
    """The chart that shows the answer.

    A threshold: the metric against its input with the target drawn. The best option per value of
    another input: a heatmap, the options along its longer side. A ranking, or the best overall:
    the options as ranked bars. Inputs the question neither names nor holds are averaged over, as
    in the headline.
    """
    where = dict(asks.where)
    if asks.kind == "threshold":
        shown = {"metric": asks.metric, "x": asks.input, "by": list(asks.per[:1]), "target": asks.target}
        return "curve", {**shown, "where": where}
    if asks.kind in ("best", "ranking") and asks.per:
        options, per = str(asks.input), asks.per[0]
        wide = len(grid.get(options, ())) > len(grid.get(per, ()))  # many options: along the width
        rows, cols = (per, options) if wide else (options, per)
        return "heatmap", {"metric": asks.metric, "rows": rows, "cols": cols, "where": where}
    if asks.kind in ("best", "ranking"):
        return "bars", {"metric": asks.metric, "x": asks.input, "lowest": asks.lowest, "where": where}
    return None
