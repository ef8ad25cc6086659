"""The pages of ``simlab serve``: one page per form of question, and the views of several answers.

:data:`PAGES` holds the page of each form (see :mod:`simlab.inputs.requests`): a question of one
scenario (Ask), a duel's two sides, a battle's groups. Every page is a plain function of the
application's :class:`~simlab.web.config.Site`, the HTTP request and a progress callback, so the
server runs it on a worker thread; it shows the answer to the inputs in its address, or the
one-line error, beside the form generated from the registry.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlencode

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from simlab.inputs.errors import SimlabError
from simlab.output.rendering import render
from simlab.systems import Question, System, get_system, question_of
from simlab.web.answers import SURVIVAL, answer_context
from simlab.web.battle import BattleQuery, battle_items, parse_battle
from simlab.web.cache import answer_of
from simlab.web.compare import PROFILE_KEYS, compare_answer, compare_fields, parse_compare
from simlab.web.config import Site
from simlab.web.find_count import FIND_KEYS, find_count, find_fields, found_summary, parse_find
from simlab.web.forms import battle_groups, duel_groups, field_named, scenario_groups
from simlab.web.query import AttackQuery, DuelQuery, joined, parse_attack, parse_duel, variant_label
from simlab.web.questions import asked_kind
from simlab.web.sweep import SWEEP_KEYS, parse_sweep, sweep_answer, sweep_fields

__all__ = ["PAGES", "question_page", "grid_page", "sweep_page", "compare_page", "grid_question", "LABELS"]

#: How the home page names the questions every system may ask (the others by their titles).
LABELS = {"attack": "one attack", "duel": "a duel", "battle": "a battle of several a side"}
#: A page: ``(site, system, question, request, progress) → response``.
Page = Callable[[Site, System, Question, Request, Callable[[int], None]], Response]


def question_page(
    site: Site,
    kind: str,
    system: str,
    request: Request,
    progress: Callable[[int], None],
) -> Response:
    """The page of the question of ``kind`` (``/KIND/SYSTEM``), by its form.

    Raises:
        SimlabError: For an unknown system or a kind it does not ask.
    """
    base = get_system(system)
    question = question_of(base, asked_kind(kind, request.query_params.multi_items()))
    return PAGES[question.form](site, base, question, request, progress)


def view_context(site: Site, base: System, kind: str, view: str, form: str, title: str, hint: str) -> dict[str, Any]:
    """What every page's template starts from (an answer, an error and the form are added to it)."""
    return {
        "systems": site.systems,
        "system": base,
        "kind": kind,
        "view": view,
        "form": form,
        "title": title,
        "hint": hint,
        "error": None,
        "error_field": None,
        "answer": None,
        "labels": LABELS,
    }


def page_response(request: Request, context: dict[str, Any]) -> HTMLResponse:
    """The whole page, or only its answer for htmx (which swaps the answer in place); 400 with an error."""
    template = "answer.html.j2" if request.headers.get("HX-Request") else "ask.html.j2"
    return HTMLResponse(render(template, **context), status_code=400 if context["error"] else 200)


def _scenario_page(
    site: Site,
    base: System,
    question: Question,
    request: Request,
    progress: Callable[[int], None],
) -> Response:
    """Ask: a question of one scenario; the answer follows every change of the form."""
    kind = question.kind
    title = question.title if kind != "attack" else f"One attack: {base.title}"
    hint = "Choose the inputs above: the answer appears here."
    context = view_context(site, base, kind, kind, question.form, title, hint)
    query = AttackQuery(base.name, kind)
    try:
        query = parse_attack(base.name, request.query_params.multi_items(), question.sampled_only, kind)
        if query.inputs or query.rules or not question.row_inputs or query.variant:
            asked, attack = query.request(site, progress)
            items = [(k, v) for k, v in query.items() if k != "kind"]  # the address names the kind
            outcomes = base.outcome_metrics
            result = answer_of(site.answers, query, (asked, attack))
            shown = answer_context(result, asked.metric_docs, kind, base.name, urlencode(items), query.command(),
                                   outcomes, vary=True)  # fmt: skip
            if query.variant:  # in force until removed; beside the base rules on the Compare view
                base_items = [(k, v) for k, v in items if k != "variant"]
                shown["variant"] = {
                    "label": variant_label(query.variant),
                    "compare": f"/compare/{base.name}?{urlencode(query.items())}",
                    "base": f"/{kind}/{base.name}?{urlencode(base_items)}",
                }
            context.update(shown)
    except SimlabError as exc:
        if query.inputs or query.rules:  # a page opened with nothing chosen yet shows the hint, not an error
            context["error"] = str(exc)
            context["error_field"] = field_named(str(exc), question, base)
    context["groups"] = scenario_groups(base, question, query, site)
    context["query_string"] = request.url.query
    return page_response(request, context)


def _duel_page(
    site: Site,
    base: System,
    question: Question,
    request: Request,
    progress: Callable[[int], None],
) -> Response:
    """A duel: both sides' inputs; the duels are sampled."""
    hint = "Choose both sides above: the duels are sampled and their outcome appears here."
    context = view_context(site, base, question.kind, question.kind, question.form, f"A duel: {base.title}", hint)
    query = DuelQuery(base.name, kind=question.kind)
    try:
        query = parse_duel(base.name, request.query_params.multi_items(), True, question.kind)
        if query.a or query.b:
            asked, duel = query.request(site, progress)
            result = answer_of(site.answers, query, (asked, duel))
            encoded = urlencode(query.items())
            context.update(
                answer_context(result, asked.metric_docs, question.kind, base.name, encoded, query.command())
            )
    except SimlabError as exc:
        context["error"] = str(exc)
    context["groups"] = duel_groups(base, question, query)
    return page_response(request, context)


def _battle_page(
    site: Site,
    base: System,
    question: Question,
    request: Request,
    progress: Callable[[int], None],
) -> Response:
    """A battle: a shipped battle's sides as editable groups; the battles are sampled."""
    kind = question.kind
    hint = "Change a side's groups, doctrine or range: the battles are sampled and their survival curves appear here."
    context = view_context(site, base, kind, kind, question.form, f"A battle: {base.title}", hint)
    shipped = sorted(name for name, (owner, _) in site.battles.items() if owner == base.name)
    context.update(battles=shipped, add_group=None, groups=[])
    search, items = None, request.query_params.multi_items()
    try:
        search, items = parse_find(items)
    except SimlabError as exc:
        context["error"] = str(exc)
        items = [(k, v) for k, v in items if k not in FIND_KEYS]
    query: BattleQuery = parse_battle(base.name, items, True, kind)
    if not query.battle and shipped:
        query = dataclasses.replace(query, battle=shipped[0])
    context["battle_name"] = query.battle
    try:
        found = query.load(site.battles)
        context["groups"] = [*battle_groups(base, found, query), ("find the count", find_fields(found, search))]
        context["add_group"] = {  # a new group, like the side's last one
            label: f"/{kind}/{base.name}?"
            + urlencode([*battle_items(query), (f"{label}.groups.{len(side.groups)}.count", 1)])
            for label, side in zip("ab", found.sides, strict=True)
        }
        if context["error"]:
            return page_response(request, context)
        if search is not None:  # the battle shown is the one at the count found
            side, group = found.sides["ab".index(search.path[0])], int(search.path.split(".")[2])
            if group >= len(side.groups):
                raise SimlabError(f"find {search.path}: side {search.path[0]} has {len(side.groups)} group(s)")
            searched = find_count(search, query, side.groups[group].count, site, progress)
            query = searched["query"]
            context["found"] = found_summary(searched, side.name, side.groups[group].name)
        result = answer_of(site.answers, query, query.request(site, progress))
        encoded = urlencode(query.items())
        shown = answer_context(result, base.metric_docs, kind, base.name, encoded, query.command(site))
        survival = {
            "url": f"/chart/{kind}/{base.name}?{encoded}&distribution={SURVIVAL}",
            "name": SURVIVAL,
            "caption": "Figures standing after each turn, per side (95 % bands)",
            "more": False,
        }
        shown["answer"]["chart_urls"].insert(0, survival)
        for chart in shown["answer"]["chart_urls"]:  # the rest on demand: each chart is drawn when asked for
            chart["more"] = chart["name"] not in _BATTLE_CHARTS
        shown["answer"]["metrics"] = [m for m in shown["answer"]["metrics"] if not m["name"].startswith("standing_")]
        context.update(shown)
    except SimlabError as exc:
        context["error"] = str(exc)
    return page_response(request, context)


#: The charts a battle's page draws at once; its other distributions are drawn when opened.
_BATTLE_CHARTS = (SURVIVAL, "turns", "standing_a", "standing_b")
#: The page of each form of question.
PAGES: dict[str, Page] = {"scenario": _scenario_page, "sides": _duel_page, "battle": _battle_page}


def grid_question(system: str, items: Sequence[tuple[str, str]]) -> tuple[System, Question]:
    """The system of a view of several answers and the question it varies (``kind=``, one scenario).

    Raises:
        SimlabError: For an unknown system or kind, or a question that is not of one scenario.
    """
    base = get_system(system)
    question = question_of(base, asked_kind("attack", items))
    if question.form != "scenario":
        raise SimlabError(f"sweeps and comparisons vary a question of one scenario, not a {question.kind}")
    return base, question


def grid_page(
    site: Site,
    system: str,
    request: Request,
    view: str,
    hint: str,
    asked: Callable[[dict[str, str]], bool],
    answer: Callable[[Question, Sequence[tuple[str, str]]], tuple[AttackQuery, dict[str, Any]]],
    own_fields: Callable[[System, Question, dict[str, str]], list[dict[str, Any]]],
) -> Response:
    """A view of several answers (Sweep, Compare): its own fields above the Ask page's form."""
    items = request.query_params.multi_items()
    base, question = grid_question(system, items)
    kind = question.kind
    title = f"{view.capitalize()}: {question.title if kind != 'attack' else base.title}"
    context = view_context(site, base, kind, view, question.form, title, hint)
    attack = None
    try:
        if asked(dict(items)):
            attack, shown = answer(question, items)
            context.update(shown)
    except SimlabError as exc:
        context["error"] = str(exc)
    if attack is None:  # nothing varied yet: the form keeps the inputs the address gives (from "compare this")
        try:
            attack = parse_attack(system, items, question.sampled_only, kind)
        except SimlabError:
            attack = parse_attack(system, [], question.sampled_only, kind)
    given = {**dict(items), **joined(items, (k for k, _ in items))}  # a list's several choices, joined
    context["groups"] = [(view, own_fields(base, question, given)), *scenario_groups(base, question, attack, site)]
    return page_response(request, context)


def sweep_page(site: Site, system: str, request: Request, progress: Callable[[int], None]) -> Response:
    """Sweep: one input along the x axis, a metric, one line per value of another."""

    def answer(question: Question, items: Sequence[tuple[str, str]]) -> tuple[AttackQuery, dict[str, Any]]:
        query = parse_sweep(system, items, question.sampled_only)
        return query.attack, sweep_answer(query, site)

    hint = "Choose the input along the x axis, its values and a metric: the chart appears here."
    wanted = lambda given: any(k in given for k in SWEEP_KEYS)  # noqa: E731 - a one-line test
    return grid_page(site, system, request, "sweep", hint, wanted, answer, sweep_fields)


def compare_page(site: Site, system: str, request: Request, progress: Callable[[int], None]) -> Response:
    """Compare: several loadouts side by side, their differences with paired intervals."""

    def answer(question: Question, items: Sequence[tuple[str, str]]) -> tuple[AttackQuery, dict[str, Any]]:
        query = parse_compare(system, items, question.sampled_only)
        return query.attack, compare_answer(question, query, site)

    hint = "Give two or more profiles, or the input that varies and its options, or a variant: side by side."
    wanted = lambda given: any(key in given for key in ("vary", "variant", *PROFILE_KEYS))  # noqa: E731
    return grid_page(site, system, request, "compare", hint, wanted, answer, compare_fields)
