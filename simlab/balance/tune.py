"""``simlab tune``: the change set that balances a game of options, searched on one set of dice, proved on fresh ones.

A tournament (:mod:`simlab.balance.tournament`) says which options are never worth taking; a tune
says what to change so that every option is a real choice. The designer names the knobs (an
input, a rule parameter or a table column, of one option or of all, over a range) and the goal:

* ``viable``: no option dominated and each at least ``min_share`` of the equilibrium mix;
* ``even``: each option's mean score against the field within ``tol`` of 0.5;
* ``target``: the scores between named pairs within ``tol`` of the wanted ones (the target graph of
  Hernandez et al., "Metagame Autobalancing for Competitive Multiplayer Games", IEEE CoG 2020);
* ``fair-price``: the price column only: prices at which strength per price is level (the one
  variable per option of Liu and Marschner, AIIDE 2017). A price never changes a fight, so one
  tournament gives every option's Bradley-Terry strength and the level prices follow in closed
  form; the search is checked against it.

Every candidate is fought on the same random streams (common random numbers): the distance to the
goal is then a deterministic function of the knobs, a search over it repeatable, and two candidates
differ by their changes alone. The search is SciPy's differential evolution, seeded, bounded by a
budget of tournaments, with whole knobs kept whole: each knob alone first, then all together; among
the candidates that meet the goal it keeps the fewest knobs changed and the smallest moves. The
proposal is then fought again as a full tournament on fresh streams (another seed, more trials),
and the answer says whether the goal holds there.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simlab.balance.goals import Game, Goal, fair_prices, names_of
from simlab.balance.knobs import Knob
from simlab.balance.matchup import matchup
from simlab.balance.setup import Setup
from simlab.balance.tournament import Tournament, tournament
from simlab.inputs.errors import InvalidValueError, SimlabError
from simlab.inputs.limits import Limits

__all__ = ["DEFAULT_BUDGET", "VERIFY_TRIALS_FACTOR", "Defence", "Tuning", "check_tune", "tune", "tuned_toml",
           "tuned_variant"]

#: Tournaments a search may fight unless told (each knob alone, then all together).
DEFAULT_BUDGET = 60
#: The proof fights this many times the search's trials a seating.
VERIFY_TRIALS_FACTOR = 4
#: Candidates of differential evolution in each generation, per knob.
_POPULATION = 6


def _price_column(setup: Setup, knobs: Sequence[Knob], names: Sequence[str]) -> None:
    """Refuse a ``fair-price`` tune whose knobs are not one price column, one knob per option."""
    from simlab.systems.costs import Costed

    answer = setup.question.answer
    columns = {knob.key for knob in knobs}
    priced = isinstance(answer, Costed) and all(k.key.rsplit(".", 1)[-1] == "cost" for k in knobs)
    if not priced or len(columns) != 1 or sorted(k.option or "" for k in knobs) != sorted(names):
        raise SimlabError("fair-price tunes the price column only: give --knob-each ROW.cost=LOW..HIGH (ship.cost)")


@dataclass(frozen=True)
class Defence:
    """The defenders a tune's attacks are scored against (a matchup), and the metric the attacker wants high.

    Attributes:
        defenders: Each defender's inputs.
        names: Their names.
        metric: What the attacker wants high.
    """

    defenders: tuple[Mapping[str, Any], ...]
    names: tuple[str, ...]
    metric: str


@dataclass(frozen=True)
class Tuning:
    """A tune's answer.

    Attributes:
        goal: The goal.
        knobs: The knobs, with their values now.
        proposal: The value proposed for each knob.
        distance: The proposal's distance to the goal on the search's streams (0: met).
        evaluations: Tournaments the search fought.
        pareto: The best distance for each count of knobs changed: ``(changed, distance, values)``.
        before: The tournament of the options now (the search's streams).
        after: The proposal's tournament on the search's streams.
        verified: The proposal's tournament on fresh streams.
        met: Whether the goal holds on the fresh streams.
        options: The options proposed, each its inputs; and the rule changes under ``rules``.
        given: The options as given, before the tune.
        prices: ``fair-price``: the prices now, proposed, and in closed form (empty otherwise).
        against: The defenders of attacks tuned against them (None: a tournament of the options).
    """

    goal: Goal
    knobs: tuple[Knob, ...]
    proposal: tuple[float, ...]
    distance: float
    evaluations: int
    pareto: tuple[tuple[int, float, tuple[float, ...]], ...]
    before: Game
    after: Game
    verified: Game
    met: bool
    options: tuple[Mapping[str, Any], ...]
    rules: Mapping[str, Any]
    given: tuple[Mapping[str, Any], ...] = ()
    prices: Mapping[str, tuple[float, ...]] = field(default_factory=dict)
    against: Defence | None = None

    @property
    def names(self) -> tuple[str, ...]:
        """The options' names."""
        return names_of(self.before)

    @property
    def reached(self) -> bool:
        """Whether the search met the goal on its own streams."""
        return self.distance <= 0

    @property
    def changes(self) -> list[tuple[Knob, float]]:
        """The knobs the proposal moves, with their new values."""
        return [(k, v) for k, v in zip(self.knobs, self.proposal, strict=True)
                if not math.isnan(v) and (not k.given or k.value(v) != k.value(k.start))]  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        """What ``simlab tune --json`` prints."""
        return {
            "goal": {"kind": self.goal.kind, "words": self.goal.words, "min_share": self.goal.min_share,
                     "tol": self.goal.tol},
            "changes": [{"knob": k.name, "from": k.value(k.start), "to": k.value(v)} for k, v in self.changes],
            "distance": self.distance,
            "reached": self.reached,
            "evaluations": self.evaluations,
            "pareto": [{"changed": c, "distance": d, "values": {k.name: k.value(x) for k, x in zip(self.knobs, xs,
                                                                                                  strict=True)}}
                       for c, d, xs in self.pareto],
            "verified": {"seed": self.verified.seed, "trials": self.verified.trials, "goal_met": self.met,
                         "tournament": self.verified.to_json()},
            "before": self.before.to_json(),
            "after": self.after.to_json(),
            "options": {name: dict(o) for name, o in zip(self.names, self.options, strict=True)},
            "rules": dict(self.rules),
            **({"prices": {k: list(v) for k, v in self.prices.items()}} if self.prices else {}),
        }  # fmt: skip


class _SpentError(Exception):
    """The search's budget is used up."""


@dataclass
class _Search:
    """The candidates fought so far, each once (a whole knob's values rounded), and the best."""

    setup: Setup
    options: Sequence[Mapping[str, Any]]
    names: Sequence[str]
    knobs: Sequence[Knob]
    goal: Goal
    budget: int
    progress: Callable[[Any], None]
    noun: str
    against: Defence | None = None
    fought: dict[tuple[float, ...], tuple[float, Game]] = field(default_factory=dict)
    price_fight: Game | None = None
    tournaments: int = 0

    def key(self, x: Sequence[float]) -> tuple[float, ...]:
        """A candidate as it is fought (a whole knob's value rounded)."""
        return tuple(float(k.value(v)) for k, v in zip(self.knobs, x, strict=True))

    def changed(self, x: Sequence[float]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The options and rule changes at ``x``."""
        options = [dict(o) for o in self.options]
        rules: dict[str, Any] = {}
        for knob, v in zip(self.knobs, x, strict=True):
            if math.isnan(v) or (knob.given and knob.value(v) == knob.value(knob.start)):  # left as it is
                continue
            if knob.rule:
                rules[knob.key] = knob.value(v)
            else:
                for i, name in enumerate(self.names):
                    if knob.option in (None, name):
                        options[i][knob.key] = knob.value(v)
        return options, rules

    def prices(self, x: Sequence[float]) -> list[float]:
        """``fair-price``: each option's price at ``x``."""
        by_option = {k.option: k.value(v) for k, v in zip(self.knobs, x, strict=True)}
        return [float(by_option[name]) for name in self.names]

    def fight(self, x: Sequence[float], setup: Setup | None = None) -> Game:
        """The tournament (or matchup) at ``x``, on the search's streams unless ``setup`` says others."""
        options, rules = self.changed(x)
        asked = (setup or self.setup).with_changes(rules={**(setup or self.setup).rules, **rules})
        if self.against is not None:
            against = self.against
            return matchup(asked, options, against.defenders, against.metric, self.names, against.names)
        return tournament(asked, options, self.names, noun=self.noun)

    def distance(self, x: Sequence[float]) -> float:
        """The distance at ``x``: each candidate fought once; a price changes no fight (one tournament)."""
        key = self.key(x)
        if key not in self.fought:
            if self.goal.kind == "fair-price" and self.price_fight is not None:
                fought = self.price_fight
            else:
                if len(self.fought) >= self.budget:
                    raise _SpentError
                fought = self.fight(key)
                self.tournaments += 1
                if self.goal.kind == "fair-price":
                    self.price_fight = fought
            prices = self.prices(key) if self.goal.kind == "fair-price" else None
            self.fought[key] = (self.goal.distance(fought, prices), fought)
            self.progress(f"best distance {min(d for d, _ in self.fought.values()):.3f}")
        return self.fought[key][0]

    def move(self, x: Sequence[float]) -> float:
        """How far ``x`` moves the knobs: a share of each range (``fair-price``: squares of log prices)."""
        if self.goal.kind == "fair-price":
            return float(sum(math.log(max(v, 1e-12) / max(k.start, 1e-12)) ** 2
                             for k, v in zip(self.knobs, x, strict=True) if k.given))  # fmt: skip
        return float(sum(abs(k.value(v) - k.start) / (k.high - k.low) for k, v in zip(self.knobs, x, strict=True)
                         if k.given))  # fmt: skip

    def objective(self, x: Sequence[float]) -> float:
        """Unmet candidates by distance, every one above the met ones, those by the size of their moves."""
        distance = self.distance(x)
        return 1.0 + distance if distance > 0 else self.move(x) / (1.0 + self.move(x))

    def evolve(self, free: Sequence[int], start: Sequence[float], budget: int, seed: int) -> None:
        """Differential evolution over the knobs ``free`` (the others held at ``start``), within ``budget`` more."""
        from scipy.optimize import differential_evolution

        stop_at = len(self.fought) + budget
        bounds = [(self.knobs[i].low, self.knobs[i].high) for i in free]
        integrality = [self.knobs[i].whole for i in free]
        x0 = [min(max(start[i], lo), hi) if not math.isnan(start[i]) else (lo + hi) / 2
              for i, (lo, hi) in zip(free, bounds, strict=True)]  # fmt: skip

        def at(y: Sequence[float]) -> list[float]:
            x = list(start)
            for i, v in zip(free, y, strict=True):
                x[i] = float(v)
            return x

        def f(y: np.ndarray) -> float:
            if len(self.fought) >= stop_at and self.key(at(list(y))) not in self.fought:
                raise _SpentError
            return self.objective(at(list(y)))

        population = max(_POPULATION, 2) * len(free)
        generations = max(1, budget // population)
        with contextlib.suppress(_SpentError):
            differential_evolution(f, bounds, seed=seed, popsize=_POPULATION, maxiter=generations, polish=False,
                                   tol=0, atol=0, init="sobol", x0=x0, integrality=integrality,
                                   updating="deferred")  # fmt: skip

    def scan(self, i: int, start: Sequence[float], budget: int) -> None:
        """Knob ``i`` alone, whole, step by step away from where it stands, until a step meets the goal.

        The first value that meets it is the smallest move of this knob that does (each side tried
        at every step); a range wider than the budget is left to :meth:`evolve`.
        """
        knob = self.knobs[i]
        stop_at = len(self.fought) + budget
        for step in range(1, int(knob.high - knob.low) + 1):
            tried = [v for v in (knob.start + step, knob.start - step) if knob.low <= v <= knob.high]
            if not tried:
                return
            for value in tried:
                if len(self.fought) >= stop_at:
                    return
                x = list(start)
                x[i] = value
                if self.distance(x) <= 0:
                    return

    def explore(self, i: int, start: Sequence[float], budget: int, seed: int) -> None:
        """Knob ``i`` alone: scanned outward where it is whole and its range fits the budget, else evolved."""
        knob = self.knobs[i]
        if knob.whole and knob.high - knob.low + 1 <= budget:
            self.scan(i, start, budget)
        else:
            self.evolve([i], start, budget, seed)

    def run(self, start: Sequence[float]) -> list[tuple[int, float, tuple[float, ...]]]:
        """Each knob alone, then all together if none alone meets the goal: the Pareto rows found on the way."""
        seed, n = self.setup.seed, len(self.knobs)
        if n == 1:
            self.explore(0, start, self.budget, seed)
            return []
        for i in range(n):  # each knob alone first: the fewest changes that meet the goal
            self.explore(i, start, max(4, self.budget // (2 * n)), seed + i)
        distance, x = self.best(changed_at_most=1)
        if distance > 0:
            self.evolve(list(range(n)), start, self.budget, seed + n)
        return [(1, distance, x)]

    def priced(self, start: Sequence[float], closed_form: bool) -> None:
        """``fair-price``: the level prices nearest to those now (clipped to the ranges), or searched for."""
        before = self.fought[self.key(start)][1]
        assert isinstance(before, Tournament)  # fair prices are a tournament's
        bounds = {str(k.option): (k.low, k.high) for k in self.knobs}
        found = fair_prices(before, self.prices(start)) if closed_form else _searched_prices(
            before, self.prices(start), [bounds[name] for name in self.names])  # fmt: skip
        ideal = dict(zip(self.names, found, strict=True))
        self.distance([min(max(float(ideal[str(k.option)]), k.low), k.high) for k in self.knobs])

    def best(self, changed_at_most: int | None = None) -> tuple[float, tuple[float, ...]]:
        """The best candidate fought (by :meth:`objective`), among those changing at most so many knobs."""
        chosen = [
            (self.objective(x), x) for x in self.fought
            if changed_at_most is None or self.count(x) <= changed_at_most
        ]  # fmt: skip
        _, x = min(chosen, key=lambda pair: (pair[0], pair[1]))
        return self.fought[x][0], x

    def count(self, x: Sequence[float]) -> int:
        """Knobs ``x`` moves from where they stand."""
        return sum(not k.given or k.value(v) != k.value(k.start) for k, v in zip(self.knobs, x, strict=True))


def _searched_prices(fought: Tournament, prices: Sequence[float], bounds: Sequence[tuple[float, float]]) -> np.ndarray:
    """Level prices found by a search rather than in closed form: a check of :func:`~simlab.balance.goals.fair_prices`.

    The log prices that move least from those now (an option without a price is free to move),
    held on the line of strength against log price by a penalty on each price's gap from the line
    fitted again to them; L-BFGS-B within the knobs' ranges.
    """
    from scipy.optimize import minimize

    from simlab.balance.strengths import strengths
    from simlab.balance.tournament import price_line

    strength = np.asarray(strengths(fought.score), dtype=float)
    now = np.log(np.asarray(prices, dtype=float))
    given = np.isfinite(now)
    start = np.where(given, now, float(np.mean(now[given])))

    def cost(logs: np.ndarray) -> float:
        intercept, slope = price_line(logs, strength)
        if float(slope) <= 0:
            return 1e9
        gaps = logs - (strength - float(intercept)) / float(slope)
        return float(((logs - now)[given] ** 2).sum() + 1e6 * (gaps**2).sum())

    found = minimize(cost, start, method="L-BFGS-B", bounds=[(math.log(lo), math.log(hi)) for lo, hi in bounds],
                     options={"maxiter": 10_000, "ftol": 1e-15, "gtol": 1e-10})  # fmt: skip
    return np.exp(found.x)


def check_tune(
    setup: Setup, n_options: int, budget: int, verify_trials: int, limits: Limits | None, defenders: int = 0
) -> None:
    """Refuse a tune that fights no duels or battles (nor attacks against defenders), or above the caps.

    Raises:
        SimlabError: Before any tournament is fought.
    """
    if not defenders and not setup.question.input_form.sided:
        raise SimlabError(f"a tune fights tournaments of duels or battles, not {setup.kind}: ask duels or a battle, "
                          "or give defenders to score attacks against")  # fmt: skip
    if n_options < 2:
        raise SimlabError("a tune needs at least two options")
    if isinstance(budget, bool) or not isinstance(budget, int) or not 1 <= budget <= 100_000:
        raise InvalidValueError("--budget", budget, "a whole number of tournaments from 1 to 100,000")
    if isinstance(verify_trials, bool) or not isinstance(verify_trials, int) or verify_trials < 1:
        raise InvalidValueError("--verify-trials", verify_trials, "a whole number from 1")
    if limits is not None:
        cells, noun = (n_options * defenders, "cells") if defenders else (n_options * (n_options - 1), "seatings")
        limits.check_work(cells * budget, setup.trials_each, noun, "the search", "give a smaller budget")
        limits.check_work(cells, 0 if setup.exact else verify_trials, noun, "the proof",
                          "give fewer trials to the proof")  # fmt: skip


def tune(
    setup: Setup,
    options: Sequence[Mapping[str, Any]],
    names: Sequence[str],
    knobs: Sequence[Knob],
    goal: Goal,
    *,
    budget: int = DEFAULT_BUDGET,
    verify_seed: int | None = None,
    verify_trials: int | None = None,
    limits: Limits | None = None,
    progress: Callable[[Any], None] = lambda note: None,
    noun: str = "option",
    closed_form: bool = True,
    against: Defence | None = None,
) -> Tuning:
    """Search the knobs for the goal on ``setup``'s streams, then prove the proposal on fresh ones.

    Args:
        setup: A duel or battle question: its seed and trials are the search's streams.
        options: Each option's side inputs.
        names: Their names.
        knobs: What may change (:func:`parse_knobs`).
        goal: What to reach (:func:`parse_goal`).
        budget: Tournaments the search may fight.
        verify_seed: The proof's seed (default: the search's plus one).
        verify_trials: The proof's duels a seating (default: :data:`VERIFY_TRIALS_FACTOR` times the search's).
        limits: The job's caps, checked before the first tournament.
        progress: Called with the best distance so far after each tournament.
        noun: What an option is, in words (``ship``).
        closed_form: ``fair-price``: the level prices in closed form (else searched for by L-BFGS-B, a check of it).
        against: Score the options as attacks against these defenders (a matchup) instead of a tournament.

    Raises:
        SimlabError: For a tune that does not read, or above the caps.
    """
    trials = verify_trials if verify_trials is not None else VERIFY_TRIALS_FACTOR * max(1, setup.trials_each)
    check_tune(setup, len(options), budget, trials, limits, len(against.defenders) if against is not None else 0)
    if goal.kind == "fair-price":
        _price_column(setup, knobs, names)
    else:
        unset = next((k for k in knobs if not k.given), None)
        if unset is not None:
            raise SimlabError(f"knob {unset.name}: it has no value now to start from: give it in the option")
    search = _Search(setup, options, names, knobs, goal, budget, progress, noun, against)
    start = [k.start for k in knobs]
    pareto: list[tuple[int, float, tuple[float, ...]]] = []
    try:
        search.distance(start)
        pareto.append((0, search.fought[search.key(start)][0], search.key(start)))
        if search.fought[search.key(start)][0] > 0:
            if goal.kind == "fair-price":
                search.priced(start, closed_form)
            else:
                pareto += search.run(start)
    except _SpentError:
        pass
    distance, proposal = search.best()
    if not pareto or search.count(proposal) > pareto[-1][0]:
        pareto.append((search.count(proposal), distance, proposal))
    before, after = search.fought[search.key(start)][1], search.fought[proposal][1]
    fresh = setup.with_changes(seed=verify_seed if verify_seed is not None else setup.seed + 1,
                               trials=None if setup.exact else trials)  # exact: the same numbers, fought again
    verified = search.fight(proposal, fresh)
    prices_now = search.prices(start) if goal.kind == "fair-price" else None
    met = goal.holds(verified, search.prices(proposal) if prices_now is not None else None)
    options_now, rules = search.changed(proposal)
    prices: dict[str, tuple[float, ...]] = {}
    if prices_now is not None:
        assert isinstance(before, Tournament)
        prices = {"now": tuple(prices_now), "proposed": tuple(search.prices(proposal)),
                  "closed_form": tuple(float(p) for p in fair_prices(before, prices_now))}  # fmt: skip
    given = tuple(dict(o) for o in options)
    return Tuning(goal, tuple(knobs), tuple(proposal), distance, search.tournaments, tuple(pareto), before, after,
                  verified, met, tuple(options_now), rules, given, prices, against)  # fmt: skip


def tuned_toml(tuning: Tuning, setup: Setup) -> str:
    """The proposal as an experiment of its tournament, fought on the proof's streams: ``simlab run`` reads it back."""
    import json

    def value(v: Any) -> str:
        return json.dumps(v if isinstance(v, str | bool | int | float) else str(v))

    lines = ['name = "tuned"', f'system = "{setup.system}"', 'method = "monte_carlo"',
             f"trials = {tuning.verified.trials}", f"seed = {tuning.verified.seed}", 'kind = "tournament"']  # fmt: skip
    if setup.battle is not None:
        lines.append(f"battle = {json.dumps(str(setup.battle.path.resolve()))}")
    shared = {k.removeprefix("a."): v for k, v in setup.inputs.items() if k.startswith("a.")}
    if shared:
        lines += ["", "[fixed]"] + [f"{json.dumps(f'{side}.{k}')} = {value(v)}" for k, v in shared.items()
                                    for side in "ab"]  # fmt: skip
    rules = {**setup.rules, **tuning.rules}
    if rules:
        lines += ["", "[rules]"] + [f"{k} = {value(v)}" for k, v in rules.items()]
    if tuning.against is not None:
        lines += ["", "[tournament]", f"metric = {json.dumps(tuning.against.metric)}"]
        for name, defender in zip(tuning.against.names, tuning.against.defenders, strict=True):
            lines += ["", f"[tournament.defenders.{json.dumps(name)}]"]
            lines += [f"{json.dumps(k)} = {value(v)}" for k, v in defender.items()]
    for name, option in zip(tuning.names, tuning.options, strict=True):
        lines += ["", f"[tournament.options.{json.dumps(name)}]"]
        lines += [f"{json.dumps(k)} = {value(v)}" for k, v in option.items()]
    return "\n".join(lines) + "\n"


def tuned_variant(tuning: Tuning, setup: Setup) -> str | None:
    """The proposal as a house-rule variant (``--variant`` reads it back), where it is one; else None.

    It is one where every change is a rule parameter, or a column of the table row an option names
    (``ship.cost`` of ``ship = scout``) that the option does not set itself, and no two options
    want different values of one row.
    """
    import json

    question = setup.question
    rows: dict[str, dict[str, dict[str, Any]]] = {}
    rules: dict[str, Any] = {}
    for knob, value in tuning.changes:
        if knob.rule:
            rules[knob.key] = knob.value(value)
            continue
        row_input, dot, column = knob.key.partition(".")
        if not dot or row_input not in question.row_inputs:
            return None
        table = rows.setdefault(question.row_inputs[row_input], {})
        for name, option, given in zip(tuning.names, tuning.options, tuning.given, strict=True):
            if knob.option not in (None, name):
                continue
            if knob.key in given:
                return None  # the option sets the column itself: a row change would not reach it
            row = option.get(row_input, setup.inputs.get(f"a.{row_input}"))
            if row is None or table.get(str(row), {}).get(column, knob.value(value)) != knob.value(value):
                return None
            table.setdefault(str(row), {})[column] = knob.value(value)
    words = "; ".join(knob.said(value) for knob, value in tuning.changes)
    lines = [f'system = "{setup.system}"', 'name = "tuned"', f"description = {json.dumps(words)}"]
    if rules:
        lines += ["", "[rules]"] + [f"{k} = {json.dumps(v)}" for k, v in rules.items()]
    for table_name, named in rows.items():
        for row, columns in named.items():
            lines += ["", f"[tables.{table_name}.{json.dumps(row)}]"]
            lines += [f"{c} = {json.dumps(v)}" for c, v in columns.items()]
    return "\n".join(lines) + "\n"
