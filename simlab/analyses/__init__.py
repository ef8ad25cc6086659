"""The analyses: each one module registering one :class:`~simlab.analyses.base.Analysis`; the front ends loop.

Adding an analysis is one module here and one line in :data:`_MODULES`; :func:`register` also takes
one made elsewhere (a test's toy analysis).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from simlab.analyses.base import Analysis
from simlab.errors import UnknownNameError
from simlab.records import BalanceAsk

__all__ = ["ANALYSES", "register", "get_analysis", "analysis_of", "tables", "analysis_for"]

#: The modules of the shipped analyses, each registering its record when imported.
_MODULES = ("simlab.analyses.solve", "simlab.analyses.sensitivity", "simlab.analyses.tournament",
            "simlab.analyses.matchup", "simlab.analyses.tune")  # fmt: skip
#: Every analysis by name.
ANALYSES: dict[str, Analysis] = {}


def register(analysis: Analysis) -> Analysis:
    """Add ``analysis`` to the registry (by its name) and return it."""
    ANALYSES[analysis.name] = analysis
    return analysis


def _loaded() -> dict[str, Analysis]:
    """Every analysis, the shipped ones in the order of :data:`_MODULES` whichever was imported first."""
    for module in _MODULES:
        importlib.import_module(module)
    shipped = {module: rank for rank, module in enumerate(_MODULES)}
    ranked = sorted(ANALYSES.values(), key=lambda a: shipped.get(a.read.__module__, len(shipped)))
    return {analysis.name: analysis for analysis in ranked}


def get_analysis(name: str) -> Analysis:
    """The analysis called ``name``.

    Raises:
        UnknownNameError: With the valid names.
    """
    found = _loaded()
    if name not in found:
        raise UnknownNameError("analysis", name, found)
    return found[name]


def analysis_of(ask: BalanceAsk) -> Analysis:
    """The analysis of an ask, as its table was read."""
    return get_analysis(ask.analysis)


def tables() -> dict[str, list[Analysis]]:
    """Every experiment table an analysis states (``solve``), with the analyses that state it."""
    found: dict[str, list[Analysis]] = {}
    for analysis in _loaded().values():
        found.setdefault(analysis.table, []).append(analysis)
    return found


def analysis_for(table: str, given: Mapping[str, Any]) -> Analysis:
    """The analysis that a table's values state: the first of the table's analyses that claims them."""
    return next(a for a in tables()[table] if a.claims(given))
