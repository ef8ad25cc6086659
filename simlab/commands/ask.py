"""``simlab attack``, ``simlab duel`` and ``simlab battle``: one question of any kind, answered and printed.

The three commands differ only in how their inputs are given (``--set``; ``--a`` and ``--b``; a
battle file and ``--set`` paths); :func:`ask` builds the request of any kind of question
(:func:`simlab.asking.requests.question_request`), answers it and prints it. A further kind of
question of one scenario is asked with ``simlab attack --kind KIND`` and needs nothing here.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from simlab.commands.options import (
    PATH,
    Progress,
    print_json,
    rules_options,
    sampling_options,
    scheduler_option,
    variant_of,
)
from simlab.inputs.limits import DEFAULT_BATTLES, DEFAULT_DUELS, DEFAULT_TRIALS
from simlab.inputs.params import parse_assignments
from simlab.output.console import print_battle, print_result, print_side_by_side
from simlab.systems import SYSTEM_NAMES, get_system, question_of

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
@click.option(
    "--kind",
    default="attack",
    show_default=True,
    help="What to ask: one attack, or one of the system's questions (simlab systems lists them).",
)
@rules_options
@click.option("--exact", is_flag=True, help="Compute exact values instead of sampling.")
@sampling_options("Trials", DEFAULT_TRIALS)
def attack(system: str, sets: tuple[str, ...], kind: str, **options: Any) -> None:
    """Answer one attack question of SYSTEM (or another --kind), exactly (--exact) or by sampling.

    Give one input several values (--set "weapon=gauss rifle" --set "weapon=assault rifle") for the
    options side by side: a column each and the differences from the first (paired when sampled).
    """
    ask(system, kind, _pairs(sets, "--set"), **options)


def _pairs(items: tuple[str, ...], option: str, prefix: str = "") -> list[tuple[str, str]]:
    """``KEY=VALUE`` items as pairs, in order (a key may repeat: options side by side)."""
    return [(f"{prefix}{k}", v) for item in items for k, v in parse_assignments([item], option).items()]


def ask(
    system: str,
    kind: str,
    given: list[tuple[str, Any]],
    *,
    rule_items: tuple[str, ...],
    variant_file: Path | None,
    tables_dir: Path | None,
    as_json: bool,
    trials: int | None,
    exact: bool = False,
    **options: Any,
) -> None:
    """Answer one question of any kind and print it: the one path of ``attack``, ``duel`` and ``battle``.

    ``given`` are the inputs as ``(key, value)`` pairs; one key given several values asks for the
    options side by side (:mod:`simlab.workflow.side_by_side`).
    """
    from simlab.asking.requests import DEFAULT_BY_FORM, question_request
    from simlab.inputs.own_tables import own_tables
    from simlab.inputs.project import project_tables, project_trials
    from simlab.workflow.side_by_side import several_values, side_by_side

    question = question_of(system, kind)
    trials = trials if exact else project_trials(trials)  # --exact with --trials is refused as ever
    n_trials = DEFAULT_BY_FORM[question.form] if trials is None else trials
    flag = {"sides": "--a/--b"}.get(question.form, "--set")
    inputs, varied, values = several_values(given, flag)
    shared = {
        "rules": parse_assignments(rule_items, "--rule"),
        "exact": exact,
        "trials": trials,
        "variant": variant_of(variant_file, system),
        "tables": own_tables(get_system(system).tables(), tables_dir or project_tables(system)),
        **options,
    }
    if varied is not None:
        asked = [question_request(system, kind, inputs={**inputs, varied: v}, **shared) for v in values]
        compared = side_by_side(asked[0][0], [request for _, request in asked], varied, values)
        if as_json:
            print_json(compared.to_json())
        else:
            print_side_by_side(compared)
        return
    progress = Progress(n_trials) if sys.stderr.isatty() and not exact else None
    question, request = question_request(system, kind, inputs=inputs, progress=progress, **shared)
    result = question.answer(request)
    if as_json:
        print_json(result.to_json())
    elif question.input_form.battle:
        print_battle(result)
    else:
        print_result(result)


@click.command(short_help="Duels of two figures or ships of a system.")
@scheduler_option
@click.argument("system")
@click.option("--a", "a_items", multiple=True, metavar="KEY=VALUE", help="Side A's input (or ROW.COLUMN).")
@click.option("--b", "b_items", multiple=True, metavar="KEY=VALUE", help="Side B's input (or ROW.COLUMN).")
@rules_options
@sampling_options("Duels", DEFAULT_DUELS)
def duel(system: str, a_items: tuple[str, ...], b_items: tuple[str, ...], **options: Any) -> None:
    """Sample duels of two figures of SYSTEM (each side's inputs as for attack, plus magazines).

    Give one side's input several values (--a weapon=rifle --a weapon=shotgun) for the options side by side.
    """
    ask(system, "duel", [*_pairs(a_items, "--a", "a."), *_pairs(b_items, "--b", "b.")], **options)


@click.command(short_help="Battles of several figures or ships a side, fought to the end (N against M).")
@scheduler_option
@click.argument("system")
@click.argument("battle_file", metavar="BATTLE.toml", type=PATH)
@click.option(
    "--set",
    "set_items",
    multiple=True,
    metavar="PATH=VALUE",
    help="Change the battle by dotted path: a.count=6, b.doctrine.targets=focus, a.groups.0.weapon=...",
)
@rules_options
@sampling_options("Battles", DEFAULT_BATTLES)
def battle(system: str, battle_file: Path, set_items: tuple[str, ...], **options: Any) -> None:
    """Sample battles of SYSTEM described by BATTLE.toml (sides, groups, doctrine; docs/rules/engagements.md).

    Give one path several values (--set a.count=3 --set a.count=4) for the options side by side.
    """
    ask(system, "battle", _pairs(set_items, "--set"), battle=str(battle_file), **options)
