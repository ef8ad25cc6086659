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
  average option), for ordering the matrix; **worth** against each option's price.

A **matchup** scores attacks against a list of defenders instead (weapons against armours): the
matrix of a metric the attacker wants high and the defender low, the attacks another does better
than against every defender, and both sides' equilibrium mixes of that zero-sum game.
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
    "maximin",
    "matchup_mixes",
    "matchup_stability",
    "every_row",
    "parse_options",
    "RESAMPLES",
]

#: A share of a mix below this is the solver's rounding: it counts as 0 (the option is not played).
MIX_FLOOR = 1e-6
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
            "dominated": _dominated_json(self.names, dominated(self)),
            "equilibrium": dict(zip(self.names, (float(x) for x in mix), strict=True)),
            "equilibrium_share_of_resamples": dict(zip(self.names, (float(x) for x in share), strict=True)),
            "worth": [dict(w) for w in worth(self)],
        }


def every_row(setup: Setup, every: str, where: str = "every") -> tuple[list[dict[str, Any]], list[str]]:
    """Each row of the table the input ``every`` names as an option (``[{"ship": "scout"}, ...]``), and their names.

    Raises:
        SimlabError: For an input that names no table's row, with those that do (``where`` names the
            option or field that gave it).
    """
    question = setup.question
    if every not in question.row_inputs:
        named = ", ".join(question.row_inputs) or "none"
        raise SimlabError(f"{where} {every!r}: expected an input naming a table row ({named})")
    names = [row.name for row in setup.owner.tables()[question.row_inputs[every]]]
    return [{every: name} for name in names], names


def parse_options(items: Sequence[str], where: str) -> tuple[list[dict[str, Any]], list[str]]:
    """Options written ``KEY=VALUE;KEY=VALUE``, or ``NAME: KEY=VALUE;...``, and their names.

    An option without a name is named by its values joined by " + " (``rifle + cloth``).

    Raises:
        SimlabError: For an item that is not ``KEY=VALUE`` pairs (``where`` names the option or field).
    """
    from simlab.inputs.params import parse_assignments

    chosen, names = [], []
    for item in items:
        name, colon, rest = item.partition(":")
        named = bool(colon) and "=" not in name and name.strip() != ""
        option = dict(parse_assignments((rest if named else item).split(";"), where))
        chosen.append(option)
        names.append(name.strip() if named else " + ".join(str(v) for v in option.values()))
    return chosen, names


def _check_size(limits: Limits, questions: int, what: str, job: str) -> None:
    """Refuse more questions (seatings or cells) than the job's cap of cells, exact ones included."""
    from simlab.inputs.limits import TooMuchWorkError

    if questions > limits.max_cells:
        cap = f"the cap of {limits.max_cells:,}"
        raise TooMuchWorkError(f"{job}: {questions:,} {what} is above {cap}; give fewer options")


def _dominated_json(names: Sequence[str], pairs: Sequence[tuple[int, int]]) -> list[dict[str, Any]]:
    """Each dominated option with every option that dominates it: ``{"option": ..., "by": [...]}``."""
    by: dict[int, list[str]] = {}
    for k, i in pairs:
        by.setdefault(k, []).append(names[i])
    return [{"option": names[k], "by": by[k]} for k in sorted(by)]


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
        _check_size(limits, seatings, "seatings", "the tournament")
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


def maximin(payoff: np.ndarray) -> tuple[np.ndarray, float]:
    """The row player's best mix of the zero-sum game ``payoff`` (rows choose, columns answer), and its value.

    Two linear programs (:func:`scipy.optimize.linprog`, HiGHS): the first finds the game's value,
    the largest payoff the rows can be sure of, ``max_x min_j (x @ payoff)[j]``; where several mixes
    are sure of it, the second picks the one that does most against columns chosen at random
    (the largest mean of ``x @ payoff``), so a tie between mixes is settled by what a designer
    expects (an option as good against the best answer and better against the others is preferred)
    and not by the solver's path. A saddle point that one row alone reaches needs no program.
    """
    rows, cols = payoff.shape
    floor = payoff.min(axis=1)
    best = int(np.argmax(floor))
    value = float(floor[best])
    answer = int(np.argmin(payoff.max(axis=0)))
    tolerance = 1e-12 * (1.0 + abs(value))
    if payoff[:, answer].max() <= value + tolerance and (payoff[:, answer] >= value - tolerance).sum() == 1:
        # a saddle point that one row alone reaches: any other row in a mix would do worse against
        # the column ``answer``, so that row alone is the only mix sure of the value (no program needed)
        alone = np.zeros(rows)
        alone[best] = 1.0
        return alone, value
    from scipy.optimize import linprog

    cost = np.zeros(rows + 1)
    cost[-1] = -1.0  # variables: x (rows shares), v (the value); maximise v
    upper = np.hstack([-payoff.T, np.ones((cols, 1))])  # v - x @ payoff[:, j] <= 0 for every column j
    equal = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    bounds = [(0, None)] * rows + [(None, None)]
    solved = linprog(cost, A_ub=upper, b_ub=np.zeros(cols), A_eq=equal, b_eq=[1.0], bounds=bounds, method="highs")
    if not solved.success:  # pragma: no cover - a bounded feasible program always solves
        raise SimlabError(f"the equilibrium could not be found: {solved.message}")
    value = float(solved.x[-1])
    sure = value - 1e-9 * (1.0 + abs(value))  # every mix that is sure of the value, within rounding
    refined = linprog(-payoff.mean(axis=1), A_ub=-payoff.T, b_ub=np.full(cols, -sure), A_eq=np.ones((1, rows)),
                      b_eq=[1.0], bounds=[(0, None)] * rows, method="highs")  # fmt: skip
    mix = np.clip(refined.x if refined.success else solved.x[:rows], 0.0, None)
    mix[mix < MIX_FLOOR] = 0.0  # the solver's rounding, not a share
    return mix / mix.sum(), value


def equilibrium(score: np.ndarray) -> np.ndarray:
    """The equilibrium mix of the symmetric zero-sum game of ``score`` (payoff ``score - score.T``).

    The mix x maximises the worst payoff ``min_j (x @ (score - score.T))[j]`` (0 at the optimum of
    a symmetric game), by :func:`maximin`.
    """
    return maximin(score - score.T)[0]


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
        entered = sum((equilibrium(matrix) > 0 for matrix in drawn), np.zeros(len(result.names)))
        result._cache[key] = (equilibrium(result.score), entered / resamples)
    found: tuple[np.ndarray, np.ndarray] = result._cache[key]
    return found


def strengths(score: np.ndarray, iterations: int = 200) -> np.ndarray:
    """Bradley-Terry strengths (log scale, mean 0) fitted to the scores by the MM algorithm.

    ``P(i beats j) = e^s_i / (e^s_i + e^s_j)``; a score of exactly 0 or 1 is kept just inside so
    that a dominant option has a large but finite strength.

    Args:
        score: One matrix (n × n), or a stack of them (r × n × n) fitted at once.
        iterations: MM updates.

    Returns:
        The strengths: n of them, or r × n for a stack.
    """
    n = score.shape[-1]
    off = ~np.eye(n, dtype=bool)
    wins = np.where(off, np.clip(score, 1e-3, 1 - 1e-3), 0.0)
    strength = np.ones(score.shape[:-1])
    total = wins.sum(axis=-1)
    for _ in range(iterations):
        pair = np.where(off, 1.0 / (strength[..., :, None] + strength[..., None, :]), 0.0)
        strength = total / pair.sum(axis=-1)
        strength /= np.exp(np.log(strength).mean(axis=-1, keepdims=True))
    logs = np.log(strength)
    centred: np.ndarray = logs - logs.mean(axis=-1, keepdims=True)
    return centred


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
    drawn = strengths(np.array(resampled(result, resamples)))
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
        method: ``exact`` or ``monte_carlo``.
        trials: Trials of each cell when sampled.
        seed: The root seed (every cell on the same streams).
    """

    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    metric: str
    value: np.ndarray
    half_width: np.ndarray
    method: str = "exact"
    trials: int | None = None
    seed: int = 0
    _cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        """The matrix, the dominated attacks, both sides' equilibrium mixes and their stability as JSON."""
        attack, defence, worth_of_game = matchup_mixes(self)
        attack_share, defence_share = matchup_stability(self)
        return {
            "attackers": list(self.attackers),
            "defenders": list(self.defenders),
            "metric": self.metric,
            "method": self.method,
            "trials": self.trials,
            "seed": self.seed,
            "value": self.value.round(12).tolist(),
            "half_width_95": self.half_width.round(12).tolist(),
            "dominated": _dominated_json(self.attackers, dominated_rows(self)),
            "attacker_mix": dict(zip(self.attackers, (float(x) for x in attack), strict=True)),
            "defender_mix": dict(zip(self.defenders, (float(x) for x in defence), strict=True)),
            "value_of_the_game": worth_of_game,
            "attacker_share_of_resamples": dict(zip(self.attackers, (float(x) for x in attack_share), strict=True)),
            "defender_share_of_resamples": dict(zip(self.defenders, (float(x) for x in defence_share), strict=True)),
        }


def matchup(
    setup: Setup, attackers: Sequence[Mapping[str, Any]], defenders: Sequence[Mapping[str, Any]], metric: str,
    attacker_names: Sequence[str], defender_names: Sequence[str], *, limits: Limits | None = None,
    progress: Callable[[int], None] | None = None,
) -> Matchup:  # fmt: skip
    """Every attack against every defender, as one question of ``setup`` each (exact, or on the same streams).

    Args:
        setup: The question each cell asks (an attack, or any question with ``metric``).
        attackers: Each attack's inputs (``{"weapon": "gauss rifle"}``), two or more.
        defenders: Each defender's inputs (``{"armor": "nylon"}``), one or more.
        metric: What the attacker wants high and the defender low.
        attacker_names: The attacks' names.
        defender_names: The defenders' names.
        limits: The job's caps, checked before the first cell.
        progress: Called with 1 after each cell.

    Raises:
        SimlabError: For a metric the question does not report, fewer than two attacks or no
            defender, two alike, or a job over the caps.
    """
    setup.check_metric(metric)
    if len(attackers) < 2 or len(defenders) < 1:
        raise SimlabError("a matchup needs two attacks or more and one defender or more")
    if len(set(attacker_names)) != len(attacker_names) or len(set(defender_names)) != len(defender_names):
        raise SimlabError("two attacks or two defenders of the matchup are the same")
    cells = len(attackers) * len(defenders)
    if limits is not None:
        _check_size(limits, cells, "cells", "the matchup")
        if not setup.exact:
            limits.check_trials(cells * setup.trials_each, f"the matchup ({cells} cells)")
    value = np.zeros((len(attackers), len(defenders)))
    half = np.zeros_like(value)
    for i, attack in enumerate(attackers):
        for j, defence in enumerate(defenders):
            result = setup.answer({**attack, **defence})
            value[i, j] = float(result.metrics[metric])
            low, high = result.ci95.get(metric, (value[i, j], value[i, j]))
            half[i, j] = (high - low) / 2
            if progress is not None:
                progress(1)
    method = "exact" if setup.exact else "monte_carlo"
    trials = None if setup.exact else setup.trials_each
    return Matchup(tuple(attacker_names), tuple(defender_names), metric, value, half, method, trials, setup.seed)


def matchup_mixes(result: Matchup) -> tuple[np.ndarray, np.ndarray, float]:
    """Both sides' equilibrium mixes of the matchup and the game's value (:func:`game_mixes`), worked out once."""
    if "mixes" not in result._cache:
        result._cache["mixes"] = game_mixes(result.value)
    found: tuple[np.ndarray, np.ndarray, float] = result._cache["mixes"]
    return found


def matchup_stability(result: Matchup, resamples: int = RESAMPLES) -> tuple[np.ndarray, np.ndarray]:
    """Each attack's and each defender's share of the resampled matrices' equilibrium mixes it enters.

    Each cell moves by a normal error of its 95 % half-width (from the matchup's seed); an exact
    matchup has no error, so its shares are 1 for whatever its one mix holds and 0 otherwise.
    """
    key = f"stability {resamples}"
    if key not in result._cache:
        rng = np.random.default_rng(np.random.SeedSequence([result.seed, 34]))
        attack_in, defence_in = np.zeros(len(result.attackers)), np.zeros(len(result.defenders))
        exact = not result.half_width.any()
        for _ in range(1 if exact else resamples):
            drawn = result.value + (0.0 if exact else rng.normal(0.0, result.half_width / _Z95))
            attack, defence, _ = game_mixes(drawn)
            attack_in += attack > 0
            defence_in += defence > 0
        runs = 1 if exact else resamples
        result._cache[key] = (attack_in / runs, defence_in / runs)
    found: tuple[np.ndarray, np.ndarray] = result._cache[key]
    return found


def dominated_rows(result: Matchup) -> list[tuple[int, int]]:
    """``(k, i)`` for every attack k and each attack i doing better than it against every defender, intervals apart."""
    value, half = result.value, result.half_width
    found = []
    for k in range(len(value)):
        for i in range(len(value)):
            if i != k and all(value[i, j] - half[i, j] > value[k, j] + half[k, j] for j in range(value.shape[1])):
                found.append((k, i))
    return found


def game_mixes(value: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The attacker's and the defender's equilibrium mixes of the zero-sum game ``value``, and its value.

    The attacker maximises the worst expected metric over the defender's choices; the defender
    minimises the best over the attacker's (both by :func:`maximin`; by the minimax theorem both
    are sure of the same value).
    """
    attack, worth_of_game = maximin(value)
    defence, _ = maximin(-value.T)
    return attack, defence, worth_of_game
