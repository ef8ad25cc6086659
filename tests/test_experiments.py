"""Experiment files: the shipped ones load; every kind of mistake is located by file, line and key."""

from pathlib import Path

import pytest

from simlab.workflow.experiments import ExperimentError, find_experiments, load_experiment

SHIPPED = sorted(Path("experiments").glob("*.toml"))

GOOD = """\
name = "small"
system = "hitech_tft"
method = "both"
trials = 20000
seed = 3

[fixed]
armor = "flak jacket"

[grid]
weapon = ["assault rifle", "submachinegun"]
mode = ["single", "four"]
"""


def write(tmp_path: Path, text: str, name: str = "exp.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_every_shipped_experiment_loads():
    assert len(SHIPPED) >= 4
    names = [load_experiment(path).name for path in SHIPPED]
    assert len(set(names)) == len(names)
    assert {"tft_weapons_armour", "tft_autofire_modes", "tft_hit_probability", "tft_grenades"} <= set(names)


def test_a_good_file_loads_with_its_cells(tmp_path):
    experiment = load_experiment(write(tmp_path, GOOD))
    assert experiment.methods == ("exact", "monte_carlo")
    assert experiment.n_cells == 4
    cells = list(experiment.cells())
    assert cells[0] == {"armor": "flak jacket", "weapon": "assault rifle", "mode": "single"}
    assert cells[1]["mode"] == "four"  # the last grid key varies fastest
    assert experiment.inputs == ("armor", "weapon", "mode")


@pytest.mark.parametrize(
    ("change", "line", "key", "words"),
    [
        (("seed = 3", "seed = 3\ncolour = 1"), 6, "colour", "unknown key 'colour'"),
        (('"submachinegun"]', '"submachinegn"]'), 11, "[grid] weapon", "did you mean 'submachinegun'"),
        (("trials = 20000", "trials = [1, 2]"), 4, "trials", "expected an integer, got a list"),
        (('armor = "flak jacket"', "dx = [12, 13]"), 8, "[fixed] dx", "expected a single value"),
        (('mode = ["single", "four"]', "mode = 4"), 12, "[grid] mode", "expected a non-empty list"),
        (('mode = ["single", "four"]', 'moed = ["single"]'), 12, "[grid] moed", "unknown scenario input 'moed'"),
        (('method = "both"', 'method = "guess"'), 3, "method", "unknown method 'guess'"),
        (('system = "hitech_tft"', 'system = "tft"'), 2, "system", "unknown system 'tft'"),
        (("seed = 3", "seed = -1"), 5, "seed", "expected an integer from 0 to"),
        (("seed = 3", 'seed = 3\nmetrics = ["p_hitt"]'), 6, "metrics", "did you mean 'p_hit'"),
    ],
)
def test_mistakes_name_file_line_and_key(tmp_path, change, line, key, words):
    path = write(tmp_path, GOOD.replace(*change))
    with pytest.raises(ExperimentError) as info:
        load_experiment(path)
    message = str(info.value)
    assert message.startswith(f"{path}:{line}: {key}: "), message
    assert words in message
    assert "\n" not in message


def test_a_cell_the_rules_forbid_is_named(tmp_path):
    path = write(tmp_path, GOOD.replace('"submachinegun"', '"lt pistol"'))
    with pytest.raises(ExperimentError) as info:
        load_experiment(path)
    assert "cell weapon='lt pistol', mode='four'" in str(info.value)


def test_invalid_toml_names_its_line(tmp_path):
    path = write(tmp_path, GOOD.replace("seed = 3", "seed = = 3"))
    with pytest.raises(ExperimentError, match=rf"^{path}:5: not valid TOML"):
        load_experiment(path)


def test_missing_keys_and_files(tmp_path):
    with pytest.raises(ExperimentError, match="system: missing"):
        load_experiment(write(tmp_path, 'name = "x"\n'))
    with pytest.raises(ExperimentError, match="cannot read the experiment file"):
        load_experiment(tmp_path / "absent.toml")


@pytest.mark.parametrize(
    ("chart", "words"),
    [
        ('kind = "pie"', "unknown chart kind 'pie'"),
        ('kind = "curve"\nmetric = "p_hit"\nx = "dx"', "unknown grid input 'dx'"),
        ('kind = "heatmap"\nmetric = "p_hit"\nrows = "weapon"\ncols = "mode"\ncolor = "red"', "unknown key"),
        ('kind = "heatmap"\nmetric = "p_hit"\nrows = "weapon"', "needs cols"),
        ('kind = "distribution"\nwhere = { weapon = "gauss rifle" }', "is not in the grid"),
    ],
)
def test_chart_mistakes(tmp_path, chart, words):
    path = write(tmp_path, GOOD + "\n[[charts]]\n" + chart + "\n")
    with pytest.raises(ExperimentError, match=words) as info:
        load_experiment(path)
    assert str(info.value).startswith(f"{path}:1") and "[charts]" in str(info.value)


def test_find_experiments(tmp_path):
    with pytest.raises(Exception, match="no experiment directory"):
        find_experiments(tmp_path / "none")
    with pytest.raises(Exception, match="no experiment files"):
        find_experiments(tmp_path)
    write(tmp_path, GOOD, "b.toml")
    write(tmp_path, GOOD, "a.toml")
    assert [p.name for p in find_experiments(tmp_path)] == ["a.toml", "b.toml"]


def test_an_experiments_rules_apply_to_every_cell_and_a_variant_wins_over_them(tmp_path):
    from simlab.workflow.runner import run_experiment

    head = 'name = "r"\nsystem = "hitech_tft"\n[fixed]\nweapon = "gauss rifle"\nmode = "full"\narmor = "flak jacket"\n'
    (tmp_path / "v.toml").write_text('name = "crits"\nsystem = "hitech_tft"\n[rules]\ncriticals = true\n')
    plain = tmp_path / "plain.toml"
    plain.write_text(head)
    ruled = tmp_path / "ruled.toml"
    ruled.write_text('variants = ["v.toml"]\n' + head + "[rules]\ncriticals = false\n")
    damage = "metric == 'mean_damage'"
    base = run_experiment(load_experiment(plain), threads=1).table.query(damage)["value"].item()
    table = run_experiment(load_experiment(ruled), threads=1).table.query(damage).set_index("variant")["value"]
    assert table["base"] < base  # criticals off
    assert table["crits"] == base  # the variant's criticals = true wins over the experiment's
    bad = tmp_path / "bad.toml"
    bad.write_text(head + "[rules]\ncritical = false\n")
    with pytest.raises(ExperimentError, match=r"bad.toml:8: \[rules\] critical: unknown rule parameter .*criticals"):
        load_experiment(bad)
