"""Every key a battle accepts is read (ENG-1 to ENG-4): a property over the registry of every system.

For each system, every key path of its battles (the battle's top, a side's own keys, doctrine,
formation, a group's inputs, every rule parameter) is set to a valid value other than the
battle's own. The battle either refuses it in one line, or its numbers change (same seed,
common random numbers): on the shipped battle, or on the battle of :data:`MATTERS_WHEN`, which
says for each key that the shipped battle leaves untouched what it takes to matter.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest

from simlab.asking.requests import question_request
from simlab.inputs.battles import Doctrine, Formation, load_battle
from simlab.inputs.errors import SimlabError
from simlab.inputs.params import FieldSpec, field_specs
from simlab.systems import get_system

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = {
    "striker": "striker_fireteam",
    "hitech_tft": "tft_hexes",
    "tyconian": "tyconian_squads",
    "space_v4": "space_squadron",
}
TRIALS = 3000
#: HE splashes within one hex: figures 1 m apart stand 0.75 hex, so one hex, from each other (ENG-4.3).
HE_AMONG_NEIGHBOURS = {"a.groups.0.weapon": "ACR HE", "a.groups.0.mode": "single", "b.formation.spacing_m": 1}
#: Keys the shipped battle does not exercise, each with a battle (changes, rules) where it matters.
MATTERS_WHEN: dict[str, dict[str, tuple[dict[str, Any], dict[str, Any]]]] = {
    "striker": {
        "natural_miss_max": ({"a.groups.0.dm": 5}, {}),  # a 3 hits only at DM +5 or more
        "natural_hit_min": ({"a.groups.0.dm": -6}, {}),  # a 12 matters only where 12 misses otherwise
        "full_clip_autofire_bonus": ({"a.groups.0.weapon": "assault rifle", "a.groups.0.mode": "full_clip"}, {}),
        "full_clip_extra_bonus": ({"a.groups.0.weapon": "assault rifle", "a.groups.0.mode": "full_clip"}, {}),
        "burst5_auto_bonus": ({"a.groups.0.weapon": "assault rifle", "a.groups.0.mode": "burst5"}, {}),
        "burst5_smg_bonus": ({"a.groups.0.weapon": "submachinegun", "a.groups.0.mode": "burst5"}, {}),
        "burst5_autoshotgun_bonus": ({"a.groups.0.weapon": "autoshotgun", "a.groups.0.mode": "burst5"}, {}),
        "burst5_shotgun_bonus": ({"a.groups.0.weapon": "shotgun", "a.groups.0.mode": "burst5"}, {}),
        "suppressive_bonus": ({"b.doctrine.suppressors": 2}, {}),
        "suppression_first_hit": ({"b.doctrine.suppressors": 2}, {}),
        "suppression_extra_hit": ({"b.doctrine.suppressors": 2}, {}),
        "suppressive_wound_min": ({"b.doctrine.suppressors": 2}, {}),
        "crit_halves_armor": ({"b.groups.0.armor": "combat armour"}, {}),
        "armor_halving_min": ({"b.groups.0.armor": "combat armour"}, {}),
        "ndy_step": ({"a.groups.0.weapon": "fusion gun"}, {}),
        "a.doctrine.go_prone": ({"b.doctrine.suppressors": 1}, {}),  # prone against the gunner who fires
        "a.groups.0.sights": ({"range_band": "long"}, {}),
        "a.groups.0.end": ({"b.groups.0.weapon": "fusion gun"}, {}),
        "a.groups.0.magazines": ({"a.groups.0.mode": "full_clip", "a.groups.0.weapon": "assault rifle"}, {}),
        "a.groups.0.green": ({"b.doctrine.suppressors": 1}, {}),
        "a.tactics": ({"b.doctrine.suppressors": 2}, {}),
    },
    "hitech_tft": {
        "thrown_range_class": ({"a.groups.0.weapon": "grenade TL8", "a.groups.0.mode": "single"}, {}),
        "metre_table_from": ({"range_m": 51}, {}),  # the two readings differ from 50 to 52 m
        "melee_reach_m": ({"range_m": 5, "a.groups.0.weapon": "broadsword", "a.groups.0.mode": "single"}, {}),
        "battle_dress_st": ({"b.groups.0.armor": "battle TL13", "a.groups.0.weapon": "gauss rifle"}, {}),
        "automatic_miss_min": ({"a.groups.0.dx": 30}, {}),
        "he_splash_per_die": (HE_AMONG_NEIGHBOURS, {}),
        "he_splash_armor": (HE_AMONG_NEIGHBOURS, {}),
    },
    "tyconian": {
        "critical_failure_min": ({"a.groups.0.skill": 30}, {}),
        "rounding": ({"range_m": 130, "a.groups.0.skill": 13}, {}),  # beyond 2R a skill of 13 halves to 6.5
        "aim_bonus": ({"a.groups.0.aim": 2}, {}),
        "max_aim_points": ({"a.groups.0.aim": 6}, {}),
        "close_range": ({"range_m": 25}, {}),
        "close_hit_face": ({"range_m": 3}, {}),
        "recoil_dice_factor": ({"b.groups.0.weapon": "light machinegun", "b.groups.0.strength": 5}, {}),
        "max_action_points": ({"a.groups.0.dex": 18, "a.groups.0.tactics": "critical"}, {}),
        "tactics_cost": ({"a.groups.0.tactics": "success"}, {}),
        "tactics_turns": ({"a.groups.0.tactics": "success", "range_m": 150}, {}),
        "a.groups.0.magazines": ({"a.groups.0.magazines": 1, "a.groups.0.weapon": "autopistol"}, {}),
        "a.groups.0.two_weapon_fire": ({"a.groups.0.two_weapons": True, "a.groups.0.weapon": "autopistol"}, {}),
    },
    "space_v4": {
        "natural_miss_max": ({}, {"natural_rules": True}),
        "natural_hit_min": ({"range_band": "very_long"}, {"natural_rules": True}),
        "missiles_beyond_very_long": ({"range_band": "distant"}, {}),
        "range_moves": ({"b.formation.range_policy": "open"}, {}),
        "a.doctrine.targets": ({"a.doctrine.targets": "random", "b.groups.0.count": 3}, {}),
        "a.formation.range_policy": ({"b.groups.0.ship": "free trader"}, {}),
        "a.groups.0.sand": ({"a.groups.0.ship": "free trader"}, {}),  # a ship with sandcasters
    },
}


def other(spec: FieldSpec, current: Any) -> Any:
    """A valid value of the field other than ``current`` (None: there is none to try)."""
    if spec.choices:
        return next((c for c in spec.choices if c != current), None)
    if spec.kind == "bool":
        return not current
    low, high = spec.bounds
    if spec.kind in ("int", "int?"):
        base = current if isinstance(current, int) else 1
        return next((v for v in (base + 2, base - 2, base + 1, base - 1) if low <= v <= high), None)
    if spec.kind in ("float", "float?"):
        base = float(current) if isinstance(current, (int, float)) else 1.0
        return next((v for v in (base * 1.5 + 0.5, base / 2) if low <= v <= high), None)
    if spec.kind == "ints":
        return tuple(v + 1 for v in (current or (2,)))
    return None


#: The keys of a battle that are not fields of a dataclass, each with a value to try.
BATTLE_KEYS = {"max_turns": 2, "same_second": "together", "a.tactics": 3, "a.cover": "partial"}
#: Another range of each system's shipped battle (ENG-3): a band, or metres.
RANGES = {"striker": ("range_band", "long"), "space_v4": ("range_band", "very_long"),
          "hitech_tft": ("range_m", 130.0), "tyconian": ("range_m", 130.0)}  # fmt: skip


def keys_of(system: str) -> list[tuple[str, Any]]:
    """Every key path of a battle of ``system`` with a valid value other than the shipped battle's."""
    chosen = get_system(system)
    battle = load_battle(ROOT / "experiments" / "battles" / f"{SHIPPED[system]}.toml")
    side, group = battle.sides[0], battle.sides[0].groups[0]
    defaults = chosen.rules_type()
    found = [(f"rules.{n}", spec, getattr(defaults, n)) for n, spec in field_specs(chosen.rules_type).items()]
    found += [(f"a.doctrine.{n}", spec, getattr(side.doctrine, n)) for n, spec in field_specs(Doctrine).items()]
    found += [(f"a.formation.{n}", spec, getattr(side.formation, n)) for n, spec in field_specs(Formation).items()]
    battles = chosen.questions["battle"]
    for name, spec in field_specs(battles.inputs_type).items():
        found.append((f"a.groups.0.{name}", spec, group.inputs.get(name, spec.default)))
    pairs = [(key, other(spec, current)) for key, spec, current in found]
    for name, table in battles.row_inputs.items():  # another row of the table: a weapon, an armour, a ship
        rows = [str(row["name"]) for row in chosen.tables()[table].as_records()]
        pairs.append((f"a.groups.0.{name}", next(r for r in rows if r != group.inputs.get(name))))
    pairs += [
        *BATTLE_KEYS.items(),
        RANGES[system],
        ("range_m" if RANGES[system][0] == "range_band" else "range_band", "short"),
    ]  # the other way of giving a range: refused
    return [(key, value) for key, value in pairs if value is not None]


#: The shipped battle made smaller where its exact first turn is slow to compute (a fleet's turn order).
SMALLER = {"space_v4": {"a.groups.0.count": 2}}


def numbers(system: str, changes: dict[str, Any], rules: dict[str, Any]) -> Any:
    """The metrics and distributions of the shipped battle with ``changes`` and ``rules`` (at one seed)."""
    changes = {**SMALLER.get(system, {}), **changes}
    return _numbers(system, tuple(sorted(changes.items())), tuple(sorted(rules.items())))


@functools.lru_cache(maxsize=64)
def _numbers(system: str, changes: tuple[tuple[str, Any], ...], rules: tuple[tuple[str, Any], ...]) -> Any:
    question, request = question_request(
        system, "battle", battle=str(ROOT / "experiments" / "battles" / f"{SHIPPED[system]}.toml"),
        inputs=dict(changes), rules=dict(rules), trials=TRIALS, seed=11, threads=1, max_trials=10**9,
    )  # fmt: skip
    result = question.answer(request)
    return result.metrics, result.distributions


@pytest.mark.parametrize("system", sorted(SHIPPED))
def test_every_key_a_battle_accepts_changes_its_numbers(system):
    silent = []
    for key, value in keys_of(system):
        name = key.removeprefix("rules.")
        context = MATTERS_WHEN[system].get(name, MATTERS_WHEN[system].get(key, ({}, {})))
        as_rule = key.startswith("rules.") and name != "max_turns"  # the battle's max_turns is its own key

        changes, rules = dict(context[0]), dict(context[1])
        try:
            changed = (
                numbers(system, {**changes, key: value}, rules)
                if not as_rule
                else numbers(system, changes, {**rules, name: value})
            )
        except SimlabError:
            continue  # refused in one line: not accepted
        try:
            unchanged = numbers(system, changes, rules)
        except SimlabError:
            continue  # the value makes a battle of one that was refused: it is read
        if changed == unchanged:
            silent.append(f"{key}={value!r}")
    assert not silent, f"{system} battles accept but do not read: {', '.join(silent)}"
