"""Melee and unarmed combat at one figure: strikes, armed blows, diving blows, grapples (TYC-8).

Choices where the spec is silent:

* One question is one blow (a ``strike``, unarmed or with ``melee_weapon``; a
  ``diving_blow``) or one grapple fought to control or to ``exchanges`` exchanges.
* Strikes and armed blows: the attack is a skill roll (TYC-1); an aimed blow halves the
  skill (round off) and lands at the location aimed at; a blow from surprise hits, cannot be
  blocked, and rolls its location unless aimed. A hit may be blocked by a skill roll
  (``block_skill``); unarmed figures cannot block armed blows (``defender_armed``). A
  critical strike does its maximum; blocked, a critical strike still does half its maximum
  (rounded down) unless the block is critical; a blocked critical armed blow disarms and
  does nothing.
* Damage: unarmed d4s by STR from the unarmed table; armed, the weapon's d6s plus
  STR / ``str_divisor`` rounded up. Armour rolls 1d6 per AV at the location and takes the
  total off (TYC-8); armed blows add 1 blunt trauma per 6 points stopped, rounded off
  (TYC-1.3). Cover plays no part in melee. Knockdown and stun as TYC-6.4, the blow one phase.
* Diving blow: the defender may dodge (``dodge_skill``; not from surprise) and the attacker
  then falls; else the attacker's d6 + 2 × STR against the defender's STR + END (from
  surprise or ambush the defender's STR only; ``surprise``): the higher
  knocks the other down, and the defender who loses takes the difference at a rolled
  location, armour ignored. ``p_attacker_down`` counts the attacker's falls.
* Thrown objects (TYC-7.3): 1d6 + STR / 3 (a knife: STR / 2), rounded up; effective range
  2 × STR m, long range to twice that with the skill halved; the location is rolled; armour
  as in melee, without blunt trauma. A throw cannot be blocked; a successful dodge
  (``dodge_skill``) makes it miss.
* Grapple: every exchange the attacker rolls his skill and, on a success, takes his unarmed
  damage off the defender's effective STR; then the defender, if he grapples back
  (``block_skill``), does the same to the attacker. Damage uses each figure's own STR
  from the table; the first brought to 0 STR is controlled.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from simlab.engine.pmf import PMF, dice_sum, mixture, point
from simlab.inputs.errors import ScenarioError, UnknownNameError
from simlab.inputs.params import SKILL, spec_field
from simlab.inputs.tables import RowOverrides, Table, Tables
from simlab.mechanics.d20 import p_critical_success, p_skill_success, round_off
from simlab.systems.tyconian.exact import single_hit_figures
from simlab.systems.tyconian.layout import NO_ROLL
from simlab.systems.tyconian.questions import melee_layout as k
from simlab.systems.tyconian.resolve import LOCATIONS, capacities, location_table
from simlab.systems.tyconian.rules import Armour, MeleeWeapon, Rules, Target, armours, melee_weapons, unarmed_damage
from simlab.systems.tyconian.wounds import LIMBS

__all__ = [
    "MeleeScenario",
    "ResolvedMelee",
    "resolve_melee",
    "exact_melee",
]

MELEE_ATTACKS = ("strike", "thrown", "diving_blow", "grapple")
_MODES = {"diving_blow": k.DIVING, "grapple": k.GRAPPLE}


@dataclass(frozen=True)
class MeleeScenario(Target):
    """Inputs of one melee attack (TYC-8)."""

    attack: str = spec_field(
        "strike", doc="strike (armed with melee_weapon), diving_blow or grapple", choices=MELEE_ATTACKS
    )
    melee_weapon: str = spec_field("", doc="row of the melee weapon table; blank: unarmed")
    skill: int = spec_field(10, doc="attacker's skill (brawling or the weapon's), d20 scale", **SKILL)
    attacker_str: int = spec_field(10, doc="attacker's STR", minimum=1, maximum=99)
    aim_location: str = spec_field("", doc="location aimed at, skill halved; blank: rolled")
    surprise: bool = spec_field(False, doc="from surprise or ambush: hits, cannot be blocked or dodged")
    block_skill: int | None = spec_field(
        None, doc="defender blocks (or grapples back) with this skill; blank: no", **SKILL
    )
    defender_armed: bool = spec_field(False, doc="the defender holds a weapon (needed to block armed blows)")
    dodge_skill: int | None = spec_field(None, doc="defender dodges a diving blow with this skill; blank: no", **SKILL)
    exchanges: int = spec_field(10, doc="most exchanges of a grapple", minimum=1, maximum=1000)
    range_m: float = spec_field(
        2.0, doc="distance of a throw: 2 x STR m, long range to twice that (TYC-7.3)", minimum=0, maximum=100000
    )


@dataclass(frozen=True, eq=False)
class ResolvedMelee:
    """Everything a melee attack's outcome depends on.

    Attributes:
        scenario: The inputs.
        rules: The rule parameters.
        weapon: The melee weapon (armed), else None.
        armour: The defender's armour.
        ints: The sampler's parameters (``melee_layout`` indices).
        armour_dice: Armour d6s at each location.
        capacity: Capacity per location.
        limb: 1 for a limb.
        location_of_roll: Location index of each d20 roll.
    """

    scenario: MeleeScenario
    rules: Rules
    weapon: MeleeWeapon | None
    armour: Armour
    ints: npt.NDArray[np.int64]
    armour_dice: npt.NDArray[np.int64]
    capacity: npt.NDArray[np.int64]
    limb: npt.NDArray[np.int64]
    location_of_roll: npt.NDArray[np.int64]

    def get(self, index: int) -> int:
        """One parameter of :attr:`ints`."""
        return int(self.ints[index])

    @property
    def max_damage(self) -> int:
        """Most damage one blow can do."""
        if self.get(k.MODE) == k.DIVING:
            return 6 + max(0, self.get(k.DIVE_ATTACK) - self.get(k.DIVE_DEFENCE))
        most = self.get(k.DICE) * self.get(k.SIDES) + self.get(k.BONUS)
        return most + (most // self.get(k.BLUNT_POINTS) + 1 if self.get(k.BLUNT_POINTS) else 0)


def unarmed_dice(strength: int, tables: Tables) -> int:
    """The d4s of an unarmed blow by STR (TYC-8).

    Raises:
        ScenarioError: For a STR the table does not cover.
    """
    table = tables.get("unarmed_damage", unarmed_damage())
    for row in table:
        if row.str_min <= strength <= row.str_max:
            return int(row.dice)
    bands = ", ".join(row.name for row in table)
    raise ScenarioError(f"STR {strength} is not in the unarmed damage table ({bands}; TYC-8)")


def resolve_melee(
    scenario: MeleeScenario, rules: Rules, row_overrides: RowOverrides | None = None, tables: Tables | None = None
) -> ResolvedMelee:
    """Resolve one melee attack (TYC-8).

    Raises:
        SimlabError: For unknown rows, a missing weapon, or an unknown aimed location.
    """
    overrides = row_overrides or {}
    tables = tables or {}
    s = scenario
    armour = tables.get("armor", armours()).resolve(s.armor or None, overrides.get("armor", {}))
    weapon = None
    if s.attack == "thrown":
        return _thrown(s, rules, armour, tables)
    if s.melee_weapon or overrides.get("melee_weapon"):
        if s.attack != "strike":
            raise ScenarioError(f"melee_weapon: a {s.attack.replace('_', ' ')} is unarmed (TYC-8); leave it blank")
        table: Table[MeleeWeapon] = tables.get("melee_weapons", melee_weapons())
        weapon = table.resolve(s.melee_weapon or None, overrides.get("melee_weapon", {}))
    if s.aim_location and s.aim_location not in LOCATIONS:
        raise UnknownNameError("aim_location", s.aim_location, LOCATIONS)
    skill = round_off(s.skill / 2, rules.rounding) if s.aim_location else s.skill
    return _resolved(s, rules, weapon, armour, tables, skill=skill)


def _thrown(s: MeleeScenario, rules: Rules, armour: Armour, tables: Tables) -> ResolvedMelee:
    """A thrown object or knife (TYC-7.3): an armed blow that cannot be blocked, only dodged."""
    if s.melee_weapon not in ("", "knife"):
        raise ScenarioError(f"melee_weapon: only a knife is thrown as a weapon (TYC-7.3), not {s.melee_weapon!r}")
    effective = 2 * s.attacker_str
    if s.range_m > 2 * effective:
        raise ScenarioError(
            f"range_m: {s.range_m:g} m is beyond long range of a throw, {2 * effective} m (2 x STR, doubled; TYC-7.3)"
        )
    skill = s.skill if s.range_m <= effective else round_off(s.skill / 2, rules.rounding)
    if s.aim_location:
        skill = round_off(skill / 2, rules.rounding)
    knife = MeleeWeapon(
        name="thrown knife" if s.melee_weapon else "thrown object", dice=1, str_divisor=2 if s.melee_weapon else 3
    )
    return _resolved(s, rules, knife, armour, tables, skill=skill, thrown=True)


def _resolved(
    s: MeleeScenario,
    rules: Rules,
    weapon: MeleeWeapon | None,
    armour: Armour,
    tables: Tables,
    *,
    skill: int,
    thrown: bool = False,
) -> ResolvedMelee:
    if weapon is not None:
        dice, sides = weapon.dice, 6
        bonus = math.ceil(s.attacker_str / weapon.str_divisor) if weapon.str_divisor else 0
    else:
        dice, sides, bonus = unarmed_dice(s.attacker_str, tables), 4, 0
    armed = weapon is not None
    can_block = s.block_skill is not None and (not armed or s.defender_armed) and not thrown
    defence = s.dodge_skill if thrown else s.block_skill if can_block else None
    ints = np.zeros(k.N_INTS, np.int64)
    values = {
        k.MODE: _MODES.get(s.attack, k.ARMED if armed else k.STRIKE),
        k.SKILL: skill,
        k.SURPRISE: int(s.surprise),
        k.BLOCK: NO_ROLL if defence is None else defence,
        k.DICE: dice,
        k.SIDES: sides,
        k.BONUS: bonus,
        k.AIMED: LOCATIONS.index(s.aim_location) if s.aim_location else -1,
        k.BLUNT_POINTS: rules.melee_blunt_points if armed and not thrown else 0,
        k.ROUNDING_DOWN: int(rules.rounding == "down"),
        k.CRIT_MAX: rules.critical_success_max,
        k.FAIL_MIN: rules.critical_failure_min,
        k.DEX: s.target_dex,
        k.END: s.target_end,
        k.HEAD: LOCATIONS.index("head"),
        k.DIVE_ATTACK: 2 * s.attacker_str,
        k.DIVE_DEFENCE: s.target_str + (0 if s.surprise else s.target_end),  # TYC-8: from surprise, STR only
        k.DODGE: NO_ROLL if s.dodge_skill is None else s.dodge_skill,
        k.ATTACKER_STR: s.attacker_str,
        k.DEFENDER_STR: s.target_str,
        k.DEFENDER_DICE: unarmed_dice(s.target_str, tables) if s.attack == "grapple" else 0,
        k.DEFENDER_SKILL: NO_ROLL if s.block_skill is None else s.block_skill,
        k.MAX_EXCHANGES: s.exchanges,
        k.SKILL_DIE: rules.skill_die,
    }
    for index, value in values.items():
        ints[index] = value
    return ResolvedMelee(
        scenario=s,
        rules=rules,
        weapon=weapon,
        armour=armour,
        ints=ints,
        armour_dice=np.array([armour.av_at(name) for name in LOCATIONS], np.int64),
        capacity=capacities(s.target_str, s.target_end),
        limb=np.array([name in LIMBS for name in LOCATIONS], np.int64),
        location_of_roll=location_table(tables),
    )


def _roll_chances(melee: ResolvedMelee, skill: int) -> tuple[float, float]:
    """(success, critical success) of a skill roll (TYC-1.1)."""
    r = melee.rules
    success = p_skill_success(
        skill, die=r.skill_die, critical_success_max=r.critical_success_max, critical_failure_min=r.critical_failure_min
    )
    return success, min(success, p_critical_success(die=r.skill_die, critical_success_max=r.critical_success_max))


def _location_chances(melee: ResolvedMelee) -> np.ndarray:
    chances = np.zeros(len(LOCATIONS))
    if melee.get(k.AIMED) >= 0:
        chances[melee.get(k.AIMED)] = 1.0
    else:
        for roll in range(1, 21):
            chances[int(melee.location_of_roll[roll])] += 1 / 20
    return chances


def _through_armour(melee: ResolvedMelee, blow: PMF, location: int) -> PMF:
    """Damage after the armour's d6s, with blunt trauma for armed blows (TYC-8)."""
    av = int(melee.armour_dice[location])
    if av == 0:
        return blow
    armour = dice_sum(av, 6)
    blunt_points = melee.get(k.BLUNT_POINTS)
    down = melee.rules.rounding == "down"
    outcomes: dict[int, float] = {}
    for damage, p in zip(blow.values, blow.probs, strict=True):
        for roll, q in zip(armour.values, armour.probs, strict=True):
            stopped = min(int(roll), int(damage))
            left = int(damage) - stopped
            if blunt_points:
                left += stopped // blunt_points if down else (2 * stopped + blunt_points) // (2 * blunt_points)
            outcomes[left] = outcomes.get(left, 0.0) + p * q
    low = min(outcomes)
    probs = np.zeros(max(outcomes) - low + 1)
    for value, p in outcomes.items():
        probs[value - low] += p
    return PMF(low, probs)


def _blow_parts(melee: ResolvedMelee) -> tuple[list[tuple[float, PMF]], float]:
    """The ways a blow lands, ``(weight, damage before armour)``, and the chance the attacker falls."""
    s = melee.scenario
    if melee.get(k.MODE) == k.DIVING:
        dodged = 0.0 if s.surprise or s.dodge_skill is None else _roll_chances(melee, s.dodge_skill)[0]
        margin = (dice_sum(1, 6) + (melee.get(k.DIVE_ATTACK) - melee.get(k.DIVE_DEFENCE))).probs
        values = np.arange(len(margin)) + 1 + melee.get(k.DIVE_ATTACK) - melee.get(k.DIVE_DEFENCE)
        parts = [((1 - dodged) * float(p), point(int(v))) for v, p in zip(values, margin, strict=True) if v > 0]
        falls = dodged + (1 - dodged) * float(margin[values < 0].sum())
        return parts, falls
    most = melee.get(k.DICE) * melee.get(k.SIDES) + melee.get(k.BONUS)
    rolled = dice_sum(melee.get(k.DICE), melee.get(k.SIDES)) + melee.get(k.BONUS)
    if s.surprise:
        return [(1.0, rolled)], 0.0
    hit, critical = _roll_chances(melee, melee.get(k.SKILL))
    blocked, block_critical = (0.0, 0.0) if melee.get(k.BLOCK) == NO_ROLL else _roll_chances(melee, melee.get(k.BLOCK))
    parts = [((hit - critical) * (1 - blocked), rolled), (critical * (1 - blocked), point(most))]
    if melee.get(k.MODE) == k.STRIKE:
        parts.append((critical * (blocked - block_critical), point(most // 2)))
    return [(w, pmf) for w, pmf in parts if w > 0], 0.0


def exact_melee(melee: ResolvedMelee) -> tuple[dict[str, float], dict[str, dict[int, float]]]:
    """The exact metrics and distributions of one melee attack (TYC-8, TYC-6)."""
    if melee.get(k.MODE) == k.GRAPPLE:
        return exact_grapple(melee), {}
    blows, falls = _blow_parts(melee)
    parts = [
        (weight * chance, _through_armour(melee, blow, location) if melee.get(k.MODE) != k.DIVING else blow, location)
        for weight, blow in blows
        for location, chance in enumerate(_location_chances(melee))
        if chance
    ]
    damage, outcome, wounds = single_hit_figures(parts, melee.scenario, melee.capacity)
    metrics = {"p_hit": sum(w for w, _, _ in parts), "mean_damage": damage.mean(), **outcome}
    if melee.get(k.MODE) == k.DIVING:
        metrics["p_knockdown"] = metrics["p_hit"]  # the defender who loses falls, whatever the damage
        metrics["p_attacker_down"] = falls
    return metrics, {"damage": damage.to_dict(), **wounds}


def exact_grapple(melee: ResolvedMelee) -> dict[str, float]:
    """Chances of control either way and the expected exchanges of a grapple, by dynamic programming (TYC-8)."""
    attacker_hit = _roll_chances(melee, melee.get(k.SKILL))[0]
    defender_skill = melee.get(k.DEFENDER_SKILL)
    defender_hit = _roll_chances(melee, defender_skill)[0] if defender_skill != NO_ROLL else 0.0
    by_attacker = mixture([1 - attacker_hit, attacker_hit], [point(0), dice_sum(melee.get(k.DICE), 4)])
    by_defender = mixture([1 - defender_hit, defender_hit], [point(0), dice_sum(melee.get(k.DEFENDER_DICE), 4)])
    states = {(melee.get(k.ATTACKER_STR), melee.get(k.DEFENDER_STR)): 1.0}
    control = controlled = exchanges = 0.0
    for _ in range(melee.get(k.MAX_EXCHANGES)):
        exchanges += sum(states.values())
        after: dict[tuple[int, int], float] = {}
        for (attacker, defender), p in states.items():
            for loss, q in zip(by_attacker.values, by_attacker.probs, strict=True):
                left = defender - int(loss)
                if left <= 0:
                    control += p * q
                    continue
                for back, r in zip(by_defender.values, by_defender.probs, strict=True):
                    if attacker - int(back) <= 0:
                        controlled += p * q * r
                    else:
                        key = (attacker - int(back), left)
                        after[key] = after.get(key, 0.0) + p * q * r
        states = after
    return {"p_control": control, "p_controlled": controlled, "mean_exchanges": exchanges}
