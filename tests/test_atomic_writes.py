"""A run killed at any moment leaves the old or the new complete results, and no leftovers after the next.

Kills are real: a forked child is ended with ``os._exit`` (no clean-up runs, as with SIGKILL)
at each step of a write, and ``simlab run`` itself is sent SIGKILL at moments spread over
its run. What is left must be the old complete results or the new ones, never a missing
or partial ``OUT/NAME``, and the next write must leave no staging directory behind.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simlab.output import atomic
from simlab.output.publish import RESULT_FILES
from tests.conftest import small_experiment


def fill(directory: Path, label: str) -> None:
    for name in ("a.txt", "b.txt", "c.txt"):
        (directory / name).write_text(label)


def contents(directory: Path) -> set[str]:
    return {(directory / name).read_text() for name in ("a.txt", "b.txt", "c.txt")}


def killed_write(destination: Path, label: str, kill_at: str, exchange: bool = True) -> None:
    """Write ``destination`` in a child process that dies (no clean-up) at step ``kill_at``."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            if not exchange:
                atomic._exchange = lambda first, second: False
            real_rename, real_rmtree = os.rename, atomic.shutil.rmtree
            renames = []

            def rename(source, target):
                real_rename(source, target)
                renames.append(target)
                if kill_at == "between renames" and len(renames) == 1:
                    os._exit(9)

            def rmtree(path, **options):
                if kill_at == "before removing the old":
                    os._exit(9)
                real_rmtree(path, **options)

            atomic.os.rename, atomic.shutil.rmtree = rename, rmtree
            with atomic.staged_directory(destination) as stage:
                (stage / "a.txt").write_text(label)
                if kill_at == "while staging":
                    os._exit(9)
                fill(stage, label)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def leftovers(destination: Path) -> list[str]:
    return sorted(p.name for p in destination.parent.iterdir() if p.name != destination.name)


@pytest.mark.parametrize(
    ("kill_at", "exchange", "expected"),
    [
        ("while staging", True, "old"),
        ("before removing the old", True, "new"),
        ("while staging", False, "old"),
        ("between renames", False, "old"),
        ("before removing the old", False, "new"),
        ("never", True, "new"),
        ("never", False, "new"),
    ],
)
def test_a_kill_at_any_step_leaves_old_or_new_and_the_next_write_cleans_up(tmp_path, kill_at, exchange, expected):
    destination = tmp_path / "out" / "name"
    with atomic.staged_directory(destination) as stage:
        fill(stage, "old")
    killed_write(destination, "new", kill_at, exchange)
    atomic.clean_stale(destination)  # what the next run does first
    assert contents(destination) == {expected}
    assert leftovers(destination) == []
    with atomic.staged_directory(destination) as stage:
        fill(stage, "next")
    assert contents(destination) == {"next"} and leftovers(destination) == []


def test_a_first_write_killed_leaves_nothing(tmp_path):
    destination = tmp_path / "out" / "name"
    killed_write(destination, "new", "while staging")
    atomic.clean_stale(destination)
    assert not destination.exists() and leftovers(destination) == []


def test_a_busy_write_of_another_process_is_not_touched(tmp_path):
    destination = tmp_path / "name"
    busy = tmp_path / f".name.{os.getppid()}.abcdefgh.tmp"
    busy.mkdir()
    atomic.clean_stale(destination)
    assert busy.exists()


def complete(directory: Path) -> bool:
    if not all((directory / name).is_file() for name in RESULT_FILES):
        return False
    json.loads((directory / "provenance.json").read_text())
    return True


@pytest.mark.slow
def test_sigkill_of_simlab_run_at_any_moment(tmp_path):
    experiment = small_experiment(tmp_path, trials=20_000, method="both")
    out = tmp_path / "results"
    command = [sys.executable, "-m", "simlab", "run", str(experiment), "--out", str(out)]
    started = time.monotonic()  # the first run writes the results every kill below must leave whole
    subprocess.run(command, check=True, capture_output=True)
    whole = time.monotonic() - started
    assert complete(out / "small")
    for step in range(3):  # kills spread over the second half of a run, where it writes
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(whole * (0.45 + 0.2 * step))
        process.send_signal(signal.SIGKILL)
        process.wait()
        assert complete(out / "small"), f"kill {step}: {sorted(p.name for p in out.iterdir())}"
    subprocess.run(command, check=True, capture_output=True)
    assert complete(out / "small")
    assert sorted(p.name for p in out.iterdir()) == ["small"]
