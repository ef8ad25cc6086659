"""``simlab solve`` and ``simlab sensitivity``: the balance questions, from the command line.

Both ask one question of a system (an attack, a duel, a battle or a further question) as
``simlab attack``, ``duel`` and ``battle`` do, with the same ``--set``, ``--rule``, ``--variant``,
``--tables`` and sampling options; :mod:`simlab.balance` does the work.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from simlab.balance.matchup import MATCHUP_TRIALS
from simlab.balance.sensitivity import DEFAULT_BASE, DEFAULT_TRAJECTORIES, SENSITIVITY_TRIALS
from simlab.balance.tournament import TOURNAMENT_TRIALS
from simlab.commands.options import (
    PATH,
    WHOLE,
    print_json,
    progress_bar,
    rules_options,
    sampling_options,
    scheduler_option,
    variant_of,
)
from simlab.inputs.limits import DEFAULT_TRIALS

__all__ = ["solve", "sensitivity", "tournament", "balance_setup"]

SOLVE_EXAMPLES = """\b
Examples:
  simlab solve hitech_tft --set "weapon=assault rifle" --set "armor=flak jacket" --set range_m=20 \\
      --find dx --target "p_hit=0.75" --in 6..20 --exact
  simlab solve striker --battle experiments/battles/striker_fireteam.toml --find a.count \\
      --target "p_a_wins=0.75" --in 1..8
  simlab solve striker --set weapon=rifle --set range_band=long --find hit_target --target p_hit=0.5 --in 4..12 --exact
  simlab solve hitech_tft --set "armor=flak jacket" --set range_m=40 --find weapon.dice --equal mean_damage \\
      --a "weapon=assault rifle" --b "weapon=gauss rifle" --in 1..12 --exact
"""


def balance_setup(
    system: str,
    kind: str,
    battle_file: Path | None,
    sets: tuple[str, ...],
    *,
    rule_items: tuple[str, ...],
    variant_file: Path | None,
    tables_dir: Path | None,
    exact: bool,
    trials: int | None,
    seed: int,
    threads: int | None,
    max_trials: int,
) -> Any:
    """The :class:`~simlab.balance.setup.Setup` the options describe (``--battle`` asks a battle)."""
    from simlab.balance.setup import Setup
    from simlab.inputs.battles import load_battle
    from simlab.inputs.own_tables import own_tables
    from simlab.inputs.params import parse_assignments
    from simlab.inputs.project import project_tables
    from simlab.systems import get_system

    chosen = get_system(system)
    if battle_file is not None and kind not in ("attack", "battle"):
        raise click.UsageError(f"--battle asks a battle: leave out --kind {kind}")
    asked = "battle" if battle_file is not None else kind
    return Setup(
        system=chosen.name,
        kind=asked,
        inputs=parse_assignments(sets, "--set"),
        rules=parse_assignments(rule_items, "--rule"),
        battle=load_battle(battle_file) if battle_file is not None else None,
        variant=variant_of(variant_file, system),
        tables=own_tables(chosen.tables(), tables_dir or project_tables(chosen.name)),
        exact=exact,
        trials=trials,
        seed=seed,
        threads=threads,
        max_trials=max_trials,
    )


def _words(setup: Any) -> Any:
    from simlab.output.words import Vocabulary

    return Vocabulary(battle=setup.battle)


@click.command(
    short_help="Find the value that makes a metric reach a target, or two setups equal.", epilog=SOLVE_EXAMPLES
)
@scheduler_option
@click.argument("system")
@click.option("--kind", default="attack", show_default=True, help="What is asked: attack, duel, battle or a question.")
@click.option(
    "--battle", "battle_file", type=PATH, metavar="BATTLE.toml", help="Ask this battle."
)
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Input (ROW.COLUMN, a.KEY, a battle's path).")
@click.option(
    "--find", "find", required=True, metavar="NAME", help="The unknown: an input, rule parameter or ROW.COLUMN."
)
@click.option("--in", "within", required=True, metavar="LOW..HIGH", help="Its range: 6..20, or 0.5..3 for a real one.")
@click.option("--target", metavar="METRIC=VALUE", help="The value the metric must reach.")
@click.option("--equal", metavar="METRIC", help="Make this metric of setup A (with the unknown) equal to B's.")
@click.option("--a", "a_items", multiple=True, metavar="KEY=VALUE", help="With --equal: setup A's own inputs.")
@click.option("--b", "b_items", multiple=True, metavar="KEY=VALUE", help="With --equal: setup B's own inputs.")
@click.option("--tol", "tol", metavar="PRECISION",
              help="A real unknown's precision, in its units: the answer's bracket is no wider "
                   "[default: a millionth of the range when exact, a thousandth when sampled].")  # fmt: skip
@rules_options
@click.option("--exact", is_flag=True, help="Exact values instead of sampling (where the engine is exact).")
@sampling_options("Trials per value", DEFAULT_TRIALS)
def solve(
    system: str,
    kind: str,
    battle_file: Path | None,
    sets: tuple[str, ...],
    find: str,
    within: str,
    target: str | None,
    equal: str | None,
    a_items: tuple[str, ...],
    b_items: tuple[str, ...],
    tol: str | None,
    as_json: bool,
    **options: Any,
) -> None:
    """Find the value of an input, rule parameter or table column (--find) over a range (--in).

    The value at which a metric reaches a target (--target METRIC=VALUE), or at which setup A's metric
    equals setup B's (--equal METRIC, with --a and --b).

    Sampled values are all asked on the same random streams (common random numbers), and the answer
    comes with a 95 % interval. Every crossing over the range is given; none: one line, exit status 1.
    """
    from simlab.balance.solve import Goal, NoCrossingError, parse_target
    from simlab.balance.solve import solve as solve_for
    from simlab.balance.unknowns import check_unknown, find_unknown
    from simlab.inputs.limits import Limits
    from simlab.inputs.params import parse_assignments
    from simlab.output.balance_sentences import solution_sentences
    from simlab.output.words import Vocabulary

    if (target is None) == (equal is None):
        raise click.UsageError("give one of --target METRIC=VALUE and --equal METRIC")
    if (a_items or b_items) and equal is None:
        raise click.UsageError("--a and --b are the two setups of --equal")
    setup = balance_setup(system, kind, battle_file, sets, **options)
    unknown = find_unknown(setup.owner, setup.question, find, within, tol)
    words = _words(setup)
    if equal is not None:
        a_inputs, b_inputs = parse_assignments(a_items, "--a"), parse_assignments(b_items, "--b")
        mine = setup.with_changes(inputs={**setup.inputs, **a_inputs})
        other = setup.with_changes(inputs={**setup.inputs, **b_inputs})
        goal = Goal(equal, None, other, _named(words, a_inputs, "A"), _named(words, b_inputs, "B"))
    else:
        metric, value = parse_target(target or "")
        mine, goal = setup, Goal(metric, value)
    check_unknown(mine, unknown)  # the setup the unknown is set in (A's, when made equal)
    shown = _Tried(unknown, goal.metric) if sys.stderr.isatty() and not as_json else None
    try:
        solution = solve_for(mine, unknown, goal, limits=Limits(max_trials=options["max_trials"]), tried=shown)
    except NoCrossingError as none:
        click.echo(f"no crossing: {none}", err=True)
        sys.exit(1)
    if as_json:
        print_json(solution.to_json())
        return
    for line in solution_sentences(solution, words):
        click.echo(line)
    click.echo("")
    click.echo(_tried_table(solution, Vocabulary(battle=setup.battle)))


def _named(words: Any, inputs: dict[str, Any], letter: str) -> str:
    """A setup named by its own inputs in words ("assault rifle"), else its letter."""
    return words.held(inputs) if inputs else letter


class _Tried:
    """Each value as it is tried, one line on a terminal's stderr (a sampled search takes a while)."""

    def __init__(self, unknown: Any, metric: str) -> None:
        self.unknown, self.metric = unknown, metric

    def __call__(self, point: Any) -> None:
        from simlab.output.balance_sentences import said

        click.echo(f"  {self.unknown.name} {self.unknown.shown(point.x)}: {self.metric} {said(point)}", err=True)


def _tried_table(solution: Any, words: Any) -> str:
    """Every value tried, in order: the metric (and the gap to the goal)."""
    from simlab.output.balance_sentences import said

    unknown = solution.unknown
    header = f"{unknown.name:>14}  {solution.goal.metric}"
    lines = [header]
    answers = {c.after.x for c in solution.crossings}
    for point in solution.tried:
        mark = "  <- reached" if point.x in answers else ""
        gap = f"  gap {said(point, gap=True)}" if solution.goal.equal else ""
        lines.append(f"{unknown.shown_to(point.x, solution.precision):>14}  {said(point)}{gap}{mark}")
    return "\n".join(lines)


SENSITIVITY_EXAMPLES = """\b
Examples:
  simlab sensitivity striker --set weapon=rifle --vary skill=0..4 --vary range_band=short,medium,long \\
      --vary cover=none,partial,full --metric p_hit --exact
  simlab sensitivity striker --battle experiments/battles/striker_fireteam.toml --metric p_a_wins \\
      --vary a.count=2..6 --vary a.groups.0.skill=0..3 --vary b.suppressors=0..2 --trials 2000
"""


@click.command(short_help="Rank the inputs and rule parameters that move a metric (Morris, then Sobol).",
               epilog=SENSITIVITY_EXAMPLES)  # fmt: skip
@scheduler_option
@click.argument("system")
@click.option("--kind", default="attack", show_default=True, help="What is asked: attack, duel, battle or a question.")
@click.option("--battle", "battle_file", type=PATH, metavar="BATTLE.toml", help="Ask a battle.")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Input held at a value (as for simlab attack).")
@click.option("--vary", "factors", multiple=True, required=True, metavar="NAME=LOW..HIGH|A,B,C",
              help="A knob and its range or values: an input, rule parameter or ROW.COLUMN (repeat).")  # fmt: skip
@click.option("--metric", required=True, help="The metric whose variance is shared out.")
@click.option("--trajectories", type=WHOLE, default=DEFAULT_TRAJECTORIES, show_default=True,
              help="Morris trajectories (the screening).")  # fmt: skip
@click.option("--base", type=WHOLE, default=DEFAULT_BASE, show_default=True,
              help="Sobol base points, a power of 2 (the shares).")  # fmt: skip
@click.option("--chart", "chart_file", type=PATH, metavar="FILE.png", help="Draw the ranking.")
@rules_options
@click.option("--exact", is_flag=True, help="Exact values instead of sampling (where the engine is exact).")
@sampling_options("Trials per point", SENSITIVITY_TRIALS)
def sensitivity(
    system: str,
    kind: str,
    battle_file: Path | None,
    sets: tuple[str, ...],
    factors: tuple[str, ...],
    metric: str,
    trajectories: int,
    base: int,
    chart_file: Path | None,
    as_json: bool,
    **options: Any,
) -> None:
    """Rank what moves a metric over knobs with ranges (--vary): Morris screening, then Sobol shares.

    Each knob is spread evenly over its range; the points are asked on the same random streams when
    sampled.
    """
    from simlab.balance.sensitivity import check_sensitivity, parse_factor
    from simlab.balance.sensitivity import sensitivity as rank
    from simlab.inputs.limits import Limits
    from simlab.output.balance_sentences import sensitivity_sentences

    if options["trials"] is None and not options["exact"]:
        options["trials"] = SENSITIVITY_TRIALS
    setup = balance_setup(system, kind, battle_file, sets, **options)
    knobs = [parse_factor(setup, text) for text in factors]
    limits = Limits(max_trials=options["max_trials"])
    needed = check_sensitivity(setup, metric, knobs, trajectories=trajectories, base=base, limits=limits)
    each = "exact" if setup.exact else f"{setup.trials_each:,} trials each"
    click.echo(f"sensitivity: up to {needed:,} points ({each})", err=True)  # said once it can run
    with progress_bar(needed, "points") as advance:
        ranked = rank(setup, metric, knobs, trajectories=trajectories, base=base, limits=limits, progress=advance)
    if chart_file is not None:
        from simlab.output.atomic import staged_file
        from simlab.output.balance_report import shares_chart
        from simlab.output.plots import speaking

        with speaking(_words(setup)), staged_file(chart_file) as staged:
            shares_chart(ranked).savefig(staged, format="png")
    if as_json:
        print_json(ranked.to_json())
        return
    for line in sensitivity_sentences(ranked, _words(setup)):
        click.echo(line)
    click.echo("")
    click.echo(ranked.frame().to_string(index=False, float_format=lambda v: f"{v:.3f}"))


TOURNAMENT_EXAMPLES = """\b
Examples:
  simlab tournament space_v4 --every ship --trials 2000
  simlab tournament striker --battle experiments/battles/striker_fireteam.toml \\
      --option "rifles: groups.0.weapon=rifle;groups.0.mode=single;groups.0.count=3" \\
      --option "machineguns: groups.0.weapon=light machinegun;groups.0.mode=half_clip;groups.0.count=3"
  simlab tournament striker --option weapon=rifle --option weapon=submachinegun --option "weapon=light machinegun" \\
      --set range_band=medium --trials 4000
  simlab tournament striker --option weapon=rifle --option "weapon=laser carbine" --option weapon=shotgun \\
      --against armor --metric p_incapacitated --set range_band=medium --exact
"""


@click.command(short_help="Every option against every other: dominated options, the metagame, strengths.",
               epilog=TOURNAMENT_EXAMPLES)  # fmt: skip
@scheduler_option
@click.argument("system")
@click.option("--option", "option_items", multiple=True, metavar="[NAME:]KEY=VALUE[;KEY=VALUE]",
              help="One option: a side's inputs, or an attack's, named NAME (repeat for each option).")  # fmt: skip
@click.option("--every", "every", metavar="INPUT", help="Every row of the table INPUT names as an option (ship).")
@click.option("--battle", "battle_file", type=PATH, metavar="BATTLE.toml",
              help="Fight this battle: each option's paths in a side (groups.0.weapon=...) on both sides.")  # fmt: skip
@click.option("--against", "against", metavar="INPUT",
              help="Score the options as attacks against every row of the table INPUT names (armor).")  # fmt: skip
@click.option("--defender", "defender_items", multiple=True, metavar="[NAME:]KEY=VALUE[;KEY=VALUE]",
              help="Score the options as attacks against this defender (repeat).")  # fmt: skip
@click.option("--metric", help="What the attacks are scored by, higher better for the attacker (with defenders).")
@click.option("--kind", default="attack", show_default=True, help="What each attack asks (with defenders).")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE",
              help="An input of both sides (range_band=...), or of one (a.armor=...).")  # fmt: skip
@rules_options
@click.option("--exact", is_flag=True, help="Exact values (attacks against defenders, where the engine is exact).")
@sampling_options(f"Duels per seating (attacks against defenders: {MATCHUP_TRIALS:,} per cell)", TOURNAMENT_TRIALS)
def tournament(
    system: str,
    option_items: tuple[str, ...],
    every: str | None,
    battle_file: Path | None,
    against: str | None,
    defender_items: tuple[str, ...],
    metric: str | None,
    kind: str,
    sets: tuple[str, ...],
    as_json: bool,
    **options: Any,
) -> None:
    """Fight every option against every other as duels on the same random streams (both seatings).

    Gives the score matrix (the chance to win, draws half, with 95 % intervals), the options some
    other beats everywhere (dominated), the equilibrium mix of the metagame and how stable it is
    under the sampling error, and each option's Bradley-Terry strength and worth against its price.

    With defenders (--against INPUT or --defender), the options are attacks scored by --metric
    against each defender instead: the matrix, the attacks another beats against every defender,
    and the attacker's and the defender's best mixes.
    """
    from simlab.balance.options import every_row, parse_options

    if (every is None) == (not option_items):
        raise click.UsageError("give two options or more (--option, repeated) or --every INPUT, not both")
    defended = against is not None or bool(defender_items)
    if not defended:
        for given, name in ((metric, "--metric"), (options["exact"], "--exact"), (kind != "attack", "--kind")):
            if given:
                raise click.UsageError(f"{name} belongs to attacks against defenders (--against or --defender)")
    if options["trials"] is None and not options["exact"]:
        options["trials"] = MATCHUP_TRIALS if defended else TOURNAMENT_TRIALS
    asked = kind if defended else "battle" if battle_file is not None else "duel"
    setup = balance_setup(system, asked, battle_file, sets if defended else (), **options)
    if not defended:
        from simlab.inputs.params import parse_assignments

        setup = setup.with_changes(inputs=fight_inputs(parse_assignments(sets, "--set"), battle_file is not None))
    chosen, names = every_row(setup, every, "--every") if every is not None else parse_options(option_items, "--option")
    if defended:
        _matchup(setup, chosen, names, against, defender_items, metric, as_json)
        return
    _fight(setup, chosen, names, every or "option", as_json)


#: A battle's own keys: a --set of one is the battle's, not each side's.
_BATTLE_KEYS = ("range_band", "range_m", "max_turns")


def fight_inputs(shared: dict[str, Any], battle: bool) -> dict[str, Any]:
    """A tournament's --set as the fights take it.

    ``KEY`` goes to both sides (``a.KEY`` and ``b.KEY``), ``a.KEY`` or ``b.KEY`` to that side alone,
    and a battle's own keys (range, turns) to the battle.
    """
    inputs: dict[str, Any] = {}
    for key, value in shared.items():
        if key.startswith(("a.", "b.")) or (battle and key in _BATTLE_KEYS):
            inputs[key] = value
        else:
            inputs.update({f"a.{key}": value, f"b.{key}": value})
    return inputs


def _fight(setup: Any, chosen: list[dict[str, Any]], names: list[str], noun: str, as_json: bool) -> None:
    """Fight the tournament and say it."""
    from simlab.balance.tournament import tournament as fight
    from simlab.inputs.limits import Limits
    from simlab.output.balance_sentences import tournament_sentences

    with progress_bar(len(chosen) * (len(chosen) - 1), "seatings") as advance:
        result = fight(setup, chosen, names, limits=Limits(max_trials=setup.max_trials), progress=advance, noun=noun)
    if as_json:
        print_json(result.to_json())
        return
    for line in tournament_sentences(result):
        click.echo(line)


def _matchup(
    setup: Any, chosen: list[dict[str, Any]], names: list[str], against: str | None,
    defender_items: tuple[str, ...], metric: str | None, as_json: bool,
) -> None:  # fmt: skip
    """Score the attacks against the defenders and say it."""
    from simlab.balance.matchup import matchup
    from simlab.balance.options import every_row, parse_options
    from simlab.inputs.limits import Limits
    from simlab.output.balance_sentences import matchup_sentences

    if against is not None and defender_items:
        raise click.UsageError("give the defenders as --against INPUT or as --defender, not both")
    if metric is None:
        raise click.UsageError("attacks against defenders need --metric: what the attacker wants high (p_hit)")
    defenders, defender_names = (
        every_row(setup, against, "--against") if against is not None else parse_options(defender_items, "--defender")
    )
    with progress_bar(len(chosen) * len(defenders), "cells") as advance:
        result = matchup(setup, chosen, defenders, metric, names, defender_names,
                         limits=Limits(max_trials=setup.max_trials), progress=advance)  # fmt: skip
    if as_json:
        print_json(result.to_json())
        return
    for line in matchup_sentences(result, _words(setup)):
        click.echo(line)
