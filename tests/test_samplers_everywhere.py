"""Every sampler against its exact values over the whole valid input space, extremes included.

Inputs are drawn from each system's registry (its scenario fields, their valid ranges and the
rows of its tables), often at the ends of the ranges, where fixed-size arrays and histograms
break first. For every question that has an exact engine, a sample at a fixed seed must
agree with it: each metric inside a wide interval (z = 4.5, so that the many comparisons of
the run raise no false alarm), and no sampled outcome where the exact distribution has none.
"""

from __future__ import annotations

import math
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from simlab.inputs.errors import SimlabError
from simlab.inputs.params import field_specs
from simlab.systems import Question, ScenarioRequest, System, all_systems

TRIALS = 20_000
Z = 4.5
#: Each question's inputs that should stay near their defaults (they multiply the work).
KEEP = {"days", "exchanges", "first_aid_attempts"}


def questions() -> list[tuple[System, str]]:
    found = []
    for system in all_systems():
        for kind, asked in system.questions.items():
            if asked.form != "scenario":
                continue
            if not asked.sampled_only:
                found.append((system, kind))
    return found


def value_strategy(system: System, asked: Question, name: str) -> st.SearchStrategy[Any] | None:
    spec = field_specs(asked.inputs_type)[name]
    if name in asked.row_inputs:
        rows = list(system.tables()[asked.row_inputs[name]].rows)
        return st.sampled_from(rows)
    if spec.kind == "bool":
        return st.booleans()
    if spec.kind == "str":
        return st.sampled_from(spec.choices) if spec.choices else None
    if spec.kind in ("int", "int?") and name not in KEEP:
        return number_strategy(spec)
    if spec.kind == "float" and name not in KEEP:
        low, high = spec.bounds
        return st.one_of(st.sampled_from([low, float(spec.default or low)]), st.floats(low, min(high, 200.0)))
    return None


def number_strategy(spec: Any) -> st.SearchStrategy[Any] | None:
    """Values of a numeric field: its default, the ends of its range, small and any values in it."""
    if spec.kind in ("int", "int?"):
        low, high = (int(b) for b in spec.bounds)
        near = [v for v in (spec.default, low, high) if isinstance(v, int)]
        return st.one_of(st.sampled_from(near), st.integers(low, min(high, low + 40)), st.integers(low, high))
    return None


def inputs_strategy(system: System, kind: str) -> st.SearchStrategy[dict[str, Any]]:
    """Scenario inputs, ``ROW.COLUMN`` overrides of numeric columns and rule parameters (``rule.NAME``).

    A row input without a default row (``weapon``) is always drawn; column overrides are kept
    only beside their row.
    """
    asked = system.questions[kind]
    specs = field_specs(asked.inputs_type)
    fields = {}
    for name, spec in specs.items():
        strategy = value_strategy(system, asked, name)
        if strategy is not None:
            always = name in asked.row_inputs and spec.default == ""
            fields[name] = strategy if always else st.one_of(st.none(), strategy)
    for row_input, table in asked.row_inputs.items():
        if row_input not in specs:
            continue
        for column, spec in field_specs(system.tables()[table].row_type).items():
            strategy = number_strategy(spec)
            if strategy is not None:
                fields[f"{row_input}.{column}"] = st.one_of(st.none(), st.none(), st.none(), strategy)
    for name, spec in field_specs(system.rules_type).items():
        strategy = number_strategy(spec)
        if strategy is not None and name != "max_turns":
            fields[f"rule.{name}"] = st.one_of(st.none(), st.none(), st.none(), st.none(), strategy)

    def present(drawn: dict[str, Any]) -> dict[str, Any]:
        kept = {k: v for k, v in drawn.items() if v is not None}
        return {k: v for k, v in kept.items() if "." not in k or k.startswith("rule.") or k.split(".")[0] in kept}

    return st.fixed_dictionaries(fields).map(present)


def answer(asked: Question, inputs: dict[str, Any], method: str) -> Any:
    rules = {k.removeprefix("rule."): v for k, v in inputs.items() if k.startswith("rule.")}
    scenario, rows = asked.split_inputs({k: v for k, v in inputs.items() if not k.startswith("rule.")})
    request = ScenarioRequest(
        scenario=scenario, rules=rules, row_overrides=rows, method=method, trials=TRIALS, seed=11, threads=1
    )
    return asked.answer(request)


def check_against_exact(asked: Question, inputs: dict[str, Any]) -> None:
    try:
        exact = answer(asked, inputs, "exact")
    except SimlabError:
        assume(False)
        return
    sampled = answer(asked, inputs, "monte_carlo")
    assert set(exact.distributions) | set(sampled.distributions) <= set(asked.distributions), "undeclared"
    for name, value in exact.metrics.items():
        if name not in sampled.ci95 or not math.isfinite(value):
            continue
        estimate = sampled.metrics[name]
        low, high = sampled.ci95[name]
        half = max((high - low) / 2, 0.0) * Z / 1.96
        slack = max(half, 1e-9 * max(1.0, abs(value)), 3 / TRIALS * max(1.0, abs(value)))
        assert abs(estimate - value) <= slack, (name, value, estimate, (low, high), inputs)
    for name, distribution in sampled.distributions.items():
        if name not in exact.distributions:
            continue
        impossible = {k: p for k, p in distribution.items() if p > 0 and exact.distributions[name].get(k, 0.0) == 0.0}
        assert not impossible, (name, impossible, inputs)


@pytest.mark.slow
@pytest.mark.parametrize(("system", "kind"), questions(), ids=lambda v: v.name if isinstance(v, System) else v)
def test_sampler_agrees_with_exact_across_the_input_space(system, kind):
    asked = system.questions[kind]

    @settings(
        max_examples=int(os.environ.get("SIMLAB_PROPERTY_EXAMPLES", "40")),
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
    )
    @given(inputs=inputs_strategy(system, kind))
    def check(inputs: dict[str, Any]) -> None:
        check_against_exact(asked, inputs)

    check()


@pytest.mark.parametrize(
    "inputs",
    [
        {"weapon": "assault rifle", "mode": "full", "dx": 99},
        {"weapon": "assault rifle", "mode": "full", "dx": 57},
        {"weapon": "submachinegun", "mode": "full", "dx": 99, "weapon.dice": 100},
        {"weapon": "assault rifle", "mode": "half", "dx": 99},
        {"weapon": "heavy MG", "mode": "burst", "dx": 99},
    ],
    ids=["full-dx99", "full-dx57", "smg-dx99-dice100", "half-dx99", "belt-dx99"],
)
def test_tft_full_clip_autofire_at_the_largest_dx_and_step_1(inputs):
    """TFT-3.3 at its extremes: autofire_step 1 and DX 99 score more hits than there are 3d6 totals."""
    from simlab.api import attack

    keywords = {k.replace(".", "__"): v for k, v in inputs.items()}
    rules = {"autofire_step": 1}
    exact = attack("hitech_tft", method="exact", rules=rules, **keywords)
    sampled = attack("hitech_tft", method="monte_carlo", trials=200_000, seed=3, rules=rules, threads=2, **keywords)
    if inputs["mode"] == "full":
        assert max(int(h) for h in exact.distributions["hits"]) > 18
    for name, value in exact.metrics.items():
        low, high = sampled.ci95[name]
        assert low - 1e-12 <= value <= high + 1e-12, (name, value, low, high)


@pytest.mark.parametrize(
    ("system", "a", "b"),
    [
        ("striker", {"weapon": "rifle"}, {"weapon": "submachinegun"}),
        ("tyconian", {"weapon": "autopistol"}, {"weapon": "revolver"}),
        ("space_v4", {"ship": "scout"}, {"ship": "free trader"}),
    ],
)
def test_duels_have_only_declared_distributions(system, a, b):
    from simlab.api import duel
    from simlab.systems import get_system

    result = duel(system, a=a, b=b, trials=500)
    assert result.distributions and set(result.distributions) <= set(get_system(system).questions["duel"].distributions)
