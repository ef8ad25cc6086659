"""The ``serve`` section of ``simlab bench``: how fast the web page answers, through the ASGI test client.

Each view is requested repeatedly in one process, the way a designer's browser would ask
for it, and the p50 and p95 of the wall times are reported: the exact answer of each
system's default attack as JSON (goal: under 50 ms p95) and as its page fully drawn (the
answer and its charts' specifications, which the page draws itself: goal under 0.5 s), the
TFT weapon × armour exact heatmap of the Sweep page (goal: under 1 s), and each shipped
battle's page at its default trials with its charts (goal: under 1 s). Every timed request
computes its answer: the answers the server keeps are forgotten before each.
"""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["serve_bench", "BATTLES"]

#: The shipped battles, whose pages are timed.
BATTLES = Path(__file__).resolve().parents[2] / "experiments" / "battles"



def _percentiles(seconds: list[float]) -> dict[str, Any]:
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"p50_ms": statistics.median(ordered) * 1000, "p95_ms": p95 * 1000, "requests": len(ordered)}


def _timed(client: Any, url: str, params: Mapping[str, str], repeat: int) -> dict[str, Any]:
    response = client.get(url, params=params)  # the first request compiles and loads what a warm server has
    if response.status_code != 200:
        raise RuntimeError(f"{url}: HTTP {response.status_code}: {response.text[:200]}")
    seconds = []
    for _ in range(repeat):
        client.app.state.site.answers.clear()
        started = time.perf_counter()
        client.get(url, params=params)
        seconds.append(time.perf_counter() - started)
    return _percentiles(seconds)


def _battle_drawn(client: Any, system: str, battle: str, repeat: int, trials: int | None = None) -> dict[str, Any]:
    """A battle's page with its charts (their specifications are in the page); p50 and p95.

    The charts under "more charts" are drawn when the designer opens them, and are not counted.
    """
    url, params = f"/battle/{system}", {"battle": battle, **({"trials": str(trials)} if trials else {})}
    client.get(url, params={**params, "trials": "1000"})  # the kernels compiled, as on a warm server
    seconds, charts = [], 0
    for _ in range(repeat):
        client.app.state.site.answers.clear()
        started = time.perf_counter()
        page = client.get(url, params=params)
        seconds.append(time.perf_counter() - started)
        if page.status_code != 200:
            raise RuntimeError(f"{url}: HTTP {page.status_code}: {page.text[:200]}")
        shown = page.text.split('class="more-charts"')[0]
        charts = len(re.findall(r'<div class="vega-chart"', shown))
    return {"battle": battle, "system": system, "charts": charts, **_percentiles(seconds)}


def serve_bench(repeat: int = 40, battle_repeat: int | None = None, battle_trials: int | None = None) -> dict[str, Any]:
    """p50 and p95 of the web views, in milliseconds.

    Args:
        repeat: Timed requests per view.
        battle_repeat: Timed battle pages each, and heatmaps (default: a tenth of ``repeat``, at least 3).
        battle_trials: Battles a page samples (default: the page's own default, which the goal is about).

    Returns:
        ``{"pages": [...], "api": [...], "heatmap": {...}}``; each entry names its view, its
        p50 and p95, and whether it meets its goal.
    """
    from fastapi.testclient import TestClient

    from simlab.systems import all_systems, get_system
    from simlab.web.app import create_app
    from simlab.web.battle import battle_files

    client = TestClient(create_app(battles=BATTLES))  # the shipped battles, wherever it is run from
    pages: list[dict[str, Any]] = []
    api: list[dict[str, Any]] = []
    for system, inputs in ((s.name, s.example) for s in all_systems()):  # each system's typical attack
        params = {**inputs, "method": "exact"}
        api.append({"system": system, **_timed(client, f"/api/attack/{system}", params, repeat)})
        pages.append({"system": system, **_timed(client, f"/attack/{system}", params, repeat)})
    for entries, goal in ((api, 50.0), (pages, 500.0)):
        for entry in entries:
            entry.update(goal_ms=goal, meets_goal=entry["p95_ms"] < goal)
    tables = get_system("hitech_tft").tables()
    weapons = ",".join(str(r["name"]) for r in tables["weapons"].as_records())
    armours = ",".join(str(r["name"]) for r in tables["armor"].as_records())
    sweep = {"x": "armor", "values": armours, "metric": "mean_damage", "series": "weapon", "series_values": weapons}
    times = battle_repeat if battle_repeat is not None else max(3, repeat // 10)
    heatmap = _timed(client, "/sweep/hitech_tft", {**sweep, "method": "exact"}, times)
    heatmap.update(
        goal_ms=1000.0, meets_goal=heatmap["p95_ms"] < 1000.0, cells=len(weapons.split(",")) * len(armours.split(","))
    )
    battles = [
        _battle_drawn(client, owner, name, times, battle_trials)
        for name, (owner, _) in sorted(battle_files(BATTLES).items())
    ]
    for entry in battles:
        entry.update(goal_ms=1000.0, meets_goal=entry["p95_ms"] < 1000.0)
    return {"api": api, "pages": pages, "heatmap": heatmap, "battles": battles}
