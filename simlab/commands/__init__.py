"""The commands of ``simlab``, by name: each is a click command in a module of this package.

A command's module is imported when the command runs (or its ``--help`` is asked for), so
``simlab --help`` and a quick question load only what they use. Adding a command (``simlab
solve``) is its module and one line here: its name, where it is, and its line in ``simlab --help``.
"""

from __future__ import annotations

__all__ = ["COMMANDS"]

#: Command name → (``module:command``, its line in ``simlab --help``), in the order ``--help`` lists them.
COMMANDS: dict[str, tuple[str, str]] = {
    "attack": ("simlab.commands.ask:attack", "One attack (or other question) of a system."),
    "baseline": ("simlab.commands.experiments:baseline", "Store experiments' results as their baselines."),
    "battle": (
        "simlab.commands.ask:battle",
        "Battles of several figures or ships a side, fought to the end (N against M).",
    ),
    "bench": ("simlab.commands.bench:bench", "Measure the samplers, references and exact engines."),
    "compare": ("simlab.commands.experiments:compare", "Variants against the base rules, cell by cell."),
    "docs": ("simlab.commands.catalogue:docs", "Regenerate docs/systems/ and docs/reference/ from the registries."),
    "duel": ("simlab.commands.ask:duel", "Duels of two figures or ships of a system."),
    "init": ("simlab.commands.init:init", "A new project of house rules: experiments, own tables, baselines and CI."),
    "notebooks": ("simlab.commands.notebooks:notebooks", "Run the notebooks and write back their outputs (--check)."),
    "regress": ("simlab.commands.experiments:regress", "Check experiments against their baselines."),
    "run": ("simlab.commands.experiments:run", "Run experiments into results/<name>/ (the main job)."),
    "sensitivity": (
        "simlab.commands.balance:sensitivity",
        "Rank the inputs and rule parameters that move a metric (Morris, then Sobol).",
    ),
    "serve": ("simlab.commands.serve:serve", "A local web page to ask, see and share answers."),
    "solve": (
        "simlab.commands.balance:solve",
        "Find the value that makes a metric reach a target, or two setups equal.",
    ),
    "systems": ("simlab.commands.catalogue:systems", "The rule systems, their inputs and rule parameters."),
    "tournament": (
        "simlab.commands.balance:tournament",
        "Every option against every other: dominated options, the metagame, strengths.",
    ),
    "tables": ("simlab.commands.catalogue:tables", "The data tables of a system."),
    "tune": (
        "simlab.commands.tune:tune",
        "Propose the changes that balance a game of options, and prove them on fresh dice.",
    ),
}
