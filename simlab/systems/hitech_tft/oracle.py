"""An independent formulation of one HiTech TFT attack in icepool (a test dependency).

Written from the spec, not from :mod:`simlab.systems.hitech_tft.exact`: it shares only the
adjusted DX and the table rows. The tests compare the exact engine with it over a registry
of scenarios, and ``simlab bench`` times both on the same distributions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from simlab.systems.hitech_tft.rules import Armour, Rules, Scenario, Weapon

__all__ = ["OracleAttack", "icepool_attack", "icepool_available"]


def icepool_available() -> bool:
    """Whether icepool can be imported."""
    try:
        import icepool  # noqa: F401
    except ImportError:
        return False
    return True


@dataclass(frozen=True)
class OracleAttack:
    """icepool dice of an attack's outcomes.

    Attributes:
        hits: Die of the number of hits.
        damage: Die of the damage taken.
        knock: Die of the damage that counts for knockdown.
        p_weapon_lost: Probability of losing the weapon.
    """

    hits: Any
    damage: Any
    knock: Any
    p_weapon_lost: float


def icepool_attack(scenario: Scenario, rules: Rules, weapon: Weapon, armour: Armour, adj_dx: int) -> OracleAttack:
    """The attack's outcome dice, built with icepool from the rules text.

    Args:
        scenario: The scenario (mode, quickdraw, dx, st).
        rules: Rule parameters.
        weapon: Weapon row.
        armour: Armour row.
        adj_dx: Adjusted DX of the attack (TFT-2).
    """
    import icepool
    from icepool import d6

    zero = icepool.Die([0])
    roll = 3 @ d6
    protection = armour.protection
    if weapon.flags & {"AP", "HEAP"}:
        protection = math.ceil(protection / 2)
    doubled = 2 if (weapon.flags & {"HE", "HEAP"} and "blast" not in weapon.flags) else 1
    if "blast" in weapon.flags and rules.grenade_he_doubling:
        doubled = 2
    melee = "melee" in weapon.flags or weapon.range_class == "melee"
    blast = "blast" in weapon.flags
    rounds = {"single": 1, "four": 4, "half": (weapon.clip or 1) // 2, "full": weapon.clip or 1, "burst": 10**9}

    def hits_on(r: int) -> int:
        if rules.criticals and r >= rules.automatic_miss_min:
            return 0
        if not (rules.criticals and r <= rules.automatic_hit_max) and r > adj_dx:
            return 0
        if scenario.mode == "single":
            return 1
        return min(max(1, 1 + math.floor((adj_dx - r) / rules.autofire_step)), max(1, rounds[scenario.mode]))

    def multiplier_on(r: int) -> int:
        if not rules.criticals:
            return 1
        return 3 if r <= rules.triple_damage_max else 2 if r <= rules.double_damage_max else 1

    def through(n_dice: int, adds: int, armour_points: int) -> Any:
        if n_dice == 0:
            return icepool.Die([max(0, adds) * doubled])
        if melee:
            total = n_dice @ d6
            return total.map(lambda s: max(0, s + adds - armour_points) * doubled)
        per_die = d6.map(lambda f: max(0, f - armour_points))
        return (n_dice @ per_die).map(lambda s: max(0, s + adds) * doubled)

    def before_armour(n_dice: int, adds: int) -> Any:
        return (n_dice @ d6).map(lambda s: max(0, s + adds)) if n_dice else icepool.Die([max(0, adds)])

    def blast_dice(distance: int) -> int:
        divisors = rules.blast_divisors
        return weapon.dice // divisors[distance] if distance < len(divisors) else 0

    def outcome(r: int, which: str) -> Any:
        h = hits_on(r)
        if blast:
            if h:
                n, armour_points = blast_dice(0) * multiplier_on(r), math.ceil(protection / 2)
                dmg = through(n, weapon.adds, armour_points)
                return (
                    icepool.Die([1])
                    if which == "hits"
                    else dmg
                    if which == "damage" or not armour.soft
                    else before_armour(n, weapon.adds)
                )
            if which == "hits":
                return icepool.Die([0])
            scatter = d6.map(
                lambda k: (
                    through(blast_dice(k), weapon.adds, protection)
                    if which == "damage" or not armour.soft
                    else before_armour(blast_dice(k), weapon.adds)
                )
            )
            return scatter
        if which == "hits":
            return icepool.Die([h])
        if h == 0:
            return zero
        n = h * weapon.dice * multiplier_on(r)
        dmg = through(n, h * weapon.adds, protection)
        if which == "knock" and armour.soft:
            return before_armour(n, h * weapon.adds)
        return dmg

    def attack_die(which: str) -> Any:
        die = roll.map(lambda r: outcome(r, which))
        if not scenario.quickdraw:
            return die
        quickdraw_ok = roll.map(lambda r: r <= scenario.dx)
        return quickdraw_ok.map(lambda ok: die if ok else zero)

    p_roll = {r: float(roll.probability(r)) for r in range(3, 19)}
    p_lost = sum(p_roll[r] for r in (17, 18)) if rules.criticals else 0.0
    if scenario.quickdraw:
        p_lost *= sum(p_roll[r] for r in range(3, 19) if r <= scenario.dx)
    return OracleAttack(attack_die("hits"), attack_die("damage"), attack_die("knock"), p_lost)
