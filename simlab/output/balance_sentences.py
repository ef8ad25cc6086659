"""A solution or a ranking in the designer's words: the answer first, then what the metric does over the range.

"4 riflemen are the fewest for which the fireteam's chance to win reaches 0.75: 0.8451 [0.8428,
0.8473]; 3 riflemen: 0.4514 [0.4483, 0.4545]." The same sentences lead the command's output, the
report of a ``kind = "solve"`` experiment and the web page's Balance view.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from simlab.balance.matchup import Matchup
from simlab.balance.sensitivity import Sensitivity
from simlab.balance.solve import Crossing, Point, Solution
from simlab.balance.tournament import Tournament
from simlab.balance.unknowns import DEFAULT_PRECISION
from simlab.output.words import Vocabulary, is_plural, listed, plural, sentence_case, singular, the

__all__ = [
    "solution_sentences",
    "sensitivity_sentences",
    "tournament_sentences",
    "matchup_sentences",
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
    """The unknown at a value, in words, to the decimals its precision needs ("range 16.004 m")."""
    unknown = solution.unknown
    shown = int(value) if unknown.whole else unknown.shown_to(value, solution.precision)
    return words.where(unknown.name, shown)


def _bracket(solution: Solution, crossing: Crossing, words: Vocabulary) -> str:
    """A real answer's bracket at its precision: " (between 15.99 and 16.00 m, to 0.01)"; nothing for a whole one."""
    if solution.unknown.whole or crossing.before.x == crossing.after.x:
        return ""
    unknown, precision = solution.unknown, solution.precision
    low, high = sorted((crossing.before.x, crossing.after.x))
    share = DEFAULT_PRECISION[solution.method == "exact"]
    how = "" if unknown.tol is not None else f", {'a millionth' if share == 1e-6 else 'a thousandth'} of the range"
    return (
        f" (between {unknown.shown_to(low, precision)} and "
        f"{words.amount(unknown.name, unknown.shown_to(high, precision))}: bracketed to {precision:.3g}{how})"
    )


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
        before = (
            "already at the start of the range" if crossing.before.x == crossing.after.x
            else f"{_at(solution, words, crossing.before.x)}: {said(crossing.before)}"
        )  # fmt: skip
        return (
            f"{lead} for which {metric} {verb} {goal.target:g}: {said(crossing.after)}; {before}"
            + _interval_sentence(solution, crossing)
        )
    answer = f"{noun} {words.amount(unknown.name, unknown.shown_to(crossing.value, solution.precision))}"
    return (
        f"{metric} {verb} {goal.target:g} at {answer}{_bracket(solution, crossing, words)}"
        f"{_interval(solution, crossing)} "
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


def _shares(names: Sequence[str], mix: np.ndarray) -> str:
    """A mix in words, the largest share first: "rock 34%, paper 33% and scissors 33%"."""
    played = sorted((i for i in range(len(names)) if mix[i] > 0), key=lambda i: -mix[i])
    return listed([f"{names[i]} {mix[i]:.0%}" for i in played])


def _alone_or_mix(names: Sequence[str], mix: np.ndarray) -> str:
    """"the cruiser alone", or the mix in words."""
    played = [i for i in range(len(names)) if mix[i] > 0]
    return f"the {names[played[0]]} alone" if len(played) == 1 else _shares(names, mix)


def _dominance(
    names: Sequence[str], pairs: Sequence[tuple[int, int]], order: Sequence[int], others: str
) -> list[tuple[str, str, bool, bool]]:
    """Who dominates whom, in as few words as say it all: ``("the cruiser and the frigate", "the scout", True, False)``.

    Options that dominate the same set are named together; the groups are taken strongest first,
    each naming only the options no stronger group has named, so a dominated option is said once.
    One option that dominates all the others dominates ``others`` ("every other ship").

    Returns:
        For each group: who dominates, whom, and whether each is several (for the verbs).
    """
    rank = {i: r for r, i in enumerate(order)}
    beats: dict[int, set[int]] = {}
    for k, i in pairs:
        beats.setdefault(i, set()).add(k)
    groups: dict[frozenset[int], list[int]] = {}
    for i in sorted(beats, key=rank.__getitem__):
        groups.setdefault(frozenset(beats[i]), []).append(i)
    said: list[tuple[str, str, bool, bool]] = []
    named: set[int] = set()
    for losers, winners in groups.items():
        new = sorted(losers - named, key=rank.__getitem__)
        if not new:
            continue
        named |= losers
        everyone = len(winners) == 1 and len(losers) == len(names) - 1
        whom = others if everyone else listed([f"the {names[k]}" for k in new])
        several = len(winners) > 1 or is_plural(names[winners[0]])
        beaten_several = everyone or len(new) > 1 or is_plural(names[new[0]])
        said.append((listed([f"the {names[i]}" for i in winners]), whom, several, beaten_several))
    return said


def _unsigned(value: float) -> float:
    """0 for a value that rounds to 0 (no "-0.000" from an exact sum's rounding)."""
    return 0.0 if abs(value) < 5e-4 else float(value)


def _matrix_lines(rows: Sequence[str], columns: Sequence[str], value: np.ndarray, blank_diagonal: bool) -> list[str]:
    """A matrix as text: the row names right-aligned, each column's name cut to 8 to 12 letters."""
    width = max(len(n) for n in rows)
    cell = min(max(8, *(len(n) for n in columns)), 12)
    lines = [" " * (width + 2) + "  ".join(f"{n[:cell]:>{cell}}" for n in columns)]
    for i, name in enumerate(rows):
        shown = (" " * (cell - 1) + "-" if blank_diagonal and i == j else f"{_unsigned(value[i, j]):{cell}.3f}"
                 for j in range(len(columns)))  # fmt: skip
        lines.append(f"{name:>{width}}  {'  '.join(shown)}")
    return lines


def _tied(names: Sequence[str], varies: Sequence[int]) -> str:
    """The words of an equilibrium that is not unique: which options can trade shares."""
    traded = listed([f"the {names[i]}" for i in varies])
    return f"the mix is not unique: {traded} can trade shares (shown is the centre of the equally good mixes)"


def _priced(row: dict[str, Any]) -> str:
    """An option against its price: "the free trader (worth 54.9 at its strength, priced 37.1)"."""
    return f"the {row['option']} (worth {_price(row['fair_cost'])} at its strength, priced {_price(row['cost'])})"


def _price(value: float) -> str:
    """A price as a designer reads it: 1,058, 51.1, 0.45."""
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"


def _apart(found: list[dict[str, Any]], sign: float) -> bool:
    """Whether the first of ``found`` lies beyond every other's residual interval (sign 1: above; -1: below)."""
    first = found[0]["residual_ci95"]
    if sign > 0:
        return all(first[0] > w["residual_ci95"][1] for w in found[1:])
    return all(first[1] < w["residual_ci95"][0] for w in found[1:])


def _worth_sentence(valued: list[dict[str, Any]], noun: str) -> str:
    """What the prices say: bargains and overpriced options beyond the sampling error, or that all are in line.

    "The best value" (or the worst) is said only of an option whose residual's interval lies apart
    from every other bargain's (or overpriced option's); else they are listed, the largest first.
    """
    lead = "Against their prices (strength fitted on the log of the price)"
    if all(w["verdict"] is None for w in valued):
        return f"{lead}: strength does not rise with price here, so no price is fair by the line."
    bargains = sorted((w for w in valued if w["verdict"] == "bargain"), key=lambda w: -w["residual"])
    dear = sorted((w for w in valued if w["verdict"] == "overpriced"), key=lambda w: w["residual"])
    if not bargains and not dear:
        return f"{lead}: every {noun} is priced in line with its strength, within the sampling error."
    parts = []
    for found, sign, single, several in ((bargains, 1.0, "the best value", "bargains"),
                                         (dear, -1.0, "the worst value", "overpriced")):  # fmt: skip
        if not found:
            continue
        rest = listed([f"the {w['option']}" for w in found[1:]])
        if _apart(found, sign):
            be = "are" if is_plural(str(found[0]["option"])) else "is"
            parts.append(f"{_priced(found[0])} {be} {single}" + (f", then {rest}" if rest else ""))
        else:
            parts.append(f"{several}: {_priced(found[0])}, {rest}")
    return f"{lead}, beyond the sampling error: " + "; ".join(parts) + "."


def tournament_sentences(result: Tournament) -> list[str]:
    """A tournament in sentences: the metagame and its stability, who dominates whom, worth, strengths, the matrix."""
    from simlab.balance.strengths import strengths
    from simlab.balance.tournament import dominated, equilibrium_stability, tournament_mix, worth

    names, noun = result.names, result.noun
    order = [int(i) for i in np.argsort(-strengths(result.score), kind="stable")]
    mix, share = equilibrium_stability(result)
    game = tournament_mix(result)
    played = sorted((i for i in range(len(names)) if mix[i] > 0), key=lambda i: -mix[i])
    never = [i for i in order if share[i] == 0]
    kept = listed([f"{share[i]:.0%}" for i in played])
    resampled = "in the matrix resampled within its sampling error"
    if len(played) == 1:
        alone = f"The metagame is the {names[played[0]]} alone"
        line = f"{alone}: {resampled} it stays the equilibrium in {kept} of the cases"
    else:
        enter = f"{resampled}, they enter the mix in {kept} of the cases"
        line = f"The metagame (the equilibrium mix) is {_shares(names, mix)}; {enter}"
    if not game.unique:
        line += f"; {_tied(names, game.varies)}"
    if never and len(never) + len(played) == len(names):
        line += f"; no other {noun} is ever worth taking."
    elif never:
        line += f"; never worth taking: {listed([f'the {names[i]}' for i in never])}."
    else:
        line += "."
    lines = [line]
    pairs = dominated(result)
    grouped = _dominance(names, pairs, order, f"every other {noun}")
    if grouped:
        said_by = "; ".join(
            f"{winners} {'dominate' if several else 'dominates'} {losers}" for winners, losers, several, _ in grouped
        )
        lines.append(sentence_case(said_by) + " (beaten head to head and outscored against all the rest, 95 % "
                     "intervals apart).")  # fmt: skip
    else:
        lines.append(f"No {noun} is dominated: against some opponent, each does at least as well as any other.")
    valued = [w for w in worth(result) if w["residual"] is not None]
    if valued:
        lines.append(_worth_sentence(valued, noun))
    lines.append("Strongest first (Bradley-Terry): " + ", ".join(names[i] for i in order) + ".")
    lines.append("")
    ordered = result.score[np.ix_(order, order)]
    beaten = {k for k, _ in pairs}
    rows = [f"{names[i]} *" if i in beaten else names[i] for i in order]
    lines += _matrix_lines(rows, [names[i] for i in order], ordered, blank_diagonal=True)
    seatings = f"both seatings of {result.trials:,} {result.fights}"
    marked = "; * dominated" if beaten else ""
    lines.append(f"(the chance of the row to beat the column, draws half{marked}; {seatings} on the same streams, "
                 f"seed {result.seed})")  # fmt: skip
    return lines


def matchup_sentences(result: Matchup, words: Vocabulary | None = None) -> list[str]:
    """Attacks against defenders in sentences: both sides' best mixes, the game's value, dominated attacks, matrix."""
    from simlab.balance.matchup import dominated_rows, matchup_games, matchup_mixes, matchup_stability

    words = words or Vocabulary()
    metric = words.name(result.metric, "metrics")
    attack, defence, value = matchup_mixes(result)
    attack_game, defence_game = matchup_games(result)
    lines = [
        sentence_case(
            f"the attacker's best mix is {_alone_or_mix(result.attackers, attack)}: {the(metric)} is at least "
            f"{value:.4g} whatever the defender picks; the defender's best answer is "
            f"{_alone_or_mix(result.defenders, defence)}, which holds it to at most {value:.4g} whatever the attack."
        )
    ]
    for side, game, names in (("attacker", attack_game, result.attackers),
                              ("defender", defence_game, result.defenders)):  # fmt: skip
        if not game.unique:
            lines.append(sentence_case(f"the {side}'s {_tied(names, game.varies).removeprefix('the ')}."))
    if result.method != "exact":
        attack_share, defence_share = matchup_stability(result)
        played = [i for i in range(len(result.attackers)) if attack[i] > 0]
        answered = [j for j in range(len(result.defenders)) if defence[j] > 0]
        lines.append(
            "In the matrix resampled within its sampling error, "
            + listed([f"the {result.attackers[i]}" for i in played]) + " enter"
            + ("s" if len(played) == 1 else "") + " the attacker's mix in "
            + listed([f"{attack_share[i]:.0%}" for i in played]) + " of the cases, and "
            + listed([f"the {result.defenders[j]}" for j in answered]) + " the defender's in "
            + listed([f"{defence_share[j]:.0%}" for j in answered]) + "."
        )
    order = [int(i) for i in np.argsort(-result.value.mean(axis=1), kind="stable")]
    pairs = dominated_rows(result)
    grouped = _dominance(result.attackers, pairs, order, "every other attack")
    if grouped:
        apart = "" if result.method == "exact" else ", intervals apart"
        for winners, losers, several, beaten_several in grouped:
            never = (
                "no other attack is ever the better choice"
                if losers == "every other attack"
                else f"{losers} {'are' if beaten_several else 'is'} never the better choice"
            )
            lines.append(
                sentence_case(f"{winners} {'do' if several else 'does'} better than {losers}")
                + f" against every defender{apart}: {never}."
            )
    else:
        lines.append("No attack is dominated: against some defender, each does at least as well as any other.")
    lines.append("")
    beaten = {k for k, _ in pairs}
    rows = [f"{result.attackers[i]} *" if i in beaten else result.attackers[i] for i in order]
    lines += _matrix_lines(rows, result.defenders, result.value[order], blank_diagonal=False)
    how = "exact" if result.method == "exact" else (
        f"{result.trials:,} trials a cell on the same streams, seed {result.seed}"
    )
    caption = f"{the(metric)} of each attack (row) against each defender (column), the best on average first"
    caption += "; * dominated" if beaten else ""
    lines.append(f"({caption}; {how})")
    return lines
