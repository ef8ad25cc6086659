"""Paired comparisons with common random numbers, baselines and regression checks."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import run_cli, small_experiment

import simlab
from simlab.asking.variants import load_variant
from simlab.output.pivots import describe_widths
from simlab.workflow.compare import compare_experiment
from simlab.workflow.experiments import load_experiment
from simlab.workflow.regress import compare_rows, holm

# its module's fixtures (a server, a browser, a cluster, runs) built once: every test of it on one worker
pytestmark = pytest.mark.xdist_group("compare_regress")

EXTRA_HIT = "experiments/variants/tft_extra_hit_every_2.toml"


def small(tmp_path: Path, trials: int = 40000, seed: int = 1, method: str = "both") -> Path:
    return small_experiment(tmp_path, trials=trials, seed=seed, method=method)


@pytest.fixture(scope="module")
def comparison(tmp_path_factory):
    experiment = load_experiment(small(tmp_path_factory.mktemp("cmp")))
    return compare_experiment(experiment, [load_variant(EXTRA_HIT)], batches=20)


def test_single_shots_do_not_change_at_all(comparison):
    single = comparison.table.query("mode == 'single'")
    assert (single["delta"] == 0).all()
    sampled = single[single["method"] == "monte_carlo"]
    assert (sampled["delta_ci_low"] == 0).all() and (sampled["delta_ci_high"] == 0).all()


def test_exact_differences_are_the_differences_of_exact_answers(comparison):
    row = comparison.table.query("method == 'exact' and weapon == 'gauss rifle' and mode == 'four'")
    row = row.set_index("metric")
    inputs = {"armor": "flak jacket", "range_m": 20, "weapon": "gauss rifle", "mode": "four"}
    base = simlab.attack("hitech_tft", **inputs).metrics["mean_damage"]
    changed = simlab.attack("hitech_tft", rules={"autofire_step": 2}, **inputs).metrics["mean_damage"]
    assert row.loc["mean_damage", "delta"] == pytest.approx(changed - base, abs=1e-12)


def test_common_random_numbers_narrow_the_intervals(comparison):
    sampled = comparison.table.query("method == 'monte_carlo' and mode == 'four'")
    paired = (sampled["delta_ci_high"] - sampled["delta_ci_low"]) / 2
    moving = sampled["independent_half_width"] > 0
    assert (paired[moving] < sampled.loc[moving, "independent_half_width"]).all()
    widths = describe_widths(comparison.table).loc["tft_extra_hit_every_2"]
    assert widths.loc["mean_damage", "ratio"] < 0.6


def test_sampled_differences_agree_with_exact_ones(comparison):
    keys = ["weapon", "mode", "metric"]
    exact = comparison.table.query("method == 'exact'").set_index(keys)["delta"]
    sampled = comparison.table.query("method == 'monte_carlo'").set_index(keys)
    slack = (sampled["delta_ci_high"] - sampled["delta_ci_low"]) + 1e-12  # twice the 95 % half-width
    assert ((sampled["delta"] - exact).abs() <= slack).all()


def test_compare_command_writes_a_report(tmp_path, capsys):
    code, _, err = run_cli(capsys, "compare", str(small(tmp_path)), "--variant", EXTRA_HIT, "--out", str(tmp_path))
    assert code == 0, err
    directory = tmp_path / "compare_small"
    for name in ("table.csv", "table.parquet", "report.md", "report.html", "provenance.json"):
        assert (directory / name).exists(), name
    assert sorted(p.stem for p in directory.glob("*.png")) == [
        "delta_mean_damage_tft_extra_hit_every_2",
        "delta_p_incapacitated_tft_extra_hit_every_2",
    ]
    report = (directory / "report.md").read_text()
    assert "common random numbers" in report and "independent" in report
    assert json.loads((directory / "provenance.json").read_text())["variants"][0]["rules"] == {"autofire_step": 2}


def test_compare_needs_a_variant(tmp_path, capsys):
    code, _, err = run_cli(capsys, "compare", str(small(tmp_path)))
    assert code == 2 and "nothing to compare" in err


def test_holm_step_down():
    assert list(holm([0.001, 0.004, 0.03, 0.5], alpha=0.01)) == [True, False, False, False]
    assert list(holm([0.002, 0.004, 0.0049], alpha=0.015)) == [True, True, True]
    assert list(holm([], alpha=0.01)) == []


def tidy(value, low, high, method="monte_carlo"):
    return pd.DataFrame(
        [{"cell": 0, "variant": "base", "method": method, "metric": "m", "value": value, "ci_low": low,
          "ci_high": high, "trials": 1000}]
    )  # fmt: skip


def test_compare_rows_tests_and_tolerances():
    base = tidy(0.5, 0.49, 0.51)
    far = compare_rows(base, tidy(0.55, 0.54, 0.56))
    assert far["p_value"].item() < 1e-6
    near = compare_rows(base, tidy(0.505, 0.495, 0.515))
    assert near["p_value"].item() > 0.3
    with_margin = compare_rows(base, tidy(0.55, 0.54, 0.56), margin=0.1)
    assert with_margin["p_value"].item() > 0.99
    exact = compare_rows(tidy(1.0, np.nan, np.nan, "exact"), tidy(1.0 + 1e-11, np.nan, np.nan, "exact"))
    assert exact["changed"].item()
    tiny = compare_rows(tidy(1.0, np.nan, np.nan, "exact"), tidy(1.0 + 1e-13, np.nan, np.nan, "exact"))
    assert not tiny["changed"].item()
    other = compare_rows(
        tidy(1.0, np.nan, np.nan, "exact"), tidy(1.0 + 1e-11, np.nan, np.nan, "exact"), cross_version=True
    )
    assert not other["changed"].item()


@pytest.fixture
def baselined(tmp_path, capsys):
    experiment = small(tmp_path)
    code, _, err = run_cli(capsys, "baseline", str(experiment), "--dir", str(tmp_path / "bl"))
    assert code == 0, err
    return experiment, tmp_path / "bl"


def test_regress_on_unchanged_rules_exits_0(baselined, capsys):
    experiment, directory = baselined
    code, out, _ = run_cli(capsys, "regress", str(experiment), "--dir", str(directory))
    assert code == 0 and out.startswith("no change: 64 rows")


def test_regress_names_the_changed_autofire_cells_only(baselined, capsys):
    experiment, directory = baselined
    code, out, _ = run_cli(capsys, "regress", str(experiment), "--dir", str(directory), "--variant", EXTRA_HIT)
    assert code == 1
    rows = [line for line in out.splitlines() if "rows" not in line]  # not the headings
    listed = [line for line in rows if " exact " in line or " monte_carlo " in line]
    assert listed and all(" four " in line for line in listed)
    assert " single " not in out
    assert "NaN" not in out and all(line.split()[-2] == "exact" for line in listed if " exact " in line)
    metrics = [next(word for word in line.split() if word.startswith(("p_", "mean_"))) for line in listed]
    assert metrics[0].startswith("p_")  # the chances first, each metric's rows together, heaviest first
    assert all(metrics.index(m) == i or metrics[i - 1] == m for i, m in enumerate(metrics))
    weights = [float(line.split()[-1]) for line in listed if line.split()[-1] != "inf"]
    first_metric = [float(line.split()[-1]) for line in listed if metrics[0] in line.split()]
    assert first_metric == sorted(first_metric, reverse=True) and weights


def test_regress_errors(baselined, tmp_path, capsys):
    experiment, directory = baselined
    code, _, err = run_cli(capsys, "regress", str(experiment), "--dir", str(tmp_path / "none"))
    assert code == 2 and "no baseline of 'small'" in err and "simlab baseline" in err
    experiment.write_text(experiment.read_text().replace('"four"]', '"four", "half"]'))
    code, _, err = run_cli(capsys, "regress", str(experiment), "--dir", str(directory))
    assert code == 2 and "the experiment changed since its baseline" in err
    code, _, err = run_cli(capsys, "regress", str(experiment), "--dir", str(directory), "--margin", "-1")
    assert code == 2


def test_regress_says_when_versions_differ(baselined, capsys):
    experiment, directory = baselined
    provenance = directory / "small" / "provenance.json"
    data = json.loads(provenance.read_text())
    data["versions"]["numba"] = "0.1.0"
    provenance.write_text(json.dumps(data))
    code, out, _ = run_cli(capsys, "regress", str(experiment), "--dir", str(directory))
    assert code == 0 and "note: small: the baseline was made with" in out and "numba 0.1.0" in out


@pytest.mark.slow
def test_false_alarm_rate_of_unchanged_rules_is_at_most_one_percent(tmp_path):
    """200 pairs of independent runs of unchanged rules: Holm at 0.01 must rarely flag any row."""
    from scipy import stats

    from simlab.workflow.runner import run_experiment

    alarms = 0
    pairs = 200
    for pair in range(pairs):
        first = run_experiment(load_experiment(small(tmp_path, 4000, 2 * pair, "monte_carlo"))).table
        second = run_experiment(load_experiment(small(tmp_path, 4000, 2 * pair + 1, "monte_carlo"))).table
        rows = compare_rows(first, second)
        alarms += bool(holm(rows["p_value"].to_numpy(), 0.01).any())
    low = stats.binomtest(alarms, pairs).proportion_ci(0.95, method="wilson").low
    assert low <= 0.01, f"{alarms} false alarms in {pairs} unchanged pairs"
