"""``simlab init``: a designer's own repository of house rules, from the first command to a reviewed pull request."""

from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
import yaml
from conftest import run_cli

from simlab.workflow.project import CHECK_SCRIPT, WORKFLOW


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    """A project as simlab init writes it, made once for the module: each test works on a copy."""
    import io
    from contextlib import redirect_stdout

    from simlab.cli import main

    made = tmp_path_factory.mktemp("init") / "rules"
    said = io.StringIO()
    with redirect_stdout(said), pytest.raises(SystemExit) as ended:
        main(["init", str(made), "--system", "hitech_tft", "--system", "striker"])
        raise SystemExit(0)
    assert (ended.value.code or 0) == 0 and "What moved since the last baselines:" in said.getvalue()
    return made


@pytest.fixture()
def project(pristine, tmp_path, monkeypatch) -> Path:
    import shutil

    shutil.copytree(pristine, tmp_path / "rules")
    monkeypatch.chdir(tmp_path / "rules")
    return tmp_path / "rules"


def test_init_run_baseline_regress_then_a_changed_row_is_a_failing_comment(project, capsys):
    experiments = sorted(str(p) for p in Path("experiments").glob("*.toml"))
    assert experiments == ["experiments/hitech_tft_example.toml", "experiments/striker_example.toml"]
    assert run_cli(capsys, "run", *experiments)[0] == 0
    assert run_cli(capsys, "baseline", *experiments)[1].splitlines()[-1] == "Nothing moved since the last baselines."
    assert run_cli(capsys, "regress", *experiments)[0] == 0
    own = project / "tables" / "hitech_tft" / "weapons.csv"
    assert own.read_text(encoding="utf-8") == "name,dice,adds,autofire_bonus\nassault rifle,2,0,1\n"
    own.write_text("name,dice,adds,autofire_bonus\nassault rifle,3,0,1\n", encoding="utf-8")  # a house rule
    code, out, _ = run_cli(capsys, "regress", *experiments, "--format", "markdown", "--junit", "regress.xml")
    assert code == 1 and "### hitech_tft_example: " in out and "| metric | before | after | Δ | evidence |" in out
    assert "striker_example" not in out.split("###", 1)[1]  # only the experiment the row moved
    suites = ElementTree.parse("regress.xml").getroot()
    assert suites.get("tests") == "2" and suites.get("failures") == "1"


def test_the_workflow_is_valid_yaml_and_the_plain_script_runs_simlab_regress(project):
    workflow = yaml.safe_load((project / WORKFLOW).read_text(encoding="utf-8"))
    steps = workflow["jobs"]["regress"]["steps"]
    assert any(step.get("run") == f"bash {CHECK_SCRIPT}" for step in steps) and "pull_request" in workflow[True]
    script = (project / CHECK_SCRIPT).read_text(encoding="utf-8")
    assert "simlab regress experiments/*.toml --format markdown --junit regress.xml --report regress" in script
    done = subprocess.run(["bash", CHECK_SCRIPT], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "## simlab regress: no change" in done.stdout and (project / "regress.xml").is_file()


def test_init_never_writes_over_a_file(tmp_path, capsys):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "README.md").write_text("mine\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "init", str(tmp_path / "rules"))
    assert code == 2 and out == "" and "README.md: exists already" in err and len(err.splitlines()) == 1
    assert (tmp_path / "rules" / "README.md").read_text(encoding="utf-8") == "mine\n"
    assert sorted(p.name for p in (tmp_path / "rules").iterdir()) == ["README.md"]  # nothing else written


def test_every_command_inside_the_project_asks_with_its_own_rows(project, capsys):
    import json

    args = ["attack", "hitech_tft", "--set", "weapon=assault rifle", "--set", "armor=none", "--exact", "--json"]
    shipped = json.loads(run_cli(capsys, *args)[1])["metrics"]["mean_damage"]
    own = project / "tables" / "hitech_tft" / "weapons.csv"
    own.write_text("name,dice,adds,autofire_bonus\nassault rifle,3,0,1\n", encoding="utf-8")
    house = json.loads(run_cli(capsys, *args)[1])["metrics"]["mean_damage"]
    assert house > shipped  # three dice of damage, read from tables/hitech_tft/weapons.csv as --tables would
    (project / "simlab.toml").write_text('tables = "tables"\nbaselines = 3\n', encoding="utf-8")
    code, _, err = run_cli(capsys, *args)
    assert code == 2 and err.strip() == "error: simlab.toml: baselines: expected a folder, got 3"


def test_a_question_asked_inside_the_project_samples_its_trials(project, capsys):
    import json

    args = ["attack", "hitech_tft", "--set", "weapon=assault rifle", "--json"]
    assert json.loads(run_cli(capsys, *args)[1])["trials"] == 100_000  # simlab.toml: trials = 100000
    assert json.loads(run_cli(capsys, *args, "--trials", "5000")[1])["trials"] == 5000  # --trials still rules
