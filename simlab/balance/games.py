"""Zero-sum games: each side's equilibrium mix of a payoff matrix, with ties said as ties.

The linear programs a tournament's metagame and a matchup's two mixes share (:func:`game_mix`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simlab.inputs.errors import SimlabError

__all__ = [
    "Z95",
    "MIX_FLOOR",
    "TIE_SHARE",
    "RESAMPLES",
    "GameMix",
    "maximin",
    "game_mix",
    "equilibrium",
    "game_mixes",
]


#: A share of a mix below this is the solver's rounding: it counts as 0 (the option is not played).
MIX_FLOOR = 1e-6


#: Tied mixes: an option whose share differs by more than this between equally good mixes can trade shares.
TIE_SHARE = 1e-5


#: Resampled matrices of the stability of the equilibrium.
RESAMPLES = 200


#: The 95 % quantile of the standard normal.
Z95 = 1.959963984540054


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


def game_mixes(value: np.ndarray, centre: bool = True) -> tuple[np.ndarray, np.ndarray, float]:
    """The attacker's and the defender's equilibrium mixes of the zero-sum game ``value``, and its value.

    The attacker maximises the worst expected metric over the defender's choices; the defender
    minimises the best over the attacker's (both by :func:`game_mix`; by the minimax theorem both
    are sure of the same value).
    """
    attack = game_mix(value, centre)
    defence = game_mix(-value.T, centre)
    return attack.mix, defence.mix, attack.value
