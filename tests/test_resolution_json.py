"""``--json`` carries what the text output shows about how an attack was resolved."""

import json

import pytest
from conftest import run_cli

CASES = [
    (["hitech_tft", "--set", "weapon=med rifle", "--set", "range_m=51"], "adj_dx_terms", {"range": -5}),
    (["striker", "--set", "weapon=rifle", "--set", "snapshot=true"], "to_hit_terms", {"snapshot": -2}),
    (["tyconian", "--set", "weapon=battle rifle", "--set", "range_m=100"], "effective_skills", [10]),
]


@pytest.mark.parametrize(("args", "key", "expected"), CASES)
def test_the_json_resolution_holds_the_terms_of_the_text(capsys, args, key, expected):
    code, out, _ = run_cli(capsys, "attack", *args, "--exact", "--json")
    assert code == 0
    resolution = json.loads(out)["resolution"]
    if isinstance(expected, dict):
        assert {name: resolution[key][name] for name in expected} == expected
        total = resolution["adj_dx"] if key == "adj_dx_terms" else resolution["to_hit_dm"]
        assert total == sum(resolution[key].values())
    else:
        assert resolution[key] == expected
    _, text, _ = run_cli(capsys, "attack", *args, "--exact")
    assert str(resolution["weapon"]) in text


def test_spc_5_2_the_json_carries_the_point_defence_assumptions(capsys):
    args = ["space_v4", "--set", "weapon=nuclear", "--set", "count=2", "--set", "pd_turrets=2,1"]
    code, out, _ = run_cli(capsys, "attack", *args, "--set", "pd_dedicated=true", "--exact", "--json")
    resolution = json.loads(out)["resolution"]
    assert code == 0
    assert resolution["pd_dedicated"] is True and resolution["pd_turrets"] == "2,1"
    assert resolution["pd_lasers_held"] == 3 and resolution["pd_lasers_fired"] == 0
    assert resolution["pd_needs"] == {"held": 8, "fired": 10}
    _, out, _ = run_cli(capsys, "attack", *args, "--exact", "--json")
    fired = json.loads(out)["resolution"]
    assert fired["pd_dedicated"] is False and fired["pd_lasers_fired"] == 3
