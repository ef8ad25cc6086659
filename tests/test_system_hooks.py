"""Each system owns what is known of it: every system supplies every hook the front ends and tools loop over."""

from __future__ import annotations

import pytest

from simlab.systems import all_systems
from simlab.workflow.bench import all_workloads


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.name)
def test_every_system_supplies_its_benchmark_workloads(system):
    found = list(system.workloads())
    assert found, f"{system.name} has no benchmark workload (simlab/systems/{system.name}/bench.py)"
    assert {w.system for w in found} == {system.name}
    assert len({w.name for w in all_workloads()}) == len(all_workloads())  # names unique across systems


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.name)
def test_every_system_supplies_a_typical_attack_that_answers_exactly(system):
    import simlab

    assert system.example, f"{system.name} has no typical attack (System.example)"
    result = simlab.attack(system.name, method="exact", **system.example)
    assert result.method == "exact" and result.metrics


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.name)
def test_every_system_supplies_the_words_of_what_it_reports(system):
    """Its own words (simlab/data/SYSTEM/words.toml) and the shared ones name every metric and input."""
    import dataclasses
    from importlib import resources

    from simlab.output.words import registry

    assert resources.files(f"simlab.data.{system.name}").joinpath("words.toml").is_file()
    words = registry()
    numbered = {key.removesuffix("{k}") for key in (*words["metrics"], *words["inputs"]) if key.endswith("{k}")}
    inputs = {f.name for q in system.questions.values() for f in dataclasses.fields(q.inputs_type)}
    named = {*words["metrics"], *words["inputs"], *numbered}
    unnamed = [name for name in sorted({*system.metric_docs, *inputs}) if name.rstrip("0123456789") not in named]
    assert not unnamed, f"{system.name}: no words for {unnamed}"


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.name)
def test_every_system_registers_the_twins_of_its_kernels(system):
    """Each compiled kernel of its package has a plain twin (simlab/engine/interpreted.py)."""
    import importlib
    import pkgutil

    from simlab.engine.interpreted import TWINS

    package = importlib.import_module(f"simlab.systems.{system.name}")
    for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
        importlib.import_module(module.name)
    assert any(name.startswith(f"simlab.systems.{system.name}.") for name in TWINS)


@pytest.mark.parametrize("system", [s for s in all_systems() if s.asks("battle")], ids=lambda s: s.name)
def test_every_system_with_battles_names_the_battle_keys_only_it_reads(system):
    """A battle key one system reads and another does not is refused there by its owner's words (ENG-1)."""
    for key, (where, what) in system.battle_keys.items():
        assert where in ("", "side", "doctrine", "formation") and what, (system.name, key)
