"""The Battle view of ``simlab serve``: a shipped battle's sides as editable groups (ENG-1 to ENG-5).

The page starts from a battle file of ``experiments/battles/`` and shows every value of it as
a field named by its dotted path (``a.groups.0.weapon``, ``b.doctrine.targets``): the very
keys of ``simlab battle --set`` and of an experiment's grid, so the URL holds the whole battle
and the page's command line repeats it. A group can be added to either side.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from simlab.asking.requests import Request
from simlab.inputs.battles import Battle, Doctrine, Formation, load_battle, override
from simlab.inputs.errors import SimlabError, UnknownNameError
from simlab.inputs.params import describe
from simlab.systems import Question, System
from simlab.systems.battle_keys import reads_key
from simlab.systems.battles import SAME_SECOND
from simlab.web.config import Site
from simlab.web.query import _quoted, web_request, whole_number

__all__ = ["BattleQuery", "battle_files", "shipped_battles", "parse_battle", "battle_items", "battle_form"]

Field = Callable[[dict[str, Any], str, str | None, list[str] | None], dict[str, Any]]


def battle_files(directory: Path) -> dict[str, tuple[str, Path]]:
    """The battle files of a directory by name (``experiments/battles/*.toml``), with their systems.

    A file that cannot be read is left out: the command line names its mistake.
    """
    found: dict[str, tuple[str, Path]] = {}
    for path in sorted(directory.glob("*.toml")) if directory.is_dir() else []:
        try:
            found[path.stem] = (load_battle(path).system, path)
        except SimlabError:
            continue
    return found


def shipped_battles(files: Mapping[str, tuple[str, Path]], system: str) -> list[str]:
    """The names of the battle files of ``system`` among ``files`` (:func:`battle_files`), sorted."""
    return sorted(name for name, (owner, _) in files.items() if owner == system)


@dataclass(frozen=True)
class BattleQuery:
    """One battle as a URL holds it: a shipped battle file and the values changed in it."""

    system: str
    battle: str = ""
    changes: Mapping[str, str] = field(default_factory=dict)
    rules: Mapping[str, str] = field(default_factory=dict)
    trials: int | None = None
    seed: int = 0

    def load(self, files: Mapping[str, tuple[str, Path]]) -> Battle:
        """The battle file, with the query's changes.

        Raises:
            SimlabError: For a battle that is not one of the shipped ones, or a change that does not fit.
        """
        mine = {name: path for name, (system, path) in files.items() if system == self.system}
        if self.battle not in mine:
            raise UnknownNameError(f"{self.system} battle", self.battle, mine)
        return override(load_battle(mine[self.battle]), self.changes)

    kind: str = "battle"
    sampled = True
    #: Battles are sampled, under the base rules and ``rule.NAME`` (no variant on the page).
    method: ClassVar[str] = "monte_carlo"
    variant: ClassVar[str | None] = None

    @property
    def inputs(self) -> Mapping[str, str]:
        """The values changed in the battle file, by dotted path (``a.count``): an experiment's keys."""
        return self.changes

    def request(self, site: Site, progress: Callable[[int], None] | None = None) -> tuple[Question, Request]:
        """The question and request, checked as the command line checks them."""
        return web_request(self, site, progress, inputs={}, battle=self.load(site.battles))

    def items(self) -> list[tuple[str, Any]]:
        """Its query string, as pairs (the inverse of :func:`parse_battle`)."""
        return battle_items(self)

    def command(self, site: Site | None = None) -> str:
        """The ``simlab battle`` command that asks the same question."""
        files = site.battles if site is not None else {}
        path = files[self.battle][1] if self.battle in files else Path(f"{self.battle}.toml")
        parts = ["simlab", "battle", self.system, _quoted(str(path))]
        parts += [f"--set {_quoted(f'{k}={v}')}" for k, v in self.changes.items()]
        parts += [f"--rule {_quoted(f'{k}={v}')}" for k, v in self.rules.items()]
        if self.trials is not None:
            parts.append(f"--trials {self.trials}")
        return " ".join([*parts, f"--seed {self.seed}"])


def parse_battle(
    system: str, items: Iterable[tuple[str, str]], sampled_only: bool = True, kind: str | None = None
) -> BattleQuery:
    """The battle of a query string: ``battle``, dotted paths (``a.count``), ``rule.NAME``, ``trials``, ``seed``.

    Blank values leave the file's own value (a cleared field).

    Raises:
        SimlabError: For a key that is none of those, or a number that is not one.
    """
    battle = ""
    changes: dict[str, str] = {}
    rules: dict[str, str] = {}
    trials: int | None = None
    seed = 0
    for key, value in items:
        if value == "" or key == "kind":
            continue
        if key == "battle":
            battle = value
        elif key == "trials":
            trials = whole_number(value, key)
        elif key == "seed":
            seed = whole_number(value, key)
        elif key.startswith("rule."):
            rules[key.removeprefix("rule.")] = value
        elif key.split(".")[0] in ("a", "b", "range_band", "range_m", "max_turns", "same_second"):
            changes[key] = value
        else:
            raise SimlabError(
                f"unknown key {key!r}: a battle takes battle, a.PATH, b.PATH, range_band, max_turns, "
                "rule.NAME, trials and seed"
            )
    return BattleQuery(system, battle, changes, rules, trials, seed, kind or "battle")


def battle_items(query: BattleQuery) -> list[tuple[str, Any]]:
    """The query string of a battle (the inverse of :func:`parse_battle`)."""
    items: list[tuple[str, Any]] = [("battle", query.battle), *query.changes.items()]
    items += [(f"rule.{k}", v) for k, v in query.rules.items()]
    if query.trials is not None:
        items.append(("trials", query.trials))
    return [*items, ("seed", query.seed)]


def battle_form(
    base: System, battle: Battle, query: BattleQuery, make_field: Field, tables: Mapping[str, Any] | None = None
) -> list[tuple[str, list[dict[str, Any]]]]:
    """The form's groups: the battle's range, each side (doctrine, formation), each group of figures, rules.

    Every field is named by its dotted path and shows the battle's value; ``tables`` are those whose
    rows the lists offer (the shipped ones with one's own; None: the shipped ones).
    """
    asked = base.questions[query.kind]
    tables = tables or base.tables()

    def given(value: Any) -> str | None:
        return None if value is None else str(value).lower() if isinstance(value, bool) else str(value)

    def plain(key: str, value: str | None, doc: str, kind: str = "str", **bounds: Any) -> dict[str, Any]:
        spec = {"name": key.rpartition(".")[2], "type": kind, "default": None, "doc": doc, **bounds}
        return make_field(spec, key, value, None)

    groups = [
        (
            "battle",
            [
                plain("range_band", given(battle.range_band), "one range between the sides (ENG-3)"),
                plain("max_turns", given(battle.max_turns), "a draw after this many turns (ENG-2)", "int", minimum=1),
            ],
        )
    ]
    if reads_key(base.name, "same_second"):
        reading: dict[str, Any] = {
            "name": "same_second", "default": "initiative", "choices": list(SAME_SECOND),
            "doc": "shots of one second in order of d20 + DEX (ties rolled off again, or by place in line), "
            "or together as in the duel (ENG-4.2)",
        }  # fmt: skip
        groups[0][1].append(make_field(reading, "same_second", given(battle.data.get("same_second")), None))
    # Range and cover belong to the battle and the side (ENG-3): not a group's field here.
    shared = ("range_band", "range_m", "cover", "start_band", "range_policy")
    figure_specs = [spec for spec in describe(asked.inputs_type) if spec["name"] not in shared]
    for s, side in enumerate(battle.sides):
        label = "ab"[s]
        fields = [plain(f"{label}.name", side.name, "the side's name")]
        if reads_key(base.name, "tactics"):
            fields.append(plain(f"{label}.tactics", str(side.tactics), "the leader's tactics (ENG-4.1)", "int"))
        if reads_key(base.name, "cover"):
            fields.append(plain(f"{label}.cover", given(side.cover), "the side's cover (ENG-3)"))
        for cls, part, values in ((Doctrine, "doctrine", side.doctrine), (Formation, "formation", side.formation)):
            for spec in describe(cls):
                if not reads_key(base.name, spec["name"]):
                    continue  # another system's doctrine or formation
                key = f"{label}.{part}.{spec['name']}"
                fields.append(make_field(spec, key, given(getattr(values, spec["name"])), None))
        groups.append((f"side {label.upper()}: {side.name}", fields))
        for g, group in enumerate(side.groups):
            prefix = f"{label}.groups.{g}"
            members = [
                plain(f"{prefix}.count", str(group.count), "figures of this template", "int", minimum=1, maximum=64),
                plain(f"{prefix}.name", group.name, "the group's name"),
            ]
            for spec in figure_specs:
                rows = asked.row_inputs.get(spec["name"])
                choices = [str(r["name"]) for r in tables[rows].as_records()] if rows else None
                value = group.inputs.get(spec["name"])
                members.append(make_field(spec, f"{prefix}.{spec['name']}", given(value), choices))
            groups.append((f"side {label.upper()}, group {g}: {group.count} × {group.name}", members))
    return groups
