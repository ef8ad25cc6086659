"""What every system's battles tally and report (ENG-2, ENG-5), and how figures pick targets.

A battle kernel keeps, per figure, its state (standing, incapacitated, killed) and, per side,
the figures standing after every turn; at the end of a trial :func:`record_battle` adds the
outcome, the figures standing, killed and incapacitated, the turns, the ammunition spent and
the standing series to int64 tallies. :func:`battle_estimates` turns the summed tallies into
the metrics of ENG-5 with 95 % intervals. :func:`assign_targets` is the doctrine's choice of
targets (ENG-2), one definition for every kernel.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from simlab.engine.blocks import Tallies
from simlab.engine.bounds import DRAWS_PER_TRIAL_LIMIT, MAX_TRIALS_PER_CELL
from simlab.engine.intervals import mean_interval, wilson
from simlab.engine.results import AttackResult
from simlab.inputs.battles import SIDE_DEFAULTS, Doctrine, Formation, blame
from simlab.inputs.errors import SimlabError
from simlab.inputs.params import as_plain, build

__all__ = [
    "STANDING",
    "DRAW",
    "INCAPACITATED",
    "KILLED",
    "OUTCOMES",
    "FOCUS",
    "SPREAD",
    "RANDOM",
    "WEAKEST",
    "BattleShape",
    "new_battle_tallies",
    "record_battle",
    "battle_outcome",
    "break_threshold",
    "battle_estimates",
    "battle_metric_names",
    "BATTLE_METRICS",
    "BATTLE_SERIES",
    "rule_values",
    "refuse_unread",
    "refuse_unread_rules",
    "SAME_SECOND",
    "SYSTEM_ONLY_KEYS",
    "reads_key",
    "draw_window",
    "check_trials_in_window",
    "first_turn_targets",
    "first_turn_distributions",
    "with_exact_first_turn",
    "group_inputs",
    "group_templates",
    "battle_result",
    "BATTLE_DISTRIBUTIONS",
]

# A figure's state.
STANDING, INCAPACITATED, KILLED = 0, 1, 2
# How a battle ends: indices of the outcome counts (ENG-5).
A_WINS, B_WINS, BOTH_OUT, DRAW, A_BREAKS, B_BREAKS = range(6)
OUTCOMES = ("p_a_wins", "p_b_wins", "p_both_out", "p_draw", "p_a_breaks", "p_b_breaks")
# Further counts.
TURNS, TURNS_SQ, DRAWS = 6, 7, 8
# Per-side counts, from SIDE_COUNTS + 8 * side.
SIDE_COUNTS = 9
S_STANDING, S_STANDING_SQ, S_KILLED, S_KILLED_SQ, S_INCAPACITATED, S_INCAPACITATED_SQ, S_ROUNDS, S_ROUNDS_SQ = range(8)
N_COUNTS = SIDE_COUNTS + 16
# Doctrines of target choice (ENG-2), in the order of simlab.inputs.battles.TARGETS.
FOCUS, SPREAD, RANDOM, WEAKEST = range(4)

#: Metrics of every battle: name → description (the series are listed by battle_metric_names).
BATTLE_METRICS = {
    "p_a_wins": "probability that side b is out and some of side a stands (ENG-5)",
    "p_b_wins": "probability that side a is out and some of side b stands",
    "p_both_out": "probability that both sides are out at the same time",
    "p_draw": "probability that the battle is undecided after max_turns (or both sides break at once)",
    "p_a_breaks": "probability that side a withdraws (break_at, ENG-2)",
    "p_b_breaks": "probability that side b withdraws",
    "mean_turns": "expected length of the battle in turns (Tyconian also mean_seconds)",
    "mean_standing_a": "expected figures of side a standing at the end",
    "mean_standing_b": "expected figures of side b standing at the end",
    "mean_killed_a": "expected figures of side a killed",
    "mean_killed_b": "expected figures of side b killed",
    "mean_incapacitated_a": "expected figures of side a out but not killed",
    "mean_incapacitated_b": "expected figures of side b out but not killed",
    "mean_rounds_a": "expected rounds (Space: missiles and shots) side a spends",
    "mean_rounds_b": "expected rounds side b spends",
    "mean_first_turn_out_a": "expected figures of side a out after the first turn",
    "mean_first_turn_out_b": "expected figures of side b out after the first turn",
    "exact_mean_first_turn_out_a": "the same, exact (where tractable)",
    "exact_mean_first_turn_out_b": "the same, exact (where tractable)",
}
#: Series of every battle: prefix → description (``standing_a_turn_3``).
BATTLE_SERIES = {
    "standing_a_turn_": "expected figures of side a standing after turn k (series; k = 0: the start)",
    "standing_b_turn_": "expected figures of side b standing after turn k (series)",
}
#: Distributions of every battle.
BATTLE_DISTRIBUTIONS = {
    "turns": "turns the battle lasted (Tyconian also seconds)",
    "standing_a": "figures of side a standing at the end",
    "standing_b": "figures of side b standing at the end",
    "killed_a": "figures of side a killed",
    "killed_b": "figures of side b killed",
    "incapacitated_a": "figures of side a out but not killed",
    "incapacitated_b": "figures of side b out but not killed",
    "first_turn_out_a": "figures of side a out after the first turn (exact where tractable)",
    "first_turn_out_b": "figures of side b out after the first turn",
    "first_turn_out_a_exact": "the same, exact (where tractable)",
    "first_turn_out_b_exact": "the same, exact (where tractable)",
}


@dataclass(frozen=True)
class BattleShape:
    """The sizes a battle's tallies need: figures per side and the longest battle."""

    count_a: int
    count_b: int
    max_turns: int

    @property
    def most(self) -> int:
        """Figures of the larger side."""
        return max(self.count_a, self.count_b)


def battle_metric_names(max_turns: int) -> list[str]:
    """Every metric of a battle of up to ``max_turns`` turns: ENG-5's, then the standing series."""
    series = [f"standing_{s}_turn_{k}" for s in "ab" for k in range(max_turns + 1)]
    return [*BATTLE_METRICS, *series]


def new_battle_tallies(shape: BattleShape) -> tuple[npt.NDArray[np.int64], ...]:
    """Zeroed tallies: counts, end histograms ``(2, 3, most + 1)``, turns, series ``(2, 4, turns + 1)``, first turn."""
    return (
        np.zeros(N_COUNTS, np.int64),
        np.zeros((2, 3, shape.most + 1), np.int64),
        np.zeros(shape.max_turns + 1, np.int64),
        np.zeros((2, 4, shape.max_turns + 1), np.int64),
        np.zeros((2, shape.most + 1), np.int64),
    )


def break_threshold(break_at: float, count: int) -> int:
    """Figures standing at or below which a side of ``count`` withdraws (-1: it fights to the end)."""
    if break_at <= 0:
        return -1
    # The share standing/count falls to or below break_at: standing <= break_at * count, in
    # exact arithmetic (0.5 of 4 figures is 2, not 1.9999).
    return int(Fraction(str(break_at)) * count)


def battle_outcome(standing_a: int, standing_b: int, break_a: int, break_b: int) -> int:
    """How the battle stands after a turn: an outcome index, or -1 while it goes on (ENG-2, ENG-5).

    Both sides out is ``BOTH_OUT``; one side out, the other wins; a side at or below its break
    point (still standing) withdraws; both withdrawing at once is a draw.
    """
    if standing_a == 0 and standing_b == 0:
        return BOTH_OUT
    if standing_b == 0:
        return A_WINS
    if standing_a == 0:
        return B_WINS
    a_breaks = standing_a <= break_a
    b_breaks = standing_b <= break_b
    if a_breaks and b_breaks:
        return DRAW
    if a_breaks:
        return A_BREAKS
    if b_breaks:
        return B_BREAKS
    return -1


def record_battle(
    counts: npt.NDArray[np.int64],
    ends: npt.NDArray[np.int64],
    turns_hist: npt.NDArray[np.int64],
    by_turn: npt.NDArray[np.int64],
    outcome: int,
    turns: int,
    max_turns: int,
    state: npt.NDArray[np.int64],
    side_of: npt.NDArray[np.int64],
    history: npt.NDArray[np.int64],
    spent: npt.NDArray[np.int64],
    draws: int,
) -> None:
    """Add one battle to the tallies (plain Python; compiled below).

    Args:
        counts: The counts (outcomes, turns, per side figures and rounds).
        ends: Histograms of figures standing, killed, incapacitated at the end, per side.
        turns_hist: Histogram of the battle's length.
        by_turn: Per side, sum and sum of squares of figures standing after each turn of
            the battles still going, then of those standing at the end by the turn it came.
        outcome: How it ended (``A_WINS`` ... ``B_BREAKS``).
        turns: Turns it lasted.
        max_turns: The longest battle.
        state: Each figure's state at the end.
        side_of: Each figure's side.
        history: Per side, figures standing after turn ``k`` (filled up to ``turns``).
        spent: Rounds each side spent.
        draws: Draws the battle made.
    """
    counts[outcome] += 1
    counts[TURNS] += turns
    counts[TURNS_SQ] += turns * turns
    counts[DRAWS] += draws
    for s in range(2):
        standing = 0
        killed = 0
        out = 0
        for i in range(state.shape[0]):
            if side_of[i] == s:
                if state[i] == STANDING:
                    standing += 1
                elif state[i] == KILLED:
                    killed += 1
                else:
                    out += 1
        base = SIDE_COUNTS + 8 * s
        counts[base + S_STANDING] += standing
        counts[base + S_STANDING_SQ] += standing * standing
        counts[base + S_KILLED] += killed
        counts[base + S_KILLED_SQ] += killed * killed
        counts[base + S_INCAPACITATED] += out
        counts[base + S_INCAPACITATED_SQ] += out * out
        counts[base + S_ROUNDS] += spent[s]
        counts[base + S_ROUNDS_SQ] += spent[s] * spent[s]
        ends[s, 0, standing] += 1
        ends[s, 1, killed] += 1
        ends[s, 2, out] += 1
        for k in range(1, turns + 1):
            value = history[s, k]
            by_turn[s, 0, k] += value
            by_turn[s, 1, k] += value * value
        # After the end the figures standing stay as they were: added up when estimating.
        by_turn[s, 2, turns] += standing
        by_turn[s, 3, turns] += standing * standing
    turns_hist[turns] += 1


def battle_estimates(
    tallies: Tallies, trials: int, shape: BattleShape
) -> tuple[dict[str, float], dict[str, tuple[float, float]], dict[str, dict[int, float]]]:
    """ENG-5's metrics, 95 % intervals and distributions from summed tallies.

    Args:
        tallies: As :func:`new_battle_tallies`, summed over the trials.
        trials: Battles behind them.
        shape: The battle's sizes.
    """
    counts, ends, turns_hist, by_turn, first = tallies
    metrics: dict[str, float] = {}
    ci: dict[str, tuple[float, float]] = {}
    for index, name in enumerate(OUTCOMES):
        metrics[name] = int(counts[index]) / trials
        ci[name] = wilson(int(counts[index]), trials)

    def mean(name: str, total: int, square: int) -> None:
        metrics[name] = total / trials
        ci[name] = mean_interval(total, square, trials)

    mean("mean_turns", int(counts[TURNS]), int(counts[TURNS_SQ]))
    for s, label in enumerate("ab"):
        base = SIDE_COUNTS + 8 * s
        for what, offset in (
            ("standing", S_STANDING),
            ("killed", S_KILLED),
            ("incapacitated", S_INCAPACITATED),
            ("rounds", S_ROUNDS),
        ):
            mean(f"mean_{what}_{label}", int(counts[base + offset]), int(counts[base + offset + 1]))
    for s, label in enumerate("ab"):
        out = np.arange(first.shape[1], dtype=np.int64)
        mean(f"mean_first_turn_out_{label}", int(out @ first[s]), int((out * out) @ first[s]))
    for s, label in enumerate("ab"):
        # Battles over by turn k count with the figures they ended with.
        ended = np.concatenate(([0], np.cumsum(by_turn[s, 2])[:-1]))
        ended_sq = np.concatenate(([0], np.cumsum(by_turn[s, 3])[:-1]))
        count = shape.count_a if s == 0 else shape.count_b
        metrics[f"standing_{label}_turn_0"] = float(count)  # everyone stands before the first turn
        ci[f"standing_{label}_turn_0"] = (float(count), float(count))
        for k in range(1, shape.max_turns + 1):
            total = int(by_turn[s, 0, k]) + int(ended[k])
            mean(f"standing_{label}_turn_{k}", total, int(by_turn[s, 1, k]) + int(ended_sq[k]))
    distributions: dict[str, dict[int, float]] = {
        "turns": {int(t): int(n) / trials for t, n in enumerate(turns_hist) if n},
    }
    for s, label in enumerate("ab"):
        for row, what in enumerate(("standing", "killed", "incapacitated")):
            distributions[f"{what}_{label}"] = {int(k): int(n) / trials for k, n in enumerate(ends[s, row]) if n}
        distributions[f"first_turn_out_{label}"] = {int(k): int(n) / trials for k, n in enumerate(first[s]) if n}
    return metrics, ci, distributions


def rule_values(battle: Any, rules: Mapping[str, Any], default_max_turns: int) -> dict[str, Any]:
    """The rule parameters of a battle: ``max_turns`` (ENG-2), the battle's ``[rules]``, then the request's."""
    values = {"max_turns": default_max_turns, **battle.rules}
    if battle.max_turns is not None:
        values["max_turns"] = battle.max_turns
    return {**values, **rules}


def group_inputs(
    battle: Any, key: str, inputs: Mapping[str, Any], rows: Sequence[str]
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """A group's template inputs and its ``ROW.COLUMN`` overrides (ENG-1).

    Raises:
        BattleError: For a ROW that is none of ``rows``, located at the group's key.
    """
    scenario = {name: value for name, value in inputs.items() if "." not in name}
    overrides: dict[str, dict[str, Any]] = {}
    for name, value in inputs.items():
        row, dot, column = name.partition(".")
        if dot:
            if row not in rows:
                raise battle.error(f"{key}.{name}", f"unknown row input {row!r} (valid: {', '.join(rows)})")
            overrides.setdefault(row, {})[column] = value
    return scenario, overrides


def group_templates(
    battle: Any,
    figure_type: type,
    *,
    one_range: Mapping[str, str],
    battle_inputs: Mapping[str, Any],
    rows: Sequence[str] = ("weapon", "armor"),
    what: str = "figure input",
) -> list[tuple[int, str, Any, dict[str, dict[str, Any]]]]:
    """Each group's side, key, template (``figure_type`` of its inputs) and row overrides, side a's first (ENG-1).

    Args:
        battle: The battle.
        figure_type: The system's dataclass of one figure (or ship).
        one_range: Inputs a group may not give, each with where to give it (ENG-3: one range for the battle).
        battle_inputs: Inputs every group takes from the battle (its range).
        rows: The tables whose ``ROW.COLUMN`` a group may override.
        what: What a bad input is called in the message.

    Raises:
        BattleError: For any bad input, located in the battle file.
    """
    found = []
    for s, side in enumerate(battle.sides):
        for g, group in enumerate(side.groups):
            key = f"{'ab'[s]}.groups.{g}"
            inputs = dict(group.inputs)
            for name, where in one_range.items():
                if name in inputs:
                    raise battle.error(f"{key}.{name}", f"give {where} (ENG-3: one range for the battle)")
            inputs.update(battle_inputs)
            if side.cover is not None:  # a side's cover is its groups' (ENG-3), where the system reads it
                inputs.setdefault("cover", side.cover)
            scenario, overrides = group_inputs(battle, key, inputs, rows)
            try:
                figure: Any = build(figure_type, scenario, what=what, owner=f"{key}.")
            except SimlabError as exc:
                raise battle.error(blame(battle, key, str(exc)), str(exc)) from None
            found.append((s, key, figure, overrides))
    return found


def battle_result(
    system: str,
    request: Any,
    figures: Sequence[Any],
    rules: Any,
    estimates: tuple[dict[str, float], dict[str, tuple[float, float]], dict[str, dict[int, float]]],
    where: Mapping[str, Any],
    details: Mapping[str, Any] | None = None,
) -> AttackResult:
    """The result of ``simlab battle``: both sides as the rules saw them, ENG-5's metrics and distributions.

    Args:
        system: System id.
        request: The :class:`~simlab.systems.base.BattleRequest`.
        figures: Each figure's resolved template, side a's first.
        rules: The rule parameters.
        estimates: Metrics, intervals and distributions.
        where: The range the sides stand at (``range_band`` or ``range_m``).
        details: Further figures worth showing.
    """
    battle = request.battle

    def side_json(s: int, first: int) -> dict[str, Any]:
        side = battle.sides[s]
        groups, at = [], first
        for group in side.groups:
            groups.append({"name": group.name, "count": group.count, **as_plain(figures[at])})
            at += group.count
        return {
            "name": side.name,
            "tactics": side.tactics,
            "doctrine": as_plain(side.doctrine),
            "formation": as_plain(side.formation),
            "groups": groups,
        }

    metrics, ci, distributions = estimates
    return AttackResult(
        system=system,
        method="monte_carlo",
        trials=request.trials,
        seed=request.seed,
        scenario={"battle": battle.name, **where, "a": side_json(0, 0), "b": side_json(1, battle.sides[0].count)},
        rules=as_plain(rules),
        metrics=metrics,
        ci95=ci,
        distributions=distributions,
        details={"weapon": " vs ".join(side.name for side in battle.sides), **(details or {})},
        variant=request.variant,
    )


def first_turn_targets(battle: Any, side: int) -> list[tuple[int, int]]:
    """(shooter, target) of every figure of ``side`` in the first turn, figures numbered side a's first.

    Only for the deterministic doctrines (ENG-2): ``focus`` and ``weakest`` (nobody is wounded
    yet: the lowest index) and ``spread`` (the k-th figure at the (k mod m)-th enemy).
    """
    counts = [s.count for s in battle.sides]
    mine = range(0, counts[0]) if side == 0 else range(counts[0], counts[0] + counts[1])
    enemies = list(range(counts[0], counts[0] + counts[1])) if side == 0 else list(range(counts[0]))
    spread = battle.sides[side].doctrine.targets == "spread"
    return [(i, enemies[n % len(enemies)] if spread else enemies[0]) for n, i in enumerate(mine)]


def first_turn_distributions(battle: Any, fates: Sequence[Sequence[float]]) -> dict[str, dict[int, float]]:
    """``first_turn_out_a`` and ``_b``: the count out of independent figures, each out with its chance.

    Args:
        battle: The battle.
        fates: Per side, the chance of each of its figures shot at to be out after the first turn.
    """
    result: dict[str, dict[int, float]] = {}
    for s, label in enumerate("ab"):
        dist = np.zeros(battle.sides[s].count + 1)
        dist[0] = 1.0
        for p in fates[s]:  # Poisson-binomial
            dist[1:] = dist[1:] * (1 - p) + dist[:-1] * p
            dist[0] *= 1 - p
        result[f"first_turn_out_{label}"] = {n: float(q) for n, q in enumerate(dist) if q > 0}
    return result


def with_exact_first_turn(
    estimates: tuple[dict[str, float], dict[str, tuple[float, float]], dict[str, dict[int, float]]],
    exact: Mapping[str, dict[int, float]] | None,
) -> tuple[dict[str, float], dict[str, tuple[float, float]], dict[str, dict[int, float]]]:
    """The estimates with the exact first turn beside the sampled one: ``exact_mean_first_turn_out_*``."""
    metrics, ci, distributions = estimates
    for name, dist in (exact or {}).items():
        distributions[f"{name}_exact"] = dist
        value = float(sum(n * p for n, p in dist.items()))
        metrics[f"exact_mean_{name}"] = value
        ci[f"exact_mean_{name}"] = (value, value)  # exact: a point
    return metrics, ci, distributions


#: The widest window of draws one trial of a battle may take.
MAX_WINDOW = 1 << 32


def draw_window(battle: Any, bound: int) -> int:
    """Draws one trial's window holds: the engine's (as a duel's) when ``bound`` fits, else a wider one.

    A trial's draws are the positions of its own window of the cell's stream, so a big battle
    (many figures, many turns) gets a wider window, a power of two, and fewer trials a cell.

    Args:
        battle: The battle (to locate the error).
        bound: The most draws one trial of the battle can take.

    Raises:
        BattleError: When even the widest window is too small.
    """
    if bound < DRAWS_PER_TRIAL_LIMIT:
        return DRAWS_PER_TRIAL_LIMIT
    if bound >= MAX_WINDOW:
        raise battle.error(
            "max_turns", f"a battle this long may need {bound} draws per trial; simlab takes at most {MAX_WINDOW - 1}: "
            "lower max_turns or the figures",
        )  # fmt: skip
    return 1 << bound.bit_length()


def check_trials_in_window(request: Any, window: int) -> None:
    """Refuse more trials than a cell's stream holds at this window (the engine checks its own).

    Raises:
        SimlabError: Naming the most trials this battle may sample.
    """
    most = MAX_TRIALS_PER_CELL * DRAWS_PER_TRIAL_LIMIT // window
    if request.first_trial + request.trials > most:
        raise SimlabError(f"a battle this large samples at most {most} trials a cell (--trials)")


#: Keys of a battle that only some systems read (ENG-1 to ENG-4): key → (the systems, the table it stands in:
#: ``""`` the battle's top, ``side`` a side's own key, else the side's doctrine or formation).
SYSTEM_ONLY_KEYS: dict[str, tuple[tuple[str, ...], str]] = {
    "tactics": (("striker",), "side"),
    "cover": (("striker",), "side"),
    "extra_hits": (("striker",), "doctrine"),
    "suppressors": (("striker",), "doctrine"),
    "go_prone": (("striker",), "doctrine"),
    "same_second": (("tyconian",), ""),
    "range_policy": (("space_v4",), "formation"),
    "spacing_m": (("hitech_tft", "tyconian"), "formation"),
}
#: What each such key is, for the message that refuses it where it is not read.
_WHOSE = {
    "tactics": "the Striker leader's initiative (ENG-4.1); a Tyconian figure's Tactics roll is its group's "
    "tactics input (TYC-2.1)",
    "cover": "a Striker side's cover (ENG-3); elsewhere cover is a group's input: HiTech TFT's dx_mod, "
    "Tyconian's cover_av, Space's sand (SPC-3.2)",
    "extra_hits": "a Striker doctrine (ENG-4.1)",
    "suppressors": "a Striker doctrine (ENG-4.1)",
    "go_prone": "a Striker doctrine (ENG-4.1)",
    "same_second": "a Tyconian reading (ENG-4.2)",
    "range_policy": "Space Combat's (ENG-4.4): only its battles move the range, the other systems' sides hold it "
    "(ENG-3)",
    "spacing_m": "read where distances along the line matter: HiTech TFT's hexes (ENG-4.3) and Tyconian's "
    "danger zone (ENG-4.2)",
}


def reads_key(system: str, key: str) -> bool:
    """Whether ``system``'s battles read ``key`` (every key not in :data:`SYSTEM_ONLY_KEYS` is read by all)."""
    owners = SYSTEM_ONLY_KEYS.get(key)
    return owners is None or system in owners[0]


#: How the shots of one second of a Tyconian battle are resolved (ENG-4.2): in order of d20 + DEX, ties
#: rolled off again (``initiative``) or by place in line, side a first (``initiative_by_line``, the old
#: reading); or landing together at the second's end (``together``: the duel's reading).
SAME_SECOND = ("initiative", "initiative_by_line", "together")


def refuse_unread_rules(system: Any, battle: Any | None, rules: Mapping[str, Any]) -> None:
    """Refuse a rule parameter the system's duels and battles never read, given by the battle or the request.

    A variant's rules are not checked: a variant is for every question of its system.

    Raises:
        SimlabError: Naming the rule and what it is for (located in the battle file when it is there).
    """
    fight = "battles" if battle is not None else "duels"
    for name, what in system.fight_unread_rules.items():
        refused = f"{system.name} {fight} do not read {name}: it is {what}"
        if battle is not None and name in battle.rules:
            raise battle.error(f"rules.{name}", refused)
        if name in rules:
            raise SimlabError(f"--rule {name}: {refused}")


def refuse_unread(battle: Any, system: str) -> None:
    """Refuse the keys a battle gives that ``system`` does not read (they would change nothing here).

    A key left at its default is no change and passes; any other value is refused at its line.

    Raises:
        BattleError: At the first such key, naming what it is and where it is read.
    """
    defaults = {"doctrine": as_plain(Doctrine()), "formation": as_plain(Formation()), "side": SIDE_DEFAULTS}
    for key, (owners, table) in SYSTEM_ONLY_KEYS.items():
        if system in owners:
            continue
        refused = f"{system} battles do not read {key}: it is {_WHOSE[key]}"
        if not table:
            if key in battle.data:
                raise battle.error(key, refused)
            continue
        for s, side in enumerate(battle.sides):
            holder = side if table == "side" else getattr(side, table)
            value = getattr(holder, key)
            if value != defaults[table][key]:
                where = f"{'ab'[s]}.{key}" if table == "side" else f"{'ab'[s]}.{table}.{key}"
                raise battle.error(where, f"{value!r}: {refused}")
