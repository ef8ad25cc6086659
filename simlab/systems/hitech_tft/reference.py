"""Plain twins of the compiled HiTech TFT kernels, for tests and ``simlab bench``.

:func:`python_block` is a straightforward pure-Python loop over trials, one die per draw;
:func:`numpy_block` is the same direct-fire sampler vectorised over trials with numpy.
Both draw every number at the same stream position as
:mod:`simlab.systems.hitech_tft.kernels`, so all three give identical tallies, the count of
draws included.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from simlab.engine.blocks import Tallies
from simlab.engine.interpreted import register_twins
from simlab.engine.rng import DRAWS_PER_TRIAL_LIMIT, StreamKey, TrialDraws, die_np
from simlab.mechanics.roll_under import NO_ATTACK
from simlab.systems.hitech_tft import kernels
from simlab.systems.hitech_tft.outcomes import BLAST_DISTANCES
from simlab.systems.hitech_tft.resolve import ResolvedAttack, resolve
from simlab.systems.hitech_tft.sample import _blast, _direct_fire

__all__ = ["damage_of_faces", "python_block", "numpy_block"]


def damage_of_faces(
    attack: ResolvedAttack, hits: int, faces: list[int], protection: int | None = None
) -> tuple[int, int]:
    """Damage taken and knockdown damage of an attack whose dice showed ``faces`` (TFT-4, TFT-5).

    Args:
        attack: The resolved attack.
        hits: Hits scored.
        faces: Every damage die rolled, all hits together.
        protection: Armour per die; default the attack's (a blast's depends on distance).
    """
    armour = attack.protection if protection is None else protection
    adds = hits * attack.adds_per_hit
    if attack.per_die or protection is not None:
        through = sum(max(0, f - armour) for f in faces) + adds
    else:
        through = sum(faces) + adds - armour
    damage = max(0, through) * attack.damage_factor
    knock = max(0, sum(faces) + adds) if attack.soft else damage
    return damage, knock


def python_block(attack: ResolvedAttack, key: StreamKey, start: int, stop: int) -> Tallies:
    """Pure-Python sampler of trials ``[start, stop)``: ``(joint[hits, damage], counts[, distance_sums])``."""
    table = attack.table
    n_damage = attack.max_damage() + 1
    joint = np.zeros((max(int(table.hits.max()) + 1, 2), n_damage), np.int64)
    counts = np.zeros(kernels.N_COUNTS, np.int64)
    distance_sums = np.zeros((kernels.N_DISTANCES, 2), np.int64)
    for trial in range(start, stop):
        draws = TrialDraws(key, trial)
        slot = NO_ATTACK
        if attack.quickdraw_dx is None or draws.dice(3) <= attack.quickdraw_dx:
            slot = draws.dice(3)
        hits = int(table.hits[slot])
        protection = None
        if attack.blast is None:
            n_dice = int(attack.dice_by_roll[slot])
        elif slot == NO_ATTACK:
            n_dice = 0
        elif hits:
            n_dice = attack.blast.dice_at[0] * int(table.multiplier[slot])
            protection = attack.blast.protection_at[0]
        else:
            distance = draws.d6()
            n_dice = attack.blast.dice_at[distance]
            protection = attack.blast.protection_at[distance]
        faces = [draws.d6() for _ in range(n_dice)]
        damage, knock = damage_of_faces(attack, 1 if attack.blast else hits, faces, protection)
        joint[hits, damage] += 1
        counts[kernels.STAGGER] += knock >= attack.stagger_threshold
        counts[kernels.KNOCKDOWN] += knock >= attack.knockdown_threshold
        counts[kernels.LOST] += int(table.weapon_lost[slot])
        counts[kernels.DICE] += n_dice
        counts[kernels.DICE_SQ] += n_dice * n_dice
        if attack.blast is not None:
            for k in BLAST_DISTANCES:
                figure = TrialDraws(key, trial, kernels.DISTANCE_WINDOW * (k + 1) - 1)
                faces = [figure.d6() for _ in range(attack.blast.dice_at[k])]
                damage_k, _ = damage_of_faces(attack, 1, faces, attack.blast.protection_at[k])
                distance_sums[k] += (damage_k, damage_k * damage_k)
                draws.made += figure.made
        counts[kernels.DRAWS] += draws.made
    return (joint, counts, distance_sums) if attack.blast is not None else (joint, counts)


def _d6(positions: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
    return die_np(positions, 6)


def numpy_block(attack: ResolvedAttack, key: StreamKey, start: int, stop: int) -> Tallies:
    """Vectorised numpy sampler of direct-fire trials ``[start, stop)``: ``(joint, counts)``.

    Each step works on all trials at once: the rolls, then damage die ``i`` of every trial
    that has one, then the outcomes and tallies.
    """
    if attack.blast is not None:
        raise ValueError("the numpy reference covers direct fire only")
    gamma = np.uint64(key.gamma)
    trials = np.arange(start, stop, dtype=np.uint64)
    with np.errstate(over="ignore"):
        base = np.uint64(key.offset) + trials * np.uint64(DRAWS_PER_TRIAL_LIMIT) * gamma

        def roll_3d6(first: int) -> npt.NDArray[np.int64]:
            faces = [_d6(base + np.uint64(first + j) * gamma) for j in range(3)]
            return faces[0] + faces[1] + faces[2]

        if attack.quickdraw_dx is None:
            slot = roll_3d6(1)
            first_die = 4
            roll_draws = 3 * len(trials)
        else:
            attacks = roll_3d6(1) <= attack.quickdraw_dx
            slot = np.where(attacks, roll_3d6(4), NO_ATTACK)
            first_die = 7
            roll_draws = 3 * len(trials) + 3 * int(np.count_nonzero(attacks))
        hits = attack.table.hits[slot]
        n_dice = attack.dice_by_roll[slot]
        taken = np.zeros(len(trials), np.int64)
        raw = np.zeros(len(trials), np.int64)
        for i in range(int(n_dice.max(initial=0))):
            rolling = n_dice > i
            faces = _d6(base[rolling] + np.uint64(first_die + i) * gamma)
            raw[rolling] += faces
            taken[rolling] += np.maximum(faces - attack.protection, 0)
    adds = hits * attack.adds_per_hit
    through = taken + adds if attack.per_die else raw + adds - attack.protection
    damage = np.maximum(through, 0) * attack.damage_factor
    knock = np.maximum(raw + adds, 0) if attack.soft else damage
    n_hits = max(int(attack.table.hits.max()) + 1, 2)
    n_damage = attack.max_damage() + 1
    joint = np.bincount(hits * n_damage + damage, minlength=n_hits * n_damage).reshape(n_hits, n_damage)
    counts = np.zeros(kernels.N_COUNTS, np.int64)
    counts[kernels.STAGGER] = np.count_nonzero(knock >= attack.stagger_threshold)
    counts[kernels.KNOCKDOWN] = np.count_nonzero(knock >= attack.knockdown_threshold)
    counts[kernels.LOST] = attack.table.weapon_lost[slot].sum()
    counts[kernels.DRAWS] = roll_draws + n_dice.sum()
    counts[kernels.DICE] = n_dice.sum()
    counts[kernels.DICE_SQ] = (n_dice * n_dice).sum()
    return joint.astype(np.int64), counts


#: The attacks the kernels and these references are checked on: every mode, melee, quickdraw,
#: HE splash, blasts and their readings, criticals on and off.
TWIN_CASES: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({"weapon": "lt pistol", "mode": "single", "armor": "flak jacket", "range_m": 8}, {}),
    ({"weapon": "assault rifle", "mode": "four", "armor": "none", "range_m": 4}, {"criticals": False}),
    ({"weapon": "submachinegun", "mode": "single", "armor": "combat TL12", "range_m": 20}, {}),
    ({"weapon": "ACR slug", "mode": "half", "armor": "combat TL14", "range_m": 33}, {"criticals": False}),
    ({"weapon": "ACR APDS", "mode": "four", "armor": "nylon", "range_m": 60}, {}),
    ({"weapon": "gauss rifle", "mode": "full", "armor": "flak jacket", "range_m": 8}, {"criticals": False}),
    ({"weapon": "autoshotgun pellets", "mode": "half", "armor": "none", "range_m": 4}, {}),
    ({"weapon": "laser pistol", "mode": "single", "armor": "combat TL12", "range_m": 20}, {"criticals": False}),
    ({"weapon": "FG-15", "mode": "single", "armor": "combat TL14", "range_m": 33}, {}),
    ({"weapon": "heavy MG", "mode": "single", "armor": "nylon", "range_m": 60}, {"criticals": False}),
    ({"weapon": "grenade TL8", "mode": "single", "armor": "flak jacket", "range_m": 8}, {}),
    ({"weapon": "assault rifle", "mode": "four", "armor": "flak jacket", "range_m": 20}, {}),
    ({"weapon": "broadsword", "armor": "flak jacket"}, {}),
    ({"weapon": "dagger", "armor": "combat TL11", "dx": 14}, {}),
    ({"weapon": "mace", "armor": "none", "st": 6}, {}),
    ({"weapon": "hvy pistol", "quickdraw": True, "armor": "nylon"}, {}),
    ({"weapon": "submachinegun", "mode": "full", "quickdraw": True, "dx": 15}, {}),
    ({"weapon": "ACR HE", "mode": "half", "armor": "flak jacket"}, {"he_splash_armor": True}),
    ({"weapon": "grenade TL12", "range_m": 12}, {"blast_divisors": (1, 2, 8)}),
    ({"weapon": "grenade TL8", "armor": "flak jacket"}, {"grenade_he_doubling": True}),
    ({"weapon": "assault rifle", "mode": "full", "dx": 16}, {"autofire_step": 2}),
    ({"weapon": "heavy MG", "mode": "burst", "dx": 8, "armor": "combat TL13"}, {}),
]


def _twin_examples(blast: bool) -> list[ResolvedAttack]:
    """The attacks of :data:`TWIN_CASES` with a blast (``blast``) or without."""
    from simlab.systems.hitech_tft.rules import Rules, Scenario  # the rules module loads the tables

    attacks = [resolve(Scenario(**inputs), Rules(**rules)) for inputs, rules in TWIN_CASES]
    return [attack for attack in attacks if (attack.blast is not None) == blast]


register_twins(
    "simlab.systems.hitech_tft.kernels:direct_fire_block",
    _direct_fire,
    lambda attack: (python_block, numpy_block),
    lambda: _twin_examples(blast=False),
)
register_twins(
    "simlab.systems.hitech_tft.kernels:blast_block",
    _blast,
    lambda attack: (python_block,),
    lambda: _twin_examples(blast=True),
)
