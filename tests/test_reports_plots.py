"""Report tables and charts: pandas in, pandas or a labelled Figure out."""

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from simlab.output import charts, plots
from simlab.output import pivots as reports
from simlab.output.document import shading_css
from simlab.records import ChartSpec
from simlab.workflow.experiments import load_experiment
from simlab.workflow.runner import run_experiment

# its module's fixtures (a server, a browser, a cluster, runs) built once: every test of it on one worker
pytestmark = pytest.mark.xdist_group("reports_plots")


def tidy(rows):
    base = {"method": "exact", "ci_low": float("nan"), "ci_high": float("nan"), "trials": pd.NA}
    return pd.DataFrame([{**base, **row} for row in rows])


TABLE = tidy(
    [
        {"cell": 0, "weapon": "a", "armor": "x", "metric": "mean_damage", "value": 3.0},
        {"cell": 1, "weapon": "a", "armor": "y", "metric": "mean_damage", "value": 1.0},
        {"cell": 2, "weapon": "b", "armor": "x", "metric": "mean_damage", "value": 2.0},
        {"cell": 3, "weapon": "b", "armor": "y", "metric": "mean_damage", "value": 1.5},
        {"cell": 3, "weapon": "b", "armor": "y", "metric": "mean_damage", "value": 1.4, "method": "monte_carlo"},
    ]
)


def test_pivot_prefers_exact_and_keeps_grid_order():
    table = reports.pivot(TABLE, "mean_damage", "weapon", "armor")
    assert list(table.index) == ["a", "b"] and list(table.columns) == ["x", "y"]
    assert table.loc["b", "y"] == 1.5


def test_ranking_orders_per_armour():
    ranked = reports.ranking(TABLE, "mean_damage", "weapon", "armor")
    assert ranked.loc["x", "1"].startswith("a (3") and ranked.loc["y", "1"].startswith("b (1.5")


def test_marginal_value_averages_over_other_inputs():
    marginals = pd.DataFrame(
        [
            {"weapon": "a", "armor": "x", "change": "+1 DX", "metric": "mean_damage", "delta": 0.5},
            {"weapon": "a", "armor": "y", "change": "+1 DX", "metric": "mean_damage", "delta": 0.1},
            {"weapon": "a", "armor": "x", "change": "+1 armour", "metric": "mean_damage", "delta": -1.0},
        ]
    )
    table = reports.marginal_value(marginals, "mean_damage", "weapon")
    assert table.loc["a", "+1 DX"] == pytest.approx(0.3) and table.loc["a", "+1 armour"] == -1.0


def test_select_accepts_lists():
    assert len(reports.select(TABLE, {"weapon": ["a"], "armor": "x"})) == 1


@pytest.fixture(scope="module")
def modes_run():
    return run_experiment(load_experiment("experiments/tft_autofire_modes.toml"))


def labelled(figure: Figure) -> None:
    assert isinstance(figure, Figure)
    for axes in figure.axes:
        if axes.get_label() == "<colorbar>":
            continue
        assert axes.get_xlabel() and axes.get_ylabel()


def test_every_chart_kind_draws_labelled_axes(modes_run):
    labelled(plots.curve(modes_run.table, "p_hit", "mode", by="weapon"))
    labelled(plots.heatmap(modes_run.table, "mean_damage", "weapon", "mode"))
    labelled(plots.distribution(modes_run.distributions, "damage", by="mode", where={"weapon": "gauss rifle"}))
    labelled(plots.attacks_to_incapacitate(modes_run.incapacitation, by="mode"))
    for spec in modes_run.experiment.charts:
        labelled(charts.draw(spec, modes_run))


def test_sampled_points_carry_error_bars(modes_run):
    figure = plots.curve(modes_run.table.query("weapon == 'gauss rifle'"), "p_hit", "mode", by="weapon")
    axes = figure.axes[0]
    assert axes.containers, "sampled values are drawn with error bars"
    assert "95 %" in axes.get_xlabel()
    assert axes.get_legend() is not None


def test_default_charts_follow_the_grid():
    hit = load_experiment("experiments/tft_hit_probability.toml")
    kinds = {spec.kind for spec in charts.choose_charts(hit, ["p_hit"])}
    assert "curve" in kinds
    armour = load_experiment("experiments/tft_weapons_armour.toml")
    chosen = charts.choose_charts(armour, ["mean_damage", "p_incapacitated", "mean_damage_at_0"])
    assert [s.kind for s in chosen].count("heatmap") == 2
    assert all(len(s.get("by", [])) <= 2 for s in chosen)


def test_chart_file_names_are_unique():
    taken: set[str] = set()
    spec = ChartSpec("curve", {"metric": "p_hit", "x": "dx"})
    assert charts.chart_file_name(spec, taken) == "curve_p_hit_dx"
    assert charts.chart_file_name(spec, taken) == "curve_p_hit_dx_2"


def test_charts_of_a_run_with_variants_show_the_base_rules_unless_they_name_variant():
    run = run_experiment(load_experiment("experiments/space_missiles_pd.toml"))
    options = {"metric": "mean_missiles_destroyed", "rows": "pd_turrets", "cols": "count"}

    def cells(**where: object) -> list[str]:
        figure = charts.draw(ChartSpec("heatmap", {**options, "where": {"pd_dedicated": True, **where}}), run)
        return [text.get_text() for text in figure.axes[0].texts]

    assert cells() == cells(variant="base") != cells(variant="space_pd_computer_literal")
    per_variant = ChartSpec("heatmap", {**options, "panels": "variant"})
    assert len(charts.draw(per_variant, run).axes) == 3  # a panel for each rule set and the colour bar


def test_table_shading_is_the_styler_gradient_and_leaves_empty_cells_plain():
    frame = pd.DataFrame({"a": [0.1, 0.5, np.nan, 0.9, 0.3], "b": [1.0, 1.0, 1.0, 1.0, 1.0]})
    css = shading_css(frame)
    assert css.loc[2, "a"] == "" and (css["b"] == "").all()  # no black cell for a missing value
    styler = frame[["a"]].dropna().style.background_gradient(cmap="Blues", low=0.05, high=0.35)
    styler._compute()
    for (row, _), styles in styler.ctx.items():
        label = frame[["a"]].dropna().index[row]
        assert css.loc[label, "a"] == "".join(f"{prop}: {value};" for prop, value in styles)
