"""The command line: JSON output, readable output and every error case of the spec."""

import json

import pytest
from conftest import run_cli

AR = [
    "attack",
    "hitech_tft",
    "--set",
    "weapon=assault rifle",
    "--set",
    "armor=flak jacket",
    "--set",
    "dx=12",
    "--set",
    "mode=four",
    "--set",
    "range_m=20",
]


def test_attack_exact_json_has_the_acceptance_values(capsys):
    code, out, _ = run_cli(capsys, *AR, "--exact", "--json")
    assert code == 0
    payload = json.loads(out)
    assert payload["method"] == "exact" and payload["trials"] is None and payload["seed"] is None
    assert round(payload["metrics"]["p_hit"], 6) == 0.625
    assert round(payload["metrics"]["mean_hits"], 6) == 0.930556
    assert round(payload["metrics"]["mean_damage"], 6) == 3.333333
    assert "ci95" not in payload and payload["not_exact"] == []
    assert set(payload["distributions"]) == {"hits", "damage"}


def test_attack_sampled_json_is_identical_across_threads_and_covers_exact(capsys):
    outputs = [run_cli(capsys, *AR, "--trials", "200000", "--seed", "1", "--threads", t, "--json")[1] for t in "12"]
    assert outputs[0] == outputs[1]
    sampled = json.loads(outputs[0])
    exact = json.loads(run_cli(capsys, *AR, "--exact", "--json")[1])
    assert sampled["method"] == "monte_carlo" and sampled["trials"] == 200000 and sampled["seed"] == 1
    for name, value in exact["metrics"].items():
        low, high = sampled["ci95"][name]
        assert low - 1e-9 <= value <= high + 1e-9 or (high - low) < 0.02, name


def test_attack_readable_output(capsys):
    code, out, _ = run_cli(capsys, *AR, "--trials", "20000")
    assert code == 0
    assert "AdjDX 11" in out and "95% interval" in out and "damage:" in out


def test_weapon_column_override_and_ad_hoc_weapon(capsys):
    code, out, _ = run_cli(capsys, *AR, "--set", "weapon.dice=3", "--exact", "--json")
    assert code == 0 and json.loads(out)["scenario"]["weapon.dice"] == 3
    code, out, _ = run_cli(
        capsys,
        "attack",
        "hitech_tft",
        "--set",
        "weapon.dice=2",
        "--set",
        "weapon.range_class=pistol",
        "--exact",
        "--json",
    )
    assert code == 0 and json.loads(out)["metrics"]["p_hit"] > 0


def test_systems_and_tables(capsys):
    code, out, _ = run_cli(capsys, "systems", "--json")
    assert code == 0
    tft = json.loads(out)[0]
    assert tft["name"] == "hitech_tft" and "autofire_step" in {r["name"] for r in tft["rules"]}
    code, out, _ = run_cli(capsys, "tables", "hitech_tft", "armor", "--json")
    assert code == 0 and json.loads(out)["armor"][1]["name"] == "flak jacket"
    code, out, _ = run_cli(capsys, "tables", "hitech_tft")
    assert "gauss rifle" in out and "combat TL14" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--set", "weapon=gaus rifle", "--exact"], "did you mean 'gauss rifle'"),
        (["--set", "weapon=broadsword", "--set", "speed=3", "--exact"], "unknown --set name 'speed'"),
        (["--set", "weapon=broadsword", "--rule", "autofire=2", "--exact"], "did you mean 'autofire_step'"),
        (["--set", "weapon=broadsword", "--set", "dx=twelve", "--exact"], "expected an integer"),
        (["--set", "weapon=broadsword", "--rule", "megahex_m=far", "--exact"], "expected a number"),
        (["--set", "weapon=hvy rifle", "--set", "mode=four", "--exact"], "valid modes: single"),
        (["--set", "weapon=low tech MG", "--set", "mode=burst", "--set", "moved_hexes=2", "--exact"], "moved_hexes"),
        (["--set", "weapon=broadsword", "--trials", "0"], "--trials"),
        (["--set", "weapon=broadsword", "--exact", "--trials", "100"], "--exact and --trials"),
        (["--set", "weapon=broadsword", "--set", "weapon.colour=red", "--exact"], "unknown weapon column"),
        (["--set", "armor=kevlar", "--set", "weapon=broadsword", "--exact"], "unknown armor"),
        (["--set", "dx", "--exact"], "KEY=VALUE"),
        (["--exact"], "no weapon"),
        (["--bogus"], "No such option"),
    ],
)
def test_errors_exit_2_with_one_line(capsys, args, message):
    code, out, err = run_cli(capsys, "attack", "hitech_tft", *args)
    assert code == 2
    assert out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err
    assert message in err


def test_unknown_system_and_table(capsys):
    code, _, err = run_cli(capsys, "attack", "hitech", "--exact")
    assert code == 2 and "did you mean 'hitech_tft'" in err
    code, _, err = run_cli(capsys, "tables", "hitech_tft", "weapon")
    assert code == 2 and "did you mean 'weapons'" in err
