"""Sampling on a real Dask cluster (a LocalCluster of worker processes): bit-identical to the threads.

The same tables with and without ``--scheduler``, the same even when a worker is killed in the
middle of a run, a one-line error for a scheduler that cannot be reached, and workers with other
versions refused.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import run_cli

distributed = pytest.importorskip("distributed")

from simlab.engine import cluster as simlab_cluster  # noqa: E402
from simlab.engine.cluster import scheduler  # noqa: E402
from simlab.inputs.errors import SimlabError  # noqa: E402

# its module's fixtures (a server, a browser, a cluster, runs) built once: every test of it on one worker
pytestmark = pytest.mark.xdist_group("cluster")


@pytest.fixture(scope="module")
def dask_cluster():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=50
    ) as local:
        yield local


@pytest.mark.parametrize(
    ("name", "trials"),
    [("striker_duels", "trials = 40000"), ("tft_autofire_modes", "trials = 400000")],
    ids=["striker_duels", "tft_autofire_modes"],
)
def test_a_cluster_writes_the_same_table_as_the_threads(dask_cluster, capsys, tmp_path, name, trials):
    experiment = tmp_path / f"{name}.toml"  # the shipped experiment at a tenth of its trials
    experiment.write_text(Path(f"experiments/{name}.toml").read_text().replace(trials, trials[:-1]))
    code, _, err = run_cli(capsys, "run", str(experiment), "--out", str(tmp_path / "threads"))
    assert code == 0, err
    code, _, err = run_cli(capsys, "run", str(experiment), "--out", str(tmp_path / "dask"), "--scheduler",
                           dask_cluster.scheduler_address)  # fmt: skip
    assert code == 0, err
    table = f"{name}/table.csv"
    assert (tmp_path / "threads" / table).read_bytes() == (tmp_path / "dask" / table).read_bytes()


def test_exact_cells_and_their_marginal_values_on_a_cluster_are_the_same(dask_cluster):
    """Exact cells travel to the workers with their marginal changes (``+1 DX``...): the same rows."""
    from simlab.workflow.experiments import load_experiment
    from simlab.workflow.runner import run_experiment

    experiment = load_experiment("experiments/tft_autofire_modes.toml")
    here = run_experiment(experiment, threads=1)
    with scheduler(dask_cluster.scheduler_address):
        there = run_experiment(experiment, threads=1)
    assert len(here.marginals) > 0
    assert there.marginals.equals(here.marginals)
    assert there.table.equals(here.table)


def test_a_comparison_on_a_cluster_is_the_same(dask_cluster, capsys, tmp_path):
    small = tmp_path / "striker_duels.toml"  # the shipped duels at a twentieth of their trials
    small.write_text(Path("experiments/striker_duels.toml").read_text().replace("trials = 40000", "trials = 2000"))
    args = ["compare", str(small), "--variant", "experiments/variants/striker_blowthrough_off.toml", "--batches", "4"]
    code, _, err = run_cli(capsys, *args, "--out", str(tmp_path / "threads"))
    assert code == 0, err
    code, _, err = run_cli(
        capsys, *args, "--out", str(tmp_path / "dask"), "--scheduler", dask_cluster.scheduler_address
    )
    assert code == 0, err
    table = "compare_striker_duels/table.csv"
    assert (tmp_path / "threads" / table).read_bytes() == (tmp_path / "dask" / table).read_bytes()


def test_a_sampled_solve_on_a_cluster_is_the_same(dask_cluster, capsys):
    args = ["solve", "striker", "--battle", "experiments/battles/striker_fireteam.toml", "--find", "a.count",
            "--target", "p_a_wins=0.75", "--in", "1..8", "--trials", "3000", "--json"]  # fmt: skip
    code, here, err = run_cli(capsys, *args)
    assert code == 0, err
    code, there, err = run_cli(capsys, *args, "--scheduler", dask_cluster.scheduler_address)
    assert code == 0 and there == here, err


def test_a_tournament_on_a_cluster_is_the_same_spc_7(dask_cluster, capsys):
    ships = ["scout", "yacht", "frigate", "cruiser"]  # every seating is a job of its own: four ships show it
    args = ["tournament", "space_v4", *(f"--option=ship={ship}" for ship in ships), "--trials", "300", "--json"]
    code, here, err = run_cli(capsys, *args)
    assert code == 0, err
    code, there, err = run_cli(capsys, *args, "--scheduler", dask_cluster.scheduler_address)
    assert code == 0 and there == here, err


def test_a_tune_on_a_cluster_is_the_same(dask_cluster, capsys):
    options = [f"--option={name}: weapon={weapon}" for name, weapon in (("rifle", "rifle"), ("smg", "submachinegun"))]
    args = ["tune", "striker", *options, "--knob", "smg:skill=0..3", "--goal", "even", "--trials", "200",
            "--budget", "3", "--json"]  # fmt: skip
    code, here, err = run_cli(capsys, *args)
    assert code in (0, 1) and here, err
    code_there, there, err = run_cli(capsys, *args, "--scheduler", dask_cluster.scheduler_address)
    assert code_there == code and there == here, err


def test_the_json_of_an_attack_is_the_same_with_a_local_cluster(capsys, monkeypatch):
    args = ["attack", "striker", "--set", "weapon=rifle", "--set", "armor=cloth", "--trials", "3000000", "--json"]
    code, threads, _ = run_cli(capsys, *args)
    monkeypatch.setenv("SIMLAB_SCHEDULER", "local:2")  # the environment variable, as --scheduler
    code_dask, dask, err = run_cli(capsys, *args)
    assert code == code_dask == 0, err
    assert threads == dask


def test_a_worker_killed_in_the_middle_of_a_run_changes_nothing(dask_cluster):
    from simlab.systems import ScenarioRequest, get_system

    striker = get_system("striker")
    request = ScenarioRequest(scenario={"weapon": "rifle", "armor": "cloth"}, method="monte_carlo", trials=64_000_000,
                            seed=4, threads=2, block_size=1 << 18)  # fmt: skip
    expected = striker.attack.answer(request).to_json()
    with distributed.Client(dask_cluster.scheduler_address) as client:
        pids = client.run(os.getpid)  # worker address → process id
        victim_address, victim_pid = next(iter(pids.items()))
        started = threading.Event()

        def kill_when_started() -> None:
            started.wait(60)
            os.kill(victim_pid, signal.SIGKILL)  # the worker dies with its tasks; its nanny starts another

        killer = threading.Thread(target=kill_when_started)
        killer.start()

        progress_seen: list[int] = []

        def progress(done: int) -> None:
            progress_seen.append(done)
            started.set()

        with scheduler(client.scheduler.address):
            assert simlab_cluster.current_client() is not None
            got = striker.attack.answer(ScenarioRequest(**{**request.__dict__, "progress": progress})).to_json()
        killer.join()
        assert len(progress_seen) > 10  # many tasks: the kill came while most of them were still to run
        client.wait_for_workers(2, timeout=60)
        assert victim_address not in client.run(os.getpid)  # it was killed, and another took its place
    assert got == expected


def test_an_unreachable_scheduler_is_one_line_and_exit_2():
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "simlab", "run", "experiments/striker_duels.toml", "--scheduler", "tcp://127.0.0.1:1"],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:1" in result.stderr
    assert time.perf_counter() - started < 10  # the acceptance point: within ten seconds


@pytest.mark.parametrize("address", ["local:0", "local:many", "nowhere", "local:999"])
def test_a_malformed_scheduler_address_is_refused(capsys, address):
    code, _, err = run_cli(capsys, "attack", "striker", "--set", "weapon=rifle", "--scheduler", address)
    assert code == 2 and err.startswith(f"error: invalid --scheduler {address!r}")


class _OtherVersions:
    """A client whose workers report other versions (a real cluster here has only this machine's)."""

    def run(self, function):
        versions = function()
        return {"tcp://10.0.0.7:40000": {**versions, "numba": "0.1.0"}}


def test_workers_with_other_versions_are_refused():
    with pytest.raises(SimlabError, match=r"runs other versions: numba 0\.1\.0 \(here "):
        simlab_cluster._check_versions(_OtherVersions(), "tcp://10.0.0.7:8786")


def test_bench_on_a_cluster_reports_speedup_and_overhead(dask_cluster):
    from simlab.workflow.bench import cluster_bench

    report = cluster_bench(dask_cluster.scheduler_address, scale=0.05)  # the shape of the report, not speed
    assert report["workers"] == 2 and report["task_overhead_ms"] > 0
    assert [e["name"] for e in report["experiments"]] == ["tyconian_indirect_fire", "space_duels"]
    for e in report["experiments"]:
        assert e["identical"] and e["speedup"] > 0 and e["one_thread_seconds"] > 0 and e["cluster_seconds"] > 0
