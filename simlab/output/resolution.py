"""How an answer's attack was resolved, in the words the command line and the web page both show.

The DMs that make the roll (HiTech TFT's AdjDX, a 2d6 system's to-hit DM), the rounds and rolls,
point defence, each shot's chance: from an answer's ``details``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["resolution_lines"]


def resolution_lines(details: Mapping[str, Any]) -> list[str]:
    """The lines that say how the attack of an answer was resolved (none for questions without a roll)."""
    lines = []
    if "adj_dx_terms" in details:
        terms = " ".join(f"{k} {v:+d}" for k, v in details["adj_dx_terms"].items() if v and k != "dx")
        lines.append(f"AdjDX {details['adj_dx']} = dx {details['adj_dx_terms']['dx']} {terms}".rstrip())
    if "to_hit_terms" in details:
        terms = " ".join(f"{k} {v:+d}" for k, v in details["to_hit_terms"].items() if v)
        extra = f"; rounds fired {details['rounds']}" if "rounds" in details else ""
        if "rolls" in details:
            extra += f"; {details['rolls']} roll(s) of {details['weapons_per_roll']} weapon(s)"
        if details.get("in_range") is False:
            extra += "; out of range: no fire"
        lines.append(f"to-hit DM {details['to_hit_dm']:+d} = {terms or '0'}{extra}")
    if "battle_dress" in details:
        lines.append(f"battle dress: {details['battle_dress']}")
    if details.get("pd_lasers_held") or details.get("pd_lasers_fired"):
        held, fired = details["pd_lasers_held"], details["pd_lasers_fired"]
        needs = details["pd_needs"]
        lines.append(
            f"point defence: turrets {details['pd_turrets']}; {held} laser(s) held back (need {needs['held']}+), "
            f"{fired} that already fired (need {needs['fired']}+)"
        )
    if details.get("shot_chances"):
        chances = ", ".join(f"{p:.2f}" for p in details["shot_chances"])
        lines.append(f"effective skill {details['effective_skills']}; chance of each shot to hit: {chances}")
    return lines
