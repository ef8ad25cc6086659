"""A solution in the designer's words: the answer first, then what the metric does over the range.

"4 riflemen are the fewest for which the fireteam's chance to win reaches 0.75: 0.8451 [0.8428,
0.8473]; 3 riflemen: 0.4514 [0.4483, 0.4545]." The same sentences lead the command's output, the
report of a ``kind = "solve"`` experiment and the web page's Balance view.
"""

from __future__ import annotations

from simlab.balance.solve import Crossing, Point, Solution
from simlab.output.words import Vocabulary, sentence_case, the

__all__ = ["solution_sentences", "said"]


def said(point: Point, gap: bool = False) -> str:
    """A metric (or a difference) with its interval where sampled: ``0.8451 [0.8428, 0.8473]``."""
    value, interval = (point.gap, point.gap_interval) if gap else (point.value, point.interval)
    sign = "+" if gap else ""
    text = f"{value:{sign}.4f}"
    if interval is not None:
        text += f" [{interval[0]:{sign}.4f}, {interval[1]:{sign}.4f}]"
    return text


def _at(solution: Solution, words: Vocabulary, value: float) -> str:
    name = solution.unknown.name
    shown = int(value) if solution.unknown.whole else float(f"{value:.4g}")
    return words.where(name, shown)


def _interval(solution: Solution, crossing: Crossing) -> str:
    """`` [14, 15]`` (or ``[21.3, 22.0]``), a ``≤``/``≥`` where an end is the range's end."""
    if crossing.interval is None:
        return ""
    low, high = crossing.interval
    shown = solution.unknown.shown
    low_text = f"≤{shown(low)}" if crossing.open_ends[0] else shown(low)
    high_text = f"≥{shown(high)}" if crossing.open_ends[1] else shown(high)
    return f" [{low_text}, {high_text}]"


def _interval_sentence(solution: Solution, crossing: Crossing) -> str:
    """The sentence of the answer's 95 % interval ("The answer's 95 % interval: 14 to 15"), else nothing."""
    if crossing.interval is None:
        return ""
    text = _interval(solution, crossing).strip(" []").replace(", ", " to ")
    return f". The answer's 95 % interval: {text}"


def _one(solution: Solution, crossing: Crossing, words: Vocabulary) -> str:
    """One crossing in a sentence."""
    unknown, goal = solution.unknown, solution.goal
    metric = the(words.name(goal.metric, "metrics"))
    noun = words.name(unknown.name, "inputs")
    if goal.equal:
        where = f"{noun} {crossing.interpolated:.3g}{_interval(solution, crossing)}"
        if crossing.after.gap == 0:
            where = f"{noun} {unknown.shown(crossing.after.x)}"
        elif unknown.whole:
            where += f" (between {crossing.before.x:g} and {crossing.after.x:g})"
        other = crossing.after.other if crossing.after.other is not None else float("nan")
        return (
            f"{where} makes {metric} of {goal.mine} equal to that of {goal.other_name} ({other:.4f}): "
            f"{_at(solution, words, crossing.before.x)}: {said(crossing.before)}; "
            f"{_at(solution, words, crossing.after.x)}: {said(crossing.after)}"
        )
    verb = "reaches" if crossing.rises else "falls to"
    if unknown.whole:
        most = "fewest" if words.counted(unknown.name) else "lowest"
        be = "are" if words.counted(unknown.name) and crossing.value != 1 else "is"
        answer = _at(solution, words, crossing.value)
        lead = f"{answer} {be} the {most}{' ' + noun if not words.counted(unknown.name) else ''}"
        return (
            f"{lead} for which {metric} {verb} {goal.target:g}: "
            f"{said(crossing.after)}; {_at(solution, words, crossing.before.x)}: {said(crossing.before)}"
            + _interval_sentence(solution, crossing)
        )
    answer = f"{noun} {words.amount(unknown.name, float(f'{crossing.value:.4g}'))}"
    return (
        f"{metric} {verb} {goal.target:g} at {answer}{_interval(solution, crossing)} "
        f"({_at(solution, words, crossing.before.x)}: {said(crossing.before)}; "
        f"{_at(solution, words, crossing.after.x)}: {said(crossing.after)})"
    )


def solution_sentences(solution: Solution, words: Vocabulary | None = None) -> list[str]:
    """The answer (each crossing), then the metric's shape over the range and how the interval was found."""
    words = words or Vocabulary()
    unknown, goal = solution.unknown, solution.goal
    metric = the(words.name(goal.metric, "metrics"))
    noun = words.name(unknown.name, "inputs")
    lines = [sentence_case(_one(solution, c, words)) + "." for c in solution.crossings]
    over = f"over {unknown.range_text} (checked at {solution.scanned} values, then bisected)"
    subject = f"the difference in {metric}" if goal.equal else metric
    if solution.shape == "not monotone":
        lines.insert(0, f"Not monotone: {subject} rises and falls with {noun} {over}; every crossing:")
    else:
        moves = {"rises": "rises with", "falls": "falls with", "flat": "hardly moves with"}[solution.shape]
        lines.append(sentence_case(f"{subject} {moves} {noun} {over}."))
    if solution.method == "exact":
        lines.append("Exact.")
    else:
        how = "the paired 95 % intervals of the difference" if goal.equal else "each value's 95 % interval"
        lines.append(
            f"Sampled: {solution.trials:,} trials at every value on the same random streams (seed {solution.seed}); "
            f"the answer's interval inverts {how}."
        )
    return lines
