"""Options side by side on the command line: one input given several values, with paired differences."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli


def test_the_readme_s_exact_comparison_prints_one_table_with_both_weapons(capsys):
    args = ["attack", "hitech_tft", "--set", "weapon=gauss rifle", "--set", "weapon=assault rifle",
            "--set", "armor=combat TL12", "--set", "range_m=40", "--exact"]  # fmt: skip
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    header = next(line for line in out.splitlines() if line.startswith("metric"))
    assert "weapon=gauss rifle" in header and "weapon=assault rifle" in header and "Δ weapon=assault rifle" in header
    code, listed, _ = run_cli(capsys, *args, "--json")
    gauss, assault = json.loads(listed)
    alone = {}
    for weapon in ("gauss rifle", "assault rifle"):
        _, said, _ = run_cli(capsys, "attack", "hitech_tft", "--set", f"weapon={weapon}", "--set", "armor=combat TL12",
                             "--set", "range_m=40", "--exact", "--json")  # fmt: skip
        alone[weapon] = json.loads(said)["metrics"]["mean_damage"]
    assert gauss["option"] == {"weapon": "gauss rifle"} and "difference_from_first" not in gauss
    delta = assault["difference_from_first"]["mean_damage"]
    assert delta["delta"] == pytest.approx(alone["assault rifle"] - alone["gauss rifle"])
    assert delta["half_width_95"] is None  # exact


def test_sampled_options_share_their_streams_so_the_paired_interval_is_narrow(capsys):
    code, out, err = run_cli(capsys, "attack", "striker", "--set", "weapon=rifle", "--set", "weapon=gauss rifle",
                             "--set", "armor=cloth", "--trials", "40000", "--seed", "3", "--json")  # fmt: skip
    assert code == 0, err
    rifle, gauss = json.loads(out)
    assert rifle["metrics"]["p_hit"] == pytest.approx(gauss["metrics"]["p_hit"], abs=1e-12)  # the same rolls to hit
    killed = gauss["difference_from_first"]["p_incapacitated"]
    independent = sum((high - low) / 2 for low, high in (rifle["ci95"]["p_incapacitated"],
                                                          gauss["ci95"]["p_incapacitated"]))  # fmt: skip
    assert killed["delta"] > 0 and 0 < killed["half_width_95"] < independent / 2


def test_duels_and_battles_take_options_side_by_side_and_one_input_varies_at_a_time(capsys):
    code, out, err = run_cli(capsys, "duel", "striker", "--a", "weapon=rifle", "--a", "weapon=gauss rifle",
                             "--b", "weapon=rifle", "--b", "armor=cloth", "--trials", "2000")  # fmt: skip
    assert code == 0 and "a.weapon=gauss rifle" in out, err
    code, out, err = run_cli(capsys, "battle", "striker", "experiments/battles/striker_fireteam.toml",
                             "--set", "a.count=3", "--set", "a.count=4", "--trials", "2000", "--json")  # fmt: skip
    assert code == 0, err
    _, four = json.loads(out)
    assert four["difference_from_first"]["p_a_wins"]["delta"] > 0.2  # a fourth rifleman wins far more often
    code, _, err = run_cli(capsys, "attack", "striker", "--set", "weapon=rifle", "--set", "weapon=shotgun",
                           "--set", "armor=cloth", "--set", "armor=mesh")  # fmt: skip
    assert code == 2 and "weapon and armor are both given several values" in err
