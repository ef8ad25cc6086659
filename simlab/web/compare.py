"""The Compare view: several loadouts side by side, their metrics and the differences from the first.

``/compare/SYSTEM?vary=weapon&options=assault rifle,gauss rifle&armor=flak jacket`` compares
three weapons against one armour; ``&variant=NAME`` puts each loadout under the base rules
beside the same loadout under a house-rule variant. Any question compares (``kind=duel`` with
``vary=a.weapon``, ``kind=battle`` with ``vary=b.doctrine.suppressors``): what may vary are the
fields of its own page (:mod:`simlab.web.varied`). Exact answers are compared as they are.
Sampled ones are compared as ``simlab compare`` compares them: every loadout is sampled on the
very same random streams (common random numbers), in batches, and each difference gets a 95 %
interval from the paired batch differences, far narrower than two independent intervals.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd

from simlab.engine.paired import batch_metrics, paired_differences
from simlab.inputs.errors import SimlabError
from simlab.output import interactive
from simlab.output.headline import MAIN_METRICS
from simlab.output.plots import label_of
from simlab.output.words import Vocabulary, the
from simlab.systems import Question
from simlab.text import same_value
from simlab.web.answers import grid_answer, shown, side_names
from simlab.web.cache import answer_of
from simlab.web.config import Site
from simlab.web.forms import ALL, field, listed, options_field
from simlab.web.query import joined, variant_label
from simlab.web.questions import Query
from simlab.web.varied import requests_within, varied, view_form, view_items, view_query
from simlab.workflow.compare import DEFAULT_BATCHES

__all__ = [
    "CompareQuery",
    "Column",
    "parse_compare",
    "compare_items",
    "compare_loadouts",
    "compare_answer",
    "compare_fields",
    "COMPARE_KEYS",
    "PROFILE_KEYS",
]

#: The most profiles (full setups) side by side.
MOST_PROFILES = 6
#: The keys of the profiles: ``profile.1`` to ``profile.6``, each ``KEY=VALUE; KEY=VALUE`` over the inputs.
PROFILE_KEYS = tuple(f"profile.{n}" for n in range(1, MOST_PROFILES + 1))
#: The keys of a comparison besides those of one attack.
COMPARE_KEYS = ("vary", "options", *PROFILE_KEYS)
#: The most loadouts one comparison may hold.
MAX_COLUMNS = 12


@dataclass(frozen=True)
class Column:
    """One loadout of a comparison: its label and the question it asks."""

    label: str
    query: Query


@dataclass(frozen=True)
class CompareQuery:
    """A comparison as a URL holds it: the question (any kind), the input that varies and its options, the profiles."""

    query: Query
    vary: str | None = None
    options: tuple[str, ...] = ()
    profiles: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()

    def columns(self) -> list[Column]:
        """The loadouts: each profile against each option (under the base rules, then the variant when one is named)."""
        setups = [(text, dict(inputs)) for text, inputs in self.profiles] or [("", {})]
        options = [(f"{self.vary} = {o}", {self.vary: o}) for o in self.options] if self.vary else [("", {})]
        variant = self.query.variant
        base = replace(self.query, variant=None) if variant is not None else self.query  # type: ignore[type-var]
        columns = []
        for (profile, own), (option, chosen) in itertools.product(setups, options):
            label = "; ".join(part for part in (profile, option) if part) or "this loadout"
            changes = {**own, **chosen}
            columns.append(Column(label if variant is None else f"{label}, base", varied(base, changes)))
            if variant is not None:
                columns.append(Column(f"{label}, {variant_label(variant)}", varied(self.query, changes)))
        return columns


def parse_compare(site: Site, system: str, items: Iterable[tuple[str, str]]) -> CompareQuery:
    """The comparison of a query string's pairs.

    Raises:
        SimlabError: For fewer than two loadouts, too many, ``options`` without ``vary``, or an
            input the question's page has no field for.
    """
    pairs = list(items)
    own = joined([(k, v) for k, v in pairs if k not in PROFILE_KEYS], COMPARE_KEYS)
    profiles = tuple(_profile(k, v) for k, v in pairs if k in PROFILE_KEYS and v.strip())
    base, asked, question = view_query(site, system, pairs, COMPARE_KEYS)
    if own.get("options") and "vary" not in own:
        raise SimlabError("options need vary: the input whose options are compared")
    options: tuple[str, ...] = ()
    if own.get("options"):
        _, fields = view_form(site, base, asked, question)
        options = listed(fields, own["vary"], own["options"], "options")
    query = CompareQuery(question, own.get("vary"), options, profiles)
    count = len(query.columns())
    if count < 2:
        raise SimlabError(
            "a comparison needs two loadouts: give two or more profiles, or vary and two or more options, or a variant"
        )
    if count > MAX_COLUMNS:
        raise SimlabError(f"a comparison holds at most {MAX_COLUMNS} loadouts: give fewer options")
    return query


def _profile(key: str, text: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """One profile: its text and its ``KEY=VALUE`` inputs (separated by semicolons).

    Raises:
        SimlabError: For a part that is not ``KEY=VALUE``.
    """
    inputs = []
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        name, equals, value = part.partition("=")
        if not equals or not name.strip():
            raise SimlabError(f"{key}: {part[:40]!r} is not KEY=VALUE (a profile is KEY=VALUE; KEY=VALUE...)")
        inputs.append((name.strip(), value.strip()))
    return "; ".join(f"{k}={v}" for k, v in inputs), tuple(inputs)


def compare_items(query: CompareQuery) -> list[tuple[str, Any]]:
    """The query string of a comparison (the inverse of :func:`parse_compare`)."""
    own: list[tuple[str, Any]] = [("vary", query.vary), ("options", ",".join(query.options))] if query.vary else []
    own += [(f"profile.{n}", text) for n, (text, _) in enumerate(query.profiles, 1)]
    return own + view_items(query.query, (query.vary or "",))


def compare_loadouts(
    query: CompareQuery, site: Site, batches: int = DEFAULT_BATCHES
) -> tuple[pd.DataFrame, list[dict[str, Any]]]:
    """Every loadout's answer and the differences from the first.

    Returns:
        A table with one row per metric: a column per loadout, and per further loadout
        ``Δ label`` (its difference from the first) with, when sampled, ``± label`` (the half
        width of the paired 95 % interval); and each loadout's answer JSON (for its distributions).

    Raises:
        SimlabError: When a loadout's inputs are not valid, or the trials exceed ``max_trials``.
    """
    columns = query.columns()
    asked = requests_within(site, [column.query for column in columns], "comparison")
    answers = [answer_of(site.answers, column.query, each) for column, each in zip(columns, asked, strict=True)]
    first = answers[0]
    table = pd.DataFrame({"metric": list(first["metrics"])})
    for column, answer in zip(columns, answers, strict=True):
        table[column.label] = [answer["metrics"].get(m) for m in table["metric"]]
    if query.query.method == "exact":
        for column in columns[1:]:
            table[f"Δ {column.label}"] = table[column.label] - table[columns[0].label]
        return table, answers
    frames = []
    for question, request in asked:
        frames.append(batch_metrics(question, request, batches))
    for column, frame in zip(columns[1:], frames[1:], strict=True):
        differences = paired_differences(frames[0], frame)
        table[f"Δ {column.label}"] = [differences[m][2] if m in differences else None for m in table["metric"]]
        table[f"± {column.label}"] = [differences[m][3] if m in differences else None for m in table["metric"]]
    return table, answers


def compare_answer(asked: Question, query: CompareQuery, site: Site) -> dict[str, Any]:
    """The loadouts side by side, their distributions overlaid, and the links."""
    table, answers = compare_loadouts(query, site)
    columns = [c.label for c in query.columns()]
    frames = []
    for label, answer in zip(columns, answers, strict=True):
        for name, pmf in answer["distributions"].items():
            frames += [
                {
                    "distribution": name,
                    "outcome": int(k),
                    "probability": p,
                    "method": answer["method"],
                    "loadout": label,
                }
                for k, p in pmf.items()
            ]
    charts = []
    frame = pd.DataFrame(frames)
    trials = None if query.query.method == "exact" else int(answers[0]["trials"])
    for name in dict.fromkeys(frame["distribution"]) if len(frame) else []:
        caption = f"Distribution of {the(label_of(name, 'distributions'))}"
        part = frame[frame["distribution"] == name]
        spec = interactive.distribution_spec(part, name, caption, label_of(name, "distributions"), trials,
                                             series="loadout", series_title="loadout")  # fmt: skip
        charts.append({"name": f"distribution_{name}", "caption": caption, "spec": spec})
    rows = []
    words = Vocabulary(sides=side_names(answers[0])) if answers else Vocabulary()
    for record in table.to_dict("records"):
        cells = [shown(record[c]) for c in columns]
        deltas = []
        for c in columns[1:]:
            delta = record.get(f"Δ {c}")
            half = record.get(f"± {c}")
            if delta is not None and abs(delta) < 1e-12:  # a rounding error of equal answers
                delta = 0.0
            deltas.append("" if delta is None else shown(delta) + ("" if half is None else f" ± {shown(half)}"))
        rows.append(
            {
                "metric": record["metric"],
                "words": words.name(record["metric"], "metrics"),
                "doc": asked.metrics.get(record["metric"], ""),
                "cells": cells,
                "deltas": deltas,
            }
        )
    command = "\n".join(c.query.command(site) for c in query.columns())
    note = "Each loadout from the command line, one command a line (simlab compare runs an experiment's grid):"
    answer = grid_answer("compare", query.query, compare_items(query), [], charts, command, note)
    answer["comparison"] = {"columns": columns, "rows": rows, "paired": query.query.method != "exact"}
    answer["answer"]["key"] = leaders(table, columns, words, query.query.method == "exact")
    return answer


def leaders(table: pd.DataFrame, columns: Sequence[str], words: Vocabulary, exact: bool) -> list[dict[str, str]]:
    """A comparison's key numbers: its main metric (:data:`~simlab.output.headline.MAIN_METRICS`), highest first.

    Exact values are ranked, equal ones said as tied; sampled ones are not (their differences,
    with paired intervals, are in the table).
    """
    metric = next((m for m in MAIN_METRICS if m in set(table["metric"])), None)
    if metric is None:
        return []
    row = table[table["metric"] == metric].iloc[0]
    values = {c: float(row[c]) for c in columns if row[c] is not None and row[c] == row[c]}
    ranked = sorted(values, key=lambda c: -values[c])
    said = words.name(metric, "metrics")
    found = []
    for column in ranked[:4]:
        above = sum(1 for v in values.values() if v > values[column] and not same_value(v, values[column]))
        tied = sum(same_value(v, values[column]) for v in values.values()) > 1
        place = "highest" if above == 0 else _ordinal(above + 1)
        note = (f"{place}, tied" if tied else place) if exact else "sampled: the differences are below"
        found.append({"name": f"{metric} {column}", "shown": shown(values[column], 3), "words": f"{said}: {column}",
                      "note": note})  # fmt: skip
    return found


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def compare_fields(fields: Mapping[str, dict[str, Any]], given: dict[str, str]) -> list[dict[str, Any]]:
    """The Compare view's own fields: the input that varies and its options (a list to pick from where it has one).

    Args:
        fields: The fields of the question's page that may vary, by key.
        given: The query's values.
    """
    vary = field(
        {"name": "vary", "default": "", "doc": "the input whose options are compared"}, "vary", given.get("vary"),
        list(fields),
    )  # fmt: skip
    doc = f"its options (or {ALL}), separated by commas"
    example = "; ".join(f"{key}={f['value'] or f['placeholder']}" for key, f in list(fields.items())[:2])
    profile_doc = f"a full setup over the inputs below: KEY=VALUE; KEY=VALUE ({example})"
    profiles = [
        field({"name": key, "default": "", "doc": profile_doc if key == PROFILE_KEYS[0] else ""}, key, given.get(key))
        for key in PROFILE_KEYS
    ]
    return [
        {**vary, "reload": True},
        options_field(fields, given.get("vary"), "options", given.get("options"), doc),
        *profiles,
    ]
