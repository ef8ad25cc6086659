"""One question put to a system: the one way every caller builds a request, for every kind of question.

``simlab attack``, ``duel`` and ``battle``, :mod:`simlab.api`, experiment cells, the web page
and the cluster all ask a question the same way: :func:`question_request` checks the sampling
choices and :func:`build_request` turns ``KEY=VALUE`` inputs into the request the question's
form takes, so every caller accepts and refuses exactly the same inputs with the same
one-line messages. The inputs of each form:

* ``scenario`` (an attack, an explosion...): scenario inputs and ``ROW.COLUMN`` overrides;
* ``sides`` (a duel): ``a.KEY`` and ``b.KEY`` (``a.weapon.COLUMN`` overrides);
* ``battle``: a battle, and values changed by dotted path (``a.count``, ``b.doctrine.targets``).

A new kind of question of one of these forms needs nothing here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from simlab.asking.variants import Variant
from simlab.engine.bounds import check_seed, check_threads, check_trials
from simlab.inputs.battles import Battle, load_battle, override
from simlab.inputs.errors import SimlabError
from simlab.inputs.limits import DEFAULT_BATTLES, DEFAULT_DUELS, DEFAULT_TRIALS, Limits
from simlab.inputs.tables import Tables
from simlab.systems import BattleRequest, DuelRequest, Question, ScenarioRequest, System, get_system, question_of
from simlab.systems.battle_keys import refuse_unread_rules

__all__ = [
    "DEFAULT_TRIALS",
    "DEFAULT_DUELS",
    "DEFAULT_BATTLES",
    "DEFAULT_BY_FORM",
    "Request",
    "question_request",
    "build_request",
    "split_sides",
    "BUILDERS",
]

#: Any request of a question.
Request = ScenarioRequest | DuelRequest | BattleRequest
#: Trials a question of each form samples unless told.
DEFAULT_BY_FORM = {"scenario": DEFAULT_TRIALS, "sides": DEFAULT_DUELS, "battle": DEFAULT_BATTLES}
#: How the command line spells the choices that messages name.
_OPTION_NAMES = {"exact": "--exact", "trials": "--trials", "kind": "--kind"}


def split_sides(inputs: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Side A's and side B's inputs from ``a.KEY`` and ``b.KEY``.

    Raises:
        SimlabError: For a key of neither side.
    """
    sides: dict[str, dict[str, Any]] = {"a": {}, "b": {}}
    for key, value in inputs.items():
        side, dot, name = key.partition(".")
        if not dot or side not in sides:
            raise SimlabError(f"duel inputs are a.KEY or b.KEY (side a or b), not {key!r}")
        sides[side][name] = value
    return sides["a"], sides["b"]


def _scenario(
    system: System,
    question: Question,
    inputs: Mapping[str, Any],
    battle: Battle | None,
    rules: dict[str, Any],
    options: dict[str, Any],
) -> Request:
    """One scenario: its inputs and ``ROW.COLUMN`` overrides."""
    scenario, rows = question.split_inputs(inputs)
    return ScenarioRequest(scenario=scenario, row_overrides=rows, rules=rules, **options)


def _sides(
    system: System,
    question: Question,
    inputs: Mapping[str, Any],
    battle: Battle | None,
    rules: dict[str, Any],
    options: dict[str, Any],
) -> Request:
    """Two sides: ``a.KEY`` and ``b.KEY`` (``a.weapon.COLUMN`` overrides)."""
    a, b = split_sides(inputs)
    a_inputs, a_rows = question.split_inputs(a)
    b_inputs, b_rows = question.split_inputs(b)
    refuse_unread_rules(system, None, rules)  # before the variant: its rules are for every question
    return DuelRequest(a=a_inputs, b=b_inputs, a_rows=a_rows, b_rows=b_rows, rules=rules, **options)


def _battle(
    system: System,
    question: Question,
    inputs: Mapping[str, Any],
    battle: Battle | None,
    rules: dict[str, Any],
    options: dict[str, Any],
) -> Request:
    """A battle, its values changed by dotted path (``a.count``)."""
    if battle is None:
        raise SimlabError(f"a {question.kind} needs its battle file")
    if battle.system != system.name:
        raise battle.error("system", f"the battle is for {battle.system!r}, not {system.name!r}")
    changed = override(battle, inputs)
    refuse_unread_rules(system, changed, rules)  # before the variant: its rules are for every question
    return BattleRequest(battle=changed, rules=rules, **options)


#: The request of each form of question from its inputs; the options only one scenario takes.
BUILDERS: dict[str, Callable[..., Request]] = {"scenario": _scenario, "sides": _sides, "battle": _battle}
_SCENARIO_ONLY = ("method", "source")


def build_request(
    system: System,
    question: Question,
    inputs: Mapping[str, Any],
    *,
    battle: Battle | None = None,
    variant: Variant | None = None,
    rules: Mapping[str, Any] | None = None,
    **options: Any,
) -> Request:
    """The request of ``question`` for ``inputs``, under ``variant``: the one builder of every caller.

    Args:
        system: The system asked.
        question: The question asked (one of the system's).
        inputs: Its inputs, as its form takes them (see the module's docstring).
        battle: The battle of a ``battle`` question.
        variant: A house-rule variant applied to the request.
        rules: Rule parameters (a duel's or battle's refuse those they never read).
        **options: The request's other fields: ``trials``, ``seed``, ``cell``, ``threads``,
            ``progress``, ``first_trial``, ``block_size``; ``method`` and ``source`` for questions
            of one scenario.

    Raises:
        SimlabError: One line naming the input at fault and what is valid.
    """
    if question.input_form.sided:
        options = {k: v for k, v in options.items() if k not in _SCENARIO_ONLY}
    request = BUILDERS[question.form](system, question, inputs, battle, dict(rules or {}), options)
    return variant.apply(request) if variant is not None else request


def question_request(
    system: str,
    kind: str = "attack",
    *,
    inputs: Mapping[str, Any],
    rules: Mapping[str, Any],
    battle: Battle | str | None = None,
    exact: bool = False,
    trials: int | None = None,
    seed: int = 0,
    threads: int | None = None,
    max_trials: int,
    variant: Variant | None = None,
    progress: Callable[[int], None] | None = None,
    names: Mapping[str, str] | None = None,
    block_size: int | None = None,
    tables: Tables | None = None,
    source: str = "--set",
    cell: int = 0,
) -> tuple[Question, Request]:
    """The question of ``kind`` that ``system`` answers, and its request: the sampling choices checked.

    Args:
        system: The system's id.
        kind: ``attack``, ``duel``, ``battle`` or one of the system's further questions.
        inputs: Its inputs as its form takes them (``ROW.COLUMN`` overrides among them; a duel's
            ``a.KEY`` and ``b.KEY``; a battle's changes by dotted path).
        rules: Rule parameters.
        battle: The battle, or the path of a battle file, of a ``battle`` question.
        exact: Exact values instead of sampling.
        trials: Trials to sample (default: :data:`DEFAULT_BY_FORM` of its form).
        seed: Root seed of the random streams.
        threads: Sampling threads (None: every CPU).
        max_trials: The most trials a request may sample.
        variant: A house-rule variant applied to the request.
        progress: Called with the trials done so far.
        names: How the caller spells ``exact``, ``trials`` and ``kind`` in messages
            (default: the command line's ``--exact``, ``--trials``, ``--kind``).
        block_size: Trials per block (None: the engine's choice); it never changes the
            result, only how often ``progress`` is called.
        tables: One's own tables, by name (:mod:`simlab.inputs.own_tables`): rows beside the shipped ones.
        source: How messages name where a scenario's inputs came from (``--set``, ``--vary``).
        cell: The index of the scenario in a run: it picks the random stream (with ``seed``).

    Raises:
        SimlabError: One line naming the input at fault and what is valid.
    """
    spelled = {**_OPTION_NAMES, **(names or {})}
    chosen = get_system(system)
    question = question_of(chosen, kind)
    if exact and trials is not None:
        raise SimlabError(f"{spelled['exact']} and {spelled['trials']} exclude each other: give one of them")
    if exact and question.sampled_only:
        raise SimlabError(f"{spelled['kind']} {kind} is sampled only: leave out {spelled['exact']}")
    n_trials = DEFAULT_BY_FORM[question.form] if trials is None else trials
    check_seed(seed)
    check_threads(threads)
    check_trials(n_trials)
    if not exact:
        Limits(max_trials=max_trials).check_trials(n_trials, spelled["trials"])
    found = load_battle(battle) if isinstance(battle, str) else battle
    request = build_request(
        chosen,
        question,
        inputs,
        battle=found,
        variant=variant,
        rules=rules,
        method="exact" if exact else "monte_carlo",
        trials=n_trials,
        seed=seed,
        threads=threads,
        progress=None if exact else progress,
        block_size=block_size,
        tables=dict(tables or {}),
        source=source,
        cell=cell,
    )
    return question, request
