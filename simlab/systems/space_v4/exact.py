"""The exact distribution of one attack's applied hits (SPC-3 to SPC-5, SPC-8).

A group of weapons of one type fires at one ship: the attack roll's DMs (SPC-3.2), the
damage fraction of the margin (SPC-4.2), and for missiles the point defence that may shoot
each of them down (SPC-5.2) before the survivors apply their hits (SPC-5.3).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simlab.errors import ScenarioError
from simlab.mechanics.target_number import NATURALS, TWO_D6
from simlab.pmf import PMF, mixture, point
from simlab.systems.space_v4.fractions import applied_hits, criticals
from simlab.systems.space_v4.rules import BANDS, LASERS, OPTIMAL_HITS, Rules, Scenario

__all__ = ["attack_dm", "pd_turrets", "p_missile_destroyed", "ExactAttack", "exact_attack", "margin_chances"]


def attack_dm(scenario: Scenario, rules: Rules) -> int:
    """The DMs of the attack roll (SPC-3.2): range, computer and G advantages, sand, the chief gunner.

    Raises:
        ScenarioError: When the weapon cannot fire at the range band (SPC-2).
    """
    s = scenario
    band_dm, beams, pulses, missiles = BANDS[s.range_band]
    laser = s.weapon in LASERS
    if rules.missiles_beyond_very_long and not laser and s.range_band in ("distant", "extreme"):
        missiles = True
    allowed = {"beam": beams, "pulse": pulses}.get(s.weapon, missiles)
    if not allowed:
        raise ScenarioError(f"range_band: a {s.weapon} cannot fire at {s.range_band} range (SPC-2)")
    dm = band_dm + max(0, s.attacker_computer - s.defender_computer) + max(0, s.attacker_g - s.defender_g)
    if laser and s.sand:
        if rules.sand_dm == "plus_one":
            dm += 1
        else:
            per_200 = s.defender_sandcasters * 200 / s.defender_tons
            dm -= 2 if per_200 >= 2 else 1 if per_200 >= 1 else 0
    return dm + int(s.gunner_bonus)


def margin_chances(dm: int, rules: Rules) -> dict[int, float]:
    """Chance of each margin (total − to-hit) of a success, by the natural 2d6 (SPC-3.1)."""
    chances: dict[int, float] = {}
    for natural in NATURALS:
        total = natural + dm
        hit = total >= rules.to_hit
        if rules.natural_rules:
            hit = natural == 12 or (natural != 2 and hit)
        if hit:
            margin = max(0, total - rules.to_hit)
            chances[margin] = chances.get(margin, 0.0) + TWO_D6.p_equal(natural)
    return chances


def pd_turrets(text: str) -> list[int]:
    """Lasers per defending turret from ``'3,2'`` (SPC-5.2, SPC-8).

    Raises:
        ScenarioError: For anything but counts of lasers separated by commas.
    """
    parts = [part.strip() for part in text.split(",") if part.strip()]
    if not all(part.isdigit() for part in parts):
        raise ScenarioError(f"pd_turrets: {text!r} is not lasers per turret separated by commas, e.g. '3,2'")
    return [int(part) for part in parts]


def p_missile_destroyed(scenario: Scenario, rules: Rules) -> list[float]:
    """Chance that point defence destroys each missile of the group (SPC-5.2, SPC-8).

    Turret ``i`` engages missile ``i mod count``; each of its lasers rolls 2d6 against 8
    (held back) or 10 (already fired), +``pd_computer_dm`` with the better computer; one
    success destroys the missile.
    """
    target = rules.pd_dedicated_target if scenario.pd_dedicated else rules.pd_fired_target
    dm = rules.pd_computer_dm if scenario.defender_computer > scenario.attacker_computer else 0
    p_laser = TWO_D6.p_at_least(target - dm)
    survive = [1.0] * scenario.count
    for turret, lasers in enumerate(pd_turrets(scenario.pd_turrets)):
        survive[turret % scenario.count] *= (1 - p_laser) ** lasers
    return [1 - p for p in survive]


@dataclass(frozen=True)
class ExactAttack:
    """Exact figures of one attack (SPC-8)."""

    applied: PMF
    criticals: PMF
    mean_missiles_destroyed: float

    def metrics(self) -> dict[str, float]:
        """``p_hit``, ``mean_applied_hits``, ``mean_criticals``, ``mean_missiles_destroyed``."""
        return {
            "p_hit": self.applied.p_at_least(1),
            "mean_applied_hits": self.applied.mean(),
            "mean_criticals": self.criticals.mean(),
            "mean_missiles_destroyed": self.mean_missiles_destroyed,
        }


def _survivors(p_destroyed: list[float]) -> PMF:
    """Missiles that get through: a sum of Bernoulli trials with their own chances."""
    total = point(0)
    for p in p_destroyed:
        total = total + PMF(0, np.array([p, 1 - p]))
    return total


def _group_roll(optimal: int, dm: int, rules: Rules) -> PMF:
    """Applied hits of ``optimal`` hits sharing one roll (SPC-4.2)."""
    chances = margin_chances(dm, rules)
    missed = 1 - sum(chances.values())
    hits = [point(applied_hits(optimal, m, rules.fraction_rounding)) for m in chances]
    return mixture([missed, *chances.values()], [point(0), *hits])


def exact_attack(scenario: Scenario, rules: Rules) -> ExactAttack:
    """The exact applied hits, criticals and missiles destroyed of one attack (SPC-3 to SPC-5)."""
    dm = attack_dm(scenario, rules)
    per_weapon = OPTIMAL_HITS[scenario.weapon]
    destroyed = 0.0
    if scenario.weapon in LASERS:
        if rules.grouping == "by_type":
            applied = _group_roll(per_weapon * scenario.count, dm, rules)
        else:
            applied = _group_roll(per_weapon, dm, rules).times(scenario.count)
    else:
        if rules.grouping == "per_weapon":
            raise ScenarioError("grouping per_weapon: missiles of one flight share a roll (SPC-5.1)")
        p_destroyed = p_missile_destroyed(scenario, rules)
        survivors = _survivors(p_destroyed)
        chances = margin_chances(dm, rules)
        parts, weights = [point(0)], [1 - sum(chances.values())]
        for margin, p in chances.items():
            for alive, q in zip(survivors.values, survivors.probs, strict=True):
                hits = applied_hits(per_weapon * int(alive), margin, rules.fraction_rounding) if alive else 0
                parts.append(point(hits))
                weights.append(p * q)
        applied = mixture(weights, parts)
        destroyed = sum(chances.values()) * sum(p_destroyed)
    return ExactAttack(applied, applied.map(lambda v: criticals(v, rules.hits_per_critical)), destroyed)
