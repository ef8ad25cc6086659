"""Nothing accepted that is not read, no label that lies, no input that hangs or crashes.

The cases a hostile review of battles, battle files, dotted paths, experiments of battles,
``--scheduler`` and odd files found breaking the promise "one line, exit 2, nothing written,
no silent wrong number", and their neighbours.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from simlab.engine.cluster import parse_address
from simlab.inputs.errors import SimlabError
from tests.conftest import run_cli
from tests.test_hostile_inputs import assert_one_error

# its module's fixtures (a server, a browser, a cluster, runs) built once: every test of it on one worker
pytestmark = pytest.mark.xdist_group("reliability")

ROOT = Path(__file__).resolve().parents[1]
BATTLES = ROOT / "experiments" / "battles"
FIRETEAM = str(BATTLES / "striker_fireteam.toml")
#: The shipped battle of each system.
SHIPPED = {
    "striker": "striker_fireteam",
    "hitech_tft": "tft_hexes",
    "tyconian": "tyconian_squads",
    "space_v4": "space_squadron",
}


def battle_json(capsys, *args: str) -> dict:
    import json

    code, out, err = run_cli(capsys, "battle", *args, "--trials", "300", "--json")
    assert code == 0, err
    return json.loads(out)


# -- keys that set up the run are applied or refused -------------------------------------------


def test_rules_max_turns_of_a_battle_is_applied(capsys):
    """``--set rules.max_turns=3`` ends the battle after 3 turns and says 3 (ENG-2), as ``--rule`` does."""
    by_set = battle_json(capsys, "striker", FIRETEAM, "--set", "rules.max_turns=3")
    by_rule = battle_json(capsys, "striker", FIRETEAM, "--rule", "max_turns=3")
    assert by_set["metrics"] == by_rule["metrics"]
    assert max(int(k) for k in by_set["distributions"]["turns"]) <= 3
    assert by_set["rules"]["max_turns"] == 3
    assert not any(name.endswith("_turn_4") for name in by_set["metrics"])


def test_max_turns_given_twice_in_a_battle_file_is_refused(tmp_path, capsys):
    text = Path(FIRETEAM).read_text() + "\n[rules]\nmax_turns = 3\n"
    path = tmp_path / "twice.toml"
    path.write_text(text)
    assert_one_error(*run_cli(capsys, "battle", "striker", str(path)), "rules.max_turns", "given twice")


def test_max_turns_in_rules_alone_is_the_battles(tmp_path, capsys):
    text = Path(FIRETEAM).read_text().replace("max_turns = 20\n", "") + "\n[rules]\nmax_turns = 3\n"
    path = tmp_path / "rules.toml"
    path.write_text(text)
    assert battle_json(capsys, "striker", str(path))["rules"]["max_turns"] == 3


def test_a_grid_over_rules_max_turns_labels_what_was_run(tmp_path, capsys):
    (tmp_path / "battles").mkdir()
    (tmp_path / "battles" / "f.toml").write_text(Path(FIRETEAM).read_text())
    path = tmp_path / "turns.toml"
    path.write_text(
        'name = "turns"\nsystem = "striker"\nkind = "battle"\nbattle = "battles/f.toml"\ntrials = 300\n'
        '[grid]\n"rules.max_turns" = [1, 3]\n'
    )
    code, _, err = run_cli(capsys, "run", str(path), "--out", str(tmp_path / "out"))
    assert code == 0, err
    table = pd.read_csv(tmp_path / "out" / "turns" / "table.csv")
    turns = table[table.metric == "mean_turns"].set_index("rules.max_turns")["value"]
    assert turns[1] == 1.0 and 1.0 < turns[3] <= 3.0


@pytest.mark.parametrize("where", ["--set", "grid"])
def test_the_system_of_a_battle_cannot_be_changed_by_a_path(tmp_path, capsys, where):
    if where == "--set":
        args = ["battle", "striker", FIRETEAM, "--set", "system=tyconian"]
    else:
        (tmp_path / "battles").mkdir()
        (tmp_path / "battles" / "f.toml").write_text(Path(FIRETEAM).read_text())
        path = tmp_path / "sys.toml"
        path.write_text(
            'name = "sys"\nsystem = "striker"\nkind = "battle"\nbattle = "battles/f.toml"\ntrials = 300\n'
            '[grid]\nsystem = ["striker", "tyconian"]\n'
        )
        args = ["run", str(path), "--out", str(tmp_path / "out")]
    assert_one_error(*run_cli(capsys, *args), "system", "cannot change")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("system", "change", "words"),
    [
        ("hitech_tft", "a.tactics=2", ["a.tactics", "do not read tactics"]),
        ("tyconian", "b.tactics=1", ["b.tactics", "group's tactics input"]),
        ("space_v4", "a.tactics=1", ["a.tactics"]),
        ("striker", "a.formation.spacing_m=3", ["a.formation.spacing_m", "do not read spacing_m"]),
        ("space_v4", "b.spacing_m=3", ["b.formation.spacing_m"]),
        ("striker", "a.range_policy=close", ["a.formation.range_policy", "do not read range_policy"]),
        ("hitech_tft", "a.formation.range_policy=open", ["a.formation.range_policy"]),
        ("tyconian", "a.cover=partial", ["a.cover", "cover_av"]),
        ("hitech_tft", "b.cover=partial", ["b.cover", "dx_mod"]),
        ("space_v4", "a.cover=partial", ["a.cover", "sand"]),
    ],
)
def test_keys_a_system_does_not_read_are_refused(capsys, system, change, words):
    path = str(BATTLES / f"{SHIPPED[system]}.toml")
    assert_one_error(*run_cli(capsys, "battle", system, path, "--set", change, "--trials", "100"), *words)


# -- bounded reading -------------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
@pytest.mark.parametrize("command", ["battle", "run", "variant", "compare"])
def test_a_named_pipe_is_refused_at_once(tmp_path, capsys, command):
    pipe = tmp_path / "pipe.toml"
    os.mkfifo(pipe)
    args = {
        "battle": ["battle", "striker", str(pipe)],
        "run": ["run", str(pipe), "--out", str(tmp_path / "out")],
        "variant": ["attack", "hitech_tft", "--set", "weapon=rifle", "--variant", str(pipe)],
        "compare": ["compare", str(ROOT / "experiments" / "tft_autofire_modes.toml"), "--variant", str(pipe)],
    }[command]
    assert_one_error(*run_cli(capsys, *args), "pipe.toml", "pipe, socket or device")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="a device")
def test_a_device_is_refused(capsys):
    assert_one_error(*run_cli(capsys, "battle", "striker", "/dev/zero"), "/dev/zero", "regular file")


@pytest.mark.parametrize(
    "text",
    ["a = " + "[" * 5000 + "]" * 5000, "a" + ".a" * 5000 + " = 1", "x = 1\n" + "[" + ".".join(["t"] * 3000) + "]\n"],
    ids=["arrays", "dotted", "tables"],
)
@pytest.mark.parametrize("reader", ["battle", "run", "variant"])
def test_toml_nested_too_deep_is_one_line(tmp_path, capsys, text, reader):
    path = tmp_path / "deep.toml"
    path.write_text(text)
    args = {
        "battle": ["battle", "striker", str(path)],
        "run": ["run", str(path), "--out", str(tmp_path / "out")],
        "variant": ["attack", "hitech_tft", "--set", "weapon=rifle", "--variant", str(path)],
    }[reader]
    assert_one_error(*run_cli(capsys, *args), "deep.toml", "nested more than 32")


@pytest.mark.parametrize(
    "args",
    [
        ["battle", "striker", FIRETEAM, "--set", "a.groups.\u00b2.count=3"],
        ["battle", "striker", FIRETEAM, "--scheduler", "local:\u00b2"],
        ["battle", "striker", FIRETEAM, "--trials", "\u0663"],
        ["attack", "hitech_tft", "--set", "weapon=rifle", "--set", "dx=\u0661\u0663"],
        ["compare", str(ROOT / "experiments" / "tft_autofire_modes.toml"), "--batches", "1000000000"],
    ],
    ids=["group-index", "local", "trials", "dx", "batches"],
)
def test_digits_are_ascii_and_counts_bounded(capsys, args):
    assert_one_error(*run_cli(capsys, *args))


# -- scheduler addresses -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "address",
    ["tcp://bad", "tcp://", "tcp://[::1", "http://x", "tls://host:8786", "inproc://x", "local:0", "local:x",
     "tcp://host:0", "tcp://host:99999", "tcp://:8786", "x" * 5000, "local:\u00b2", "tcp://h\u00e9:1"],
)  # fmt: skip
def test_every_malformed_scheduler_is_one_line(address):
    with pytest.raises(SimlabError, match="invalid --scheduler") as info:
        parse_address(address)
    assert "\n" not in str(info.value) and len(str(info.value)) < 300


@pytest.mark.parametrize("command", ["attack", "duel", "battle", "run", "compare", "regress", "baseline", "bench"])
def test_a_malformed_scheduler_is_one_line_on_every_command(tmp_path, capsys, monkeypatch, command):
    monkeypatch.setenv("SIMLAB_SCHEDULER", "tcp://bad")
    experiment = str(ROOT / "experiments" / "tft_autofire_modes.toml")
    args = {
        "attack": ["attack", "hitech_tft", "--set", "weapon=rifle"],
        "duel": ["duel", "striker", "--a", "weapon=rifle", "--b", "weapon=rifle"],
        "battle": ["battle", "striker", FIRETEAM],
        "run": ["run", experiment, "--out", str(tmp_path / "out")],
        "compare": ["compare", experiment],
        "regress": ["regress", experiment],
        "baseline": ["baseline", experiment, "--dir", str(tmp_path / "base")],
        "bench": ["bench", "--trials", "1000", "--repeat", "1"],
    }[command]
    assert_one_error(*run_cli(capsys, *args), "invalid --scheduler", "tcp://bad")


def _listener(answer: bytes | None) -> tuple[socket.socket, int]:
    """A TCP port that is not a Dask scheduler: it answers ``answer`` to anything, or stays silent."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            if answer is not None:
                conn.recv(1024)
                conn.sendall(answer)
                conn.close()

    threading.Thread(target=serve, daemon=True).start()
    return server, server.getsockname()[1]


HTTP_400 = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"


def test_a_port_that_is_not_a_scheduler_ends_in_one_line_within_10_s():
    """A silent port and a web server, asked at once (each waits out the probe's deadline)."""
    import subprocess
    from subprocess import PIPE

    pytest.importorskip("distributed")
    listeners = [_listener(None), _listener(HTTP_400)]
    started = time.monotonic()
    try:
        command = [sys.executable, "-m", "simlab", "battle", "striker", FIRETEAM, "--scheduler"]
        processes = [
            subprocess.Popen([*command, f"tcp://127.0.0.1:{port}"], stdout=PIPE, stderr=PIPE, text=True)
            for _, port in listeners
        ]
        ended = [(process.wait(timeout=20), *process.communicate()) for process in processes]
    finally:
        for server, _ in listeners:
            server.close()
    assert time.monotonic() - started < 10
    for (code, out, err), (_, port) in zip(ended, listeners, strict=True):
        assert_one_error(code, out, err, f"127.0.0.1:{port}")
        assert "Dask scheduler" in err


# -- every user string escaped -------------------------------------------------------------

MARKUP = "<script>alert('x')</script>"
RAW = ("<script>alert", "<img src=x", "<b><script")


def raw_markup(text: str) -> list[str]:
    return [needle for needle in RAW if needle in text]


def test_markup_in_every_input_is_escaped_in_every_report(tmp_path, capsys):
    """Grid values, descriptions, side and group names: none of them markup in report.html or report.md."""
    (tmp_path / "battles").mkdir()
    battle = Path(FIRETEAM).read_text()
    battle = battle.replace('name = "fireteam"', 'name = "<img src=x onerror=alert(1)>"')
    battle = battle.replace('name = "rifleman"', f'name = "{MARKUP}"')
    battle = battle.replace('description = "', f'description = "{MARKUP} ')
    (tmp_path / "battles" / "f.toml").write_text(battle)
    (tmp_path / "b.toml").write_text(
        f'name = "b"\nsystem = "striker"\nkind = "battle"\nbattle = "battles/f.toml"\ntrials = 200\n'
        f'description = "{MARKUP}"\n[grid]\n"a.groups.0.name" = ["{MARKUP}", "<img src=x onerror=alert(2)>"]\n'
    )
    (tmp_path / "a.toml").write_text(
        f'name = "a"\nsystem = "hitech_tft"\nmethod = "exact"\ndescription = "<b>{MARKUP}</b>"\n'
        '[fixed]\narmor = "flak jacket"\n[grid]\nweapon = ["assault rifle"]\n'
        f'"weapon.notes" = ["{MARKUP}", "<img src=x onerror=alert(1)>"]\n'
    )
    out = tmp_path / "out"
    code, _, err = run_cli(capsys, "run", str(tmp_path / "a.toml"), str(tmp_path / "b.toml"), "--out", str(out))
    assert code == 0, err
    written = [p for p in out.rglob("*") if p.suffix in (".html", ".md")]
    assert len(written) == 4
    for path in written:
        text = path.read_text()
        assert "alert" in text, path  # the text is there, escaped
        assert not raw_markup(text), (path, raw_markup(text))


def test_markup_in_a_query_is_escaped_on_every_page():
    from fastapi.testclient import TestClient

    from simlab.web.app import create_app

    client = TestClient(create_app(battles=BATTLES, results=ROOT / "results"))
    pages = [
        ("/attack/hitech_tft", {"weapon": "assault rifle", "weapon.notes": MARKUP}),
        ("/attack/hitech_tft", {"weapon": MARKUP}),
        ("/battle/striker", {"battle": "striker_fireteam", "a.name": MARKUP, "a.groups.0.name": MARKUP}),
        ("/battle/striker", {"battle": MARKUP}),
        ("/duel/striker", {"a.weapon": MARKUP, "b.weapon": "rifle"}),
        ("/sweep/hitech_tft", {"x": MARKUP}),
        ("/compare/hitech_tft", {"vs": MARKUP}),
    ]
    for path, query in pages:
        response = client.get(path, params=query)
        assert response.status_code in (200, 400), (path, response.status_code)
        assert not raw_markup(response.text), (path, query, raw_markup(response.text))


@pytest.mark.parametrize(
    "path", ["/api/attack/..%2F..%2Fetc%2Fpasswd", "/csv/duel/..%2Fx", "/api/battle/%2e%2e%2fsecret", "/api/nothing"]
)
def test_a_path_simlab_does_not_serve_is_the_projects_json_error(path):
    from fastapi.testclient import TestClient

    from simlab.web.app import create_app

    response = TestClient(create_app(battles=BATTLES)).get(path)
    assert response.status_code == 404
    assert set(response.json()) == {"error"} and "no such page" in response.json()["error"]


# -- every stop is clean -------------------------------------------------------------------

LONG = ["--trials", "200000000", "--max-trials", "100000000000"]


def _group_alive(pgid: int) -> list[int]:
    """Processes of a process group that still run (zombies, already ended, do not count)."""
    alive = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            alive.append(int(stat.parent.name))
    return alive


def stop_after(args: list[str], signum: int, delay: float, cwd: Path | None = None) -> tuple[int, float, str]:
    """Start ``python -m simlab ARGS`` in its own process group, signal it after ``delay`` s: (status, s, stderr)."""
    import signal
    import subprocess

    process = subprocess.Popen(
        [sys.executable, "-m", "simlab", *args], cwd=cwd or ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True, start_new_session=True,
    )  # fmt: skip
    try:
        time.sleep(delay)
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        process.send_signal(signum)
        started = time.monotonic()
        process.wait(timeout=15)
        took = time.monotonic() - started
        deadline = time.monotonic() + 2
        while _group_alive(process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _group_alive(process.pid), "worker processes were left running"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    return process.returncode, took, process.stderr.read() if process.stderr else ""


def long_battle_experiment(directory: Path, name: str) -> Path:
    (directory / "battles").mkdir(exist_ok=True)
    (directory / "battles" / "t.toml").write_text((BATTLES / "tyconian_squads.toml").read_text())
    path = directory / f"{name}.toml"
    path.write_text(
        f'name = "{name}"\nsystem = "tyconian"\nkind = "battle"\nbattle = "battles/t.toml"\ntrials = 100000000\n'
    )
    return path


@pytest.mark.skipif(sys.platform != "linux", reason="process groups read from /proc")
@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
def test_a_signal_ends_a_long_battle_within_2_s(signame):
    import signal

    signum = getattr(signal, signame)
    code, took, err = stop_after(["battle", "tyconian", str(BATTLES / "tyconian_squads.toml"), *LONG], signum, 2)
    assert took < 2, took
    assert code == 128 + signum
    assert err.strip().splitlines()[-1] == f"error: stopped by {signame}; nothing was left half-written"


@pytest.mark.skipif(sys.platform != "linux", reason="process groups read from /proc")
def test_sigterm_ends_run_with_workers_keeping_old_results(tmp_path):
    import signal

    out = tmp_path / "out"
    old = out / "first" / "table.csv"
    old.parent.mkdir(parents=True)
    old.write_text("an old result\n")
    files = [str(long_battle_experiment(tmp_path, name)) for name in ("first", "second")]
    code, took, err = stop_after(["run", *files, "--jobs", "2", "--out", str(out), "--max-trials", "10000000000"],
                                 signal.SIGTERM, 3)  # fmt: skip
    assert took < 2 and code == 143, (took, code, err)
    assert old.read_text() == "an old result\n"
    assert sorted(p.name for p in out.iterdir()) == ["first"]  # no stray staging or second result
    assert sorted(p.name for p in (out / "first").iterdir()) == ["table.csv"]


@pytest.mark.skipif(sys.platform != "linux", reason="process groups read from /proc")
def test_sigint_ends_compare_within_2_s(tmp_path):
    import signal

    experiment = long_battle_experiment(tmp_path, "third")
    variant = ROOT / "experiments" / "variants" / "tyconian_rounding_down.toml"
    code, took, _ = stop_after(
        ["compare", str(experiment), "--variant", str(variant), "--out", str(tmp_path / "out"),
         "--max-trials", "10000000000"], signal.SIGINT, 2,
    )  # fmt: skip
    assert took < 2 and code == 130
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.csv"))


@pytest.mark.skipif(sys.platform != "linux", reason="process groups read from /proc")
def test_sigterm_ends_regress_with_its_workers_within_2_s():
    import signal

    code, took, _ = stop_after(["regress", "--jobs", "2"], signal.SIGTERM, 3)
    assert took < 2 and code == 143


# -- the server protects itself ----------------------------------------------------------------


def start_server() -> tuple[str, Any]:
    """``simlab serve`` in a process of its own, as a designer starts it: (its address, the process)."""
    import subprocess
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "simlab", "serve", "--port", str(port), "--max-trials", "200000000"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(f"{base}/api/status", timeout=1)
            break
        except OSError:
            time.sleep(0.05)
    return base, process


@pytest.fixture(scope="module")
def server():
    base, process = start_server()
    yield base, process
    if process.poll() is None:
        process.kill()
        process.wait()


def _status(base: str) -> dict:
    import json
    import urllib.request

    return json.loads(urllib.request.urlopen(f"{base}/api/status", timeout=5).read())


def _get(base: str, path: str, timeout: float) -> int | str:
    import urllib.error
    import urllib.request

    try:
        return urllib.request.urlopen(base + path, timeout=timeout).status
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError as exc:
        return type(exc).__name__


SLOW_BATTLE = "battle=tyconian_squads&trials=100000000"
SLOW_DUEL = "a.weapon=rifle&b.weapon=rifle&trials=100000000"
SLOW_ATTACK = "weapon=assault+rifle&mode=full&method=monte_carlo&trials=100000000"


@pytest.mark.parametrize(
    "path",
    [f"/battle/tyconian?{SLOW_BATTLE}", f"/api/battle/tyconian?{SLOW_BATTLE}", f"/csv/battle/tyconian?{SLOW_BATTLE}",
     f"/chart/battle/tyconian?{SLOW_BATTLE}&distribution=turns", f"/api/duel/striker?{SLOW_DUEL}",
     f"/csv/duel/striker?{SLOW_DUEL}", f"/chart/duel/striker?{SLOW_DUEL}&distribution=turns",
     f"/attack/hitech_tft?{SLOW_ATTACK}", f"/api/attack/hitech_tft?{SLOW_ATTACK}",
     f"/csv/attack/hitech_tft?{SLOW_ATTACK}", f"/chart/attack/hitech_tft?{SLOW_ATTACK}&distribution=damage"],
)  # fmt: skip
def test_work_for_a_client_that_has_gone_stops_within_1_s(server, path):
    base, _ = server
    assert _get(base, path, timeout=0.6) == "TimeoutError"  # the client gives up
    gone = time.monotonic()
    while _status(base)["running"] and time.monotonic() - gone < 5:
        time.sleep(0.05)
    assert _status(base)["running"] == 0 and time.monotonic() - gone < 1.0


def test_sampled_work_is_bounded_and_exact_answers_never_wait(server):
    base, _ = server
    codes: list[int | str] = []
    clients = [threading.Thread(target=lambda: codes.append(_get(base, f"/api/battle/tyconian?{SLOW_BATTLE}", 3)))
               for _ in range(40)]  # fmt: skip
    for client in clients:
        client.start()
    time.sleep(1)
    started = time.monotonic()
    assert _get(base, "/api/attack/hitech_tft?weapon=assault+rifle", timeout=5) == 200
    assert time.monotonic() - started < 1
    for client in clients:
        client.join()
    assert 503 in codes and "TimeoutError" in codes  # some waited their turn, the rest were told at once
    assert _status(base)["sampled_admitted"] <= _status(base)["sampled_slots"] * 9


def test_sigterm_stops_the_server_within_2_s_while_work_runs():
    import signal

    base, process = start_server()
    worker = threading.Thread(target=_get, args=(base, f"/api/battle/tyconian?{SLOW_BATTLE}", 10))
    worker.start()
    time.sleep(0.5)
    process.send_signal(signal.SIGTERM)
    started = time.monotonic()
    process.wait(timeout=10)
    assert time.monotonic() - started < 2
    worker.join()


@pytest.mark.parametrize("args", [["--host", "nosuchhost.invalid"], ["--port", "PORT"]])
def test_serve_start_up_failures_are_one_line(capsys, args):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        args = [a.replace("PORT", str(taken.getsockname()[1])) for a in args]
        assert_one_error(*run_cli(capsys, "serve", *args), "cannot serve on")


def test_a_deeply_nested_upload_and_superscript_paths_are_400_on_the_web():
    from fastapi.testclient import TestClient

    from simlab.web.app import create_app

    client = TestClient(create_app(battles=BATTLES))
    deep = ("a = " + "[" * 3000 + "]" * 3000).encode()
    page = client.post("/attack/hitech_tft?weapon=assault+rifle", files={"variant_file": ("deep.toml", deep)})
    assert page.status_code == 400 and "nested more than 32" in page.text
    for path in (
        "/api/battle/striker?battle=striker_fireteam&a.groups.\u00b2.count=2",
        "/api/attack/hitech_tft?weapon=assault+rifle&dx=\u0661\u0662",
        "/api/duel/striker?trials=\u0663",
    ):
        response = client.get(path)
        assert response.status_code == 400 and set(response.json()) == {"error"}, (path, response.text)
