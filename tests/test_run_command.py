"""``simlab run``: every file of a results directory, reproducible tables, atomic writes, errors."""

import json
import os
from pathlib import Path

import pandas as pd
import pytest
from conftest import run_cli

from simlab.cli import main
from simlab.output import publish

EXPERIMENT = """\
name = "{name}"
system = "hitech_tft"
method = "both"
trials = 20000
seed = 5

[fixed]
range_m = 20

[grid]
weapon = ["assault rifle", "submachinegun"]
armor = ["none", "flak jacket"]
dx = [11, 12, 13]
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / "experiments").mkdir()
    (tmp_path / "experiments" / "one.toml").write_text(EXPERIMENT.format(name="one"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_run_without_arguments_writes_every_file(project, capsys):
    code, out, err = run_cli(capsys, "run", "--svg")
    assert code == 0, err
    assert err == ""  # no progress bar when stderr is not a terminal
    lines = out.splitlines()
    assert lines[0] == "one: started, 12 cells"  # a line when it starts and when it ends, for logs
    assert lines[1].startswith("one: 12 cells")
    assert lines[-1].startswith("1 experiment(s), ") and " rows in " in lines[-1]
    results = project / "results" / "one"
    for name in publish.RESULT_FILES:
        assert (results / name).stat().st_size > 0, name
    charts = sorted(p.stem for p in results.glob("*.png"))
    assert charts and charts == sorted(p.stem for p in results.glob("*.svg"))
    table = pd.read_csv(results / "table.csv")
    assert {"value", "ci_low", "ci_high", "method", "metric", "weapon", "armor", "dx", "range_m"} <= set(table.columns)
    assert len(table) == 12 * 2 * 8
    pd.testing.assert_frame_equal(pd.read_parquet(results / "table.parquet"), table, check_dtype=False)
    provenance = json.loads((results / "provenance.json").read_text())
    assert provenance["seed"] == 5 and provenance["trials"] == 20000 and provenance["method"] == "both"
    assert len(provenance["parameters_hash"]) == 64 and provenance["versions"]["numba"]
    html = (results / "report.html").read_text()
    assert html.count('class="chart"') == len(charts) and "<table" in html
    assert 'src="data:image/png;base64,' in html and "http" not in html.split("<body>")[1]
    assert "## Summary" in (results / "report.md").read_text()


def test_two_runs_give_identical_tables(project, capsys):
    run_cli(capsys, "run")
    first = (project / "results" / "one" / "table.csv").read_bytes()
    code, _, _ = run_cli(capsys, "run", "--threads", "1")
    assert code == 0
    assert (project / "results" / "one" / "table.csv").read_bytes() == first


def test_out_option_and_explicit_files(project, capsys):
    (project / "other.toml").write_text(EXPERIMENT.format(name="two"))
    code, out, _ = run_cli(capsys, "run", "other.toml", "--out", "elsewhere")
    assert code == 0 and "two:" in out
    assert (project / "elsewhere" / "two" / "report.html").exists()
    assert not (project / "results").exists()


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (("seed = 5", "seed = 5\ncolour = 1"), "colour"),
        (('"submachinegun"', '"submachinegn"'), "[grid] weapon"),
        (("trials = 20000", "trials = [1, 2]"), "trials"),
    ],
)
def test_a_bad_file_exits_2_and_writes_nothing(project, capsys, change, key):
    (project / "experiments" / "two.toml").write_text(EXPERIMENT.format(name="two").replace(*change))
    code, out, err = run_cli(capsys, "run")
    assert code == 2 and out == ""
    assert err.startswith("error: experiments/two.toml:") and f": {key}: " in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not (project / "results").exists()  # the good file did not run either


def test_a_failing_run_leaves_old_results_alone(project, capsys, monkeypatch):
    run_cli(capsys, "run")
    before = (project / "results" / "one" / "table.csv").read_bytes()

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(publish, "draw_charts", broken)
    with pytest.raises(RuntimeError):
        main(["run"])
    assert (project / "results" / "one" / "table.csv").read_bytes() == before
    assert os.listdir(project / "results") == ["one"]  # no temporary directory left behind


def test_no_experiments_directory(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(capsys, "run")
    assert code == 2 and "no experiment directory" in err


def test_duplicate_names_are_refused(project, capsys):
    (project / "experiments" / "two.toml").write_text(EXPERIMENT.format(name="one"))
    code, _, err = run_cli(capsys, "run")
    assert code == 2 and "is also the name of" in err
    assert not Path("results").exists()


PRINT = """
name = "for_print"
system = "hitech_tft"
method = "exact"

[fixed]
weapon = "assault rifle"

[grid]
dx = [10, 12, 14]
armor = ["none", "flak jacket"]

[[charts]]
kind = "curve"
metric = "p_hit"
x = "dx"
by = "armor"
name = "column"
size = [3.5, 2.5]
dpi = 200

[[charts]]
kind = "curve"
metric = "mean_damage"
x = "dx"
by = "armor"
name = "page"
"""


def test_charts_for_print_take_the_run_s_size_and_dpi_and_a_chart_its_own(tmp_path, capsys):
    from PIL import Image

    path = tmp_path / "print.toml"
    path.write_text(PRINT, encoding="utf-8")
    code, _, err = run_cli(capsys, "run", str(path), "--out", str(tmp_path), "--size", "6.5x4", "--dpi", "300",
                           "--jobs", "1")  # fmt: skip
    assert code == 0, err
    assert Image.open(tmp_path / "for_print" / "page.png").size == (1950, 1200)  # the run's 6.5 x 4 in at 300 dpi
    assert Image.open(tmp_path / "for_print" / "column.png").size == (700, 500)  # its own 3.5 x 2.5 in at 200 dpi


@pytest.mark.parametrize(
    ("args", "chart", "message"),
    [
        (["--size", "6.5by4"], "", "--size': expected WIDTHxHEIGHT in inches, each 1 to 40 inches"),
        (["--size", "100x4"], "", "got '100x4'"),
        (["--dpi", "5000"], "", "--dpi'"),
        ([], "size = [3.5]", "[charts] size: expected [width, height] in inches, each 1 to 40 inches"),
        ([], 'dpi = "high"', "print.toml:19: [charts] dpi: expected a whole number from 50 to 600"),
    ],
)
def test_a_print_size_or_dpi_out_of_range_is_refused_in_one_line(tmp_path, capsys, args, chart, message):
    path = tmp_path / "print.toml"
    path.write_text(PRINT.replace("size = [3.5, 2.5]\ndpi = 200", chart), encoding="utf-8")
    code, _, err = run_cli(capsys, "run", str(path), "--out", str(tmp_path / "out"), *args)
    assert code == 2 and message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "out" / "for_print").exists()
