"""The exact distribution of one attack's applied hits (SPC-3 to SPC-5, SPC-8).

Each attack roll is independent: its natural 2d6 decides hit and margin, and for missiles
the point defence then shoots at each missile of the flight (SPC-5.2) before the survivors
apply their hits (SPC-5.3). The applied hits of one roll are a mixture over the natural
total and the number of survivors; the attack's total is the sum over its rolls.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simlab.engine.pmf import PMF, mixture, point
from simlab.mechanics.target_number import TWO_D6
from simlab.systems.space_v4.fractions import criticals
from simlab.systems.space_v4.outcomes import MARGIN_SERIES
from simlab.systems.space_v4.resolve import ResolvedAttack, p_shot_down

__all__ = ["ExactAttack", "exact_attack", "margin_chances"]


@dataclass(frozen=True)
class ExactAttack:
    """Exact figures of one attack (SPC-8)."""

    applied: PMF
    criticals: PMF
    mean_missiles_destroyed: float
    by_margin: dict[int, float]

    def metrics(self) -> dict[str, float]:
        """``p_hit``, ``mean_applied_hits``, ``mean_criticals``, ``mean_missiles_destroyed`` and the margin series."""
        return {
            "p_hit": self.applied.p_at_least(1),
            "mean_applied_hits": self.applied.mean(),
            "mean_criticals": self.criticals.mean(),
            "mean_missiles_destroyed": self.mean_missiles_destroyed,
            **{f"{MARGIN_SERIES}{margin}": mean for margin, mean in self.by_margin.items()},
        }


def margin_chances(attack: ResolvedAttack) -> dict[int, float]:
    """Chance of each natural 2d6 total that hits (SPC-3.1)."""
    return {n: TWO_D6.p_equal(n) for n in range(2, 13) if attack.hit[n]}


def _survivors(p_destroyed: list[float]) -> PMF:
    """Weapons that get through: a sum of Bernoulli trials with their own chances."""
    total = point(0)
    for p in p_destroyed:
        total = total + PMF(0, np.array([p, 1 - p]))
    return total


def _one_roll(attack: ResolvedAttack, p_destroyed: list[float]) -> tuple[PMF, dict[int, float], dict[int, float]]:
    """Applied hits of one attack roll and the weapons behind it; the chance and expected hits of each margin."""
    survivors = _survivors(p_destroyed)
    chances = margin_chances(attack)
    parts, weights = [point(0)], [1 - sum(chances.values())]
    p_margin: dict[int, float] = {}
    hits_margin: dict[int, float] = {}
    for natural, p in chances.items():
        margin = int(attack.margin[natural])
        p_margin[margin] = p_margin.get(margin, 0.0) + p
        for alive, q in zip(survivors.values, survivors.probs, strict=True):
            hits = attack.applied_of(natural, int(alive))
            parts.append(point(hits))
            weights.append(p * q)
            hits_margin[margin] = hits_margin.get(margin, 0.0) + p * q * hits
    return mixture(weights, parts), p_margin, hits_margin


def exact_attack(attack: ResolvedAttack) -> ExactAttack:
    """The exact applied hits, criticals and missiles destroyed of one attack (SPC-3 to SPC-5)."""
    destroyed = p_shot_down(attack)
    per = attack.rules.hits_per_critical
    applied = point(0)
    crits = point(0)
    p_margin: dict[int, float] = {}
    hits_margin: dict[int, float] = {}
    later = attack.later_rolls()
    for r in range(attack.rolls):
        rolled = attack if r == 0 else later
        roll, chances, hits = _one_roll(rolled, destroyed[r * attack.per_roll : (r + 1) * attack.per_roll])
        applied = applied + roll
        crits = crits + roll.map(lambda v: criticals(v, per))
        for margin, p in chances.items():
            p_margin[margin] = p_margin.get(margin, 0.0) + p
            hits_margin[margin] = hits_margin.get(margin, 0.0) + hits[margin]
    if attack.rules.crit_accounting == "cumulative":
        crits = applied.map(lambda v: criticals(v, per))
    p_hit = sum(margin_chances(attack).values())
    by_margin = {m: hits_margin[m] / p_margin[m] for m in sorted(p_margin) if p_margin[m] > 0}
    fired = destroyed[: attack.rolls * attack.per_roll]  # none out of range (SPC-2): nothing to shoot down
    return ExactAttack(applied, crits, p_hit * sum(fired), by_margin)
