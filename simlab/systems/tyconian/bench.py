"""The benchmark workloads of Tyconian Traveller (``simlab bench``): its central mechanics on fixed scenarios."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from simlab.engine.rng import stream_key
from simlab.inputs.battles import battle_from_data
from simlab.systems import BattleRequest, ScenarioRequest, battles, duels, get_system
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
from simlab.systems.workloads import Samplers, Workload, best_seconds, samplers

__all__ = ["WORKLOADS", "workloads"]


def _tyconian_battle() -> Samplers:
    resolved = tyconian_resolve_battle(BattleRequest(battle_from_data(TYCONIAN_BATTLE, "tyconian_3_against_3")))

    def block(subject: Any, seed: int) -> Any:
        return partial(tyconian_battle_tallies, subject, stream_key(seed))

    return samplers(resolved, block, None, tyconian_python_battle_tallies, (0, battles.DRAWS))


def _tyconian_full_auto() -> Samplers:
    attack = tyconian_resolve(TYCONIAN_FULL_AUTO, tyconian_rules.Rules())
    return samplers(
        attack,
        lambda subject, seed: tyconian_sample.block_function(subject, stream_key(seed)),
        tyconian_reference.numpy_block,
        tyconian_reference.python_block,
        (3, tyconian_layout.DRAWS),
    )


def _tyconian_duel() -> Samplers:
    duel = tyconian_resolve_duel(TYCONIAN_DUEL[0], TYCONIAN_DUEL[1], tyconian_rules.Rules(), ({}, {}))
    return samplers(
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
        checked: Any = get_system("tyconian").questions[kind].check(ScenarioRequest(scenario=scenario))
        return samplers(checked[2], block, None, python_twin, (2, draws))

    return prepare


def _tyconian_full_auto_exact() -> dict[str, Any]:
    seconds = best_seconds(lambda: tyconian_exact(tyconian_resolve(TYCONIAN_FULL_AUTO, tyconian_rules.Rules())), 5)
    return {"seconds": seconds, "icepool_seconds": None, "oracle": None}


#: Tyconian: a turn of light-machinegun full-auto fire at 50 m into a flak vest (TYC-4 to TYC-6).
TYCONIAN_FULL_AUTO = tyconian_rules.Scenario(weapon="light machinegun", mode="full_auto", range_m=50, armor="flak vest")


#: Tyconian: a battle rifle's quick shots against assault-rifle bursts at 30 m, flak vests.
TYCONIAN_DUEL = (
    {"weapon": "battle rifle", "armor": "flak vest", "range_m": 30},
    {"weapon": "assault rifle", "mode": "burst", "armor": "flak vest", "range_m": 30},
)


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

#: What ``simlab bench`` times for this system.
WORKLOADS = (
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
)


def workloads() -> tuple[Workload, ...]:
    """The workloads ``simlab bench`` times for this system."""
    return WORKLOADS
