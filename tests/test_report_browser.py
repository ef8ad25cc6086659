"""The HTML reports in a real browser: headless Chromium driven by selenium (Debian's chromium-driver).

Three reports of different kinds (autofire modes, duels, fire plans) are opened in a
1400 × 900 window: the first screen must show the title, the "what this says" headline and
the key chart, whole and loaded; every chart must load; the screenshot must not be blank.
"""

import os
import shutil
import time
from pathlib import Path

import numpy as np
import pytest
from matplotlib.image import imread

from simlab.cli import main

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
EXPERIMENTS = ["tft_autofire_modes", "tyconian_duels", "tyconian_fire_modes"]
WIDTH, HEIGHT = 1400, 900

# its module's fixtures (a server, a browser, a cluster, runs) built once: every test of it on one worker
pytestmark = [
    pytest.mark.xdist_group("report_browser"),
    pytest.mark.skipif(
        (CHROMIUM is None or DRIVER is None) and not os.environ.get("CI"),
        reason="Chromium and chromium-driver are not installed (.ci/run installs them)",
    ),
]


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, Path]:
    if CHROMIUM is None or DRIVER is None:
        pytest.fail("CI needs Chromium and chromium-driver for the browser test: .ci/run installs them")
    out = tmp_path_factory.mktemp("results")
    with pytest.raises(SystemExit) as exit_info:
        main(["run", *[f"experiments/{name}.toml" for name in EXPERIMENTS], "--out", str(out), "--jobs", "1"])
        raise SystemExit(0)
    assert not exit_info.value.code
    return {name: out / name / "report.html" for name in EXPERIMENTS}


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM or ""
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.add_argument(f"--window-size={WIDTH},{HEIGHT}")
    driver = webdriver.Chrome(service=Service(DRIVER or "chromedriver"), options=options)
    driver.set_window_size(WIDTH, HEIGHT)
    yield driver
    driver.quit()


def _open(browser, report: Path) -> None:
    browser.get(report.as_uri())
    browser.execute_script("document.body.style.minHeight = '0'")
    loaded = "return Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)"
    for _ in range(50):
        if browser.execute_script(loaded):
            return
        time.sleep(0.1)
    raise AssertionError(f"{report}: not every chart loaded")


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_the_first_screen_shows_title_headline_and_key_chart(browser, reports, name):
    _open(browser, reports[name])
    height = browser.execute_script("return window.innerHeight")
    boxes = browser.execute_script(
        """
        const box = s => { const e = document.querySelector(s); if (!e) return null;
                           const r = e.getBoundingClientRect(); return [r.top, r.bottom, r.width]; };
        return {title: box('h1'), headline: box('#headline li'), chart: box('#key-chart img')};
        """
    )
    for part, box in boxes.items():
        assert box is not None, f"{name}: no {part}"
        top, bottom, width = box
        assert top >= 0 and bottom <= height and width > 0, f"{name}: the {part} is not on the first screen: {box}"
    assert boxes["chart"][2] >= 500, f"{name}: the key chart is too small to read"


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_every_chart_loads_and_a_chart_comes_before_the_first_long_table(browser, reports, name):
    _open(browser, reports[name])
    charts = sorted(p.stem for p in reports[name].parent.glob("*.png"))
    shown = browser.execute_script(
        "return Array.from(document.querySelectorAll('img.chart')).map(i => i.dataset.chart)"
    )
    assert sorted(shown) == charts and charts
    order = browser.execute_script(
        """
        const all = Array.from(document.querySelectorAll('img.chart, table'));
        const long = all.findIndex(e => e.tagName === 'TABLE' && e.querySelectorAll('tbody tr').length > 20);
        const chart = all.findIndex(e => e.tagName === 'IMG');
        return [chart, long];
        """
    )
    chart, long = order
    assert chart >= 0 and (long < 0 or chart < long)


def test_screenshot_of_the_first_screen_is_not_blank(browser, reports, tmp_path):
    _open(browser, reports[EXPERIMENTS[0]])
    shot = tmp_path / "first_screen.png"
    browser.save_screenshot(str(shot))
    image = imread(shot)
    assert image.shape[1] == WIDTH
    assert np.std(image[:, :, :3]) > 0.1  # title, headline and chart, not an empty page
    keep = os.environ.get("SIMLAB_SCREENSHOT")
    if keep:
        shutil.copy(shot, keep)


SHIPPED = sorted(Path("experiments").glob("*.toml"))


@pytest.fixture(scope="module")
def shipped_reports(tmp_path_factory) -> dict[str, Path]:
    """Every shipped experiment's report from its baseline (the shipped numbers), with its key chart.

    The report is built by the same code as ``simlab run``'s; only its further charts, which come
    after the first screen, are left out (they need the run's distributions and take a minute).
    """
    import pandas as pd

    from simlab.analyses.report import build_balance_report, draw_balance_charts
    from simlab.output import plots
    from simlab.output.answers import question_chart
    from simlab.output.charts import draw
    from simlab.output.document import build_report, to_html
    from simlab.output.saving import save_charts
    from simlab.output.words import vocabulary
    from simlab.records import ChartSpec, ExperimentRun
    from simlab.workflow.experiments import load_experiment
    from simlab.workflow.runner import run_experiment

    out = tmp_path_factory.mktemp("shipped")
    found = {}
    for path in SHIPPED:
        experiment = load_experiment(path, check_cells=False)
        if experiment.balance is not None:  # a solve or a sensitivity: run (a second), its key chart is its only one
            directory = out / experiment.name
            directory.mkdir()
            run = run_experiment(experiment)
            report = build_balance_report(run, draw_balance_charts(run, directory))
            (directory / "report.html").write_text(to_html(report), encoding="utf-8")
            found[experiment.name] = directory / "report.html"
            continue
        table = pd.read_csv(f"results/baselines/{experiment.name}/table.csv", keep_default_na=False)
        for column in ("value", "ci_low", "ci_high"):
            table[column] = pd.to_numeric(table[column], errors="coerce")
        run = ExperimentRun(experiment, table, pd.DataFrame(), pd.DataFrame(), pd.DataFrame(), 0.0)
        kind, options = question_chart(experiment.asks, experiment.dimensions)
        spec = ChartSpec(kind, options)
        directory = out / experiment.name
        directory.mkdir()
        with plots.speaking(vocabulary(experiment)):
            charts = save_charts([(spec, draw(spec, run))], directory)
        (directory / "report.html").write_text(to_html(build_report(run, charts)), encoding="utf-8")
        found[experiment.name] = directory / "report.html"
    return found


def _expected_answer(experiment, table) -> str:
    """What the headline must name, from the table: the threshold's value, or the best option (first case)."""
    from simlab.output.pivots import preferred_method, select
    from simlab.output.words import vocabulary

    words = vocabulary(experiment)
    if experiment.balance is not None:  # the first cell's answer, or the knob that moves the metric most
        base = table[(table["variant"] == "base") & (table["cell"] == 0)]
        if experiment.balance.kind == "tournament" and experiment.balance.defenders:
            return "best mix is"  # "The attacker's best mix is the laser carbine alone: ..."
        if experiment.balance.kind == "tournament":
            return "The metagame"  # "The metagame is the cruiser alone: ..."
        if experiment.balance.kind == "tune":
            return "the goal holds"  # "Raise the weapon's pen from 20 to 34 for laser: on fresh dice ... holds"
        if experiment.balance.kind == "sensitivity":
            shares = table[table["metric"] == "st"].sort_values("value", ascending=False)
            return words.name(shares["factor"].iloc[0], "inputs")
        found = base[base["metric"] == "found"]["value"]
        return words.where(str(experiment.balance.find), int(found.iloc[0])) if len(found) else "no crossing"
    asks = experiment.asks
    base = table[table["variant"] == "base"] if "variant" in table else table
    chosen = select(base, asks.where, metric=asks.metric)
    chosen = select(chosen, method=preferred_method(chosen))
    means = chosen.groupby([asks.input, *asks.per], sort=False, as_index=False)["value"].mean()
    if asks.per:
        means = means[means[asks.per[0]] == means[asks.per[0]].iloc[0]]
    words = vocabulary(experiment)
    if asks.kind == "threshold":
        ordered = means.sort_values(asks.input, ascending=asks.smallest)
        hit = ordered["value"] >= asks.target if asks.at_least else ordered["value"] <= asks.target
        reached = ordered[hit]
        if not len(reached):
            return "never reaches"
        value = reached[asks.input].iloc[0]
        return words.where(asks.input, value) if words.counted(asks.input) else f"is {words.amount(asks.input, value)}"
    best = means.sort_values("value", ascending=asks.lowest, kind="stable")[asks.input].iloc[0]
    return words.value(asks.input, best)


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_every_shipped_report_answers_its_question_on_the_first_screen(browser, shipped_reports, path):
    import pandas as pd

    from simlab.workflow.experiments import load_experiment

    experiment = load_experiment(path, check_cells=False)
    _open(browser, shipped_reports[experiment.name])
    height = browser.execute_script("return window.innerHeight")
    boxes = browser.execute_script(
        """
        const box = s => { const e = document.querySelector(s); if (!e) return null;
                           const r = e.getBoundingClientRect(); return [r.top, r.bottom, r.width]; };
        return {headline: box('#headline li'), chart: box('#key-chart img')};
        """
    )
    for part, box in boxes.items():
        assert box is not None and box[0] >= 0 and box[1] <= height, f"{path.stem}: the {part} is below: {box}"
    assert boxes["chart"][2] >= 500, f"{path.stem}: the key chart is too small to read"
    first = browser.execute_script("return document.querySelector('#headline li').textContent")
    table = pd.read_csv(f"results/baselines/{experiment.name}/table.csv", keep_default_na=False)
    table["value"] = pd.to_numeric(table["value"], errors="coerce")
    assert _expected_answer(experiment, table) in first, first
