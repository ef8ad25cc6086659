"""How every system answers a battle (ENG-4, ENG-5): check, sample, the exact first turn, the result.

Each system supplies a :class:`BattleEngine`: its validation into a resolved battle, its
sampler, the window of draws a trial takes, the exact first turn where it is tractable and
what its result shows of the range; :meth:`BattleEngine.answer` is the one loop every system's
battles go through.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from simlab.engine.blocks import Tallies
from simlab.engine.bounds import DRAWS_PER_TRIAL_LIMIT, MAX_TRIALS_PER_CELL
from simlab.engine.results import Answer
from simlab.inputs.battles import Battle
from simlab.inputs.errors import SimlabError
from simlab.inputs.params import as_plain
from simlab.systems.base import BattleRequest, sampling_options
from simlab.systems.battles import battle_estimates

__all__ = [
    "BattleEngine",
    "Estimates",
    "battle_result",
    "first_turn_targets",
    "first_turn_distributions",
    "with_exact_first_turn",
    "draw_window",
    "check_trials_in_window",
    "MAX_WINDOW",
]

#: Metrics, 95 % intervals and distributions of a battle.
Estimates = tuple[dict[str, float], dict[str, tuple[float, float]], dict[str, dict[int, float]]]


@dataclass(frozen=True)
class BattleEngine:
    """What a system supplies to answer its battles; calling it answers a :class:`BattleRequest`.

    Attributes:
        system: System id.
        resolve: Validates a request into the resolved battle (its ``figures``, ``rules`` and
            ``shape``); raises :class:`~simlab.errors.SimlabError`.
        sample: Samples the resolved battle into summed tallies (takes the sampling options).
        window: The draws one trial of the resolved battle takes.
        where: What the result shows of the range, from the battle.
        first_turn: The exact distributions of the first turn, or None where not tractable.
        details: Further facts of the result, from the battle and whether the first turn is exact.
        more: Adds the metrics of the system's own tallies (after ENG-5's five) to the estimates.
    """

    system: str
    resolve: Callable[[BattleRequest], Any]
    sample: Callable[..., Tallies]
    window: Callable[[Any], int]
    where: Callable[[Any], dict[str, Any]]
    first_turn: Callable[[Any], Mapping[str, dict[int, float]] | None] | None = None
    details: Callable[[Any, bool], dict[str, Any]] | None = None
    more: Callable[[Tallies, int, Estimates], None] | None = None

    def __call__(self, request: BattleRequest) -> Answer:
        """Sample the battle of ``request`` into ENG-5's metrics (the exact first turn beside them)."""
        resolved = self.resolve(request)
        check_trials_in_window(request, self.window(resolved))
        tallies = self.sample(resolved, **sampling_options(request))
        exact = self.first_turn(resolved) if self.first_turn is not None else None
        estimates = with_exact_first_turn(battle_estimates(tallies[:5], request.trials, resolved.shape), exact)
        if self.more is not None:
            self.more(tallies[5:], request.trials, estimates)
        details = self.details(request.battle, exact is not None) if self.details is not None else {}
        where = self.where(request.battle)
        return battle_result(self.system, request, resolved.figures, resolved.rules, estimates, where, details)


def battle_result(
    system: str,
    request: BattleRequest,
    figures: Sequence[Any],
    rules: Any,
    estimates: tuple[dict[str, float], dict[str, tuple[float, float]], dict[str, dict[int, float]]],
    where: Mapping[str, Any],
    details: Mapping[str, Any] | None = None,
) -> Answer:
    """The result of ``simlab battle``: both sides as the rules saw them, ENG-5's metrics and distributions.

    Args:
        system: System id.
        request: The :class:`~simlab.systems.base.BattleRequest`.
        figures: Each figure's resolved template, side a's first.
        rules: The rule parameters.
        estimates: Metrics, intervals and distributions.
        where: The range the sides stand at (``range_band`` or ``range_m``).
        details: Further figures worth showing.
    """
    battle = request.battle

    def side_json(s: int, first: int) -> dict[str, Any]:
        side = battle.sides[s]
        groups, at = [], first
        for group in side.groups:
            groups.append({"name": group.name, "count": group.count, **as_plain(figures[at])})
            at += group.count
        return {
            "name": side.name,
            "tactics": side.tactics,
            "doctrine": as_plain(side.doctrine),
            "formation": as_plain(side.formation),
            "groups": groups,
        }

    metrics, ci, distributions = estimates
    return Answer(
        system=system,
        method="monte_carlo",
        trials=request.trials,
        seed=request.seed,
        scenario={"battle": battle.name, **where, "a": side_json(0, 0), "b": side_json(1, battle.sides[0].count)},
        rules=as_plain(rules),
        metrics=metrics,
        ci95=ci,
        distributions=distributions,
        details={"weapon": " vs ".join(side.name for side in battle.sides), **(details or {})},
        variant=request.variant,
    )


def first_turn_targets(battle: Battle, side: int) -> list[tuple[int, int]]:
    """(shooter, target) of every figure of ``side`` in the first turn, figures numbered side a's first.

    Only for the deterministic doctrines (ENG-2): ``focus`` and ``weakest`` (nobody is wounded
    yet: the lowest index) and ``spread`` (the k-th figure at the (k mod m)-th enemy).
    """
    counts = [s.count for s in battle.sides]
    mine = range(0, counts[0]) if side == 0 else range(counts[0], counts[0] + counts[1])
    enemies = list(range(counts[0], counts[0] + counts[1])) if side == 0 else list(range(counts[0]))
    spread = battle.sides[side].doctrine.targets == "spread"
    return [(i, enemies[n % len(enemies)] if spread else enemies[0]) for n, i in enumerate(mine)]


def first_turn_distributions(battle: Battle, fates: Sequence[Sequence[float]]) -> dict[str, dict[int, float]]:
    """``first_turn_out_a`` and ``_b``: the count out of independent figures, each out with its chance.

    Args:
        battle: The battle.
        fates: Per side, the chance of each of its figures shot at to be out after the first turn.
    """
    result: dict[str, dict[int, float]] = {}
    for s, label in enumerate("ab"):
        dist = np.zeros(battle.sides[s].count + 1)
        dist[0] = 1.0
        for p in fates[s]:  # Poisson-binomial
            dist[1:] = dist[1:] * (1 - p) + dist[:-1] * p
            dist[0] *= 1 - p
        result[f"first_turn_out_{label}"] = {n: float(q) for n, q in enumerate(dist) if q > 0}
    return result


def with_exact_first_turn(
    estimates: tuple[dict[str, float], dict[str, tuple[float, float]], dict[str, dict[int, float]]],
    exact: Mapping[str, dict[int, float]] | None,
) -> tuple[dict[str, float], dict[str, tuple[float, float]], dict[str, dict[int, float]]]:
    """The estimates with the exact first turn beside the sampled one: ``exact_mean_first_turn_out_*``."""
    metrics, ci, distributions = estimates
    for name, dist in (exact or {}).items():
        distributions[f"{name}_exact"] = dist
        value = float(sum(n * p for n, p in dist.items()))
        metrics[f"exact_mean_{name}"] = value
        ci[f"exact_mean_{name}"] = (value, value)  # exact: a point
    return metrics, ci, distributions


#: The widest window of draws one trial of a battle may take.
MAX_WINDOW = 1 << 32


def draw_window(battle: Battle, bound: int) -> int:
    """Draws one trial's window holds: the engine's (as a duel's) when ``bound`` fits, else a wider one.

    A trial's draws are the positions of its own window of the cell's stream, so a big battle
    (many figures, many turns) gets a wider window, a power of two, and fewer trials a cell.

    Args:
        battle: The battle (to locate the error).
        bound: The most draws one trial of the battle can take.

    Raises:
        BattleError: When even the widest window is too small.
    """
    if bound < DRAWS_PER_TRIAL_LIMIT:
        return DRAWS_PER_TRIAL_LIMIT
    if bound >= MAX_WINDOW:
        raise battle.error(
            "max_turns", f"a battle this long may need {bound} draws per trial; simlab takes at most {MAX_WINDOW - 1}: "
            "lower max_turns or the figures",
        )  # fmt: skip
    return 1 << bound.bit_length()


def check_trials_in_window(request: BattleRequest, window: int) -> None:
    """Refuse more trials than a cell's stream holds at this window (the engine checks its own).

    Raises:
        SimlabError: Naming the most trials this battle may sample.
    """
    most = MAX_TRIALS_PER_CELL * DRAWS_PER_TRIAL_LIMIT // window
    if request.first_trial + request.trials > most:
        raise SimlabError(f"a battle this large samples at most {most} trials a cell (--trials)")
