"""What every system's duels tally and report (STR-11.2, the Tyconian duel).

A duel kernel adds, per trial, one count to the outcome (A wins, B wins, both down, neither)
and the duel's length in turns and in seconds; :func:`duel_estimates` turns the summed
tallies into the metrics, intervals and distributions of ``simlab duel``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from simlab.engine.blocks import Tallies
from simlab.engine.intervals import Estimates, mean_interval, wilson
from simlab.engine.results import Answer
from simlab.inputs.params import as_plain
from simlab.systems.base import Deferred, DuelRequest, Question, sampling_options

__all__ = [
    "DUEL_DISTRIBUTIONS",
    "record_duel",
    "numpy_duel_tallies",
    "A_WINS",
    "B_WINS",
    "BOTH_DOWN",
    "NEITHER",
    "TURNS",
    "TURNS_SQ",
    "SECONDS",
    "SECONDS_SQ",
    "DUEL_DRAWS",
    "N_DUEL_COUNTS",
    "DUEL_METRICS",
    "SampledDuel",
    "duel_estimates",
    "mean_interval",
    "duel_result",
    "DuelEngine",
    "duel_question",
]

# Indices of a duel's ``counts`` tally.
A_WINS, B_WINS, BOTH_DOWN, NEITHER, TURNS, TURNS_SQ, SECONDS, SECONDS_SQ, DUEL_DRAWS = range(9)
N_DUEL_COUNTS = 9

#: Metrics of a duel: name → description.
DUEL_METRICS = {
    "p_a_wins": "probability that only B is down when the duel ends",
    "p_b_wins": "probability that only A is down when the duel ends",
    "p_both_down": "probability that both go down at the same time",
    "p_neither": "probability that the duel is undecided after max_turns turns",
    "mean_turns": "expected number of turns",
    "mean_seconds": "expected length in seconds",
}

#: Distributions of a duel: name → description.
DUEL_DISTRIBUTIONS = {
    "turns": "turns the duel lasted",
    "seconds": "seconds the duel lasted",
}


@dataclass(frozen=True, eq=False)
class SampledDuel:
    """Estimates, 95 % intervals, distributions and tallies of sampled duels."""

    metrics: dict[str, float]
    ci95: dict[str, tuple[float, float]]
    distributions: dict[str, dict[int, float]]
    trials: int
    tallies: Tallies


def duel_estimates(tallies: Tallies, trials: int, seconds_per_bin: int = 1) -> SampledDuel:
    """Duel metrics, intervals and distributions from summed tallies ``(turns, seconds, counts)``.

    Args:
        tallies: Histogram of turns, histogram of seconds (in bins of ``seconds_per_bin``), counts.
        trials: Duels behind them.
        seconds_per_bin: Seconds in one bin of the seconds histogram.
    """
    turns, seconds, counts = tallies
    metrics: dict[str, float] = {}
    ci: dict[str, tuple[float, float]] = {}
    for name, index in (("p_a_wins", A_WINS), ("p_b_wins", B_WINS), ("p_both_down", BOTH_DOWN), ("p_neither", NEITHER)):
        metrics[name] = int(counts[index]) / trials
        ci[name] = wilson(int(counts[index]), trials)
    for name, total, square in (("mean_turns", TURNS, TURNS_SQ), ("mean_seconds", SECONDS, SECONDS_SQ)):
        metrics[name] = int(counts[total]) / trials
        ci[name] = mean_interval(int(counts[total]), int(counts[square]), trials)
    distributions = {
        "turns": {int(t): int(n) / trials for t, n in enumerate(turns) if n},
        "seconds": {seconds_per_bin * int(t): int(n) / trials for t, n in enumerate(seconds) if n},
    }
    return SampledDuel(metrics, ci, distributions, trials, tallies)


def record_duel(
    counts: npt.NDArray[np.int64],
    turns_hist: npt.NDArray[np.int64],
    seconds_hist: npt.NDArray[np.int64],
    a_down: bool,
    b_down: bool,
    turns: int,
    seconds: int,
    seconds_per_bin: int,
    draws: int,
) -> None:
    """Add one duel's outcome, length and draws to the tallies (plain Python; compiled below)."""
    if a_down and b_down:
        counts[BOTH_DOWN] += 1
    elif b_down:
        counts[A_WINS] += 1
    elif a_down:
        counts[B_WINS] += 1
    else:
        counts[NEITHER] += 1
    turns_hist[turns] += 1
    seconds_hist[seconds // seconds_per_bin] += 1
    counts[TURNS] += turns
    counts[TURNS_SQ] += turns * turns
    counts[SECONDS] += seconds
    counts[SECONDS_SQ] += seconds * seconds
    counts[DUEL_DRAWS] += draws


def numpy_duel_tallies(
    down: npt.NDArray[np.bool_],
    turns: npt.NDArray[np.int64],
    seconds: npt.NDArray[np.int64],
    seconds_per_bin: int,
    max_turns: int,
    seconds_bins: int,
    draws: int,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The tallies of many duels at once (the numpy twins): ``down`` is ``(n, 2)``."""
    counts = np.zeros(N_DUEL_COUNTS, np.int64)
    counts[BOTH_DOWN] = np.count_nonzero(down[:, 0] & down[:, 1])
    counts[A_WINS] = np.count_nonzero(down[:, 1] & ~down[:, 0])
    counts[B_WINS] = np.count_nonzero(down[:, 0] & ~down[:, 1])
    counts[NEITHER] = np.count_nonzero(~down[:, 0] & ~down[:, 1])
    counts[TURNS] = turns.sum()
    counts[TURNS_SQ] = (turns * turns).sum()
    counts[SECONDS] = seconds.sum()
    counts[SECONDS_SQ] = (seconds * seconds).sum()
    counts[DUEL_DRAWS] = draws
    turns_hist = np.bincount(turns, minlength=max_turns + 1).astype(np.int64)
    seconds_hist = np.bincount(seconds // seconds_per_bin, minlength=seconds_bins).astype(np.int64)
    return turns_hist, seconds_hist, counts


def duel_result(
    system: str,
    sampled: SampledDuel | Estimates,
    sides: tuple[dict[str, Any], dict[str, Any]],
    names: tuple[str, str],
    rules: dict[str, Any],
    seed: int,
    variant: str | None,
) -> Answer:
    """The result of ``simlab duel``: both sides under ``scenario``, the duel metrics and distributions."""
    return Answer(
        system=system,
        method="monte_carlo",
        trials=sampled.trials,
        seed=seed,
        scenario={"a": sides[0], "b": sides[1]},
        rules=rules,
        metrics=sampled.metrics,
        ci95=sampled.ci95,
        distributions=sampled.distributions,
        details={"weapon": f"{names[0]} vs {names[1]}"},
        variant=variant,
    )


@dataclass(frozen=True)
class DuelEngine:
    """What a system supplies to answer its duels; calling it answers a :class:`DuelRequest`.

    Attributes:
        system: System id.
        resolve: Validates a request into the resolved duel (with its ``rules``); raises
            :class:`~simlab.errors.SimlabError`.
        sample: Samples the resolved duel (takes the sampling options) into a :class:`SampledDuel`.
        sides: Each side's inputs as the rules saw them, for the result.
        names: The two sides' names.
    """

    system: str
    resolve: Callable[[DuelRequest], Any]
    sample: Callable[..., SampledDuel]
    sides: Callable[[Any], tuple[dict[str, Any], dict[str, Any]]]
    names: Callable[[Any], tuple[str, str]]

    def __call__(self, request: DuelRequest) -> Answer:
        """Sample the duels of ``request``."""
        resolved = self.resolve(request)
        sampled = self.sample(resolved, **sampling_options(request))
        sides, names = self.sides(resolved), self.names(resolved)
        return duel_result(self.system, sampled, sides, names, as_plain(resolved.rules), request.seed, request.variant)


def duel_question(
    system: str,
    side_type: type,
    row_inputs: Mapping[str, str],
    *,
    metrics: Mapping[str, str] = DUEL_METRICS,
    distributions: Mapping[str, str] = DUEL_DISTRIBUTIONS,
    engine: str = "duel",
    example: Mapping[str, str] | None = None,
) -> Question:
    """The duel question of ``system``: two sides of ``side_type``; answered by ``simlab.systems.SYSTEM.ENGINE:duel``.

    ``engine`` names the module of the system's package that holds ``duel`` and ``check_duel``;
    ``example`` the sides' inputs a duel's page opens with (``a.weapon``, ``b.ship``).
    """
    return Question(
        kind="duel",
        title="A duel",
        form="sides",
        inputs_type=side_type,
        row_inputs=row_inputs,
        metrics=metrics,
        answer=Deferred(f"simlab.systems.{system}.{engine}:duel"),
        check=Deferred(f"simlab.systems.{system}.{engine}:check_duel"),
        distributions=distributions,
        sampled_only=True,
        example=example or {},
    )
