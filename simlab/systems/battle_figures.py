"""The figures of a battle from its groups (ENG-1): each group's template and row overrides, and the rules in force."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from simlab.inputs.battles import Battle, blame
from simlab.inputs.errors import SimlabError
from simlab.inputs.params import build

__all__ = ["rule_values", "group_inputs", "group_templates"]


def rule_values(battle: Battle, rules: Mapping[str, Any], default_max_turns: int) -> dict[str, Any]:
    """The rule parameters of a battle: ``max_turns`` (ENG-2), the battle's ``[rules]``, then the request's."""
    values = {"max_turns": default_max_turns, **battle.rules}
    if battle.max_turns is not None:
        values["max_turns"] = battle.max_turns
    return {**values, **rules}


def group_inputs(
    battle: Battle, key: str, inputs: Mapping[str, Any], rows: Sequence[str]
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
    battle: Battle,
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
