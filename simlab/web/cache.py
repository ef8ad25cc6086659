"""Each answer computed once: the page, its charts, its CSV and its JSON share one result.

A page's charts are images of their own, each asked for by the browser after the page; without
this every chart of a battle would sample the battle again. Results, and the charts drawn of
them, are kept by the question they answer (its system, kind and query string, an uploaded
variant's content among it), the most recent :data:`MOST_KEPT` of them; every answer is a pure
function of its question (sampled ones of their seed), so a kept result is exactly what
computing it again would give.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from simlab.asking.requests import Request
from simlab.systems import Question

__all__ = ["AnswerCache", "MOST_KEPT", "answer_of", "chart_of", "answer_key"]

#: Results kept at most (a battle's JSON is a few tens of kilobytes).
MOST_KEPT = 128


class AnswerCache:
    """The most recent answers (and their charts) by their question, safe to share between the server's threads.

    Attributes:
        computed: Answers computed (charts drawn are counted apart, in :meth:`status`).
        reused: Answers served from the cache.
    """

    def __init__(self, most: int = MOST_KEPT) -> None:
        self.most = most
        self.computed = 0
        self.reused = 0
        self.charts_drawn = 0
        self.charts_reused = 0
        self._kept: OrderedDict[Hashable, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, compute: Callable[[], dict[str, Any]], chart: bool = False) -> dict[str, Any]:
        """The answer kept for ``key``, or ``compute()`` kept for the next time (``chart``: a chart's PNG)."""
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                if chart:
                    self.charts_reused += 1
                else:
                    self.reused += 1
                return self._kept[key]
        result = compute()  # outside the lock: other answers go on meanwhile
        with self._lock:
            if chart:
                self.charts_drawn += 1
            else:
                self.computed += 1
            self._kept[key] = result
            self._kept.move_to_end(key)
            while len(self._kept) > self.most:
                self._kept.popitem(last=False)
        return result

    def clear(self) -> None:
        """Forget every answer and chart (``simlab bench`` times answers computed, not kept ones)."""
        with self._lock:
            self._kept.clear()

    def status(self) -> dict[str, int]:
        """Answers computed and reused, entries kept (answers and charts), and charts drawn and reused."""
        return {"answers_computed": self.computed, "answers_reused": self.reused, "answers_kept": len(self._kept),
                "charts_drawn": self.charts_drawn, "charts_reused": self.charts_reused}  # fmt: skip


def answer_of(cache: AnswerCache, query: Any, request: tuple[Question, Request]) -> dict[str, Any]:
    """The JSON of the answer to ``query`` (whose checked request is ``request``), computed at most once.

    Args:
        cache: The application's answers.
        query: The question as its URL holds it (its ``system``, ``kind`` and ``items()``).
        request: Its question and request, already checked.
    """
    question, made = request
    return cache.get(answer_key(query), lambda: question.answer(made).to_json())


def chart_of(cache: AnswerCache, query: Any, chart: tuple[str, bool], draw: Callable[[], bytes]) -> bytes:
    """The PNG of one chart of the answer to ``query``, drawn at most once.

    A page reloaded, or shared and opened again, shows its charts at once. ``chart`` is the chart's
    name and whether it counts "at least"; ``draw`` draws it.
    """
    png: bytes = cache.get((*answer_key(query), "chart", *chart), lambda: {"png": draw()}, chart=True)["png"]
    return png


def answer_key(query: Any) -> tuple[str, str, tuple[tuple[str, str], ...]]:
    """What identifies an answer: its system, kind and query string (an uploaded variant's content among it)."""
    return (query.system, query.kind, tuple(sorted((str(k), str(v)) for k, v in query.items())))
