"""Which knob moves the metric: Morris screening, then Sobol variance shares with intervals.

``simlab sensitivity striker --set weapon=rifle --vary skill=0..4 --vary range_band=short,medium,long
--vary cover=none,partial,full --metric p_hit --exact`` ranks what moves the chance to hit.

Each factor (an input, a rule parameter, a table column) is spread uniformly over its range: a
real one over ``LOW..HIGH``, a whole one over each whole number of it, a listed one over its
values. SALib (a dependency of simlab) draws the points and computes the indices:

1. **Morris screening** (elementary effects, ``trajectories`` of ``k + 1`` points on a 4-level
   grid): μ* (the mean absolute effect, with its bootstrap 95 % interval) and σ (how much the
   effect depends on the other factors). Cheap, and enough to drop what does not matter.
2. **Sobol indices** of the top factors (all of them up to :data:`SOBOL_MOST`; the rest held at
   their given or default values): the first-order share ``S1`` (the part of the metric's
   variance a factor explains alone) and the total share ``ST`` (alone and with others), from
   Saltelli's scheme on a scrambled Sobol sequence, with bootstrap 95 % intervals.

The ranking is by ``ST``. Every point is asked on the same random streams when sampled (common
random numbers): the indices measure the factors, not the sampling noise between points. A point
asked twice (a discrete factor repeats values) is answered once. The number of points is known
before anything runs, and the trials they sample are checked against ``--max-trials``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simlab.balance.setup import Setup
from simlab.balance.unknowns import check_unknown, find_unknown
from simlab.inputs.errors import InvalidValueError, SimlabError, spelled
from simlab.inputs.limits import Limits

__all__ = [
    "SENSITIVITY_TRIALS",
    "Factor",
    "Effect",
    "Sensitivity",
    "parse_factor",
    "check_sensitivity",
    "sensitivity",
    "points_needed",
    "SOBOL_MOST",
    "DEFAULT_TRAJECTORIES",
    "DEFAULT_BASE",
]

#: Sobol indices are computed for at most this many factors (the top ones by Morris μ*).
SOBOL_MOST = 8
#: Morris trajectories unless told.
DEFAULT_TRAJECTORIES = 20
#: Base points of the Sobol sequence unless told (a power of 2).
DEFAULT_BASE = 256
#: Trials of each point of a sampled sensitivity unless told (many points, each on the same streams).
SENSITIVITY_TRIALS = 10_000
_LEVELS = 4
#: What the ranking gives of each factor, in the order of its table.
EFFECT_COLUMNS = ("st", "st_conf", "s1", "s1_conf", "mu_star", "mu_star_conf", "sigma")


def _stage_seed(seed: int, stage: int) -> int:
    """A seed of its own for each of SALib's random draws, from the root seed: never 0.

    SALib reads a seed of 0 as none and draws from numpy's global state, which would make the
    same question give other intervals each time.
    """
    state = np.random.SeedSequence([seed, stage]).generate_state(1)[0]
    return int(state) or 1


def _salib() -> Any:
    try:
        import SALib  # noqa: F401
    except ImportError:
        raise SimlabError("simlab sensitivity needs SALib, a dependency of simlab: pip install SALib") from None
    from SALib.analyze import morris as morris_analysis
    from SALib.analyze import sobol as sobol_analysis
    from SALib.sample import morris as morris_sample
    from SALib.sample import sobol as sobol_sample

    return morris_sample, morris_analysis, sobol_sample, sobol_analysis


@dataclass(frozen=True)
class Factor:
    """One knob and its range.

    Attributes:
        name: An input, rule parameter or ``ROW.COLUMN``.
        low: The low end of a numeric range.
        high: The high end.
        whole: Whether it takes whole numbers.
        choices: The values of a listed factor (then ``low`` and ``high`` are unused).
    """

    name: str
    low: float = 0.0
    high: float = 0.0
    whole: bool = True
    choices: tuple[str, ...] | None = None

    @property
    def levels(self) -> int | None:
        """How many values it takes (None: a real range)."""
        if self.choices is not None:
            return len(self.choices)
        return int(self.high - self.low) + 1 if self.whole else None

    def value(self, unit: float) -> Any:
        """The value at ``unit`` in [0, 1] (each of ``levels`` values an equal share)."""
        levels = self.levels
        if levels is None:
            return self.low + float(unit) * (self.high - self.low)
        index = min(levels - 1, math.floor(float(unit) * levels))
        return self.choices[index] if self.choices is not None else int(self.low) + index

    @property
    def range_text(self) -> str:
        """``0..4`` or ``short, medium, long``."""
        if self.choices is not None:
            return ", ".join(self.choices)
        shown = (lambda v: str(int(v))) if self.whole else (lambda v: f"{v:g}")
        return f"{shown(self.low)}..{shown(self.high)}"


def parse_factor(setup: Setup, text: str, option: str = "--vary") -> Factor:
    """``NAME=LOW..HIGH`` or ``NAME=A,B,C`` as a factor of ``setup``'s question, checked before any point is asked.

    Args:
        setup: The question.
        text: The factor.
        option: How messages name where it was given (``--vary``; ``vary`` in an experiment).

    Raises:
        SimlabError: For a name the question does not take, a name that takes no such values, or a
            value the question refuses.
    """
    name, equals, values = str(text).partition("=")
    name, values = name.strip(), values.strip()
    if not equals or not name or not values:
        raise SimlabError(f"invalid value {str(text)[:40]!r} for {option}: expected NAME=LOW..HIGH or NAME=A,B,C")
    if ".." in values:
        named = {"find": option, "in": f"{option} {name}", "tol": option}.__getitem__
        unknown = find_unknown(setup.owner, setup.question, name, values, named=named)
        check_unknown(setup, unknown, named)
        return Factor(name, unknown.low, unknown.high, unknown.whole)
    choices = tuple(v.strip() for v in values.split(",") if v.strip())
    if len(choices) < 2 or len(set(choices)) != len(choices):
        raise SimlabError(f"{option} {name}: give at least two different values, such as {name}=A,B")
    varied = setup.with_changes(source=option)
    for choice in choices:  # each value checked now, in one line, rather than halfway through
        setup.question.check(varied.request({name: choice}))
    return Factor(name, choices=choices)


@dataclass(frozen=True)
class Effect:
    """What one factor does to the metric.

    Attributes:
        name: The factor.
        mu_star: Morris μ*: the mean absolute elementary effect over the factor's range.
        mu_star_conf: Half-width of its 95 % bootstrap interval.
        sigma: Morris σ: the spread of the elementary effects (interactions, curvature).
        s1: Sobol first-order share (None when the factor was left out of the Sobol stage).
        s1_conf: Half-width of its 95 % interval.
        st: Sobol total share.
        st_conf: Half-width of its 95 % interval.
    """

    name: str
    mu_star: float
    mu_star_conf: float
    sigma: float
    s1: float | None = None
    s1_conf: float | None = None
    st: float | None = None
    st_conf: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The effect as JSON."""
        return {k: getattr(self, k) for k in ("name", *EFFECT_COLUMNS)}


@dataclass(frozen=True)
class Sensitivity:
    """The factors ranked by what they move.

    Attributes:
        metric: The metric.
        factors: The factors, as given.
        effects: Each factor's effect, the largest total share first (then μ*).
        method: ``exact`` or ``monte_carlo``.
        trials: Trials of each point (sampled), else None.
        seed: The seed of the points and of the streams.
        trajectories: Morris trajectories.
        base: Sobol base points.
        points: Points the designs asked for (Morris and Sobol).
        answered: Distinct points answered.
        mean: The metric's mean over the Sobol points.
        variance: Its variance there.
    """

    metric: str
    factors: tuple[Factor, ...]
    effects: tuple[Effect, ...]
    method: str
    trials: int | None
    seed: int
    trajectories: int
    base: int
    points: int
    answered: int
    mean: float
    variance: float
    setup: Setup | None = field(default=None, compare=False, repr=False)

    def frame(self) -> Any:
        """The ranking as a table, the largest first: ``factor``, ``range``, ``st``, ``st_conf``, ``s1``, ...."""
        import pandas as pd

        ranges = {f.name: f.range_text for f in self.factors}
        columns = list(EFFECT_COLUMNS)
        rows = [{"factor": e.name, "range": ranges[e.name], **e.to_json()} for e in self.effects]
        return pd.DataFrame(rows, columns=["factor", "range", *columns]).astype({c: float for c in columns})

    def to_json(self) -> dict[str, Any]:
        """The JSON of ``simlab sensitivity --json``."""
        return {
            "metric": self.metric,
            "method": self.method,
            "trials": self.trials,
            "seed": self.seed,
            "factors": [{"name": f.name, "range": f.range_text} for f in self.factors],
            "trajectories": self.trajectories,
            "base": self.base,
            "points": self.points,
            "answered": self.answered,
            "mean": self.mean,
            "variance": self.variance,
            "ranking": [e.to_json() for e in self.effects],
        }


def points_needed(factors: int, trajectories: int, base: int) -> int:
    """Points the two designs ask for: Morris ``r (k + 1)``, Sobol ``N (k + 2)`` (first and total order)."""
    return trajectories * (factors + 1) + base * (min(factors, SOBOL_MOST) + 2)


def check_sensitivity(
    setup: Setup,
    metric: str,
    factors: Sequence[Factor],
    *,
    trajectories: int = DEFAULT_TRAJECTORIES,
    base: int = DEFAULT_BASE,
    limits: Limits | None = None,
) -> int:
    """Refuse a sensitivity that could not run, before anything is said or asked; else its points.

    Raises:
        SimlabError: For a bad metric, question, factor or size, or a job over the caps.
    """
    setup.check_metric(metric)
    setup.question.check(setup.request())  # the question itself (a battle asked exactly is refused here)
    names = [f.name for f in factors]
    if len(factors) < 2:
        raise SimlabError(f"{spelled('--vary')}: give at least two factors to rank")
    if len(set(names)) != len(names):
        raise SimlabError(f"{spelled('--vary')}: a factor is given twice")
    if trajectories < 2:
        raise InvalidValueError("--trajectories", trajectories, "at least 2")
    if base < 16 or base & (base - 1):
        raise InvalidValueError("--base", base, "a power of 2 from 16")
    needed = points_needed(len(factors), trajectories, base)
    if limits is not None:
        fewer = "give fewer trajectories or a smaller base"
        limits.check_work(needed, setup.trials_each, "points", "the sensitivity", fewer)
    return needed


def sensitivity(
    setup: Setup,
    metric: str,
    factors: Sequence[Factor],
    *,
    trajectories: int = DEFAULT_TRAJECTORIES,
    base: int = DEFAULT_BASE,
    limits: Limits | None = None,
    progress: Callable[[int], None] | None = None,
) -> Sensitivity:
    """Rank ``factors`` by what they move ``metric``: Morris, then Sobol of the top ones.

    Args:
        setup: The question (its seed draws the points and, sampled, the streams of every point).
        metric: The metric.
        factors: The knobs (at least two, each named once).
        trajectories: Morris trajectories (at least 2).
        base: Sobol base points (a power of 2, at least 16).
        limits: The job's caps: points times trials checked before anything runs.
        progress: Called with 1 after each distinct point answered.

    Raises:
        SimlabError: For a bad metric, factor or size, or a job over the caps.
    """
    morris_sample, morris_analysis, sobol_sample, sobol_analysis = _salib()
    needed = check_sensitivity(setup, metric, factors, trajectories=trajectories, base=base, limits=limits)
    names = [f.name for f in factors]
    answers: dict[tuple[Any, ...], float] = {}

    def evaluate(chosen: Sequence[Factor], units: np.ndarray) -> np.ndarray:
        values = np.empty(len(units))
        for row, point in enumerate(units):
            key = tuple(f.value(u) for f, u in zip(chosen, point, strict=True))
            if key not in answers:
                result = setup.answer(dict(zip((f.name for f in chosen), key, strict=True)))
                answers[key] = setup.metric_of(result, metric)
                if progress is not None:
                    progress(1)
            values[row] = answers[key]
        return values

    seed = setup.seed
    problem = {"num_vars": len(factors), "names": names, "bounds": [[0.0, 1.0]] * len(factors)}
    morris_units = morris_sample.sample(problem, trajectories, num_levels=_LEVELS, seed=_stage_seed(seed, 1))
    morris_y = evaluate(factors, morris_units)
    screened = morris_analysis.analyze(problem, morris_units, morris_y, num_levels=_LEVELS, seed=_stage_seed(seed, 2))
    mu_star = {n: float(screened["mu_star"][i]) for i, n in enumerate(names)}
    top = sorted(range(len(factors)), key=lambda i: -mu_star[names[i]])[:SOBOL_MOST]
    chosen = [factors[i] for i in sorted(top)]
    sobol_problem = {"num_vars": len(chosen), "names": [f.name for f in chosen], "bounds": [[0.0, 1.0]] * len(chosen)}
    sobol_units = sobol_sample.sample(sobol_problem, base, calc_second_order=False, seed=_stage_seed(seed, 3))
    sobol_y = evaluate(chosen, sobol_units)
    answered = len(answers)
    variance = float(np.var(sobol_y))
    shares: dict[str, tuple[float, float, float, float]] = {}
    if variance > 0:
        indices = sobol_analysis.analyze(
            sobol_problem, sobol_y, calc_second_order=False, num_resamples=200, seed=_stage_seed(seed, 4)
        )
        for i, f in enumerate(chosen):
            shares[f.name] = tuple(float(indices[k][i]) for k in ("S1", "S1_conf", "ST", "ST_conf"))  # type: ignore[assignment]
    else:
        shares = {f.name: (0.0, 0.0, 0.0, 0.0) for f in chosen}
    effects = []
    for i, name in enumerate(names):
        s1, s1_conf, st, st_conf = shares.get(name, (None, None, None, None))
        effects.append(Effect(name, mu_star[name], float(screened["mu_star_conf"][i]), float(screened["sigma"][i]),
                              s1, s1_conf, st, st_conf))  # fmt: skip
    effects.sort(key=lambda e: (-(e.st if e.st is not None else -1.0), -e.mu_star))
    return Sensitivity(
        metric=metric,
        factors=tuple(factors),
        effects=tuple(effects),
        method="exact" if setup.exact else "monte_carlo",
        trials=None if setup.exact else setup.trials_each,
        seed=seed,
        trajectories=trajectories,
        base=base,
        points=needed,
        answered=answered,
        mean=float(np.mean(sobol_y)),
        variance=variance,
        setup=setup,
    )
