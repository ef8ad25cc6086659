"""The pages of ``simlab serve``: one page per form of question, and the views of several answers.

:data:`PAGES` holds the page of each form (see :mod:`simlab.asking.requests`): a question of one
scenario (Ask), a duel's two sides, a battle's groups. Every page is a plain function of the
application's :class:`~simlab.web.config.Site`, the HTTP request and a progress callback, so the
server runs it on a worker thread; it shows the answer to the inputs in its address, or the
one-line error, beside the form generated from the registry.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlencode

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from simlab.inputs.errors import SimlabError
from simlab.output.rendering import render
from simlab.output.words import Vocabulary
from simlab.systems import Question, System, get_system, question_of
from simlab.web.answers import STANDING, SURVIVAL, answer_context, answer_spec, side_names
from simlab.web.balance import balance_answer, balance_fields, balance_keys, leading_keys, parse_balance
from simlab.web.battle import BattleQuery, battle_items, parse_battle, shipped_battles
from simlab.web.cache import answer_of
from simlab.web.compare import COMPARE_KEYS, compare_answer, compare_fields, parse_compare
from simlab.web.config import TEMPLATES, Site
from simlab.web.find_count import FIND_KEYS, find_count, find_fields, found_summary, parse_find
from simlab.web.forms import battle_groups, duel_groups, field_named, scenario_groups
from simlab.web.gallery import gallery, opening_items
from simlab.web.query import AttackQuery, DuelQuery, joined, parse_attack, parse_duel, variant_label
from simlab.web.questions import asked_kind
from simlab.web.sweep import SWEEP_KEYS, parse_sweep, sweep_answer, sweep_fields
from simlab.web.varied import view_form, view_query, view_question

__all__ = ["PAGES", "question_page", "grid_page", "sweep_page", "compare_page", "LABELS"]

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
        "battles": [],
        "battle_name": "",
        "add_group": None,
        "gallery": gallery(base.name),
    }


def opening(base: System, question: Question, request: Request) -> list[tuple[str, str]]:
    """What a page asks: its address, or where nothing is chosen yet, the question's example.

    A page opened with nothing chosen opens on an answer (a typical weapon, armour and range: the
    question's :attr:`~simlab.systems.Question.example`, an attack's the system's), its form filled
    in; a change of the form that leaves every field blank asks for nothing, and shows no answer.
    """
    items = request.query_params.multi_items()
    if any(key != "kind" for key, _ in items) or request.headers.get("HX-Request"):
        return items
    example = question.example or (base.example if question.kind == "attack" else {})
    return [*items, *example.items()]


def page_response(request: Request, context: dict[str, Any]) -> HTMLResponse:
    """The whole page, or only its answer for htmx (which swaps the answer in place); 400 with an error."""
    template = "answer.html.j2" if request.headers.get("HX-Request") else "ask.html.j2"
    return HTMLResponse(render(template, TEMPLATES, **context), status_code=400 if context["error"] else 200)


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
        query = parse_attack(base.name, opening(base, question, request), question.sampled_only, kind)
        if query.inputs or query.rules or not question.row_inputs or query.variant:
            asked, attack = query.request(site, progress)
            items = [(k, v) for k, v in query.items() if k != "kind"]  # the address names the kind
            outcomes = base.outcome_metrics
            result = answer_of(site.answers, query, (asked, attack))
            shown = answer_context(result, asked.metric_docs, kind, base.name, urlencode(items), query.command(),
                                   outcomes, vary=True, labels=base.distribution_labels)  # fmt: skip
            if query.variant:  # in force until removed; beside the base rules on the Compare view
                base_items = [(k, v) for k, v in items if k != "variant"]
                shown["variant"] = {
                    "label": variant_label(query.variant),
                    "compare": f"/compare/{base.name}?{urlencode(query.items())}",
                    "base": f"/{kind}/{base.name}?{urlencode(base_items)}",
                }
            context.update(shown)
    except SimlabError as exc:  # a page opened on its example says too why it cannot answer (a server's trial cap)
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
        query = parse_duel(base.name, opening(base, question, request), True, question.kind)
        if query.a or query.b:
            asked, duel = query.request(site, progress)
            result = answer_of(site.answers, query, (asked, duel))
            encoded = urlencode(query.items())
            context.update(
                answer_context(result, asked.metric_docs, question.kind, base.name, encoded, query.command(), vary=True,
                               labels=base.distribution_labels)
            )
    except SimlabError as exc:
        context["error"] = str(exc)
    context["groups"] = duel_groups(base, question, query, site.tables_of(base))
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
    shipped = shipped_battles(site.battles, base.name)
    context.update(battles=shipped, groups=[])
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
        groups = battle_groups(base, found, query, site.tables_of(base))
        context["groups"] = [*groups, ("find the count", find_fields(found, search))]
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
            context["found"] = found_summary(searched, search.path, Vocabulary(battle=found))
        result = answer_of(site.answers, query, query.request(site, progress))
        encoded = urlencode(query.items())
        shown = answer_context(result, base.metric_docs, kind, base.name, encoded, query.command(site), vary=True,
                               labels=base.distribution_labels)
        survival = {
            "url": f"/chart/{kind}/{base.name}?{encoded}&distribution={SURVIVAL}",
            "name": SURVIVAL,
            "caption": "Figures standing after each turn, per side (95 % bands)",
            "more": False,
        }
        standing = {
            "url": f"/chart/{kind}/{base.name}?{encoded}&distribution={STANDING}",
            "name": STANDING,
            "caption": "Figures standing at the end: {a} and {b}".format(**side_names(result)),
            "more": False,
        }
        for chart in (survival, standing):
            chart["spec"] = answer_spec(result, str(chart["name"]))
        shown["answer"]["chart_urls"][:0] = [survival, standing]
        for chart in shown["answer"]["chart_urls"]:  # the rest on demand: each chart is drawn when asked for
            chart["more"] = chart["name"] not in _BATTLE_CHARTS
        shown["answer"]["metrics"] = [m for m in shown["answer"]["metrics"] if not m["name"].startswith("standing_")]
        context.update(shown)
    except SimlabError as exc:
        context["error"] = str(exc)
    return page_response(request, context)


#: The charts a battle's page draws at once; its other distributions are drawn when opened.
_BATTLE_CHARTS = (SURVIVAL, STANDING)
#: The page of each form of question.
PAGES: dict[str, Page] = {"scenario": _scenario_page, "sides": _duel_page, "battle": _battle_page}


def grid_page(
    site: Site,
    system: str,
    request: Request,
    view: str,
    hint: str,
    own_keys: Sequence[str],
    asks: Sequence[str],
    answer: Callable[[Sequence[tuple[str, str]]], dict[str, Any]],
    own_fields: Callable[[dict[str, dict[str, Any]], Question, dict[str, str]], list[dict[str, Any]]],
    query_of: Callable[[Sequence[tuple[str, str]]], Any] | None = None,
) -> Response:
    """A view of several answers (Sweep, Compare) of any question: its own fields above that question's form.

    Args:
        site: The application.
        system: The system's id.
        request: The HTTP request (its query holds the view and the question it varies).
        view: The view's name.
        hint: What to do before anything is varied.
        own_keys: The view's own keys.
        asks: The keys that ask for an answer (a sweep's values; a comparison's own keys, or a variant).
        answer: ``items → what the answer region shows``.
        own_fields: ``(the page's fields that may vary, the question, the query's values) → the view's fields``.
        query_of: ``items → the query`` of the question the view asks (default: the view's question
            as the address gives it; None: a question its analysis completes, checked when asked):
            before an answer is asked for, what the address gives is read and checked, so that a
            mistake in it is said at once.
    """
    items = request.query_params.multi_items()
    if not items and not request.headers.get("HX-Request"):  # nothing chosen yet: a designer's question
        items = list(opening_items(system, view))
    base, question = view_question(system, items)
    kind = question.kind
    title = f"{view.capitalize()}: {question.title if kind != 'attack' else base.title}"
    context = view_context(site, base, kind, view, question.form, title, hint)
    try:
        if any(k in asks for k, _ in items):
            context.update(answer(items))
        else:
            read = query_of or (lambda given: view_query(site, system, given, own_keys)[2])
            _check_address(site, items, own_keys, read)
    except SimlabError as exc:
        context["error"] = str(exc)
    try:  # the form keeps the inputs the address gives (from "compare this")
        _, _, query = view_query(site, system, items, own_keys)
        groups, fields = view_form(site, base, question, query)
    except SimlabError:
        _, _, query = view_query(site, system, [("kind", kind)], own_keys)
        groups, fields = view_form(site, base, question, query)
    given = {**dict(items), **joined(items, (k for k, _ in items))}  # a list's several choices, joined
    context["groups"] = [(view, own_fields(fields, question, given)), *groups]
    if question.input_form.battle:
        context.update(battles=shipped_battles(site.battles, base.name), battle_name=getattr(query, "battle", ""))
    return page_response(request, context)


def _check_address(
    site: Site, items: Sequence[tuple[str, str]], own_keys: Sequence[str], query_of: Callable[[Any], Any]
) -> None:
    """Read what a view's address gives before an answer is asked for: its own values, then its question's inputs.

    Raises:
        SimlabError: For the first mistake (an unknown analysis, variant, input or value); an
            address that gives nothing of its question is not checked (the page opens empty).
    """
    query = query_of(items)
    if query is not None and any(k not in own_keys and k != "kind" for k, _ in items):
        question, request = query.request(site)
        question.check(request)


def sweep_page(site: Site, system: str, request: Request, progress: Callable[[int], None]) -> Response:
    """Sweep: one input along the x axis, a metric, one line per value of another."""

    def answer(items: Sequence[tuple[str, str]]) -> dict[str, Any]:
        return sweep_answer(parse_sweep(site, system, items), site)

    def fields(varied: dict[str, dict[str, Any]], question: Question, given: dict[str, str]) -> list[dict[str, Any]]:
        return sweep_fields(varied, list(question.metrics), given)

    hint = "Choose the input along the x axis, its values and a metric: the chart appears here."
    return grid_page(site, system, request, "sweep", hint, SWEEP_KEYS, ("values",), answer, fields)


def compare_page(site: Site, system: str, request: Request, progress: Callable[[int], None]) -> Response:
    """Compare: several loadouts side by side, their differences with paired intervals."""

    def answer(items: Sequence[tuple[str, str]]) -> dict[str, Any]:
        _, question = view_question(system, items)
        return compare_answer(question, parse_compare(site, system, items), site)

    def fields(varied: dict[str, dict[str, Any]], question: Question, given: dict[str, str]) -> list[dict[str, Any]]:
        return compare_fields(varied, given)

    hint = "Give two or more profiles, or the input that varies and its options, or a variant: side by side."
    return grid_page(site, system, request, "compare", hint, COMPARE_KEYS, (*COMPARE_KEYS, "variant"), answer, fields)


def balance_page(site: Site, system: str, request: Request, progress: Callable[[int], None]) -> Response:
    """Balance: the value at which a metric reaches a target, or what moves a metric most."""

    def answer(items: Sequence[tuple[str, str]]) -> dict[str, Any]:
        return balance_answer(parse_balance(site, system, items), site, progress)

    def fields(varied: dict[str, dict[str, Any]], question: Question, given: dict[str, str]) -> list[dict[str, Any]]:
        return balance_fields(varied, question, given)

    hint = "Solve for the value that reaches a target, rank what moves a metric, or hold a tournament of options."
    return grid_page(site, system, request, "balance", hint, balance_keys(), leading_keys(), answer, fields,
                     functools.partial(_balance_query, site, system))  # fmt: skip


def _balance_query(site: Site, system: str, items: Sequence[tuple[str, str]]) -> Any:
    """The question a Balance view's address asks, or None where its analysis completes it (a tournament's options)."""
    balance = parse_balance(site, system, items)
    return None if balance.analysis.own_cells else balance.query
