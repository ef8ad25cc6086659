"""Solve for the value that makes it right: where a metric reaches a target, or two setups are equal.

``simlab solve hitech_tft --set "weapon=assault rifle" --find dx --target "p_hit=0.75" --in 6..20 --exact``
asks for the lowest DX at which the chance to hit reaches 0.75. The search:

1. **Scans** the range at :data:`SCAN_POINTS` evenly spread values (every value of a short
   whole-number range), which shows whether the metric rises, falls, stays flat or is not
   monotone over the range, and brackets every crossing of the target between two scanned values.
2. **Bisects** each bracket: to adjacent whole numbers, or for a real unknown until the bracket
   is no wider than its precision (``--tol``; by default a millionth of the range when exact, a
   thousandth when sampled). The answer of a whole unknown is the first value at which the target
   is reached (with the metric there and at the value before); of a real unknown, the crossing
   interpolated between the two ends of the bracket, which is given with it. An exact metric
   within :data:`EXACT_TOLERANCE` of the target reaches it (sums of exact fractions round:
   108/216 computes as 0.4999999999999999), and a range that starts on the target has its
   answer there.
3. **Sampled** metrics are asked on the same random streams at every value (common random
   numbers, :mod:`simlab.balance.setup`), so the metric is a deterministic function of the
   value and bisection is sound. The answer's 95 % interval inverts the metric's own 95 %
   intervals: its low end is the first value whose interval reaches the target, its high end
   the first whose interval lies wholly past it. If the metric is monotone, the true crossing
   lies outside only when the interval at the value just past it, or just before it, misses the
   truth: at most about 2.5 % each (``tests/test_solve.py`` checks the coverage on an exact case).
   Two setups made equal (``--equal``) use the paired interval of their difference, from batches
   of the same trials (as ``simlab compare``).

A range with no crossing is no answer: :class:`NoCrossingError` says what the metric does over it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simlab.balance.setup import PAIRED_BATCHES, Setup
from simlab.balance.unknowns import Unknown
from simlab.inputs.errors import InvalidValueError, SimlabError, spelled
from simlab.inputs.limits import Limits

__all__ = [
    "Goal",
    "Point",
    "Crossing",
    "Solution",
    "NoCrossingError",
    "solve",
    "SCAN_POINTS",
    "parse_target",
    "EXACT_TOLERANCE",
]

#: Values of the first scan of the range.
SCAN_POINTS = 9
#: An exact metric this close to the target (relative to the larger of 1 and the target) reaches it.
EXACT_TOLERANCE = 1e-12


class NoCrossingError(SimlabError):
    """The metric does not cross the target over the range (the command exits 1).

    Attributes:
        tried: The values asked, each with its metric (the scan of the range).
    """

    def __init__(self, message: str, tried: Sequence[Point] = ()) -> None:
        super().__init__(message)
        self.tried = tuple(tried)


def parse_target(text: str) -> tuple[str, float]:
    """``METRIC=VALUE`` as (metric, value).

    Raises:
        SimlabError: For anything else.
    """
    metric, equals, value = str(text).partition("=")
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not equals or not metric.strip() or not math.isfinite(number):
        raise InvalidValueError("--target", str(text)[:40], "METRIC=VALUE, such as p_hit=0.75")
    return metric.strip(), number


@dataclass(frozen=True)
class Goal:
    """What the unknown must achieve.

    Attributes:
        metric: The metric.
        target: The value it must reach; None when it must equal the other setup's.
        other: The setup whose metric it must equal (``--equal``), with its name in words.
        mine: The name in words of the setup that has the unknown (``--equal``).
        other_name: The other setup's name in words.
    """

    metric: str
    target: float | None = None
    other: Setup | None = None
    mine: str = "A"
    other_name: str = "B"

    @property
    def equal(self) -> bool:
        """Whether two setups are made equal (else a target is reached)."""
        return self.other is not None


@dataclass(frozen=True)
class Point:
    """The metric at one value of the unknown.

    Attributes:
        x: The value.
        value: The metric there.
        interval: Its 95 % interval (sampled), else None.
        gap: How far it is past the goal: value minus the target, or minus the other setup's metric.
        gap_interval: The gap's 95 % interval (paired when two setups are compared), else None.
        other: The other setup's metric (``--equal``), else None.
    """

    x: float
    value: float
    interval: tuple[float, float] | None
    gap: float
    gap_interval: tuple[float, float] | None
    other: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The point as JSON."""
        payload: dict[str, Any] = {"value": self.x, "metric": self.value, "ci95": self.interval, "gap": self.gap}
        if self.gap_interval is not None:
            payload["gap_ci95"] = self.gap_interval
        if self.other is not None:
            payload["other"] = self.other
        return payload


@dataclass(frozen=True)
class Crossing:
    """Where the metric crosses the goal once.

    Attributes:
        rises: Whether it crosses upwards (reaches the target from below).
        value: The answer: the first whole value at which the goal is reached, or the real crossing.
        before: The closest value tried short of the goal.
        after: The closest value tried at or past it.
        interpolated: The crossing interpolated linearly between ``before`` and ``after``.
        interval: The answer's 95 % interval (sampled), else None.
        open_ends: Whether each end of the interval is the range's end (the truth may lie beyond).
    """

    rises: bool
    value: float
    before: Point
    after: Point
    interpolated: float
    interval: tuple[float, float] | None = None
    open_ends: tuple[bool, bool] = (False, False)


@dataclass(frozen=True)
class Solution:
    """The answer of a search.

    Attributes:
        unknown: What was searched.
        goal: What it had to achieve.
        method: ``exact`` or ``monte_carlo``.
        trials: Trials of each value tried (sampled), else None.
        seed: The root seed (sampled), else None.
        crossings: Every crossing of the goal over the range, in order.
        tried: Every value asked, in order of value.
        shape: What the metric does over the scanned values: ``rises``, ``falls``, ``flat`` or
            ``not monotone``.
        scanned: How many values the first scan asked.
    """

    unknown: Unknown
    goal: Goal
    method: str
    trials: int | None
    seed: int | None
    crossings: tuple[Crossing, ...]
    tried: tuple[Point, ...]
    shape: str
    scanned: int
    setup: Setup | None = field(default=None, compare=False, repr=False)

    @property
    def precision(self) -> float:
        """How narrow the bracket of a real answer was made (1 for a whole unknown)."""
        return self.unknown.precision(self.method == "exact")

    @property
    def interval_method(self) -> str | None:
        """How the answer's interval was found (None when exact)."""
        if self.method == "exact":
            return None
        return "inverted pointwise 95 % intervals" + (" (paired)" if self.goal.equal else "")

    def tried_frame(self) -> Any:
        """Every value tried as a table: ``value``, ``metric``, ``ci_low``, ``ci_high``, ``gap``, ``other``."""
        import pandas as pd

        rows = [
            {
                "value": p.x,
                "metric": p.value,
                "ci_low": p.interval[0] if p.interval else math.nan,
                "ci_high": p.interval[1] if p.interval else math.nan,
                "gap": p.gap,
                "other": p.other if p.other is not None else math.nan,
            }
            for p in self.tried
        ]
        return pd.DataFrame(rows, columns=["value", "metric", "ci_low", "ci_high", "gap", "other"])

    @property
    def answer(self) -> Crossing:
        """The first crossing."""
        return self.crossings[0]

    def to_json(self) -> dict[str, Any]:
        """The JSON of ``simlab solve --json``."""

        def crossing(c: Crossing) -> dict[str, Any]:
            payload: dict[str, Any] = {
                "direction": "rises" if c.rises else "falls",
                "value": c.value,
                "interpolated": c.interpolated,
                "before": c.before.to_json(),
                "after": c.after.to_json(),
                "bracket": sorted([c.before.x, c.after.x]),
            }
            if c.interval is not None:
                payload["ci95"] = list(c.interval)
                payload["ci95_open_ends"] = list(c.open_ends)
            return payload

        goal: dict[str, Any] = {"metric": self.goal.metric}
        if self.goal.equal:
            goal.update({"equal": True, "a": self.goal.mine, "b": self.goal.other_name})
        else:
            goal["target"] = self.goal.target
        return {
            "find": self.unknown.name,
            "kind": "rule" if self.unknown.rule else "input",
            "whole": self.unknown.whole,
            "in": [self.unknown.low, self.unknown.high],
            "precision": self.precision,
            "goal": goal,
            "method": self.method,
            "trials": self.trials,
            "seed": self.seed,
            "interval_method": self.interval_method,
            "shape": self.shape,
            "scanned": self.scanned,
            "crossings": [crossing(c) for c in self.crossings],
            "tried": [p.to_json() for p in self.tried],
        }


def _scan(unknown: Unknown) -> list[float]:
    """The values of the first scan: evenly spread, every one of a short whole range."""
    if unknown.whole:
        count = int(unknown.high - unknown.low) + 1
        if count <= SCAN_POINTS:
            return [float(x) for x in range(int(unknown.low), int(unknown.high) + 1)]
        return sorted({float(round(x)) for x in np.linspace(unknown.low, unknown.high, SCAN_POINTS)})
    return [float(x) for x in np.linspace(unknown.low, unknown.high, SCAN_POINTS)]


def _steps(unknown: Unknown, exact: bool) -> int:
    """Bisection steps of one bracket at most."""
    if unknown.whole:
        span = (unknown.high - unknown.low) / max(1, SCAN_POINTS - 1)
        return max(1, math.ceil(math.log2(max(2.0, span))))
    bracket = (unknown.high - unknown.low) / (SCAN_POINTS - 1)
    return max(1, math.ceil(math.log2(max(1.0, bracket / unknown.precision(exact))))) + 1


def most_values(unknown: Unknown, exact: bool) -> int:
    """The values a search of one crossing asks at most (the scan, the bisection and the interval's two ends)."""
    return len(_scan(unknown)) + 3 * _steps(unknown, exact) + (0 if exact else 2)


class _Search:
    """The values asked so far, and the bisections over them."""

    def __init__(self, setup: Setup, unknown: Unknown, goal: Goal, tried: Callable[[Point], None] | None) -> None:
        self.setup, self.unknown, self.goal, self.report = setup, unknown, goal, tried
        self.points: dict[float, Point] = {}
        self.other_batches: Any = None
        self.other_value: float | None = None
        self.tolerance = unknown.precision(setup.exact)

    def metric(self, result: Any) -> float:
        return self.setup.metric_of(result, self.goal.metric)

    def at(self, x: float) -> Point:
        """The metric at ``x`` (asked once)."""
        if x in self.points:
            return self.points[x]
        changes = self.unknown.setting(x)
        goal, metric = self.goal, self.goal.metric
        if goal.other is None:
            result = self.setup.answer(changes)
            value = self.metric(result)
            target = float(goal.target or 0.0)
            interval = result.ci95.get(metric)
            low_high = (float(interval[0]), float(interval[1])) if interval is not None else None
            gap_interval = (low_high[0] - target, low_high[1] - target) if low_high else None
            point = Point(x, value, low_high, self.snapped(value - target, target), gap_interval)
        elif self.setup.exact:
            if self.other_value is None:
                self.other_value = self.metric(goal.other.answer())
            value = self.metric(self.setup.answer(changes))
            point = Point(x, value, None, self.snapped(value - self.other_value, self.other_value), None,
                          self.other_value)  # fmt: skip
        else:
            from simlab.engine.paired import paired_differences

            if self.other_batches is None:
                self.other_batches = goal.other.batches()
            mine = self.setup.batches(changes)
            if metric not in mine.columns:
                raise SimlabError(f"metric {metric} is not reported here")
            base_mean, value, gap, half, _ = paired_differences(self.other_batches[[metric]], mine[[metric]])[metric]
            spread = float(np.std(mine[metric].to_numpy(dtype=float), ddof=1)) / math.sqrt(PAIRED_BATCHES)
            from scipy import stats

            t = float(stats.t.ppf(0.975, PAIRED_BATCHES - 1))
            point = Point(x, value, (value - t * spread, value + t * spread), gap, (gap - half, gap + half), base_mean)
        self.points[x] = point
        if self.report is not None:
            self.report(point)
        return point

    def snapped(self, gap: float, goal: float) -> float:
        """An exact gap within :data:`EXACT_TOLERANCE` of 0 as 0: the target reached (sampled gaps as they are)."""
        if self.setup.exact and abs(gap) <= EXACT_TOLERANCE * max(1.0, abs(goal)):
            return 0.0
        return gap

    def middle(self, low: float, high: float) -> float:
        return float(math.floor((low + high) / 2)) if self.unknown.whole else (low + high) / 2

    def first(self, holds: Callable[[Point], bool], low: float, high: float) -> tuple[float, float]:
        """Adjacent values (``low`` short, ``high`` holding) between ``low`` and ``high``, by bisection."""
        while (high - low > 1) if self.unknown.whole else (high - low > self.tolerance):
            middle = self.middle(low, high)
            if middle in (low, high):
                break
            low, high = (low, middle) if holds(self.at(middle)) else (middle, high)
        return low, high

    def bound(self, holds: Callable[[Point], bool], start: float, region: tuple[float, float]) -> tuple[float, bool]:
        """The first value in ``region`` at which ``holds`` (monotone): searched from ``start`` out, then bisected.

        Returns:
            The value, and whether it is the region's end (the truth may lie beyond).
        """
        known = sorted(x for x in self.points if region[0] <= x <= region[1])
        if holds(self.at(start)):
            short = [x for x in known if x <= start and not holds(self.points[x])]
            if not short:
                return known[0], known[0] == self.unknown.low
            low = max(short)
            high = min(x for x in known if x > low and holds(self.points[x]))
        else:
            reached = [x for x in known if x >= start and holds(self.points[x])]
            if not reached:
                return known[-1], known[-1] == self.unknown.high
            high = min(reached)
            low = max(x for x in known if x < high and not holds(self.points[x]))
        return self.first(holds, low, high)[1], False


def _shape(points: list[Point], exact: bool) -> str:
    """What the metric does over the scanned values."""
    ups = downs = False
    for left, right in itertools.pairwise(points):
        if exact or left.interval is None or right.interval is None:
            step = right.gap - left.gap
            ups, downs = ups or step > 1e-12, downs or step < -1e-12
        else:
            low_right, high_right = right.gap_interval or (right.gap, right.gap)
            low_left, high_left = left.gap_interval or (left.gap, left.gap)
            ups = ups or low_right > high_left
            downs = downs or high_right < low_left
    if ups and downs:
        return "not monotone"
    return "rises" if ups else "falls" if downs else "flat"


def _interpolate(before: Point, after: Point) -> float:
    """Where the gap is 0 on the line through the two points."""
    if after.gap == before.gap:
        return after.x
    return before.x + (0 - before.gap) * (after.x - before.x) / (after.gap - before.gap)


def solve(
    setup: Setup,
    unknown: Unknown,
    goal: Goal,
    *,
    limits: Limits | None = None,
    tried: Callable[[Point], None] | None = None,
) -> Solution:
    """The value of ``unknown`` at which ``goal`` is met, with every crossing over its range.

    Args:
        setup: The question asked at each value (its seed the same at every value).
        unknown: What is searched, over what range.
        goal: The target, or the other setup to equal.
        limits: The job's caps: the most values a search may ask times the trials of each are checked first.
        tried: Called with each value's point as it is asked (progress).

    Raises:
        NoCrossingError: When the goal is not crossed over the range (one line saying what the metric does).
        SimlabError: For a bad input, metric or a job over the caps.
    """
    setup.check_metric(goal.metric)
    if goal.other is not None:
        goal.other.check_metric(goal.metric)
    if setup.exact and setup.question.sampled_only:
        raise SimlabError(f"{setup.kind} is sampled only: leave out {spelled('--exact')}")
    if not setup.exact and limits is not None:
        values = most_values(unknown, setup.exact) * (2 if goal.equal else 1)
        limits.check_trials(values * setup.trials_each, f"the search (up to {values} values tried)")
    search = _Search(setup, unknown, goal, tried)
    scan = [search.at(x) for x in _scan(unknown)]
    shape = _shape(scan, setup.exact)
    brackets = [
        (left, right, right.gap >= left.gap)
        for left, right in itertools.pairwise(scan)
        if (left.gap < 0 <= right.gap) or (left.gap > 0 >= right.gap)
    ]
    if scan[0].gap == 0:  # the range starts on the target: reached at its first value
        moved = next((p.gap for p in scan if p.gap != 0), 0.0)
        brackets.insert(0, (scan[0], scan[0], moved >= 0))
    if not brackets:
        raise NoCrossingError(_no_crossing(unknown, goal, scan), scan)
    crossings = []
    edges = [unknown.low] + [right.x for _, right, _ in brackets[:-1]]
    ends = [left.x for left, _, _ in brackets[1:]] + [unknown.high]
    for (left, right, rises), region in zip(brackets, zip(edges, ends, strict=True), strict=True):

        def reached(p: Point, rises: bool = rises) -> bool:
            return p.gap >= 0 if rises else p.gap <= 0

        low, high = search.first(reached, left.x, right.x) if left is not right else (left.x, left.x)
        before, after = search.at(low), search.at(high)
        between = _interpolate(before, after)
        interval: tuple[float, float] | None = None
        open_ends = (False, False)
        if not setup.exact and after.gap_interval is not None:

            def loose(p: Point, rises: bool = rises) -> bool:
                gap_low, gap_high = p.gap_interval or (p.gap, p.gap)
                return gap_high >= 0 if rises else gap_low <= 0

            def strict(p: Point, rises: bool = rises) -> bool:
                gap_low, gap_high = p.gap_interval or (p.gap, p.gap)
                return gap_low >= 0 if rises else gap_high <= 0

            first_end, open_low = search.bound(loose, high, region)
            last_end, open_high = search.bound(strict, low, region)
            interval, open_ends = (first_end, last_end), (open_low, open_high)
        value = high if unknown.whole else between
        crossings.append(Crossing(rises, value, before, after, between, interval, open_ends))
    return Solution(
        unknown=unknown,
        goal=goal,
        method="exact" if setup.exact else "monte_carlo",
        trials=None if setup.exact else setup.trials_each,
        seed=None if setup.exact else setup.seed,
        crossings=tuple(crossings),
        tried=tuple(search.points[x] for x in sorted(search.points)),
        shape=shape,
        scanned=len(scan),
        setup=setup,
    )


def _no_crossing(unknown: Unknown, goal: Goal, scan: list[Point]) -> str:
    """The line of a range with no crossing: what the metric does over it."""
    values = [p.value for p in scan]
    over = f"over {unknown.name} {unknown.range_text}"
    if goal.equal:
        gaps = [p.gap for p in scan]
        return (
            f"{goal.metric} of {goal.mine} never equals {goal.other_name}'s {over}: the difference runs from "
            f"{min(gaps):+.4g} to {max(gaps):+.4g}; widen --in or change the setups"
        )
    return (
        f"{goal.metric} never crosses {goal.target:g} {over}: it runs from {min(values):.4g} to {max(values):.4g} "
        f"(checked at {len(scan)} values); widen --in or change the target"
    )
