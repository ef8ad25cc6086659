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
