"""The designer's words for metrics, inputs and values: "chance to hit", "riflemen", "no armour".

One vocabulary (``simlab/data/words.toml`` and each system's ``simlab/data/SYSTEM/words.toml``,
the words only that system reports) names everything simlab reports: headlines, chart
axes and legends, the headers of report and web tables, and the generated docs. Raw names stay
in ``table.csv``, the JSON and the command line. A :class:`Vocabulary` adds two things to the
file: an experiment's own ``[labels]``, which come first, and a battle's sides and groups, so that
``p_a_wins`` reads "the fireteam's chance to win", ``a.count`` "riflemen" and
``b.doctrine.suppressors`` "suppressing machinegunners" (ENG-1, ENG-4.1).
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any

from simlab.systems import SYSTEM_NAMES

if TYPE_CHECKING:
    from simlab.inputs.battles import Battle, Group
    from simlab.records import Experiment

__all__ = [
    "Vocabulary",
    "vocabulary",
    "registry",
    "plural",
    "singular",
    "is_plural",
    "listed",
    "sentence_case",
    "the",
    "WORD_KINDS",
]

#: The kinds of name the vocabulary has words for, in the order a bare name is looked up.
WORD_KINDS = ("metrics", "inputs", "distributions")
_NUMBERED = re.compile(r"^(.*?)(\d+)$")
_SIDE_KEY = re.compile(r"^([ab])\.(.+)$")
_GROUP_KEY = re.compile(r"^groups\.(\d+)\.(.+)$")


@functools.cache
def registry() -> dict[str, Any]:
    """The words, as read: ``simlab/data/words.toml`` with each system's own words added to it.

    A system's words (``simlab/data/SYSTEM/words.toml``, for each system of the registry) have the
    sections of the shared file; their tables join its tables and their lists its lists.
    """
    words = _read_words("simlab.data")
    for system in SYSTEM_NAMES:
        _add_words(words, _read_words(f"simlab.data.{system}"))
    return words


def _read_words(package: str) -> dict[str, Any]:
    """A package's ``words.toml`` (nothing where it has none)."""
    found = resources.files(package).joinpath("words.toml")
    return tomllib.loads(found.read_text(encoding="utf-8")) if found.is_file() else {}


def _add_words(words: dict[str, Any], more: Mapping[str, Any]) -> None:
    """Add ``more`` to ``words``: tables join tables, lists join lists, a word is added where there was none."""
    for key, value in more.items():
        if isinstance(value, Mapping):
            _add_words(words.setdefault(key, {}), value)
        elif isinstance(value, list):
            words.setdefault(key, []).extend(value)
        else:
            words.setdefault(key, value)


def plural(noun: str) -> str:
    """A figure's name for several of them: rifleman → riflemen, scout → scouts, battery → batteries."""
    if noun.endswith("man"):
        return noun[:-3] + "men"
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in tuple("aeiou"):
        return noun[:-1] + "ies"
    return noun + "s"


def is_plural(name: str) -> bool:
    """Whether a name counts as several for its verb: "the machineguns are", "the battle dress is"."""
    last = name.split(" ")[-1]
    return len(last) > 3 and last.endswith("s") and not last.endswith(("ss", "us", "is", "'s"))


def singular(words: str) -> str:
    """One of a counted noun phrase: riflemen → rifleman, suppressing gunners → suppressing gunner."""
    parts = words.split(" ")
    for i, part in enumerate(parts):
        if part.endswith("men"):
            parts[i] = part[:-3] + "man"
            break
        if part.endswith("ies"):
            parts[i] = part[:-3] + "y"
            break
        if part.endswith("s") and not part.endswith(("ss", "'s")) and len(part) > 3:
            parts[i] = part[:-1]
            break
    return " ".join(parts)


def _possessive(who: str) -> str:
    return who + ("'" if who.endswith("s") else "'s")


def _numbered(table: Mapping[str, str], name: str) -> str | None:
    """The words of a numbered name (``dice_at_2``) from a pattern (``dice_at_{k}``), with the number in."""
    found = _NUMBERED.match(name)
    if found and f"{found.group(1)}{{k}}" in table:
        return table[f"{found.group(1)}{{k}}"].replace("{k}", found.group(2))
    return None


def _plain(name: str) -> str:
    return name.replace("_", " ")


def _yes_no(value: Any) -> bool | None:
    """A yes-or-no value (a bool, or its text in a CSV), else None."""
    if isinstance(value, bool) or str(value) in ("True", "False"):
        return str(value) == "True"
    return None


def the(words: str) -> str:
    """Words with "the" before them, once: "the damage of one attack", "the fireteam's figures"."""
    if words.startswith("the ") or re.match(r"^[A-Z]'s ", words):  # "A's chance to win" has its own article
        return words
    return f"the {words}"


def listed(items: Sequence[str], last: str = "and") -> str:
    """Items in a sentence: "a", "a and b", "a, b and c"."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def sentence_case(text: str) -> str:
    """The text with its first letter a capital, the rest as it is ("DX" stays "DX")."""
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class Vocabulary:
    """How one experiment (or page) names things: its own labels, its battle's sides, then the registry.

    Attributes:
        own: The experiment's ``[labels]``: name → words.
        battle: The battle whose sides and groups name ``a.*``, ``b.*`` and the side metrics.
        sides: The sides' names where there is no battle file (an answer's JSON names them).
    """

    own: Mapping[str, str] = field(default_factory=dict)
    battle: Battle | None = None
    sides: Mapping[str, str] = field(default_factory=dict)

    # --- names -----------------------------------------------------------------------------------

    def name(self, name: str, kind: str | None = None) -> str:
        """The words for a metric, input or distribution (``kind`` one of :data:`WORD_KINDS` to say which)."""
        if name in self.own:
            return self.own[name]
        side = _SIDE_KEY.match(name)
        if side is not None:
            return self._side_input(side.group(1), side.group(2))
        words = registry()
        for looked in (kind,) if kind else WORD_KINDS:
            table = words[looked]
            found = table.get(name) or _numbered(table, name)
            if found:
                return self._sides(found)
        row, dot, column = name.partition(".")
        if dot and "." not in column and row in words["inputs"]:  # a column of a row: "the weapon's dice"
            return f"the {words['inputs'][row]}'s {_plain(column)}"
        return _plain(name)

    def axis(self, name: str, kind: str | None = None) -> str:
        """A chart's axis label: the words, with the unit ("range (m)", "expected damage (hit points)")."""
        unit = self.unit(name)
        words = self.name(name, kind)
        return f"{words} ({unit})" if unit and "(" not in words else words

    def unit(self, name: str) -> str:
        """The unit of a metric or input ("m", "hit points"), or ``""``."""
        units = registry()["units"]
        last = name.rsplit(".", 1)[-1]
        return str(units.get(name) or units.get(last) or _numbered(units, name) or "")

    def has_words(self, name: str) -> bool:
        """Whether anything but the raw name names it (the registry, a side, or the experiment)."""
        return self.name(name) != _plain(name) or name in self.own

    # --- values ----------------------------------------------------------------------------------

    def value(self, name: str, value: Any) -> str:
        """A value in words: yes and no, "full auto", "no armour", spaces for underscores."""
        yes = _yes_no(value)
        if yes is not None:
            return "yes" if yes else "no"
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        values = registry()["values"]
        last = name.rsplit(".", 1)[-1]
        for table in (values.get(last, {}), values.get("*", {})):
            if str(value) in table:
                return str(table[str(value)])
        return _plain(value) if isinstance(value, str) else str(value)

    def amount(self, name: str, value: Any) -> str:
        """A value with its unit ("1.5 m", "full auto")."""
        unit = self.unit(name)
        shown = self.value(name, value)
        return f"{shown} {unit}" if unit and "(" not in self.name(name, "inputs") else shown

    def counted(self, name: str) -> bool:
        """Whether a value of ``name`` counts something ("3 rounds", "4 riflemen")."""
        last = name.rsplit(".", 1)[-1]
        return last in registry()["counted"]["names"]

    def where(self, name: str, value: Any) -> str:
        """An input held at a value, as a phrase: "flak jacket", "3 rounds", "range 10 m", "fire mode full auto".

        Counts of none read "no suppressing gunners"; yes-or-no inputs say themselves ("beside the target").
        """
        last = name.rsplit(".", 1)[-1]
        words = registry()
        yes = _yes_no(value)
        said = words["booleans"].get(last) if yes is not None and name not in self.own else None
        if said:
            return str(said[0] if yes else said[1])
        if last in words["named_by_value"]["names"] and name not in self.own:
            return self.value(name, value)
        if self.counted(name):
            noun = self.name(name, "inputs")
            try:
                number: float | None = float(value)
            except (TypeError, ValueError):
                number = None
            if number == 0:
                return f"no {noun}"
            return f"{self.value(name, value)} {singular(noun) if number == 1 else noun}"
        return f"{self.name(name, 'inputs')} {self.amount(name, value)}"

    def held(self, inputs: Mapping[str, Any]) -> str:
        """Inputs held at values, as one phrase: "flak jacket, range 20 m"."""
        return ", ".join(self.where(name, value) for name, value in inputs.items())

    def lead(self, name: str, value: Any = None) -> str:
        """The word that introduces a value of ``name`` in a sentence: "against", "at", "with", or none.

        A yes-or-no input that says itself ("beside the target", "with antibiotics") has none.
        """
        last = name.rsplit(".", 1)[-1]
        if _yes_no(value) is not None and last in registry()["booleans"]:
            return ""
        if name.startswith("b."):
            return "against"
        return str(registry()["leads"].get(last, "with"))

    # --- battles and duels -----------------------------------------------------------------------

    def side(self, side: str) -> str:
        """A side by its battle name ("the fireteam"), else its letter ("A")."""
        named = self.battle.sides["ab".index(side)].name if self.battle is not None else self.sides.get(side)
        if named and named not in ("a", "b", "A", "B"):
            return f"the {named}"
        return side.upper()

    def _sides(self, words: str) -> str:
        if "{" not in words:
            return words
        return words.format(
            a=self.side("a"), b=self.side("b"), a_s=_possessive(self.side("a")), b_s=_possessive(self.side("b"))
        )

    def _groups(self, side: str) -> tuple[Group, ...]:
        return self.battle.sides["ab".index(side)].groups if self.battle is not None else ()

    def _side_input(self, side: str, key: str) -> str:
        """``a.count``, ``a.groups.0.weapon``, ``b.doctrine.suppressors``, ``a.weapon`` in words."""
        groups = self._groups(side)
        whose = _possessive(self.side(side))
        group = _GROUP_KEY.match(key)
        if group is not None:
            index, key = int(group.group(1)), group.group(2)
            named = groups[index].name if index < len(groups) else f"group {index + 1}"
            if key == "count":
                return plural(named)
            return f"{_possessive('the ' + plural(named))} {self.name(key, 'inputs')}"
        last = key.rsplit(".", 1)[-1]
        if last == "count":
            return plural(groups[0].name) if len(groups) == 1 else f"{whose} figures"
        if last == "suppressors" and len(groups) == 1:
            return f"suppressing {plural(groups[0].name)}"
        return f"{whose} {self.name(last, 'inputs')}"


def vocabulary(experiment: Experiment) -> Vocabulary:
    """The vocabulary of an experiment: its own ``[labels]`` and its battle's sides."""
    return Vocabulary(dict(experiment.labels), experiment.battle)
