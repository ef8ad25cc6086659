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

pytestmark = pytest.mark.skipif(
    (CHROMIUM is None or DRIVER is None) and not os.environ.get("CI"),
    reason="Chromium and chromium-driver are not installed (.ci/run installs them)",
)


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
