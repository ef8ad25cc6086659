"""The errors simlab reports to its users, where the input readers have always found them (:mod:`simlab.errors`)."""

from simlab.errors import *  # noqa: F403  (every name of simlab.errors, as the readers have always found them)
from simlab.errors import __all__ as _shared

__all__ = [*_shared, "about_armour"]


def about_armour(message: str) -> bool:
    """Whether a one-line message of an attack is about the target's armour (its first clause names it).

    An attack reads the shooter's weapon and the target's armour; a duel or a battle names the
    side or group whose input is at fault, so an armour's mistake is the target's, not the shooter's.
    """
    first = message.split(";")[0].split(":")[0]
    return "armor" in first or "armour" in first
