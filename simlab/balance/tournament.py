"""Tournaments: every option against every other, the dominated ones, the metagame.

Each option is one side's inputs (a ship, a loadout). Every ordered pair is fought as a duel with
the first option as side A and the second as side B, on the same random streams for every pair
(common random numbers: the setup's seed and cell). An option's **score** against another is its
chance to win plus half the chance of a draw, averaged over the two seatings (A against B, then B
against A), so the matrix is fair to both sides: ``score[i, j] + score[j, i] == 1``.

From the matrix:

* **dominated options**: ``k`` is dominated by ``i`` when ``i`` beats ``k`` and, against every
  other option, ``i`` scores higher than ``k`` with their 95 % intervals apart: the row that
  beats it everywhere is the evidence;
* **the metagame**: the equilibrium mix of the symmetric zero-sum game whose payoff is
  ``score - score.T`` (a linear program, :func:`scipy.optimize.linprog`), and how stable it is:
  the matrix resampled within its sampling error, each option's share of the resampled
  equilibria it enters; an option that enters none is "never worth taking";
* **strengths**: Bradley-Terry strengths fitted to the scores (the log-odds of beating an
  average option), for ordering the matrix.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simlab.balance.setup import Setup
from simlab.inputs.errors import SimlabError
from simlab.inputs.limits import Limits

__all__ = [
    "Tournament",
    "tournament",
    "equilibrium",
    "dominated",
    "strengths",
    "worth",
    "resampled",
    "Matchup",
    "matchup",
    "dominated_rows",
    "game_mixes",
    "RESAMPLES",
]

#: Resampled matrices of the stability of the equilibrium.
RESAMPLES = 200
_Z95 = 1.959963984540054


@dataclass(frozen=True)
class Tournament:
    """Every option against every other.

    Attributes:
        names: The options' names, in the order given.
        score: ``score[i, j]``: option i's chance to beat option j (draws count half), both seatings averaged.
        half_width: The 95 % half-width of each score.
        trials: Duels of each seating.
        seed: The root seed (every pair on the same streams).
        options: Each option's side inputs.
        costs: Each option's list price where its rows have one (``cost_a`` of its duels), else None.
        fights: What each seating fights: ``duels`` or ``battles``.
    """

    names: tuple[str, ...]
    score: np.ndarray
    half_width: np.ndarray
    trials: int
    seed: int
    options: tuple[Mapping[str, Any], ...] = field(default=(), compare=False)
    costs: tuple[float | None, ...] = ()
    fights: str = "duels"
    _cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        """The matrix, the dominated options, the equilibrium and the strengths as JSON."""
        mix, share = equilibrium_stability(self)
        return {
            "options": list(self.names),
            "trials": self.trials,
            "seed": self.seed,
            "score": self.score.round(12).tolist(),
            "half_width_95": self.half_width.round(12).tolist(),
            "dominated": [{"option": self.names[k], "by": self.names[i]} for k, i in dominated(self)],
            "equilibrium": dict(zip(self.names, (float(x) for x in mix), strict=True)),
            "equilibrium_share_of_resamples": dict(zip(self.names, (float(x) for x in share), strict=True)),
            "worth": [dict(w) for w in worth(self)],
        }


def tournament(
    setup: Setup,
    options: Sequence[Mapping[str, Any]],
    names: Sequence[str] | None = None,
    *,
    limits: Limits | None = None,
    progress: Callable[[int], None] | None = None,
) -> Tournament:
    """Fight every ordered pair of ``options`` as duels of ``setup`` (its inputs shared by both sides).

    Args:
        setup: A duel question (``kind = "duel"``), or a battle: its seed, trials, rules and shared inputs.
        options: Each option's side inputs (``{"ship": "frigate"}``), at least two; of a battle, paths
            within a side (``{"groups.0.weapon": "rifle", "count": 3}``), given to side A and to side B.
        names: Their names (default: the inputs in words, ``ship=frigate``).
        limits: The job's caps, checked before the first duel.
        progress: Called with 1 after each seating.

    Raises:
        SimlabError: For fewer than two options, two alike, a question that is not a duel, or a job over the caps.
    """
    if setup.question.form not in ("sides", "battle"):
        raise SimlabError(f"a tournament fights duels or battles: --kind duel or a battle file, not {setup.kind}")
    if len(options) < 2:
        raise SimlabError("a tournament needs at least two options")
    shown = list(names) if names is not None else [",".join(f"{k}={v}" for k, v in o.items()) for o in options]
    if len(set(shown)) != len(shown):
        raise SimlabError("two options of the tournament are the same")
    n = len(options)
    if limits is not None:
        seatings = n * (n - 1)
        limits.check_trials(seatings * setup.trials_each, f"the tournament ({seatings} seatings)")
    costs: list[float | None] = [None] * n
    wins = np.zeros((n, n))  # wins[i, j]: i's chance to win as side A against j as side B, draws half
    variance = np.zeros((n, n))
    trials = setup.trials_each
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            sides = {**{f"a.{k}": v for k, v in options[i].items()}, **{f"b.{k}": v for k, v in options[j].items()}}
            result = setup.answer(sides)
            p_a, draw = result.metrics["p_a_wins"], result.metrics.get("p_draw", 0.0)
            if "cost_a" in result.metrics:
                costs[i] = float(result.metrics["cost_a"])
            wins[i, j] = p_a + 0.5 * draw
            low, high = result.ci95.get("p_a_wins", (p_a, p_a))  # Wilson: never zero width at 0 or 1
            variance[i, j] = ((high - low) / (2 * _Z95)) ** 2
            if progress is not None:
                progress(1)
    score = np.full((n, n), 0.5)
    spread = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i != j:  # i as A against j, and i as B against j (1 minus j's score as A)
                score[i, j] = (wins[i, j] + (1 - wins[j, i])) / 2
                spread[i, j] = _Z95 * math.sqrt((variance[i, j] + variance[j, i]) / 4)
    fights = "battles" if setup.question.form == "battle" else "duels"
    return Tournament(
        tuple(shown), score, spread, trials, setup.seed, tuple(dict(o) for o in options), tuple(costs), fights
    )


def dominated(result: Tournament) -> list[tuple[int, int]]:
    """``(k, i)`` for every option k that option i dominates: i beats k, and scores higher against every other."""
    score, half = result.score, result.half_width
    n = len(result.names)
    found = []
    for k in range(n):
        for i in range(n):
            if i == k or not score[i, k] - half[i, k] > 0.5:
                continue
            others = [j for j in range(n) if j not in (i, k)]
            if all(score[i, j] - half[i, j] > score[k, j] + half[k, j] for j in others):
                found.append((k, i))
                break
    return found


def equilibrium(score: np.ndarray) -> np.ndarray:
    """The equilibrium mix of the symmetric zero-sum game of ``score`` (payoff ``score - score.T``).

    The mix x maximises the worst payoff ``min_j (x @ (score - score.T))[j]`` (0 at the optimum of
    a symmetric game): a linear program, solved by :func:`scipy.optimize.linprog` (HiGHS).
    """
    from scipy.optimize import linprog

    payoff = score - score.T
    n = len(score)
    # variables: x (n shares), v (the game's value); maximise v: minimise -v
    cost = np.zeros(n + 1)
    cost[-1] = -1.0
    upper = np.hstack([-payoff.T, np.ones((n, 1))])  # v - x @ payoff[:, j] <= 0 for every j
    equal = np.hstack([np.ones((1, n)), np.zeros((1, 1))])
    solved = linprog(cost, A_ub=upper, b_ub=np.zeros(n), A_eq=equal, b_eq=[1.0],
                     bounds=[(0, None)] * n + [(None, None)], method="highs")  # fmt: skip
    if not solved.success:  # pragma: no cover - a bounded feasible program always solves
        raise SimlabError(f"the equilibrium could not be found: {solved.message}")
    mix = np.clip(solved.x[:n], 0.0, None)
    return mix / mix.sum()


def resampled(result: Tournament, resamples: int = RESAMPLES) -> list[np.ndarray]:
    """The matrix drawn ``resamples`` times within its sampling error (from the tournament's seed).

    Each draw moves every score by a normal error of its 95 % half-width and keeps
    ``score[j, i] = 1 - score[i, j]``.
    """
    n = len(result.names)
    rng = np.random.default_rng(np.random.SeedSequence([result.seed, 33]))
    upper = np.triu_indices(n, 1)
    drawn = []
    for _ in range(resamples):
        matrix = result.score.copy()
        noise = rng.normal(0.0, result.half_width[upper] / _Z95)
        matrix[upper] = np.clip(result.score[upper] + noise, 0.0, 1.0)
        matrix.T[upper] = 1.0 - matrix[upper]
        drawn.append(matrix)
    return drawn


def equilibrium_stability(result: Tournament, resamples: int = RESAMPLES) -> tuple[np.ndarray, np.ndarray]:
    """The equilibrium of the matrix, and each option's share of the resampled matrices' equilibria it enters.

    Worked out once per tournament (the sentences, the JSON and the report share it).
    """
    key = f"stability {resamples}"
    if key not in result._cache:
        drawn = resampled(result, resamples)
        entered = sum((equilibrium(matrix) > 1e-6 for matrix in drawn), np.zeros(len(result.names)))
        result._cache[key] = (equilibrium(result.score), entered / resamples)
    found: tuple[np.ndarray, np.ndarray] = result._cache[key]
    return found


def strengths(score: np.ndarray, iterations: int = 200) -> np.ndarray:
    """Bradley-Terry strengths (log scale, mean 0) fitted to the scores by the MM algorithm.

    ``P(i beats j) = e^s_i / (e^s_i + e^s_j)``; a score of exactly 0 or 1 is kept just inside so
    that a dominant option has a large but finite strength.
    """
    n = len(score)
    wins = np.clip(score, 1e-3, 1 - 1e-3)
    np.fill_diagonal(wins, 0.0)
    strength = np.ones(n)
    total = wins.sum(axis=1)
    for _ in range(iterations):
        pair = 1.0 / (strength[:, None] + strength[None, :])
        np.fill_diagonal(pair, 0.0)
        strength = total / pair.sum(axis=1)
        strength /= math.exp(np.log(strength).mean())
    logs = np.log(strength)
    return logs - logs.mean()


def worth(result: Tournament, resamples: int = RESAMPLES) -> list[dict[str, Any]]:
    """What each option is worth: its strength with a 95 % interval, its mean score, and against its price.

    The strength's interval is the 2.5th to 97.5th percentile over the resampled matrices. Where
    three options or more have prices, strength is fitted on the log of the price (least squares):
    an option's residual says how far its strength lies above (a bargain) or below (overpriced)
    the line, and its fair price is the price at which the line gives its strength.

    Returns:
        One mapping per option, in the order given: ``option``, ``strength``, ``strength_ci95``,
        ``mean_score``, ``cost``, ``score_per_cost``, ``residual`` and ``fair_cost`` (None without a price fit).
    """
    key = f"worth {resamples}"
    if key in result._cache:
        cached: list[dict[str, Any]] = result._cache[key]
        return cached
    base = strengths(result.score)
    drawn = np.array([strengths(matrix) for matrix in resampled(result, resamples)])
    low, high = np.percentile(drawn, [2.5, 97.5], axis=0)
    n = len(result.names)
    mean_score = (result.score.sum(axis=1) - 0.5) / max(n - 1, 1)
    costs: list[float | None] = list(result.costs) if result.costs else [None] * n
    prices = {i: float(c) for i, c in enumerate(costs) if c is not None and c > 0}
    fit: tuple[float, float] | None = None
    if len(prices) >= 3:
        slope, intercept = np.polyfit(np.log(list(prices.values())), base[list(prices)], 1)
        fit = (float(intercept), float(slope))
    rows = []
    for i in range(n):
        cost = costs[i]
        row: dict[str, Any] = {
            "option": result.names[i],
            "strength": float(base[i]),
            "strength_ci95": [float(low[i]), float(high[i])],
            "mean_score": float(mean_score[i]),
            "cost": cost,
            "score_per_cost": float(mean_score[i] / cost) if cost else None,
            "residual": None,
            "fair_cost": None,
        }
        if fit is not None and cost:
            intercept, slope = fit
            row["residual"] = float(base[i] - (intercept + slope * math.log(cost)))
            row["fair_cost"] = float(math.exp((base[i] - intercept) / slope)) if slope > 0 else None
        rows.append(row)
    result._cache[key] = rows
    return rows


@dataclass(frozen=True)
class Matchup:
    """Attacks scored against a list of defenders: the attacker's options by rows, the defender's by columns.

    Attributes:
        attackers: The attacking options' names.
        defenders: The defending options' names.
        metric: The metric the attacker wants high (``p_incapacitated``).
        value: ``value[i, j]``: the metric of attacker i against defender j.
        half_width: Its 95 % half-width (0 when exact).
    """

    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    metric: str
    value: np.ndarray
    half_width: np.ndarray

    def to_json(self) -> dict[str, Any]:
        """The matrix, the dominated attacks and both sides' equilibrium mixes as JSON."""
        attack, defence, worth_of_game = game_mixes(self.value)
        return {
            "attackers": list(self.attackers),
            "defenders": list(self.defenders),
            "metric": self.metric,
            "value": self.value.round(12).tolist(),
            "half_width_95": self.half_width.round(12).tolist(),
            "dominated": [{"option": self.attackers[k], "by": self.attackers[i]} for k, i in dominated_rows(self)],
            "attacker_mix": dict(zip(self.attackers, (float(x) for x in attack), strict=True)),
            "defender_mix": dict(zip(self.defenders, (float(x) for x in defence), strict=True)),
            "value_of_the_game": worth_of_game,
        }


def matchup(
    setup: Setup, attackers: Sequence[Mapping[str, Any]], defenders: Sequence[Mapping[str, Any]], metric: str,
    attacker_names: Sequence[str], defender_names: Sequence[str],
) -> Matchup:  # fmt: skip
    """Every attack against every defender, as one question of ``setup`` each (exact, or on the same streams).

    Raises:
        SimlabError: For a metric the question does not report, or fewer than two of either.
    """
    setup.check_metric(metric)
    if len(attackers) < 2 or len(defenders) < 1:
        raise SimlabError("a matchup needs two attacks or more and one defender or more")
    value = np.zeros((len(attackers), len(defenders)))
    half = np.zeros_like(value)
    for i, attack in enumerate(attackers):
        for j, defence in enumerate(defenders):
            result = setup.answer({**attack, **defence})
            value[i, j] = float(result.metrics[metric])
            low, high = result.ci95.get(metric, (value[i, j], value[i, j]))
            half[i, j] = (high - low) / 2
    return Matchup(tuple(attacker_names), tuple(defender_names), metric, value, half)


def dominated_rows(result: Matchup) -> list[tuple[int, int]]:
    """``(k, i)`` for every attack k that attack i does better than against every defender, intervals apart."""
    value, half = result.value, result.half_width
    found = []
    for k in range(len(value)):
        for i in range(len(value)):
            if i != k and all(value[i, j] - half[i, j] > value[k, j] + half[k, j] for j in range(value.shape[1])):
                found.append((k, i))
                break
    return found


def game_mixes(value: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The attacker's and the defender's equilibrium mixes of the zero-sum game ``value``, and its value.

    The attacker maximises the worst expected metric over the defender's choices; the defender's
    mix is the dual of the same linear program (both by :func:`scipy.optimize.linprog`).
    """
    from scipy.optimize import linprog

    rows, cols = value.shape
    cost = np.zeros(rows + 1)
    cost[-1] = -1.0
    upper = np.hstack([-value.T, np.ones((cols, 1))])  # v <= x @ value[:, j] for every defender j
    equal = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    solved = linprog(cost, A_ub=upper, b_ub=np.zeros(cols), A_eq=equal, b_eq=[1.0],
                     bounds=[(0, None)] * rows + [(None, None)], method="highs")  # fmt: skip
    if not solved.success:  # pragma: no cover - a bounded feasible program always solves
        raise SimlabError(f"the equilibrium could not be found: {solved.message}")
    attack = np.clip(solved.x[:rows], 0.0, None)
    defence = np.clip(-np.asarray(solved.ineqlin.marginals), 0.0, None)
    total = defence.sum()
    defence = defence / total if total > 0 else np.full(cols, 1.0 / cols)
    return attack / attack.sum(), defence, float(solved.x[-1])
