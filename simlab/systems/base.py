"""What every rule system offers to the engine, the command line and the reports."""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from simlab.engine.bounds import ProgressFn
from simlab.engine.results import Answer
from simlab.inputs.battles import Battle
from simlab.inputs.errors import UnknownNameError
from simlab.inputs.params import as_plain, build
from simlab.inputs.tables import RowOverrides, Tables
from simlab.systems.forms import InputForm, get_form

__all__ = [
    "AskedAs",
    "ScenarioRequest",
    "DuelRequest",
    "BattleRequest",
    "System",
    "Question",
    "attack_question",
    "Deferred",
    "answer_attack",
    "ExactAnswer",
    "build_inputs",
    "sampling_options",
    "with_input",
    "with_row",
    "scenario_json",
    "plus_one",
    "duel_resolver",
    "attack_resolver",
    "attack_result",
]

S = TypeVar("S")
R = TypeVar("R")
D = TypeVar("D")
A = TypeVar("A")


@dataclass(frozen=True, kw_only=True)
class AskedAs:
    """What every request of a question says besides its inputs: its rules, its tables, how to sample.

    Its fields are given by keyword; a request's own inputs (its scenario, sides or battle) come
    first and may be given by position.

    Attributes:
        rules: Rule parameter → value (``--rule``; a battle's over its own ``[rules]``).
        tables: Tables that replace the system's own, by name (a variant's changed tables).
        variant: Name of the variant the rules and tables come from, if any.
        seed: Root seed.
        cell: Index of the scenario in the run (selects its random stream).
        threads: Worker threads (None: all CPUs).
        block_size: Trials per block (None: the engine's default).
        first_trial: Index of the first trial sampled (batches of one run start later).
        progress: Called with the number of trials done.
    """

    rules: Mapping[str, Any] = field(default_factory=dict)
    tables: Tables = field(default_factory=dict)
    variant: str | None = None
    seed: int = 0
    cell: int = 0
    threads: int | None = None
    block_size: int | None = None
    first_trial: int = 0
    progress: ProgressFn | None = None


@dataclass(frozen=True)
class ScenarioRequest(AskedAs):
    """A question of one scenario (an attack, an explosion, a healing...), as the user put it (values may be text).

    Attributes:
        scenario: Scenario input → value (``--set``).
        row_overrides: Row input (``weapon``) → column → value (``--set weapon.COLUMN=...``).
        method: ``exact`` or ``monte_carlo``.
        trials: Trials to sample.
        source: How the inputs are named in errors (``--set``, ``experiment``).

    The rules, tables, stream and threads are :class:`AskedAs`'s.
    """

    scenario: Mapping[str, Any]
    row_overrides: RowOverrides = field(default_factory=dict)
    method: str = "exact"
    trials: int = 1_000_000
    source: str = "--set"


@dataclass(frozen=True)
class DuelRequest(AskedAs):
    """A two-sided engagement (``simlab duel``): each side's inputs as the user put them.

    Attributes:
        a: Side A's inputs (``--a KEY=VALUE``).
        b: Side B's inputs.
        a_rows: Side A's ``ROW.COLUMN`` overrides.
        b_rows: Side B's.
        trials: Duels to sample.

    The rules, tables, stream and threads are :class:`AskedAs`'s.
    """

    a: Mapping[str, Any]
    b: Mapping[str, Any]
    a_rows: RowOverrides = field(default_factory=dict)
    b_rows: RowOverrides = field(default_factory=dict)
    trials: int = 100_000


@dataclass(frozen=True)
class BattleRequest(AskedAs):
    """A battle of two sides of several figures (``simlab battle``, ENG-1 to ENG-5).

    Attributes:
        battle: The battle (a checked battle file, :class:`simlab.inputs.battles.Battle`); its
            ``rules`` are over the battle's own ``[rules]``.
        trials: Battles to sample.

    The rules, tables, stream and threads are :class:`AskedAs`'s.
    """

    battle: Battle
    trials: int = 100_000


def build_inputs(request: ScenarioRequest, scenario_type: type[S], rules_type: type[R]) -> tuple[S, R]:
    """The request's scenario and rules as typed dataclasses, named in errors as the user gave them.

    Raises:
        SimlabError: For an unknown name or a bad value.
    """
    from_option = request.source.startswith("--")
    what = f"{request.source} name" if from_option else "scenario input"
    scenario = build(scenario_type, request.scenario, what=what, owner=request.source if from_option else "")
    return scenario, build(rules_type, request.rules, what="--rule name", owner="--rule")


def scenario_json(scenario: Any, request: ScenarioRequest, rows: Mapping[str, Any]) -> dict[str, Any]:
    """The effective scenario of a result: every input, and each ``ROW.COLUMN`` override as the row has it.

    Args:
        scenario: The scenario dataclass.
        request: The request (its row overrides are listed).
        rows: The resolved row dataclasses by row input (``weapon`` → the weapon used).
    """
    payload = as_plain(scenario)
    for row_input, overrides in request.row_overrides.items():
        row = rows.get(row_input)
        plain = as_plain(row) if row is not None else {}
        for column in overrides:
            payload[f"{row_input}.{column}"] = plain.get(column, overrides[column])
    return payload


def attack_result(
    system: str,
    request: ScenarioRequest,
    scenario: Any,
    rules: Any,
    rows: Mapping[str, Any],
    *,
    metrics: dict[str, float],
    ci95: Mapping[str, tuple[float, float]],
    distributions: dict[str, dict[int, float]],
    details: dict[str, Any],
    not_exact: Sequence[str] = (),
) -> Answer:
    """The result of one answered request: its inputs as the rules saw them, and what was found.

    Trials and seed are recorded for sampled answers only; intervals are kept for the metrics shown.
    """
    sampled = request.method != "exact"
    return Answer(
        system=system,
        method=request.method,
        trials=request.trials if sampled else None,
        seed=request.seed if sampled else None,
        scenario=scenario_json(scenario, request, rows),
        rules=as_plain(rules),
        metrics=metrics,
        ci95={name: ci95[name] for name in metrics if name in ci95},
        distributions=distributions,
        not_exact=list(not_exact),
        details=details,
        variant=request.variant,
    )


#: What an exact engine gives: metrics, distributions, and the metrics it has no exact value for.
ExactAnswer = tuple[dict[str, float], dict[str, dict[int, float]], Sequence[str]]


def answer_attack(
    system: str,
    request: ScenarioRequest,
    checked: tuple[Any, Any, Any],
    rows: Mapping[str, Any],
    exact: Callable[[], ExactAnswer],
    sample: Callable[..., Any],
    details: dict[str, Any],
) -> Answer:
    """The one way a question of one scenario is answered: ``exact()`` or ``sample(**options)``.

    Each system checks the request (``checked`` is its ``(scenario, rules, resolved)``) and
    supplies the two engines; this chooses by the request's method and records the inputs.

    Args:
        system: System id.
        request: The request (method, trials, seed, variant).
        checked: The typed scenario, the typed rules and the resolved question.
        rows: Resolved table rows by row input, for the effective scenario.
        exact: Returns (metrics, distributions, metrics that have no exact value).
        sample: Takes :func:`sampling_options`; returns an object with ``metrics``, ``ci95``
            and ``distributions``.
        details: Further facts of the question for the JSON output.
    """
    scenario, rules, _ = checked
    ci95: Mapping[str, tuple[float, float]] = {}
    not_exact: Sequence[str] = ()
    if request.method == "exact":
        metrics, distributions, not_exact = exact()
    else:
        sampled = sample(**sampling_options(request))
        metrics, ci95, distributions = sampled.metrics, sampled.ci95, sampled.distributions
    return attack_result(
        system,
        request,
        scenario,
        rules,
        rows,
        metrics=metrics,
        ci95=ci95,
        distributions=distributions,
        details=details,
        not_exact=not_exact,
    )


def attack_resolver(
    scenario_type: type[S], rules_type: type[R], resolve: Callable[..., A]
) -> Callable[[ScenarioRequest], tuple[S, R, A]]:
    """A system's request validator: typed inputs, then ``resolve(scenario, rules, row_overrides, tables)``."""

    def resolve_request(request: ScenarioRequest) -> tuple[S, R, A]:
        scenario, rules = build_inputs(request, scenario_type, rules_type)
        return scenario, rules, resolve(scenario, rules, request.row_overrides, request.tables)

    resolve_request.__doc__ = "Validate a request into scenario, rules and the resolved attack (raises SimlabError)."
    return resolve_request


def duel_resolver(rules_type: type[R], resolve_duel: Callable[..., D]) -> Callable[[DuelRequest], D]:
    """A system's duel validator: typed rules, then ``resolve_duel(a, b, rules, rows, tables)``."""

    def resolve_request(request: DuelRequest) -> D:
        rules = build(rules_type, request.rules, what="--rule name", owner="--rule")
        return resolve_duel(request.a, request.b, rules, (request.a_rows, request.b_rows), request.tables)

    resolve_request.__doc__ = "Validate a duel request into the resolved duel (raises SimlabError)."
    return resolve_request


def with_input(request: ScenarioRequest, name: str, value: Any) -> ScenarioRequest:
    """The same request with one scenario input set (for marginal changes such as ``+1 DX``)."""
    return dataclasses.replace(request, scenario={**request.scenario, name: value})


def plus_one(
    name: str, resolve_scenario: Callable[[ScenarioRequest], Any]
) -> Callable[[ScenarioRequest], ScenarioRequest]:
    """A marginal change: the same attack with scenario input ``name`` one higher (``+1 DX``).

    Args:
        name: The integer scenario input.
        resolve_scenario: Validates a request and returns ``(scenario, ...)`` (the system's ``check``).
    """

    def change(request: ScenarioRequest) -> ScenarioRequest:
        scenario = resolve_scenario(request)[0]
        return with_input(request, name, getattr(scenario, name) + 1)

    change.__doc__ = f"The same attack with 1 more {name}."
    return change


def with_row(request: ScenarioRequest, row: str, columns: Mapping[str, Any]) -> ScenarioRequest:
    """The same request with some columns of a table row overridden (``armor.protection``...)."""
    merged = {**request.row_overrides.get(row, {}), **columns}
    return dataclasses.replace(request, row_overrides={**request.row_overrides, row: merged})


def sampling_options(request: ScenarioRequest | DuelRequest | BattleRequest) -> dict[str, Any]:
    """The keyword arguments of :func:`simlab.engine.blocks.sample_cell` that a request asks for."""
    options: dict[str, Any] = {
        "trials": request.trials,
        "seed": request.seed,
        "cell": request.cell,
        "first_trial": request.first_trial,
        "threads": request.threads,
        "progress": request.progress,
    }
    if request.block_size is not None:
        options["block_size"] = request.block_size
    return options


@dataclass(frozen=True)
class Deferred:
    """The function ``"package.module:name"``, imported at its first call.

    The modules that sample load numba and the compiled kernels; a system names its sampling
    and battle functions this way, so that a question answered exactly (or ``--help``) never
    loads them. It pickles by name, as the function itself does.
    """

    target: str

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the function it names."""
        module, _, name = self.target.partition(":")
        return getattr(importlib.import_module(module), name)(*args, **kwargs)


@dataclass(frozen=True)
class Question:
    """One kind of question a system answers: an attack, a duel, a battle, an explosion...

    Everything that differs between kinds is here, so that the command line, the API,
    experiments, the web page and the cluster ask any kind the same way: they build the
    request its :attr:`form` describes, :attr:`check` it, and :attr:`answer` it.

    Attributes:
        kind: Its name (``attack``, ``duel``, ``battle``, ``explosion``).
        title: Human name of the question.
        form: How its inputs are given (:mod:`simlab.systems.forms`): ``scenario`` (an
            :class:`ScenarioRequest`), ``sides`` (a :class:`DuelRequest`) or ``battle``
            (a :class:`BattleRequest`).
        inputs_type: Frozen dataclass of its inputs: the scenario, one duel side or one
            figure of a battle.
        row_inputs: Inputs that name table rows (``weapon`` → ``weapons``).
        metrics: Metric name → description (the "Outputs" section of the spec).
        answer: Answers a request of its form.
        check: Validates a request without answering it (raises
            :class:`~simlab.errors.SimlabError`).
        extra_metrics: Metrics only some answers have (HE splash, series).
        distributions: Distribution name → description: every distribution an answer can have.
        marginals: Name → change of a request whose effect reports show (``+1 DX``).
        sampled_only: It has no exact engine (``--method monte_carlo`` only).
        example: A typical question's inputs as the page's address gives them (``explosive``,
            ``a.weapon``): where its page opens when nothing is chosen yet (an attack's is the
            system's :attr:`System.example`).
    """

    kind: str
    title: str
    form: str
    inputs_type: type
    row_inputs: Mapping[str, str]
    metrics: Mapping[str, str]
    answer: Callable[[Any], Answer]
    check: Callable[[Any], object]
    extra_metrics: Mapping[str, str] = field(default_factory=dict)
    distributions: Mapping[str, str] = field(default_factory=dict)
    marginals: Mapping[str, Callable[[ScenarioRequest], ScenarioRequest]] = field(default_factory=dict)
    sampled_only: bool = False
    example: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        try:
            form = get_form(self.form)
        except ValueError as exc:
            raise ValueError(f"question {self.kind}: {exc}") from None
        if not form.exact and not self.sampled_only:
            raise ValueError(f"question {self.kind}: only scenario questions have an exact engine")
        if form.sided or "weapon" in self.row_inputs:  # what an answer is worth per credit
            from simlab.systems.costs import Costed, cost_metrics

            if not isinstance(self.answer, Costed):
                object.__setattr__(self, "answer", Costed(self.answer, self.form, self.row_inputs))
            priced = cost_metrics(self.form, {**self.metrics, **self.extra_metrics})
            object.__setattr__(self, "extra_metrics", {**self.extra_metrics, **priced})

    @property
    def input_form(self) -> InputForm:
        """The form its inputs are given in, and all that it means (:mod:`simlab.systems.forms`)."""
        return get_form(self.form)

    @property
    def metric_docs(self) -> dict[str, str]:
        """Every metric it can report, with its description."""
        return {**self.metrics, **self.extra_metrics}

    def split_inputs(self, inputs: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Split inputs into its inputs and ``ROW.COLUMN`` row overrides.

        Raises:
            UnknownNameError: For ``ROW.COLUMN`` with a ROW that names no table row.
        """
        scenario: dict[str, Any] = {}
        rows: dict[str, dict[str, Any]] = {}
        for key, value in inputs.items():
            prefix, dot, column = key.partition(".")
            if dot:
                if prefix not in self.row_inputs:
                    raise UnknownNameError("row input", prefix, self.row_inputs)
                rows.setdefault(prefix, {})[column] = value
            else:
                scenario[key] = value
        return scenario, rows


def attack_question(
    inputs_type: type,
    row_inputs: Mapping[str, str],
    metrics: Mapping[str, str],
    answer: Callable[[ScenarioRequest], Answer],
    check: Callable[[ScenarioRequest], object],
    **more: Any,
) -> Question:
    """A system's question of one attack (``simlab attack``): one scenario, exact and sampled.

    Args:
        inputs_type: The scenario dataclass.
        row_inputs: Its inputs that name table rows.
        metrics: Its metrics with their descriptions.
        answer: Answers an :class:`ScenarioRequest`.
        check: Validates one.
        **more: The further fields of :class:`Question` (``extra_metrics``, ``distributions``, ``marginals``).
    """
    return Question("attack", "One attack", "scenario", inputs_type, row_inputs, metrics, answer, check, **more)


@dataclass(frozen=True)
class System:
    """A rule system: its rules, its tables and the questions it answers.

    Attributes:
        name: System id (``hitech_tft``).
        title: Human name.
        spec: The specification file of the system.
        rules_type: Frozen dataclass of the rule parameters.
        tables: Returns the system's data tables by name.
        questions: What it answers, by kind: ``attack`` first, then ``duel`` and ``battle`` where
            it has them, then its further questions (``explosion``, ``healing``). They share the
            system's id, rules and tables.
        fight_unread_rules: Rule parameters duels and battles never read, each with what it is for
            (a duel or battle given one refuses it rather than change nothing).
        outcome_metrics: Metrics of exclusive outcomes that sum to 1 (drawn stacked).
        distribution_labels: Names of the outcomes of distributions, by name prefix
            (``wounds_`` → the wound levels).
        workloads: Returns what ``simlab bench`` times of it (its ``bench.py``'s workloads: its
            central mechanics on fixed scenarios, with their twins), loaded when first called.
        example: A typical attack's inputs (a weapon, an armour, a range): where the web page and
            the start-up benchmark begin.
        battle_keys: The keys of a battle file that this system reads and some others do not
            (ENG-1 to ENG-4): key → (where it stands: ``""`` the battle's top, ``side``,
            ``doctrine`` or ``formation``; what it is, for the message that refuses it elsewhere).
    """

    name: str
    title: str
    spec: str
    rules_type: type
    tables: Callable[[], Tables]
    questions: Mapping[str, Question]
    fight_unread_rules: Mapping[str, str] = field(default_factory=dict)
    outcome_metrics: tuple[str, ...] = ()
    distribution_labels: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    workloads: Callable[[], Sequence[Any]] = field(default=lambda: ())
    example: Mapping[str, str] = field(default_factory=dict)
    battle_keys: Mapping[str, tuple[str, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if "attack" not in self.questions:
            raise ValueError(f"system {self.name}: every system answers one attack")

    @property
    def kinds(self) -> tuple[str, ...]:
        """What it answers: ``attack``, then ``duel`` and ``battle`` where it has them, then its questions."""
        return tuple(self.questions)

    @property
    def attack(self) -> Question:
        """Its question of one attack (every system has one)."""
        return self.questions["attack"]

    def asks(self, kind: str) -> bool:
        """Whether it answers questions of ``kind``."""
        return kind in self.questions

    @property
    def metric_docs(self) -> dict[str, str]:
        """Every metric any of its questions reports, with its description."""
        docs: dict[str, str] = {}
        for asked in self.questions.values():
            docs.update(asked.metric_docs)
        return docs
