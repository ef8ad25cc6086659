"""A real ``simlab serve`` on a free port and headless Chromium driving it, for the web tests."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
needs_chromium = pytest.mark.skipif(
    (CHROMIUM is None or DRIVER is None) and not os.environ.get("CI"),
    reason="Chromium and chromium-driver are not installed (.ci/run installs them)",
)


def free_port() -> int:
    """A port nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(results: Path, *options: str) -> Iterator[str]:
    """``simlab serve`` in a process of its own: its address while it runs."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "simlab", "serve", "--port", str(port), "--results", str(results), *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(url + "/", timeout=1).read()
                break
            except OSError:
                if process.poll() is not None:
                    raise AssertionError(process.stdout.read().decode() if process.stdout else "serve exited") from None
                time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


@contextmanager
def chromium(width: int = 1400, height: int = 900) -> Iterator[Any]:
    """Headless Chromium at ``width`` × ``height``, its console log kept."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM or ""
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 f"--window-size={width},{height}"):  # fmt: skip
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if width < 500:  # a desktop window is at least 500 px wide: a phone's screen is emulated
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": width, "height": height,
                                                                              "pixelRatio": 2}})  # fmt: skip
    browser = webdriver.Chrome(service=Service(DRIVER or "chromedriver"), options=options)
    try:
        yield browser
    finally:
        browser.quit()


def console_errors(browser: Any) -> list[str]:
    """The browser console's errors since the last call (uncaught exceptions among them)."""
    return [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
