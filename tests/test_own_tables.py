"""A designer's own rows beside the shipped ones, and grids that skip what the rules forbid."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from conftest import run_cli

RIFLES = ["assault rifle", "auto rifle", "hvy rifle", "gauss rifle", "laser rifle"]
ARMOURS = ["none", "flak jacket", "nylon", "combat TL11", "combat TL12", "combat TL13", "battle TL13", "combat TL14",
           "battle TL14"]  # fmt: skip
PLASMA = """
[tables.weapons."plasma carbine"]
range_class = "rifle"
dice = 3
adds = 2
"""


def _experiment(tmp_path, body: str, name: str = "own", method: str = "exact") -> str:
    path = tmp_path / f"{name}.toml"
    path.write_text(f'name = "{name}"\nsystem = "hitech_tft"\nmethod = "{method}"\n{body}', encoding="utf-8")
    return str(path)


def test_an_experiment_adds_a_row_and_grids_it_beside_the_shipped_ones_in_one_heatmap(tmp_path, capsys):
    grid = json.dumps(["plasma carbine", *RIFLES])
    body = f"{PLASMA}\n[fixed]\nrange_m = 40\n\n[grid]\nweapon = {grid}\narmor = {json.dumps(ARMOURS)}\n"
    code, _, err = run_cli(capsys, "run", _experiment(tmp_path, body), "--out", str(tmp_path / "out"), "--jobs", "1")
    assert code == 0, err
    out = tmp_path / "out" / "own"
    table = pd.read_csv(out / "table.csv")
    assert sorted(table["weapon"].unique()) == sorted(["plasma carbine", *RIFLES]) and table["armor"].nunique() == 9
    assert (out / "heatmap_mean_damage.png").exists()  # one heatmap holds all six
    provenance = json.loads((out / "provenance.json").read_text())
    assert provenance["own_tables"]["weapons"]["rows"]["plasma carbine"]["dice"] == 3
    assert "your own rows" in (out / "report.md").read_text() and "plasma carbine" in (out / "report.md").read_text()
    # the row is the assault rifle with three dice and two adds, as --set weapon.COLUMN makes it
    code, said, _ = run_cli(capsys, "attack", "hitech_tft", "--set", "weapon=assault rifle", "--set", "weapon.dice=3",
                            "--set", "weapon.adds=2", "--set", "armor=combat TL12", "--set", "range_m=40", "--exact",
                            "--json")  # fmt: skip
    expected = json.loads(said)["metrics"]["mean_damage"]
    plasma = table[(table["weapon"] == "plasma carbine") & (table["armor"] == "combat TL12")]
    assert plasma[plasma["metric"] == "mean_damage"]["value"].iloc[0] == pytest.approx(expected, abs=1e-12)


def test_own_rows_are_checked_like_the_shipped_ones_naming_file_row_and_column(tmp_path, capsys):
    bad = PLASMA.replace("dice = 3", "dise = 3")
    code, _, err = run_cli(capsys, "run", _experiment(tmp_path, f"{bad}\n[grid]\nweapon = ['plasma carbine']\n"))
    assert code == 2 and "own.toml" in err and '[tables.weapons."plasma carbine"]' in err and "'dise'" in err
    gear = tmp_path / "gear"
    gear.mkdir()
    (gear / "weapon.csv").write_text("name,dice\nx,2\n")
    code, _, err = run_cli(capsys, "attack", "hitech_tft", "--set", "weapon=x", "--tables", str(gear), "--exact")
    assert code == 2 and "weapon.csv" in err and "did you mean 'weapons'" in err and "Traceback" not in err


def test_a_table_directory_adds_changes_or_replaces_rows_for_attacks_duels_and_battles(tmp_path, capsys):
    gear = tmp_path / "gear"
    gear.mkdir()
    (gear / "weapons.csv").write_text("name,kind,pen,blowthrough,magazine\nneedle gun,semi,5,11mm,20\nrifle,,9,,\n")
    code, out, err = run_cli(capsys, "attack", "striker", "--set", "weapon=needle gun", "--set", "armor=cloth",
                             "--tables", str(gear), "--trials", "2000", "--json")  # fmt: skip
    assert code == 0 and "needle gun" in out, err
    code, out, err = run_cli(capsys, "duel", "striker", "--a", "weapon=needle gun", "--b", "weapon=rifle",
                             "--tables", str(gear), "--trials", "1000", "--json")  # fmt: skip
    assert code == 0, err
    code, out, err = run_cli(capsys, "battle", "striker", "experiments/battles/striker_fireteam.toml", "--set",
                             "a.groups.0.weapon=needle gun", "--tables", str(gear), "--trials", "500")  # fmt: skip
    assert code == 0, err
    (gear / "weapons.csv").unlink()  # the whole table: the shipped rows are gone
    (gear / "weapons.only.csv").write_text("name,kind,pen,blowthrough,magazine\nneedle gun,semi,5,11mm,20\n")
    code, _, err = run_cli(capsys, "attack", "striker", "--set", "weapon=gauss rifle", "--tables", str(gear))
    assert code == 2 and "unknown weapon 'gauss rifle'" in err and "needle gun" in err


def test_a_variant_changes_apply_on_top_of_ones_own_rows(tmp_path, capsys):
    (tmp_path / "heavier.toml").write_text(
        'system = "hitech_tft"\nname = "heavier"\n[tables.weapons."plasma carbine"]\ndice = 4\n', encoding="utf-8"
    )
    body = f'variants = ["heavier.toml"]\n{PLASMA}\n[fixed]\narmor = "none"\n\n[grid]\nweapon = ["plasma carbine"]\n'
    code, _, err = run_cli(capsys, "run", _experiment(tmp_path, body), "--out", str(tmp_path / "out"), "--jobs", "1")
    assert code == 0, err
    table = pd.read_csv(tmp_path / "out" / "own" / "table.csv")
    damage = table[table["metric"] == "mean_damage"].set_index("variant")["value"]
    assert damage["heavier"] > damage["base"]  # four dice with the experiment's two adds, not the shipped row


def test_a_grid_skips_what_the_rules_forbid_and_lists_it_keeping_every_other_cell_s_stream(tmp_path, capsys):
    grid = '[fixed]\narmor = "flak jacket"\n\n[grid]\nweapon = ["shotgun pellets", "assault rifle"]\n'
    grid += 'mode = ["single", "four"]\n'
    refused = _experiment(tmp_path, grid, "refused")
    code, _, err = run_cli(capsys, "run", refused)
    assert code == 2 and "cannot autofire" in err and "skip_invalid = true" in err
    sampled = "trials = 2000\nseed = 5\nskip_invalid = true\n"
    skipping = _experiment(tmp_path, sampled + grid, "skipping", "monte_carlo")
    code, _, err = run_cli(capsys, "run", skipping, "--out", str(tmp_path / "out"), "--jobs", "1")
    assert code == 0, err
    out = tmp_path / "out" / "skipping"
    report = (out / "report.md").read_text()
    assert "3 (1 skipped, listed below)" in report and "cannot autofire" in report
    skipped = json.loads((out / "provenance.json").read_text())["skipped_cells"]
    assert [(s["cell"], s["inputs"]) for s in skipped] == [(1, {"weapon": "shotgun pellets", "mode": "four"})]
    table = pd.read_csv(out / "table.csv")
    rifle = table[(table["weapon"] == "assault rifle") & (table["metric"] == "p_hit")]
    assert sorted(table["cell"].unique()) == [0, 2, 3]  # the cell left out keeps its index: the others their streams
    assert rifle[rifle["mode"] == "four"]["cell"].iloc[0] == 3


def test_the_web_page_offers_ones_own_rows_beside_the_shipped_ones(tmp_path):
    from fastapi.testclient import TestClient

    from simlab.web.app import create_app

    (tmp_path / "hitech_tft").mkdir()
    (tmp_path / "hitech_tft" / "weapons.csv").write_text("name,range_class,dice,adds\nplasma carbine,rifle,3,2\n")
    client = TestClient(create_app(tables=tmp_path))
    page = client.get("/attack/hitech_tft?weapon=plasma+carbine&armor=combat+TL12&range_m=40&method=exact").text
    assert '<option value="plasma carbine" selected>' in page and 'class="error"' not in page
    (tmp_path / "mars").mkdir()
    with pytest.raises(Exception, match="a folder per system"):
        create_app(tables=tmp_path)
