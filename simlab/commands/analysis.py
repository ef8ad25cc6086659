"""The command of a registered analysis that has no command of its own: ``simlab TABLE SYSTEM --KEY VALUE``.

Its options are the analysis's keys (:class:`~simlab.analyses.base.Key`: a key given several times is
repeated), with the question's ``--kind``, ``--battle``, ``--set``, the rules and the sampling options
of every question; the keys are read by the analysis's own reader, as its experiment's table is.
``simlab solve``, ``sensitivity`` and ``tournament`` keep their own commands (:mod:`simlab.commands.balance`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from simlab.commands.balance import balance_setup, fight_inputs
from simlab.commands.options import PATH, print_json, progress_bar, rules_options, sampling_options, scheduler_option
from simlab.inputs.limits import DEFAULT_TRIALS

__all__ = ["analysis_command"]


def analysis_command(table: str) -> click.Command:
    """The command of the analyses that state the experiment table ``table``, built from their keys."""
    from simlab.analyses import tables

    analyses = tables()[table]
    keys = list({key.name: key for analysis in reversed(analyses) for key in analysis.keys}.values())[::-1]
    first = analyses[0]

    def run(system: str, kind: str | None, battle_file: Path | None, sets: tuple[str, ...], as_json: bool,
            **options: Any) -> None:  # fmt: skip
        texts = {key.name: _texts(options.pop(f"key_{key.name}")) for key in keys}
        _answer(table, system, kind, battle_file, sets, {k: v for k, v in texts.items() if v}, as_json, options)

    summary = " or ".join(analysis.summary for analysis in analyses)
    line = " Or: ".join(analysis.line for analysis in analyses)
    command: Any = run
    command = sampling_options("Trials per question", first.trials or DEFAULT_TRIALS)(command)
    command = click.option("--exact", is_flag=True, help="Exact values instead of sampling (where it is exact).")(
        command
    )
    command = rules_options(command)
    for key in reversed(keys):
        help_text = key.doc.format(metrics="the question's metrics") + (" (repeat)" if key.many else "") + "."
        command = click.option(key.option, f"key_{key.name}", multiple=bool(key.many), metavar=key.metavar,
                               help=help_text[0].upper() + help_text[1:])(command)  # fmt: skip
    command = click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="An input of the question.")(
        command
    )
    command = click.option("--battle", "battle_file", type=PATH, metavar="BATTLE.toml",
                           help="Ask this battle.")(command)  # fmt: skip
    command = click.option("--kind", default=None, help=f"What is asked [default: {first.asks}].")(command)
    command = click.argument("system")(command)
    command = scheduler_option(command)
    return click.command(table, short_help=line,
                         help=f"The {table} of a system's question: {summary}.")(command)  # fmt: skip


def _texts(given: Any) -> list[str]:
    """An option's values as a list (none, one, or each of a repeated option)."""
    if given is None:
        return []
    return [given] if isinstance(given, str) else list(given)


def _answer(
    table: str, system: str, kind: str | None, battle_file: Path | None, sets: tuple[str, ...],
    texts: dict[str, list[str]], as_json: bool, options: dict[str, Any],
) -> None:  # fmt: skip
    """Read the keys as the analysis reads its table, answer its one question, and say it."""
    from simlab.analyses import analysis_for
    from simlab.analyses.base import GivenReader, as_given
    from simlab.inputs.errors import SimlabError
    from simlab.inputs.limits import Limits
    from simlab.output.words import Vocabulary

    keys = {key.name: key for analysis in [analysis_for(table, texts)] for key in analysis.keys}
    given = as_given(list(keys.values()), texts, named=lambda key: key.option)
    analysis = analysis_for(table, given)
    missing = analysis.missing()
    if missing is not None:
        raise SimlabError(f"simlab {table} needs {missing}: pip install {missing}")
    if options["trials"] is None and not options["exact"]:
        options["trials"] = analysis.trials
    asked = kind or ("battle" if battle_file is not None else analysis.asks)  # a battle file asks its battle
    setup = balance_setup(system, asked, battle_file, sets, **options)
    if analysis.own_cells and setup.question.input_form.sided:  # a --set KEY of options fought is both sides'
        setup = setup.with_changes(inputs=fight_inputs(dict(setup.inputs), setup.battle is not None))
    reader = GivenReader(analysis.name, given, setup, named=lambda name: keys[name].option if name in keys else name)
    ask = analysis.read(reader)
    words = Vocabulary(battle=setup.battle)
    with progress_bar(analysis.units(ask, setup), "steps") as advance:

        def counted(note: Any) -> None:  # one unit (a value, a point, a seating) done; a text says how it goes
            if advance is not None:
                advance(1, note if isinstance(note, str) else None)

        result = analysis.answer(setup, ask, Limits(max_trials=options["max_trials"]), counted, words)
    if isinstance(result, str):  # no answer here, said in a sentence
        click.echo(result, err=True)
        sys.exit(1)
    if as_json:
        print_json(analysis.json_of(result))
    else:
        for line in analysis.sentences(result, words):
            click.echo(line)
    if not analysis.succeeded(result):  # said whole above; the status says the question has no answer here
        sys.exit(1)
