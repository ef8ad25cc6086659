"""What a view shows of one answer: its metrics with intervals, its charts (PNG), its CSV and JSON.

One answer is the JSON of ``simlab attack``, ``duel`` or ``battle`` (``--json``), whatever the
kind of question; everything here reads that JSON only.
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlencode

import pandas as pd
from fastapi.responses import Response

from simlab.inputs.errors import SimlabError, shortened
from simlab.inputs.limits import DEFAULT_TRIALS
from simlab.output import interactive, plots
from simlab.output.document import Chart
from simlab.output.plots import label_of
from simlab.output.resolution import resolution_lines
from simlab.output.saving import png_bytes
from simlab.output.words import Vocabulary, sentence_case, the
from simlab.text import shown, shown_interval

__all__ = [
    "LINKS",
    "OUTCOMES",
    "SURVIVAL",
    "answer_context",
    "shown",
    "metrics_frame",
    "chart_response",
    "answer_chart",
    "distribution_chart",
    "csv_response",
    "json_response",
    "grid_answer",
    "chart_caption",
    "chart_png",
    "STANDING",
    "answer_spec",
]

#: The links an answer offers: the page itself, its JSON and its CSV.
LINKS = {"page": "", "json": "/api", "csv": "/csv"}
#: The name of the outcome-breakdown chart among an answer's charts.
OUTCOMES = "outcomes"
#: The name of a battle's survival curves among its charts.
SURVIVAL = "survival"
#: The name of a battle's chart of both sides' figures standing at the end.
STANDING = "standing"
_CACHED = {"Cache-Control": "private, max-age=3600"}
#: The metrics an answer leads with (its first four found, in this order), in a block of large numbers.
KEY_METRICS = (
    "p_a_wins", "p_b_wins", "p_draw", "mean_turns", "p_hit", "mean_damage", "mean_applied_hits", "p_incapacitated",
    "p_killed", "p_survival", "p_recovered", "mean_criticals", "mean_locations", "mean_in_burst", "mean_hits",
)  # fmt: skip
#: Key numbers an answer leads with.
_KEYS = 4


def answer_context(
    result: dict[str, Any],
    docs: Mapping[str, str],
    view: str,
    system: str,
    encoded: str,
    command: str,
    outcomes: Sequence[str] = (),
    vary: bool = False,
    labels: Mapping[str, Sequence[str]] | None = None,
) -> dict[str, Any]:
    """What ``answer.html.j2`` shows of one result's JSON: metrics with intervals, charts, links, command.

    Args:
        result: The answer's JSON.
        docs: Each metric's description.
        view: The address's first part (the kind of question: ``attack``, ``duel``, ``explosion``).
        system: The system's id.
        encoded: The query string of the question.
        command: The command line that asks it.
        outcomes: The system's exclusive outcomes (drawn stacked when the answer has them all).
        vary: Offer the Compare and Sweep views of the question.
        labels: The names of the outcomes of distributions, by name prefix (the system's ``distribution_labels``).
    """
    intervals = result.get("ci95", {})
    metrics = []
    words = Vocabulary(sides=side_names(result))
    for name, value in result["metrics"].items():
        low_high = intervals.get(name)
        metrics.append(
            {
                "name": name,
                "words": words.name(name, "metrics"),
                "shown": shown(value),
                "interval": shown_interval(*low_high) if low_high else "",
                "doc": docs.get(name, ""),
            }
        )
    # The charts are drawn in the page from their specifications; each has a picture of its own (/chart/...).
    chart_urls = [
        {
            "url": f"/chart/{view}/{system}?{encoded}&{urlencode({'distribution': name})}",
            "name": name,
            "caption": chart_caption(name, result),
            "more": False,
        }
        for name, pmf in result["distributions"].items()
        if pmf
    ]
    if outcomes and all(m in result["metrics"] for m in outcomes):  # the system's breakdown of exclusive outcomes
        chart_urls.insert(
            0,
            {
                "url": f"/chart/{view}/{system}?{encoded}&distribution={OUTCOMES}",
                "name": OUTCOMES,
                "caption": "How the attack ends: its exclusive outcomes",
                "more": False,
            },
        )
    for chart in chart_urls:  # drawn in the page from its specification; the URL is its picture, to download
        chart["spec"] = answer_spec(result, chart["name"], outcomes, labels)
    links = {kind: f"{prefix}/{view}/{system}?{encoded}" for kind, prefix in LINKS.items()}
    if vary:  # its options side by side, or one input swept
        asked = f"{encoded}&kind={view}" if view != "attack" else encoded
        links.update(compare=f"/compare/{system}?{asked}", sweep=f"/sweep/{system}?{asked}")
    return {
        "answer": {
            "method": result["method"],
            "trials": result["trials"],
            "seed": result["seed"],
            "key": key_numbers(result, words),
            "metrics": metrics,
            "charts": [],
            "chart_urls": chart_urls,
            "resolution": resolution_lines(result.get("resolution", {})),
        },
        "links": links,
        "command": command,
    }


def key_numbers(result: Mapping[str, Any], words: Vocabulary) -> list[dict[str, str]]:
    """The few numbers an answer leads with (:data:`KEY_METRICS`), to three figures, with their 95 % intervals."""
    found = [m for m in KEY_METRICS if m in result["metrics"]][:_KEYS] or list(result["metrics"])[:_KEYS]
    intervals = result.get("ci95", {})
    key = []
    for name in found:
        low_high = intervals.get(name)
        key.append({
            "name": name,
            "words": words.name(name, "metrics"),
            "shown": shown(float(result["metrics"][name]), 3),
            **({"interval": shown_interval(low_high[0], low_high[1], digits=3)} if low_high else {"note": "exact"}),
        })  # fmt: skip
    return key


def answer_spec(
    result: dict[str, Any],
    name: str,
    outcomes: Sequence[str] = (),
    labels: Mapping[str, Sequence[str]] | None = None,
) -> dict[str, Any]:
    """One chart of an answer as the page draws it (Vega-Lite): the same charts as :func:`answer_chart`'s pictures.

    Raises:
        SimlabError: For a chart the answer does not have, with those it has.
    """
    trials = None if result["method"] == "exact" else int(result["trials"])
    intervals = result.get("ci95", {})
    if name == OUTCOMES and outcomes:
        words = Vocabulary()
        shares = [(words.name(m, "metrics"), float(result["metrics"][m]), intervals.get(m)) for m in outcomes]
        return interactive.outcomes_spec("How the attack ends", shares)
    if name == SURVIVAL and any(m.startswith("standing_") for m in result["metrics"]):
        title = f"Figures standing after each turn: {result['scenario'].get('battle', '')}"
        return interactive.survival_spec(title, metrics_frame(result), side_names(result))
    if name == STANDING and {"standing_a", "standing_b"} <= set(result["distributions"]):
        names = side_names(result)
        frame = _standing_frame(result)
        caption = f"Figures standing at the end: {names['a']} and {names['b']}"
        return interactive.distribution_spec(frame, STANDING, caption, "figures standing at the end", trials,
                                             series="side", series_title="side")  # fmt: skip
    pmf, named = _distribution(result, name, labels)
    return interactive.distribution_spec(
        _pmf_frame(pmf), name, chart_caption(name, result), label_of(name, "distributions"), trials,
        outcome_labels=named,
    )  # fmt: skip


def _distribution(
    result: Mapping[str, Any], name: str, labels: Mapping[str, Sequence[str]] | None
) -> tuple[Mapping[str, float], dict[int, str] | None]:
    """A distribution of an answer and the names of its outcomes (by the system's name prefixes), if any.

    Raises:
        SimlabError: For a distribution the answer does not have, with those it has.
    """
    pmf = result["distributions"].get(name)
    if not pmf:
        raise SimlabError(f"unknown distribution {shortened(name)!r} (valid: {', '.join(result['distributions'])})")
    named = next((names for prefix, names in (labels or {}).items() if name.startswith(prefix)), None)
    return pmf, dict(enumerate(named)) if named else None


def _pmf_frame(pmf: Mapping[str, float]) -> pd.DataFrame:
    """A distribution of an answer's JSON as rows of ``outcome`` and ``probability``."""
    return pd.DataFrame({"outcome": [int(k) for k in pmf], "probability": [float(p) for p in pmf.values()]})


def _standing_frame(result: Mapping[str, Any]) -> pd.DataFrame:
    """Both sides' figures standing at the end of a battle, as rows of ``outcome``, ``probability`` and ``side``."""
    names = side_names(result)
    return pd.concat(_pmf_frame(result["distributions"][f"standing_{s}"]).assign(side=names[s]) for s in "ab")


def chart_caption(name: str, result: Mapping[str, Any]) -> str:
    """What a distribution of an answer is, in words: a battle's side by its name, not "a" or "b"."""
    base = name.removesuffix("_exact")
    stem, _, side = base.rpartition("_")
    names = side_names(result)
    if side in ("a", "b") and names[side] != side:
        exact = " (exact)" if name != base else ""
        return f"{sentence_case(label_of(stem))}: {names[side]}{exact}"
    return f"Distribution of {the(label_of(name, 'distributions'))}"


def metrics_frame(result: dict[str, Any]) -> pd.DataFrame:
    """The metrics of a result, with their intervals where sampled, one row each."""
    intervals = result.get("ci95", {})
    return pd.DataFrame(
        [
            {
                "metric": name,
                "value": value,
                "ci_low": intervals.get(name, [None, None])[0],
                "ci_high": intervals.get(name, [None, None])[1],
            }
            for name, value in result["metrics"].items()
        ]
    )


def chart_response(png: bytes) -> Response:
    """A chart's PNG as the browser may keep it (the same address always draws the same image)."""
    return Response(png, media_type="image/png", headers=_CACHED)


def answer_chart(
    result: dict[str, Any],
    name: str,
    outcomes: Sequence[str] = (),
    at_least: bool = False,
    labels: Mapping[str, Sequence[str]] | None = None,
) -> bytes:
    """One chart of an answer as a PNG: a distribution, the outcome breakdown or a battle's survival curves.

    The same answer draws the same image; ``labels`` names the outcomes of distributions by name prefix
    (the system's ``distribution_labels``: wound levels).

    Raises:
        SimlabError: For a chart the answer does not have, with those it has.
    """
    if name == OUTCOMES and outcomes:
        rows = [
            {"answer": "this attack", "metric": m, "value": result["metrics"][m], "method": result["method"]}
            for m in outcomes
        ]
        figure = plots.stacked(pd.DataFrame(rows), metrics=outcomes, rows="answer", title="How the attack ends")
        return chart_png(figure)
    if name == SURVIVAL and any(m.startswith("standing_") for m in result["metrics"]):
        frame = metrics_frame(result).assign(method=result["method"])
        figure = plots.survival(frame, title=f"Figures standing: {result['scenario']['battle']}")
        return chart_png(figure)
    if name == STANDING and {"standing_a", "standing_b"} <= set(result["distributions"]):
        return standing_chart(result, at_least).png
    pmf, named = _distribution(result, name, labels)
    chart = distribution_chart(name, dict(pmf), result["method"], chart_caption(name, result), at_least, named)
    png: bytes = chart.png
    return png


def distribution_chart(
    name: str,
    pmf: dict[str, float],
    method: str,
    caption: str | None = None,
    at_least: bool = False,
    outcome_labels: Mapping[int, str] | None = None,
) -> Chart:
    """One distribution of the answer, drawn as the reports draw distributions (or the chance of at least each)."""
    frame = pd.DataFrame(
        {"distribution": name, "outcome": [int(k) for k in pmf], "probability": list(pmf.values()), "method": method}
    )
    caption = caption or f"Distribution of {the(label_of(name, 'distributions'))}"
    title = f"{caption}: the chance of at least each" if at_least else caption
    figure = plots.distribution(frame, name=name, title=title, at_least=at_least, outcome_labels=outcome_labels)
    width, height = (float(v) for v in figure.get_size_inches())
    return Chart(f"distribution_{name}", title, chart_png(figure), width, height)


def side_names(result: Mapping[str, Any]) -> dict[str, str]:
    """A battle's sides by their names (``a`` and ``b`` where the answer names none)."""
    sides = result.get("scenario", {})
    return {s: str(sides[s]["name"]) if isinstance(sides.get(s), dict) and sides[s].get("name") else s for s in "ab"}


def standing_chart(result: Mapping[str, Any], at_least: bool = False) -> Chart:
    """Both sides' figures standing at the end of a battle in one chart, a bar per side and count."""
    names = side_names(result)
    frame = _standing_frame(result).assign(distribution=STANDING, method=result["method"])
    caption = f"Figures standing at the end: {names['a']} and {names['b']}"
    title = f"{caption}: the chance of at least each" if at_least else caption
    figure = plots.distribution(frame, name=STANDING, by="side", title=title, at_least=at_least)
    figure.axes[0].set_xlabel("figures standing at the end")
    width, height = (float(v) for v in figure.get_size_inches())
    return Chart("distribution_standing", title, chart_png(figure), width, height)


def chart_png(figure: Any) -> bytes:
    """A chart as the page sends it: drawn per request, so encoded quickly (a little larger than a report's)."""
    return png_bytes(figure, compress_level=1)


def csv_response(result: dict[str, Any]) -> Response:
    """The metrics of a result (with their intervals when sampled) as CSV, each row with the inputs that gave it."""
    inputs = {key: result.get(key) for key in ("system", "method", "trials", "seed", "variant")}
    inputs.update(_flat(result.get("scenario", {})))
    frame = metrics_frame(result)
    for column, value in reversed(inputs.items()):
        frame.insert(0, column, [value] * len(frame))
    buffer = io.StringIO()
    frame.to_csv(buffer, index=False, lineterminator="\n")
    return Response(buffer.getvalue(), media_type="text/csv")


def _flat(values: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested inputs (a battle's sides and groups) as dotted columns: ``a.groups.0.weapon``."""
    flat: dict[str, Any] = {}
    for key, value in values.items():
        if isinstance(value, Mapping):
            flat.update(_flat(value, f"{prefix}{key}."))
        elif isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
            for index, item in enumerate(value):
                flat.update(_flat(item, f"{prefix}{key}.{index}."))
        else:
            flat[f"{prefix}{key}"] = value if not isinstance(value, list) else ",".join(map(str, value))
    return flat


def json_response(payload: Any) -> Response:
    """The JSON text the command line prints (NaN included where it prints NaN)."""
    return Response(json.dumps(payload, indent=2), media_type="application/json")


def grid_answer(
    view: str,
    attack: Any,
    items: list[tuple[str, Any]],
    metrics: list[dict[str, Any]],
    charts: Sequence[Chart | dict[str, Any]],
    command: str,
    note: str,
) -> dict[str, Any]:
    """What ``answer.html.j2`` shows of a view of several answers (Sweep, Compare): points, charts, links, command.

    Args:
        view: The view (``sweep``, ``compare``).
        attack: The :class:`~simlab.web.query.AttackQuery` the view varies.
        items: The view's query string, as pairs.
        metrics: The rows shown.
        charts: The charts: pictures, or the page's own (``name``, ``caption``, ``spec``: Vega-Lite).
        command: What runs the same from the command line.
        note: The sentence above the command.
    """
    encoded = urlencode(items)
    return {
        "answer": {
            "method": attack.method,
            "trials": attack.trials or DEFAULT_TRIALS,
            "seed": attack.seed,
            "metrics": metrics,
            "charts": charts,
        },
        "links": {kind: f"{prefix}/{view}/{attack.system}?{encoded}" for kind, prefix in LINKS.items()},
        "command": command,
        "command_note": note,
    }
