"""A tune's answer in sentences: the changes first, then whether fresh dice bear them out, then the search."""

from __future__ import annotations

import shlex

from simlab.balance.tournament import dominated, equilibrium_stability
from simlab.balance.tune import Tuning

__all__ = ["tune_sentences", "option_lines"]


def _mix(tuned: Tuning) -> str:
    """Each option's share of the equilibrium mix, now and on the proof's fresh dice."""
    now, _ = equilibrium_stability(tuned.before)
    mix, _ = equilibrium_stability(tuned.verified)
    return ", ".join(f"{name} {a:.2f} → {b:.2f}" for name, a, b in zip(tuned.verified.names, now, mix, strict=True))


def _price(value: float) -> str:
    """A price as text (``none`` where there is none)."""
    return "none" if value != value else f"{value:.4g}"


def _where(tuned: Tuning) -> str:
    verified = tuned.verified
    return f"on fresh dice (seed {verified.seed}, {verified.trials:,} {verified.fights} a seating)"


def option_lines(tuned: Tuning) -> list[str]:
    """The options proposed as the command line gives them (``--option "NAME: KEY=VALUE;..."``)."""
    lines = []
    for name, option in zip(tuned.before.names, tuned.options, strict=True):
        given = ";".join(f"{k}={v}" for k, v in option.items())
        lines.append(f"--option {shlex.quote(f'{name}: {given}')}")
    lines += [f"--rule {shlex.quote(f'{k}={v}')}" for k, v in tuned.rules.items()]
    return lines


def tune_sentences(tuned: Tuning) -> list[str]:
    """The answer first (``""`` parts it from the rest): what to change, and whether the goal holds on fresh dice."""
    goal = tuned.goal
    changes = [knob.said(value) for knob, value in tuned.changes]
    said = "; ".join(changes)
    what = said[:1].upper() + said[1:]
    if not tuned.reached:
        closest = f"the closest proposal ({said})" if changes else "the closest is to change nothing"
        lines = [f"Not reachable within these ranges: {closest}, {tuned.distance:.3f} from the goal "
                 f"({goal.words})."]  # fmt: skip
    elif not changes:
        held = "it holds" if tuned.met else "it does not hold"
        lines = [f"The options already meet the goal ({goal.words}): nothing to change; {_where(tuned)} {held}."]
    elif tuned.met:
        lines = [f"{what}: {_where(tuned)} the goal holds: {goal.words}."]
    else:
        lines = [f"{what} meets the goal on the search's dice but not {_where(tuned)}: ask for a larger margin "
                 f"(a larger --min-share or smaller --tol) or more trials."]  # fmt: skip
    if tuned.prices:  # a price changes no fight: what the prices become is the answer
        now, proposed, closed = (tuned.prices[k] for k in ("now", "proposed", "closed_form"))
        rows = zip(tuned.before.names, now, proposed, closed, strict=True)
        lines.append("Prices now → proposed (closed form): " + "; ".join(
            f"{name} {_price(a)} → {_price(b)} ({_price(c)})" for name, a, b, c in rows) + ".")  # fmt: skip
    else:
        lines.append(f"The equilibrium mix now → proposed {_where(tuned)}: {_mix(tuned)}.")
    beaten = dominated(tuned.verified)
    if beaten and goal.kind == "viable":
        names = tuned.verified.names
        lines.append("Still dominated there: " + ", ".join(f"{names[k]} (by {names[i]})" for k, i in beaten) + ".")
    lines.append("")
    steps = "; ".join(f"{c} knob{'s' if c != 1 else ''} changed: {d:.3f}" for c, d, _ in tuned.pareto)
    fought = f"{tuned.evaluations} tournament{'s' if tuned.evaluations != 1 else ''}"
    lines.append(f"Searched {fought} on the same dice (seed {tuned.before.seed}, "
                 f"{tuned.before.trials:,} {tuned.before.fights} a seating); the distance to the goal by the knobs "
                 f"changed: {steps}.")  # fmt: skip
    mean_before = (tuned.before.score.sum(axis=1) - 0.5) / (len(tuned.before.names) - 1)
    mean_after = (tuned.verified.score.sum(axis=1) - 0.5) / (len(tuned.verified.names) - 1)
    lines.append("Mean score against the field, now → proposed: " + ", ".join(
        f"{n} {a:.2f} → {b:.2f}" for n, a, b in zip(tuned.before.names, mean_before, mean_after, strict=True)) + ".")
    lines.append("The options proposed: " + " ".join(option_lines(tuned)))
    return lines
