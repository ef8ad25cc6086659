"""The duel question's engine for Space Combat V4 (SPC-7): a request checked into the resolved duel, then sampled.

Apart from :mod:`simlab.systems.space_v4.duel` (which resolves) so that the sampler, loaded when the
first duel is sampled, may use the resolution without the two modules reaching each other.
"""

from __future__ import annotations

from simlab.systems.base import Deferred, duel_resolver
from simlab.systems.duels import DuelEngine
from simlab.systems.space_v4.duel import resolve_duel, side_json
from simlab.systems.space_v4.rules import Rules

__all__ = ["check_duel", "duel"]

#: Validates a duel request into the resolved duel.
check_duel = duel_resolver(Rules, resolve_duel)
#: Answers a duel of two ships (SPC-7).
duel = DuelEngine(
    system="space_v4",
    resolve=check_duel,
    sample=Deferred("simlab.systems.space_v4.sample:sample_duel"),
    sides=lambda d: (side_json(d.a, d.ships[0], d.start_band), side_json(d.b, d.ships[1], d.start_band)),
    names=lambda d: d.names,
)
