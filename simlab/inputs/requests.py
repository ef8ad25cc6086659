"""One question put to a system, from ``KEY=VALUE`` inputs: the same for the command line, the web and the API.

``simlab attack`` and ``simlab duel`` take scenario inputs (``--set``, ``--a``, ``--b``), rule
parameters (``--rule``), a method, trials and a seed; the web API takes the very same keys in
its query string. Both build their request here, so they accept and refuse exactly the same
inputs with the same one-line messages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from simlab.engine.bounds import check_seed, check_threads, check_trials
from simlab.inputs.battles import Battle, load_battle, override
from simlab.inputs.errors import SimlabError
from simlab.inputs.limits import DEFAULT_BATTLES, DEFAULT_DUELS, DEFAULT_TRIALS, Limits
from simlab.inputs.variants import Variant
from simlab.systems import AttackRequest, BattleRequest, DuelRequest, System, get_system, require_battles, require_duels
from simlab.systems.battles import refuse_unread_rules

__all__ = ["DEFAULT_TRIALS", "DEFAULT_DUELS", "DEFAULT_BATTLES", "attack_request", "duel_request", "battle_request"]

#: How the command line spells the choices that messages name.
_OPTION_NAMES = {"exact": "--exact", "trials": "--trials", "kind": "--kind"}


def _sampling(trials: int, seed: int, threads: int | None, max_trials: int, what: str) -> int:
    """Validate the trials (against the limit too), seed and threads; return the trials."""
    check_seed(seed)
    check_threads(threads)
    check_trials(trials)
    Limits(max_trials=max_trials).check_trials(trials, what)
    return trials


def attack_request(
    system: str,
    *,
    kind: str = "attack",
    inputs: Mapping[str, Any],
    rules: Mapping[str, Any],
    exact: bool = False,
    trials: int | None = None,
    seed: int = 0,
    threads: int | None = None,
    max_trials: int,
    variant: Variant | None = None,
    progress: Callable[[int], None] | None = None,
    names: Mapping[str, str] | None = None,
    block_size: int | None = None,
) -> tuple[System, AttackRequest]:
    """The system (or its question ``kind``) and the request of one attack question.

    Args:
        system: The system's id.
        kind: ``attack`` or one of the system's further questions.
        inputs: Scenario inputs, ``ROW.COLUMN`` overrides among them.
        rules: Rule parameters.
        exact: Exact values instead of sampling.
        trials: Trials to sample (default :data:`DEFAULT_TRIALS`).
        seed: Root seed of the random streams.
        threads: Sampling threads (None: every CPU).
        max_trials: The most trials a request may sample.
        variant: A house-rule variant applied to the request.
        progress: Called with the trials done so far.
        names: How the caller spells ``exact``, ``trials`` and ``kind`` in messages
            (default: the command line's ``--exact``, ``--trials``, ``--kind``).
        block_size: Trials per block (None: the engine's choice); it never changes the
            result, only how often ``progress`` is called.

    Raises:
        SimlabError: One line naming the input at fault and what is valid.
    """
    spelled = {**_OPTION_NAMES, **(names or {})}
    chosen = get_system(system).for_kind(kind)
    if exact and trials is not None:
        raise SimlabError(f"{spelled['exact']} and {spelled['trials']} exclude each other: give one of them")
    if exact and chosen.sampled_only:
        raise SimlabError(f"{spelled['kind']} {kind} is sampled only: leave out {spelled['exact']}")
    n_trials = DEFAULT_TRIALS if trials is None else trials
    if exact:
        check_seed(seed)
        check_threads(threads)
        check_trials(n_trials)
    else:
        _sampling(n_trials, seed, threads, max_trials, spelled["trials"])
    scenario, rows = chosen.split_inputs(dict(inputs))
    request = AttackRequest(
        scenario=scenario,
        rules=dict(rules),
        row_overrides=rows,
        method="exact" if exact else "monte_carlo",
        trials=n_trials,
        seed=seed,
        threads=threads,
        progress=None if exact else progress,
        block_size=block_size,
    )
    return chosen, variant.apply(request) if variant is not None else request


def duel_request(
    system: str,
    *,
    a: Mapping[str, Any],
    b: Mapping[str, Any],
    rules: Mapping[str, Any],
    trials: int | None = None,
    seed: int = 0,
    threads: int | None = None,
    max_trials: int,
    variant: Variant | None = None,
    progress: Callable[[int], None] | None = None,
    names: Mapping[str, str] | None = None,
    block_size: int | None = None,
) -> tuple[System, DuelRequest]:
    """The system and the request of a duel: each side's inputs as for an attack, plus magazines.

    The arguments are those of :func:`attack_request`, with ``a`` and ``b`` each side's inputs.

    Raises:
        SimlabError: One line naming the input at fault and what is valid.
    """
    chosen = get_system(system)
    require_duels(chosen)
    spelled = {**_OPTION_NAMES, **(names or {})}
    n_trials = _sampling(DEFAULT_DUELS if trials is None else trials, seed, threads, max_trials, spelled["trials"])
    a_inputs, a_rows = chosen.split_inputs(dict(a))
    b_inputs, b_rows = chosen.split_inputs(dict(b))
    refuse_unread_rules(chosen, None, rules)  # before the variant: its rules are for every question
    request = DuelRequest(
        a=a_inputs,
        b=b_inputs,
        a_rows=a_rows,
        b_rows=b_rows,
        rules=dict(rules),
        trials=n_trials,
        seed=seed,
        threads=threads,
        progress=progress,
        block_size=block_size,
    )
    return chosen, variant.apply(request) if variant is not None else request


def battle_request(
    system: str,
    battle: Battle | str,
    *,
    changes: Mapping[str, Any] | None = None,
    rules: Mapping[str, Any],
    trials: int | None = None,
    seed: int = 0,
    threads: int | None = None,
    max_trials: int,
    variant: Variant | None = None,
    progress: Callable[[int], None] | None = None,
    names: Mapping[str, str] | None = None,
    block_size: int | None = None,
) -> tuple[System, BattleRequest]:
    """The system and the request of a battle (ENG-1 to ENG-5).

    Args:
        system: The system's id; the battle must name the same.
        battle: A battle, or the path of a battle file.
        changes: Values changed by dotted path (``a.count``, ``b.doctrine.targets``).
        rules: Rule parameters (over the battle's ``[rules]``).
        trials: Battles to sample (default :data:`DEFAULT_BATTLES`).
        seed: Root seed of the random streams.
        threads: Sampling threads (None: every CPU).
        max_trials: The most trials a request may sample.
        variant: A house-rule variant applied to the request.
        progress: Called with the battles done so far.
        names: How the caller spells ``trials`` in messages.
        block_size: Trials per block (None: the engine's choice).

    Raises:
        SimlabError: One line naming the file, line and key, or the option, at fault.
    """
    chosen = get_system(system)
    require_battles(chosen)
    spelled = {**_OPTION_NAMES, **(names or {})}
    n_trials = _sampling(DEFAULT_BATTLES if trials is None else trials, seed, threads, max_trials, spelled["trials"])
    found = load_battle(battle) if isinstance(battle, str) else battle
    if found.system != chosen.name:
        raise found.error("system", f"the battle is for {found.system!r}, not {chosen.name!r}")
    found = override(found, changes or {})
    refuse_unread_rules(chosen, found, rules)  # before the variant: its rules are for every question
    request = BattleRequest(
        battle=found,
        rules=dict(rules),
        trials=n_trials,
        seed=seed,
        threads=threads,
        progress=progress,
        block_size=block_size,
    )
    return chosen, variant.apply(request) if variant is not None else request
