"""The benchmark suite behind ``simlab bench`` (docs/explanation/performance.md).

Every figure is measured in the run that reports it: the compiled samplers with one thread
and with all threads, their numpy and pure-Python twins on the same workload, the random
draws a trial makes (counted by the kernel) against the generator's own draw rate, the
exact engine against icepool on the same distributions, and the peak memory.
"""

from __future__ import annotations

import dataclasses
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from simlab.engine.blocks import run_blocks
from simlab.engine.bounds import default_threads
from simlab.engine.rng import raw_draws, stream_key
from simlab.systems import all_systems
from simlab.systems.workloads import SEED, Workload, best_seconds

__all__ = ["all_workloads", "run_bench"]


def all_workloads() -> list[Workload]:
    """Every system's workloads, the systems in id order."""
    return [workload for system in all_systems() for workload in system.workloads()]


def generator_draws_per_s(draws: int, repeat: int = 3) -> float:
    """The generator's own rate: draws per second of a loop that only generates them."""
    key = stream_key(SEED)
    raw_draws(np.uint64(key.offset), np.uint64(key.gamma), 10)
    seconds = best_seconds(lambda: raw_draws(np.uint64(key.offset), np.uint64(key.gamma), draws), repeat)
    return draws / seconds


def _sampler_rates(workload: Workload, trials: int, repeat: int) -> dict[str, Any]:
    samplers = workload.prepare()
    trials = max(int(trials * workload.scale), 10_000)
    samplers.compiled(0, 1000)  # compile outside the timing
    threads = default_threads()
    tallies: list[Any] = []

    def one_thread() -> None:
        tallies[:] = run_blocks(samplers.compiled, trials, threads=1)

    single = best_seconds(one_thread, repeat)
    draws_per_trial = samplers.draws(tallies) / trials
    every = best_seconds(lambda: run_blocks(samplers.compiled, trials, threads=threads), repeat)
    numpy_rate = None
    numpy_twin = samplers.numpy
    if numpy_twin is not None:
        numpy_trials = max(trials // 50, 1_000)  # 400,000 at the default trials
        numpy_seconds = best_seconds(lambda: run_blocks(numpy_twin, numpy_trials, threads=1), 1)
        numpy_rate = numpy_trials / numpy_seconds
    python_trials = max(trials // 2000, 200)  # 10,000 at the default trials
    python_seconds = best_seconds(lambda: samplers.python(0, python_trials), 1)
    return {
        "name": workload.name,
        "system": workload.system,
        "trials_per_s_1thread": trials / single,
        "trials_per_s_all": trials / every,
        "threads": threads,
        "numpy_trials_per_s": numpy_rate,
        "python_trials_per_s": python_trials / python_seconds,
        "draws_per_trial": draws_per_trial,
    }


def startup_commands() -> list[tuple[str, tuple[str, ...], float]]:
    """The commands whose start-up ``simlab bench`` times, each with the most it may take against the yardstick.

    The help, the catalogue, and each system's typical attack (:attr:`System.example`), exact.
    """
    commands: list[tuple[str, tuple[str, ...], float]] = [("simlab --help", ("--help",), 1.5),
                                                          ("simlab systems", ("systems",), 1.5)]  # fmt: skip
    for system in all_systems():
        sets = [part for key, value in system.example.items() for part in ("--set", f"{key}={value}")]
        commands.append((f"exact attack {system.name}", ("attack", system.name, *sets, "--exact"), 2.5))
    return commands


#: What a command's start-up is measured against: a fresh interpreter importing numpy.
STARTUP_YARDSTICK = ("-c", "import numpy")


def _process_seconds(arguments: Sequence[str]) -> float:
    """Wall seconds of one fresh ``python ARGUMENTS`` process, start to exit."""
    started = time.perf_counter()
    subprocess.run([sys.executable, *arguments], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def startup_bench(repeat: int = 5) -> list[dict[str, Any]]:
    """How long each of :func:`startup_commands` takes as a whole process, against the yardstick.

    The command and ``python -c "import numpy"`` run in turn, ``repeat`` times each after one
    run of each to warm the caches (with ``repeat`` 1, a look at the figures' shape, none); the
    ratio is the median of the pairs' ratios, so that a drift of the machine's speed moves both
    sides of a pair alike.
    """
    rows = []
    for name, arguments, goal in startup_commands():
        command = ("-m", "simlab", *arguments)
        if repeat > 1:
            _process_seconds(command), _process_seconds(STARTUP_YARDSTICK)
        pairs = [(_process_seconds(command), _process_seconds(STARTUP_YARDSTICK)) for _ in range(repeat)]
        ratio = statistics.median(a / b for a, b in pairs)
        rows.append({
            "command": name,
            "seconds": statistics.median(a for a, _ in pairs),
            "yardstick_seconds": statistics.median(b for _, b in pairs),
            "ratio": ratio,
            "goal_ratio": goal,
            "meets_goal": ratio <= goal,
        })  # fmt: skip
    return rows


def run_bench(
    *,
    trials: int = 20_000_000,
    repeat: int = 3,
    progress: Callable[[str], None] | None = None,
    sections: Mapping[str, Callable[[], Any]] | None = None,
) -> dict[str, Any]:
    """Run every workload and return the ``simlab bench --json`` object.

    Args:
        trials: Trials per timed sampler run (the references run fewer, scaled).
        repeat: Timed runs per figure; the fastest counts.
        progress: Called with the name of each step as it starts.
        sections: Further sections, each measured by its function (the web page's ``serve``,
            from :mod:`simlab.web.bench`: the layers above the workflow measure themselves).
    """
    say = progress or (lambda _: None)
    say("generator")
    generator_rate = generator_draws_per_s(max(trials * 10, 1_000_000), repeat)
    results = []
    for workload in all_workloads():
        say(workload.name)
        rates = _sampler_rates(workload, trials, repeat)
        rates["generator_draws_per_s"] = generator_rate
        results.append(rates)
    exact = []
    for workload in all_workloads():
        if workload.exact is not None:
            say(f"exact {workload.name}")
            exact.append({"name": workload.name, **workload.exact()})
    more = {}
    for name, section in (sections or {}).items():  # measured by the layers above (the web page)
        say(name)
        more[name] = section()
    say("startup")
    startup = startup_bench(repeat=repeat)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"workloads": results, "exact": exact, **more, "startup": startup, "peak_rss_mb": peak}


#: The experiments ``simlab bench --scheduler`` times: sampled cells, and a matrix of duels.
CLUSTER_EXPERIMENTS = ("experiments/tyconian_indirect_fire.toml", "experiments/space_duels.toml")


def cluster_bench(address: str, progress: Callable[[str], None] | None = None, scale: float = 4) -> dict[str, Any]:
    """``simlab bench --scheduler ADDRESS``: sampled experiments on the cluster against one local thread.

    Each experiment, at ``scale`` times its trials (at least 1,000; a cluster is for big jobs: with the shipped
    trial counts a cell is a few tens of milliseconds, most of which the scheduler's round trip
    would cost), runs once on one thread of this process and once with its blocks on the
    cluster; the tables must be identical to the bit, and the speedup is the ratio of the two
    wall times. The per-task overhead is the scheduler's own cost of an empty task.

    Raises:
        SimlabError: As :func:`simlab.engine.cluster.scheduler`.
    """
    from simlab.engine.cluster import scheduler, task_overhead_seconds
    from simlab.workflow.experiments import load_experiment
    from simlab.workflow.runner import run_experiment

    say = progress or (lambda _: None)
    experiments = [load_experiment(path) for path in CLUSTER_EXPERIMENTS]
    scaled = [dataclasses.replace(e, trials=max(1000, round(e.trials * scale))) for e in experiments]
    rows = []
    with scheduler(address) as client:
        workers = len(client.scheduler_info()["workers"])
        overhead = task_overhead_seconds(client)
        for experiment in scaled:
            say(f"{experiment.name} on the cluster")
            run_experiment(dataclasses.replace(experiment, trials=1000), threads=1)  # the workers' kernels loaded
            started = time.perf_counter()
            table = run_experiment(experiment, threads=1).table
            rows.append(
                {
                    "name": experiment.name,
                    "trials_per_cell": experiment.trials,
                    "cluster_seconds": time.perf_counter() - started,
                    "table": table,
                }
            )
    for experiment, row in zip(scaled, rows, strict=True):
        say(f"{experiment.name} on one thread")
        started = time.perf_counter()
        local = run_experiment(experiment, threads=1)
        row["one_thread_seconds"] = time.perf_counter() - started
        row["identical"] = bool(local.table.equals(row.pop("table")))
        row["speedup"] = row["one_thread_seconds"] / row["cluster_seconds"]
    return {"scheduler": address, "workers": workers, "task_overhead_ms": overhead * 1000, "experiments": rows}
