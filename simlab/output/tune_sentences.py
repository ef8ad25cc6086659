"""A tune's answer in sentences: the changes first, then whether fresh dice bear them out, then the search."""

from __future__ import annotations

import math
import shlex

from simlab.balance.goals import Game, beaten, mix_of
from simlab.balance.matchup import Matchup
from simlab.balance.tournament import Tournament
from simlab.balance.tune import Tuning
from simlab.output.words import Vocabulary

__all__ = ["tune_sentences", "option_lines"]


def _mix(tuned: Tuning) -> str:
    """Each option's share of the equilibrium mix, now and proposed (on the proof's dice)."""
    now, mix = mix_of(tuned.before)[0], mix_of(tuned.verified)[0]
    return ", ".join(f"{name} {a:.2f} → {b:.2f}" for name, a, b in zip(tuned.names, now, mix, strict=True))


def _price(value: float) -> str:
    """A price as text (``none`` where there is none)."""
    return "none" if math.isnan(value) else f"{value:.4g}"


def _dice(game: Game, seed: int) -> str:
    """The dice a game was fought on: ``seed 1, 8,000 duels a seating`` (an exact matchup has none)."""
    if isinstance(game, Matchup):
        return "exact" if game.method == "exact" else f"seed {seed}, {game.trials:,} trials a cell"
    return f"seed {seed}, {game.trials:,} {game.fights} a seating"


def _where(tuned: Tuning) -> str:
    verified = tuned.verified
    if isinstance(verified, Matchup) and verified.method == "exact":
        return "exactly"
    return f"on fresh dice ({_dice(verified, verified.seed)})"


def option_lines(tuned: Tuning) -> list[str]:
    """The options proposed as the command line gives them (``--option "NAME: KEY=VALUE;..."``)."""
    lines = []
    for name, option in zip(tuned.names, tuned.options, strict=True):
        given = ";".join(f"{k}={v:.6g}" if isinstance(v, float) else f"{k}={v}" for k, v in option.items())
        lines.append(f"--option {shlex.quote(f'{name}: {given}')}")
    lines += [f"--rule {shlex.quote(f'{k}={v}')}" for k, v in tuned.rules.items()]
    return lines


def tune_sentences(tuned: Tuning, words: Vocabulary | None = None) -> list[str]:
    """The answer first (``""`` parts it from the rest): what to change, and whether the goal holds on fresh dice."""
    goal = tuned.goal
    words = words or Vocabulary()
    changes = [knob.said(value, words.name(knob.key, "inputs")) for knob, value in tuned.changes]
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
        rows = zip(tuned.names, now, proposed, closed, strict=True)
        lines.append("Prices now → proposed (closed form): " + "; ".join(
            f"{name} {_price(a)} → {_price(b)} ({_price(c)})" for name, a, b, c in rows) + ".")  # fmt: skip
    else:
        side = "the attacker's " if tuned.against is not None else ""
        lines.append(f"{side.capitalize() or 'The '}equilibrium mix now → proposed {_where(tuned)}: {_mix(tuned)}.")
    found = beaten(tuned.verified)
    if found and goal.kind == "viable":
        names = tuned.names
        lines.append("Still dominated there: " + ", ".join(f"{names[k]} (by {names[i]})" for k, i in found) + ".")
    lines.append("")
    steps = "; ".join(f"{c} knob{'s' if c != 1 else ''} changed: {d:.3f}" for c, d, _ in tuned.pareto)
    noun = "matchup" if tuned.against is not None else "tournament"
    fought = f"{tuned.evaluations} {noun}{'s' if tuned.evaluations != 1 else ''}"
    dice = _dice(tuned.before, tuned.before.seed)
    how = ", each exact" if dice == "exact" else f" on the same dice ({dice})"
    lines.append(f"Searched {fought}{how}; the distance to the goal by the knobs changed: {steps}.")
    before, verified = tuned.before, tuned.verified
    if isinstance(before, Matchup):  # each attack against the defenders' best mix
        scored_now, scored = mix_of(before)[1], mix_of(verified)[1]
        pairs = zip(tuned.names, scored_now, scored, strict=True)
        lines.append("What each attack scores against the defenders' best mix, now → proposed: "
                     + ", ".join(f"{n} {a:.3g} → {b:.3g}" for n, a, b in pairs) + ".")  # fmt: skip
    else:
        n = len(tuned.names)
        assert isinstance(verified, Tournament)
        mean_now, mean = ((game.score.sum(axis=1) - 0.5) / (n - 1) for game in (before, verified))
        pairs = zip(tuned.names, mean_now, mean, strict=True)
        lines.append("Mean score against the field, now → proposed: "
                     + ", ".join(f"{name} {a:.2f} → {b:.2f}" for name, a, b in pairs) + ".")
    lines.append("The options proposed: " + " ".join(option_lines(tuned)))
    return lines
