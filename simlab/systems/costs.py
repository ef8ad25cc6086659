"""Cost as data: what a side's gear costs, and what an answer is worth per credit.

Weapons, armour and ships carry an optional ``cost`` column: a list price, illustrative where no
rules text gives one (none does): credits (Cr) for a figure's gear, megacredits (MCr) for a ship,
blank where a system has no prices (Revised HiTech TFT). Where the rows a question names have
prices, its answer gains:

* an attack: ``mean_damage_per_kcr`` and ``p_incapacitated_per_kcr`` (per thousand credits of
  the weapon);
* a duel or a battle: ``cost_a`` and ``cost_b`` (each side's gear, every figure's weapon and
  armour, or its ships), and ``p_a_wins_per_kcr`` and ``p_b_wins_per_kcr`` (``_per_mcr`` for ships).

A row of one's own without a price, or an ad-hoc row, leaves these out.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from simlab.engine.results import Answer
from simlab.inputs.tables import RowOverrides, Table, Tables
from simlab.systems.forms import get_form

__all__ = ["COST_METRICS", "Costed", "unit_of", "cost_metrics"]

#: The tables whose prices are in megacredits (the rest: credits).
IN_MCR = ("ships",)
#: The metrics prices add, by form of question.
COST_METRICS: dict[str, dict[str, str]] = {
    "scenario": {
        "mean_damage_per_kcr": "expected damage per thousand credits of the weapon's price (where it has one)",
        "p_incapacitated_per_kcr": "chance to incapacitate per thousand credits of the weapon's price",
    },
    "sides": {
        "cost_a": "side A's gear at list price (Cr; MCr for ships; illustrative prices)",
        "cost_b": "side B's gear at list price",
        "p_a_wins_per_kcr": "side A's chance to win per thousand credits of its gear",
        "p_b_wins_per_kcr": "side B's chance to win per thousand credits of its gear",
        "p_a_wins_per_mcr": "side A's chance to win per megacredit of its ships",
        "p_b_wins_per_mcr": "side B's chance to win per megacredit of its ships",
    },
}
COST_METRICS["battle"] = COST_METRICS["sides"]


def cost_metrics(form: str, metrics: Mapping[str, str]) -> dict[str, str]:
    """The metrics prices add to a question of ``form`` reporting ``metrics``: those of a metric it reports."""
    return {
        name: doc
        for name, doc in COST_METRICS[form].items()
        if name.startswith("cost_") or name.rsplit("_per_", 1)[0] in metrics
    }


def unit_of(table: str) -> tuple[str, float]:
    """The metric suffix and the divisor of a table's prices: ``kcr`` (Cr / 1000) or ``mcr`` (MCr)."""
    return ("mcr", 1.0) if table in IN_MCR else ("kcr", 1000.0)


def _row_cost(table: Table[Any], name: Any, overrides: Mapping[str, Any]) -> float | None:
    """The price of the row ``name`` with its column overrides (None: no price, or no row)."""
    if not name and "cost" not in overrides:
        return None
    try:
        row = table.resolve(str(name) if name else None, overrides)
    except Exception:
        return None
    cost = getattr(row, "cost", None)
    return None if cost is None else float(cost)


def _figure_cost(
    row_inputs: Mapping[str, str],
    tables: Tables,
    inputs: Mapping[str, Any],
    overrides: RowOverrides,
    only: tuple[str, ...] | None = None,
) -> tuple[float, str] | None:
    """One figure's (or ship's) gear: the sum of its priced rows and their unit, ``kcr`` or ``mcr`` (None: no price)."""
    total, unit = 0.0, ""
    for name, table_name in row_inputs.items():
        if (only is not None and name not in only) or table_name not in tables:
            continue
        if not hasattr(tables[table_name].row_type, "__dataclass_fields__") or "cost" not in {
            f.name for f in dataclasses.fields(tables[table_name].row_type)
        }:
            continue
        cost = _row_cost(tables[table_name], inputs.get(name), overrides.get(name, {}))
        if cost is None:
            if inputs.get(name) or overrides.get(name):
                return None  # a row without a price: the side has no price
            continue
        total += cost
        unit = unit_of(table_name)[0]
    return (total, unit) if unit else None


def _split(
    row_inputs: Mapping[str, str], inputs: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    names: dict[str, Any] = {}
    overrides: dict[str, dict[str, Any]] = {}
    for key, value in inputs.items():
        prefix, dot, column = key.partition(".")
        if dot and prefix in row_inputs:
            overrides.setdefault(prefix, {})[column] = value
        elif not dot:
            names[key] = value
    return names, overrides


@dataclasses.dataclass(frozen=True)
class Costed:
    """A question's answer with the metrics its prices give (see the module).

    Attributes:
        inner: The question's own answer.
        form: The question's form.
        row_inputs: Its inputs that name table rows.
    """

    inner: Callable[[Any], Answer]
    form: str
    row_inputs: Mapping[str, str]

    def __call__(self, request: Any) -> Answer:
        """The answer, with ``*_per_kcr`` (or ``_per_mcr``) and the sides' costs where prices are given."""
        result = self.inner(request)
        tables = self._tables(result.system, request)
        added: dict[str, float] = {}
        scaled: dict[str, tuple[str, float]] = {}  # a metric per price: the metric it divides, and by what
        if not get_form(self.form).sided:
            found = self._weapon(request, tables)
            if found is not None and found[0] > 0:
                unit, per = unit_of("weapons")
                for metric in ("mean_damage", "p_incapacitated"):
                    if metric in result.metrics:
                        added[f"{metric}_per_{unit}"] = result.metrics[metric] / (found[0] / per)
                        scaled[f"{metric}_per_{unit}"] = (metric, found[0] / per)
        else:
            sides = self._sides(request, tables)
            if sides is not None:
                for label, (cost, suffix) in zip("ab", sides, strict=True):
                    per = 1.0 if suffix == "mcr" else 1000.0
                    added[f"cost_{label}"] = cost
                    chance = result.metrics.get(f"p_{label}_wins")
                    if chance is not None and cost > 0:
                        added[f"p_{label}_wins_per_{suffix}"] = chance / (cost / per)
                        scaled[f"p_{label}_wins_per_{suffix}"] = (f"p_{label}_wins", cost / per)
        if not added:
            return result
        intervals = dict(result.ci95)
        if result.ci95:  # sampled: a price is known exactly, a metric per price has its metric's interval, scaled
            for name, value in added.items():
                base, divisor = scaled.get(name, ("", 1.0))
                low, high = result.ci95.get(base, (value * divisor, value * divisor))
                intervals[name] = (low / divisor, high / divisor)
        return dataclasses.replace(result, metrics={**result.metrics, **added}, ci95=intervals)

    def unpriced(self, system: str, request: Any) -> str | None:
        """Why ``request``'s answer has no metric per price, in a few words (None: it has them).

        Asked before any answer, so that a search over a metric per price is refused before it starts.
        """
        tables = self._tables(system, request)
        if not get_form(self.form).sided:
            found = self._weapon(request, tables)
            if found is None or found[0] <= 0:
                weapon = request.scenario.get("weapon")
                return f"weapon {weapon!r} has no price" if weapon else "an ad-hoc weapon has no price"
            return None
        return "a side's gear has no price" if self._sides(request, tables) is None else None

    @staticmethod
    def _tables(system: str, request: Any) -> Tables:
        from simlab.systems import get_system

        return {**get_system(system).tables(), **request.tables}

    def _weapon(self, request: Any, tables: Tables) -> tuple[float, str] | None:
        """The price of a scenario's weapon (None: none)."""
        return _figure_cost(self.row_inputs, tables, request.scenario, request.row_overrides, ("weapon",))

    def _sides(self, request: Any, tables: Tables) -> list[tuple[float, str]] | None:
        """Each side's gear: every figure's priced rows times its count (None: a side without a price)."""
        costs = []
        if not get_form(self.form).battle:
            for inputs, rows in ((request.a, request.a_rows), (request.b, request.b_rows)):
                found = _figure_cost(self.row_inputs, tables, inputs, rows)
                if found is None:
                    return None
                costs.append(found)
            return costs
        for side in request.battle.sides:
            total, unit = 0.0, ""
            for group in side.groups:
                names, overrides = _split(self.row_inputs, group.inputs)
                found = _figure_cost(self.row_inputs, tables, names, overrides)
                if found is None:
                    return None
                total += group.count * found[0]
                unit = found[1]
            costs.append((total, unit))
        return costs
