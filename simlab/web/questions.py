"""Which question an address asks, and how its query string reads: one parser per form of question.

Every kind of question is served at ``/KIND/SYSTEM`` (the page), ``/api/KIND/SYSTEM`` (its JSON),
``/csv/KIND/SYSTEM`` and ``/chart/KIND/SYSTEM``; the question's form (see
:mod:`simlab.asking.requests`) chooses how the query string reads. ``/attack/SYSTEM?kind=KIND``
asks the same as ``/KIND/SYSTEM`` (the older address of a further question). A new kind of
question of an existing form is served with no change here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from simlab.asking.requests import Request
from simlab.systems import Question, question_of
from simlab.web.battle import parse_battle
from simlab.web.config import Site
from simlab.web.query import parse_attack, parse_duel

__all__ = ["Query", "PARSERS", "parse_query", "asked_kind"]


class Query(Protocol):
    """A question as a URL holds it (read-only, as its frozen dataclasses are): its request, query string, command."""

    @property
    def system(self) -> str:
        """The system's id."""

    @property
    def kind(self) -> str:
        """The kind of question."""

    @property
    def trials(self) -> int | None:
        """Trials to sample (None: the question's default)."""

    @property
    def seed(self) -> int:
        """The root seed."""

    @property
    def sampled(self) -> bool:
        """Whether its answer is sampled."""

    @property
    def method(self) -> str:
        """``exact`` or ``monte_carlo``."""

    @property
    def variant(self) -> str | None:
        """The house-rule variant it is asked under (None: the base rules)."""

    @property
    def rules(self) -> Mapping[str, str]:
        """Its rule parameters (``rule.NAME``), by name."""

    @property
    def inputs(self) -> Mapping[str, str]:
        """Its inputs by the keys its form and an experiment's grid name them (``weapon``, ``a.skill``, ``a.count``)."""

    def request(self, site: Site, progress: Callable[[int], None] | None = None) -> tuple[Question, Request]:
        """The question and its request, checked as the command line checks them."""

    def items(self) -> list[tuple[str, Any]]:
        """Its query string, as pairs."""

    def command(self, site: Site | None = None) -> str:
        """The command line that asks the same question."""


#: The query string's parser of each form of question: ``(system, items, sampled_only, kind) → query``.
PARSERS: dict[str, Callable[..., Any]] = {"scenario": parse_attack, "sides": parse_duel, "battle": parse_battle}


def asked_kind(kind: str, items: Sequence[tuple[str, str]]) -> str:
    """The kind an address asks: its own, or for ``/attack/...`` the query's ``kind`` when it gives one."""
    given = dict(items).get("kind", "")
    return given if kind == "attack" and given else kind


def parse_query(system: str, kind: str, items: Sequence[tuple[str, str]]) -> tuple[Question, Query]:
    """The question an address asks and its query.

    Raises:
        SimlabError: For an unknown system or kind (with the valid ones), or a query that does not read.
    """
    kind = asked_kind(kind, items)
    question = question_of(system, kind)
    query: Query = PARSERS[question.form](system, items, question.sampled_only, kind)
    return question, query
