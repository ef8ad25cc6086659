"""The forms of the web page, generated from the registry: every field from a dataclass's ``spec_field``.

A field is named by the very key of the command line and of the URL (``weapon``, ``rule.NAME``,
``a.skill``, ``b.groups.0.count``), so a form, its address and its command ask the same question.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from simlab.inputs.errors import SimlabError, UnknownNameError
from simlab.inputs.params import describe
from simlab.systems import Question, System
from simlab.web.battle import BattleQuery, battle_form
from simlab.web.config import Site
from simlab.web.query import AttackQuery, DuelQuery, variant_label

__all__ = [
    "scenario_groups",
    "duel_groups",
    "battle_groups",
    "sampling_fields",
    "field",
    "field_named",
    "Groups",
    "every_option",
    "varied_fields",
    "form_groups",
    "listed",
    "options_field",
    "ALL",
]

#: The option that stands for every row of a table (or every choice) in a list of options.
ALL = "all"

#: A form's fields, in titled groups.
Groups = list[tuple[str, list[dict[str, Any]]]]


def scenario_groups(base: System, asked: Question, query: AttackQuery, site: Site) -> Groups:
    """The form of a question of one scenario: its inputs, its rows' columns, the rules (and a variant), the method."""
    tables = site.tables_of(base)
    scenario = []
    for spec in describe(asked.inputs_type):
        rows = asked.row_inputs.get(spec["name"])
        choices = [str(r["name"]) for r in tables[rows].as_records()] if rows else None
        scenario.append(field(spec, spec["name"], query.inputs.get(spec["name"]), choices))
    rules = _rules(base, query.rules)
    mine = [name for name, system in site.variant_systems.items() if system == base.name]
    if query.variant and query.variant not in mine:
        mine.append(query.variant)  # an uploaded variant, carried by the address
    if mine:
        doc = "a house-rule variant of experiments/variants/ or your own, uploaded below (blank: the base rules)"
        labels = {"": "(the base rules)", **{v: variant_label(v) for v in mine}}
        choice = field({"name": "variant", "default": "", "doc": doc}, "variant", query.variant, ["", *mine])
        rules.insert(0, {**choice, "labels": labels, "blank": ""})
    sampling = [
        field(
            {
                "name": "method",
                "default": query.method,
                "doc": "exact values, or sampled with 95 % intervals",
                "choices": ["monte_carlo"] if asked.sampled_only else ["exact", "monte_carlo"],
            },
            "method",
            query.method,
        ),
        *sampling_fields(query.trials, query.seed, "trials to sample"),
    ]
    fields = {spec["name"] for spec in describe(asked.inputs_type)}
    edits = [
        (f"edit {name}", _row_fields(name, tables[table].as_records(), query.inputs))
        for name, table in asked.row_inputs.items()
        if name in fields
    ]
    return [("scenario", scenario), *edits, ("rules", rules), ("method", sampling)]


def duel_groups(base: System, asked: Question, query: DuelQuery, tables: Mapping[str, Any] | None = None) -> Groups:
    """The duel form: each side's inputs (``a.KEY``, ``b.KEY``), the rules, trials and seed (lists of ``tables``)."""
    tables = tables or base.tables()
    groups = []
    for side, given in (("a", query.a), ("b", query.b)):
        fields = []
        for spec in describe(asked.inputs_type):
            rows = asked.row_inputs.get(spec["name"])
            choices = [str(r["name"]) for r in tables[rows].as_records()] if rows else None
            fields.append(field(spec, f"{side}.{spec['name']}", given.get(spec["name"]), choices))
        groups.append((f"side {side.upper()}", fields))
    sampling = sampling_fields(query.trials, query.seed, "duels to sample")
    return [*groups, ("rules", _rules(base, query.rules, fight=True)), ("sampling", sampling)]


def battle_groups(base: System, battle: Any, query: BattleQuery, tables: Mapping[str, Any] | None = None) -> Groups:
    """The battle form: the battle's values by dotted path, the rules, trials and seed (lists of ``tables``)."""
    groups = battle_form(base, battle, query, field, tables)
    sampling = sampling_fields(query.trials, query.seed, "battles to sample")
    return [*groups, ("rules", _rules(base, query.rules, fight=True)), ("sampling", sampling)]


def form_groups(site: Site, base: System, question: Question, query: Any) -> Groups:
    """The form of any question, by its form: one scenario's inputs, a duel's two sides, a battle's groups.

    Raises:
        SimlabError: For a battle that is not one of the shipped ones, or a change that does not fit it.
    """
    return _GROUPS[question.form](site, base, question, query)


#: Each form's groups of fields, by its name (as the parsers and pages of the forms are).
_GROUPS: dict[str, Callable[[Site, System, Question, Any], Groups]] = {
    "scenario": lambda site, base, question, query: scenario_groups(base, question, query, site),
    "sides": lambda site, base, question, query: duel_groups(base, question, query, site.tables_of(base)),
    "battle": lambda site, base, question, query: battle_groups(base, query.load(site.battles), query,
                                                                site.tables_of(base)),
}  # fmt: skip


def _rules(base: System, given: Mapping[str, str], fight: bool = False) -> list[dict[str, Any]]:
    """One field per rule parameter of the system (``rule.NAME``); a duel's or battle's only those it reads."""
    unread = base.fight_unread_rules if fight else {}
    specs = [spec for spec in describe(base.rules_type) if spec["name"] not in unread]
    return [field(spec, f"rule.{spec['name']}", given.get(spec["name"])) for spec in specs]


def _row_fields(name: str, records: list[dict[str, Any]], inputs: Mapping[str, str]) -> list[dict[str, Any]]:
    """``ROW.COLUMN`` overrides of the chosen row (or a row of one's own): one text box per column."""
    chosen = next((r for r in records if str(r["name"]) == inputs.get(name)), None)
    fields = []
    for column in [c for c in (records[0] if records else {}) if c != "name"]:
        value = "" if chosen is None or chosen[column] is None else str(chosen[column])
        doc = f"{name} column {column}" + (f" (the {chosen['name']} has {value})" if chosen is not None else "")
        fields.append(
            field({"name": column, "default": value, "doc": doc}, f"{name}.{column}", inputs.get(f"{name}.{column}"))
        )
    return fields


def sampling_fields(trials: int | None, seed: int, what: str) -> list[dict[str, Any]]:
    """The trials and seed of a sampled answer."""
    return [
        field(
            {"name": "trials", "type": "int", "default": None, "minimum": 1, "doc": what},
            "trials",
            None if trials is None else str(trials),
        ),
        field(
            {"name": "seed", "type": "int", "default": 0, "minimum": 0, "doc": "root seed of the random streams"},
            "seed",
            str(seed),
        ),
    ]


def field(spec: dict[str, Any], key: str, given: str | None, rows: list[str] | None = None) -> dict[str, Any]:
    """One form control: a select for choices and table rows, a checkbox for a boolean, a number box..."""
    default = spec.get("default")
    value: Any = given if given is not None else ("" if default is None else default)
    control: dict[str, Any] = {
        "key": key,
        "name": spec["name"],
        "doc": spec.get("doc", ""),
        "value": value,
        "placeholder": "" if default in (None, "") else str(default),
        "minimum": spec.get("minimum"),
        "maximum": spec.get("maximum"),
        "blank": "",
        "labels": {},
    }
    kind = str(spec.get("type", "str")).rstrip("?")
    if rows is not None:
        control.update(control="select", choices=rows, blank="(choose)")
    elif spec.get("choices"):
        control.update(control="select", choices=[str(c) for c in spec["choices"]], value=str(value))
    elif kind == "bool" and default is not True:
        control.update(control="checkbox", value=str(value).lower() in ("true", "1", "yes", "on"))
    elif kind == "bool":
        control.update(control="select", choices=["true", "false"], value=str(value).lower())
    elif kind in ("int", "float"):
        control.update(control="number", step="1" if kind == "int" else "any", value="" if given is None else given)
    else:
        control.update(control="text", value="" if given is None else given)
    return control


def field_named(message: str, asked: Question, base: System) -> str | None:
    """The form field a one-line message is about (the first input it names), for the inline mark."""
    names = [s["name"] for s in describe(asked.inputs_type)]
    names += [f"rule.{s['name']}" for s in describe(base.rules_type)]
    for name in names:
        if name.removeprefix("rule.") in message:
            return name
    return None


def varied_fields(groups: Groups) -> dict[str, dict[str, Any]]:
    """The fields of a form that a Sweep or a Compare may vary, by key: the question's own inputs.

    The scenario's inputs, a duel's two sides, a battle's range, sides and groups; not the rules,
    a row's column edits, the method, the trials or the seed (an experiment's grid takes none of those).
    """
    fixed = ("rules", "method", "sampling", "find the count")
    return {
        f["key"]: f
        for group, fields in groups
        if group not in fixed and not group.startswith("edit ")
        for f in fields
        if f["key"] != "variant"
    }


def every_option(fields: Mapping[str, dict[str, Any]], key: str) -> list[str] | None:
    """Every value the field ``key`` can take, where there is a list: a table's rows, the choices, true and false."""
    control = fields.get(key)
    if control is None:
        return None
    if control["control"] == "select":
        return [str(c) for c in control["choices"] if str(c) != ""]
    if control["control"] == "checkbox":
        return ["false", "true"]
    return None


def listed(fields: Mapping[str, dict[str, Any]], name: str, text: str | None, key: str) -> tuple[str, ...]:
    """The values of a list typed or chosen in a form (commas between them); ``all`` is every one there is.

    Args:
        fields: The fields that may vary (:func:`varied_fields`).
        name: The key of the varied input.
        text: The values as the query gives them.
        key: The query's key of the list (for messages).

    Raises:
        SimlabError: For an input the form does not have, an empty list, or ``all`` of an input
            without a list of values.
    """
    if name not in fields:
        raise UnknownNameError("input to vary", name, fields)
    values = [v.strip() for v in (text or "").split(",") if v.strip()]
    if not values:
        raise SimlabError(f"{key} is empty: give its values separated by commas (or {ALL})")
    if ALL in values:
        every = every_option(fields, name)
        if every is None:
            raise SimlabError(f"{key}: {name} has no list of values to take {ALL} of; give its values")
        values = [v for v in values if v != ALL] + [v for v in every if v not in values]
    return tuple(dict.fromkeys(values))


def options_field(
    fields: Mapping[str, dict[str, Any]], name: str | None, key: str, given: str | None, doc: str
) -> dict[str, Any]:
    """The values of a varied input: a list to pick from (with ``all``) where the input has one, else typed."""
    every = every_option(fields, name) if name else None
    control = field({"name": key, "default": "", "doc": doc}, key, given)
    if every is None:
        return control
    chosen = [v.strip() for v in (given or "").split(",") if v.strip()]
    labels = {ALL: f"(all {len(every)})"}
    return {**control, "control": "multiselect", "choices": [ALL, *every], "chosen": chosen, "labels": labels}
