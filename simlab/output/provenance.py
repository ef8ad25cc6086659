"""Provenance written beside every result (docs/architecture.md, principle 6)."""

from __future__ import annotations

import functools
import hashlib
import json
import platform
import sys
from datetime import UTC, datetime
from importlib import metadata
from typing import Any

from simlab.about import __version__
from simlab.inputs.own_tables import describe_tables
from simlab.inputs.params import as_plain, build
from simlab.records import Experiment

__all__ = ["package_versions", "parameters_hash", "experiment_provenance"]

_PACKAGES = ("numpy", "numba", "pandas", "scipy", "matplotlib", "click", "pyarrow")


def package_versions() -> dict[str, str]:
    """Versions of simlab, Python and the packages results depend on."""
    return dict(_installed_versions())


@functools.lru_cache(maxsize=1)
def _installed_versions() -> tuple[tuple[str, str], ...]:
    """The versions, looked up once per process (each lookup reads the installed packages' metadata)."""
    versions = {"simlab": __version__, "python": platform.python_version()}
    for name in _PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:  # pragma: no cover - every one is a dependency
            versions[name] = "not installed"
    return tuple(versions.items())


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def parameters_hash(experiment: Experiment) -> str:
    """SHA-256 of everything that determines the results but the code: inputs, rules, tables."""
    system = experiment.owner
    payload = {
        "system": experiment.system,
        "method": experiment.method,
        "trials": experiment.trials,
        "seed": experiment.seed,
        "precision": experiment.precision,
        "fixed": dict(experiment.fixed),
        "grid": {k: list(v) for k, v in experiment.grid.items()},
        "metrics": experiment.metrics,
        "rules": as_plain(build(system.rules_type, experiment.rules, what="rule parameter")),
        "tables": {name: table.digest for name, table in system.tables().items()},
        "variants": [{k: v.describe()[k] for k in ("name", "rules", "tables")} for v in experiment.variants],
    }
    if experiment.battle is not None:  # the battle's sides, doctrine and groups determine the results too
        payload["battle"] = experiment.battle.data
    if experiment.tables:  # one's own rows
        payload["own_tables"] = {name: table.digest for name, table in experiment.tables.items()}
    return hashlib.sha256(_canonical(payload).encode()).hexdigest()


def _battle_provenance(experiment: Experiment) -> dict[str, Any]:
    """The battle file of a battle experiment and its hash (nothing for other experiments)."""
    battle = experiment.battle
    if battle is None:
        return {}
    return {"battle": {"file": str(battle.path), "sha256": hashlib.sha256(battle.path.read_bytes()).hexdigest()}}


def experiment_provenance(experiment: Experiment, *, seconds: float, trials_used: int, rows: int) -> dict[str, Any]:
    """The ``provenance.json`` object of one experiment's results."""
    system = experiment.owner
    return {
        "experiment": experiment.name,
        "file": str(experiment.path),
        "file_sha256": hashlib.sha256(experiment.path.read_bytes()).hexdigest(),
        "system": experiment.system,
        "method": experiment.method,
        "seed": experiment.seed,
        "trials": experiment.trials,
        "trials_sampled": trials_used,
        "precision": experiment.precision,
        "cells": experiment.n_cells,
        "rows": rows,
        "rules": as_plain(build(system.rules_type, experiment.rules, what="rule parameter")),
        "tables": {name: {"file": t.source, "sha256": t.digest} for name, t in system.tables().items()},
        "variants": [variant.describe() for variant in experiment.variants],
        **({"own_tables": describe_tables(experiment.tables, system.tables())} if experiment.tables else {}),
        **({"skipped_cells": [{"cell": i, "inputs": dict(c), "reason": r} for i, c, r in experiment.skipped]}
           if experiment.skipped else {}),
        **_battle_provenance(experiment),
        "parameters_hash": parameters_hash(experiment),
        "versions": package_versions(),
        "platform": platform.platform(),
        "command": " ".join(sys.argv),
        "seconds": round(seconds, 3),
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
    }
