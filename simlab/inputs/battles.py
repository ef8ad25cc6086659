"""Battle files: two sides of groups of figures, their doctrine and formation (ENG-1 to ENG-3).

A battle file names its system and, per side, the leader's tactics, the doctrine, the
formation and the groups of figures (``count`` × a template with the inputs of one side of
that system's duel)::

    system = "striker"
    name = "striker_fireteam"
    description = "Four riflemen against two machinegunners"
    range_band = "medium"      # one range for every pair (ENG-3); Space: range_band too
    max_turns = 20             # ENG-2 (Tyconian: seconds)

    [a]
    name = "fireteam"
    tactics = 1                # the leader's tactics skill (ENG-1)
    cover = "partial"          # the side's cover (ENG-3), unless a group gives its own
    [a.doctrine]               # ENG-2 and ENG-4: targets, break_at, extra_hits, suppressors, go_prone
    targets = "spread"
    [[a.groups]]
    count = 4
    name = "rifleman"
    weapon = "rifle"
    armor = "cloth"

Every mistake is one line ``FILE:LINE: KEY: what is wrong (what is valid)``. An experiment's
grid varies a battle by dotted paths (:func:`override`): ``a.count`` (the count of a side
of one group), ``b.doctrine.targets``, ``a.groups.0.weapon``, ``range_band``.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simlab.inputs.errors import SimlabError, UnknownNameError, about_armour, shown_path
from simlab.inputs.files import FileError, described, read_toml
from simlab.inputs.params import NAME_RULE, build, is_digits, spec_field, valid_name

__all__ = [
    "Doctrine",
    "Formation",
    "Group",
    "Side",
    "Battle",
    "BattleError",
    "TARGETS",
    "MAX_FIGURES",
    "SIDE_DEFAULTS",
    "load_battle",
    "battle_from_data",
    "override",
    "blame",
]

#: How figures pick their targets (ENG-2).
TARGETS = ("focus", "spread", "random", "weakest")
#: Where extra hits go (STR-3.2, ENG-4.1).
EXTRA_HITS = ("target", "adjacent")
#: When figures go prone (ENG-4.1).
GO_PRONE = ("never", "when_suppressed")
#: Range policies (ENG-3).
RANGE_POLICIES = ("hold", "close", "open")
#: Most figures a side may field.
MAX_FIGURES = 64
#: Most groups a side may have.
MAX_GROUPS = 16
_TOP_KEYS = ("system", "name", "description", "range_band", "range_m", "max_turns", "same_second", "rules", "a", "b")
_SIDE_KEYS = ("name", "tactics", "cover", "doctrine", "formation", "groups")
#: A side's own values when its table leaves them out.
SIDE_DEFAULTS: dict[str, Any] = {"tactics": 0, "cover": None}


@dataclass(frozen=True)
class Doctrine:
    """How a side fights (ENG-2, ENG-4)."""

    targets: str = spec_field("spread", doc="how each figure picks its target every turn (ENG-2)", choices=TARGETS)
    break_at: float = spec_field(
        0.0, doc="the side withdraws when the share of its figures standing falls to or below this (ENG-2)",
        minimum=0.0, maximum=1.0,
    )  # fmt: skip
    extra_hits: str = spec_field("target", doc="where extra hits go: the target, or the adjacent enemies (ENG-4.1)",
                                 choices=EXTRA_HITS)  # fmt: skip
    suppressors: int = spec_field(0, doc="figures that fire suppressively each turn besides those whose template "
                                  "says so (ENG-4.1)", minimum=0, maximum=MAX_FIGURES)  # fmt: skip
    go_prone: str = spec_field("never", doc="whether suppressed figures go prone (green ones always do; ENG-4.1)",
                               choices=GO_PRONE)  # fmt: skip


@dataclass(frozen=True)
class Formation:
    """Where a side stands (ENG-3)."""

    spacing_m: float = spec_field(2.0, doc="metres between neighbours in the side's line", minimum=0.1, maximum=1000.0)
    range_policy: str = spec_field("hold", doc="how the side moves the range (ENG-3)", choices=RANGE_POLICIES)


@dataclass(frozen=True)
class Group:
    """``count`` figures of one template: the inputs of one side of the system's duel (ENG-1)."""

    count: int
    name: str
    inputs: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Side:
    """One side of a battle (ENG-1)."""

    name: str
    tactics: int
    cover: str | None
    doctrine: Doctrine
    formation: Formation
    groups: tuple[Group, ...]

    @property
    def count(self) -> int:
        """Figures on the side."""
        return sum(group.count for group in self.groups)


@dataclass(frozen=True)
class Battle:
    """A validated battle file (its sides' templates are checked by the system).

    Attributes:
        path: The file (or a label for a battle built in Python).
        name: The battle's name.
        system: System id.
        description: One paragraph for reports.
        sides: Sides a and b.
        range_band: The range band between the sides, if given.
        range_m: The range in metres, if given.
        max_turns: Turns (Tyconian: seconds) after which the battle is a draw, if given.
        rules: Rule parameter → value.
        data: The file's values, for overrides (:func:`override`).
        lines: Line of each dotted key in the file, to locate errors.
    """

    path: Path
    name: str
    system: str
    description: str
    sides: tuple[Side, Side]
    range_band: str | None
    range_m: float | None
    max_turns: int | None
    rules: Mapping[str, Any]
    data: Mapping[str, Any]
    lines: Mapping[str, int] = field(default_factory=dict)

    def error(self, key: str, message: str) -> BattleError:
        """A mistake at ``key`` (``a.groups.0.weapon``), located at its line (or its table's).

        A message that already starts with the key (a table's own error) says it once.
        """
        message = message.removeprefix(f"{key}: ")
        probe = key
        while probe and probe not in self.lines:
            probe = probe.rpartition(".")[0]
        return BattleError(self.path, self.lines.get(probe), key, message)


class BattleError(SimlabError):
    """A mistake in a battle file, located by file, line and key."""

    def __init__(self, path: Path | str, line: int | None, key: str, message: str) -> None:
        where = f"{shown_path(path)}:{line}" if line else shown_path(path)
        super().__init__(f"{where}: {key}: {message}" if key else f"{where}: {message}")
        self.path, self.line, self.key = Path(path), line, key


def _key_lines(text: str) -> dict[str, int]:
    """Line of each dotted key (``a.doctrine.targets``, ``a.groups.0.weapon``) in a TOML text."""
    lines: dict[str, int] = {}
    table = ""
    arrays: dict[str, int] = {}
    header = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
    key = re.compile(r"""^\s*("([^"]*)"|'([^']*)'|[A-Za-z0-9_.\-]+)\s*=""")
    for number, line in enumerate(text.splitlines(), start=1):
        if match := header.match(line):
            name = match.group(2).strip().strip("\"'")
            if match.group(1) == "[[":
                arrays[name] = arrays.get(name, -1) + 1
                name = f"{name}.{arrays[name]}"
            table = name
            lines.setdefault(table, number)
        elif match := key.match(line):
            name = match.group(2) or match.group(3) or match.group(1)
            lines.setdefault(f"{table}.{name}" if table else name, number)
    return lines


class _Checker:
    def __init__(self, path: Path | str, lines: Mapping[str, int]) -> None:
        self.path = path
        self.lines = lines

    def fail(self, key: str, message: str) -> BattleError:
        probe = key
        while probe and probe not in self.lines:
            probe = probe.rpartition(".")[0]
        return BattleError(self.path, self.lines.get(probe), key, message)


def load_battle(path: Path | str) -> Battle:
    """Read and check a battle file (its structure; the system checks the templates).

    Raises:
        BattleError: For a malformed file, naming the file, line and key.
    """
    path = Path(path)
    try:
        data, text = read_toml(path, "battle file")
    except FileError as exc:
        raise BattleError(path, exc.line, "", exc.reason) from None
    return battle_from_data(data, path, text)


def battle_from_data(data: Mapping[str, Any], path: Path | str = "<battle>", text: str = "") -> Battle:
    """Check a battle given as nested values (a file's, or a Python dict).

    Args:
        data: The battle's values.
        path: How the battle is named in errors.
        text: The file's text, to locate errors by line.

    Raises:
        BattleError: For any mistake, naming the key.
    """
    lines = _key_lines(text) if text else {}
    check = _Checker(path, lines)
    for key in data:
        if key not in _TOP_KEYS:
            raise check.fail(key, str(UnknownNameError("battle key", key, _TOP_KEYS)))
    for key in ("system", "a", "b"):
        if key not in data:
            raise check.fail(key, "missing (a battle names its system and sides a and b)")
    system = data["system"]
    if not isinstance(system, str):
        raise check.fail("system", f"expected a system id, got {described(system)}")
    stem = Path(str(path)).stem
    name = data.get("name", stem if valid_name(stem) else "battle")
    if not isinstance(name, str) or not valid_name(name):
        raise check.fail("name", f"{name!r} is not a valid name ({NAME_RULE})")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise check.fail("description", f"expected text, got {described(description)}")
    range_band = data.get("range_band")
    if range_band is not None and not isinstance(range_band, str):
        raise check.fail("range_band", f"expected a range band, got {described(range_band)}")
    range_m = data.get("range_m")
    if range_m is not None:
        if isinstance(range_m, bool) or not isinstance(range_m, (int, float)) or not 0 <= range_m <= 1e6:
            raise check.fail("range_m", f"expected metres from 0 to 1000000, got {described(range_m)}")
        range_m = float(range_m)
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        raise check.fail("rules", f"expected a table [rules], got {described(rules)}")
    rules = dict(rules)
    turns_key = "max_turns"
    if "max_turns" in rules:  # the same number as the top's max_turns: one value, read once (ENG-2)
        if "max_turns" in data:
            raise check.fail("rules.max_turns", "given twice: max_turns is at the top of the battle too; give it once")
        turns_key = "rules.max_turns"
    max_turns = rules.pop("max_turns", data.get("max_turns"))
    if max_turns is not None and (
        isinstance(max_turns, bool) or not isinstance(max_turns, int) or not 1 <= max_turns <= 1000
    ):
        raise check.fail(turns_key, f"expected an integer from 1 to 1000, got {described(max_turns)}")
    sides = (_side(check, data["a"], "a"), _side(check, data["b"], "b"))
    return Battle(
        path=Path(str(path)),
        name=name,
        system=system,
        description=description,
        sides=sides,
        range_band=range_band,
        range_m=range_m,
        max_turns=max_turns,
        rules=rules,
        data=copy.deepcopy(dict(data)),
        lines=lines,
    )


def _side(check: _Checker, data: Any, label: str) -> Side:
    if not isinstance(data, dict):
        raise check.fail(label, f"expected a table [{label}], got {described(data)}")
    for key in data:
        if key not in _SIDE_KEYS:
            raise check.fail(f"{label}.{key}", str(UnknownNameError("side key", key, _SIDE_KEYS)))
    name = data.get("name", label)
    if not isinstance(name, str) or not name.strip() or len(name) > 100:
        raise check.fail(f"{label}.name", f"expected a name of 1 to 100 characters, got {described(name)}")
    tactics = data.get("tactics", SIDE_DEFAULTS["tactics"])
    if isinstance(tactics, bool) or not isinstance(tactics, int) or not -10 <= tactics <= 99:
        raise check.fail(f"{label}.tactics", f"expected an integer from -10 to 99, got {described(tactics)}")
    cover = data.get("cover", SIDE_DEFAULTS["cover"])
    if cover is not None and not isinstance(cover, str):
        raise check.fail(f"{label}.cover", f"expected a cover name, got {described(cover)}")
    doctrine = _params(check, Doctrine, data.get("doctrine", {}), f"{label}.doctrine")
    formation = _params(check, Formation, data.get("formation", {}), f"{label}.formation")
    groups = data.get("groups")
    if not isinstance(groups, list) or not groups or not all(isinstance(g, dict) for g in groups):
        raise check.fail(f"{label}.groups", "expected one or more [[" + label + ".groups]] tables")
    if len(groups) > MAX_GROUPS:
        raise check.fail(f"{label}.groups", f"{len(groups)} groups on one side; simlab takes at most {MAX_GROUPS}")
    built = tuple(_group(check, g, f"{label}.groups.{i}") for i, g in enumerate(groups))
    count = sum(g.count for g in built)
    if count > MAX_FIGURES:
        raise check.fail(f"{label}.groups", f"{count} figures on one side; simlab takes at most {MAX_FIGURES}")
    return Side(name, tactics, cover, doctrine, formation, built)


def _params(check: _Checker, cls: type, values: Any, key: str) -> Any:
    if not isinstance(values, dict):
        raise check.fail(key, f"expected a table [{key}], got {described(values)}")
    what = f"{key.rpartition('.')[2]} key"
    for name in values:
        try:
            build(cls, {name: values[name]}, what=what)
        except SimlabError as exc:
            raise check.fail(f"{key}.{name}", str(exc)) from None
    try:
        return build(cls, values, what=what)
    except SimlabError as exc:  # values that fit alone but not together
        raise check.fail(key, str(exc)) from None


def _group(check: _Checker, data: dict[str, Any], key: str) -> Group:
    count = data.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_FIGURES:
        raise check.fail(f"{key}.count", f"expected an integer from 1 to {MAX_FIGURES}, got {described(count)}")
    name = data.get("name", f"group {key.rpartition('.')[2]}")
    if not isinstance(name, str) or not name.strip() or len(name) > 100:
        raise check.fail(f"{key}.name", f"expected a name of 1 to 100 characters, got {described(name)}")
    inputs = {k: v for k, v in data.items() if k not in ("count", "name")}
    for k, v in inputs.items():
        if not isinstance(v, (str, int, float, bool)) or (isinstance(v, float) and not math.isfinite(v)):
            raise check.fail(f"{key}.{k}", f"expected a single value, got {described(v)}")
    return Group(count, name, inputs)


def blame(battle: Battle, group_key: str, message: str) -> str:
    """The key of a group's input that ``message`` is about (``a.groups.0.weapon``), else the group's key.

    The input is the one whose name or value the message quotes (``unknown weapon 'gaus'``).
    """
    side, _, rest = group_key.partition(".groups.")
    group = battle.sides["ab".index(side)].groups[int(rest)]
    for name, value in group.inputs.items():
        if f"{name}" in message.split(":")[0] or repr(str(value)) in message or f"{group_key}.{name}" in message:
            return f"{group_key}.{name}"
    return group_key


def blame_pair(battle: Battle, shooter_key: str, target_key: str, message: str) -> str:
    """The input of one group's attack on another that ``message`` is about: the target's armour, or the shooter's."""
    return blame(battle, target_key if about_armour(message) else shooter_key, message)


#: Keys of the battle's own structure whose values are numbers (text from a command line is read as one).
_NUMBERS = {"count": int, "tactics": int, "max_turns": int, "range_m": float}


def _typed(key: str, value: Any) -> Any:
    """``value`` as the battle file would hold it: ``"6"`` for a count is 6 (template inputs stay as given)."""
    kind = _NUMBERS.get(key)
    if kind is None or not isinstance(value, str):
        return value
    try:
        return kind(value.strip())
    except ValueError:
        return value  # the check names it


def override(battle: Battle, changes: Mapping[str, Any]) -> Battle:
    """The battle with some values changed by dotted path (an experiment's cell).

    ``a.count`` is the count of side a's only group; ``a.groups.N.KEY`` a group's input;
    ``b.doctrine.targets``, ``a.tactics``, ``range_band``, ``rules.KEY`` the others. A side's
    doctrine or formation key may leave out its table: ``a.range_policy`` is
    ``a.formation.range_policy``, ``b.targets`` is ``b.doctrine.targets``.

    Raises:
        BattleError: For a path the battle does not have, or a value that does not fit.
    """
    if not changes:
        return battle
    data = copy.deepcopy(dict(battle.data))
    check = _Checker(battle.path, battle.lines)
    for path, value in changes.items():
        if path == "system":
            raise check.fail(path, "the system is the battle file's: a path cannot change it; "
                             "give a battle file of the other system")  # fmt: skip
        if path == "rules.max_turns":  # ENG-2: the battle's max_turns, wherever it is written
            if isinstance(data.get("rules"), dict):
                data["rules"].pop("max_turns", None)
            path = "max_turns"
        parts = path.split(".")
        if len(parts) == 2 and parts[0] in ("a", "b") and parts[1] == "count":
            groups = data[parts[0]]["groups"]
            if len(groups) != 1:
                raise check.fail(path, f"side {parts[0]} has {len(groups)} groups: give {parts[0]}.groups.N.count")
            parts = [parts[0], "groups", "0", "count"]
        elif len(parts) == 2 and parts[0] in ("a", "b") and parts[1] not in _SIDE_KEYS:
            for table, cls in (("doctrine", Doctrine), ("formation", Formation)):  # a.range_policy: the formation's
                if parts[1] in {f.name for f in dataclasses.fields(cls)}:
                    parts = [parts[0], table, parts[1]]
                    path = ".".join(parts)
        node: Any = data
        for depth, part in enumerate(parts[:-1]):
            if isinstance(node, list):
                if is_digits(part) and int(part) == len(node) and len(node) < MAX_GROUPS:
                    node.append({**node[-1], "count": 1} if node else {"count": 1})  # like the side's last one
                if not is_digits(part) or int(part) >= len(node):
                    raise check.fail(path, f"no group {part} (the side has groups 0 to {len(node) - 1}; "
                                     f"{len(node)} adds one)")  # fmt: skip
                node = node[int(part)]
            else:
                if part not in node:
                    if depth == 0 and part not in ("a", "b", "rules"):
                        raise check.fail(path, str(UnknownNameError("battle key", part, ("a", "b", "rules"))))
                    node[part] = {}
                node = node[part]
            if not isinstance(node, (dict, list)):
                raise check.fail(path, f"{'.'.join(parts[: depth + 1])} is a value, not a table")
        if isinstance(node, list):
            raise check.fail(path, "give a group's key: SIDE.groups.N.KEY")
        node[parts[-1]] = _typed(parts[-1], value)
    try:
        changed = battle_from_data(data, battle.path)
    except BattleError as exc:
        raise check.fail(exc.key, str(exc).split(": ", 2)[-1]) from None
    return dataclasses.replace(changed, lines=battle.lines)
