"""What the Sweep and Compare views vary: any question, by the fields of its own page.

A point of a sweep, or a loadout of a comparison, is the question of the page it came from (an
attack, a Tyconian explosion, a duel, a battle) with some values of its query string changed,
read again by that form's own parser (:data:`~simlab.web.questions.PARSERS`): it is checked
exactly as its page checks it, and its link, command and experiment are that page's. What may
vary, and the values to pick from, are that page's own fields (``weapon``, ``a.weapon``,
``a.groups.0.count``, ``b.doctrine.suppressors``, ``range_band``...).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from simlab.inputs.limits import Limits
from simlab.systems import Question, System, get_system, question_of
from simlab.web.battle import shipped_battles
from simlab.web.config import Site
from simlab.web.forms import Groups, form_groups, varied_fields
from simlab.web.questions import PARSERS, Query, asked_kind

__all__ = ["view_question", "view_query", "varied", "view_items", "view_form", "requests_within"]


def view_question(system: str, items: Sequence[tuple[str, str]]) -> tuple[System, Question]:
    """The system of a view of several answers and the question it varies (``kind=``; an attack by default).

    Raises:
        SimlabError: For an unknown system or kind, with the valid ones.
    """
    base = get_system(system)
    return base, question_of(base, asked_kind("attack", items))


def view_query(
    site: Site, system: str, items: Sequence[tuple[str, str]], own_keys: Collection[str]
) -> tuple[System, Question, Query]:
    """The question a view varies, read from the view's query string without the view's own keys.

    A battle's view with no ``battle`` starts from the system's first shipped battle, as the Battle page does.

    Raises:
        SimlabError: For an unknown system or kind, or a query that does not read.
    """
    base, question = view_question(system, items)
    rest = [(k, v) for k, v in items if k not in own_keys]
    query = PARSERS[question.form](system, rest, question.sampled_only, question.kind)
    if question.input_form.battle and not query.battle:
        shipped = shipped_battles(site.battles, system)
        if shipped:
            query = dataclasses.replace(query, battle=shipped[0])
    return base, question, query


def view_form(site: Site, base: System, question: Question, query: Query) -> tuple[Groups, dict[str, dict[str, Any]]]:
    """The page's form of the question and, by key, those of its fields a view may vary.

    Raises:
        SimlabError: For a battle that is not one of the shipped ones.
    """
    groups = form_groups(site, base, question, query)
    return groups, varied_fields(groups)


def varied(query: Query, changes: Mapping[str, Any]) -> Query:
    """The question with some values of its query string changed, read again by its form's parser.

    Raises:
        SimlabError: For a changed value that does not read (a number that is not one).
    """
    items = [(k, str(v)) for k, v in query.items() if k not in changes]
    items += [(k, str(v)) for k, v in changes.items()]
    question = question_of(query.system, query.kind)
    result: Query = PARSERS[question.form](query.system, items, question.sampled_only, query.kind)
    return result


def view_items(query: Query, leave_out: Collection[str] = ()) -> list[tuple[str, Any]]:
    """The query string of the question a view varies: its own pairs (but ``leave_out``) and its kind."""
    items = [(k, v) for k, v in query.items() if k not in leave_out and k != "kind"]
    return [*items, ("kind", query.kind)] if query.kind != "attack" else items


def requests_within(site: Site, queries: Sequence[Query], view: str) -> list[tuple[Question, Any]]:
    """Each query's question and request, refused when together they sample more than one request may.

    A Sweep or a Compare is one request however many answers it shows: the site's cap on trials
    (``max_trials``) holds for the trials of all of them, checked before any is sampled.

    Raises:
        SimlabError: For a query its page refuses, or trials in all above the cap.
    """
    asked = [query.request(site) for query in queries]
    sampled = [int(request.trials) for _, request in asked if getattr(request, "method", "") != "exact"]
    Limits(max_trials=site.max_trials).check_trials(sum(sampled), f"the {view} ({len(sampled)} sampled answers)")
    return asked

