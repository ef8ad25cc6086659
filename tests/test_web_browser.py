"""The web page as a designer meets it, in real headless Chromium: never a stale number, every view usable.

Each test reproduces one way the page misled a designer (a wrong input that left the previous
answer on screen, an answer below an empty half of the window, a link button that threw, a
page wider than a phone) and checks that it no longer does.
"""

from __future__ import annotations

import html
import json
import re
import shlex
from urllib.parse import urlencode

import pytest
from browser import chromium, console_errors, needs_chromium, serving
from conftest import run_cli

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from simlab.web.app import create_app

# its module's fixtures (a server, a browser, a cluster, runs) built once: every test of it on one worker
pytestmark = pytest.mark.xdist_group("web_browser")

ASK = "/attack/hitech_tft?" + urlencode({"weapon": "assault rifle", "armor": "flak jacket", "mode": "four",
                                         "range_m": "40"})  # fmt: skip
P_HIT = "return document.querySelector('#answer tr[data-metric=p_hit] .value')?.textContent"
#: Whether every chart (those the selector ``charts`` finds) is drawn from its specification, and at least one is.
DRAWN = ("const c = Array.from(document.querySelectorAll('{charts}'));"
         " return c.length > 0 && c.every(e => e.dataset.drawn === 'yes')")  # fmt: skip
#: A page of every view with an answer on it.
VIEWS = {
    "ask": ASK,
    "ask striker": "/attack/striker?weapon=rifle&armor=cloth",
    "ask tyconian": "/attack/tyconian?weapon=assault+rifle&armor=flak+vest",
    "ask space": "/attack/space_v4?weapon=missile&attacker=frigate&defender=patrol+cruiser",
    "explosion": "/explosion/tyconian?explosive=hand+grenade&distance_m=2",
    "duel": "/duel/striker?a.weapon=rifle&b.weapon=submachinegun&trials=2000",
    "battle": "/battle/striker?battle=striker_fireteam&trials=2000",
    "sweep": "/sweep/hitech_tft?x=range_m&values=4,20,80&metric=p_hit&weapon=assault+rifle",
    "compare": "/compare/hitech_tft?vary=weapon&options=assault+rifle,gauss+rifle,laser+rifle&armor=flak+jacket",
    "sweep battle": "/sweep/striker?kind=battle&battle=striker_fireteam&trials=200&x=a.groups.0.count&values=2,3,4"
    "&metric=p_a_wins",
    "compare duel": "/compare/striker?kind=duel&a.weapon=rifle&b.weapon=submachinegun&trials=400&vary=a.armor"
    "&options=cloth,flak+jacket",
    "balance": "/balance/hitech_tft?do=solve&find=dx&in=6..20&target=p_hit%3D0.75&weapon=assault+rifle"
    "&armor=flak+jacket&range_m=20",
    "balance sensitivity": "/balance/striker?do=sensitivity&metric=p_hit&weapon=rifle"
    "&vary=skill%3D0..4%3B+cover%3Dnone,partial,full",
    "balance matchup": "/balance/striker?do=tournament&options=weapon%3Drifle+%7C+weapon%3Dshotgun"
    "&defenders=armor%3Dmesh+%7C+armor%3Dcloth&metric=p_incapacitated&method=exact",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("results")) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium() as window:
        yield window


@pytest.fixture(scope="module")
def phone():
    with chromium(390, 844) as window:
        yield window


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(max_trials=200_000))


def _wait(browser, condition, message: str, seconds: float = 20):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, seconds).until(lambda b: b.execute_script(condition), message)


def _change(browser, field_id: str, text: str) -> None:
    """Type ``text`` into a field of the live form and leave it, as a designer does."""
    from selenium.webdriver.common.keys import Keys

    field = browser.find_element("id", field_id)
    field.clear()
    field.send_keys(text, Keys.TAB)


@needs_chromium
def test_a_value_the_browser_rejects_says_so_and_greys_the_old_answer(server, browser):
    browser.get(server + ASK)
    assert browser.execute_script(P_HIT)
    _change(browser, "f-range_m", "-40")
    _wait(browser, "return document.getElementById('answer').classList.contains('stale')", "the old answer stays")
    message = browser.find_element("id", "invalid").text
    assert "range_m" in message and "0" in message, message
    assert "field-error" in browser.find_element("id", "f-range_m").find_element("xpath", "..").get_attribute("class")
    _change(browser, "f-range_m", "40")  # a valid value again: a fresh answer, nothing greyed
    _wait(browser, "return !document.getElementById('answer').classList.contains('stale')", "still greyed")
    _wait(browser, f"return ({P_HIT[7:]}) !== undefined", "no answer")


@needs_chromium
def test_a_value_the_server_refuses_replaces_the_answer_with_its_error(server, browser):
    browser.get(server + ASK)
    assert browser.execute_script(P_HIT)
    _change(browser, "f-ammo", "HEX")
    _wait(browser, "return document.querySelector('#answer .error') !== null", "the error is not shown")
    assert "HEX" in browser.find_element("css selector", "#answer .error").text
    assert browser.execute_script(P_HIT) is None  # no number of other inputs left on screen
    assert "field-error" in browser.find_element("id", "f-ammo").find_element("xpath", "..").get_attribute("class")
    assert console_errors(browser) == [] or all("400" in line for line in console_errors(browser))


@needs_chromium
def test_copy_link_copies_the_address_without_an_error(server, browser):
    browser.get(server + ASK)
    browser.execute_cdp_cmd(
        "Browser.grantPermissions", {"origin": server, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]}
    )
    console_errors(browser)
    for name in ("ask", "compare", "battle"):
        browser.get(server + VIEWS[name])
        browser.find_element("id", "copy-link").click()
        _wait(browser, "return document.getElementById('copy-link').textContent === 'copied'", f"{name}: not copied")
        assert console_errors(browser) == [], name


@needs_chromium
def test_every_view_is_linked_from_every_page(server, browser):
    browser.get(server + "/")
    for system in ("hitech_tft", "striker", "tyconian", "space_v4"):
        for view in ("compare", "sweep", "balance"):
            assert browser.find_elements("css selector", f"a[href^='/{view}/{system}']"), (view, system)
    browser.get(server + ASK)
    for view in ("compare", "sweep", "balance"):  # and the answer's own "compare this" and "sweep this"
        assert browser.find_elements("css selector", f"nav a[href^='/{view}/hitech_tft']"), view


@needs_chromium
def test_every_script_of_the_page_runs(server, browser):
    browser.get(server + ASK)
    lost = browser.execute_script(
        "return Array.from(document.querySelectorAll('script[src]')).filter(s => s.textContent.trim()).length"
    )
    assert lost == 0  # a script inside <script src=...> never runs
    assert browser.execute_script("return typeof window.simlab === 'object'")


def test_the_sweep_experiment_runs_as_the_page_shows_it(client, capsys, tmp_path):
    page = client.get(VIEWS["sweep"] + "&rule.criticals=false&armor=flak+jacket")
    text = html.unescape(re.search(r'<code class="command" id="command">(.*?)</code>', page.text, re.S).group(1))
    experiment = tmp_path / "sweep.toml"
    experiment.write_text(text, encoding="utf-8")
    code, _, err = run_cli(capsys, "run", str(experiment), "--out", str(tmp_path / "results"))
    assert code == 0, err
    assert '"criticals" = false' in text


def test_each_command_of_a_comparison_runs_as_shown(client, capsys):
    page = client.get(VIEWS["compare"])
    text = html.unescape(re.search(r'<code class="command" id="command">(.*?)</code>', page.text, re.S).group(1))
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 3
    for line in lines:
        words = shlex.split(line)
        assert words[0] == "simlab"
        code, _, err = run_cli(capsys, *words[1:])
        assert code == 0, (line, err)


@needs_chromium
def test_a_battle_page_and_its_charts_sample_the_battle_once(server, browser):
    import json
    import urllib.request

    def computed() -> int:
        return int(json.loads(urllib.request.urlopen(server + "/api/status", timeout=10).read())["answers_computed"])

    before = computed()
    browser.get(server + "/battle/tyconian?battle=tyconian_squads&trials=3000")
    _wait(browser, DRAWN.format(charts="#answer > figure .vega-chart"), "charts")
    browser.find_element("css selector", "details.more-charts summary").click()  # the other charts, on demand
    _wait(browser, DRAWN.format(charts=".vega-chart"), "more charts")
    assert computed() == before + 1  # the page's answer drew every chart


@needs_chromium
def test_an_uploaded_variant_keeps_the_inputs_and_stays_in_force(server, browser, tmp_path):
    variant = tmp_path / "house.toml"
    variant.write_text('name = "house"\nsystem = "hitech_tft"\n[rules]\nautofire_step = 2\n', encoding="utf-8")
    hits = "return document.querySelector('#answer tr[data-metric=mean_hits] .value')?.textContent"
    browser.get(server + ASK)
    _change(browser, "f-range_m", "20")  # an input changed on the live form before the upload
    _wait(browser, "return location.search.includes('range_m=20')", "the address does not follow")
    base = browser.execute_script(hits)
    browser.find_element("id", "f-variant-file").send_keys(str(variant))
    browser.find_element("css selector", "form.upload button").click()
    _wait(browser, "return location.search.includes('variant=upload')", "the variant is not in the address")
    assert "range_m=20" in browser.current_url  # the inputs set before are kept
    assert "house" in browser.find_element("id", "variant-note").text
    under = browser.execute_script(hits)
    assert under != base
    pictures = "return Array.from(document.querySelectorAll('#answer a.png')).map(a => a.getAttribute('href'))"
    charts = browser.execute_script(pictures)
    assert charts and all("variant=upload" in src for src in charts)  # the charts are the variant's too
    _change(browser, "f-dx", "13")  # a later change: the variant stays in force
    _wait(browser, "return location.search.includes('dx=13')", "no answer to the change")
    _wait(browser, "return document.getElementById('variant-note') !== null", "the variant was dropped")
    assert "variant=upload" in browser.current_url
    browser.find_element("id", "variant-compare").click()  # beside the base rules, with paired differences
    _wait(browser, "return document.querySelector('#comparison th:nth-child(3)') !== null", "no comparison")
    headers = browser.execute_script(
        "return Array.from(document.querySelectorAll('#comparison th')).map(h => h.textContent)"
    )
    assert any("base" in h for h in headers) and any("house" in h for h in headers), headers


def test_the_csv_carries_the_inputs_of_its_answer(client):
    lines = client.get("/csv/attack/hitech_tft?" + ASK.split("?")[1] + "&method=exact").text.splitlines()
    header = lines[0].split(",")
    assert (
        header[:5] == ["system", "method", "trials", "seed", "variant"] and "weapon" in header and "range_m" in header
    )
    assert header[-4:] == ["metric", "value", "ci_low", "ci_high"]
    row = dict(zip(header, lines[1].split(","), strict=True))
    assert row["weapon"] == "assault rifle" and row["range_m"] == "40.0" and row["metric"] == "p_hit"
    battle = client.get("/csv/battle/striker?battle=striker_fireteam&trials=500").text.splitlines()[0]
    assert "a.name" in battle and "b.groups.0.weapon" in battle  # a battle's sides and groups as dotted columns


def test_an_answer_shows_how_it_was_resolved_and_offers_its_views(client):
    page = client.get(ASK)
    assert 'id="resolution"' in page.text and "AdjDX" in page.text  # the breakdown the command line prints
    for view in ("compare", "sweep"):
        link = html.unescape(re.search(rf'<a href="([^"]+)" id="{view}-this">', page.text).group(1))
        opened = client.get(link)
        assert opened.status_code == 200 and 'value="assault rifle" selected' in opened.text, view
    explosion = client.get("/explosion/tyconian?explosive=hand+grenade&distance_m=2")
    link = html.unescape(re.search(r'<a href="([^"]+)" id="sweep-this">', explosion.text).group(1))
    assert "kind=explosion" in link and client.get(link).status_code == 200


def test_duels_and_battles_offer_their_compare_and_sweep_whose_experiment_runs(client, capsys, tmp_path):
    """Every answer, a duel's and a battle's included, opens Compare and Sweep with its own inputs."""
    duel = client.get("/duel/striker?a.weapon=rifle&b.weapon=submachinegun&a.armor=cloth&trials=1000").text
    battle = client.get("/battle/striker?battle=striker_fireteam&a.groups.0.count=3&trials=1000").text
    for page, chosen in ((duel, 'value="submachinegun" selected'), (battle, 'name="a.groups.0.count" value="3"')):
        for view in ("compare", "sweep"):
            link = html.unescape(re.search(rf'<a href="([^"]+)" id="{view}-this">', page).group(1))
            opened = client.get(link)
            assert opened.status_code == 200 and chosen in opened.text, (view, link)
    # what varies is the page's own fields: a battle's doctrine, with paired intervals as simlab compare gives
    query = {"kind": "battle", "battle": "striker_fireteam", "trials": "2000", "seed": "1",
             "vary": "b.doctrine.suppressors", "options": "0,2"}  # fmt: skip
    compared = client.get("/api/compare/striker", params=query).json()
    assert compared["columns"] == ["b.doctrine.suppressors = 0", "b.doctrine.suppressors = 2"]
    wins = next(row for row in compared["table"] if row["metric"] == "p_a_wins")
    assert wins["Δ b.doctrine.suppressors = 2"] > 3 * wins["± b.doctrine.suppressors = 2"] > 0  # suppression helps A
    unknown = client.get("/api/compare/striker", params={**query, "vary": "b.doctrine.suppresors"})
    said = "unknown input to vary 'b.doctrine.suppresors'; did you mean 'b.doctrine.suppressors'"
    assert unknown.status_code == 400 and said in unknown.json()["error"]
    # a battle's sweep gives the experiment file that runs it, with its battle file, as shown
    sweep = {"kind": "battle", "battle": "striker_fireteam", "trials": "500", "a.name": "fireteam",
             "x": "a.groups.0.count", "values": "3,4", "metric": "p_a_wins", "series": "b.doctrine.suppressors",
             "series_values": "0,1"}  # fmt: skip
    page = client.get("/sweep/striker", params=sweep).text
    toml = html.unescape(re.search(r'<code class="command" id="command">(.*?)</code>', page, re.S).group(1))
    assert 'kind = "battle"' in toml and "striker_fireteam.toml" in toml
    (tmp_path / "sweep.toml").write_text(toml, encoding="utf-8")
    code, _, err = run_cli(capsys, "run", str(tmp_path / "sweep.toml"), "--out", str(tmp_path / "out"), "--jobs", "1")
    assert code == 0, err
    points = client.get("/api/sweep/striker", params=sweep).json()["points"]
    table = (tmp_path / "out" / "sweep" / "table.csv").read_text()
    assert len(points) == 4 and f"{points[0]['metrics']['p_a_wins']:.6g}"[:5] in table  # the same battles


def test_charts_name_sides_and_wounds_and_show_the_chance_of_at_least_each(client):
    battle = client.get("/battle/striker?battle=striker_fireteam&trials=500").text
    assert "Standing: fireteam" in battle and "Standing: gunners" in battle  # the sides' names, not a and b
    both = re.search(r'data-chart="standing"><script type="application/json">(.*?)</script>', battle)  # at once
    assert both is not None and "Figures standing at the end: fireteam and gunners" in battle
    spec = json.loads(html.unescape(both.group(1)))
    assert {row["series"] for row in spec["data"]["values"]} == {"fireteam", "gunners"}  # both sides, by name
    picture = re.search(r'href="(/chart/battle/striker[^"]*distribution=standing)"', battle)
    assert picture is not None and client.get(html.unescape(picture.group(1))).headers["content-type"] == "image/png"
    chart = re.search(r'href="(/chart/attack/striker[^"]*distribution=outcome)"', client.get(
        "/attack/striker?weapon=rifle&armor=cloth").text)  # fmt: skip
    assert chart is not None
    plain, cumulative = (client.get(html.unescape(chart.group(1)) + extra) for extra in ("", "&at_least=1"))
    assert plain.status_code == cumulative.status_code == 200
    assert plain.headers["content-type"] == "image/png" and plain.content != cumulative.content
    from simlab.web.answers import distribution_chart  # the outcome bars named by wound level

    figure_labels = distribution_chart("outcome", {"0": 0.5, "1": 0.5}, "exact", None, False, {0: "unhurt", 1: "light"})
    assert figure_labels.png


@needs_chromium
def test_pointing_at_a_chart_shows_its_value_and_the_chance_of_at_least_each_is_drawn_in_place(server, browser, phone):
    """Charts read by pointing: a bar's value and interval on hover; "at least" and a series picked, no request."""
    for window in (browser, phone):
        window.get(server + VIEWS["duel"])
        _wait(window, DRAWN.format(charts=".vega-chart"), "charts not drawn")
        requests = "return performance.getEntriesByType('resource').length"
        before = window.execute_script(requests)
        each = _pointed(window, "[data-chart=turns]")
        assert re.search(r"chance:?\s*0\.\d+", each) and "95 % interval" in each, each
        window.find_element("css selector", "[data-chart=turns] .vega-bindings input[type=checkbox]").click()
        least = _pointed(window, "[data-chart=turns]")
        assert least != each and re.search(r"chance:?\s*(0\.\d+|1)", least), least
        assert window.execute_script(requests) == before  # drawn again in the page, not fetched


def _pointed(window, chart: str) -> str:
    """Point at the tallest bar of ``chart`` (on a phone, tap it): the values it shows."""
    from selenium.webdriver.common.action_chains import ActionChains

    tallest = ("return Array.from(document.querySelectorAll(arguments[0])).sort((a, b) =>"
               " b.getBoundingClientRect().height - a.getBoundingClientRect().height)[0]")
    bar = window.execute_script(tallest, f"{chart} .mark-rect path")
    window.execute_script("arguments[0].scrollIntoView({block: 'center'})", bar)
    if window.execute_script("return window.innerWidth") < 500:  # a phone: a tap writes them under the chart
        window.execute_script("document.querySelectorAll('.readout').forEach(r => r.remove())")
        bar.click()
        _wait(window, f"return document.querySelector('{chart} .readout') !== null", "no value shown on a tap", 5)
        return str(window.find_element("css selector", f"{chart} .readout").text)
    ActionChains(window).move_to_element(bar).perform()
    tooltip = "const t = document.getElementById('vg-tooltip-element'); return t && t.classList.contains('visible')"
    _wait(window, tooltip, "no value shown on pointing", 5)
    text = window.execute_script("return document.getElementById('vg-tooltip-element').innerText")
    ActionChains(window).move_to_element(window.find_element("css selector", "#answer h2")).perform()
    return str(text)


def test_all_rows_of_a_table_in_a_sweep_or_a_comparison(client):
    from simlab.systems import get_system

    armours = [str(r["name"]) for r in get_system("hitech_tft").tables()["armor"].as_records()]
    sweep = client.get("/api/sweep/hitech_tft?x=armor&values=all&metric=mean_damage&weapon=assault+rifle")
    assert [p["inputs"]["armor"] for p in sweep.json()["points"]] == armours
    compare = client.get("/api/compare/hitech_tft?vary=armor&options=all&weapon=assault+rifle&method=exact")
    assert compare.json()["columns"] == [f"armor = {armour}" for armour in armours]
    too_many = client.get("/api/compare/hitech_tft?vary=weapon&options=all&method=exact")
    assert too_many.status_code == 400 and "at most 12" in too_many.json()["error"]


@needs_chromium
def test_options_are_picked_from_a_list_once_the_varied_input_is_chosen(server, browser):
    from selenium.webdriver.support.ui import Select

    browser.get(server + "/compare/hitech_tft?armor=flak+jacket&method=exact")
    Select(browser.find_element("id", "f-vary")).select_by_value("weapon")  # the page follows with a list of weapons
    _wait(browser, "return document.querySelector('select#f-options[multiple]') !== null", "no list of options")
    options = Select(browser.find_element("id", "f-options"))
    options.select_by_value("assault rifle")
    options.select_by_value("gauss rifle")
    _wait(browser, "return document.querySelectorAll('#comparison thead th').length >= 4", "no comparison")
    headers = browser.execute_script(
        "return Array.from(document.querySelectorAll('#comparison th')).map(h => h.textContent)"
    )
    assert "weapon = assault rifle" in headers and "weapon = gauss rifle" in headers
    assert "options=assault+rifle%2Cgauss+rifle" in browser.current_url or "gauss" in browser.current_url


@needs_chromium
def test_a_battle_answer_sweeps_one_of_its_inputs_from_its_own_link(server, browser):
    from selenium.webdriver.support.ui import Select

    browser.get(server + "/battle/striker?battle=striker_fireteam&trials=500")
    console_errors(browser)  # what earlier pages logged
    browser.find_element("id", "sweep-this").click()
    Select(browser.find_element("id", "f-x")).select_by_value("a.groups.0.count")  # the page follows: typed values
    _wait(browser, "return document.getElementById('f-x')?.value === 'a.groups.0.count'", "x not chosen")
    values = browser.find_element("id", "f-values")
    values.send_keys("2,3,4")
    browser.find_element("css selector", "form.ask button[type=submit]").click()
    _wait(browser, "return document.querySelector('#answer img[alt], #answer figure') !== null", "no sweep chart", 60)
    assert "x=a.groups.0.count" in browser.current_url and "kind=battle" in browser.current_url
    assert not console_errors(browser)


def test_a_battle_finds_the_fewest_figures_that_reach_a_chance_to_win(client):
    query = {"battle": "striker_fireteam", "find": "a.groups.0.count", "target": "0.75", "trials": "4000", "seed": "1"}
    page = client.get("/battle/striker", params=query).text
    found = html.unescape(re.search(r'<p class="found" id="found">(.*?)</p>', page).group(1))
    count = int(re.match(r"(\d+) riflemen are the fewest", found).group(1))
    wins = {n: client.get("/api/battle/striker", params={"battle": "striker_fireteam", "a.groups.0.count": str(n),
                                                         "trials": "4000", "seed": "1"}).json()["metrics"]["p_a_wins"]
            for n in (count - 1, count)}  # fmt: skip
    assert wins[count] >= 0.75 > wins[count - 1]  # the smallest count, by the same battles the command line samples
    assert f"a.groups.0.count={count}" in page.replace("&amp;", "&")  # the battle shown is the one at that count


@needs_chromium
def test_the_battle_view_finds_the_count_from_its_form(server, browser):
    from selenium.webdriver.support.ui import Select

    browser.get(server + "/battle/striker?battle=striker_fireteam&trials=3000")
    Select(browser.find_element("id", "f-find")).select_by_value("a.groups.0.count")
    _wait(browser, "return document.getElementById('found') !== null", "no count found")
    found = browser.find_element("id", "found").text
    assert "riflemen are the fewest for which the fireteam's chance to win reaches 0.75" in found


@needs_chromium
def test_a_live_change_on_the_duel_and_battle_views_answers(server, browser):
    for path, field_id, value in (
        ("/battle/tyconian?battle=tyconian_squads&trials=2000", "f-a.groups.0.count", "5"),
        ("/duel/tyconian?a.weapon=battle+rifle&b.weapon=revolver&trials=2000", "f-a.dex", "12"),
    ):
        browser.get(server + path)
        _change(browser, field_id, value)
        key = field_id.removeprefix("f-")
        _wait(browser, f"return location.search.includes('{key}={value}')", f"{path}: no answer to the change")
        _wait(browser, "return !document.getElementById('answer').classList.contains('working')", "still working")
        assert not browser.find_elements("css selector", "#answer .error"), browser.find_element("id", "answer").text


def test_full_profiles_side_by_side_against_several_defenders(client):
    query = {"profile.1": "weapon=gauss rifle; dx=13; mode=full", "profile.2": "weapon=assault rifle; mode=four",
             "vary": "armor", "options": "flak jacket,combat TL12", "method": "exact"}  # fmt: skip
    columns = client.get("/api/compare/hitech_tft", params=query).json()["columns"]
    assert len(columns) == 4 and columns[0] == "weapon=gauss rifle; dx=13; mode=full; armor = flak jacket"
    table = client.get("/api/compare/hitech_tft", params=query).json()["table"]
    p_hit = next(row for row in table if row["metric"] == "p_hit")
    alone = simlab_attack(weapon="gauss rifle", dx=13, mode="full", armor="flak jacket")
    assert p_hit[columns[0]] == alone["p_hit"]
    bad = client.get("/api/compare/hitech_tft", params={**query, "profile.3": "dx 13"})
    assert bad.status_code == 400 and "profile.3" in bad.json()["error"]


def simlab_attack(**inputs):
    import simlab

    return simlab.attack("hitech_tft", **inputs).metrics


@needs_chromium
def test_profiles_are_typed_on_the_compare_view(server, browser):
    browser.get(server + "/compare/hitech_tft?armor=flak+jacket&method=exact")
    _change(browser, "f-profile.1", "weapon=gauss rifle; dx=13")
    _change(browser, "f-profile.2", "weapon=assault rifle; mode=four")
    _wait(browser, "return document.querySelectorAll('#comparison thead th').length >= 4", "no comparison")
    headers = browser.execute_script(
        "return Array.from(document.querySelectorAll('#comparison th')).map(h => h.textContent)"
    )
    assert "weapon=gauss rifle; dx=13" in headers and "weapon=assault rifle; mode=four" in headers


@needs_chromium
def test_a_comparison_fits_beside_the_form_at_1400_px(server, browser):
    browser.get(server + VIEWS["compare"] + "&method=exact")
    box = browser.execute_script(
        "const t = document.getElementById('comparison'); const box = t.parentElement;"
        "return [t.getBoundingClientRect().right, window.innerWidth, box.scrollWidth - box.clientWidth];"
    )
    right, width, hidden = box
    assert right <= width and hidden <= 1, box  # every Δ on screen, nothing to scroll to


@needs_chromium
@pytest.mark.parametrize(
    ("path", "field_id", "text", "words"),
    [
        ("/battle/striker?battle=striker_fireteam&trials=2000", "f-a.groups.0.count", "100", "a.groups.0.count"),
        ("/battle/striker?battle=striker_fireteam&trials=2000", "f-a.groups.0.count", "0", "a.groups.0.count"),
        (VIEWS["sweep"], "f-values", "4,-20", "range_m"),
    ],
    ids=["100 riflemen", "no riflemen", "negative sweep value"],
)
def test_no_wrong_input_leaves_the_previous_answer_as_if_current(server, browser, path, field_id, text, words):
    browser.get(server + path)
    assert browser.find_elements("css selector", "#answer h2")
    _change(browser, field_id, text)
    shown = (
        "return document.getElementById('answer').classList.contains('stale')"
        " || (document.querySelector('#answer .error') !== null && document.querySelector('#answer h2') === null)"
    )
    _wait(browser, shown, f"{field_id}={text}: the old answer stays as if current")
    message = browser.execute_script("return document.querySelector('#answer .error, #invalid').textContent")
    assert words in message, message


@needs_chromium
def test_a_sampled_answer_shows_its_progress_where_the_answer_is(server, browser):
    browser.get(server + "/duel/space_v4?a.ship=free+trader&b.ship=free+trader&trials=1000")
    browser.execute_script(  # half a million duels: seconds of work, long enough to be seen at any machine's speed
        "const f = document.getElementById('f-trials'); f.value = '500000';"
        "f.dispatchEvent(new Event('change', {bubbles: true}));"
    )
    _wait(browser, "return (document.getElementById('progress')?.textContent || '').includes('trials so far')",
          "no progress in the answer region", 30)  # fmt: skip
    assert "working" in browser.find_element("id", "answer").get_attribute("class")
    _wait(browser, "return document.getElementById('progress') === null", "the answer never came", 60)


def test_the_balance_view_answers_as_simlab_solve_does_and_its_command_runs_as_shown(client, capsys):
    page = client.get(VIEWS["balance"]).text
    first = html.unescape(re.search(r'<ul class="balance" id="balance"><li>(.*?)</li>', page).group(1))
    command = html.unescape(re.search(r'<code class="command" id="command">(.*?)</code>', page).group(1))
    code, out, _ = run_cli(capsys, *shlex.split(command)[1:])
    assert code == 0 and out.splitlines()[0] == first == (
        "DX 15 is the lowest DX for which the chance to hit reaches 0.75: 0.8380; DX 14: 0.7407."
    )
    api = client.get(VIEWS["balance"].replace("/balance/", "/api/balance/")).json()
    code, out, _ = run_cli(capsys, *shlex.split(command)[1:], "--json")
    assert api == json.loads(out)


#: A question of each analysis of the Balance view, with inputs besides its own (shared, one side's, a rule).
COMMANDS = {
    "solve": ("hitech_tft", {"do": "solve", "find": "range_m", "in": "0..100", "target": "p_hit=0.5", "tol": "0.05",
                             "weapon": "assault rifle", "dx": "12", "rule.automatic_hit_max": "4"}),
    "sensitivity": ("striker", {"do": "sensitivity", "metric": "p_hit", "weapon": "rifle", "method": "monte_carlo",
                                "trials": "500", "vary": "skill=0..4; cover=none,partial,full"}),
    "tournament": ("striker", {"kind": "duel", "do": "tournament", "options": "weapon=rifle | weapon=submachinegun",
                               "a.armor": "flak jacket", "b.armor": "cloth", "a.skill": "3", "seed": "2"}),
    "matchup": ("striker", {"do": "tournament", "options": "weapon=rifle | weapon=shotgun", "metric": "p_hit",
                            "defenders": "armor=mesh | armor=cloth", "range_band": "long", "method": "monte_carlo",
                            "trials": "2000"}),
    "ship tournament": ("space_v4", {"do": "tournament", "every": "ship", "trials": "100"}),  # duels unless told
    "battle tournament": ("striker", {"kind": "battle", "battle": "striker_fireteam", "do": "tournament",
                                      "options": "groups.0.count=2 | groups.0.count=3", "b.doctrine.suppressors": "1",
                                      "trials": "200"}),
}  # fmt: skip


@pytest.mark.parametrize("analysis", list(COMMANDS))
def test_the_balance_views_command_gives_the_json_of_its_answer(client, capsys, analysis):
    system, query = COMMANDS[analysis]
    page = client.get(f"/balance/{system}", params=query)
    assert page.status_code == 200, html.unescape(page.text)[:2000]
    command = html.unescape(re.search(r'<code class="command" id="command">(.*?)</code>', page.text).group(1))
    code, out, err = run_cli(capsys, *shlex.split(command)[1:], "--json")
    assert code == 0, err
    assert client.get(f"/api/balance/{system}", params=query).json() == json.loads(out), command


def test_the_balance_view_finds_the_riflemen_of_a_battle_and_says_no_crossing_inline(client):
    query = {"kind": "battle", "battle": "striker_fireteam", "do": "solve", "find": "a.count", "in": "1..8",
             "target": "p_a_wins=0.75", "trials": "4000", "seed": "1"}  # fmt: skip
    page = html.unescape(client.get("/balance/striker", params=query).text)
    assert "4 riflemen are the fewest for which the fireteam's chance to win reaches 0.75" in page
    refused = client.get("/balance/striker", params={**query, "target": "p_a_wins=1.5"})
    assert refused.status_code == 400
    error = html.unescape(re.search(r'<p class="error"[^>]*>(.*?)</p>', refused.text).group(1))
    assert error.startswith("no crossing: p_a_wins never crosses 1.5 over a.count 1..8: it runs from 0.0")
    assert client.get("/api/status").status_code == 200  # and the server keeps serving


@needs_chromium
def test_a_sensitivity_is_asked_from_the_balance_form(server, browser):
    from selenium.webdriver.support.ui import Select

    browser.get(server + "/balance/striker?weapon=rifle&method=exact")
    Select(browser.find_element("id", "f-do")).select_by_value("sensitivity")
    _wait(browser, "return document.getElementById('f-vary') !== null", "no knobs to fill in")
    Select(browser.find_element("id", "f-metric")).select_by_value("p_hit")
    _change(browser, "f-vary", "skill=0..4; range_band=short,medium,long,extreme; cover=none,partial,full")
    _wait(browser, "return document.getElementById('balance') !== null", "no ranking")
    assert browser.find_element("id", "balance").text.startswith("The range band moves the chance to hit most")
    assert "vary=skill" in browser.current_url  # the address holds the question: shareable
    assert browser.find_elements("css selector", "#answer figure img")


def test_a_tournament_on_the_balance_view_says_what_simlab_tournament_says(client, capsys):
    query = {"kind": "duel", "do": "tournament", "options": "ship=scout | ship=frigate | ship=cruiser", "trials": "300"}
    page = client.get("/balance/space_v4", params=query).text
    first = html.unescape(re.search(r'<ul class="balance" id="balance"><li>(.*?)</li>', page).group(1))
    command = html.unescape(re.search(r'<code class="command" id="command">(.*?)</code>', page).group(1))
    code, out, _ = run_cli(capsys, *shlex.split(command)[1:])
    assert code == 0 and out.splitlines()[0] == first and first.startswith("The metagame is the cruiser alone")


def test_attacks_against_defenders_on_the_balance_view_say_what_simlab_tournament_says(client, capsys):
    query = {"do": "tournament", "options": "weapon=rifle | weapon=laser carbine | weapon=shotgun",
             "defenders": "armor=mesh | armor=cloth + reflec", "metric": "p_incapacitated", "method": "exact",
             "range_band": "medium"}  # fmt: skip
    page = client.get("/balance/striker", params=query).text
    first = html.unescape(re.search(r'<ul class="balance" id="balance"><li>(.*?)</li>', page).group(1))
    command = html.unescape(re.search(r'<code class="command" id="command">(.*?)</code>', page).group(1))
    code, out, _ = run_cli(capsys, *shlex.split(command)[1:])
    assert code == 0 and out.splitlines()[0] == first and first.startswith("The attacker's best mix is the laser")
    assert "--defender 'armor=cloth + reflec'" in command and "--exact" in command
    computed = client.app.state.site.answers.computed
    assert client.get("/csv/balance/striker", params=query).text.startswith(",mesh,cloth + reflec\nrifle,")
    assert client.get("/api/balance/striker", params=query).json()["attacker_mix"]["laser carbine"] == 1.0
    assert client.app.state.site.answers.computed == computed  # the page's answer serves its CSV and JSON


def _laid_out(window, page: str) -> None:
    """The answer of ``page`` where a designer looks first, and no wider than the screen.

    At 1400 px the answer beside the form, starting within the first screen; on a phone the
    page no wider than the screen, and the answer before the form.
    """
    width = window.execute_script("return window.innerWidth")
    where = window.execute_script(
        "const answer = document.querySelector('#answer h2'); const form = document.querySelector('form.ask');"
        " return answer && [answer.getBoundingClientRect().top, answer.getBoundingClientRect().left,"
        " form.getBoundingClientRect().right, form.getBoundingClientRect().top,"
        " document.documentElement.scrollWidth, window.innerHeight];"
    )
    assert where, f"{page}: no answer"
    top, left, form_right, form_top, scroll_width, height = where
    if width < 500:
        assert scroll_width <= width, f"{page}: {scroll_width} px wide at {width} px"
        assert top < form_top and top < height, f"{page}: the answer starts at {top:.0f} px, below the form"
    else:
        assert top < height and left >= form_right, f"{page}: the answer starts at {top:.0f} px, {left:.0f} px left"


#: Whether a number of the answer is on the first screen: a key number, a found count, a verdict or a cell.
NUMBER_SEEN = """
const shown = Array.from(document.querySelectorAll(
  '#answer .key-value, #answer #found, #answer #balance li, #answer #comparison td, #answer #metrics .value'));
return shown.some(e => { const r = e.getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.top < window.innerHeight - 20 && /[0-9]/.test(e.textContent); });
"""


@needs_chromium
def test_every_question_of_the_gallery_shows_a_number_on_the_first_screen(server, browser, phone):
    from simlab.web.gallery import gallery

    browser.get(server + "/")
    links = browser.find_elements("css selector", "#gallery a")
    assert [a.text for a in links] == [q.ask for q in gallery()] and 8 <= len(links) <= 12
    for window in (browser, phone):
        for question in gallery():
            window.get(server + question.href)
            assert not window.find_elements("id", "error"), (question.ask, window.find_element("id", "error").text)
            _wait(window, NUMBER_SEEN, f"{question.ask}: no number on the first screen", 30)
            _laid_out(window, question.href)
        assert window.find_elements("css selector", "#gallery a")  # each system's page lists its questions


#: One page of each form and view, opened with nothing chosen (every page is checked so in test_web).
OPENED = ("/attack/hitech_tft", "/explosion/tyconian", "/duel/space_v4", "/battle/striker", "/sweep/striker",
          "/compare/tyconian", "/balance/hitech_tft", VIEWS["sweep battle"], VIEWS["compare duel"],
          VIEWS["balance matchup"])  # fmt: skip


@needs_chromium
def test_every_view_opens_on_an_answer(server, browser, phone):
    """A view opened with nothing chosen opens on a typical question's answer, never an empty region."""
    for window in (browser, phone):
        for page in OPENED:
            window.get(server + page)
            assert not window.find_elements("id", "error"), (page, window.find_element("id", "error").text)
            assert not window.find_elements("css selector", "#answer .note"), f"{page} opens empty"
            _wait(window, NUMBER_SEEN, f"{page}: no number on the first screen", 30)
            _laid_out(window, page)


@needs_chromium
def test_the_ship_tournament_of_the_balance_view_answers_as_the_command_line(server, browser, phone, capsys):
    code, out, _ = run_cli(capsys, "tournament", "space_v4", "--every", "ship", "--trials", "300")
    assert code == 0
    for window in (browser, phone):
        window.get(server + "/balance/space_v4?" + urlencode({"do": "tournament", "every": "ship", "trials": "300"}))
        _wait(window, "return document.getElementById('balance') !== null", "no answer")
        assert window.find_element("css selector", "#balance li").text == out.splitlines()[0]
        assert "--" not in window.find_element("id", "balance").text  # the page names no flag
