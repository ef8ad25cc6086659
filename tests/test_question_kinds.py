"""A new kind of question is its module and its registration: every way in serves it unchanged.

The test registers a kind HiTech TFT does not have (``aimed``: one attack with a DX of 13, its
own scenario) in the system's ``questions`` only, and asks it from the command line, the API,
an experiment file, the web page and its JSON, exactly and by sampling.
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from conftest import run_cli

import simlab
import simlab.systems.hitech_tft as hitech_tft
from simlab.inputs.params import as_plain, build, spec_field
from simlab.systems import Question, ScenarioRequest
from simlab.workflow.experiments import load_experiment
from simlab.workflow.runner import run_experiment


@dataclasses.dataclass(frozen=True)
class Aimed:
    """An aimed shot: a weapon against an armour, with the firer's DX fixed at 13."""

    weapon: str = spec_field("assault rifle", doc="row of the weapon table")
    armor: str = spec_field("none", doc="row of the armour table")


def _request(request: ScenarioRequest) -> ScenarioRequest:
    """The attack an aimed shot is: its own inputs checked, DX 13."""
    aimed = build(Aimed, request.scenario, what="scenario input")
    return dataclasses.replace(request, scenario={**as_plain(aimed), "dx": 13})


AIMED = Question(
    kind="aimed",
    title="An aimed shot (DX 13)",
    form="scenario",
    inputs_type=Aimed,
    row_inputs={"weapon": "weapons", "armor": "armor"},
    metrics=hitech_tft.SYSTEM.attack.metrics,
    answer=lambda request: hitech_tft.attack(_request(request)),
    check=lambda request: hitech_tft.resolve_request(_request(request)),
    extra_metrics=hitech_tft.SYSTEM.attack.extra_metrics,
    distributions=hitech_tft.SYSTEM.attack.distributions,
)


@pytest.fixture
def registered(monkeypatch):
    system = dataclasses.replace(hitech_tft.SYSTEM, questions={**hitech_tft.SYSTEM.questions, "aimed": AIMED})
    monkeypatch.setattr(hitech_tft, "SYSTEM", system)
    return system


def test_a_registered_kind_is_served_everywhere(registered, capsys, tmp_path):
    expected = simlab.attack("hitech_tft", weapon="assault rifle", armor="flak jacket", dx=13).metrics
    assert simlab.attack("hitech_tft", kind="aimed", weapon="assault rifle", armor="flak jacket").metrics == expected

    code, out, err = run_cli(capsys, "attack", "hitech_tft", "--kind", "aimed", "--set", "armor=flak jacket",
                             "--exact", "--json")  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["metrics"] == expected

    experiment = tmp_path / "aimed.toml"
    experiment.write_text(
        'name = "aimed"\nsystem = "hitech_tft"\nkind = "aimed"\n[grid]\narmor = ["none", "flak jacket"]\n'
    )
    run = run_experiment(load_experiment(experiment), threads=1)
    assert set(run.table["armor"]) == {"none", "flak jacket"} and set(run.table["method"]) == {"exact"}

    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from simlab.web.app import create_app

    client = TestClient(create_app(max_trials=100_000))
    page = client.get("/aimed/hitech_tft", params={"armor": "flak jacket"})
    assert page.status_code == 200 and "An aimed shot (DX 13)" in page.text and 'name="weapon"' in page.text
    api = client.get("/api/aimed/hitech_tft", params={"armor": "flak jacket", "method": "exact"})
    assert api.status_code == 200 and api.json()["metrics"] == expected
    sampled = client.get("/api/aimed/hitech_tft", params={"method": "monte_carlo", "trials": "2000", "seed": "3"})
    assert sampled.status_code == 200 and sampled.json()["trials"] == 2000
