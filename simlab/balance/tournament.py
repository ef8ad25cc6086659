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
    "game_mix",
    "GameMix",
    "tournament_mix",
    "matchup_games",
    "check_options",
    "check_matchup",
    "score_variance",
    "matchup_mixes",
    "matchup_stability",
    "every_row",
    "parse_options",
    "RESAMPLES",
    "TOURNAMENT_TRIALS",
    "MATCHUP_TRIALS",
]

#: A share of a mix below this is the solver's rounding: it counts as 0 (the option is not played).
MIX_FLOOR = 1e-6
#: Duels of each seating of a tournament, and trials of each cell of a sampled matchup, unless told.
TOURNAMENT_TRIALS = 10_000
MATCHUP_TRIALS = 100_000
#: Tied mixes: an option whose share differs by more than this between equally good mixes can trade shares.
TIE_SHARE = 1e-5
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
            "equilibrium_unique": tournament_mix(self).unique,
            "equilibrium_tied": [self.names[i] for i in tournament_mix(self).varies],
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


def score_variance(p_win: float, p_loss: float, trials: int) -> float:
    """The variance of a seating's score (a win 1, any draw 0.5, a loss 0) over ``trials`` fights.

    The trinomial's variance with ``z²/2`` wins and ``z²/2`` losses added, as Agresti and Coull
    add them to a proportion (``z`` the 95 % normal quantile): never zero, so a seating won every
    time still has an interval (the Agresti-Coull interval where there are no draws). 0 when exact
    (``trials`` 0).
    """
    if trials <= 0:
        return 0.0
    added = _Z95**2
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
            setup.question.check(setup.request(sides))
        except SimlabError as exc:
            raise SimlabError(f"option {name!r}: {exc}") from None


def check_matchup(
    setup: Setup, attackers: Sequence[Mapping[str, Any]], defenders: Sequence[Mapping[str, Any]],
    attacker_names: Sequence[str], defender_names: Sequence[str],
) -> None:  # fmt: skip
    """Check every attack and every defender as the cells ask them, and that no defender sets what an attack sets.

    Each attack is checked alone (or, where it cannot stand alone, with the first defender), then
    each defender with the first attack.
    A cell asks the attack's inputs and the defender's together; a defender that set an input an
    attack sets (``weapon``) would replace the attack's own, so it is refused.

    Raises:
        SimlabError: One line naming the attack or defender and the input at fault.
    """
    def fault(inputs: Mapping[str, Any]) -> SimlabError | None:
        try:
            setup.question.check(setup.request(inputs))
        except SimlabError as exc:
            return exc
        return None

    for attack, name in zip(attackers, attacker_names, strict=True):
        # alone (an attack stands on its own), else with the first defender: a fault in both is the attack's
        found = fault(attack) and fault({**defenders[0], **attack})
        if found is not None:
            raise SimlabError(f"attack {name!r}: {found}")
    for defender, name in zip(defenders, defender_names, strict=True):  # each with the first attack, known good
        found = fault({**attackers[0], **defender})
        if found is not None:
            raise SimlabError(f"defender {name!r}: {found}")
    for defender, defender_name in zip(defenders, defender_names, strict=True):
        for attack, attack_name in zip(attackers, attacker_names, strict=True):
            both = [key for key in defender if key in attack]
            if both:
                raise SimlabError(
                    f"defender {defender_name!r} sets {', '.join(both)}, which attack {attack_name!r} sets too: "
                    "a defender gives the target's inputs (armor, cover), never an attack's"
                )


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


@dataclass(frozen=True)
class GameMix:
    """One side's equilibrium mix of a zero-sum game.

    Attributes:
        mix: Each option's share (the centre of the equally good mixes when there are several).
        value: The payoff the mix is sure of, whatever the other side picks.
        unique: Whether it is the only mix that is as good (else the options in ``varies`` can trade shares).
        varies: The options whose share differs between equally good mixes (identical options, ties).
    """

    mix: np.ndarray
    value: float
    unique: bool = True
    varies: tuple[int, ...] = ()


def maximin(payoff: np.ndarray) -> tuple[np.ndarray, float]:
    """The row player's best mix of the zero-sum game ``payoff`` (rows choose, columns answer), and its value.

    See :func:`game_mix`, whose mix this is.
    """
    found = game_mix(payoff)
    return found.mix, found.value


def game_mix(payoff: np.ndarray, centre: bool = True) -> GameMix:
    """The row player's best mix of the zero-sum game ``payoff`` (rows choose, columns answer).

    Linear programs (:func:`scipy.optimize.linprog`, HiGHS): the first finds the game's value, the
    largest payoff the rows can be sure of, ``max_x min_j (x @ payoff)[j]``; where several mixes are
    sure of it, the second keeps those that do most against columns chosen at random (the largest
    mean of ``x @ payoff``), so an option as good against the best answer and better against the
    others is preferred. Where several mixes still tie (identical options, or options that are
    interchangeable), a tie is said as a tie: with ``centre``, each option's least and largest share
    over the tied mixes is found (two programs an option) and the mix returned is the mean of the
    mixes that give each of those options its largest share, which holds every option any tied mix holds
    (two identical options share equally), with ``unique`` False. A saddle point that one row alone
    reaches needs no program.

    Args:
        payoff: The game, rows by columns.
        centre: Whether to look for tied mixes (the resampled matrices of the stability skip it:
            their noise leaves no exact ties).
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
        return GameMix(alone, value)
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
    mean = payoff.mean(axis=1)
    refined = linprog(-mean, A_ub=-payoff.T, b_ub=np.full(cols, -sure), A_eq=np.ones((1, rows)),
                      b_eq=[1.0], bounds=[(0, None)] * rows, method="highs")  # fmt: skip
    mix = np.clip(refined.x if refined.success else solved.x[:rows], 0.0, None)
    if centre and refined.success:
        best_mean = float(mean @ refined.x)
        tied_upper = np.vstack([-payoff.T, -mean[None, :]])  # sure of the value, and as good on average
        tied_bound = np.concatenate([np.full(cols, -sure), [-(best_mean - 1e-9 * (1.0 + abs(best_mean)))]])
        largest, least, extremes = np.zeros(rows), np.zeros(rows), {}
        for k in range(rows):
            for sign in (-1.0, 1.0):  # the largest share of k over the tied mixes, then the least
                aim = np.zeros(rows)
                aim[k] = sign
                tied = linprog(aim, A_ub=tied_upper, b_ub=tied_bound, A_eq=np.ones((1, rows)), b_eq=[1.0],
                               bounds=[(0, None)] * rows, method="highs")  # fmt: skip
                if not tied.success:  # pragma: no cover - the refined mix is always among them
                    continue
                share = float(np.clip(tied.x[k], 0.0, 1.0))
                if sign < 0:
                    largest[k] = share
                    extremes[k] = np.clip(tied.x, 0.0, None)
                else:
                    least[k] = share
        varies = tuple(k for k in range(rows) if largest[k] - least[k] > TIE_SHARE and k in extremes)
        if varies:
            centred = np.mean([extremes[k] for k in varies], axis=0)
            centred[centred < MIX_FLOOR] = 0.0
            return GameMix(centred / centred.sum(), value, False, varies)
    mix[mix < MIX_FLOOR] = 0.0  # the solver's rounding, not a share
    return GameMix(mix / mix.sum(), value)


def equilibrium(score: np.ndarray, centre: bool = True) -> np.ndarray:
    """The equilibrium mix of the symmetric zero-sum game of ``score`` (payoff ``score - score.T``).

    The mix x maximises the worst payoff ``min_j (x @ (score - score.T))[j]`` (0 at the optimum of
    a symmetric game), by :func:`game_mix`: equally good options share it.
    """
    return game_mix(score - score.T, centre).mix


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


#: A score of exactly 0 or 1 (a sweep) has no finite Bradley-Terry strength: it is read as one fight in a thousand.
STRENGTH_CLIP = 1e-3
#: Bradley-Terry is fitted until no option's gradient of the log-likelihood exceeds this.
STRENGTH_TOLERANCE = 1e-10


def strengths(score: np.ndarray, tolerance: float = STRENGTH_TOLERANCE) -> np.ndarray:
    """Bradley-Terry strengths (log scale, mean 0): the maximum-likelihood fit to the scores.

    ``P(i beats j) = e^s_i / (e^s_i + e^s_j)``, each score ``score[i, j]`` counted as i's share of
    one fight against j. The log-likelihood is concave; Newton's method with step halving climbs it
    until every option's gradient is below ``tolerance`` (the strengths are then exact to about
    that much). A score of exactly 0 or 1 has no finite maximum (a sweep makes the winner
    infinitely strong), so scores are read within [:data:`STRENGTH_CLIP`, 1 - :data:`STRENGTH_CLIP`]
    (one fight in a thousand): a dominant option gets a large but finite strength.

    Args:
        score: One matrix (n × n), or a stack of them (r × n × n) fitted at once.
        tolerance: The largest gradient of the log-likelihood left.

    Returns:
        The strengths: n of them, or r × n for a stack.

    Raises:
        SimlabError: Should the fit not converge in 200 steps (never seen: it converges in about ten).
    """
    n = score.shape[-1]
    off = ~np.eye(n, dtype=bool)
    wins = np.where(off, np.clip(score, STRENGTH_CLIP, 1 - STRENGTH_CLIP), 0.0)
    played = wins + np.swapaxes(wins, -1, -2)  # fights between each pair: 1 where the matrix is fair
    strength = np.zeros(score.shape[:-1])

    def likelihood(s: np.ndarray) -> np.ndarray:
        gap = s[..., :, None] - s[..., None, :]
        return np.where(off, -wins * np.logaddexp(0.0, -gap), 0.0).sum(axis=(-1, -2))  # Σ w log σ(s_i - s_j)

    gauge = np.ones((n, n)) / n  # fixes the mean (the likelihood does not see a common shift)
    for _ in range(200):
        chance = np.where(off, 1.0 / (1.0 + np.exp(strength[..., None, :] - strength[..., :, None])), 0.0)
        gradient = (wins - chance * played).sum(axis=-1)
        if np.abs(gradient).max() < tolerance:
            break
        curvature = played * chance * np.swapaxes(chance, -1, -2)
        laplacian = np.eye(n) * curvature.sum(axis=-1)[..., None] - curvature
        step = np.linalg.solve(laplacian + gauge, gradient[..., None])[..., 0]
        before = likelihood(strength)
        scale = np.ones((*score.shape[:-2], 1))
        for _ in range(40):  # halve the step where it would lower the likelihood
            tried = strength + scale * step
            worse = likelihood(tried) < before - 1e-12 * np.abs(before)
            if not worse.any():
                break
            scale = np.where(worse[..., None], scale / 2, scale)
        strength = tried - tried.mean(axis=-1, keepdims=True)
    else:  # pragma: no cover - a concave likelihood with a finite maximum converges
        raise SimlabError("the Bradley-Terry strengths did not converge")
    centred: np.ndarray = strength - strength.mean(axis=-1, keepdims=True)
    return centred


def _price_line(logs: np.ndarray, strength: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
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
        line = _price_line(logs, base[priced])
        fit = (float(line[0]), float(line[1]))
        intercepts, slopes = _price_line(logs, drawn[:, priced])
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
            "attacker_mix_unique": matchup_games(self)[0].unique,
            "defender_mix_unique": matchup_games(self)[1].unique,
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
    check_matchup(setup, attackers, defenders, attacker_names, defender_names)
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


def matchup_games(result: Matchup) -> tuple[GameMix, GameMix]:
    """The attacker's and the defender's equilibrium of the matchup (:func:`game_mix` each), worked out once."""
    if "games" not in result._cache:
        result._cache["games"] = (game_mix(result.value), game_mix(-result.value.T))
    found: tuple[GameMix, GameMix] = result._cache["games"]
    return found


def matchup_mixes(result: Matchup) -> tuple[np.ndarray, np.ndarray, float]:
    """Both sides' equilibrium mixes of the matchup and the game's value, worked out once."""
    attack, defence = matchup_games(result)
    return attack.mix, defence.mix, attack.value


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
            attack, defence, _ = game_mixes(drawn, centre=False)
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


def game_mixes(value: np.ndarray, centre: bool = True) -> tuple[np.ndarray, np.ndarray, float]:
    """The attacker's and the defender's equilibrium mixes of the zero-sum game ``value``, and its value.

    The attacker maximises the worst expected metric over the defender's choices; the defender
    minimises the best over the attacker's (both by :func:`game_mix`; by the minimax theorem both
    are sure of the same value).
    """
    attack = game_mix(value, centre)
    defence = game_mix(-value.T, centre)
    return attack.mix, defence.mix, attack.value
