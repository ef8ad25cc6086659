"""Pay only for what you use: a command imports its own machinery, and exact answers never load the compiler.

The start-up times themselves are measured by ``simlab bench`` (its ``startup`` section), not
asserted here; these tests check what makes them short.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from simlab.systems import all_systems
from simlab.systems.catalogue import catalogue, describe_system

EXACT = {
    "hitech_tft": ["--set", "weapon=assault rifle"],
    "striker": ["--set", "weapon=rifle"],
    "tyconian": ["--set", "weapon=autopistol"],
    "space_v4": ["--set", "attacker=frigate", "--set", "defender=scout"],
}


def loaded_after(args: list[str]) -> dict[str, bool]:
    """Which heavy packages a fresh process has imported after ``simlab ARGS``."""
    probe = (
        "import contextlib, io, json, sys\n"
        "from simlab.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        f"    main({args!r})\n"
        "print(json.dumps({name: name in sys.modules for name in ('numba', 'pandas', 'matplotlib', 'tqdm')}))\n"
    )
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return dict(json.loads(found.stdout))


@pytest.mark.parametrize("args", [["--help"], ["systems"], *(["attack", s, *a, "--exact"] for s, a in EXACT.items())],
                         ids=["help", "systems", *EXACT])  # fmt: skip
def test_a_command_that_samples_nothing_loads_neither_numba_nor_pandas(args):
    assert not any(loaded_after(args).values())


def test_the_catalogue_is_the_registrys_and_follows_every_change(tmp_path, monkeypatch):
    monkeypatch.setenv("SIMLAB_CACHE", str(tmp_path))
    described = [describe_system(system) for system in all_systems()]
    assert catalogue() == described  # computed, then kept
    assert len(list(tmp_path.glob("systems-*.json"))) == 1
    assert catalogue() == described  # read back
    next(tmp_path.glob("systems-*.json")).write_text(json.dumps([{"name": "kept"}]))
    assert catalogue() == [{"name": "kept"}]  # while simlab's files are unchanged, the kept one is read
    import simlab.systems.catalogue as module

    source = Path(module.__file__)
    stat = source.stat()
    try:
        os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))  # a file of simlab changed
        assert catalogue() == described
    finally:
        os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))
