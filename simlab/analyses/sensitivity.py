"""``sensitivity``: which knobs move a metric most (Morris, then Sobol shares; :mod:`simlab.balance.sensitivity`).

Its tidy rows, one cell per knob (the input column ``factor``): ``st`` and ``s1`` (the Sobol total
and first-order shares, their bootstrap intervals as ``ci_low``/``ci_high``; none for a knob
screened out), ``mu_star`` and ``sigma`` (Morris).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from simlab.analyses import register
from simlab.analyses.base import Analysis, Key, Listed, Reader, Said, tidy_row
from simlab.balance.sensitivity import (
    DEFAULT_BASE,
    DEFAULT_TRAJECTORIES,
    SENSITIVITY_TRIALS,
    parse_factor,
    points_needed,
    sensitivity,
)
from simlab.balance.setup import Setup
from simlab.inputs.errors import SimlabError
from simlab.inputs.files import described
from simlab.inputs.limits import Limits
from simlab.output.balance_report import shares_chart
from simlab.output.balance_sentences import sensitivity_sentences
from simlab.output.document import Table
from simlab.output.words import Vocabulary, the
from simlab.records import BalanceAsk, ChartSpec, ExperimentRun

__all__ = ["SENSITIVITY", "SENSITIVITY_METRICS"]

#: The rows of each knob of a sensitivity.
SENSITIVITY_METRICS = ("st", "s1", "mu_star", "sigma")


def _read(reader: Reader) -> BalanceAsk:
    """``[sensitivity]``: ``metric``, the knobs of ``vary`` (two or more), ``trajectories`` and ``base``."""
    given, setup = reader.given, reader.setup
    if reader.grid:
        raise reader.fail("grid", "a sensitivity spreads [sensitivity.vary]; hold the rest in [fixed]", "")
    metric = reader.text("metric", 'the metric, such as "p_hit"')
    setup.check_metric(metric)
    vary = given.get("vary")
    if not isinstance(vary, dict):
        raise reader.fail("vary", 'expected a table of knobs, such as {skill = "0..4", cover = ["none", "full"]}')
    if len(vary) < 2:
        raise reader.fail("vary", f"expected two knobs or more (NAME=LOW..HIGH or NAME=A,B,C each), got {len(vary)}")
    spread = {
        name: value if isinstance(value, str) else ",".join(map(str, value)) if isinstance(value, list) else ""
        for name, value in vary.items()
    }
    for name, value in spread.items():
        try:
            parse_factor(setup, f"{name}={value}", "vary")
        except SimlabError as exc:
            raise reader.fail("vary", str(exc)) from None
    sizes = {}
    for key, default in (("trajectories", DEFAULT_TRAJECTORIES), ("base", DEFAULT_BASE)):
        sizes[key] = given.get(key, default)
        if isinstance(sizes[key], bool) or not isinstance(sizes[key], int):
            raise reader.fail(key, f"expected a whole number, got {described(sizes[key])}")
    if sizes["trajectories"] < 2 or sizes["base"] < 16 or sizes["base"] & (sizes["base"] - 1):
        raise reader.fail("base", "expected trajectories of at least 2 and base a power of 2 from 16")
    return BalanceAsk("sensitivity", metric, vary=spread, analysis="sensitivity", **sizes)


def _units(ask: BalanceAsk, setup: Setup) -> int:
    return points_needed(len(ask.vary), ask.trajectories, ask.base)


def _answer(setup: Setup, ask: BalanceAsk, limits: Limits, counted: Callable[[Any], None], words: Vocabulary) -> Any:
    factors = [parse_factor(setup, f"{name}={value}") for name, value in ask.vary.items()]
    return sensitivity(setup, ask.metric, factors, trajectories=ask.trajectories, base=ask.base, limits=limits,
                       progress=counted)  # fmt: skip


def _rows(ranked: Any, trials: int | None) -> list[dict[str, Any]]:
    """Per knob (in the order given, its ``cell``), its shares and Morris measures."""
    nan = np.nan
    effects = {e.name: e for e in ranked.effects}
    rows = []
    for cell, factor in enumerate(ranked.factors):
        effect = effects[factor.name]
        measures = (
            ("st", effect.st, effect.st_conf),
            ("s1", effect.s1, effect.s1_conf),
            ("mu_star", effect.mu_star, effect.mu_star_conf),
            ("sigma", effect.sigma, None),
        )
        for metric, value, half in measures:
            if value is None:  # screened out by Morris: no Sobol share
                continue
            low, high = (nan, nan) if half is None else (value - half, value + half)
            rows.append({"cell": cell, "factor": factor.name, **tidy_row(metric, value, low, high, ranked.trials)})
    return rows


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


def _said(run: ExperimentRun, words: Vocabulary) -> Said:
    ask, variants = run.experiment.balance, run.experiment.variants
    assert ask is not None
    metric = words.name(ask.metric, "metrics")
    knobs = ", ".join(words.name(k, "inputs") for k in ask.vary)
    headline: list[str] = []
    for variant, _, ranked in run.balance:
        lines = sensitivity_sentences(ranked, words)
        if variants:
            lines[0] = f"Under {variant}: {lines[0]}"
        headline += lines if not headline else lines[:1]
    table = Table("The knobs, ranked: Sobol shares (total and first order) and Morris measures",
                  _ranking_table(run.balance[0][2], words))  # fmt: skip
    return Said(f"what moves {the(metric)} over {knobs}", headline, [table])


def _charts(run: ExperimentRun, words: Vocabulary) -> list[tuple[ChartSpec, Any]]:
    charts = []
    for variant, _, ranked in run.balance:
        title = None if not run.experiment.variants else f"What moves it under {variant}"
        charts.append((ChartSpec("shares", {"name": f"shares_{variant}"}), shares_chart(ranked, title)))
    return charts


def _listed(ranked: Any, words: Vocabulary) -> Listed:
    """Each knob: its total share with its half-width, its share alone and Morris's measure."""
    rows = []
    for effect in ranked.effects:
        share = "" if effect.st is None else f"{effect.st:.3f}"
        interval = "" if effect.st is None else f"± {effect.st_conf:.3f}"
        doc = f"Morris μ* {effect.mu_star:.3f}"
        doc = doc if effect.s1 is None else f"alone {effect.s1:.3f}, {doc}"
        rows.append({"name": effect.name, "words": words.name(effect.name, "inputs"), "shown": share,
                     "interval": interval, "doc": doc})  # fmt: skip
    return Listed("knobs", rows)


def _knobs(texts: list[str], where: str) -> dict[str, str]:
    """The knobs, ``NAME=LOW..HIGH`` or ``NAME=A,B,C`` each, by name."""
    knobs = {}
    for text in texts:
        name, equals, spread = text.partition("=")
        if not equals or not name.strip():
            raise SimlabError(f"{where}: expected NAME=LOW..HIGH or NAME=A,B,C, got {text[:60]!r}")
        if name.strip() in knobs:
            raise SimlabError(f"{where}: {name.strip()[:40]} is given twice: give each knob once")
        knobs[name.strip()] = spread.strip()
    return knobs


def _size(texts: list[str], where: str) -> Any:
    from simlab.text import whole_number

    found = whole_number(texts[-1])
    return texts[-1] if found is None else found


#: The keys of ``[sensitivity]``, ``simlab sensitivity``'s options, the page's fields.
KEYS = (
    Key("metric", "the metric whose variance is shared out", "METRIC", choices="metrics"),
    Key("vary", "the knobs: NAME=LOW..HIGH or NAME=A,B,C (an input, rule parameter or ROW.COLUMN)",
        "NAME=LOW..HIGH|A,B,C", many=";", convert=_knobs, leads=True),
    Key("trajectories", f"Morris trajectories, the screening (default {DEFAULT_TRAJECTORIES})", "N",
        convert=_size, web=False),
    Key("base", f"Sobol base points, a power of 2: the shares (default {DEFAULT_BASE})", "N", convert=_size,
        web=False),
)  # fmt: skip
#: The sizes of a sensitivity on the page (the command's are larger): a ranking within seconds.
PAGE_SIZES = {"trajectories": 10, "base": 64}


SENSITIVITY = register(
    Analysis(
        name="sensitivity",
        table="sensitivity",
        summary="which inputs and rule parameters move a metric most",
        keys=KEYS,
        read=_read,
        units=_units,
        columns=("factor",),
        answer=_answer,
        rows=_rows,
        said=_said,
        charts=_charts,
        trials=SENSITIVITY_TRIALS,
        page_given=PAGE_SIZES,
        sentences=sensitivity_sentences,
        figures=lambda ranked, words: [
            ("balance", f"What moves {words.name(ranked.metric, 'metrics')}", shares_chart(ranked))
        ],
        listed=_listed,
        frame=lambda ranked: ranked.frame(),
    )
)
