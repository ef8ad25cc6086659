"""A matchup: attacks scored against a list of defenders (weapons against armours).

The matrix of a metric the attacker wants high and the defender low, the attacks another does
better than against every defender, and both sides' equilibrium mixes of that zero-sum game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simlab.balance.games import RESAMPLES, Z95, GameMix, game_mix, game_mixes
from simlab.balance.options import dominated_json
from simlab.balance.setup import Setup
from simlab.inputs.errors import SimlabError, shortened
from simlab.inputs.limits import Limits

__all__ = [
    "MATCHUP_TRIALS",
    "check_matchup",
    "Matchup",
    "matchup",
    "matchup_games",
    "matchup_mixes",
    "matchup_stability",
    "dominated_rows",
]


MATCHUP_TRIALS = 100_000


def check_matchup(
    setup: Setup, attackers: Sequence[Mapping[str, Any]], defenders: Sequence[Mapping[str, Any]],
    attacker_names: Sequence[str], defender_names: Sequence[str],
) -> None:  # fmt: skip
    """Check every attack and every defender as the cells ask them, and that no defender sets what an attack sets.

    Each attack is checked alone (or, where it cannot stand alone, with the first defender), then
    each defender with the first attack.
    A cell asks the attack's inputs and the defender's together; a defender that set an input an
    attack sets (``weapon``) would replace the attack's own, so it is refused.

    Raises:
        SimlabError: One line naming the attack or defender and the input at fault.
    """
    def fault(inputs: Mapping[str, Any]) -> SimlabError | None:
        try:
            setup.question.check(setup.request(inputs))
        except SimlabError as exc:
            return exc
        return None

    for attack, name in zip(attackers, attacker_names, strict=True):
        # alone (an attack stands on its own), else with the first defender: a fault in both is the attack's
        found = fault(attack) and fault({**defenders[0], **attack})
        if found is not None:
            raise SimlabError(f"attack {shortened(name)!r}: {found}")
    for defender, name in zip(defenders, defender_names, strict=True):  # each with the first attack, known good
        found = fault({**attackers[0], **defender})
        if found is not None:
            raise SimlabError(f"defender {shortened(name)!r}: {found}")
    for defender, defender_name in zip(defenders, defender_names, strict=True):
        for attack, attack_name in zip(attackers, attacker_names, strict=True):
            both = [key for key in defender if key in attack]
            if both:
                raise SimlabError(
                    f"defender {defender_name!r} sets {', '.join(both)}, which attack {attack_name!r} sets too: "
                    "a defender gives the target's inputs (armor, cover), never an attack's"
                )


@dataclass(frozen=True)
class Matchup:
    """Attacks scored against a list of defenders: the attacker's options by rows, the defender's by columns.

    Attributes:
        attackers: The attacking options' names.
        defenders: The defending options' names.
        metric: The metric the attacker wants high (``p_incapacitated``).
        value: ``value[i, j]``: the metric of attacker i against defender j.
        half_width: Its 95 % half-width (0 when exact).
        method: ``exact`` or ``monte_carlo``.
        trials: Trials of each cell when sampled.
        seed: The root seed (every cell on the same streams).
    """

    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    metric: str
    value: np.ndarray
    half_width: np.ndarray
    method: str = "exact"
    trials: int | None = None
    seed: int = 0
    _cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        """The matrix, the dominated attacks, both sides' equilibrium mixes and their stability as JSON."""
        attack, defence, worth_of_game = matchup_mixes(self)
        attack_share, defence_share = matchup_stability(self)
        return {
            "attackers": list(self.attackers),
            "defenders": list(self.defenders),
            "metric": self.metric,
            "method": self.method,
            "trials": self.trials,
            "seed": self.seed,
            "value": self.value.round(12).tolist(),
            "half_width_95": self.half_width.round(12).tolist(),
            "dominated": dominated_json(self.attackers, dominated_rows(self)),
            "attacker_mix": dict(zip(self.attackers, (float(x) for x in attack), strict=True)),
            "defender_mix": dict(zip(self.defenders, (float(x) for x in defence), strict=True)),
            "attacker_mix_unique": matchup_games(self)[0].unique,
            "defender_mix_unique": matchup_games(self)[1].unique,
            "value_of_the_game": worth_of_game,
            "attacker_share_of_resamples": dict(zip(self.attackers, (float(x) for x in attack_share), strict=True)),
            "defender_share_of_resamples": dict(zip(self.defenders, (float(x) for x in defence_share), strict=True)),
        }


def matchup(
    setup: Setup, attackers: Sequence[Mapping[str, Any]], defenders: Sequence[Mapping[str, Any]], metric: str,
    attacker_names: Sequence[str], defender_names: Sequence[str], *, limits: Limits | None = None,
    progress: Callable[[int], None] | None = None,
) -> Matchup:  # fmt: skip
    """Every attack against every defender, as one question of ``setup`` each (exact, or on the same streams).

    Args:
        setup: The question each cell asks (an attack, or any question with ``metric``).
        attackers: Each attack's inputs (``{"weapon": "gauss rifle"}``), two or more.
        defenders: Each defender's inputs (``{"armor": "nylon"}``), one or more.
        metric: What the attacker wants high and the defender low.
        attacker_names: The attacks' names.
        defender_names: The defenders' names.
        limits: The job's caps, checked before the first cell.
        progress: Called with 1 after each cell.

    Raises:
        SimlabError: For a metric the question does not report, fewer than two attacks or no
            defender, two alike, or a job over the caps.
    """
    setup.check_metric(metric, [{**attack, **defenders[0]} for attack in attackers] if defenders else ({},))
    if len(attackers) < 2 or len(defenders) < 1:
        raise SimlabError("a matchup needs two attacks or more and one defender or more")
    if len(set(attacker_names)) != len(attacker_names) or len(set(defender_names)) != len(defender_names):
        raise SimlabError("two attacks or two defenders of the matchup are the same")
    cells = len(attackers) * len(defenders)
    check_matchup(setup, attackers, defenders, attacker_names, defender_names)
    if limits is not None:
        limits.check_work(cells, setup.trials_each, "cells", "the matchup", "give fewer options")
    value = np.zeros((len(attackers), len(defenders)))
    half = np.zeros_like(value)
    for i, attack in enumerate(attackers):
        for j, defence in enumerate(defenders):
            result = setup.answer({**attack, **defence})
            value[i, j] = setup.metric_of(result, metric)
            low, high = result.ci95.get(metric, (value[i, j], value[i, j]))
            half[i, j] = (high - low) / 2
            if progress is not None:
                progress(1)
    method = "exact" if setup.exact else "monte_carlo"
    trials = None if setup.exact else setup.trials_each
    return Matchup(tuple(attacker_names), tuple(defender_names), metric, value, half, method, trials, setup.seed)


def matchup_games(result: Matchup) -> tuple[GameMix, GameMix]:
    """The attacker's and the defender's equilibrium of the matchup (:func:`game_mix` each), worked out once."""
    if "games" not in result._cache:
        result._cache["games"] = (game_mix(result.value), game_mix(-result.value.T))
    found: tuple[GameMix, GameMix] = result._cache["games"]
    return found


def matchup_mixes(result: Matchup) -> tuple[np.ndarray, np.ndarray, float]:
    """Both sides' equilibrium mixes of the matchup and the game's value, worked out once."""
    attack, defence = matchup_games(result)
    return attack.mix, defence.mix, attack.value


def matchup_stability(result: Matchup, resamples: int = RESAMPLES) -> tuple[np.ndarray, np.ndarray]:
    """Each attack's and each defender's share of the resampled matrices' equilibrium mixes it enters.

    Each cell moves by a normal error of its 95 % half-width (from the matchup's seed); an exact
    matchup has no error, so its shares are 1 for whatever its one mix holds and 0 otherwise.
    """
    key = f"stability {resamples}"
    if key not in result._cache:
        rng = np.random.default_rng(np.random.SeedSequence([result.seed, 34]))
        attack_in, defence_in = np.zeros(len(result.attackers)), np.zeros(len(result.defenders))
        exact = not result.half_width.any()
        for _ in range(1 if exact else resamples):
            drawn = result.value + (0.0 if exact else rng.normal(0.0, result.half_width / Z95))
            attack, defence, _ = game_mixes(drawn, centre=False)
            attack_in += attack > 0
            defence_in += defence > 0
        runs = 1 if exact else resamples
        result._cache[key] = (attack_in / runs, defence_in / runs)
    found: tuple[np.ndarray, np.ndarray] = result._cache[key]
    return found


def dominated_rows(result: Matchup) -> list[tuple[int, int]]:
    """``(k, i)`` for every attack k and each attack i doing better than it against every defender, intervals apart."""
    value, half = result.value, result.half_width
    found = []
    for k in range(len(value)):
        for i in range(len(value)):
            if i != k and all(value[i, j] - half[i, j] > value[k, j] + half[k, j] for j in range(value.shape[1])):
                found.append((k, i))
    return found
