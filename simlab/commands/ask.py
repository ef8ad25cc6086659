"""``simlab attack``, ``simlab duel`` and ``simlab battle``: one question of any kind, answered and printed.

The three commands differ only in how their inputs are given (``--set``; ``--a`` and ``--b``; a
battle file and ``--set`` paths); :func:`ask` builds the request of any kind of question
(:func:`simlab.inputs.requests.question_request`), answers it and prints it. A further kind of
question of one scenario is asked with ``simlab attack --kind KIND`` and needs nothing here.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from simlab.commands.options import WHOLE, Progress, max_trials_option, print_json, scheduler_option, variant_of
from simlab.inputs.limits import DEFAULT_TRIALS
from simlab.inputs.params import parse_assignments
from simlab.output.console import print_battle, print_result
from simlab.systems import SYSTEM_NAMES, question_of

__all__ = ["attack", "duel", "battle", "ask"]

#: Examples under ``simlab attack --help`` (\b keeps click from rewrapping them).
ATTACK_EXAMPLES = f"""\b
Systems: {", ".join(SYSTEM_NAMES)} (simlab systems lists their inputs).
\b
Examples:
  simlab attack hitech_tft --set "weapon=assault rifle" --set mode=four --exact
  simlab attack striker --set weapon=rifle --set armor=cloth --trials 200000
  simlab attack tyconian --kind explosion --set "explosive=hand grenade" --set distance_m=2 --exact
  simlab attack space_v4 --set weapon=missile --set attacker=frigate --set "defender=patrol cruiser" --exact
"""


@click.command(
    short_help="One attack (or other question) of a system.",
    epilog=ATTACK_EXAMPLES,
)
@scheduler_option
@click.argument("system")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Scenario input (or ROW.COLUMN).")
@click.option("--rule", "rule_items", multiple=True, metavar="KEY=VALUE", help="Rule parameter.")
@click.option(
    "--kind",
    default="attack",
    show_default=True,
    help="What to ask: one attack, or one of the system's questions (simlab systems lists them).",
)
@click.option("--variant", "variant_file", type=click.Path(path_type=Path), help="House-rule variant (TOML).")
@click.option("--exact", is_flag=True, help="Compute exact values instead of sampling.")
@click.option("--trials", type=WHOLE, default=None, help=f"Trials to sample [default: {DEFAULT_TRIALS:,}].")
@click.option("--seed", type=WHOLE, default=0, show_default=True, help="Root seed of the random streams.")
@click.option("--threads", type=WHOLE, default=None, help="Worker threads [default: all CPUs].")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@max_trials_option
def attack(
    system: str,
    sets: tuple[str, ...],
    rule_items: tuple[str, ...],
    kind: str,
    variant_file: Path | None,
    exact: bool,
    trials: int | None,
    seed: int,
    threads: int | None,
    as_json: bool,
    max_trials: int,
) -> None:
    """Answer one attack question of SYSTEM (or another --kind), exactly (--exact) or by sampling."""
    ask(
        system,
        kind,
        parse_assignments(sets, "--set"),
        rule_items,
        variant_file,
        as_json,
        exact=exact,
        trials=trials,
        seed=seed,
        threads=threads,
        max_trials=max_trials,
    )


def ask(
    system: str,
    kind: str,
    inputs: dict[str, Any],
    rule_items: tuple[str, ...],
    variant_file: Path | None,
    as_json: bool,
    *,
    battle: str | None = None,
    exact: bool = False,
    trials: int | None,
    **options: Any,
) -> None:
    """Answer one question of any kind and print it: the one path of ``attack``, ``duel`` and ``battle``."""
    from simlab.inputs.requests import DEFAULT_BY_FORM, question_request

    question = question_of(system, kind)
    n_trials = DEFAULT_BY_FORM[question.form] if trials is None else trials
    question, request = question_request(
        system,
        kind,
        inputs=inputs,
        battle=battle,
        rules=parse_assignments(rule_items, "--rule"),
        exact=exact,
        trials=trials,
        variant=variant_of(variant_file, system),
        progress=Progress(n_trials) if sys.stderr.isatty() and not exact else None,
        **options,
    )
    result = question.answer(request)
    if as_json:
        print_json(result.to_json())
    elif question.form == "battle":
        print_battle(result)
    else:
        print_result(result)


@click.command(short_help="Duels of two figures or ships of a system.")
@scheduler_option
@click.argument("system")
@click.option("--a", "a_items", multiple=True, metavar="KEY=VALUE", help="Side A's input (or ROW.COLUMN).")
@click.option("--b", "b_items", multiple=True, metavar="KEY=VALUE", help="Side B's input (or ROW.COLUMN).")
@click.option("--rule", "rule_items", multiple=True, metavar="KEY=VALUE", help="Rule parameter.")
@click.option("--variant", "variant_file", type=click.Path(path_type=Path), help="House-rule variant (TOML).")
@click.option("--trials", type=WHOLE, default=None, help="Duels to sample [default: 100,000].")
@click.option("--seed", type=WHOLE, default=0, show_default=True, help="Root seed of the random streams.")
@click.option("--threads", type=WHOLE, default=None, help="Worker threads [default: all CPUs].")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@max_trials_option
def duel(
    system: str,
    a_items: tuple[str, ...],
    b_items: tuple[str, ...],
    rule_items: tuple[str, ...],
    variant_file: Path | None,
    trials: int | None,
    seed: int,
    threads: int | None,
    as_json: bool,
    max_trials: int,
) -> None:
    """Sample duels of two figures of SYSTEM (each side's inputs as for attack, plus magazines)."""
    sides = {f"a.{k}": v for k, v in parse_assignments(a_items, "--a").items()}
    sides.update({f"b.{k}": v for k, v in parse_assignments(b_items, "--b").items()})
    ask(system, "duel", sides, rule_items, variant_file, as_json, trials=trials, seed=seed, threads=threads,
         max_trials=max_trials)  # fmt: skip


@click.command(short_help="Battles of several figures or ships a side, fought to the end (N against M).")
@scheduler_option
@click.argument("system")
@click.argument("battle_file", metavar="BATTLE.toml", type=click.Path(path_type=Path))
@click.option(
    "--set",
    "set_items",
    multiple=True,
    metavar="PATH=VALUE",
    help="Change the battle by dotted path: a.count=6, b.doctrine.targets=focus, a.groups.0.weapon=...",
)
@click.option("--rule", "rule_items", multiple=True, metavar="KEY=VALUE", help="Rule parameter.")
@click.option("--variant", "variant_file", type=click.Path(path_type=Path), help="House-rule variant (TOML).")
@click.option("--trials", type=WHOLE, default=None, help="Battles to sample [default: 100,000].")
@click.option("--seed", type=WHOLE, default=0, show_default=True, help="Root seed of the random streams.")
@click.option("--threads", type=WHOLE, default=None, help="Worker threads [default: all CPUs].")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@max_trials_option
def battle(
    system: str,
    battle_file: Path,
    set_items: tuple[str, ...],
    rule_items: tuple[str, ...],
    variant_file: Path | None,
    trials: int | None,
    seed: int,
    threads: int | None,
    as_json: bool,
    max_trials: int,
) -> None:
    """Sample battles of SYSTEM described by BATTLE.toml (sides, groups, doctrine; docs/rules/engagements.md)."""
    ask(
        system,
        "battle",
        parse_assignments(set_items, "--set"),
        rule_items,
        variant_file,
        as_json,
        battle=str(battle_file),
        trials=trials,
        seed=seed,
        threads=threads,
        max_trials=max_trials,
    )
