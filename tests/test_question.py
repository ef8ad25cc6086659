"""An experiment states its question (``[question]``) and its report's headline answers it."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from conftest import run_cli

import simlab

THRESHOLD = """
name = "dx_needed"
system = "hitech_tft"
method = "exact"

[fixed]
weapon = "assault rifle"
armor = "flak jacket"

[grid]
range_m = [4, 20, 40]
dx = [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]

[question]
kind = "threshold"
metric = "p_hit"
input = "dx"
target = 0.75
per = ["range_m"]

[labels]
dx = "DX"
"""


def test_a_threshold_question_names_for_every_range_the_dx_the_table_gives(tmp_path, capsys):
    path = tmp_path / "dx.toml"
    path.write_text(THRESHOLD, encoding="utf-8")
    code, _, err = run_cli(capsys, "run", str(path), "--out", str(tmp_path / "out"), "--jobs", "1")
    assert code == 0, err
    report = (tmp_path / "out" / "dx_needed" / "report.md").read_text()
    table = pd.read_csv(tmp_path / "out" / "dx_needed" / "table.csv")
    hits = table[table["metric"] == "p_hit"]
    for range_m in (4, 20, 40):
        part = hits[hits["range_m"] == range_m].sort_values("dx")
        reached = part[part["value"] >= 0.75]
        if len(reached):
            dx = int(reached["dx"].iloc[0])
            assert f"at least 0.75 is {dx}: {reached['value'].iloc[0]:.4f}" in report, (range_m, dx)
        else:
            assert "never reaches 0.75" in report
    assert report.index("What this says") < report.index("![")  # the answer, then the chart that shows it
    assert "curve_p_hit_dx" in report.split("## Summary")[0]


def test_striker_fireteams_says_how_many_riflemen_it_takes_and_what_suppression_changes():
    run = simlab.run("experiments/striker_fireteams.toml", trials=4000)
    from simlab.output.answers import answer_question
    from simlab.output.words import vocabulary

    said = answer_question(run.table, run.experiment.asks, vocabulary(run.experiment), [])
    first = said[0]
    assert first.startswith("Against no suppressing gunners, 4 riflemen are the fewest for which the fireteam's chance")
    assert "at least 0.75: 0." in first and "[" in first and "; 3 riflemen: 0." in first  # interval, one fewer
    assert said[1].startswith("Against 1 suppressing gunner, 3 riflemen are the fewest")
    assert said[-1] == "The fewest riflemen: 4 against no suppressing gunners, 2 against 2 suppressing gunners."


@pytest.mark.parametrize(
    ("question", "message"),
    [
        ('kind = "biggest"\nmetric = "p_hit"', "[question] kind: expected one of best, threshold, ranking, effect"),
        ('kind = "best"\nmetric = "p_hitt"', "did you mean 'p_hit'"),
        ('kind = "best"\nmetric = "p_hit"\ninput = "armor"', "expected an input the grid varies (range_m, dx)"),
        ('kind = "threshold"\nmetric = "p_hit"\ninput = "dx"', "a threshold needs the target value"),
        ('kind = "effect"\nmetric = "p_hit"', "effect needs variants"),
        ('kind = "best"\nmetric = "p_hit"\ninput = "range_m"\nwhere = { dx = true }', "[question] where: expected"),
        ('kind = "best"\nmetric = "p_hit"\ninput = "range_m"\nper = ["dx", "dx"]', "[question] per: expected"),
        ('kind = "threshold"\nmetric = "p_hit"\ninput = "dx"\ntarget = nan', "[question] target: expected a finite"),
        ('kind = "threshold"\nmetric = "p_hit"\ninput = "dx"\ntarget = inf', "[question] target: expected a finite"),
        ('kind = "best"\nmetric = "mean_damage"\ninput = "dx"', "[question] metric: unknown metric 'mean_damage'"),
        ('kind = "best"\nmetric = "p_hit"\ninput = "dx"\ntarget = 0.5', "[question] target: a best question does not"),
        ('kind = "threshold"\nmetric = "p_hit"\ninput = "dx"\ntarget = 0.5\nlowest = true', "does not read lowest"),
        ('kind = "best"\nmetric = "p_hit"\ninput = "dx"\n[labels]\nrange_mm = "range"', "[labels] range_mm: unknown"),
    ],
)
def test_a_question_that_does_not_fit_its_experiment_is_refused_in_one_line(tmp_path, capsys, question, message):
    text = THRESHOLD.split("[question]")[0] + "[question]\n" + question + "\n"
    text = text.replace('method = "exact"', 'method = "exact"\nmetrics = ["p_hit"]')  # its own list of metrics
    text = text.replace("dx = [8, ", "dx = [1, 8, ")  # true is not DX 1
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    code, _, err = run_cli(capsys, "run", str(path), "--out", str(tmp_path / "out"))
    assert code == 2 and "bad.toml:" in err and message in err and "Traceback" not in err


def test_an_effect_question_says_what_each_variant_changes_most(tmp_path, capsys):
    variant = Path("experiments/variants/tft_extra_hit_every_2.toml").resolve()
    fixed = '[fixed]\nweapon = "assault rifle"'
    body = THRESHOLD.split("[question]")[0].replace(fixed, f'variants = ["{variant}"]\n\n{fixed}\nmode = "full"')
    path = tmp_path / "effect.toml"
    path.write_text(body + '[question]\nkind = "effect"\nmetric = "p_hit"\n', encoding="utf-8")
    code, _, err = run_cli(capsys, "run", str(path), "--out", str(tmp_path / "out"), "--jobs", "1")
    assert code == 0, err
    report = (tmp_path / "out" / "dx_needed" / "report.md").read_text()
    assert "Variant tft_extra_hit_every_2 changes no chance to hit at all." in report  # more hits, same hitting


def test_no_shipped_headline_has_a_raw_name_in_it():
    """Every shipped experiment states its question, answered in words: no mean_damage, a.count, full_auto."""
    import re

    from simlab.analyses.report import build_balance_report
    from simlab.output.answers import answer_question
    from simlab.output.words import vocabulary
    from simlab.workflow.experiments import load_experiment
    from simlab.workflow.runner import run_experiment

    for path in sorted(Path("experiments").glob("*.toml")):
        experiment = load_experiment(path, check_cells=False)
        if experiment.balance is not None:  # a solve or a sensitivity asks its question by its kind
            said = build_balance_report(run_experiment(experiment), []).headline
            raw = {w for s in said for w in re.findall(r"[A-Za-z]+(?:_[A-Za-z0-9]+)+|[a-z]+\.[a-z]+", s)}
            assert said and not raw, f"{path.name}: {sorted(raw)} in {said[0]}"
            continue
        assert experiment.asks is not None, f"{path.name} states no question"
        table = pd.read_csv(f"results/baselines/{experiment.name}/table.csv", keep_default_na=False)  # "" stays ""
        for column in ("value", "ci_low", "ci_high"):
            table[column] = pd.to_numeric(table[column], errors="coerce")
        said = answer_question(table, experiment.asks, vocabulary(experiment), [v.name for v in experiment.variants])
        raw = {w for s in said for w in re.findall(r"[A-Za-z]+(?:_[A-Za-z0-9]+)+|[a-z]+\.[a-z]+", s)}
        assert said and not raw, f"{path.name}: {sorted(raw)} in {said[0]}"
