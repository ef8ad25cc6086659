"""The analyses are one registry: a new one is one module and one registration, reached by every front end."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from simlab.analyses import ANALYSES, get_analysis, register, tables
from simlab.analyses.base import Analysis, Said, tidy_row
from simlab.output.document import Table
from simlab.records import BalanceAsk


def _read(reader):
    metric = reader.text("metric", 'a metric, such as "p_hit"')
    reader.setup.check_metric(metric)
    return BalanceAsk("coin", metric, analysis="coin")


def _said(run, words):
    values = [found for _, _, found in run.balance]
    return Said("the toy's one number", [f"The toy says {values[0]:.4f}."], [Table("Toy", run.table)])


TOY = Analysis(
    name="coin",
    table="coin",
    summary="a toy: the metric of the first cell, once",
    keys=("metric",),
    read=_read,
    units=lambda ask, setup: 1,
    columns=(),
    answer=lambda setup, ask, limits, progress, words: float(setup.answer().metrics[ask.metric]),
    rows=lambda found, trials: [tidy_row("toy", found, float("nan"), float("nan"), trials)],
    said=_said,
    charts=lambda run, words: [],
)


@pytest.fixture
def toy():
    register(TOY)
    yield TOY
    ANALYSES.pop("coin", None)


def test_every_shipped_analysis_is_registered_with_its_table():
    shipped = ("solve", "sensitivity", "tournament", "matchup")
    assert [get_analysis(name).table for name in shipped] == ["solve", "sensitivity", "tournament", "tournament"]
    assert set(tables()) >= {"solve", "sensitivity", "tournament"}


def test_a_toy_analysis_registered_alone_runs_as_an_experiment_with_its_report(toy, tmp_path, capsys):
    path = tmp_path / "toy.toml"
    path.write_text('name = "toy"\nsystem = "hitech_tft"\nkind = "coin"\nmethod = "exact"\n'
                    '[fixed]\nweapon = "assault rifle"\n[coin]\nmetric = "p_hit"\n', encoding="utf-8")  # fmt: skip
    code, _, err = run_cli(capsys, "run", str(path), "--out", str(tmp_path / "out"), "--jobs", "1")
    assert code == 0, err
    table = (tmp_path / "out" / "toy" / "table.csv").read_text(encoding="utf-8")
    assert ",toy," in table
    assert "The toy says 0." in (tmp_path / "out" / "toy" / "report.md").read_text(encoding="utf-8")
    assert json.loads((tmp_path / "out" / "toy" / "provenance.json").read_text())["rows"] == 1
    path.write_text(path.read_text().replace('metric = "p_hit"', 'metric = "p_nope"'), encoding="utf-8")
    code, _, err = run_cli(capsys, "run", str(path), "--out", str(tmp_path / "out"))
    assert code == 2 and "toy.toml:" in err and "[coin]" in err and "p_nope" in err
