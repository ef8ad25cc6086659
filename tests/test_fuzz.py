"""Fuzzing the command line and the file readers: exit 0, or exit 2 with one ``error:`` line, never anything else.

Seeded (``derandomize``) and bounded (a fixed number of examples, small trials), so the run
is the same every time and takes seconds.
"""

from __future__ import annotations

import io
import random
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simlab.asking.variants import load_variant
from simlab.cli import main
from simlab.inputs.battles import Doctrine, Formation, load_battle
from simlab.inputs.errors import SimlabError
from simlab.inputs.files import read_csv, read_json
from simlab.inputs.params import field_specs
from simlab.systems import all_systems
from simlab.workflow.experiments import load_experiment

ROOT = Path(__file__).resolve().parents[1]
FUZZ = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

SYSTEMS = [s.name for s in all_systems()]
KEYS = sorted(
    {name for s in all_systems() for name in field_specs(s.attack.inputs_type)}
    | {f"{row}.{column}" for s in all_systems() for row, table in s.attack.row_inputs.items()
       for column in field_specs(s.tables()[table].row_type)}
)  # fmt: skip
RULES = sorted({name for s in all_systems() for name in field_specs(s.rules_type)})
NASTY = [
    "", " ", "0", "-1", "1e999", "nan", "inf", "-inf", "1" + "0" * 40, "9" * 400, "1.5", "true", "[]", "[1,",
    "x" * 3000, "\n", "a\nb", "é", "\u202e", "\x00", "None", "{}", "1,2,3", "[99999999999999999999]", "-0",
    "0x10", "1_000", "\u00b2", "\u0663", "<script>", "../..", "local:\u00b2", "tcp://", "[[[[[[",
]  # fmt: skip


def values() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(NASTY), st.text(max_size=12), st.integers().map(str), st.floats().map(str))


def assignments(names: list[str]) -> st.SearchStrategy[list[str]]:
    key = st.one_of(st.sampled_from(names), st.sampled_from(names), st.text(max_size=8))
    return st.lists(st.tuples(key, values()).map(lambda kv: f"{kv[0]}={kv[1]}"), max_size=3, unique_by=lambda a: a)


#: Valid commands the fuzzer starts from, one or more per system and question.
GOOD = [
    ["attack", "hitech_tft", "--set", "weapon=assault rifle", "--set", "mode=full"],
    ["attack", "hitech_tft", "--set", "weapon=grenade TL8", "--set", "armor=flak jacket"],
    ["attack", "striker", "--set", "weapon=assault rifle", "--set", "mode=half_clip"],
    ["attack", "tyconian", "--set", "weapon=assault rifle", "--set", "mode=full_auto"],
    ["attack", "tyconian", "--kind", "explosion", "--set", "explosive=hand grenade"],
    ["attack", "tyconian", "--kind", "flame"],
    ["attack", "tyconian", "--kind", "melee"],
    ["attack", "tyconian", "--kind", "healing"],
    ["attack", "tyconian", "--kind", "indirect_fire", "--set", "explosive=hand grenade"],
    ["attack", "space_v4", "--set", "attacker=frigate", "--set", "defender=scout"],
    ["duel", "striker", "--a", "weapon=rifle", "--b", "weapon=submachinegun"],
    ["duel", "tyconian", "--a", "weapon=autopistol", "--b", "weapon=autopistol"],
    ["duel", "space_v4", "--a", "ship=scout", "--b", "ship=scout"],
]


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    """A valid command with a few inputs replaced or added, mostly with nasty values."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from([["systems"], ["systems", "--json"], ["tables", "tyconian"], ["tables", "x"]]))
    args = list(draw(st.sampled_from(GOOD)))
    option = "--set" if args[0] == "attack" else draw(st.sampled_from(["--a", "--b"]))
    for item in draw(assignments(KEYS).filter(bool)):
        args += [option, item]
    if draw(st.booleans()):
        for item in draw(assignments(RULES)):
            args += ["--rule", item]
    sampled_only = "healing" in args or args[0] == "duel"
    if not sampled_only and draw(st.booleans()):
        args.append("--exact")
    else:
        args += ["--trials", draw(st.sampled_from(["300", "300", "300", "0", "1e3", "abc", "99999999999999999999"]))]
    args += draw(st.sampled_from([[], ["--json"], ["--seed", "7"], ["--seed", "-1"], ["--threads", "1"]]))
    return args


def run_in_process(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            main(args)
            code = 0
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def assert_exit_0_or_one_error_line(args: list[str]) -> None:
    """``simlab ARGS`` exits 0, or 2 with one ``error:`` line; never a traceback."""
    code, out, err = run_in_process(args)
    assert "Traceback" not in out + err
    assert code in (0, 2), (args, code, err)
    if code == 2:
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: "), (args, err)


@FUZZ
@given(args=command_lines())
def test_any_command_line_ends_in_exit_0_or_one_error_line(args):
    assert_exit_0_or_one_error_line(args)


def mutations(text: str) -> st.SearchStrategy[bytes]:
    data = text.encode()

    def mutate(seed: int) -> bytes:
        rng = random.Random(seed)
        chunk = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            where = rng.randrange(len(chunk) + 1)
            choice = rng.random()
            if choice < 0.3:
                del chunk[where : where + rng.randint(1, 20)]
            elif choice < 0.6:
                chunk[where:where] = rng.choice([b"1" + b"0" * 30, b"\xff\xfe", b"\x00", b'"', b"[", b"]", b"=", b"\n"])
            else:
                chunk[where:where] = rng.choice(NASTY).encode()
        return bytes(chunk)

    return st.one_of(st.integers(0, 2**32).map(mutate), st.binary(max_size=64))


#: Battle key paths from the registry: the battle's top, a side's keys, doctrine, formation, a group's inputs.
BATTLE_KEYS = sorted(
    {"range_band", "range_m", "max_turns", "same_second", "system", "name", "rules.max_turns"}
    | {f"{side}.{key}" for side in "ab" for key in ("tactics", "cover", "name", "count", "range_policy", "targets")}
    | {f"a.doctrine.{name}" for name in field_specs(Doctrine)}
    | {f"b.formation.{name}" for name in field_specs(Formation)}
    | {f"a.groups.{g}.{name}" for g in ("0", "1", "\u00b2", "x") for s in all_systems() if s.asks("battle")
       for name in field_specs(s.questions["battle"].inputs_type)}
    | {f"rules.{name}" for name in RULES}
)  # fmt: skip
BATTLE_FILES = {
    "striker": "striker_fireteam",
    "hitech_tft": "tft_hexes",
    "tyconian": "tyconian_squads",
    "space_v4": "space_squadron",
}
SCHEDULERS = ["tcp://", "tcp://x", "http://h:1", "local:\u00b2", "local:0", ""]


@st.composite
def battle_lines(draw: st.DrawFn) -> list[str]:
    """A shipped battle with a few key paths set, mostly to nasty values, and sometimes a bad scheduler."""
    system = draw(st.sampled_from(sorted(BATTLE_FILES)))
    args = ["battle", system, str(ROOT / "experiments" / "battles" / f"{BATTLE_FILES[system]}.toml")]
    for item in draw(assignments(BATTLE_KEYS)):
        args += ["--set", item]
    if draw(st.integers(0, 5)) == 0:
        args += ["--scheduler", draw(st.sampled_from(SCHEDULERS))]
    return [*args, "--trials", draw(st.sampled_from(["200", "0", "\u0663", "1e3"])), "--seed", "3"]


@FUZZ
@given(args=battle_lines())
def test_any_battle_command_ends_in_exit_0_or_one_error_line(args):
    assert_exit_0_or_one_error_line(args)


@FUZZ
@given(
    address=st.one_of(
        st.sampled_from(NASTY), st.text(max_size=40), st.from_regex(r"(tcp|tls|local|http)(://|:)[^ ]{0,20}")
    )
)
def test_any_scheduler_address_parses_or_is_one_simlab_error(address):
    from simlab.engine.cluster import parse_address

    try:
        kind, value = parse_address(address)
    except SimlabError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("invalid --scheduler")
    else:
        assert kind in ("local", "tcp") and (kind != "local" or 1 <= int(value) <= 256)


@settings(FUZZ, max_examples=100)
@given(data=st.data())
def test_any_web_query_is_an_answer_or_a_json_error(data):
    from fastapi.testclient import TestClient

    from simlab.web.app import create_app

    client = _WEB.setdefault("client", TestClient(create_app(battles=ROOT / "experiments" / "battles")))
    routes = ["/api/battle/striker", "/api/attack/hitech_tft", "/api/duel/tyconian", "/api/battle/space_v4",
              "/csv/battle/tyconian", "/api/attack/nope"]  # fmt: skip
    route = data.draw(st.sampled_from(routes))
    keys = BATTLE_KEYS if "battle" in route else KEYS
    query = [("trials", "200"), ("battle", BATTLE_FILES.get(route.rsplit("/", 1)[1], "x"))] if "battle" in route else []
    query += [tuple(item.split("=", 1)) for item in data.draw(assignments(keys))]
    response = client.get(route, params=query)
    assert response.status_code in (200, 400), (route, query, response.status_code, response.text[:300])
    if response.status_code == 400:
        assert set(response.json()) == {"error"} and "\n" not in response.json()["error"]


_WEB: dict[str, object] = {}
BATTLE = (ROOT / "experiments" / "battles" / "tyconian_squads.toml").read_text()
EXPERIMENT = (ROOT / "experiments" / "tft_autofire_modes.toml").read_text()
VARIANT = (ROOT / "experiments" / "variants" / "tft_extra_hit_every_2.toml").read_text()
BASELINE = (ROOT / "results" / "baselines" / "tft_autofire_modes" / "table.csv").read_text()[:4000]
PROVENANCE = (ROOT / "results" / "baselines" / "tft_autofire_modes" / "provenance.json").read_text()
#: What each reader is fuzzed from, the file name it reads, and the reader.
READERS = {
    "experiment": (EXPERIMENT, "fuzz.toml", load_experiment),
    "variant": (VARIANT, "fuzz_variant.toml", load_variant),
    "baseline": (
        BASELINE,
        "table.csv",
        lambda p: read_csv(p, "baseline table", required=("value",), numbers=("value",)),
    ),
    "provenance": (PROVENANCE, "provenance.json", lambda p: read_json(p, "baseline provenance")),
    "battle": (BATTLE, "fuzz_battle.toml", load_battle),
}


@pytest.mark.parametrize("reader", sorted(READERS))
@FUZZ
@given(data=st.data())
def test_any_file_reads_or_is_one_simlab_error_naming_it(tmp_path, reader, data):
    source, name, read = READERS[reader]
    path = tmp_path / name
    path.write_bytes(data.draw(mutations(source)))
    try:
        read(path)
    except SimlabError as exc:
        assert str(exc).startswith(str(path)), str(exc)
