"""simlab serve: the JSON API equals the command line's, every page renders, bad input is a 400.

Through the ASGI test client, then a real server started by ``simlab serve`` (the issue's
``curl`` check), then real headless Chromium on the Ask page.
"""

from __future__ import annotations

import html
import json
import re
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

import pytest
from browser import chromium, needs_chromium, serving
from conftest import run_cli

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from simlab.inputs.params import describe
from simlab.systems import all_systems
from simlab.web.app import create_app

# its module's fixtures (a server, a browser, a cluster, runs) built once: every test of it on one worker
pytestmark = pytest.mark.xdist_group("web")

ASSAULT_RIFLE = {"weapon": "assault rifle", "armor": "flak jacket", "dx": "12", "mode": "four", "range_m": "20"}

#: (system, query, the same as command-line arguments after ``simlab attack SYSTEM``).
ATTACKS = [
    ("hitech_tft", {**ASSAULT_RIFLE, "method": "exact"}, ["--exact"]),
    ("hitech_tft", {**ASSAULT_RIFLE, "rule.criticals": "false", "method": "exact"}, ["--exact"]),
    ("striker", {"weapon": "rifle", "armor": "cloth", "method": "monte_carlo", "trials": "3000", "seed": "7"}, []),
    ("tyconian", {"weapon": "assault rifle", "method": "exact"}, ["--exact"]),
    ("tyconian", {"kind": "explosion", "explosive": "hand grenade", "distance_m": "2", "method": "exact"}, ["--exact"]),
    (
        "space_v4",
        {"weapon": "missile", "attacker": "frigate", "defender": "patrol cruiser", "method": "exact"},
        ["--exact"],
    ),
]


def _cli_args(system: str, query: dict[str, str], extra: list[str]) -> list[str]:
    args = ["attack", system]
    for key, value in query.items():
        if key in ("method", "trials", "seed", "kind"):
            if key != "method":
                args += [f"--{key}", value]
        elif key.startswith("rule."):
            args += ["--rule", f"{key.removeprefix('rule.')}={value}"]
        else:
            args += ["--set", f"{key}={value}"]
    return [*args, *extra, "--json"]


@pytest.fixture(scope="module")
def client(tmp_path_factory) -> TestClient:
    results = tmp_path_factory.mktemp("results")
    (results / "small").mkdir()
    (results / "small" / "report.html").write_text("<h1>small</h1>", encoding="utf-8")
    (results / "small" / "provenance.json").write_text('{"rows": 12}', encoding="utf-8")
    return TestClient(create_app(max_trials=200_000, results=results))


@pytest.mark.parametrize(("system", "query", "extra"), ATTACKS, ids=lambda v: v if isinstance(v, str) else None)
def test_the_api_answers_exactly_the_json_of_the_command_line(client, capsys, system, query, extra):
    response = client.get(f"/api/attack/{system}", params=query)
    assert response.status_code == 200, response.text
    code, out, _ = run_cli(capsys, *_cli_args(system, query, extra))
    assert code == 0
    assert response.text == out.rstrip("\n")  # the very same text


def test_the_duel_api_answers_exactly_the_json_of_the_command_line(client, capsys):
    query = {"a.weapon": "rifle", "b.weapon": "submachinegun", "b.armor": "cloth", "trials": "2000", "seed": "3"}
    response = client.get("/api/duel/striker", params=query)
    assert response.status_code == 200, response.text
    args = ["duel", "striker", "--a", "weapon=rifle", "--b", "weapon=submachinegun", "--b", "armor=cloth"]
    code, out, _ = run_cli(capsys, *args, "--trials", "2000", "--seed", "3", "--json")
    assert code == 0 and response.text == out.rstrip("\n")


def test_the_acceptance_numbers_show_in_the_api_and_on_the_page(client):
    query = {**ASSAULT_RIFLE, "method": "exact"}
    metrics = client.get("/api/attack/hitech_tft", params=query).json()["metrics"]
    assert round(metrics["p_hit"], 6) == 0.625
    assert round(metrics["mean_hits"], 6) == 0.930556 and round(metrics["mean_damage"], 6) == 3.333333
    page = client.get("/attack/hitech_tft", params=query)
    assert page.status_code == 200
    for shown in ("0.625", "0.930556", "3.33333"):
        assert shown in page.text
    assert 'simlab attack hitech_tft --set "weapon=assault rifle"' in page.text.replace("&#34;", '"')


@pytest.mark.parametrize(
    ("path", "said"),
    [
        ("/api/attack/hitech_tft?armor=none", "no weapon: give weapon=NAME (a row of the weapons table)"),
        ("/api/duel/striker?a.skill=abc", "invalid value 'abc' for a.skill"),
        ("/api/attack/hitech_tft?weapon=lt+pistol&method=monte_carlo&trials=100000000", "ask for fewer"),
        ("/api/balance/hitech_tft?do=solve&find=dx&in=6..20&target=p_hit%3Dnan&weapon=lt+pistol",
         "invalid value 'p_hit=nan' for target"),
        ("/api/balance/tyconian?do=tournament&options=a:skill%3D100|b:skill%3D2",
         "option 'a': invalid value '100' for skill"),
        ("/api/balance/tyconian?do=sensitivity&vary=skill%3D0..4&metric=p_hit", "vary: expected two knobs or more"),
        ("/api/balance/tyconian?do=sensitivity&vary=skill%3D0..4;skill%3D1..3&metric=p_hit", "skill is given twice"),
        ("/balance/hitech_tft?do=nope", "invalid value 'nope' for do: expected solve"),
    ],
    ids=["no row", "side input", "trial cap", "solve target", "tournament option", "one knob", "a knob twice", "do"],
)  # fmt: skip
def test_a_pages_message_names_its_fields_never_a_flag(client, path, said):
    """Every refusal on the page, its JSON and CSV is in the page's words (``dx``, ``a.skill``), not ``--set dx``."""
    response = client.get(path)
    message = response.json()["error"] if path.startswith("/api/") else html.unescape(
        re.search(r'id="error"[^>]*>(.*?)</', response.text, re.S).group(1))
    assert response.status_code == 400 and said in message and "--" not in message, message


@pytest.mark.parametrize(
    ("path", "said"),
    [("/compare/hitech_tft?weapon=nope", "unknown weapon 'nope'"), ("/sweep/hitech_tft?dx=abc", "for dx:"),
     ("/balance/hitech_tft?variant=nope", "unknown variant 'nope'"), ("/balance/hitech_tft?do=nope", "for do:"),
     ("/compare/hitech_tft", ""), ("/balance/striker?do=tournament", "")],
    ids=["compare", "sweep", "balance", "do", "compare empty", "balance empty"],
)  # fmt: skip
def test_a_views_address_is_read_before_anything_is_asked(client, path, said):
    """A mistake in a view's address is said at once (HTTP 400); an address that gives nothing opens empty."""
    response = client.get(path)
    if said:
        assert response.status_code == 400 and said in html.unescape(response.text), path
    else:
        assert response.status_code == 200 and 'id="error"' not in response.text, path


@pytest.mark.parametrize(
    ("query", "args"),
    [
        ({"weapon": "gaus", "method": "exact"}, ["--set", "weapon=gaus", "--exact"]),
        (
            {**ASSAULT_RIFLE, "dx": "-3", "method": "exact"},
            ["--set", "weapon=assault rifle", "--set", "dx=-3", "--exact"],
        ),
        (
            {**ASSAULT_RIFLE, "rule.nope": "1", "method": "exact"},
            ["--set", "weapon=assault rifle", "--rule", "nope=1", "--exact"],
        ),
    ],
    ids=["unknown weapon", "dx out of range", "unknown rule"],
)
def test_bad_input_is_a_400_with_the_command_lines_message_in_the_pages_words(client, capsys, query, args):
    """The page says what the command line says, naming its fields where the command line names flags."""
    response = client.get("/api/attack/hitech_tft", params=query)
    code, _, err = run_cli(capsys, "attack", "hitech_tft", *args)
    assert code == 2 and response.status_code == 400
    said = err.strip().removeprefix("error: ").replace("--set ", "").replace("--rule name", "rule parameter")
    assert response.json() == {"error": said} and "--" not in said
    page = client.get("/attack/hitech_tft", params=query)
    assert page.status_code == 400 and 'id="error"' in page.text and "Traceback" not in page.text


def test_requests_are_bounded_and_malformed_queries_refused(client):
    too_many = client.get(
        "/api/attack/striker", params={"weapon": "rifle", "method": "monte_carlo", "trials": "10000000"}
    )
    assert too_many.status_code == 400 and "trials" in too_many.json()["error"]
    for query, fragment in [
        ({"weapon": "rifle", "method": "guess"}, "method"),
        ({"weapon": "rifle", "method": "monte_carlo", "trials": "many"}, "trials"),
    ]:
        response = client.get("/api/attack/striker", params=query)
        assert response.status_code == 400 and fragment in response.json()["error"]
    assert client.get("/api/attack/nosuch").status_code == 400
    assert client.get("/api/attack/striker?weapon=rifle&weapon=rifle").status_code == 400


def test_every_page_of_every_system_and_question_renders(client):
    assert client.get("/").status_code == 200
    for system in all_systems():
        scenarios = [kind for kind, question in system.questions.items() if question.form == "scenario"]
        for view in ("sweep", "compare"):  # the views of several answers, before anything is chosen
            for kind in scenarios:
                page = client.get(f"/{view}/{system.name}", params={} if kind == "attack" else {"kind": kind})
                assert page.status_code == 200 and 'name="rule.' in page.text, (view, system.name, kind)
        for kind, chosen in system.questions.items():  # every kind at its own address
            page = client.get(f"/{kind}/{system.name}")  # opened on its example: within this server's cap, or said
            assert page.status_code == 200 or "above the cap" in page.text, (system.name, kind, page.text[:300])
            assert "<form" in page.text and 'name="rule.' in page.text
            if chosen.form != "scenario":
                continue
            if kind != "attack":  # the older address of a further question: the same page
                older = client.get(f"/attack/{system.name}", params={"kind": kind})
                assert older.status_code == page.status_code and f"<h1>{html.escape(chosen.title)}</h1>" in older.text
            for field in describe(chosen.inputs_type):
                assert f'name="{field["name"]}"' in page.text
                if field["name"] in chosen.row_inputs:  # a select of the table's rows
                    assert f'<select id="f-{field["name"]}" name="{field["name"]}">' in page.text


def test_a_link_reproduces_the_sampled_answer_exactly(client):
    query = {"weapon": "rifle", "armor": "cloth", "method": "monte_carlo", "trials": "5000", "seed": "11"}
    first = client.get("/attack/striker", params=query)
    second = client.get("/attack/striker", params=query)
    assert first.status_code == 200 and "Sampled answer: 5,000 trials, seed 11" in first.text
    assert first.text == second.text
    fragment = client.get("/attack/striker", params=query, headers={"HX-Request": "true"})
    assert fragment.text.lstrip().startswith("<h2>") and "<form" not in fragment.text  # htmx swaps the answer only


def test_results_are_listed_and_only_they_are_served(client):
    listing = client.get("/results")
    assert listing.status_code == 200 and "/results/small/report.html" in listing.text
    assert client.get("/results/small/report.html").text == "<h1>small</h1>"
    for path in ("/results/other/report.html", "/results/small/secret.txt", "/results/..%2F..%2Fetc/passwd"):
        assert client.get(path).status_code in (400, 404)


def test_user_strings_are_escaped(client):
    page = client.get("/attack/striker", params={"weapon": "<script>alert(1)</script>", "method": "exact"})
    assert page.status_code == 400 and "<script>alert(1)</script>" not in page.text


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``simlab serve`` in a process of its own: a real server on a free port."""
    with serving(tmp_path_factory.mktemp("r")) as url:
        yield url


def test_a_real_server_answers_the_issues_curl(server, capsys):
    query = urlencode({**ASSAULT_RIFLE, "method": "exact"})
    text = urllib.request.urlopen(f"{server}/api/attack/hitech_tft?{query}", timeout=30).read().decode()
    code, out, _ = run_cli(capsys, *_cli_args("hitech_tft", {**ASSAULT_RIFLE, "method": "exact"}, ["--exact"]))
    assert code == 0 and text == out.rstrip("\n")
    with pytest.raises(urllib.error.HTTPError) as bad:
        urllib.request.urlopen(f"{server}/api/attack/hitech_tft?weapon=gaus&method=exact", timeout=30)
    assert bad.value.code == 400 and "unknown weapon 'gaus'" in json.loads(bad.value.read())["error"]
    page = urllib.request.urlopen(f"{server}/attack/hitech_tft?{query}", timeout=30).read().decode()
    assert "0.625" in page  # the same address without /api is a page with those numbers


def test_a_client_that_goes_away_stops_its_work_and_the_server_keeps_serving(server):
    status = f"{server}/api/status"
    assert json.loads(urllib.request.urlopen(status, timeout=10).read())["running"] == 0
    query = urlencode({"a.ship": "free trader", "b.ship": "free trader", "trials": "2000000"})  # a minute of work
    host, port = server.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(f"GET /api/duel/space_v4?{query} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        for _ in range(100):  # the duels have started, and report how far they have got
            now = json.loads(urllib.request.urlopen(status, timeout=10).read())
            if now["running"] == 1 and now["trials_done"][0] > 0:
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the duels never started")
        started = time.perf_counter()
        page = urllib.request.urlopen(f"{server}/attack/striker?weapon=rifle&method=exact", timeout=10)
        assert page.status == 200 and time.perf_counter() - started < 5  # others are served meanwhile
    for _ in range(60):  # gone: its duels (15 s of work) stop within 3 s, at the end of a block
        if json.loads(urllib.request.urlopen(status, timeout=10).read())["running"] == 0:
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the work of a client that went away did not stop")


@needs_chromium
def test_in_chromium_changing_the_weapon_updates_the_exact_answer(server, capsys):
    from selenium.webdriver.support.ui import Select, WebDriverWait

    with chromium() as browser:
        browser.get(f"{server}/attack/hitech_tft?{urlencode({**ASSAULT_RIFLE, 'method': 'exact'})}")
        value = "return document.querySelector('tr[data-metric=p_hit] .value')?.textContent"
        assert browser.execute_script(value) == "0.625"
        Select(browser.find_element("id", "f-weapon")).select_by_value("gauss rifle")
        _, out, _ = run_cli(
            capsys, *_cli_args("hitech_tft", {**ASSAULT_RIFLE, "weapon": "gauss rifle", "method": "exact"}, ["--exact"])
        )
        expected = f"{json.loads(out)['metrics']['p_hit']:.6g}"
        WebDriverWait(browser, 20).until(lambda b: b.execute_script(value) == expected)
        address = browser.current_url.replace("%20", "+")
        assert "weapon=gauss+rifle" in address and "ammo=" not in address  # the address follows, blanks left out
        shared = browser.current_url
        browser.get(shared)
        assert browser.execute_script(value) == expected


def test_every_duel_page_renders_and_samples_as_the_command_line(client, capsys):
    for system in all_systems():
        page = client.get(f"/duel/{system.name}")
        assert page.status_code == (200 if system.asks("duel") else 400)
    query = {"a.weapon": "rifle", "b.weapon": "submachinegun", "trials": "2000", "seed": "3"}
    page = client.get("/duel/striker", params=query)
    assert page.status_code == 200 and 'data-metric="p_a_wins"' in page.text
    api = client.get("/api/duel/striker", params=query).json()
    assert f"{api['metrics']['p_a_wins']:.6g}" in page.text
    assert "simlab duel striker --a weapon=rifle --b weapon=submachinegun --trials 2000 --seed 3" in page.text


def test_the_battle_view_edits_groups_and_samples_as_the_command_line(client, capsys):
    """ENG-1 to ENG-5 on the page: the battle's groups as fields, the CLI's numbers, survival curves."""
    for system in all_systems():
        page = client.get(f"/battle/{system.name}")
        assert page.status_code == (200 if system.asks("battle") else 400)
    query = {"battle": "striker_fireteam", "a.groups.0.count": "5", "b.doctrine.suppressors": "1", "trials": "3000",
             "seed": "2"}  # fmt: skip
    page = client.get("/battle/striker", params=query)
    assert page.status_code == 200 and 'data-metric="p_a_wins"' in page.text
    assert 'name="a.groups.0.weapon"' in page.text and 'name="b.doctrine.targets"' in page.text
    assert "distribution=survival" in page.text
    api = client.get("/api/battle/striker", params=query).json()
    command = ["battle", "striker", "experiments/battles/striker_fireteam.toml", "--set", "a.groups.0.count=5",
               "--set", "b.doctrine.suppressors=1", "--trials", "3000", "--seed", "2", "--json"]  # fmt: skip
    code, out, _ = run_cli(capsys, *command)
    assert code == 0 and api == json.loads(out)
    assert f"{api['metrics']['p_a_wins']:.6g}" in page.text
    assert "simlab battle striker experiments/battles/striker_fireteam.toml --set a.groups.0.count=5" in page.text
    added = client.get("/battle/striker", params={**query, "b.groups.1.count": "1"})
    assert added.status_code == 200 and "group 1: 1 × machinegunner" in added.text
    bad = client.get("/battle/striker", params={**query, "a.groups.0.weapon": "gaus"})
    assert bad.status_code == 400 and "a.groups.0.weapon: unknown weapon &#39;gaus&#39;" in bad.text
    assert client.get("/api/battle/striker", params={**query, "a.groups.0.weapon": "gaus"}).status_code == 400


COMPARE = {"vary": "weapon", "options": "assault rifle,gauss rifle,laser rifle", "armor": "flak jacket"}
SWEEP = {
    "x": "range_m",
    "values": "4,20,80",
    "metric": "p_hit",
    "series": "weapon",
    "series_values": "assault rifle,gauss rifle",
    "armor": "flak jacket",
    "method": "exact",
}


def test_a_sweep_draws_the_chart_and_gives_the_experiment_that_runs_it(client, capsys, tmp_path):
    import html

    assert client.get("/sweep/hitech_tft").status_code == 200
    page = client.get("/sweep/hitech_tft", params=SWEEP)
    assert page.status_code == 200 and 'data-chart="sweep"' in page.text
    points = client.get("/api/sweep/hitech_tft", params=SWEEP).json()["points"]
    assert len(points) == 6
    one = client.get(
        "/api/attack/hitech_tft",
        params={"weapon": "gauss rifle", "armor": "flak jacket", "range_m": "80", "method": "exact"},
    ).json()
    assert points[-1]["metrics"] == one["metrics"]  # each point is one answer of the system
    toml = html.unescape(page.text.split('id="command">', 1)[1].split("</code>", 1)[0])
    (tmp_path / "sweep.toml").write_text(toml, encoding="utf-8")
    code, _, err = run_cli(capsys, "run", str(tmp_path / "sweep.toml"), "--out", str(tmp_path / "out"), "--jobs", "1")
    assert code == 0, err
    table = (tmp_path / "out" / "sweep" / "table.csv").read_text()
    assert "gauss rifle" in table and (tmp_path / "out" / "sweep" / "curve_p_hit_range_m.png").exists()
    heatmap = client.get("/sweep/hitech_tft", params={**SWEEP, "x": "armor", "values": "none,flak jacket"})
    assert heatmap.status_code == 200 and 'data-chart="sweep"' in heatmap.text
    too_many = client.get("/api/sweep/hitech_tft", params={**SWEEP, "values": ",".join(str(v) for v in range(300))})
    assert too_many.status_code == 400 and "more than 400" in too_many.json()["error"]


def test_compare_puts_loadouts_side_by_side_with_their_differences(client):
    query = {"vary": "weapon", "options": "assault rifle,gauss rifle", "armor": "flak jacket", "method": "exact"}
    page = client.get("/compare/hitech_tft", params=query)
    assert page.status_code == 200 and 'id="comparison"' in page.text
    table = {row["metric"]: row for row in client.get("/api/compare/hitech_tft", params=query).json()["table"]}
    one = {
        name: client.get(
            "/api/attack/hitech_tft", params={"weapon": name, "armor": "flak jacket", "method": "exact"}
        ).json()["metrics"]["mean_damage"]
        for name in ("assault rifle", "gauss rifle")
    }
    row = table["mean_damage"]
    assert row["weapon = assault rifle"] == one["assault rifle"] and row["weapon = gauss rifle"] == one["gauss rifle"]
    assert row["Δ weapon = gauss rifle"] == one["gauss rifle"] - one["assault rifle"]
    assert client.get("/api/compare/hitech_tft", params={"weapon": "lt pistol", "method": "exact"}).status_code == 400


def test_a_variant_is_compared_on_common_random_numbers_as_simlab_compare_does(client, capsys):
    variant = "striker_blowthrough_off"
    query = {"weapon": "gauss rifle", "armor": "cloth", "variant": variant, "method": "monte_carlo"}
    query |= {"trials": "20000", "seed": "5"}
    table = client.get("/api/compare/striker", params=query).json()["table"]
    changed_somewhere = False
    for row in table:
        base, changed = row["this loadout, base"], row[f"this loadout, {variant}"]
        delta, half = row[f"Δ this loadout, {variant}"], row[f"± this loadout, {variant}"]
        assert abs(delta - (changed - base)) < 1e-9 and half >= 0  # the same trials, batch by batch
        changed_somewhere = changed_somewhere or abs(delta) > 2 * half > 0
    assert changed_somewhere
    api = client.get("/api/attack/striker", params=query)
    code, out, _ = run_cli(
        capsys, "attack", "striker", "--set", "weapon=gauss rifle", "--set", "armor=cloth",
        "--variant", f"experiments/variants/{variant}.toml", "--trials", "20000", "--seed", "5", "--json",
    )  # fmt: skip
    assert code == 0 and api.text == out.rstrip("\n")  # a variant by name is the command line's --variant
    unknown = client.get("/api/attack/striker", params={**query, "variant": "../../etc/passwd"})
    assert unknown.status_code == 400 and "unknown variant" in unknown.json()["error"]


def test_a_row_edited_on_the_page_is_the_command_lines_row_column_override(client, capsys):
    query = {"weapon": "assault rifle", "weapon.adds": "3", "armor": "flak jacket", "method": "exact"}
    page = client.get("/attack/hitech_tft", params=query)
    assert page.status_code == 200 and 'name="weapon.adds" value="3"' in page.text and 'name="armor.' in page.text
    api = client.get("/api/attack/hitech_tft", params=query)
    code, out, _ = run_cli(capsys, *_cli_args("hitech_tft", query, ["--exact"]))
    assert code == 0 and api.text == out.rstrip("\n")


def test_an_uploaded_variant_is_read_in_memory_never_written(client, capsys, tmp_path):
    text = Path("experiments/variants/tft_no_criticals.toml").read_text(encoding="utf-8")
    query = {"weapon": "gauss rifle", "armor": "flak jacket", "method": "exact"}
    before = sorted(p.name for p in Path("experiments/variants").iterdir())
    page = client.post(
        f"/attack/hitech_tft?{urlencode(query)}", files={"variant_file": ("mine.toml", text.encode(), "text/plain")}
    )
    assert page.status_code == 200 and 'id="variant-note"' in page.text
    assert "variant=upload" in str(page.url)  # carried by the address from now on, not by a file
    assert sorted(p.name for p in Path("experiments/variants").iterdir()) == before  # nothing kept
    (tmp_path / "mine.toml").write_text(text, encoding="utf-8")
    code, out, _ = run_cli(
        capsys, *_cli_args("hitech_tft", query, ["--exact", "--variant", str(tmp_path / "mine.toml")])
    )
    expected = json.loads(out)["metrics"]["p_killed"]
    row = f'data-metric="p_killed"><td title="p_killed">chance to kill</td><td class="value">{expected:.6g}<'
    assert code == 0 and row in page.text
    bad = client.post(f"/attack/hitech_tft?{urlencode(query)}", files={"variant_file": ("bad.toml", b"system = 1")})
    assert bad.status_code == 400 and "bad.toml" in bad.text and "Traceback" not in bad.text
    other = client.post(
        f"/attack/striker?{urlencode(query)}", files={"variant_file": ("mine.toml", text.encode(), "text/plain")}
    )
    assert other.status_code == 400 and "is for &#39;hitech_tft&#39;" in other.text  # escaped, as every user string


def test_every_link_an_answer_offers_works(client):
    import html
    import re

    views = [
        f"/attack/hitech_tft?{urlencode({**ASSAULT_RIFLE, 'method': 'exact'})}",
        f"/attack/striker?{urlencode({'weapon': 'rifle', 'method': 'monte_carlo', 'trials': '2000'})}",
        f"/duel/striker?{urlencode({'a.weapon': 'rifle', 'b.weapon': 'rifle', 'trials': '2000'})}",
        f"/battle/striker?{urlencode({'battle': 'striker_fireteam', 'a.groups.0.count': '5', 'trials': '2000'})}",
        f"/sweep/hitech_tft?{urlencode(SWEEP)}",
        f"/compare/hitech_tft?{urlencode({**COMPARE, 'method': 'exact'})}",
    ]
    for view in views:
        page = client.get(view)
        assert page.status_code == 200, view
        links = [
            html.unescape(h) for h in re.findall(r'<p class="links">(.*?)</p>', page.text, re.S)[0].split('"')[1::2]
        ]
        links = [link for link in links if link.startswith("/")]
        vary = not view.startswith(("/sweep/", "/compare/"))  # every answer offers its Compare and Sweep views too
        assert len(links) == (5 if vary else 3), (view, links)  # the page itself, JSON and CSV
        for link in links:
            assert client.get(link).status_code == 200, link
        for image in re.findall(r'<img class="chart"[^>]* src="(/chart/[^"]+)"', page.text):
            chart = client.get(html.unescape(image))
            assert chart.status_code == 200 and chart.headers["content-type"] == "image/png", image


def test_eng_3_the_battle_view_offers_a_range_policy_only_where_the_range_moves(client):
    """Only Space Combat's duels move the range (ENG-3, ENG-4.4): its form has the sides' range policies."""
    assert 'name="a.formation.range_policy"' in client.get("/battle/space_v4").text
    for system in ("hitech_tft", "striker", "tyconian"):
        assert "range_policy" not in client.get(f"/battle/{system}").text, system


@pytest.mark.parametrize("view", ["/sweep/striker", "/api/sweep/striker", "/csv/sweep/striker"])
def test_a_sweep_shares_the_trials_one_request_may_sample_as_a_comparison_does(client, view):
    query = {"kind": "battle", "battle": "striker_fireteam", "x": "a.groups.0.count", "values": "2,3,4",
             "metric": "p_a_wins", "trials": "100000"}  # each within the 200,000 a request may sample  # fmt: skip
    refused = client.get(view, params=query)
    assert refused.status_code == 400
    said = html.unescape(refused.text)
    assert "the sweep (3 sampled answers): 300,000 trials is above the cap of 200,000" in said


@pytest.mark.parametrize("size", [4_000_000, 8_000_000])
def test_an_uploaded_variant_in_an_address_is_unpacked_no_further_than_an_upload_may_be(client, size):
    import base64
    import zlib

    bomb = "upload:" + base64.urlsafe_b64encode(zlib.compress(b"\n" * size, 9)).decode("ascii")
    page = client.get("/attack/hitech_tft", params={"weapon": "assault rifle", "variant": bomb})
    assert page.status_code == 400
    said = html.unescape(page.text)
    assert ("larger than 64 KiB unpacked" if len(bomb) <= 6000 else "damaged") in said


@pytest.mark.parametrize(("view", "query"), [("/chart/attack/hitech_tft", {"weapon": "nope"}),
                                             ("/chart/battle/striker", {"battle": "nope"})])  # fmt: skip
def test_a_chart_address_with_a_mistake_answers_its_one_line_not_a_page(client, view, query):
    refused = client.get(view, params=query)
    assert refused.status_code == 400 and refused.headers["content-type"].startswith("text/plain")
    assert refused.text.startswith("error: unknown ") and refused.text.count("\n") == 1


def test_the_balance_form_offers_and_keeps_a_metric_per_price(client):
    query = {"do": "tournament", "options": "weapon=rifle | weapon=shotgun", "defenders": "armor=mesh | armor=cloth",
             "metric": "p_incapacitated_per_kcr", "method": "exact"}  # fmt: skip
    page = client.get("/balance/striker", params=query)
    assert page.status_code == 200 and '<option value="p_incapacitated_per_kcr" selected>' in page.text


def test_a_distributions_chart_holds_each_chance_and_the_chance_of_at_least_each_with_wilson_intervals():
    """The page's chart of a sampled distribution: P(X = k), P(X >= k) and their 95 % Wilson intervals."""
    import pandas as pd

    from simlab.engine.intervals import wilson
    from simlab.output.interactive import distribution_spec

    frame = pd.DataFrame({"outcome": [0, 1, 2], "probability": [0.5, 0.3, 0.2]})
    rows = distribution_spec(frame, "hits", "hits", "hits", trials=1000)["data"]["values"]
    assert [r["at_least"] for r in rows] == pytest.approx([1.0, 0.5, 0.2])
    assert (rows[1]["each_low"], rows[1]["each_high"]) == wilson(300, 1000)
    assert (rows[1]["at_least_low"], rows[1]["at_least_high"]) == wilson(500, 1000)
    exact = distribution_spec(frame, "hits", "hits", "hits")
    assert "each_low" not in exact["data"]["values"][0] and exact["params"][0]["name"] == "atLeast"


def test_every_page_opened_with_nothing_chosen_opens_on_an_answer():
    """Each question's page and each view of every system: an answer with its numbers, not the hint to choose."""
    client = TestClient(create_app())  # the server's own trial cap: a healing's default trials are 1,000,000
    for system in all_systems():
        for page in [*(f"/{kind}/{system.name}" for kind in system.kinds), *(
                f"/{view}/{system.name}" for view in ("sweep", "compare", "balance"))]:  # fmt: skip
            text = client.get(page).text
            assert 'id="answer"' in text and 'class="note"' not in text.split('id="answer"')[1], page
            assert re.search(r'class="key-value">[0-9]|<ul class="balance" id="balance"><li>', text), page
