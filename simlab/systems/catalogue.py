"""What every system offers, as plain data: ``simlab systems --json`` and the generated docs share it.

One description per system from the registry: its scenario inputs and rule parameters
(name, type, default, valid range, meaning), tables, metrics, distributions, duel side and
further questions.
"""

from __future__ import annotations

from typing import Any

from simlab.inputs.params import describe
from simlab.systems.base import System

__all__ = ["describe_system", "describe_question"]


def describe_system(system: System) -> dict[str, Any]:
    """Everything the registry knows of one system."""
    return {
        "name": system.name,
        "title": system.title,
        "spec": system.spec,
        "scenario": describe(system.scenario_type),
        "rules": describe(system.rules_type),
        "tables": list(system.tables()),
        "metrics": dict(system.metrics),
        "distributions": dict(system.distributions),
        **({"duel_side": describe(system.duel_side_type)} if system.duel_side_type is not None else {}),
        **(
            {"questions": {name: describe_question(q) for name, q in system.questions.items()}}
            if system.questions
            else {}
        ),
    }


def describe_question(question: System) -> dict[str, Any]:
    """The description of one of a system's further questions."""
    return {
        "title": question.title,
        "spec": question.spec,
        "scenario": describe(question.scenario_type),
        "metrics": dict(question.metrics),
        "distributions": dict(question.distributions),
        "sampled_only": question.sampled_only,
    }
