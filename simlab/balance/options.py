"""The options of a tournament or a matchup: written ``[NAME:] KEY=VALUE;...``, or every row of a table.

Also what both check and say of them: the cap on their number, and who dominates whom as JSON.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from simlab.balance.setup import Setup
from simlab.inputs.errors import SimlabError, shortened

__all__ = [
    "dominated_json",
    "every_row",
    "parse_options",
]


def every_row(setup: Setup, every: str, where: str = "every") -> tuple[list[dict[str, Any]], list[str]]:
    """Each row of the table the input ``every`` names as an option (``[{"ship": "scout"}, ...]``), and their names.

    Raises:
        SimlabError: For an input that names no table's row, with those that do (``where`` names the
            option or field that gave it).
    """
    question = setup.question
    if every not in question.row_inputs:
        named = ", ".join(question.row_inputs) or "none"
        raise SimlabError(f"{where} {shortened(every)!r}: expected an input naming a table row ({named})")
    names = [row.name for row in setup.owner.tables()[question.row_inputs[every]]]
    return [{every: name} for name in names], names


def parse_options(items: Sequence[str], where: str) -> tuple[list[dict[str, Any]], list[str]]:
    """Options written ``KEY=VALUE;KEY=VALUE``, or ``NAME: KEY=VALUE;...``, and their names.

    An option without a name is named by its values joined by " + " (``rifle + cloth``).

    Raises:
        SimlabError: For an item that is not ``KEY=VALUE`` pairs (``where`` names the option or field).
    """
    from simlab.inputs.params import parse_assignments

    chosen, names = [], []
    for item in items:
        name, colon, rest = item.partition(":")
        named = bool(colon) and "=" not in name and name.strip() != ""
        option = dict(parse_assignments((rest if named else item).split(";"), where))
        chosen.append(option)
        names.append(name.strip() if named else " + ".join(str(v) for v in option.values()))
    return chosen, names


def dominated_json(names: Sequence[str], pairs: Sequence[tuple[int, int]]) -> list[dict[str, Any]]:
    """Each dominated option with every option that dominates it: ``{"option": ..., "by": [...]}``."""
    by: dict[int, list[str]] = {}
    for k, i in pairs:
        by.setdefault(k, []).append(names[i])
    return [{"option": names[k], "by": by[k]} for k in sorted(by)]
