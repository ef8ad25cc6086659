"""The analyses are one registry: a new one is one module and one registration, reached by every front end."""

from __future__ import annotations

import html
import json
import re
import shlex

import pytest
from conftest import run_cli

import simlab
from simlab.analyses import ANALYSES, get_analysis, register, tables
from simlab.analyses.base import Analysis, Key, Said, tidy_row
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
    keys=(Key("metric", "the metric the toy says", "METRIC", choices="metrics", leads=True),),
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


def test_a_toy_analysis_registered_alone_is_a_command_a_python_call_and_a_web_form(toy, capsys):
    from fastapi.testclient import TestClient

    from simlab.web.app import create_app

    code, out, err = run_cli(capsys, "coin", "hitech_tft", "--set", "weapon=assault rifle", "--metric", "p_hit",
                             "--exact")  # fmt: skip
    assert code == 0, err
    said = out.splitlines()[0]
    asked = simlab.attack("hitech_tft", weapon="assault rifle", method="exact")
    assert said.startswith("0.") and float(said) == pytest.approx(asked.metrics["p_hit"])
    code, _, err = run_cli(capsys, "coin", "hitech_tft", "--metric", "p_nope", "--exact")
    assert code == 2 and "p_nope" in err and "Traceback" not in err
    code, out, _ = run_cli(capsys, "--help")
    assert "coin" in out and "A toy: the metric of the first cell, once." in out
    assert simlab.analyse("coin", "hitech_tft", metric="p_hit", inputs={"weapon": "assault rifle"}) == float(said)

    client = TestClient(create_app(max_trials=200_000))
    query = {"do": "coin", "metric": "p_hit", "weapon": "assault rifle", "method": "exact"}
    form = client.get("/balance/hitech_tft", params={"do": "coin"}).text
    assert 'id="f-metric"' in form and '<option value="coin"' in form
    page = client.get("/balance/hitech_tft", params=query)
    assert page.status_code == 200
    first = html.unescape(re.search(r'<ul class="balance" id="balance"><li>(.*?)</li>', page.text).group(1))
    assert first == said
    command = html.unescape(re.search(r'<code class="command" id="command">(.*?)</code>', page.text).group(1))
    code, out, err = run_cli(capsys, *shlex.split(command)[1:], "--json")
    assert code == 0, err
    assert client.get("/api/balance/hitech_tft", params=query).json() == json.loads(out)
    assert client.get("/csv/balance/hitech_tft", params=query).text.startswith("metric,value,ci_low,ci_high,trials")
    refused = client.get("/balance/hitech_tft", params={**query, "metric": "p_nope"})
    assert refused.status_code == 400 and "p_nope" in html.unescape(refused.text)


def test_an_analysis_needing_a_module_not_installed_is_refused_when_named_and_left_out_of_the_whole_job(
    tmp_path, capsys, monkeypatch
):
    import dataclasses

    from simlab.commands.options import load_experiments
    from simlab.workflow.experiment_checks import MissingExtraError
    from simlab.workflow.experiments import load_experiment

    register(dataclasses.replace(TOY, needs=("simlab_no_such_module",)))
    try:
        (tmp_path / "experiments").mkdir()
        path = tmp_path / "experiments" / "toy.toml"
        path.write_text('name = "toy"\nsystem = "hitech_tft"\nkind = "coin"\nmethod = "exact"\n'
                        '[fixed]\nweapon = "assault rifle"\n[coin]\nmetric = "p_hit"\n', encoding="utf-8")  # fmt: skip
        with pytest.raises(MissingExtraError, match="a coin needs simlab_no_such_module: pip install simlab_no"):
            load_experiment(path)
        monkeypatch.chdir(tmp_path)
        _, every = load_experiments([], None, 20_000, 10**10)
        assert every == [] and "left out experiments/toy.toml:" in capsys.readouterr().err
    finally:
        ANALYSES.pop("coin", None)

