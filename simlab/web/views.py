"""The views of several answers (Sweep, Compare, Balance), by name: each a page, a JSON API and a CSV.

The application serves every view of :data:`VIEWS` at ``/NAME/SYSTEM``, ``/api/NAME/SYSTEM``
and ``/csv/NAME/SYSTEM``. Adding a view (a Balance view) is its module and one line here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import Request
from fastapi.responses import Response

from simlab.web.balance import balance_csv, balance_payload
from simlab.web.compare import compare_loadouts, parse_compare
from simlab.web.config import Site
from simlab.web.pages import balance_page, compare_page, sweep_page
from simlab.web.sweep import parse_sweep, sweep_points, sweep_table

__all__ = ["View", "VIEWS"]

Items = Sequence[tuple[str, str]]


@dataclass(frozen=True)
class View:
    """A view of several answers of one question.

    Attributes:
        page: ``(site, system, request, progress) → response``: the page.
        payload: ``(site, system, query pairs) → JSON``: what ``/api/NAME/SYSTEM`` returns.
        csv: ``(site, system, query pairs) → CSV text``: what ``/csv/NAME/SYSTEM`` returns.
    """

    page: Callable[[Site, str, Request, Callable[[int], None]], Response]
    payload: Callable[[Site, str, Items], Any]
    csv: Callable[[Site, str, Items], str]


def _sweep_payload(site: Site, system: str, items: Items) -> dict[str, Any]:
    query = parse_sweep(site, system, items)
    points = sweep_points(query, site)
    return {"x": query.x, "metric": query.metric, "series": query.series, "points": points}


def _sweep_csv(site: Site, system: str, items: Items) -> str:
    query = parse_sweep(site, system, items)
    table = sweep_table(query, sweep_points(query, site))
    return str(table.to_csv(index=False, lineterminator="\n"))


def _compare_payload(site: Site, system: str, items: Items) -> dict[str, Any]:
    query = parse_compare(site, system, items)
    table, _ = compare_loadouts(query, site)
    return {"columns": [c.label for c in query.columns()], "table": table.to_dict("records")}


def _compare_csv(site: Site, system: str, items: Items) -> str:
    table, _ = compare_loadouts(parse_compare(site, system, items), site)
    return str(table.to_csv(index=False, lineterminator="\n"))


#: The views, by the first part of their address.
VIEWS: dict[str, View] = {
    "sweep": View(sweep_page, _sweep_payload, _sweep_csv),
    "compare": View(compare_page, _compare_payload, _compare_csv),
    "balance": View(balance_page, balance_payload, balance_csv),
}
