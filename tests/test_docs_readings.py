"""The systems' docs name every reading the code takes, with the parameter that selects the other one."""

import re
from pathlib import Path

import pytest

from simlab.inputs.params import build, field_specs
from simlab.systems import SYSTEM_NAMES, get_system

DOCS = Path(__file__).resolve().parents[1] / "docs" / "systems"
#: ``name = value`` in backticks.
SETTING = re.compile(r"`([a-z_0-9]+) = ([^`]+)`")


def readings(name: str) -> list[list[str]]:
    """The rows of the Readings table of a system's doc, as cells."""
    text = (DOCS / f"{name}.md").read_text()
    section = text.split("## Readings", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| Rule")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows if not set(row) <= set("|- ")]


@pytest.mark.parametrize("name", SYSTEM_NAMES)
def test_every_reading_parameter_is_documented(name):
    """Every rule parameter with named readings has a row, its default and every other choice in it."""
    specs = field_specs(get_system(name).rules_type)
    text = "\n".join(" | ".join(row) for row in readings(name))
    for field, spec in specs.items():
        if spec.choices:
            assert f"`{field} = {spec.default}" in text, f"{name}: {field}'s default is not in the readings"
            for choice in spec.choices:
                assert f"`{field} = {choice}" in text, f"{name}: {field} = {choice} is not in the readings"


@pytest.mark.parametrize("name", SYSTEM_NAMES)
def test_the_readings_name_real_parameters_and_defaults(name):
    """Each row cites a rule id; its settings are valid values and its default column holds the defaults."""
    rules_type = get_system(name).rules_type
    specs = field_specs(rules_type)
    for rule, _question, default, other in readings(name):
        assert re.fullmatch(r"[A-Z]{3}-[0-9.]+", rule), rule
        for cell, is_default in ((default, True), (other, False)):
            settings = SETTING.findall(cell)
            assert settings, f"{name} {rule}: no `name = value` in {cell!r}"
            for field, value in settings:
                assert field in specs, f"{name} {rule}: no rule parameter {field!r}"
                text = value.strip()
                parsed = build(rules_type, {field: _value(text)}, what="rule")
                if is_default:
                    assert getattr(parsed, field) == specs[field].default, f"{name} {rule}: {field} default"


def _value(text: str) -> object:
    """A setting as a variant file would give it."""
    if text in ("true", "false"):
        return text == "true"
    if text.startswith("["):
        return [int(part) for part in text.strip("[]").split(",")]
    try:
        return int(text)
    except ValueError:
        return text


def test_every_system_has_its_doc():
    assert {p.stem for p in DOCS.glob("*.md")} - {"index"} == set(SYSTEM_NAMES)  # and the index of them
