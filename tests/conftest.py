"""Shared fixtures: the registry of HiTech TFT parameter sets every engine is checked on."""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from scipy import stats

from simlab.cli import main
from simlab.inputs.errors import ScenarioError
from simlab.systems.hitech_tft.resolve import ResolvedAttack, resolve
from simlab.systems.hitech_tft.rules import Rules, Scenario, weapons
from simlab.workflow.warm import compile_kernels


@dataclass(frozen=True)
class Case:
    """One registry entry: scenario inputs and rule overrides (of HiTech TFT unless it says otherwise)."""

    scenario: dict[str, Any]
    rules: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        parts = [f"{k}={v}" for k, v in {**self.scenario, **self.rules}.items()]
        return ",".join(parts).replace(" ", "_")

    def options(self) -> list[str]:
        """The case as command-line options: ``--set KEY=VALUE`` and ``--rule KEY=VALUE``."""
        pairs = [("--set", f"{k}={v}") for k, v in self.scenario.items()]
        pairs += [("--rule", f"{k}={v}") for k, v in self.rules.items()]
        return [part for pair in pairs for part in pair]

    def build(self) -> tuple[Scenario, Rules, ResolvedAttack]:
        scenario, rules = Scenario(**self.scenario), Rules(**self.rules)
        return scenario, rules, resolve(scenario, rules)


def valid_modes(weapon_name: str) -> list[str]:
    modes = []
    for mode in ("single", "four", "half", "full", "burst"):
        try:
            resolve(Scenario(weapon=weapon_name, mode=mode), Rules())
        except ScenarioError:
            continue
        modes.append(mode)
    return modes


def registry() -> list[Case]:
    """Every ranged weapon x each of its modes x armours x ranges, criticals on and off."""
    cases = []
    armours = itertools.cycle(["flak jacket", "combat TL12", "nylon", "none", "combat TL14"])
    ranges = itertools.cycle([8, 20, 60, 4, 33])
    for weapon in weapons():
        if weapon.is_melee:
            continue
        for mode in valid_modes(weapon.name):
            for criticals in (True, False):
                scenario = {"weapon": weapon.name, "mode": mode, "armor": next(armours), "range_m": next(ranges)}
                cases.append(Case(scenario, {} if criticals else {"criticals": False}))
    cases += [
        Case({"weapon": "broadsword", "armor": "flak jacket"}),
        Case({"weapon": "dagger", "armor": "combat TL11", "dx": 14}),
        Case({"weapon": "mace", "armor": "none", "st": 6}),
        Case({"weapon": "hvy pistol", "quickdraw": True, "armor": "nylon"}),
        Case({"weapon": "submachinegun", "mode": "full", "quickdraw": True, "dx": 15}),
        Case({"weapon": "assault rifle", "mode": "four", "armor": "flak jacket", "range_m": 20}),
        Case({"weapon": "ACR HE", "mode": "half", "armor": "flak jacket"}, {"he_splash_armor": True}),
        Case({"weapon": "grenade TL12", "range_m": 12}, {"blast_divisors": (1, 2, 8)}),
        Case({"weapon": "grenade TL8", "armor": "flak jacket"}, {"grenade_he_doubling": True}),
        Case({"weapon": "assault rifle", "mode": "full", "dx": 16}, {"autofire_step": 2}),
        Case({"weapon": "heavy MG", "mode": "burst", "dx": 8, "armor": "combat TL13"}),
    ]
    return cases


REGISTRY = registry()


@pytest.fixture(params=REGISTRY, ids=[c.id for c in REGISTRY])
def case(request: pytest.FixtureRequest) -> Case:
    return request.param


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``simlab ARGS`` in-process: (exit status, stdout, stderr)."""
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
        raise SystemExit(0)
    out, err = capsys.readouterr()
    return int(exit_info.value.code or 0), out, err


SMALL_EXPERIMENT = """\
name = "small"
system = "hitech_tft"
method = "{method}"
trials = {trials}
seed = {seed}
{extra}
[fixed]
armor = "flak jacket"
range_m = 20

[grid]
weapon = ["assault rifle", "gauss rifle"]
mode = ["single", "four"]
"""


def small_experiment(
    directory: Path, *, trials: int = 40000, seed: int = 1, method: str = "both", extra: str = ""
) -> Path:
    """Write a four-cell TFT experiment (two weapons × single and four-round bursts) and return its path."""
    path = directory / f"small_{seed}.toml"
    path.write_text(SMALL_EXPERIMENT.format(trials=trials, seed=seed, method=method, extra=extra))
    return path


def chi_square_p(observed_counts, expected_probs):
    """Pearson chi-square p-value, merging bins until each expects at least 5."""
    n = observed_counts.sum()
    expected = expected_probs * n
    obs_bins, exp_bins = [], []
    acc_o = acc_e = 0.0
    for o, e in zip(observed_counts, expected, strict=True):
        acc_o += o
        acc_e += e
        if acc_e >= 5:
            obs_bins.append(acc_o)
            exp_bins.append(acc_e)
            acc_o = acc_e = 0.0
    if acc_e or acc_o:
        obs_bins[-1] += acc_o
        exp_bins[-1] += acc_e
    if len(obs_bins) < 2:
        return 1.0
    return stats.chisquare(obs_bins, exp_bins).pvalue


def pytest_sessionstart(session: pytest.Session) -> None:
    """Before the workers start, compile every kernel once, shared out among the CPUs (numba's cache).

    Otherwise every worker compiles every kernel it meets, all at the same time.
    """
    if not hasattr(session.config, "workerinput"):  # the run itself, not one of its workers
        compile_kernels(processes=min(4, os.cpu_count() or 1))


def pytest_configure(config: pytest.Config) -> None:
    """A test worker samples on one CPU of its own: two workers on two CPUs, not four threads on two."""
    worker = getattr(config, "workerinput", None)
    if worker is not None and hasattr(os, "sched_setaffinity"):
        cpus = sorted(os.sched_getaffinity(0))
        index = int(str(worker.get("workerid", "gw0")).removeprefix("gw") or 0)
        os.sched_setaffinity(0, {cpus[index % len(cpus)]})
