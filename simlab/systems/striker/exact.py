"""Exact outcome of one Striker attack (STR-2 to STR-7, STR-12).

The to-hit roll is enumerated over its 11 natural totals. Given the number of wounding
hits ``k``, the hits are independent, so the worst result over them has
``P(worst <= c) = F(c) ** k`` where ``F`` is the cumulative category distribution of one
hit (STR-6.4, STR-6.5). The aftermath (STR-7) depends only on the worst result.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from simlab.mechanics.target_number import NATURALS, TWO_D6, p_at_least
from simlab.systems.striker.resolve import (
    CATEGORIES,
    KILLED,
    LEVEL_DEAD,
    LEVEL_LIGHT,
    LEVEL_SERIOUS,
    LIGHT,
    NONE,
    NOT_DEAD_YET,
    SERIOUS,
    UNCONSCIOUS,
    UNHURT,
    ResolvedAttack,
)

__all__ = ["StrikerOutcome", "hit_categories", "exact_outcome"]


@dataclass(frozen=True, eq=False)
class StrikerOutcome:
    """Sufficient description of an attack's outcomes.

    Attributes:
        joint: ``joint[h, c]``: probability (or count) of ``h`` hits and worst category ``c``.
        dies_later: Probability of surviving the attack but dying of its wounds (STR-7).
        suppression: Expected suppression penalty (STR-3.3; 0 unless suppressive).
        p_initiative: Chance the firer's side wins initiative (STR-11.1).
    """

    joint: npt.NDArray[np.float64]
    dies_later: float
    suppression: float
    p_initiative: float


def hit_categories(attack: ResolvedAttack) -> npt.NDArray[np.float64]:
    """Category distribution of one wounding hit (STR-4, STR-6.2, STR-6.3)."""
    q = np.zeros(len(CATEGORIES))
    for r in NATURALS:
        p = TWO_D6.p_equal(r)
        level = int(attack.level_by_pen[r])
        if level == NONE:
            q[UNHURT] += p
        elif level == LEVEL_LIGHT:
            q[LIGHT] += p
        elif level == LEVEL_SERIOUS:
            awake = p_at_least(attack.conscious_target, attack.roll_dm)
            q[SERIOUS] += p * awake
            q[UNCONSCIOUS] += p * (1 - awake)
        elif level == LEVEL_DEAD:
            saved = p_at_least(int(attack.ndy_target_by_pen[r]), attack.roll_dm)
            q[NOT_DEAD_YET] += p * saved
            q[KILLED] += p * (1 - saved)
    return q


def _worst_of(k: int, cumulative: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Distribution of the worst category over ``k`` independent hits."""
    powered = cumulative**k
    return np.diff(np.concatenate([[0.0], powered]))


def suppression_penalty(attack: ResolvedAttack, hits: int) -> int:
    """Penalty that ``hits`` suppressive hits put on the target's next shot (STR-3.3)."""
    if hits <= 0:
        return 0
    return attack.rules.suppression_first_hit + attack.rules.suppression_extra_hit * (hits - 1)


def exact_outcome(attack: ResolvedAttack) -> StrikerOutcome:
    """The exact joint distribution of hits and worst result, and the aftermath."""
    cumulative = np.cumsum(hit_categories(attack))
    cumulative[-1] = 1.0
    joint = np.zeros((attack.max_hits + 1, len(CATEGORIES)))
    suppression = 0.0
    for natural in NATURALS:
        p = TWO_D6.p_equal(natural)
        hits = int(attack.hits_by_roll[natural])
        joint[hits] += p * _worst_of(int(attack.wound_hits_by_roll[natural]), cumulative)
        if attack.suppressive:
            suppression += p * suppression_penalty(attack, hits)
    worst = joint.sum(axis=0)
    dies_later = sum(worst[c] * attack.treatment.p_dies_after(c) for c in range(len(CATEGORIES)))
    return StrikerOutcome(joint, float(dies_later), suppression, attack.p_initiative)
