"""Running experiments: tidy tables, exact against sampled, precision, curves and marginal values."""

from pathlib import Path

import numpy as np
import pytest
from conftest import small_experiment

import simlab
from simlab.engine.pmf import PMF
from simlab.workflow.experiments import load_experiment
from simlab.workflow.runner import incapacitation_curve, run_experiment

# its module's fixtures (a server, a browser, a cluster, runs) built once: every test of it on one worker
pytestmark = pytest.mark.xdist_group("runner")


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    path = small_experiment(tmp_path_factory.mktemp("exp"), trials=50000, seed=3)
    return run_experiment(load_experiment(path))


def test_table_is_tidy_with_every_cell_method_and_metric(small_run):
    table = small_run.table
    inputs = ["armor", "range_m", "weapon", "mode"]
    assert list(table.columns) == [
        "cell",
        "variant",
        *inputs,
        "method",
        "metric",
        "value",
        "ci_low",
        "ci_high",
        "trials",
    ]
    assert sorted(set(table["cell"])) == [0, 1, 2, 3]
    per_cell = table.groupby(["cell", "method"]).size()
    assert (per_cell == 8).all()  # the eight TFT-10 metrics
    exact = table[table["method"] == "exact"]
    assert exact["ci_low"].isna().all() and exact["trials"].isna().all()
    sampled = table[table["method"] == "monte_carlo"]
    assert (sampled["trials"] == 50000).all() and (sampled["ci_low"] <= sampled["ci_high"]).all()


def test_exact_and_sampled_values_agree(small_run):
    table = small_run.table
    keys = ["cell", "metric"]
    exact = table[table["method"] == "exact"].set_index(keys)["value"]
    sampled = table[table["method"] == "monte_carlo"].set_index(keys)
    # Metrics of one cell share their trials, so they miss together; within twice the 95 %
    # half-width (about 4 standard errors) every one must lie. The chi-square tests are stricter.
    slack = sampled["ci_high"] - sampled["ci_low"] + 1e-12
    assert ((sampled["value"] - exact).abs() <= slack).all()


def test_cells_use_their_own_streams_and_match_single_attacks(small_run):
    row = small_run.table.query("cell == 3 and method == 'monte_carlo' and metric == 'mean_damage'").iloc[0]
    alone = simlab.systems.get_system("hitech_tft").attack.answer(
        simlab.ScenarioRequest(
            scenario={"armor": "flak jacket", "range_m": 20, "weapon": "gauss rifle", "mode": "four"},
            method="monte_carlo",
            trials=50000,
            seed=3,
            cell=3,
        )
    )
    assert row["value"] == alone.metrics["mean_damage"]


def test_precision_grows_the_trials_until_met(tmp_path):
    path = small_experiment(tmp_path, trials=50000, seed=3, method="monte_carlo", extra="precision = 0.004")
    run = run_experiment(load_experiment(path))
    widths = (run.table["ci_high"] - run.table["ci_low"]) / 2
    assert widths.max() <= 0.004
    assert run.table["trials"].min() > 50000


def test_incapacitation_curve_against_convolution():
    damage = {0: 0.5, 2: 0.25, 5: 0.25}
    curve = incapacitation_curve(damage, threshold=6, attacks=5)
    one = PMF(0, np.array([damage.get(i, 0.0) for i in range(6)]))
    expected = [one.times(n).p_at_least(6) for n in range(1, 6)]
    np.testing.assert_allclose(curve, expected, atol=1e-12)
    assert incapacitation_curve(damage, threshold=0, attacks=3) == [1.0, 1.0, 1.0]


def test_first_point_of_the_curve_is_p_incapacitated(small_run):
    first = small_run.incapacitation.query("attacks == 1").set_index("cell")["p_incapacitated"]
    metric = small_run.table.query("method == 'exact' and metric == 'p_incapacitated'").set_index("cell")["value"]
    np.testing.assert_allclose(first.sort_index(), metric.sort_index(), atol=1e-12)


def test_marginal_value_of_one_dx_is_the_exact_difference(small_run):
    delta = small_run.marginals.query("cell == 0 and change == '+1 DX' and metric == 'p_hit'")["delta"].item()
    inputs = {"armor": "flak jacket", "range_m": 20, "weapon": "assault rifle", "mode": "single"}
    base = simlab.attack("hitech_tft", **inputs).metrics["p_hit"]
    better = simlab.attack("hitech_tft", dx=13, **inputs).metrics["p_hit"]
    assert delta == pytest.approx(better - base, abs=1e-12)
    armour = small_run.marginals.query("change == '+1 armour' and metric == 'mean_damage'")["delta"]
    assert (armour <= 1e-12).all()


def test_api_run_reads_a_file(tmp_path):
    path = Path(tmp_path) / "tiny.toml"
    path.write_text('name = "tiny"\nsystem = "hitech_tft"\n[fixed]\nweapon = "dagger"\n')
    run = simlab.run(path)
    assert set(run.table["method"]) == {"exact"} and len(run.table) == 8
