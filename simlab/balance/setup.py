"""The question a balance search asks again and again: one setup, with the unknown set to each value tried.

Every value is asked with the same seed and cell, so a sampled metric draws the very same random
numbers at every value (common random numbers): the metric becomes a deterministic function of
the value, a search over it is repeatable, and two values differ by the change alone, not by luck.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from simlab.asking.variants import Variant
from simlab.engine.results import Answer
from simlab.inputs.battles import Battle
from simlab.inputs.errors import SimlabError, UnknownNameError
from simlab.inputs.limits import DEFAULT_MAX_TRIALS
from simlab.inputs.params import field_specs
from simlab.inputs.tables import Tables
from simlab.systems import Question, System, get_system, question_of
from simlab.systems.costs import COST_METRICS, Costed

__all__ = ["Setup", "PAIRED_BATCHES"]

#: Batches of the trials for a paired interval of a difference (as ``simlab compare``).
PAIRED_BATCHES = 40


@dataclass(frozen=True)
class Setup:
    """One question of one system, asked at each value of an unknown.

    Attributes:
        system: System id.
        kind: ``attack``, ``duel``, ``battle`` or a further question of the system.
        inputs: Its inputs as :func:`~simlab.asking.requests.question_request` takes them.
        rules: Rule parameters.
        battle: The battle of a ``battle`` question.
        variant: A house-rule variant over the rules.
        tables: One's own tables.
        exact: Exact values (else sampled).
        trials: Trials of each value tried (None: the question's default).
        seed: Root seed: the same streams at every value.
        threads: Sampling threads (None: every CPU).
        max_trials: The most trials one value may sample.
        names: How the caller spells ``exact``, ``trials`` and ``kind`` in messages.
        source: How messages name where the inputs came from (``--set``).
        cell: The scenario's index in a run: with ``seed``, its random stream (the same at every value).
        progress: Called with the trials of each value sampled so far (it may raise to stop the work).
    """

    system: str
    kind: str = "attack"
    inputs: Mapping[str, Any] = field(default_factory=dict)
    rules: Mapping[str, Any] = field(default_factory=dict)
    battle: Battle | None = None
    variant: Variant | None = None
    tables: Tables = field(default_factory=dict)
    exact: bool = False
    trials: int | None = None
    seed: int = 0
    threads: int | None = None
    max_trials: int = DEFAULT_MAX_TRIALS
    names: Mapping[str, str] | None = None
    source: str = "--set"
    cell: int = 0
    progress: Callable[[int], None] | None = field(default=None, compare=False)

    @property
    def owner(self) -> System:
        """The system asked."""
        return get_system(self.system)

    @property
    def question(self) -> Question:
        """The question asked."""
        return question_of(self.system, self.kind)

    def request(self, changes: Mapping[str, Any] | None = None) -> Any:
        """The request with ``changes`` made: rule parameters to the rules, the others to the inputs.

        Raises:
            SimlabError: One line naming the input at fault and what is valid.
        """
        from simlab.asking.requests import question_request

        rule_names = field_specs(get_system(self.system).rules_type)
        changed = dict(changes or {})
        rules = {**self.rules, **{k: v for k, v in changed.items() if k in rule_names}}
        inputs = {**self.inputs, **{k: v for k, v in changed.items() if k not in rule_names}}
        _, request = question_request(
            self.system, self.kind, inputs=inputs, rules=rules, battle=self.battle, exact=self.exact,
            trials=None if self.exact else self.trials, seed=self.seed, threads=self.threads,
            max_trials=self.max_trials, variant=self.variant, names=self.names, tables=self.tables, source=self.source,
            cell=self.cell, progress=self.progress,
        )  # fmt: skip
        return request

    def answer(self, changes: Mapping[str, Any] | None = None) -> Answer:
        """The question's answer with ``changes`` made."""
        return self.question.answer(self.request(changes))

    def batches(self, changes: Mapping[str, Any] | None = None, batches: int = PAIRED_BATCHES) -> pd.DataFrame:
        """The metrics of each batch of the sampled trials (the same batches at every value), one row per batch."""
        from simlab.engine.paired import batch_metrics

        return batch_metrics(self.question, self.request(changes), batches)

    @property
    def trials_each(self) -> int:
        """Trials one value samples (0 when exact)."""
        from simlab.asking.requests import DEFAULT_BY_FORM

        if self.exact:
            return 0
        return int(self.trials if self.trials is not None else DEFAULT_BY_FORM[self.question.form])

    def check_metric(self, metric: str, changes: Sequence[Mapping[str, Any]] = ({},)) -> None:
        """Refuse a metric the question never reports, or a metric per price of gear without one.

        Asked before any answer. A metric with no exact value is refused at its first answer
        (:meth:`metric_of`).

        Args:
            metric: The metric asked.
            changes: The changes of each value the search asks whose prices may differ (a
                matchup's attacks); the setup's own inputs unless given.

        Raises:
            SimlabError: One line with the valid metrics, or naming the gear without a price.
        """
        valid = self.question.metric_docs
        if metric not in valid:
            raise UnknownNameError(f"metric of {self.kind}", metric, valid)
        answer = self.question.answer
        if isinstance(answer, Costed) and metric in COST_METRICS[self.question.form]:
            for changed in changes:
                why = answer.unpriced(self.system, self.request(changed))
                if why is not None:
                    base = metric.rsplit("_per_", 1)[0]
                    instead = f"ask {base} instead, or give the row a cost" if base in valid else "give the row a cost"
                    raise SimlabError(f"metric {metric} is per price and {why}: {instead}")

    def metric_of(self, result: Answer, metric: str) -> float:
        """``metric`` of an answer of this setup.

        Raises:
            SimlabError: When the answer does not report it (a metric with no exact value, asked exactly).
        """
        if metric not in result.metrics:
            exact = (self.names or {}).get("exact", "--exact")
            how = f"is not exact: leave out {exact}" if metric in result.not_exact else "is not reported here"
            raise SimlabError(f"metric {metric} {how}")
        return float(result.metrics[metric])

    def with_changes(self, **changes: Any) -> Setup:
        """A copy with fields replaced."""
        return dataclasses.replace(self, **changes)
