"""The benchmark suite behind ``simlab bench`` (README, "Performance").

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
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from simlab.engine.blocks import run_blocks
from simlab.engine.bounds import default_threads
from simlab.engine.rng import raw_draws, stream_key
from simlab.inputs.battles import battle_from_data
from simlab.systems import AttackRequest, BattleRequest, battles, duels, get_system
from simlab.systems.hitech_tft import kernels
from simlab.systems.hitech_tft.exact import exact_outcome
from simlab.systems.hitech_tft.oracle import icepool_attack, icepool_available
from simlab.systems.hitech_tft.reference import numpy_block, python_block
from simlab.systems.hitech_tft.resolve import resolve
from simlab.systems.hitech_tft.rules import Rules, Scenario
from simlab.systems.hitech_tft.sample import block_function
from simlab.systems.space_v4 import kernels as space_kernels
from simlab.systems.space_v4 import rules as space_rules
from simlab.systems.space_v4.duel import resolve_duel as space_resolve_duel
from simlab.systems.space_v4.exact import exact_attack as space_exact
from simlab.systems.space_v4.reference import icepool_applied, numpy_attack_tallies
from simlab.systems.space_v4.resolve import resolve as space_resolve
from simlab.systems.space_v4.sample import attack_tallies, duel_tallies, python_attack_tallies, python_duel_tallies
from simlab.systems.striker import kernels as striker_kernels
from simlab.systems.striker import reference as striker_reference
from simlab.systems.striker import rules as striker_rules
from simlab.systems.striker import sample as striker_sample
from simlab.systems.striker.battle import battle_tallies as striker_battle_tallies
from simlab.systems.striker.battle import python_battle_tallies as striker_python_battle_tallies
from simlab.systems.striker.battle import resolve_battle as striker_resolve_battle
from simlab.systems.striker.duel import resolve_duel
from simlab.systems.striker.exact import exact_outcome as striker_exact
from simlab.systems.striker.resolve import resolve as striker_resolve
from simlab.systems.tyconian import duel_reference as tyconian_duel_reference
from simlab.systems.tyconian import layout as tyconian_layout
from simlab.systems.tyconian import reference as tyconian_reference
from simlab.systems.tyconian import rules as tyconian_rules
from simlab.systems.tyconian import sample as tyconian_sample
from simlab.systems.tyconian.battle import battle_tallies as tyconian_battle_tallies
from simlab.systems.tyconian.battle import python_battle_tallies as tyconian_python_battle_tallies
from simlab.systems.tyconian.battle import resolve_battle as tyconian_resolve_battle
from simlab.systems.tyconian.duel import resolve_duel as tyconian_resolve_duel
from simlab.systems.tyconian.exact import exact_attack as tyconian_exact
from simlab.systems.tyconian.questions import blast_kernels, healing_layout
from simlab.systems.tyconian.questions.blast_sample import blast_tallies, python_blast_tallies
from simlab.systems.tyconian.questions.healing_sample import healing_tallies, python_healing_tallies
from simlab.systems.tyconian.resolve import resolve as tyconian_resolve

__all__ = ["Workload", "WORKLOADS", "run_bench"]

SEED = 2026


@dataclass(frozen=True)
class Samplers:
    """One workload's compiled block function, its pure-Python twin and its numpy twin (if it has one)."""

    compiled: Callable[[int, int], Any]
    numpy: Callable[[int, int], Any] | None
    python: Callable[[int, int], Any]
    draws: Callable[[Any], int]


@dataclass(frozen=True)
class Workload:
    """One benchmark workload: a system's central mechanic on a fixed scenario.

    Attributes:
        name: The workload's name in the report.
        system: System id.
        prepare: Builds the samplers of the workload.
        scale: Fraction of ``--trials`` the workload runs (duels take many rolls a trial).
        exact: Times the exact engine (and icepool) on the same question, or None.
    """

    name: str
    system: str
    prepare: Callable[[], Samplers]
    scale: float = 1.0
    exact: Callable[[], dict[str, Any]] | None = None


def _samplers(subject: Any, compiled: Any, numpy_twin: Any, python_twin: Any, draws_at: tuple[int, int]) -> Samplers:
    """The samplers of one resolved question: its compiled block function and its twins (numpy_twin may be None)."""
    key = stream_key(SEED)
    tally, index = draws_at
    return Samplers(
        compiled=compiled(subject, SEED),
        numpy=partial(numpy_twin, subject, key) if numpy_twin is not None else None,
        python=partial(python_twin, subject, key),
        draws=lambda tallies: int(tallies[tally][index]),
    )


def _tft(scenario: Scenario) -> Callable[[], Samplers]:
    def prepare() -> Samplers:
        attack = resolve(scenario, Rules())
        return _samplers(attack, block_function, numpy_block, python_block, (1, kernels.DRAWS))

    return prepare


def _tft_exact(scenario: Scenario) -> Callable[[], dict[str, Any]]:
    def timing() -> dict[str, Any]:
        rules = Rules()
        attack = resolve(scenario, rules)
        seconds = _best_seconds(lambda: exact_outcome(resolve(scenario, rules)), 5)
        icepool_seconds = None
        if icepool_available():

            def with_icepool() -> None:
                oracle = icepool_attack(scenario, rules, attack.weapon, attack.armour, attack.adj_dx)
                for die in (oracle.hits, oracle.damage, oracle.knock):
                    die.denominator()

            icepool_seconds = _best_seconds(with_icepool, 1)
        return {"seconds": seconds, "icepool_seconds": icepool_seconds, "oracle": "icepool"}

    return timing


def _striker_burst() -> Samplers:
    attack = striker_resolve(STRIKER_BURST, striker_rules.Rules())
    return _samplers(
        attack,
        striker_sample.block_function,
        striker_reference.numpy_attack_block,
        striker_reference.python_attack_block,
        (1, striker_kernels.DRAWS),
    )


def _striker_burst_exact() -> dict[str, Any]:
    seconds = _best_seconds(lambda: striker_exact(striker_resolve(STRIKER_BURST, striker_rules.Rules())), 5)
    return {"seconds": seconds, "icepool_seconds": None, "oracle": None}


def _striker_duel() -> Samplers:
    duel = resolve_duel(STRIKER_DUEL[0], STRIKER_DUEL[1], striker_rules.Rules(), ({}, {}))
    return _samplers(
        duel,
        striker_sample.duel_block_function,
        striker_reference.numpy_duel_block,
        striker_reference.python_duel_block,
        (2, duels.DUEL_DRAWS),
    )


def _striker_battle() -> Samplers:
    resolved = striker_resolve_battle(BattleRequest(battle_from_data(STRIKER_BATTLE, "striker_4_against_4")))

    def block(subject: Any, seed: int) -> Any:
        return partial(striker_battle_tallies, subject, stream_key(seed))

    return _samplers(resolved, block, None, striker_python_battle_tallies, (0, battles.DRAWS))


def _tyconian_battle() -> Samplers:
    resolved = tyconian_resolve_battle(BattleRequest(battle_from_data(TYCONIAN_BATTLE, "tyconian_3_against_3")))

    def block(subject: Any, seed: int) -> Any:
        return partial(tyconian_battle_tallies, subject, stream_key(seed))

    return _samplers(resolved, block, None, tyconian_python_battle_tallies, (0, battles.DRAWS))


def _tyconian_full_auto() -> Samplers:
    attack = tyconian_resolve(TYCONIAN_FULL_AUTO, tyconian_rules.Rules())
    return _samplers(
        attack,
        lambda subject, seed: tyconian_sample.block_function(subject, stream_key(seed)),
        tyconian_reference.numpy_block,
        tyconian_reference.python_block,
        (3, tyconian_layout.DRAWS),
    )


def _tyconian_duel() -> Samplers:
    duel = tyconian_resolve_duel(TYCONIAN_DUEL[0], TYCONIAN_DUEL[1], tyconian_rules.Rules(), ({}, {}))
    return _samplers(
        duel,
        lambda subject, seed: tyconian_sample.duel_block_function(subject, stream_key(seed)),
        tyconian_duel_reference.numpy_duel_block,
        tyconian_duel_reference.python_duel_block,
        (2, duels.DUEL_DRAWS),
    )


def _tyconian_question(
    kind: str, scenario: dict[str, Any], compiled: Any, python_twin: Any, draws: int
) -> Callable[[], Samplers]:
    """A Tyconian question's kernel and its interpreted twin (these questions have no numpy twin)."""

    def block(subject: Any, seed: int) -> Any:
        return partial(compiled, subject, stream_key(seed))

    def prepare() -> Samplers:
        checked: Any = get_system("tyconian").questions[kind].check(AttackRequest(scenario=scenario))
        return _samplers(checked[2], block, None, python_twin, (2, draws))

    return prepare


def _tyconian_full_auto_exact() -> dict[str, Any]:
    seconds = _best_seconds(lambda: tyconian_exact(tyconian_resolve(TYCONIAN_FULL_AUTO, tyconian_rules.Rules())), 5)
    return {"seconds": seconds, "icepool_seconds": None, "oracle": None}


def _space_attack(scenario: space_rules.Scenario) -> Callable[[], Samplers]:
    """One Space Combat V4 attack: its kernel, numpy twin and interpreted twin."""

    def block(subject: Any, seed: int) -> Any:
        return partial(attack_tallies, subject, stream_key(seed))

    def prepare() -> Samplers:
        attack = space_resolve(scenario, space_rules.Rules())
        return _samplers(attack, block, numpy_attack_tallies, python_attack_tallies, (2, space_kernels.ATTACK_DRAWS))

    return prepare


def _space_attack_exact(scenario: space_rules.Scenario) -> Callable[[], dict[str, Any]]:
    """The exact applied hits of one attack, and the same distribution by icepool."""

    def timing() -> dict[str, Any]:
        rules = space_rules.Rules()
        seconds = _best_seconds(lambda: space_exact(space_resolve(scenario, rules)), 5)
        icepool_seconds = None
        if icepool_available():
            attack = space_resolve(scenario, rules)
            icepool_seconds = _best_seconds(lambda: icepool_applied(attack).denominator(), 1)
        return {"seconds": seconds, "icepool_seconds": icepool_seconds, "oracle": "icepool"}

    return timing


def _space_duel() -> Samplers:
    duel = space_resolve_duel(SPACE_DUEL[0], SPACE_DUEL[1], space_rules.Rules(), ({}, {}))

    def block(subject: Any, seed: int) -> Any:
        return partial(duel_tallies, subject, stream_key(seed))

    return _samplers(duel, block, None, python_duel_tallies, (2, space_kernels.DUEL_DRAWS))


TFT_BURST = Scenario(weapon="assault rifle", mode="four", armor="flak jacket", dx=12, range_m=20)
TFT_GAUSS = Scenario(weapon="gauss rifle", mode="full", armor="combat TL12", dx=12, range_m=20)
#: Striker: a half-clip burst of an assault rifle into cloth (STR-3, STR-4, STR-6).
STRIKER_BURST = striker_rules.Scenario(weapon="assault rifle", mode="half_clip", armor="cloth", skill=2)
#: Tyconian: a turn of light-machinegun full-auto fire at 50 m into a flak vest (TYC-4 to TYC-6).
TYCONIAN_FULL_AUTO = tyconian_rules.Scenario(weapon="light machinegun", mode="full_auto", range_m=50, armor="flak vest")
#: Tyconian: a battle rifle's quick shots against assault-rifle bursts at 30 m, flak vests.
TYCONIAN_DUEL = (
    {"weapon": "battle rifle", "armor": "flak vest", "range_m": 30},
    {"weapon": "assault rifle", "mode": "burst", "armor": "flak vest", "range_m": 30},
)
#: Striker: assault rifle bursts against a rifleman, both in cloth (STR-11.2).
STRIKER_DUEL = (
    {"weapon": "assault rifle", "mode": "burst5", "armor": "cloth"},
    {"weapon": "rifle", "armor": "cloth", "skill": 2},
)
#: Striker: four assault riflemen firing bursts against two riflemen and two submachinegunners (ENG-4.1).
STRIKER_BATTLE = {
    "system": "striker",
    "range_band": "medium",
    "a": {"groups": [{"count": 4, "weapon": "assault rifle", "mode": "burst5", "armor": "cloth"}]},
    "b": {
        "doctrine": {"targets": "focus"},
        "groups": [
            {"count": 2, "weapon": "rifle", "armor": "mesh", "skill": 2},
            {"count": 2, "weapon": "submachinegun", "mode": "burst5", "armor": "mesh"},
        ],
    },
}
#: Tyconian: three battle riflemen against three assault riflemen on full automatic at 40 m (ENG-4.2).
TYCONIAN_BATTLE = {
    "system": "tyconian",
    "range_m": 40,
    "a": {"groups": [{"count": 3, "weapon": "battle rifle", "armor": "flak vest", "skill": 12}]},
    "b": {
        "doctrine": {"targets": "focus"},
        "groups": [{"count": 3, "weapon": "assault rifle", "mode": "full_auto", "armor": "flak vest"}],
    },
}

#: Tyconian: four mortar bombs after two corrections at a figure in a flak vest (TYC-7.1, TYC-7.4).
TYCONIAN_SALVO = {"explosive": "mortar bomb", "rounds": 4, "corrections": 2, "armor": "flak vest"}
#: Tyconian: four critical wounds, 28 days in a doctor's care (TYC-9).
TYCONIAN_HEALING = {"wounds": "chest=34 abdomen=22 right_leg=22 left_leg=22", "care": "doctor"}

#: Space Combat V4: the cruiser's nine beam lasers, one roll, at a frigate behind sand (SPC-3, SPC-4).
SPACE_TURRET_GROUP = space_rules.Scenario(weapon="beam", attacker="cruiser", defender="frigate", sand=True)
#: Space Combat V4: the frigate's nine missiles against the patrol cruiser's point defence (SPC-5).
SPACE_MISSILES = space_rules.Scenario(weapon="missile", attacker="frigate", defender="patrol cruiser")
#: Space Combat V4: a patrol cruiser closing on a mercenary cruiser that holds three lasers back (SPC-7).
SPACE_DUEL = ({"ship": "patrol cruiser", "range_policy": "close"}, {"ship": "mercenary cruiser", "pd_hold": 3})

WORKLOADS = (
    Workload("tft_four_round_burst", "hitech_tft", _tft(TFT_BURST), exact=_tft_exact(TFT_BURST)),
    Workload("tft_full_burst_gauss", "hitech_tft", _tft(TFT_GAUSS), exact=_tft_exact(TFT_GAUSS)),
    Workload("striker_half_clip_burst", "striker", _striker_burst, exact=_striker_burst_exact),
    Workload("striker_duel", "striker", _striker_duel, scale=0.1),
    Workload("striker_battle_4v4", "striker", _striker_battle, scale=0.02),
    Workload("tyconian_full_auto", "tyconian", _tyconian_full_auto, scale=0.2, exact=_tyconian_full_auto_exact),
    Workload("tyconian_duel", "tyconian", _tyconian_duel, scale=0.05),
    Workload("tyconian_battle_3v3", "tyconian", _tyconian_battle, scale=0.01),
    Workload(
        "tyconian_mortar_salvo",
        "tyconian",
        _tyconian_question("indirect_fire", TYCONIAN_SALVO, blast_tallies, python_blast_tallies, blast_kernels.DRAWS),
        scale=0.05,
    ),
    Workload(
        "tyconian_healing",
        "tyconian",
        _tyconian_question("healing", TYCONIAN_HEALING, healing_tallies, python_healing_tallies, healing_layout.DRAWS),
        scale=0.05,
    ),
    Workload(
        "space_turret_group",
        "space_v4",
        _space_attack(SPACE_TURRET_GROUP),
        exact=_space_attack_exact(SPACE_TURRET_GROUP),
    ),
    Workload(
        "space_missile_flight", "space_v4", _space_attack(SPACE_MISSILES), exact=_space_attack_exact(SPACE_MISSILES)
    ),
    Workload("space_duel", "space_v4", _space_duel, scale=0.01),
)


def _best_seconds(fn: Callable[[], Any], repeat: int) -> float:
    """Fastest of ``repeat`` timed calls (the least disturbed by other work on the machine)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def generator_draws_per_s(draws: int, repeat: int = 3) -> float:
    """The generator's own rate: draws per second of a loop that only generates them."""
    key = stream_key(SEED)
    raw_draws(np.uint64(key.offset), np.uint64(key.gamma), 10)
    seconds = _best_seconds(lambda: raw_draws(np.uint64(key.offset), np.uint64(key.gamma), draws), repeat)
    return draws / seconds


def _sampler_rates(workload: Workload, trials: int, repeat: int) -> dict[str, Any]:
    samplers = workload.prepare()
    trials = max(int(trials * workload.scale), 10_000)
    samplers.compiled(0, 1000)  # compile outside the timing
    threads = default_threads()
    tallies: list[Any] = []

    def one_thread() -> None:
        tallies[:] = run_blocks(samplers.compiled, trials, threads=1)

    single = _best_seconds(one_thread, repeat)
    draws_per_trial = samplers.draws(tallies) / trials
    every = _best_seconds(lambda: run_blocks(samplers.compiled, trials, threads=threads), repeat)
    numpy_rate = None
    numpy_twin = samplers.numpy
    if numpy_twin is not None:
        numpy_trials = max(trials // 50, 1_000)  # 400,000 at the default trials
        numpy_seconds = _best_seconds(lambda: run_blocks(numpy_twin, numpy_trials, threads=1), 1)
        numpy_rate = numpy_trials / numpy_seconds
    python_trials = max(trials // 2000, 200)  # 10,000 at the default trials
    python_seconds = _best_seconds(lambda: samplers.python(0, python_trials), 1)
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


#: The commands whose start-up ``simlab bench`` times, with the most they may take against the yardstick.
STARTUP_COMMANDS: tuple[tuple[str, tuple[str, ...], float], ...] = (
    ("simlab --help", ("--help",), 1.5),
    ("simlab systems", ("systems",), 1.5),
    ("exact attack hitech_tft", ("attack", "hitech_tft", "--set", "weapon=assault rifle", "--exact"), 2.5),
    ("exact attack striker", ("attack", "striker", "--set", "weapon=rifle", "--exact"), 2.5),
    ("exact attack tyconian", ("attack", "tyconian", "--set", "weapon=autopistol", "--exact"), 2.5),
    ("exact attack space_v4", ("attack", "space_v4", "--set", "attacker=frigate", "--set", "defender=scout",
                               "--exact"), 2.5),
)  # fmt: skip
#: What a command's start-up is measured against: a fresh interpreter importing numpy.
STARTUP_YARDSTICK = ("-c", "import numpy")


def _process_seconds(arguments: Sequence[str]) -> float:
    """Wall seconds of one fresh ``python ARGUMENTS`` process, start to exit."""
    started = time.perf_counter()
    subprocess.run([sys.executable, *arguments], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def startup_bench(repeat: int = 5) -> list[dict[str, Any]]:
    """How long each of :data:`STARTUP_COMMANDS` takes as a whole process, against the yardstick.

    The command and ``python -c "import numpy"`` run in turn, ``repeat`` times each after one
    run of each to warm the caches (with ``repeat`` 1, a look at the figures' shape, none); the
    ratio is the median of the pairs' ratios, so that a drift of the machine's speed moves both
    sides of a pair alike.
    """
    rows = []
    for name, arguments, goal in STARTUP_COMMANDS:
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
    for workload in WORKLOADS:
        say(workload.name)
        rates = _sampler_rates(workload, trials, repeat)
        rates["generator_draws_per_s"] = generator_rate
        results.append(rates)
    exact = []
    for workload in WORKLOADS:
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
