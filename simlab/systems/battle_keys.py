"""What each system's battles read: keys only some systems read, and rules duels and battles never read.

A key given where it would change nothing is refused, naming what it is and where it is read
(ENG-1 to ENG-4), so that no input is accepted that is not read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from simlab.inputs.battles import SIDE_DEFAULTS, Battle, Doctrine, Formation
from simlab.inputs.errors import SimlabError
from simlab.inputs.params import as_plain
from simlab.systems.base import System

__all__ = ["SYSTEM_ONLY_KEYS", "reads_key", "refuse_unread", "refuse_unread_rules"]


#: Keys of a battle that only some systems read (ENG-1 to ENG-4): key → (the systems, the table it stands in:
#: ``""`` the battle's top, ``side`` a side's own key, else the side's doctrine or formation).
SYSTEM_ONLY_KEYS: dict[str, tuple[tuple[str, ...], str]] = {
    "tactics": (("striker",), "side"),
    "cover": (("striker",), "side"),
    "extra_hits": (("striker",), "doctrine"),
    "suppressors": (("striker",), "doctrine"),
    "go_prone": (("striker",), "doctrine"),
    "same_second": (("tyconian",), ""),
    "range_policy": (("space_v4",), "formation"),
    "spacing_m": (("hitech_tft", "tyconian"), "formation"),
}
#: What each such key is, for the message that refuses it where it is not read.
_WHOSE = {
    "tactics": "the Striker leader's initiative (ENG-4.1); a Tyconian figure's Tactics roll is its group's "
    "tactics input (TYC-2.1)",
    "cover": "a Striker side's cover (ENG-3); elsewhere cover is a group's input: HiTech TFT's dx_mod, "
    "Tyconian's cover_av, Space's sand (SPC-3.2)",
    "extra_hits": "a Striker doctrine (ENG-4.1)",
    "suppressors": "a Striker doctrine (ENG-4.1)",
    "go_prone": "a Striker doctrine (ENG-4.1)",
    "same_second": "a Tyconian reading (ENG-4.2)",
    "range_policy": "Space Combat's (ENG-4.4): only its battles move the range, the other systems' sides hold it "
    "(ENG-3)",
    "spacing_m": "read where distances along the line matter: HiTech TFT's hexes (ENG-4.3) and Tyconian's "
    "danger zone (ENG-4.2)",
}


def reads_key(system: str, key: str) -> bool:
    """Whether ``system``'s battles read ``key`` (every key not in :data:`SYSTEM_ONLY_KEYS` is read by all)."""
    owners = SYSTEM_ONLY_KEYS.get(key)
    return owners is None or system in owners[0]


def refuse_unread_rules(system: System, battle: Battle | None, rules: Mapping[str, Any]) -> None:
    """Refuse a rule parameter the system's duels and battles never read, given by the battle or the request.

    A variant's rules are not checked: a variant is for every question of its system.

    Raises:
        SimlabError: Naming the rule and what it is for (located in the battle file when it is there).
    """
    fight = "battles" if battle is not None else "duels"
    for name, what in system.fight_unread_rules.items():
        refused = f"{system.name} {fight} do not read {name}: it is {what}"
        if battle is not None and name in battle.rules:
            raise battle.error(f"rules.{name}", refused)
        if name in rules:
            raise SimlabError(f"--rule {name}: {refused}")


def refuse_unread(battle: Battle, system: str) -> None:
    """Refuse the keys a battle gives that ``system`` does not read (they would change nothing here).

    A key left at its default is no change and passes; any other value is refused at its line.

    Raises:
        BattleError: At the first such key, naming what it is and where it is read.
    """
    defaults = {"doctrine": as_plain(Doctrine()), "formation": as_plain(Formation()), "side": SIDE_DEFAULTS}
    for key, (owners, table) in SYSTEM_ONLY_KEYS.items():
        if system in owners:
            continue
        refused = f"{system} battles do not read {key}: it is {_WHOSE[key]}"
        if not table:
            if key in battle.data:
                raise battle.error(key, refused)
            continue
        for s, side in enumerate(battle.sides):
            holder = side if table == "side" else getattr(side, table)
            value = getattr(holder, key)
            if value != defaults[table][key]:
                where = f"{'ab'[s]}.{key}" if table == "side" else f"{'ab'[s]}.{table}.{key}"
                raise battle.error(where, f"{value!r}: {refused}")
