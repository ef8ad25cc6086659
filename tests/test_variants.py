"""Variant files: parsing, validation with suggestions, and what applying one changes."""

from pathlib import Path

import pytest
from conftest import run_cli

import simlab
from simlab.asking.variants import VariantError, load_variant
from simlab.systems import ScenarioRequest, get_system

SHIPPED = sorted(Path("experiments/variants").glob("*.toml"))
AR = {"weapon": "assault rifle", "armor": "flak jacket", "mode": "four", "range_m": 20}


def write(tmp_path, text, name="v.toml"):
    path = tmp_path / name
    path.write_text('system = "hitech_tft"\nname = "v"\n' + text)
    return path


def exact(request_inputs, variant=None):
    system = get_system("hitech_tft")
    request = ScenarioRequest(scenario=request_inputs)
    return system.attack.answer(variant.apply(request) if variant else request).metrics


def test_shipped_variants_load_and_change_something():
    assert {p.stem for p in SHIPPED} >= {"tft_extra_hit_every_2", "tft_no_criticals"}
    for path in SHIPPED:
        variant = load_variant(path)
        assert variant.name == path.stem and variant.description
        assert variant.rules or variant.tables


def test_extra_hit_every_2_raises_autofire_hits_only():
    variant = load_variant("experiments/variants/tft_extra_hit_every_2.toml")
    assert exact(AR, variant)["mean_hits"] > exact(AR)["mean_hits"]
    single = {**AR, "mode": "single"}
    assert exact(single, variant) == exact(single)


def test_table_rows_can_change_and_be_added(tmp_path):
    path = write(
        tmp_path,
        '[tables.weapons."assault rifle"]\ndice = 3\n\n'
        '[tables.weapons."needle rifle"]\nrange_class = "rifle"\ndice = 1\n\n'
        '[tables.armor."flak jacket"]\nprotection = 0\n',
    )
    variant = load_variant(path)
    bigger = exact(AR, variant)["mean_damage"]
    assert bigger > exact({**AR, "armor": "none"})["mean_damage"]
    needle = exact({**AR, "weapon": "needle rifle", "mode": "single"}, variant)
    assert 0 < needle["mean_damage"] < 3.5
    assert variant.describe()["tables"]["weapons"]["assault rifle"] == {"dice": 3}
    # the shipped tables are untouched
    assert simlab.attack("hitech_tft", **AR).metrics["mean_damage"] == pytest.approx(3.333333, abs=1e-6)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[rules]\nautofire_stpe = 2\n", "unknown rule parameter 'autofire_stpe'; did you mean 'autofire_step'"),
        ("[rules]\nautofire_step = 0\n", "expected an integer from 1 to 99"),
        ("[rules]\ncriticals = 3\n", "expected true or false"),
        ("colour = 1\n", "unknown key 'colour'"),
        ('[tables.weapon."assault rifle"]\ndice = 3\n', "unknown table 'weapon'; did you mean 'weapons'"),
        ('[tables.weapons."assault rifle"]\ndise = 3\n', "unknown weapon column 'dise'; did you mean 'dice'"),
        ('[tables.weapons."assault rifle"]\ndice = "many"\n', "invalid value 'many'"),
        ('[tables.weapons."ray gun"]\ndice = 3\n', "missing range_class: every weapon column without a default"),
    ],
)
def test_mistakes_name_the_file_and_what_is_valid(tmp_path, text, words):
    path = write(tmp_path, text)
    with pytest.raises(VariantError) as info:
        load_variant(path)
    assert str(info.value).startswith(f"{path}: ") and words in str(info.value)


def test_system_must_match(tmp_path):
    path = tmp_path / "v.toml"
    path.write_text('system = "tft"\nname = "v"\n')
    with pytest.raises(VariantError, match="unknown system 'tft'"):
        load_variant(path)
    path.write_text('system = "hitech_tft"\nname = "base"\n')
    with pytest.raises(VariantError, match="not a valid variant name"):
        load_variant(path)


def test_attack_takes_a_variant(capsys, tmp_path):
    args = ["attack", "hitech_tft", *[f"--set={k}={v}" for k, v in AR.items()], "--exact", "--json"]
    code, out, _ = run_cli(capsys, *args, "--variant", "experiments/variants/tft_extra_hit_every_2.toml")
    assert code == 0 and '"autofire_step": 2' in out
    code, out, err = run_cli(capsys, *args, "--variant", str(write(tmp_path, "[rules]\nautofire_stpe = 2\n")))
    assert code == 2 and out == "" and "did you mean 'autofire_step'" in err and err.count("\n") == 1


def test_rule_options_win_over_the_variant(capsys):
    code, out, _ = run_cli(
        capsys,
        "attack",
        "hitech_tft",
        *[f"--set={k}={v}" for k, v in AR.items()],
        "--variant",
        "experiments/variants/tft_extra_hit_every_2.toml",
        "--rule",
        "autofire_step=4",
        "--exact",
        "--json",
    )
    assert code == 0 and '"autofire_step": 4' in out


def test_experiments_cover_their_variants(tmp_path):
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "x.toml").write_text(Path("experiments/variants/tft_extra_hit_every_2.toml").read_text())
    path = tmp_path / "e.toml"
    path.write_text(
        'name = "e"\nsystem = "hitech_tft"\nvariants = ["variants/x.toml"]\n'
        '[fixed]\nweapon = "assault rifle"\nrange_m = 20\n[grid]\nmode = ["single", "four"]\n'
    )
    run = simlab.run(path)
    assert run.experiment.name == "e"  # not the name of a variant file
    hits = run.table.query("metric == 'mean_hits'").set_index(["variant", "mode"])["value"]
    assert hits["tft_extra_hit_every_2", "single"] == hits["base", "single"]
    assert hits["tft_extra_hit_every_2", "four"] > hits["base", "four"]
    path.write_text(path.read_text().replace("x.toml", "y.toml"))
    with pytest.raises(simlab.SimlabError, match=r"e.toml:3: variants: .*cannot read"):
        simlab.run(path)
