"""A solution or a ranking in the designer's words: the answer first, then what the metric does over the range.

"4 riflemen are the fewest for which the fireteam's chance to win reaches 0.75: 0.8451 [0.8428,
0.8473]; 3 riflemen: 0.4514 [0.4483, 0.4545]." The same sentences lead the command's output, the
report of a ``kind = "solve"`` experiment and the web page's Balance view.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simlab.balance.sensitivity import Sensitivity
from simlab.balance.solve import Crossing, Point, Solution
from simlab.output.words import Vocabulary, plural, sentence_case, singular, the

__all__ = [
    "solution_sentences",
    "sensitivity_sentences",
    "tournament_sentences",
    "crossing_sentence",
    "goal_text",
    "said",
]


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


def crossing_sentence(solution: Solution, crossing: Crossing, words: Vocabulary) -> str:
    """One crossing in a sentence, as it may go on after a comma (not yet capitalised, no full stop)."""
    unknown, goal = solution.unknown, solution.goal
    metric = the(words.name(goal.metric, "metrics"))
    noun = words.name(unknown.name, "inputs")
    if goal.equal:
        where = f"{noun} {crossing.interpolated:.3g}{_interval(solution, crossing)}"
        if abs(crossing.after.gap) <= 1e-12 * max(1.0, abs(crossing.after.value)):  # equal at a value tried
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
        named = not words.counted(unknown.name) and "'s " not in noun  # "DX 15 is the lowest DX"; not "A's skill" twice
        lead = f"{answer} {be} the {most}{' ' + noun if named else ''}"
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


def goal_text(solution: Solution, words: Vocabulary) -> str:
    """What was searched, as a report's question line: "the fewest riflemen for which ... reaches 0.75, over 1..8"."""
    unknown, goal = solution.unknown, solution.goal
    metric = the(words.name(goal.metric, "metrics"))
    noun = words.name(unknown.name, "inputs")
    if goal.equal:
        equal = f"{metric} of {goal.mine} equal to that of {goal.other_name}"
        return f"the {noun} that makes {equal}, over {unknown.range_text}"
    most = "fewest" if words.counted(unknown.name) else "lowest"
    verb = "reaches" if not solution.crossings or solution.answer.rises else "falls to"
    return f"the {most} {noun} for which {metric} {verb} {goal.target:g}, over {unknown.range_text}"


def _even_fight(solution: Solution, words: Vocabulary) -> str | None:
    """A battle's count solved for an even fight (a side's chance to win 0.5): what one enemy figure is worth.

    "An even fight at 3.1 riflemen against 2 machinegunners: one machinegunner is worth about 1.6 riflemen"
    (the count interpolated between the two counts tried around it: Lanchester-style worth).
    """
    setup, goal, unknown = solution.setup, solution.goal, solution.unknown
    if setup is None or setup.battle is None or goal.equal or goal.target != 0.5 or not solution.crossings:
        return None
    side, _, key = unknown.name.partition(".")
    if side not in ("a", "b") or not (key == "count" or key.endswith(".count")) or goal.metric != f"p_{side}_wins":
        return None
    other = setup.battle.sides["ab".index(side) ^ 1]
    enemies = sum(group.count for group in other.groups)
    if enemies <= 0:
        return None
    crossing = solution.answer.interpolated
    mine = words.name(unknown.name, "inputs")
    theirs = plural(other.groups[0].name) if len(other.groups) == 1 else f"figures of the {other.name}"
    one = singular(theirs) if len(other.groups) == 1 else "enemy figure"
    return (
        f"An even fight at {crossing:.3g} {mine} (interpolated) against {enemies} {theirs}: "
        f"one {one} is worth about {crossing / enemies:.2g} {mine}."
    )


def solution_sentences(solution: Solution, words: Vocabulary | None = None) -> list[str]:
    """The answer (each crossing), then the metric's shape over the range and how the interval was found."""
    words = words or Vocabulary()
    unknown, goal = solution.unknown, solution.goal
    metric = the(words.name(goal.metric, "metrics"))
    noun = words.name(unknown.name, "inputs")
    lines = [sentence_case(crossing_sentence(solution, c, words)) + "." for c in solution.crossings]
    over = f"over {unknown.range_text} (checked at {solution.scanned} values, then bisected)"
    subject = f"the difference in {metric}" if goal.equal else metric
    if solution.shape == "not monotone":
        lines.insert(0, f"Not monotone: {subject} rises and falls with {noun} {over}; every crossing:")
    else:
        moves = {"rises": "rises with", "falls": "falls with", "flat": "hardly moves with"}[solution.shape]
        lines.append(sentence_case(f"{subject} {moves} {noun} {over}."))
    even = _even_fight(solution, words)
    if even:
        lines.insert(len(solution.crossings), even)
    if solution.method == "exact":
        lines.append("Exact.")
    else:
        how = "the paired 95 % intervals of the difference" if goal.equal else "each value's 95 % interval"
        lines.append(
            f"Sampled: {solution.trials:,} trials at every value on the same random streams (seed {solution.seed}); "
            f"the answer's interval inverts {how}."
        )
    return lines


def _share(value: float | None, half: float | None) -> str:
    if value is None:
        return "not in the Sobol stage"
    return f"{value:.2f} [{max(0.0, value - (half or 0.0)):.2f}, {value + (half or 0.0):.2f}]"


def _knob(words: Vocabulary, name: str) -> str:
    """A factor as the subject of a sentence: "the number of riflemen", "the range band"."""
    noun = words.name(name, "inputs")
    return f"the number of {noun}" if words.counted(name) else the(noun)


def sensitivity_sentences(result: Sensitivity, words: Vocabulary | None = None) -> list[str]:
    """The ranking in a sentence, then how it was measured."""
    words = words or Vocabulary()
    metric = the(words.name(result.metric, "metrics"))
    ranked = [e for e in result.effects if e.st is not None]
    first, rest = ranked[0], ranked[1:]
    lead = (
        f"{_knob(words, first.name)} moves {metric} most: {_share(first.st, first.st_conf)} of its "
        f"variance with the others, {_share(first.s1, first.s1_conf)} alone"
    )
    then = "; ".join(f"then {_knob(words, e.name)}: {_share(e.st, e.st_conf)}" for e in rest)
    lines = [sentence_case(lead + (f"; {then}" if then else "")) + "."]
    dropped = [e for e in result.effects if e.st is None]
    if dropped:
        names = ", ".join(words.name(e.name, "inputs") for e in dropped)
        lines.append(f"Screened out by Morris (smallest effects, held at their given values): {names}.")
    how = "exact" if result.method == "exact" else f"sampled, {result.trials:,} trials a point on the same streams"
    spread = ", ".join(f"{words.name(f.name, 'inputs')} {f.range_text}" for f in result.factors)
    lines.append(
        f"Shares of the variance of {metric} (Sobol total order, 95 % bootstrap intervals) over "
        f"{spread}, each spread evenly; "
        f"{result.points:,} points ({result.answered:,} distinct), {how}, seed {result.seed}."
    )
    return lines


def tournament_sentences(result: Any) -> list[str]:
    """A tournament in sentences: who dominates whom, the metagame and its stability, the strengths, the matrix."""
    from simlab.balance.tournament import dominated, equilibrium_stability, strengths

    names = result.names
    lines = []
    beaten = dominated(result)
    if beaten:
        by: dict[str, list[str]] = {}
        for k, i in beaten:
            by.setdefault(names[i], []).append(names[k])
        said_by = "; ".join(f"the {winner} dominates the {', the '.join(losers)}" for winner, losers in by.items())
        evidence = " (it beats each and scores higher against every other, intervals apart)."
        lines.append(sentence_case(said_by) + evidence)
    else:
        lines.append("No option is dominated: each does better than any other against some opponent.")
    mix, share = equilibrium_stability(result)
    played = sorted((i for i in range(len(names)) if mix[i] > 1e-6), key=lambda i: -mix[i])
    lines.append(
        "The metagame (the equilibrium mix): "
        + ", ".join(f"{names[i]} {mix[i]:.0%}" for i in played)
        + "; in the matrix resampled within its sampling error, each enters the mix in "
        + ", ".join(f"{share[i]:.0%}" for i in played)
        + " of the cases."
    )
    never = [names[i] for i in range(len(names)) if share[i] == 0]
    if never:
        lines.append(f"Never worth taking: {', '.join(never)}.")
    from simlab.balance.tournament import worth

    valued = [w for w in worth(result) if w["residual"] is not None]
    if valued:
        best = max(valued, key=lambda w: w["residual"])
        worst = min(valued, key=lambda w: w["residual"])
        lines.append(
            f"Against their prices (strength fitted on the log of the price): the {best['option']} is the best "
            f"value (worth {best['fair_cost']:.4g} at its strength, priced {best['cost']:.4g}); the "
            f"{worst['option']} the worst (worth {worst['fair_cost']:.4g}, priced {worst['cost']:.4g})."
        )
    order = np.argsort(-strengths(result.score))
    lines.append("Strongest first (Bradley-Terry): " + ", ".join(names[i] for i in order) + ".")
    width = max(len(n) for n in names)
    lines.append("")
    lines.append(" " * (width + 2) + "  ".join(f"{n[:8]:>8}" for n in (names[i] for i in order)))
    for i in order:
        cells = "  ".join("       -" if i == j else f"{result.score[i, j]:8.3f}" for j in order)
        lines.append(f"{names[i]:>{width}}  {cells}")
    seatings = f"both seatings of {result.trials:,} {result.fights}"
    lines.append(f"(the chance of the row to beat the column, draws half; {seatings} on the same streams, "
                 f"seed {result.seed})")  # fmt: skip
    return lines
