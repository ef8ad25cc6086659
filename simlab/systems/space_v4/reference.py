"""The vectorised numpy twin of the one-attack sampler (SPC-8), and an icepool oracle of it.

:func:`numpy_attack_tallies` takes the very same draws as the compiled kernel, many trials at
once, and must give the very same tallies; ``simlab bench`` times the two side by side.
:func:`icepool_applied` computes the distribution of applied hits with icepool, independently
of :mod:`.exact`, for the tests and the benchmark's exact-engine timing.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simlab.engine.blocks import Tallies
from simlab.engine.rng import StreamKey, VectorDraws
from simlab.systems.space_v4 import kernels as k
from simlab.systems.space_v4.resolve import ResolvedAttack

__all__ = ["numpy_attack_tallies", "icepool_applied"]


def numpy_attack_tallies(attack: ResolvedAttack, key: StreamKey, start: int, stop: int) -> Tallies:
    """The tallies of :func:`kernels.attack_block` for trials ``[start, stop)``, vectorised over trials."""
    n = stop - start
    draws = VectorDraws(key, start, stop)
    every = np.arange(n)
    total = np.zeros(n, np.int64)
    crits = np.zeros(n, np.int64)
    destroyed = np.zeros(n, np.int64)
    per_critical = attack.rules.hits_per_critical
    by_margin = np.zeros((3, int(attack.margin.max()) + 1), np.int64)
    later = attack.later_rolls()
    for r in range(attack.rolls):
        rolled = attack if r == 0 else later
        natural = draws.two_d6(every)
        hit = rolled.hit[natural]
        survivors = np.where(hit, attack.per_roll, 0)
        for j in range(r * attack.per_roll, (r + 1) * attack.per_roll):
            down = np.zeros(n, np.bool_)
            for column, need in ((0, attack.need_held), (1, attack.need_fired)):
                for _ in range(int(attack.pd[j, column])):
                    rows = np.flatnonzero(hit & ~down)
                    down[rows] = draws.two_d6(rows) >= need
            survivors -= down
        hits = attack.applied[survivors * attack.per_weapon_hits, rolled.margin[natural]]
        hits = np.where(survivors > 0, np.maximum(0, hits - attack.reduction), 0)
        margins = rolled.margin[natural][hit]
        for row, values in enumerate((np.ones_like(margins), hits[hit], hits[hit] ** 2)):
            by_margin[row] += np.bincount(margins, weights=values, minlength=by_margin.shape[1]).astype(np.int64)
        total += hits
        crits += hits // per_critical
        destroyed += np.where(hit, attack.per_roll - survivors, 0)
    if attack.rules.crit_accounting == "cumulative":
        crits = total // per_critical
    hist = np.bincount(total, minlength=attack.max_applied + 1).astype(np.int64)
    counts = np.zeros(k.N_ATTACK_COUNTS, np.int64)
    counts[k.CRITS], counts[k.CRITS_SQ] = crits.sum(), (crits * crits).sum()
    counts[k.DESTROYED], counts[k.DESTROYED_SQ] = destroyed.sum(), (destroyed * destroyed).sum()
    counts[k.ATTACK_DRAWS] = int(draws.made.sum())
    return hist, by_margin, counts


def _survives(needs: list[int]) -> Any:
    """1 if every point-defence laser (each its own 2d6, needing ``needs``) misses the missile, else 0."""
    import icepool

    def all_miss(*rolls: int) -> int:
        return int(all(roll < need for roll, need in zip(rolls, needs, strict=True)))

    return icepool.map(all_miss, *[2 @ icepool.d6] * len(needs)) if needs else icepool.Die([1])


def icepool_applied(attack: ResolvedAttack) -> Any:
    """The applied hits of the attack as an icepool ``Die`` (SPC-3 to SPC-5), built from 2d6 rolls.

    Each point-defence laser is its own 2d6; a missile survives when all of its lasers miss.
    Exponential in the lasers engaging one missile: for small point defence only.
    """
    import icepool

    rolls = []
    for r in range(attack.rolls):
        alive = icepool.Die([0])
        for j in range(r * attack.per_roll, (r + 1) * attack.per_roll):
            alive += _survives([attack.need_held] * int(attack.pd[j, 0]) + [attack.need_fired] * int(attack.pd[j, 1]))
        rolls.append(icepool.map(attack.applied_of, 2 @ icepool.d6, alive))
    return sum(rolls[1:], rolls[0])
