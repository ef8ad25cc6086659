"""What each system's battles read: keys only some systems read, and rules duels and battles never read.

A key given where it would change nothing is refused, naming what it is and where it is read
(ENG-1 to ENG-4), so that no input is accepted that is not read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from simlab.inputs.battles import SIDE_DEFAULTS, Battle, Doctrine, Formation
from simlab.inputs.errors import SimlabError, shortened
from simlab.inputs.params import as_plain
from simlab.systems.base import System

__all__ = ["SPACING", "system_only_keys", "reads_key", "refuse_unread", "refuse_unread_rules"]


#: What ``spacing_m`` is: two systems read it (each names it among its ``battle_keys``).
SPACING = (
    "read where distances along the line matter: HiTech TFT's hexes (ENG-4.3) and Tyconian's danger zone (ENG-4.2)"
)


def system_only_keys() -> dict[str, tuple[tuple[str, ...], str, str]]:
    """Keys of a battle that only some systems read (ENG-1 to ENG-4), from each system's ``battle_keys``.

    Returns:
        Key → (the systems that read it, the table it stands in: ``""`` the battle's top, ``side`` a
        side's own key, else the side's doctrine or formation, and what it is, in words).
    """
    from simlab.systems import all_systems

    found: dict[str, tuple[tuple[str, ...], str, str]] = {}
    for system in all_systems():
        for key, (table, what) in system.battle_keys.items():
            owners, _, said = found.get(key, ((), table, what))
            found[key] = ((*owners, system.name), table, said)
    return found


def reads_key(system: str, key: str) -> bool:
    """Whether ``system``'s battles read ``key`` (every key no system claims as its own is read by all)."""
    owners = system_only_keys().get(key)
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
    for key, (owners, table, what) in system_only_keys().items():
        if system in owners:
            continue
        refused = f"{system} battles do not read {key}: it is {what}"
        if not table:
            if key in battle.data:
                raise battle.error(key, refused)
            continue
        for s, side in enumerate(battle.sides):
            holder = side if table == "side" else getattr(side, table)
            value = getattr(holder, key)
            if value != defaults[table][key]:
                where = f"{'ab'[s]}.{key}" if table == "side" else f"{'ab'[s]}.{table}.{key}"
                raise battle.error(where, f"{shortened(value)!r}: {refused}")
