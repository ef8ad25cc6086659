"""The ``serve`` section of ``simlab bench``: how fast the web page answers, through the ASGI test client.

Each view is requested repeatedly in one process, the way a designer's browser would ask
for it, and the p50 and p95 of the wall times are reported: the exact answer of each
system's default attack (goal: under 50 ms p95), and the TFT weapon × armour exact heatmap
of the Sweep page (goal: under 1 s).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Mapping
from typing import Any

__all__ = ["serve_bench", "DEFAULT_ATTACKS"]

#: A default attack of each system: the view of the Ask page that the goal is about.
DEFAULT_ATTACKS: Mapping[str, Mapping[str, str]] = {
    "hitech_tft": {"weapon": "assault rifle", "armor": "flak jacket", "mode": "four", "range_m": "20"},
    "striker": {"weapon": "rifle", "armor": "cloth"},
    "tyconian": {"weapon": "assault rifle", "armor": "flak vest"},
    "space_v4": {"weapon": "beam", "attacker": "frigate", "defender": "patrol cruiser"},
}


def _percentiles(seconds: list[float]) -> dict[str, Any]:
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"p50_ms": statistics.median(ordered) * 1000, "p95_ms": p95 * 1000, "requests": len(ordered)}


def _timed(client: Any, url: str, params: Mapping[str, str], repeat: int) -> dict[str, Any]:
    response = client.get(url, params=params)  # the first request fills the caches a server keeps warm
    if response.status_code != 200:
        raise RuntimeError(f"{url}: HTTP {response.status_code}: {response.text[:200]}")
    seconds = []
    for _ in range(repeat):
        started = time.perf_counter()
        client.get(url, params=params)
        seconds.append(time.perf_counter() - started)
    return _percentiles(seconds)


def serve_bench(repeat: int = 40) -> dict[str, Any]:
    """p50 and p95 of the web views, in milliseconds.

    Args:
        repeat: Timed requests per view.

    Returns:
        ``{"pages": [...], "api": [...], "heatmap": {...}}``; each entry names its view, its
        p50 and p95, and whether it meets its goal.
    """
    from fastapi.testclient import TestClient

    from simlab.systems import get_system
    from simlab.web.app import create_app

    client = TestClient(create_app())
    pages: list[dict[str, Any]] = []
    api: list[dict[str, Any]] = []
    for system, inputs in DEFAULT_ATTACKS.items():
        params = {**inputs, "method": "exact"}
        api.append({"system": system, **_timed(client, f"/api/attack/{system}", params, repeat)})
        pages.append({"system": system, **_timed(client, f"/attack/{system}", params, repeat)})
    for entry in (*api, *pages):
        entry["goal_ms"] = 50.0
        entry["meets_goal"] = entry["p95_ms"] < 50.0
    tables = get_system("hitech_tft").tables()
    weapons = ",".join(str(r["name"]) for r in tables["weapons"].as_records())
    armours = ",".join(str(r["name"]) for r in tables["armor"].as_records())
    sweep = {"x": "armor", "values": armours, "metric": "mean_damage", "series": "weapon", "series_values": weapons}
    heatmap = _timed(client, "/sweep/hitech_tft", {**sweep, "method": "exact"}, max(3, repeat // 10))
    heatmap.update(
        goal_ms=1000.0, meets_goal=heatmap["p95_ms"] < 1000.0, cells=len(weapons.split(",")) * len(armours.split(","))
    )
    return {"api": api, "pages": pages, "heatmap": heatmap}
