"""Tournaments: every option against every other, the dominated ones, the metagame.

Each option is one side's inputs (a ship, a loadout). Every ordered pair is fought as a duel with
the first option as side A and the second as side B, on the same random streams for every pair
(common random numbers: the setup's seed and cell). An option's **score** against another is its
chance to win plus half the chance that neither side wins (a draw of any kind: undecided, both out
at once, both down), averaged over the two seatings (A against B, then B against A), so the matrix
is fair to both sides: ``score[i, j] + score[j, i] == 1``.

From the matrix:

* **dominated options**: ``k`` is dominated by ``i`` when ``i`` beats ``k`` and, against every
  other option, ``i`` scores higher than ``k`` with their 95 % intervals apart: the row that
  beats it everywhere is the evidence;
* **the metagame**: the equilibrium mix of the symmetric zero-sum game whose payoff is
  ``score - score.T`` (a linear program, :func:`scipy.optimize.linprog`), and how stable it is:
  the matrix resampled within its sampling error, each option's share of the resampled
  equilibria it enters; an option that enters none is "never worth taking";
* **strengths**: Bradley-Terry strengths fitted to the scores (the log-odds of beating an
  average option), for ordering the matrix; **worth** against each option's price.

A **matchup** (:mod:`simlab.balance.matchup`) scores attacks against a list of defenders instead.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simlab.balance.games import RESAMPLES, Z95, GameMix, equilibrium, game_mix
from simlab.balance.options import dominated_json
from simlab.balance.setup import Setup
from simlab.balance.strengths import strengths
from simlab.inputs.errors import SimlabError, shortened, speaking
from simlab.inputs.limits import Limits

__all__ = [
    "TOURNAMENT_TRIALS",
    "Tournament",
    "score_variance",
    "check_options",
    "tournament",
    "dominated",
    "resampled",
    "tournament_mix",
    "equilibrium_stability",
    "RESIDUAL_FLOOR",
    "worth",
    "price_line",
]


#: Duels of each seating of a tournament, and trials of each cell of a sampled matchup, unless told.
TOURNAMENT_TRIALS = 10_000
#: How a message names an option's inputs: as they were given, without the side each seating puts them on.
OPTION_SPELLING = {"--a": "", "--b": "", "--a name": "input", "--b name": "input"}


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
        noun: What an option is, in words (``ship`` for every row of the ships; ``option`` unless told).
    """

    names: tuple[str, ...]
    score: np.ndarray
    half_width: np.ndarray
    trials: int
    seed: int
    options: tuple[Mapping[str, Any], ...] = field(default=(), compare=False)
    costs: tuple[float | None, ...] = ()
    fights: str = "duels"
    noun: str = "option"
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
            "dominated": dominated_json(self.names, dominated(self)),
            "equilibrium": dict(zip(self.names, (float(x) for x in mix), strict=True)),
            "equilibrium_unique": tournament_mix(self).unique,
            "equilibrium_tied": [self.names[i] for i in tournament_mix(self).varies],
            "equilibrium_share_of_resamples": dict(zip(self.names, (float(x) for x in share), strict=True)),
            "worth": [dict(w) for w in worth(self)],
        }


def score_variance(p_win: float, p_loss: float, trials: int) -> float:
    """The variance of a seating's score (a win 1, any draw 0.5, a loss 0) over ``trials`` fights.

    The trinomial's variance with ``z²/2`` wins and ``z²/2`` losses added, as Agresti and Coull
    add them to a proportion (``z`` the 95 % normal quantile): never zero, so a seating won every
    time still has an interval (the Agresti-Coull interval where there are no draws). 0 when exact
    (``trials`` 0).
    """
    if trials <= 0:
        return 0.0
    added = Z95**2
    total = trials + added
    win = (trials * p_win + added / 2) / total
    loss = (trials * p_loss + added / 2) / total
    draw = max(0.0, 1.0 - win - loss)
    mean = win + draw / 2
    return max(0.0, win + draw / 4 - mean**2) / total


def check_options(setup: Setup, options: Sequence[Mapping[str, Any]], names: Sequence[str]) -> None:
    """Check every option of a tournament on both sides, as its seatings will ask it, before the first fight.

    Raises:
        SimlabError: One line naming the option and the input at fault, with what is valid.
    """
    for option, name in zip(options, names, strict=True):
        sides = {f"{side}.{k}": v for side in "ab" for k, v in option.items()}
        try:
            with speaking(OPTION_SPELLING):  # an option's inputs are a side's, whichever side it sits on
                setup.question.check(setup.request(sides))
        except SimlabError as exc:
            raise SimlabError(f"option {shortened(name)!r}: {exc}") from None


def tournament(
    setup: Setup,
    options: Sequence[Mapping[str, Any]],
    names: Sequence[str] | None = None,
    *,
    limits: Limits | None = None,
    progress: Callable[[int], None] | None = None,
    noun: str = "option",
) -> Tournament:
    """Fight every ordered pair of ``options`` as duels of ``setup`` (its inputs shared by both sides).

    Args:
        setup: A duel question (``kind = "duel"``), or a battle: its seed, trials, rules and shared inputs.
        options: Each option's side inputs (``{"ship": "frigate"}``), at least two; of a battle, paths
            within a side (``{"groups.0.weapon": "rifle", "count": 3}``), given to side A and to side B.
        names: Their names (default: the inputs in words, ``ship=frigate``).
        limits: The job's caps, checked before the first duel.
        progress: Called with 1 after each seating.
        noun: What an option is, in words (``ship``).

    Raises:
        SimlabError: For fewer than two options, two alike, a question that is not a duel, or a job over the caps.
    """
    if not setup.question.input_form.sided:
        raise SimlabError(f"a tournament fights duels or battles, not {setup.kind}: ask duels, or give a battle")
    if len(options) < 2:
        raise SimlabError("a tournament needs at least two options")
    shown = list(names) if names is not None else [",".join(f"{k}={v}" for k, v in o.items()) for o in options]
    if len(set(shown)) != len(shown):
        raise SimlabError("two options of the tournament are the same")
    n = len(options)
    if limits is not None:
        seatings = n * (n - 1)
        limits.check_work(seatings, setup.trials_each, "seatings", "the tournament", "give fewer options")
    costs: list[float | None] = [None] * n
    wins = np.zeros((n, n))  # wins[i, j]: i's score as side A against j as side B, every draw half
    variance = np.zeros((n, n))
    trials = setup.trials_each
    check_options(setup, options, shown)
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            sides = {**{f"a.{k}": v for k, v in options[i].items()}, **{f"b.{k}": v for k, v in options[j].items()}}
            result = setup.answer(sides)
            p_a, p_b = float(result.metrics["p_a_wins"]), float(result.metrics["p_b_wins"])
            if "cost_a" in result.metrics:
                costs[i] = float(result.metrics["cost_a"])
            wins[i, j] = p_a + 0.5 * max(0.0, 1.0 - p_a - p_b)
            variance[i, j] = score_variance(p_a, p_b, trials)
            if progress is not None:
                progress(1)
    score = np.full((n, n), 0.5)
    spread = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i != j:  # i as A against j, and i as B against j (1 minus j's score as A)
                score[i, j] = (wins[i, j] + (1 - wins[j, i])) / 2
                spread[i, j] = Z95 * math.sqrt((variance[i, j] + variance[j, i]) / 4)
    fights = setup.question.input_form.fights
    return Tournament(
        tuple(shown), score, spread, trials, setup.seed, tuple(dict(o) for o in options), tuple(costs), fights, noun
    )


def dominated(result: Tournament) -> list[tuple[int, int]]:
    """``(k, i)`` for every option k and each option i dominating it: i beats k and scores higher against all others."""
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
    return found


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
        noise = rng.normal(0.0, result.half_width[upper] / Z95)
        matrix[upper] = np.clip(result.score[upper] + noise, 0.0, 1.0)
        matrix.T[upper] = 1.0 - matrix[upper]
        drawn.append(matrix)
    return drawn


def tournament_mix(result: Tournament) -> GameMix:
    """The tournament's equilibrium (:func:`game_mix` of ``score - score.T``), worked out once."""
    if "mix" not in result._cache:
        result._cache["mix"] = game_mix(result.score - result.score.T)
    found: GameMix = result._cache["mix"]
    return found


def equilibrium_stability(result: Tournament, resamples: int = RESAMPLES) -> tuple[np.ndarray, np.ndarray]:
    """The equilibrium of the matrix, and each option's share of the resampled matrices' equilibria it enters.

    Worked out once per tournament (the sentences, the JSON and the report share it).
    """
    key = f"stability {resamples}"
    if key not in result._cache:
        drawn = resampled(result, resamples)
        entered = sum((equilibrium(matrix, centre=False) > 0 for matrix in drawn), np.zeros(len(result.names)))
        result._cache[key] = (tournament_mix(result).mix, entered / resamples)
    found: tuple[np.ndarray, np.ndarray] = result._cache[key]
    return found


def price_line(logs: np.ndarray, strength: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Least squares of strength on log price, for one fit or a stack: (intercepts, slopes)."""
    centred = logs - logs.mean()
    slope = (strength - strength.mean(axis=-1, keepdims=True)) @ centred / (centred @ centred)
    intercept = strength.mean(axis=-1) - slope * logs.mean()
    return intercept, slope


#: A residual closer to 0 than this (on the log-odds scale) is at the line: an exact tournament's rounding.
RESIDUAL_FLOOR = 1e-9


def worth(result: Tournament, resamples: int = RESAMPLES) -> list[dict[str, Any]]:
    """What each option is worth: its strength with a 95 % interval, its mean score, and against its price.

    The strength's interval is the 2.5th to 97.5th percentile over the resampled matrices (widened
    to hold the strength itself: a score of 0 or 1 resampled can move only one way). Where
    three options or more have prices (of two prices or more), strength is fitted on the log of the
    price (least squares): an option's residual says how far its strength lies above (a bargain) or
    below (overpriced) the line, with its 95 % interval over the resampled matrices (the line fitted
    again to each); its fair price is the price at which the line gives its strength (None where
    strength does not rise with price: no price is fair by a line that falls).

    Returns:
        One mapping per option, in the order given: ``option``, ``strength``, ``strength_ci95``,
        ``mean_score``, ``cost``, ``score_per_cost``, ``residual``, ``residual_ci95``, ``fair_cost`` and
        ``verdict``: ``bargain`` or ``overpriced`` where the residual's interval lies wholly above or
        below 0, ``in line`` where it holds 0, None without a price fit or where strength falls with price.
    """
    key = f"worth {resamples}"
    if key in result._cache:
        cached: list[dict[str, Any]] = result._cache[key]
        return cached
    base = strengths(result.score)
    drawn = strengths(np.array(resampled(result, resamples)))
    low, high = np.percentile(drawn, [2.5, 97.5], axis=0)
    # a sweep's score can only move one way when resampled (it stays within [0, 1]): the interval holds the strength
    low, high = np.minimum(low, base), np.maximum(high, base)
    n = len(result.names)
    mean_score = (result.score.sum(axis=1) - 0.5) / max(n - 1, 1)
    costs: list[float | None] = list(result.costs) if result.costs else [None] * n
    prices = {i: float(c) for i, c in enumerate(costs) if c is not None and c > 0}
    fit: tuple[float, float] | None = None
    residual_low = residual_high = np.zeros(n)
    logs = np.log(list(prices.values())) if prices else np.zeros(0)
    if len(prices) >= 3 and np.ptp(logs) > 0:
        priced = list(prices)
        line = price_line(logs, base[priced])
        fit = (float(line[0]), float(line[1]))
        intercepts, slopes = price_line(logs, drawn[:, priced])
        log_cost = np.log([c if c else 1.0 for c in costs])
        spread = drawn - (intercepts[:, None] + slopes[:, None] * log_cost[None, :])
        residual_low, residual_high = np.percentile(spread, [2.5, 97.5], axis=0)
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
            "residual_ci95": None,
            "fair_cost": None,
            "verdict": None,
        }
        if fit is not None and cost:
            intercept, slope = fit
            residual = float(base[i] - (intercept + slope * math.log(cost)))
            interval = (min(float(residual_low[i]), residual), max(float(residual_high[i]), residual))
            row["residual"] = residual
            row["residual_ci95"] = [interval[0], interval[1]]
            row["fair_cost"] = float(math.exp((base[i] - intercept) / slope)) if slope > 0 else None
            above, below = interval[0] > RESIDUAL_FLOOR, interval[1] < -RESIDUAL_FLOOR
            if slope > 0:  # against a line that falls, above or below it says nothing of value
                row["verdict"] = "bargain" if above else "overpriced" if below else "in line"
        rows.append(row)
    result._cache[key] = rows
    return rows
