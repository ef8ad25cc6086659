"""The records of a run: an experiment as its file asks it, its charts, what a run and a comparison produced.

The workflow (:mod:`simlab.workflow`) makes them and the output (:mod:`simlab.output`) writes
them; both import them from here, below both.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simlab.asking.variants import BASE, Variant
from simlab.engine.results import METHODS, in_series
from simlab.inputs.battles import Battle
from simlab.inputs.tables import Tables
from simlab.systems import Question, System, get_system, question_of

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "CHART_KINDS",
    "ChartSpec",
    "Experiment",
    "ExperimentRun",
    "Comparison",
    "ExperimentQuestion",
    "QUESTION_KINDS",
    "BalanceAsk",
]

#: Chart kinds and the keys each accepts besides ``kind``, ``title``, ``name``, ``where``, ``size`` and ``dpi``.
CHART_KINDS: dict[str, tuple[str, ...]] = {
    "curve": ("metric", "x", "by", "target"),
    "heatmap": ("metric", "rows", "cols", "panels"),
    "bars": ("metric", "x", "lowest"),
    "distribution": ("distribution", "by", "at_least"),
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


#: The kinds of question an experiment may state (``[question]``).
QUESTION_KINDS = ("best", "threshold", "ranking", "effect")


@dataclass(frozen=True)
class ExperimentQuestion:
    """What an experiment asks (``[question]``): its report's headline answers it.

    Attributes:
        kind: ``best`` (which option of ``input`` has the highest ``metric``, per value of
            ``per``), ``threshold`` (the smallest value of ``input`` whose ``metric`` reaches
            ``target``, per value of ``per``), ``ranking`` (the options of ``input`` ordered by
            ``metric``, ties named) or ``effect`` (what each variant changes, largest first).
        metric: The metric the answer is about.
        input: The options (best, ranking) or the input whose value reaches the target (threshold).
        per: Inputs answered for each of their values.
        target: The value to reach (threshold).
        at_least: Reach means ``metric >= target`` (False: ``<=``).
        smallest: The smallest value of ``input`` that reaches it (False: the largest).
        lowest: Lower is better (best, ranking).
        where: Inputs held at one value; the inputs neither held nor named are averaged over.
    """

    kind: str
    metric: str
    input: str | None = None
    per: tuple[str, ...] = ()
    target: float | None = None
    at_least: bool = True
    smallest: bool = True
    lowest: bool = False
    where: Mapping[str, Any] = field(default_factory=dict)




@dataclass(frozen=True)
class BalanceAsk:
    """A balance question of an experiment (``kind = "solve"`` with ``[solve]``, ``"sensitivity"``, ``"tournament"``).

    Attributes:
        kind: ``solve``, ``sensitivity`` or ``tournament``.
        metric: The metric (a solve's target or equality, a sensitivity's variance).
        find: The unknown of a solve.
        within: Its range (``1..8``).
        target: The value the metric must reach (a solve), or None when two setups are made equal.
        a: Setup A's own inputs (a solve of ``equal``; A has the unknown).
        b: Setup B's own inputs.
        vary: A sensitivity's knobs: name → ``LOW..HIGH`` or ``A,B,C``.
        trajectories: Morris trajectories (a sensitivity).
        base: Sobol base points (a sensitivity).
        options: A tournament's options, each one side's inputs (a matchup's attacks).
        names: Their names.
        defenders: A matchup's defenders, each its inputs (empty for a tournament of duels).
        defender_names: Their names.
        noun: What an option is, in words (``ship``).
        tol: The precision of a solve's real unknown (None: the default share of its range).
        analysis: The analysis it states (a ``[tournament]`` with defenders is a ``matchup``).
        settings: An analysis's own settings, as its reader checked them (a tune's knobs and goal).
    """

    kind: str
    metric: str
    find: str | None = None
    within: str | None = None
    target: float | None = None
    a: Mapping[str, Any] = field(default_factory=dict)
    b: Mapping[str, Any] = field(default_factory=dict)
    vary: Mapping[str, str] = field(default_factory=dict)
    trajectories: int = 20
    base: int = 256
    options: tuple[Mapping[str, Any], ...] = ()
    names: tuple[str, ...] = ()
    defenders: tuple[Mapping[str, Any], ...] = ()
    defender_names: tuple[str, ...] = ()
    noun: str = "option"
    tol: float | None = None
    analysis: str = ""
    settings: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Experiment:
    """A validated experiment file.

    Attributes:
        path: The file.
        name: Name of the results directory.
        system: System id.
        kind: ``attack`` (one attack per cell), ``duel`` (inputs ``a.KEY`` and ``b.KEY``),
            ``battle`` (inputs are dotted paths of the battle: ``a.count``, ``b.doctrine.targets``)
            or one of the system's questions (``explosion``, ``healing``...).
        description: One paragraph for the report.
        method: ``exact``, ``monte_carlo`` or ``both``.
        trials: Trials per cell when sampling (the first round, with ``precision``).
        seed: Root seed; cell ``i`` of the grid samples stream ``(seed, i)``.
        precision: Largest 95 % half-width allowed, or None.
        variants: Variants whose cells the run covers too (the base rules always).
        fixed: Scenario inputs common to every cell (``ROW.COLUMN`` overrides allowed).
        grid: Scenario input → values; the run covers their Cartesian product.
        metrics: Metrics to keep, or None for all.
        charts: Charts to draw, or empty for the default choice.
        battle: The battle of a ``battle`` experiment (file ``battle``, relative to the experiment).
        rules: Rule parameters every cell is asked under (``[rules]``); a variant's win over them.
        tables: One's own tables (``[tables.TABLE."ROW"]`` or ``tables = "DIR"``), by name; a
            variant's row changes apply on top of them.
        skip_invalid: Leave out the cells the rules forbid (listed in the report) instead of refusing.
        skipped: The cells left out: each one's index in the grid, its inputs and the reason.
        asks: The question it states (``[question]``), which its report's headline answers.
        labels: Its own words for its inputs and metrics (``[labels]``: ``"a.count" = "riflemen"``).
        balance: The balance question it asks instead of a grid of answers (``kind = "solve"``,
            ``"sensitivity"``); ``kind`` is then the question each value asks (``attack``, ``battle``).
    """

    path: Path
    name: str
    system: str
    kind: str
    description: str
    method: str
    trials: int
    seed: int
    precision: float | None
    variants: tuple[Variant, ...]
    fixed: Mapping[str, Any]
    grid: Mapping[str, tuple[Any, ...]]
    metrics: tuple[str, ...] | None
    charts: tuple[ChartSpec, ...]
    battle: Battle | None = None
    rules: Mapping[str, Any] = field(default_factory=dict)
    tables: Tables = field(default_factory=dict)
    skip_invalid: bool = False
    skipped: tuple[tuple[int, Mapping[str, Any], str], ...] = ()
    asks: ExperimentQuestion | None = None
    labels: Mapping[str, str] = field(default_factory=dict)
    balance: BalanceAsk | None = None

    @property
    def owner(self) -> System:
        """The system asked: its rules, tables and questions."""
        return get_system(self.system)

    @property
    def question(self) -> Question:
        """The question each cell asks (``kind``)."""
        return question_of(self.system, self.kind)

    @property
    def methods(self) -> tuple[str, ...]:
        """The methods each cell is computed with."""
        return METHODS if self.method == "both" else (self.method,)

    @property
    def inputs(self) -> tuple[str, ...]:
        """Scenario inputs that appear as table columns: the fixed ones, then the grid's."""
        return (*self.fixed, *(k for k in self.grid if k not in self.fixed))

    def cells(self) -> Iterator[dict[str, Any]]:
        """The scenario inputs of every cell, in grid order (the last key varies fastest)."""
        keys = list(self.grid)
        for values in itertools.product(*(self.grid[k] for k in keys)):
            yield {**self.fixed, **dict(zip(keys, values, strict=True))}

    def kept_cells(self) -> Iterator[tuple[int, dict[str, Any]]]:
        """The cells a run computes, each with its index in the grid (which picks its random stream).

        Every cell but those left out (``skip_invalid``): a skipped cell changes no other cell's numbers.
        """
        left_out = {index for index, _, _ in self.skipped}
        for index, inputs in enumerate(self.cells()):
            if index not in left_out:
                yield index, inputs

    @property
    def dimensions(self) -> dict[str, tuple[Any, ...]]:
        """The grid, with ``variant`` (``base`` and each variant's name) first when there are variants."""
        if not self.variants:
            return dict(self.grid)
        return {"variant": (BASE, *(v.name for v in self.variants)), **self.grid}

    def keeps(self, metric: str) -> bool:
        """Whether the run keeps ``metric``.

        Every metric without a ``metrics`` list; else those it names and the members ``PREFIXk``
        of the series prefixes it names (``mean_applied_margin_``).
        """
        if self.metrics is None:
            return True
        return metric in self.metrics or any(in_series(metric, prefix) for prefix in self.metrics)

    @property
    def sampled_trials(self) -> int | None:
        """Trials per cell when the run samples, else None."""
        return self.trials if "monte_carlo" in self.methods else None

    def rule_sets(self, base: Variant | None = None) -> list[tuple[str, Variant | None]]:
        """The base rules (or ``base`` in their place), then each variant, with their names."""
        return [(BASE, base), *((v.name, v) for v in self.variants)]

    @property
    def n_cells(self) -> int:
        """Number of grid cells a run computes (those skipped left out)."""
        count = 1
        for values in self.grid.values():
            count *= len(values)
        return count - len(self.skipped)


@dataclass(frozen=True, eq=False)
class ExperimentRun:
    """Everything one run of an experiment produced.

    Attributes:
        experiment: The experiment.
        table: One row per cell, rule set, method and metric: ``cell``, ``variant`` (``base``
            or a variant's name), the inputs, ``method``, ``metric``, ``value``, ``ci_low``,
            ``ci_high``, ``trials``. The other tables have ``cell`` and ``variant`` too.
        distributions: One row per cell, method, distribution and outcome: ``probability``.
        incapacitation: One row per cell and number of attacks: ``p_incapacitated`` after
            that many attacks (from the exact damage distribution where there is one).
        marginals: One row per cell, change (``+1 DX``...) and metric: ``delta``, the
            exact change of the metric (empty for sampled-only runs).
        seconds: Wall time of the run.
        balance: A balance experiment's answers: (rule set, cell inputs, the
            :class:`~simlab.balance.solve.Solution` or :class:`~simlab.balance.sensitivity.Sensitivity`,
            or the line saying there is none), in the table's order.
    """

    experiment: Experiment
    table: pd.DataFrame
    distributions: pd.DataFrame
    incapacitation: pd.DataFrame
    marginals: pd.DataFrame
    seconds: float
    balance: tuple[tuple[str, Mapping[str, Any], Any], ...] = ()


@dataclass(frozen=True, eq=False)
class Comparison:
    """Base against each variant, for every cell, method and metric.

    Attributes:
        experiment: The experiment whose grid is compared.
        variants: The variants.
        table: ``cell``, ``variant``, the inputs, ``method``, ``metric``, ``base``, ``value``
            (under the variant), ``delta``, ``delta_ci_low``, ``delta_ci_high`` (95 %, sampled
            rows), ``independent_half_width`` and ``trials``.
        batches: Batches per sampled cell.
        seconds: Wall time.
    """

    experiment: Experiment
    variants: tuple[Variant, ...]
    table: pd.DataFrame
    batches: int
    seconds: float
