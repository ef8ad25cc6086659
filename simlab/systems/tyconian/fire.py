"""Direct fire of the Tyconian rules: range bands, effective skill, recoil, jams (TYC-3).

Pure functions of the inputs; the chance of each shot of a turn follows exactly from them.
"""

from __future__ import annotations

from collections.abc import Sequence

from simlab.mechanics.d20 import p_skill_success, round_off
from simlab.mechanics.target_number import TWO_D6
from simlab.systems.tyconian.rules import Rules, Weapon

__all__ = [
    "RANGE_BANDS",
    "SKILL_MULTIPLIER",
    "range_band",
    "strength_prime",
    "recoil_penalties",
    "effective_skill",
    "shot_chances",
    "p_jam",
    "can_jam",
]

#: Range bands in order (TYC-3.1), each up to this multiple of the short range R.
RANGE_BANDS = {"close": 0.5, "short": 1.0, "medium": 2.0, "long": 4.0, "very_long": 8.0, "extreme": 16.0}
#: Skill multiplier by band (TYC-3.1).
SKILL_MULTIPLIER = {"close": 1.0, "short": 1.0, "medium": 1.0, "long": 0.5, "very_long": 0.25, "extreme": 0.1}


def range_band(
    range_m: float, short_range_m: float, *, sights: str = "none", aimed: bool = False, rules: Rules
) -> str | None:
    """The range band of a shot, or None beyond extreme range (TYC-3.1).

    Args:
        range_m: Distance to the target.
        short_range_m: The weapon's printed short range R.
        sights: ``none``, ``scope`` (lengthens R for aimed shots) or ``electronic`` (for
            every shot; rule ``electronic_sights = "aimed_only"`` reads it as the scope).
        aimed: Whether the shot is aimed (aim points spent).
        rules: The rule parameters.

    Close range is *less than* R/2 (rule ``close_range = "at_most_half"``: R/2 is close too).
    """
    short = short_range_m
    if sights == "scope" and aimed:
        short += rules.scope_bonus_m
    elif sights == "electronic" and (aimed or rules.electronic_sights == "every_shot"):
        short += rules.electronic_bonus_m
    for band, multiple in RANGE_BANDS.items():
        limit = multiple * short
        inside = range_m < limit if band == "close" and rules.close_range == "below_half" else range_m <= limit
        if inside:
            return band
    return None


def strength_prime(strength: int, movement: str, *, two_weapons: bool = False, both_same_second: bool = False) -> int:
    """STR' against recoil: -2 walking, halved (down) trotting or in a vehicle, -1/-2 with two weapons (TYC-3.4)."""
    value = strength
    if movement == "walk":
        value -= 2
    elif movement in ("trot", "vehicle"):
        value //= 2
    if two_weapons:
        value -= 2 if both_same_second else 1
    return value


def recoil_penalties(recoils: Sequence[int], str_prime: int) -> list[int]:
    """Penalty of each shot of a turn: the recoil so far, this shot's included, over STR' (TYC-3.4).

    Example (seed): STR 8, recoil 3, five shots → 0, 0, 1, 4, 7.
    """
    penalties = []
    total = 0
    for recoil in recoils:
        total += recoil
        penalties.append(max(0, total - str_prime))
    return penalties


def effective_skill(
    skill: int,
    aim_points: int,
    band: str,
    *,
    target_ran: bool,
    obscured: bool,
    recoil_penalty: int,
    two_weapon_penalty: int,
    rules: Rules,
) -> int:
    """``round((skill + aim) × range × ½ ran × ½ obscured) − recoil − two-weapon`` (TYC-3.3)."""
    value = (skill + rules.aim_bonus * aim_points) * SKILL_MULTIPLIER[band]
    if target_ran:
        value /= 2
    if obscured:
        value /= 2
    return round_off(value, rules.rounding) - recoil_penalty - two_weapon_penalty


def shot_chances(effective_skills: Sequence[int], rules: Rules) -> list[float]:
    """Chance that each shot hits (a d20 skill roll each, TYC-1.1)."""
    return [
        p_skill_success(
            s,
            die=rules.skill_die,
            critical_success_max=rules.critical_success_max,
            critical_failure_min=rules.critical_failure_min,
        )
        for s in effective_skills
    ]


def can_jam(weapon: Weapon, mode: str) -> bool:
    """Whether a weapon fired in ``mode`` can jam: semi-automatic (ROF SA...), not energy, single shots (TYC-3.6)."""
    return weapon.rof.startswith("SA") and "energy" not in weapon.flags and mode == "single"


def p_jam(shots: int, rules: Rules) -> float:
    """Chance that a semi-automatic weapon jams after ``shots`` shots: 2d6 + 3 < shots (TYC-3.6)."""
    return 1.0 - TWO_D6.p_at_least(shots - rules.jam_bonus)
