"""Hostile input: every one ends in exit 2 with one ``error:`` line, no traceback, nothing written.

The cases are those a hostile review of simlab found breaking the promise of DESIGN.md
principle 7 (numbers past int64, work too large to start, odd files, bad names, charts that
fail while drawing, corrupt baselines), and their neighbours.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

import simlab
from tests.conftest import run_cli, small_experiment

HUGE = "1" + "0" * 30  # far past int64
TFT = ["attack", "hitech_tft", "--set", "weapon=assault rifle"]


def assert_one_error(code: int, out: str, err: str, *words: str) -> None:
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2, (code, out, err)
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err + out
    for word in words:
        assert word in lines[0], (word, lines[0])


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ([*TFT, "--set", f"dx={HUGE}"], ["dx", "0 to 99"]),
        ([*TFT, "--set", "dx=-1e300"], ["dx"]),
        ([*TFT, "--set", "dx=nan"], ["dx"]),
        ([*TFT, "--set", "range_m=inf"], ["range_m"]),
        ([*TFT, "--set", "range_m=1e308"], ["range_m", "1,000,000"]),
        ([*TFT, "--set", "weapon.dice=1000000", "--exact"], ["weapon.dice", "0 to 100"]),
        ([*TFT, "--set", f"weapon.dice={HUGE}"], ["weapon.dice"]),
        ([*TFT, "--rule", f"autofire_step={HUGE}"], ["autofire_step", "1 to 99"]),
        ([*TFT, "--rule", "blast_divisors=[0]"], ["blast_divisors"]),
        ([*TFT, "--rule", "blast_divisors=[" + ",".join(["2"] * 101) + "]"], ["blast_divisors", "at most 100"]),
        ([*TFT, "--set", "weapon=" + "x" * 5000], ["weapon"]),
        ([*TFT, "--set", "dx=" + "9" * 100000], ["dx"]),
        (["attack", "striker", "--set", "weapon=rifle", "--set", f"skill={HUGE}"], ["skill"]),
        (["attack", "striker", "--set", "weapon=rifle", "--set", f"end={HUGE}"], ["end"]),
        (["duel", "striker", "--a", "weapon=rifle", "--b", "weapon=rifle", "--a", f"magazines={HUGE}"], ["magazines"]),
        (["duel", "tyconian", "--a", "weapon=autopistol", "--b", "weapon=autopistol", "--a", "magazines=1e9"], []),
        (["attack", "tyconian", "--set", "weapon=autopistol", "--set", "skill=1e19"], ["skill"]),
        (["attack", "tyconian", "--kind", "flame", "--set", "seconds=1000000"], ["seconds"]),
        (["attack", "space_v4", "--set", "count=1000000000", "--exact"], ["count", "10,000"]),
        (["attack", "space_v4", "--set", f"count={HUGE}"], ["count"]),
        ([*TFT, "--trials", "100000000000000"], ["--max-trials"]),
        ([*TFT, "--trials", HUGE], ["--trials"]),
        ([*TFT, "--seed", HUGE], ["--seed"]),
        ([*TFT, "--threads", HUGE], ["--threads"]),
        (
            ["duel", "striker", "--a", "weapon=rifle", "--b", "weapon=rifle", "--trials", "99999999999"],
            ["--max-trials"],
        ),
    ],
    ids=lambda value: " ".join(value)[:60] if isinstance(value, list) else None,
)
def test_extreme_values_are_one_line(capsys, args, words):
    assert_one_error(*run_cli(capsys, *args), *words)


def experiment_text(extra: str = "", grid: str = 'weapon = ["assault rifle"]\nmode = ["single"]') -> str:
    return textwrap.dedent(
        """\
        name = "hostile"
        system = "hitech_tft"
        method = "exact"
        {extra}
        [fixed]
        armor = "flak jacket"

        [grid]
        {grid}
        """
    ).format(extra=extra, grid=grid)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"\x00\x01\x02binary\xff", ["binary"]),
        (experiment_text().encode("utf-16"), ["UTF-16"]),
        (experiment_text('description = "caf\u00e9"').encode("latin-1"), ["not UTF-8", ":4:"]),
        (b"", ["name: missing"]),
        (b"name = ", ["not valid TOML"]),
        (experiment_text().replace("hostile", "x" * 300).encode(), ["not a valid directory name", "100"]),
        (experiment_text().replace('"hostile"', '"hostile\\n"').encode(), ["not a valid directory name"]),
        (experiment_text().replace('"hostile"', '"../up"').encode(), ["not a valid directory name"]),
        (
            experiment_text(
                grid="dx = ["
                + ", ".join(str(i % 99) for i in range(1000))
                + "]\n"
                + "st = ["
                + ", ".join(str(1 + i % 999) for i in range(1000))
                + "]"
            ).encode(),
            ["1,000,000 cells", "--max-cells"],
        ),
        (
            experiment_text('method = "monte_carlo"\ntrials = 100000000000').replace('method = "exact"\n', "").encode(),
            ["--max-trials"],
        ),
        (experiment_text(f"trials = {HUGE}").encode(), ["trials"]),
        (experiment_text().encode() + b'\n[labels]\np_hit = "' + b"x" * 300_000 + b'"\n',
         ["[labels] p_hit", "300,000"]),
        (experiment_text().encode() + b'\n[labels]\np_hit = "to\\nhit"\n', ["[labels] p_hit", "one line"]),
        (experiment_text(f"seed = {HUGE}").encode(), ["seed"]),
        (experiment_text().replace('mode = ["single"]', f'mode = ["single"]\ndx = [{HUGE}]').encode(), ["dx"]),
        (
            experiment_text().replace('mode = ["single"]', 'mode = ["single"]\ndx = [12, 13]\nst = [10, 11]').encode()
            + b'\n[[charts]]\nkind = "heatmap"\nmetric = "p_hit"\nrows = "dx"\ncols = "dx"\n',
            ["given to two"],
        ),
        (
            experiment_text().encode() + b'\n[[charts]]\nkind = "attacks_to_incapacitate"\nattacks = "many"\n',
            ["attacks", "1 to 10"],
        ),
        (
            experiment_text().replace('mode = ["single"]', 'mode = ["single"]\ndx = [12, 13]').encode()
            + b'\n[[charts]]\nkind = "curve"\nmetric = "p_hit"\nx = "dx"\ntitle = 5\n',
            ["title", "expected text"],
        ),
        (
            experiment_text().encode()
            + b'\n[[charts]]\nkind = "curve"\nmetric = "p_hit"\nx = "weapon"\nname = "a/b"\n',
            ["name", "not a valid file name"],
        ),
        (experiment_text().replace('method = "exact"', "method = []").encode(), [":3: method", "expected a method"]),
        (experiment_text("skip_invalid = true", grid='weapon = ["lt pistol"]\nmode = ["full"]').encode(),
         ["skip_invalid", "every cell is left out"]),
        (b'name = "s"\nsystem = "striker"\nmethod = "exact"\nkind = "sensitivity"\n[fixed]\nweapon = "rifle"\n'
         b'[sensitivity]\nmetric = "p_hit"\ntrajectories = 99999999999999999999\n[sensitivity.vary]\n'
         b'skill = "0..4"\nrange_band = ["short", "long"]\n', [":7: [sensitivity]", "above the cap"]),
    ],
    ids=[
        "binary",
        "utf16",
        "latin1",
        "empty",
        "truncated",
        "name300",
        "name-newline",
        "name-path",
        "million-cells",
        "trials-cap",
        "trials-huge",
        "label-300k",
        "label-two-lines",
        "seed-huge",
        "grid-huge",
        "rows-eq-cols",
        "attacks-many",
        "title-5",
        "chart-name",
        "method-list",
        "every-cell-skipped",
        "exact-sensitivity-cap",
    ],
)
def test_experiment_files_are_one_line_and_nothing_is_written(tmp_path, capsys, content, words):
    path = tmp_path / "hostile.toml"
    path.write_bytes(content)
    out = tmp_path / "out"
    assert_one_error(*run_cli(capsys, "run", str(path), "--out", str(out)), str(path), *words)
    assert not out.exists() or not any(out.iterdir())


def variant_text(body: str) -> bytes:
    return f'system = "tyconian"\nname = "hostile"\n{body}\n'.encode()


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (variant_text("[rules]\nskill_die = " + HUGE), ["skill_die"]),
        (variant_text('[tables.full_auto."3"]\nrof = 1000000'), ["rof", "1 to 100"]),
        (variant_text('[tables.hit_locations."head"]\nroll_min = 5\nroll_max = 1'), ["roll_min", "at most roll_max"]),
        (variant_text('[tables.hit_locations."head"]\nroll_max = 1'), ["roll 2", "every roll 1-20"]),
        (variant_text('[tables.flamer_directed."1"]\nlocation_die = 0'), ["location_die", "1 to 20"]),
        (variant_text('[tables.weapons."autopistol"]\nmagazine = ' + HUGE), ["magazine"]),
        (variant_text('[tables.weapons."autopistol"]\ndamage = nan'), ["damage"]),
        ("system = 'tyconian'\nname = 'hostile'\n".encode("utf-16"), ["UTF-16"]),
        (b"\x89PNG\r\n\x1a\n\x00\x00", ["binary"]),
        (b"system = 'tyconian'\nname = 'caf\xe9'\n", ["not UTF-8"]),
        (variant_text("").replace(b'"hostile"', b'"hostile\\n"'), ["not a valid variant name"]),
    ],
    ids=[
        "rule-huge",
        "rof",
        "roll-min-max",
        "roll-gap",
        "location-die",
        "magazine",
        "nan",
        "utf16",
        "png",
        "latin1",
        "name-newline",
    ],
)
def test_variant_files_are_one_line(tmp_path, capsys, content, words):
    path = tmp_path / "hostile_variant.toml"
    path.write_bytes(content)
    args = ["attack", "tyconian", "--set", "weapon=autopistol", "--variant", str(path), "--exact"]
    assert_one_error(*run_cli(capsys, *args), str(path), *words)


def test_a_divisor_of_zero_means_none_and_gives_numbers(capsys):
    code, out, err = run_cli(
        capsys,
        "attack",
        "tyconian",
        "--kind",
        "melee",
        "--set",
        "melee_weapon=club",
        "--set",
        "melee_weapon.str_divisor=0",
        "--exact",
        "--json",
    )
    assert code == 0, err
    assert "NaN" not in out


@pytest.fixture
def tiny(tmp_path):
    return small_experiment(tmp_path, trials=2000, method="exact")


def test_output_below_a_file_is_one_line(tmp_path, capsys, tiny):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert_one_error(*run_cli(capsys, "run", str(tiny), "--out", str(blocker / "out")), "cannot write")


def test_read_only_output_is_one_line(tmp_path, capsys, tiny, monkeypatch):
    out = tmp_path / "ro"
    out.mkdir()
    out.chmod(0o500)
    if os.geteuid() == 0:  # root writes into read-only directories: make the file system say no

        def read_only(*args, **kwargs):
            raise OSError(30, "Read-only file system", str(out))

        monkeypatch.setattr("tempfile.TemporaryFile", read_only)
    assert_one_error(*run_cli(capsys, "run", str(tiny), "--out", str(out)), "cannot write", str(out))
    assert list(out.iterdir()) == []


def test_full_disk_keeps_the_old_results(tmp_path, capsys, tiny, monkeypatch):
    out = tmp_path / "out"
    assert run_cli(capsys, "run", str(tiny), "--out", str(out))[0] == 0
    before = (out / "small" / "table.csv").read_bytes()

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device", str(out / "x"))

    monkeypatch.setattr("pandas.DataFrame.to_parquet", full)
    assert_one_error(*run_cli(capsys, "run", str(tiny), "--out", str(out)), "no space left")
    assert (out / "small" / "table.csv").read_bytes() == before
    assert sorted(p.name for p in out.iterdir()) == ["small"]


# --- corrupt baselines -------------------------------------------------------------------


@pytest.fixture
def baselined(tmp_path, capsys):
    experiment = small_experiment(tmp_path, trials=4000, method="both")
    directory = tmp_path / "baselines"
    assert run_cli(capsys, "baseline", str(experiment), "--dir", str(directory))[0] == 0
    return experiment, directory / "small"


def rewrite_column(path: Path, column: str, change) -> None:
    lines = path.read_text().splitlines()
    header = lines[0].split(",")
    index = header.index(column)
    rows = [line.split(",") for line in lines[1:]]
    for number, row in enumerate(rows):
        row[index] = change(number, row, header)
    path.write_text("\n".join([lines[0], *(",".join(r) for r in rows)]) + "\n")


def swap_value_and_high(number, row, header):
    value, high = header.index("value"), header.index("ci_high")
    if row[header.index("method")] == "monte_carlo" and number % 7 == 3:
        row[value], row[high] = row[high], str(float(row[high]) + 0.01)
    return row[header.index("value")]


CORRUPTIONS = {
    "one-blank": lambda p: rewrite_column(p, "value", lambda n, row, h: "" if n == 5 else row[h.index("value")]),
    "all-blank": lambda p: rewrite_column(p, "value", lambda n, row, h: ""),
    "abc": lambda p: rewrite_column(p, "value", lambda n, row, h: "abc" if n == 2 else row[h.index("value")]),
    "nan": lambda p: rewrite_column(p, "value", lambda n, row, h: "nan" if n == 2 else row[h.index("value")]),
    "swapped": lambda p: rewrite_column(p, "value", swap_value_and_high),
    "empty": lambda p: p.write_bytes(b""),
    "binary": lambda p: p.write_bytes(b"\x00\x01\x02\x03"),
    "utf16": lambda p: p.write_bytes(p.read_text().encode("utf-16")),
    "truncated": lambda p: p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2]),
    "header-only": lambda p: p.write_text(p.read_text().splitlines()[0] + "\n"),
    "no-value-column": lambda p: p.write_text(p.read_text().replace(",value,", ",worth,", 1)),
    "ragged": lambda p: p.write_text(p.read_text().replace("\n", ",1,2,3\n", 3)),
    "edited": lambda p: p.write_text(p.read_text().replace("0.", "0.9", 1)),
    "missing": lambda p: p.unlink(),
}


@pytest.mark.parametrize("corruption", sorted(CORRUPTIONS))
def test_regress_never_passes_a_corrupt_baseline_table(baselined, capsys, corruption):
    experiment, folder = baselined
    CORRUPTIONS[corruption](folder / "table.csv")
    code, out, err = run_cli(capsys, "regress", str(experiment), "--dir", str(folder.parent))
    assert code in (1, 2) and "no change" not in out
    if code == 2:
        assert_one_error(code, out, err)


PROVENANCE_CORRUPTIONS = {
    "empty": b"",
    "binary": b"\x00\xff\x00",
    "utf16": '{"versions": {}}'.encode("utf-16"),
    "truncated": b'{"versions": {"numpy": "2',
    "list": b"[1, 2, 3]",
    "versions-text": b'{"versions": "numpy"}',
    "abc": b"abc",
}


@pytest.mark.parametrize("corruption", sorted(PROVENANCE_CORRUPTIONS))
def test_regress_refuses_a_corrupt_provenance(baselined, capsys, corruption):
    experiment, folder = baselined
    (folder / "provenance.json").write_bytes(PROVENANCE_CORRUPTIONS[corruption])
    assert_one_error(*run_cli(capsys, "regress", str(experiment), "--dir", str(folder.parent)), "provenance")


SENSE = ["sensitivity", "striker", "--set", "weapon=rifle", "--metric", "p_hit", "--exact"]
TWO_KNOBS = ["--vary", "skill=0..4", "--vary", "range_band=short,long"]
MATCHUP = ["tournament", "striker", "--option", "weapon=rifle", "--option", "weapon=submachinegun"]
MATCHUP += ["--against", "armor"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ([*MATCHUP, "--metric", "mean_damage_per_kcr", "--exact"], ["unknown metric", "mean_damage_per_kcr"]),
        (["tournament", "hitech_tft", "--option", "weapon=assault rifle", "--option", "weapon=lt pistol",
          "--against", "armor", "--metric", "p_incapacitated_per_kcr", "--exact"], ["has no price", "p_incapacitated"]),
        ([*SENSE, "--vary", "skill=0..4"], ["--vary", "two factors"]),
        ([*SENSE, *TWO_KNOBS, "--vary", "skill=1..3"], ["--vary", "twice"]),
        ([*SENSE, *TWO_KNOBS, "--base", "0"], ["--base"]),
        ([*SENSE, *TWO_KNOBS, "--trajectories", "1"], ["--trajectories"]),
        ([*SENSE, *TWO_KNOBS, "--trajectories", "100000000"], ["points", "cap"]),
        ([*SENSE, *TWO_KNOBS, "--base", str(2**20)], ["points", "cap"]),
        ([*SENSE[:-1], *TWO_KNOBS, "--base", str(2**20), "--trials", "1"], ["points", "cap"]),
        ([*SENSE[:-1], *TWO_KNOBS, "--metric", "p_nope"], ["p_nope"]),
        ([*SENSE, "--vary", "skillx=0..4", "--vary", "range_band=short,long"], ["--vary", "skillx"]),
        ([*SENSE, "--vary", "skill=4..0", "--vary", "range_band=short,long"], ["--vary skill"]),
        (["sensitivity", "striker", "--battle", "experiments/battles/striker_fireteam.toml", "--metric", "p_a_wins",
          "--vary", "a.count=2..6", "--vary", "b.suppressors=0..2", "--exact"], ["--exact"]),
        (["solve", "striker", "--set", "weapon=rifle", "--find", "skillx", "--in", "0..4", "--target", "p_hit=0.5",
          "--exact"], ["--find", "skillx"]),
        (["regress", "--limit", "-1"], ["--limit"]),
        (["tournament", "tyconian", "--option", "x: skill=100", "--option", "y: skill=2"],
         ["option 'x'", "for skill:", "-10 to 99"]),
    ],
    ids=lambda value: " ".join(value)[:70] if isinstance(value, list) else None,
)
def test_the_balance_commands_refuse_in_one_line_before_saying_anything(capsys, args, words):
    code, out, err = run_cli(capsys, *args)
    assert out == ""
    assert_one_error(code, out, err, *words)
    if args[0] == "tournament":  # an option's inputs are named as given, whichever side a seating puts them on
        assert "--a" not in err and "--b" not in err


def test_a_solve_experiment_names_the_line_of_an_unknown_it_does_not_take(tmp_path, capsys):
    path = tmp_path / "solve.toml"
    path.write_text('name = "s"\nsystem = "striker"\nmethod = "exact"\nkind = "solve"\n[fixed]\nweapon = "rifle"\n'
                    '[solve]\nfind = "skillx"\nin = "0..4"\ntarget = "p_hit=0.5"\n', encoding="utf-8")  # fmt: skip
    code, out, err = run_cli(capsys, "run", str(path), "--out", str(tmp_path / "out"))
    assert_one_error(code, out, err, "solve.toml:8:", "[solve] find", "skillx")
    assert not (tmp_path / "out").exists()


PYTHON_CALLS = {
    "no row": (lambda: simlab.attack("hitech_tft"), "no weapon: give weapon=NAME"),
    "a value": (lambda: simlab.attack("hitech_tft", weapon="lt pistol", dx="abc"), "for dx:"),
    "a rule": (lambda: simlab.attack("hitech_tft", weapon="lt pistol", rules={"nope": 1}), "rule parameter 'nope'"),
    "trials": (lambda: simlab.attack("hitech_tft", weapon="lt pistol", method="monte_carlo", trials=0), "for trials:"),
    "own tables": (lambda: simlab.attack("hitech_tft", weapon="lt pistol", tables={"nope": {}}), "tables: unknown"),
    "a side": (lambda: simlab.duel("striker", a=5, b={}), "a: expected a dict"),
    "rules": (lambda: simlab.attack("hitech_tft", weapon="lt pistol", rules=[1]), "rules: expected a dict"),
    "a side's value": (lambda: simlab.duel("striker", a={"skill": "abc"}, b={}), "for a.skill:"),
    "target": (lambda: simlab.solve("hitech_tft", find="dx", within="6..20", target="p_hit=nan", weapon="lt pistol"),
               "for target:"),
    "vary": (lambda: simlab.sensitivity("striker", metric="p_hit", vary="skill=0..4", weapon="rifle"), "vary:"),
    "options": (lambda: simlab.tournament("striker", options=[{"weapon": "rifle"}]), "options: expected a dict"),
    "an option": (lambda: simlab.tournament("tyconian", options={"x": {"skill": 100}, "y": {"skill": 2}}),
                  "option 'x': invalid value 100 for skill"),
}  # fmt: skip


@pytest.mark.parametrize("case", list(PYTHON_CALLS))
def test_the_python_calls_refuse_in_one_line_naming_their_keywords(case):
    """A call's mistake is a SimlabError of one line naming the keyword as the call has it, never a flag."""
    call, words = PYTHON_CALLS[case]
    with pytest.raises(simlab.SimlabError) as raised:
        call()
    message = str(raised.value)
    assert words in message and "\n" not in message and "--" not in message, message


@pytest.mark.parametrize(
    "args",
    [["solve", "striker", "--set", "weapon=rifle", "--find", "x" * 3000, "--in", "0..4", "--target", "p_hit=0.5"],
     ["tournament", "striker", "--option", "x" * 3000, "--option", "weapon=rifle"],
     ["attack", "hitech_tft", "--set", "weapon=" + "x" * 3000],
     ["regress", "--margin", "x" * 3000]],
    ids=["unknown name", "not KEY=VALUE", "unknown row", "an option's type"],
)  # fmt: skip
def test_a_long_value_is_cut_in_its_message(capsys, args):
    """A message quotes at most 60 characters of what was given: one readable line, however long the value."""
    code, out, err = run_cli(capsys, *args)
    assert_one_error(code, out, err, "x" * 57 + "...")
    assert "x" * 58 not in err


@pytest.mark.parametrize(
    "args",
    [["notebooks", "--check", "a\0.ipynb"], ["run", "a\0.toml"],
     ["compare", "experiments/striker_duels.toml", "--variant", "v\0.toml"]],
    ids=["notebook", "experiment", "variant"],
)  # fmt: skip
def test_a_path_with_a_nul_byte_is_refused_in_one_line(capsys, args):
    assert_one_error(*run_cli(capsys, *args), "NUL byte")
