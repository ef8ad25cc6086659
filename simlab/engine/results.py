"""The result of one attack question, as every system returns it (its JSON is that of `simlab attack --json`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["Answer", "METHODS", "in_series", "json_ready"]

#: Methods of computing a result.
METHODS = ("exact", "monte_carlo")


#: Details that only say how to print a result (outcome names), left out of ``resolution``.
_PRESENTATION = ("labels", "series")


def json_ready(value: Any) -> Any:
    """``value`` with numpy scalars and arrays, tuples and non-text keys made plain JSON."""
    if isinstance(value, Mapping):
        return {str(k): json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    if isinstance(value, np.ndarray):
        return json_ready(value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    return value


def in_series(metric: str, prefix: str) -> bool:
    """Whether ``metric`` is a member ``PREFIXk`` of the series ``prefix`` (``p_alive_day_3`` of ``p_alive_day_``)."""
    suffix = metric[len(prefix) :]
    return prefix.endswith("_") and metric.startswith(prefix) and suffix.isascii() and suffix.isdigit()


@dataclass(frozen=True)
class Answer:
    """The answer of any question (an attack, a duel, a battle, a further question) under one set of rules.

    Its metrics, their intervals and its distributions.

    Attributes:
        system: System id (``hitech_tft``).
        method: ``exact`` or ``monte_carlo``.
        trials: Trials sampled (None for exact).
        seed: Root seed (None for exact).
        scenario: Effective scenario inputs, defaults included (``weapon.COLUMN`` overrides too).
        rules: Effective rule parameters.
        metrics: Metric name → value, in the system's order.
        ci95: Metric name → 95 % interval (sampled results only).
        distributions: Name → {outcome: probability}.
        not_exact: Metrics that have no exact value (left out of an exact result).
        details: Derived figures worth showing (adjusted DX and its terms, ...).
        variant: Name of the house-rule variant the rules came from, if any.
    """

    system: str
    method: str
    trials: int | None
    seed: int | None
    scenario: dict[str, Any]
    rules: dict[str, Any]
    metrics: dict[str, float]
    ci95: dict[str, tuple[float, float]] = field(default_factory=dict)
    distributions: dict[str, dict[int, float]] = field(default_factory=dict)
    not_exact: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    variant: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON object of ``simlab attack --json``."""
        payload: dict[str, Any] = {
            "system": self.system,
            "method": self.method,
            "trials": self.trials,
            "seed": self.seed,
            "scenario": self.scenario,
            "rules": self.rules,
            "metrics": self.metrics,
        }
        if self.method != "exact":
            payload["ci95"] = {name: list(bounds) for name, bounds in self.ci95.items()}
        payload["distributions"] = {
            name: {str(k): v for k, v in dist.items()} for name, dist in self.distributions.items()
        }
        payload["not_exact"] = list(self.not_exact)
        if self.variant is not None:
            payload["variant"] = self.variant
        payload["resolution"] = json_ready({k: v for k, v in self.details.items() if k not in _PRESENTATION})
        return payload
