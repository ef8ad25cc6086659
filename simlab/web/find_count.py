"""The Battle view's "find the count": the fewest figures of a group that reach a chance to win.

"How many riflemen does it take to beat two gunners 75 % of the time?" is ``simlab solve``'s
question with the group's count as the unknown (:mod:`simlab.balance.solve`): every count tried is
the same battle sampled on the same random streams (the query's seed: common random numbers), so
the chance to win is a deterministic function of the count, and the search finds the smallest
count whose estimate reaches the target. The answer gives the chances at that count and the one
below it, with their 95 % intervals.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from simlab.inputs.battles import Battle
from simlab.inputs.errors import SimlabError
from simlab.output.words import Vocabulary
from simlab.web.battle import BattleQuery
from simlab.web.config import Site
from simlab.web.forms import field
from simlab.web.query import whole_number

__all__ = ["FIND_KEYS", "FindCount", "parse_find", "find_count", "find_fields", "found_summary", "MOST_FIGURES"]

#: The keys of the search besides the battle's: the group's count path and the chance to reach.
FIND_KEYS = ("find", "target")
#: The most figures a group may have (as the form's count fields).
MOST_FIGURES = 64


@dataclasses.dataclass(frozen=True)
class FindCount:
    """A search for the smallest count: the path of a group's count and the chance its side must reach."""

    path: str
    target: float

    @property
    def metric(self) -> str:
        """The chance the search is about: the side's chance to win."""
        return f"p_{self.path[0]}_wins"


def parse_find(items: Sequence[tuple[str, str]]) -> tuple[FindCount | None, list[tuple[str, str]]]:
    """The search a query asks for (None without ``find``), and the battle's own pairs.

    Raises:
        SimlabError: For a path that is no group's count, or a target that is not a chance.
    """
    own = {k: v.strip() for k, v in items if k in FIND_KEYS and v.strip()}
    rest = [(k, v) for k, v in items if k not in FIND_KEYS]
    if "find" not in own:
        return None, rest
    path = own["find"]
    parts = path.split(".")
    if len(parts) != 4 or parts[0] not in ("a", "b") or parts[1] != "groups" or parts[3] != "count":
        raise SimlabError(f"find {path!r}: give a group's count, such as a.groups.0.count")
    whole_number(parts[2], "find")
    try:
        target = float(own.get("target", "0.75"))
    except ValueError:
        raise SimlabError(f"invalid value {own['target'][:40]!r} for target: expected a chance from 0 to 1") from None
    if not 0 < target < 1:
        raise SimlabError(f"invalid value {target:g} for target: expected a chance between 0 and 1")
    return FindCount(path, target), rest


def find_count(
    search: FindCount, query: BattleQuery, current: int, site: Site, progress: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """The smallest count of the group reaching the target, and the battle at that count: ``simlab solve``'s search.

    Args:
        search: What is searched.
        query: The battle (its other values, trials and seed).
        current: The group's count in the battle now (the search goes up to four times it, at most 64).
        site: The application.
        progress: Called with the trials done so far.

    Returns:
        ``found`` (the count, or None when even the most tried falls short), ``tried`` (count → the
        chance and its interval), ``query`` (the battle at the count found, or at the most tried).

    Raises:
        SimlabError: When the battle does not take the count (a group that is not there).
    """
    from simlab.balance.solve import Goal, NoCrossingError, solve
    from simlab.balance.unknowns import Unknown
    from simlab.web.balance import BalanceQuery

    most = min(MOST_FIGURES, max(8, 4 * current))
    setup = BalanceQuery(query, "solve").setup(site, progress)  # the Balance view's setup of the same battle
    unknown = Unknown(search.path, rule=False, whole=True, low=1, high=most)
    found: int | None
    solution = None
    try:
        solution = solve(setup, unknown, Goal(search.metric, search.target))
        rising = [c for c in solution.crossings if c.rises]
        points = solution.tried
        found = int(rising[0].value) if rising else None
    except NoCrossingError as none:  # reached from one figure on, or never
        points = none.tried
        found = 1 if points and points[0].gap >= 0 else None
    tried = {int(p.x): (p.value, p.interval or (p.value, p.value)) for p in points}

    def at(count: int) -> BattleQuery:
        return dataclasses.replace(query, changes={**query.changes, search.path: str(count)})

    return {
        "found": found,
        "most": most,
        "metric": search.metric,
        "target": search.target,
        "tried": dict(sorted(tried.items())),
        "query": at(found if found is not None else most),
        "solution": solution,
    }


def find_fields(battle: Battle, search: FindCount | None) -> list[dict[str, Any]]:
    """The form's fields of the search: which group's count, and the chance its side must reach."""
    paths = {
        f"{label}.groups.{g}.count": f"{side.name}: {group.name}"
        for label, side in zip("ab", battle.sides, strict=True)
        for g, group in enumerate(side.groups)
    }
    doc = "the group whose count is searched: the fewest figures that reach the chance below"
    which = field({"name": "find", "default": "", "doc": doc}, "find", search.path if search else None, ["", *paths])
    which["labels"] = {"": "(no search)", **paths}
    chance = {"name": "target", "type": "float", "default": 0.75, "minimum": 0.01, "maximum": 0.99,
              "doc": "the chance to win the side of that group must reach"}  # fmt: skip
    return [which, field(chance, "target", f"{search.target:g}" if search else None)]


def found_summary(searched: Mapping[str, Any], path: str, words: Vocabulary) -> dict[str, Any]:
    """What the page says of a search: its answer in ``simlab solve``'s words, and each count tried.

    Args:
        searched: What :func:`find_count` found.
        path: The group's count searched (``a.groups.0.count``).
        words: The battle's vocabulary (its sides' and groups' names).
    """
    from simlab.output.balance_sentences import crossing_sentence
    from simlab.output.words import sentence_case, the

    tried = searched["tried"]

    def said(count: int) -> str:
        value, (low, high) = tried[count]
        return f"{value:.3f} [{low:.3f}, {high:.3f}]"

    figures = words.name(path, "inputs")
    chance = the(words.name(searched["metric"], "metrics"))
    target = f"{searched['target']:g}"
    solution = searched.get("solution")
    rising = [c for c in solution.crossings if c.rises] if solution is not None else []
    if solution is not None and rising:
        sentence = sentence_case(crossing_sentence(solution, rising[0], words)) + "."
    elif searched["found"] is not None:  # reached by a single figure
        sentence = sentence_case(f"one of the {figures} is enough for {chance} to reach {target}: {said(1)}.")
    else:
        most = searched["most"]
        sentence = sentence_case(f"even {most} {figures} fall short of {target} for {chance}: {said(most)}.")
    rows = [{"count": count, "chance": said(count)} for count in tried]
    return {"sentence": sentence, "tried": rows, "metric": searched["metric"]}
