"""The charts a report may draw: their kinds, the keys of each, and one chart's specification.

An experiment file names its charts (``[[charts]]``) with these kinds; :mod:`simlab.output.plots`
draws them and chooses some itself when a file names none.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CHART_KINDS", "ChartSpec"]

#: Chart kinds and the keys each accepts besides ``kind``, ``title``, ``name`` and ``where``.
CHART_KINDS: dict[str, tuple[str, ...]] = {
    "curve": ("metric", "x", "by"),
    "heatmap": ("metric", "rows", "cols", "panels"),
    "distribution": ("distribution", "by"),
    "attacks_to_incapacitate": ("by", "attacks"),
    "series": ("prefix", "by"),
    "stacked": ("metrics", "rows", "panels"),
    "distribution_heatmap": ("prefix",),
    "survival": ("by",),
}


@dataclass(frozen=True)
class ChartSpec:
    """One chart of an experiment's report.

    Attributes:
        kind: One of :data:`CHART_KINDS`.
        options: The chart's other keys (``metric``, ``x``, ``by``, ``where``...).
    """

    kind: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        """An option, or ``default``."""
        return self.options.get(key, default)
