"""What a tune reaches for: a goal over a tournament, and how far a tournament is from it.

* ``viable``: no option dominated and each at least ``min_share`` of the equilibrium mix;
* ``even``: each option's mean score against the field within ``tol`` of 0.5;
* ``target``: the scores between named pairs within ``tol`` of the wanted ones (the target graph of
  Hernandez et al., "Metagame Autobalancing for Competitive Multiplayer Games", IEEE CoG 2020);
* ``fair-price``: prices at which strength per price is level (one variable per option, as Liu and
  Marschner, "Balancing Zero-Sum Games with One Variable per Strategy", AIIDE 2017). A price never
  changes a fight, so one tournament gives every option's Bradley-Terry strength, and the level
  prices nearest to those now follow in closed form (:func:`fair_prices`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from simlab.balance.matchup import Matchup, dominated_rows, matchup_mixes
from simlab.balance.strengths import strengths
from simlab.balance.tournament import Tournament, dominated, price_line, tournament_mix
from simlab.inputs.errors import InvalidValueError, SimlabError, shortened

__all__ = ["GOALS", "DEFAULT_MIN_SHARE", "DEFAULT_TOL", "Goal", "Game", "parse_goal", "fair_prices", "price_spread",
           "names_of", "mix_of", "beaten"]

#: The goals a tune reaches for.
GOALS = ("viable", "even", "target=FILE", "fair-price")
#: The least share of the equilibrium mix each option takes under ``viable``.
DEFAULT_MIN_SHARE = 0.1
#: How near a score (``even``, ``target``) or a strength per price (``fair-price``, relative) must come.
DEFAULT_TOL = 0.05
#: An equilibrium's scores are found by a linear program: this much below the game's value is its rounding.
_ROUNDING = 1e-6


@dataclass(frozen=True)
class Goal:
    """What a tune reaches for.

    Attributes:
        kind: ``viable``, ``even``, ``target`` or ``fair-price``.
        min_share: ``viable``: the least share of the mix each option takes.
        tol: ``even`` and ``target``: how near each score must come; ``fair-price``: how level
            strength per price must be (relative).
        wanted: ``target``: ``(option, against)`` → the score wanted.
        source: ``target``: the file it came from.
    """

    kind: str
    min_share: float = DEFAULT_MIN_SHARE
    tol: float = DEFAULT_TOL
    wanted: Mapping[tuple[str, str], float] = field(default_factory=dict)
    source: str = ""

    @property
    def words(self) -> str:
        """The goal in words."""
        if self.kind == "viable":
            return f"no option is dominated and each takes at least {self.min_share:g} of the equilibrium mix"
        if self.kind == "even":
            return f"each option's mean score against the field is within {self.tol:g} of 0.5"
        if self.kind == "target":
            if len(self.wanted) == 1:
                return f"the score of 1 pair is within {self.tol:g} of the one in {self.source}"
            return f"the scores of {len(self.wanted)} pairs are within {self.tol:g} of those in {self.source}"
        return f"strength per price is level within {self.tol:.0%}"

    def distance(self, fought: Game, prices: Sequence[float] | None = None) -> float:
        """How far a tournament (or a matchup) is from the goal (0 where it is met, on its point estimates)."""
        if self.kind == "viable":  # each option's share short of min_share, and how far it is from entering the mix
            mix, against_mix, value = mix_of(fought)
            short = float(np.maximum(0.0, self.min_share - mix).sum())
            outside = float(np.maximum(0.0, value - against_mix - _ROUNDING).sum())
            return short + outside + (0.0 if short > 0 or not beaten(fought) else self.min_share / 2)
        if isinstance(fought, Matchup):
            index = {name: i for i, name in enumerate(fought.attackers)}
            column = {name: j for j, name in enumerate(fought.defenders)}
            gaps = [abs(float(fought.value[index[a], column[b]]) - want) for (a, b), want in self.wanted.items()]
            return max(0.0, max(gaps) - self.tol)
        if self.kind == "even":
            n = len(fought.names)
            mean = (fought.score.sum(axis=1) - 0.5) / (n - 1)
            return max(0.0, float(np.max(np.abs(mean - 0.5))) - self.tol)
        if self.kind == "target":
            index = {name: i for i, name in enumerate(fought.names)}
            gaps = [abs(float(fought.score[index[a], index[b]]) - want) for (a, b), want in self.wanted.items()]
            return max(0.0, max(gaps) - self.tol)
        assert prices is not None
        return max(0.0, price_spread(fought, prices) - math.log1p(self.tol))

    def holds(self, fought: Game, prices: Sequence[float] | None = None) -> bool:
        """Whether the goal holds: within its tolerance and, for ``viable``, no option dominated beyond the error."""
        if self.distance(fought, prices) > 0:
            return False
        return self.kind != "viable" or not beaten(fought)


#: What a tune fights: a tournament of its options, or a matchup of its attacks against defenders.
Game = Tournament | Matchup


def names_of(fought: Game) -> tuple[str, ...]:
    """The options tuned: a tournament's, or a matchup's attacks."""
    return fought.attackers if isinstance(fought, Matchup) else fought.names


def mix_of(fought: Game) -> tuple[np.ndarray, np.ndarray, float]:
    """The options' equilibrium mix, what each scores against the other side's mix, and the game's value.

    An option in the mix scores the value; one out of it less, by how far it is from entering.
    """
    if isinstance(fought, Matchup):
        attack, defence, value = matchup_mixes(fought)
        return attack, fought.value @ defence, value
    mix = tournament_mix(fought).mix  # one linear program (not the stability's 200 resampled ones)
    return mix, fought.score @ mix, 0.5


def beaten(fought: Game) -> list[tuple[int, int]]:
    """``(k, i)`` for each option k dominated by an option i, beyond the sampling error."""
    return dominated_rows(fought) if isinstance(fought, Matchup) else dominated(fought)


def _line(fought: Tournament, prices: Sequence[float]) -> tuple[np.ndarray, float, float] | None:
    """The strengths, and the line of strength on log price through the options priced (None: it does not rise)."""
    strength = np.asarray(strengths(fought.score), dtype=float)
    logs = np.log(np.asarray(prices, dtype=float))
    priced = np.isfinite(logs)
    if priced.sum() < 2 or np.ptp(logs[priced]) <= 0:
        return None
    intercept, slope = price_line(logs[priced], strength[priced])
    return (strength, float(intercept), float(slope)) if float(slope) > 0 else None


def price_spread(fought: Tournament, prices: Sequence[float]) -> float:
    """How far the prices are from level: the largest gap of a log price from the line's (``inf``: no level prices).

    The line is strength fitted on log price, as a tournament's worth (:func:`~simlab.balance.tournament.worth`);
    on it, every option's strength is what its price buys.
    """
    fitted = _line(fought, prices)
    logs = np.log(np.asarray(prices, dtype=float))
    if fitted is None or not np.isfinite(logs).all():
        return math.inf
    strength, intercept, slope = fitted
    return float(np.max(np.abs(logs - (strength - intercept) / slope)))


def fair_prices(fought: Tournament, prices: Sequence[float]) -> np.ndarray:
    """The closed form of ``fair-price``: of all the level prices, the nearest to the prices now.

    Prices are level where every option lies on the line of strength against log price (as a
    tournament's worth fits it): ``log p_i = c + d s_i`` for some ``c`` and ``d > 0``. The nearest
    such prices on the log scale (least squares over the options priced now) take ``c`` and ``d``
    from the line of log price fitted on strength; an option without a price gets the price its
    strength earns on that line. NaN where log price does not rise with strength.
    """
    strength = np.asarray(strengths(fought.score), dtype=float)
    logs = np.log(np.asarray(prices, dtype=float))
    priced = np.isfinite(logs)
    if priced.sum() < 2 or np.ptp(strength[priced]) <= 0:
        return np.full(len(prices), math.nan)
    intercept, slope = price_line(strength[priced], logs[priced])
    if float(slope) <= 0:
        return np.full(len(prices), math.nan)
    return np.exp(float(intercept) + float(slope) * strength)


def parse_goal(
    text: str, names: Sequence[str], min_share: float, tol: float, option: str = "--goal",
    against: Sequence[str] | None = None,
) -> Goal:  # fmt: skip
    """``viable``, ``even``, ``fair-price`` or ``target=FILE`` (a TOML of wanted scores between named options).

    The target file holds a table per option of the scores it should have against others:
    ``["heavy slug"] laser = 0.6``. A pair given both ways must add up to 1. Attacks tuned against
    defenders (``against``: their names) take ``viable`` or ``target``, whose file gives each
    attack's metric wanted against defenders.

    Raises:
        SimlabError: For another goal, a file that does not read, an unknown option or a score outside 0..1.
    """
    kind, equals, path = str(text).partition("=")
    kind = kind.strip()
    if not 0 < min_share < 1 / max(1, len(names)) + 1e-12:
        raise InvalidValueError("--min-share", min_share, f"a share above 0 and at most 1/{len(names)}")
    if not 0 < tol < 0.5:
        raise InvalidValueError("--tol", tol, "a number above 0 and below 0.5, such as 0.05")
    if against is not None and kind in ("even", "fair-price"):
        raise SimlabError(f"{option} {kind}: attacks against defenders are tuned to viable or target=FILE")
    if kind in ("viable", "even", "fair-price") and not equals:
        return Goal(kind, min_share, tol)
    if kind != "target" or not path.strip():
        raise InvalidValueError(option, shortened(str(text)), "viable, even, fair-price or target=FILE")
    from simlab.inputs.files import read_toml

    data, _ = read_toml(Path(path.strip()), "target file")
    columns = names if against is None else against
    wanted: dict[tuple[str, str], float] = {}
    for a, row in data.items():
        if not isinstance(row, dict):
            raise SimlabError(f"{path}: {a}: expected a table of scores against other options ({a} = {{B = 0.6}})")
        for b, score in row.items():
            for name, valid in ((a, names), (b, columns)):
                if name not in valid:
                    raise SimlabError(f"{path}: unknown option {shortened(name)!r} (valid: {', '.join(valid)})")
            if a == b or isinstance(score, bool) or not isinstance(score, int | float) or not 0 <= score <= 1:
                raise SimlabError(f"{path}: {a} against {b}: expected a score from 0 to 1 between two options")
            if against is None and (b, a) in wanted and abs(wanted[(b, a)] + score - 1) > 1e-9:
                raise SimlabError(f"{path}: {a} against {b} and {b} against {a} must add up to 1")
            wanted[(a, b)] = float(score)
    if not wanted:
        raise SimlabError(f"{path}: no score wanted: give a table per option, such as [\"{names[0]}\"] ...")
    return Goal("target", min_share, tol, wanted, path.strip())
