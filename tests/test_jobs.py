"""Experiments side by side in worker processes: the same files as one after another, and a display that logs."""

import time
from pathlib import Path

import pytest
from conftest import run_cli

from simlab.workflow.jobs import JobDisplay, Task, Workers

EXPERIMENTS = ["experiments/tyconian_duels.toml", "experiments/tft_hit_probability.toml"]


def test_worker_processes_write_the_same_tables_as_one_process(tmp_path, capsys):
    one, two = tmp_path / "one", tmp_path / "two"
    duels = tmp_path / "tyconian_duels.toml"  # the shipped duels at a fifth of their trials
    duels.write_text(Path(EXPERIMENTS[0]).read_text().replace("trials = 20000", "trials = 4000"))
    experiments = [str(duels), EXPERIMENTS[1]]
    code, out_one, _ = run_cli(capsys, "run", *experiments, "--out", str(one), "--jobs", "1")
    assert code == 0 and "at a time" not in out_one
    code, out_two, _ = run_cli(capsys, "run", *experiments, "--out", str(two), "--jobs", "2")
    assert code == 0 and out_two.splitlines()[-1].endswith("2 experiments at a time")
    for name in ("tyconian_duels", "tft_hit_probability"):
        assert (one / name / "table.csv").read_bytes() == (two / name / "table.csv").read_bytes()
        assert f"{name}: started" in out_two  # a start and an end line for each, for logs


def test_a_late_start_message_is_shown_before_the_end(capsys):
    display = JobDisplay("run", [Task("quick", Path("q.toml"), 1, 3)], interactive=False)
    display.finish("quick", "quick: done")
    display.start("quick")  # the worker's start message arrives after its result
    display.close("all done")
    assert capsys.readouterr().out.splitlines() == ["quick: started, 3 cells", "quick: done", "all done"]


def test_jobs_must_be_a_sensible_number(capsys):
    code, _, err = run_cli(capsys, "run", EXPERIMENTS[0], "--jobs", "0")
    assert code == 2 and err.startswith("error: invalid value 0 for --jobs")


def test_a_failed_job_stops_its_workers_at_once(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\nsystem = "nope"\n', encoding="utf-8")
    code, _, err = run_cli(capsys, "run", EXPERIMENTS[0], str(bad), "--out", str(tmp_path / "out"), "--jobs", "2")
    assert code == 2 and err.startswith(f"error: {bad}:2: system: unknown system 'nope'")
    assert not (tmp_path / "out").exists()
    with pytest.raises(RuntimeError), Workers(2) as workers:
        workers.pool.submit(int).result()  # the pool starts its processes with its first task
        processes = workers.pool._processes  # the executor's own record of its processes
        raise RuntimeError("a task failed")
    assert processes and not any(process.is_alive() for process in processes.values())


def test_an_abort_stops_a_busy_worker_the_executor_has_not_recorded():
    """A stop that lands between a worker's fork and the executor's record of it leaves nothing running."""
    with pytest.raises(RuntimeError), Workers(2) as workers:
        workers.pool.submit(int).result()
        processes = list(workers.pool._processes.values())
        workers.pool.submit(time.sleep, 600)  # a task that would hold a waiting shutdown for 10 minutes
        workers.pool._processes.clear()  # as if the stop came before the executor recorded its workers
        started = time.monotonic()
        raise RuntimeError("stopped")
    assert time.monotonic() - started < 3
    assert processes and not any(process.is_alive() for process in processes)
