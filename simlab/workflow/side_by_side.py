"""Options side by side: one question asked with one input taking several values.

``simlab attack ... --set "weapon=gauss rifle" --set "weapon=assault rifle"`` (``duel`` with a
repeated ``--a``/``--b``, ``battle`` with a repeated ``--set`` path) answers the question once per
option and gives each metric's difference from the first option. Exact answers differ exactly.
Sampled options are sampled on the very same random streams (the same seed and cell: common
random numbers); the trials are split into batches, and each difference gets a 95 % interval from
the paired batch differences (:func:`~simlab.engine.paired.paired_differences`), as
``simlab compare`` gives for variants.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from simlab.engine.results import Answer
from simlab.inputs.errors import SimlabError
from simlab.systems import Question

#: Batches the sampled trials are split into for the paired intervals (as simlab compare's default).
BATCHES = 40

__all__ = ["SideBySide", "side_by_side", "several_values"]


@dataclass(frozen=True)
class SideBySide:
    """Every option's answer and each metric's difference from the first option's.

    Attributes:
        key: The input that takes several values.
        options: Its values, in the order given.
        results: Each option's answer.
        differences: Per option after the first: metric → (difference, 95 % half-width or None when exact).
    """

    key: str
    options: tuple[str, ...]
    results: tuple[Answer, ...]
    differences: tuple[dict[str, tuple[float, float | None]], ...]

    def to_json(self) -> list[dict[str, Any]]:
        """The options as a list: each answer's JSON, its option and its difference from the first."""
        listed = []
        for i, (option, result) in enumerate(zip(self.options, self.results, strict=True)):
            entry = {"option": {self.key: option}, **result.to_json()}
            if i:
                entry["difference_from_first"] = {
                    metric: {"delta": delta, "half_width_95": half}
                    for metric, (delta, half) in self.differences[i - 1].items()
                }
            listed.append(entry)
        return listed


def several_values(items: Iterable[tuple[str, str]], option: str) -> tuple[dict[str, str], str | None, list[str]]:
    """The inputs every option shares, the one input given several values (or None) and its values.

    Raises:
        SimlabError: When two inputs are given several values, or one value is given twice.
    """
    values: dict[str, list[str]] = {}
    for key, value in items:
        values.setdefault(key, []).append(value)
    repeated = [key for key, given in values.items() if len(given) > 1]
    if len(repeated) > 1:
        raise SimlabError(
            f"{option}: {repeated[0]} and {repeated[1]} are both given several values; "
            "options side by side vary one input (simlab run takes grids of several)"
        )
    if not repeated:
        return {key: given[0] for key, given in values.items()}, None, []
    key = repeated[0]
    if len(set(values[key])) != len(values[key]):
        raise SimlabError(f"{option} {key}: a value is given twice")
    return {k: given[0] for k, given in values.items() if k != key}, key, values[key]


def side_by_side(
    question: Question,
    requests: Sequence[Any],
    key: str,
    options: Sequence[str],
    batches: int = BATCHES,
) -> SideBySide:
    """Answer each option's request, and each metric's difference from the first (paired when sampled).

    Args:
        question: The question asked.
        requests: One request per option, all with the same seed and cell (common random numbers).
        key: The input that varies.
        options: Its values.
        batches: Batches the sampled trials are split into for the paired intervals.
    """
    from simlab.engine.paired import batch_metrics, paired_differences  # pandas: only when options are compared

    results = tuple(question.answer(request) for request in requests)
    first = results[0]
    differences: list[dict[str, tuple[float, float | None]]] = []
    if first.method == "exact":
        for result in results[1:]:
            differences.append(
                {m: (result.metrics[m] - v, None) for m, v in first.metrics.items() if m in result.metrics}
            )
    else:
        frames = [batch_metrics(question, request, batches) for request in requests]
        for frame in frames[1:]:
            paired = paired_differences(frames[0], frame)
            differences.append({m: (d, half) for m, (_, _, d, half, _) in paired.items()})
    tidy = tuple(  # the rounding error of equal answers shown as no difference
        {m: (0.0, None if h is None else 0.0) if abs(d) < 1e-12 else (d, h) for m, (d, h) in found.items()}
        for found in differences
    )
    return SideBySide(key, tuple(options), results, tidy)
