"""Lint, types, the module entry point and the benchmark's report shape (no timing assertions)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from simlab.workflow.bench import run_bench

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("command", [["ruff", "check", "simlab", "tests"], ["mypy"]], ids=["ruff", "mypy"])
def test_code_is_lint_and_type_clean(command):
    result = subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_python_dash_m_simlab_runs_and_fails_cleanly():
    ok = subprocess.run([sys.executable, "-m", "simlab", "systems", "--json"], capture_output=True, text=True)
    assert ok.returncode == 0 and json.loads(ok.stdout)[0]["name"] == "hitech_tft"
    bad = subprocess.run([sys.executable, "-m", "simlab", "attack", "nope"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


def test_bench_report_has_every_figure():
    from simlab.web.bench import serve_bench

    serve = lambda: serve_bench(repeat=1, battle_repeat=1, battle_trials=2_000)  # noqa: E731 - the shape only
    report = run_bench(trials=4_000, repeat=1, sections={"serve": serve})
    keys = {
        "name",
        "system",
        "trials_per_s_1thread",
        "trials_per_s_all",
        "threads",
        "numpy_trials_per_s",
        "python_trials_per_s",
        "draws_per_trial",
        "generator_draws_per_s",
    }
    names = [w["name"] for w in report["workloads"]]
    assert names == [
        "tft_four_round_burst", "tft_full_burst_gauss", "striker_half_clip_burst", "striker_duel",
        "striker_battle_4v4", "tyconian_full_auto", "tyconian_duel", "tyconian_battle_3v3",
        "tyconian_mortar_salvo", "tyconian_healing",
        "space_turret_group", "space_missile_flight", "space_duel",
    ]  # fmt: skip
    for workload in report["workloads"]:
        assert set(workload) == keys
        twins = (
            {"numpy_trials_per_s"}
            if workload["name"]
            in ("tyconian_mortar_salvo", "tyconian_healing", "space_duel", "striker_battle_4v4", "tyconian_battle_3v3")
            else set()
        )
        assert all(workload[k] > 0 for k in keys - {"name", "system"} - twins)
    exact = {e["name"]: e for e in report["exact"]}
    assert set(exact) == {
        "tft_four_round_burst",
        "tft_full_burst_gauss",
        "striker_half_clip_burst",
        "tyconian_full_auto",
        "space_turret_group",
        "space_missile_flight",
    }
    assert all(e["seconds"] > 0 for e in exact.values())
    assert all(
        exact[name]["icepool_seconds"] > 0 for name in names if name.startswith(("tft", "space")) and name in exact
    )
    assert report["peak_rss_mb"] > 0
    serve = report["serve"]  # the web page's section (the web extra is part of the test extras)
    for entries in (serve["api"], serve["pages"]):
        assert [e["system"] for e in entries] == ["hitech_tft", "striker", "tyconian", "space_v4"]
        assert all(0 < e["p50_ms"] <= e["p95_ms"] and e["requests"] == 1 for e in entries)
    assert serve["heatmap"]["cells"] == 387 and serve["heatmap"]["p95_ms"] > 0
    shipped = ["space_squadron", "striker_fireteam", "tft_hexes", "tyconian_squads"]
    assert [b["battle"] for b in serve["battles"]] == shipped
    assert all(b["charts"] == 2 and b["p95_ms"] > 0 for b in serve["battles"])  # a page and the charts it shows
    startup = report["startup"]  # whole processes against python -c "import numpy"
    assert [e["command"] for e in startup][:2] == ["simlab --help", "simlab systems"]
    assert all(e["seconds"] > 0 and e["yardstick_seconds"] > 0 and e["goal_ratio"] in (1.5, 2.5) for e in startup)
