"""The HTML report in a real browser: headless Chromium renders the summary, tables and charts."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from matplotlib.image import imread

from simlab.cli import main

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--virtual-time-budget=10000",
]

pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"),
    reason="Chromium is not installed (.ci/run installs it; apt-get install chromium)",
)


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    if CHROMIUM is None:
        pytest.fail("CI needs Chromium for the browser test: .ci/run installs it")
    out = tmp_path_factory.mktemp("results")
    with pytest.raises(SystemExit) as exit_info:
        main(["run", "experiments/tft_autofire_modes.toml", "--out", str(out)])
        raise SystemExit(0)
    assert not exit_info.value.code
    return out / "tft_autofire_modes" / "report.html"


def chromium(tmp_path: Path, *args: str) -> str:
    command = [CHROMIUM or "chromium", *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
    return done.stdout


def test_every_table_and_chart_appears(report, tmp_path):
    dom = chromium(tmp_path, "--dump-dom", report.as_uri())
    assert '<section id="summary">' in dom and "Revised HiTech TFT" in dom
    assert dom.count("<table") >= 2
    charts = sorted(p.stem for p in report.parent.glob("*.png"))
    shown = re.findall(r'<img class="chart" data-chart="([^"]+)"[^>]*data-loaded="yes"', dom)
    assert sorted(shown) == charts and len(charts) == 5


def test_screenshot_is_not_blank(report, tmp_path):
    shot = tmp_path / "report.png"
    chromium(tmp_path, "--window-size=1280,4800", f"--screenshot={shot}", report.as_uri())
    image = imread(shot)
    assert image.shape[0] == 4800 and image.shape[1] == 1280
    assert np.std(image[:, :, :3]) > 0.1  # text, tables and charts, not an empty page
    keep = os.environ.get("SIMLAB_SCREENSHOT")
    if keep:
        shutil.copy(shot, keep)
