"""Baselines and regression checks: did a change move numbers it should not have?

``simlab baseline`` stores each experiment's tidy table under ``results/baselines/NAME/``
(``table.csv``) with its provenance (``provenance.json``, which records the table's SHA-256).
A baseline that is unreadable, malformed, has a blank or non-numeric value, or is not the
table its provenance describes is refused with one line (exit 2), never read as "no change".

``simlab regress`` runs the experiments again (under the current rules, or
a variant) and compares every row with the baseline:

* exact metrics must match to ``1e-12``;
* sampled metrics are compared with two-sample z-tests (standard errors from the 95 %
  intervals), Holm-corrected over every sampled row of the check so that the chance of any
  false alarm is at most ``alpha`` (0.01); with a practical ``margin`` a row only counts as
  changed when its difference is significantly larger than the margin.

A baseline made with other numpy or numba versions may differ in the last bits even where
nothing changed; the check then says so and treats exact metrics like sampled ones whose
standard error is zero: they count as changed only beyond the margin (and a relative 1e-9).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from simlab.asking.variants import Variant
from simlab.engine.intervals import Z95
from simlab.engine.results import METHODS
from simlab.inputs.errors import SimlabError
from simlab.inputs.files import FileError, read_csv, read_json
from simlab.output.atomic import staged_directory
from simlab.output.provenance import experiment_provenance, package_versions
from simlab.records import Experiment, ExperimentRun
from simlab.workflow.runner import run_experiment

__all__ = [
    "BASELINES",
    "EXACT_TOLERANCE",
    "FAMILY_ALPHA",
    "write_baseline",
    "load_baseline",
    "compare_rows",
    "judged",
    "holm",
    "Regression",
    "regress",
]

#: Where baselines live.
BASELINES = Path("results") / "baselines"
#: Largest difference of an exact metric that is not a change.
EXACT_TOLERANCE = 1e-12
#: Chance of any false alarm among the sampled rows of one check.
FAMILY_ALPHA = 0.01
#: Relative difference of exact metrics tolerated when the baseline came from other versions.
CROSS_VERSION_TOLERANCE = 1e-9
_VERSIONED = ("numpy", "numba")


#: Columns every baseline table has besides the experiment's inputs.
BASELINE_COLUMNS = ("cell", "variant", "method", "metric", "value", "ci_low", "ci_high", "trials")
_TABLE, _PROVENANCE = "table.csv", "provenance.json"


def write_baseline(run: ExperimentRun, directory: Path = BASELINES) -> Path:
    """Store a run's table and provenance as the experiment's baseline, ``DIRECTORY/NAME/``.

    The two files are written into one directory that replaces the old one in a single step
    (:func:`simlab.output.atomic.staged_directory`), so a table and its provenance are always a pair;
    the provenance records the table's SHA-256.

    Raises:
        OutputError: When it cannot be written (the old baseline is then as it was).
    """
    sampled = run.table["trials"].dropna()
    provenance = experiment_provenance(
        run.experiment,
        seconds=run.seconds,
        trials_used=int(sampled.max()) if len(sampled) else 0,
        rows=len(run.table),
    )
    table = run.table.to_csv(index=False, lineterminator="\n").encode("utf-8")
    provenance["table_sha256"] = hashlib.sha256(table).hexdigest()
    destination = directory / run.experiment.name
    with staged_directory(destination) as stage:
        (stage / _TABLE).write_bytes(table)
        (stage / _PROVENANCE).write_text(json.dumps(provenance, indent=2) + "\n", encoding="utf-8")
    return destination


def load_baseline(experiment: Experiment, directory: Path = BASELINES) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The stored table and provenance of an experiment's baseline, checked.

    Raises:
        SimlabError: When there is none, or it is corrupt: unreadable, malformed, a blank or
            non-numeric value, an interval that does not hold its value, or a table that is not
            the one its provenance describes. Each is one line naming the file and row.
    """
    folder = directory / experiment.name
    table_path, provenance_path = folder / _TABLE, folder / _PROVENANCE
    if not table_path.exists() and not provenance_path.exists():
        raise SimlabError(
            f"no baseline of {experiment.name!r} in {directory}: make one with 'simlab baseline {experiment.path}'"
        )
    provenance = read_json(provenance_path, "baseline provenance")
    table = read_csv(table_path, "baseline table", required=BASELINE_COLUMNS, numbers=("value", "cell"))
    _check_baseline(table, table_path)
    recorded = provenance.get("table_sha256")
    if recorded != hashlib.sha256(table_path.read_bytes()).hexdigest():
        raise FileError(
            table_path,
            f"is not the table its provenance ({provenance_path.name}) describes (SHA-256 differs): "
            f"make the baseline again with 'simlab baseline {experiment.path}'",
        )
    versions = provenance.get("versions", {})
    if not isinstance(versions, dict):
        raise FileError(provenance_path, "versions: expected an object of package versions")
    return table, provenance


def _check_baseline(table: pd.DataFrame, path: Path) -> None:
    """Every row of a baseline table has a known method and, when sampled, an interval holding its value."""
    methods = table["method"].astype(str)
    unknown = ~methods.isin(METHODS)
    if unknown.any():
        row = int(unknown.to_numpy().nonzero()[0][0])
        raise FileError(path, f"column method: {methods.iloc[row]!r} is not one of {', '.join(METHODS)}", row + 2)
    sampled = (methods != "exact").to_numpy()
    low = pd.to_numeric(table["ci_low"], errors="coerce").to_numpy(dtype=float)
    high = pd.to_numeric(table["ci_high"], errors="coerce").to_numpy(dtype=float)
    trials = pd.to_numeric(table["trials"], errors="coerce").to_numpy(dtype=float)
    value = table["value"].to_numpy(dtype=float)
    slack = 1e-9 * np.maximum(1.0, np.abs(value))
    with np.errstate(invalid="ignore"):
        broken = sampled & ~(
            np.isfinite(low) & np.isfinite(high) & (low <= value + slack) & (value <= high + slack) & (trials >= 1)
        )
    if broken.any():
        row = int(broken.nonzero()[0][0])
        got = ", ".join(f"{column} {table[column].iloc[row]}" for column in ("ci_low", "value", "ci_high", "trials"))
        raise FileError(path, f"a sampled row needs ci_low <= value <= ci_high and trials >= 1; got {got}", row + 2)


def _key_text(value: Any) -> str:
    """A key value as text that survives a CSV round trip: a blank stays blank, 12.0 reads 12."""
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        if value.is_integer():
            return str(int(value))
    return str(value)


def _standard_error(frame: pd.DataFrame) -> pd.Series:
    return (frame["ci_high"] - frame["ci_low"]) / (2 * Z95)


def compare_rows(
    baseline: pd.DataFrame, current: pd.DataFrame, *, margin: float = 0.0, cross_version: bool = False
) -> pd.DataFrame:
    """Every row of ``current`` against the same row of ``baseline``, before any correction.

    Returns:
        The key columns with ``baseline``, ``current``, ``delta``, ``p_value`` (sampled rows)
        and ``changed`` (exact rows; sampled rows are decided by :func:`holm`).

    Raises:
        SimlabError: When the two do not have the same rows (the experiment itself changed).
    """
    keys = [c for c in current.columns if c not in ("value", "ci_low", "ci_high", "trials")]
    if len(baseline) != len(current) or list(baseline.columns) != list(current.columns):
        raise SimlabError(
            f"the baseline has {len(baseline)} rows and columns {list(baseline.columns)}, the run "
            f"{len(current)} rows and {list(current.columns)}: the experiment changed since its baseline"
        )
    left = baseline.assign(**{k: baseline[k].map(_key_text) for k in keys})
    right = current.assign(**{k: current[k].map(_key_text) for k in keys})
    merged = right.merge(left, on=keys, how="left", suffixes=("", "_base"), indicator=True)
    if (merged["_merge"] != "both").any():
        missing = merged[merged["_merge"] != "both"].iloc[0]
        row = ", ".join(f"{k}={missing[k]}" for k in keys)
        raise SimlabError(f"the baseline has no row {row}: the experiment changed since its baseline")
    merged = merged.astype({k: current[k].dtype for k in keys if current[k].dtype != object}, errors="ignore")
    delta = merged["value"] - merged["value_base"]
    exact = merged["method"] == "exact"
    se = np.sqrt(_standard_error(merged) ** 2 + _standard_error(merged.rename(columns=_base_names)) ** 2)
    excess = delta.abs() - margin
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(margin > 0, excess, delta.abs()) / se
        p = np.where(margin > 0, stats.norm.sf(z), 2 * stats.norm.sf(z))
    deterministic = ~(se > 0)
    p = np.where(deterministic, np.where(excess > EXACT_TOLERANCE, 0.0, 1.0), p)
    if cross_version:
        tolerance = np.maximum(margin, CROSS_VERSION_TOLERANCE * np.maximum(1.0, merged["value_base"].abs()))
    else:
        tolerance = np.full(len(merged), EXACT_TOLERANCE)
    result = merged[keys].copy()
    result["baseline"] = merged["value_base"]
    result["current"] = merged["value"]
    for side, suffix in (("baseline", "_base"), ("current", "")):  # the intervals, for the reports of a change
        result[f"{side}_ci_low"] = merged[f"ci_low{suffix}"]
        result[f"{side}_ci_high"] = merged[f"ci_high{suffix}"]
    result["delta"] = delta
    result["p_value"] = np.where(exact, np.nan, np.where(np.isnan(delta), 0.0, p))
    with np.errstate(divide="ignore", invalid="ignore"):  # |Δ| over its standard error, or relative when exact
        relative = delta.abs() / np.maximum(merged["value_base"].abs(), 1e-300)
        result["weight"] = np.where(exact | deterministic, relative, delta.abs() / se)
    result["weight"] = result["weight"].fillna(np.inf)
    # A value that is not a number on either side is always a change, never "no change".
    result["changed"] = np.where(exact, ~(delta.abs() <= tolerance), False)
    return result


def _base_names(column: str) -> str:
    return {"ci_low_base": "ci_low", "ci_high_base": "ci_high", "ci_low": "_", "ci_high": "__"}.get(column, column)


def holm(p_values: Sequence[float] | np.ndarray, alpha: float = FAMILY_ALPHA) -> np.ndarray:
    """Holm's step-down rejections: which hypotheses to reject at family-wise level ``alpha``."""
    p = np.asarray(p_values, dtype=float)
    order = np.argsort(p, kind="stable")
    reject = np.zeros(len(p), dtype=bool)
    m = len(p)
    for rank, index in enumerate(order):
        if p[index] > alpha / (m - rank):
            break
        reject[index] = True
    return reject


@dataclass(frozen=True, eq=False)
class Regression:
    """The outcome of one regression check.

    Attributes:
        rows: Every compared row of every experiment, with ``experiment`` and ``changed``.
        notes: What the reader should know (other versions, a variant).
    """

    rows: dict[str, pd.DataFrame]
    notes: list[str]

    @property
    def changed(self) -> dict[str, pd.DataFrame]:
        """The changed rows of each experiment, what matters first (:func:`by_weight`)."""
        result = {}
        for name, rows in self.rows.items():
            changed = rows[rows["changed"]]
            if len(changed):
                result[name] = by_weight(changed).drop(columns=["changed"])
        return result


def by_weight(rows: pd.DataFrame) -> pd.DataFrame:
    """Changed rows grouped by metric, the chances (``p_...``, the headline metrics) first.

    Within each group, and among the groups of each kind, the heaviest first: ``weight`` is |Δ| over
    its standard error for a sampled row, |Δ| relative to the baseline value for an exact row, so a
    win chance moved by ten standard errors comes before an ammunition count moved by 31 rounds.
    """
    heaviest = rows.groupby("metric")["weight"].max()
    chance = rows["metric"].astype(str).str.startswith("p_")
    order = pd.DataFrame(
        {"chance": ~chance, "group": -rows["metric"].map(heaviest), "metric": rows["metric"], "weight": -rows["weight"]}
    )
    return rows.loc[order.sort_values(["chance", "group", "metric", "weight"], kind="stable").index]


def regress(
    experiments: Sequence[Experiment],
    *,
    variant: Variant | None = None,
    margin: float = 0.0,
    alpha: float = FAMILY_ALPHA,
    directory: Path = BASELINES,
    threads: int | None = None,
    progress: Callable[[str], None] | None = None,
    current: Mapping[str, pd.DataFrame] | None = None,
) -> Regression:
    """Run the experiments again and compare them with their baselines.

    Args:
        experiments: The experiments (each needs a baseline).
        variant: Rules to check instead of the current ones (their rows are compared with
            the baseline's base rows; the experiments' own variants are left out).
        margin: Practical margin: smaller differences of sampled metrics never count.
        alpha: Family-wise false-alarm rate of the sampled checks.
        directory: Where the baselines are.
        threads: Worker threads for sampling.
        progress: Called with each experiment's name as it starts.
        current: Each experiment's table of the current run, when it was run already
            (``simlab regress`` runs them in parallel first); else they run here.
    """
    if margin < 0 or not math.isfinite(margin):
        raise SimlabError(f"invalid value {margin} for --margin: expected a number >= 0")
    notes = []
    baselines = {e.name: load_baseline(e, directory) for e in experiments}
    now = package_versions()
    rows: dict[str, pd.DataFrame] = {}
    for experiment in experiments:
        table, provenance = baselines[experiment.name]
        then = provenance.get("versions", {})
        cross_version = any(then.get(p) != now.get(p) for p in _VERSIONED)
        if cross_version:
            made = ", ".join(f"{p} {then.get(p)}" for p in _VERSIONED)
            notes.append(
                f"{experiment.name}: the baseline was made with {made} (now "
                f"{', '.join(f'{p} {now[p]}' for p in _VERSIONED)}); exact values are compared "
                "statistically too (differences beyond the margin and a relative 1e-9 count)"
            )
        if progress is not None:
            progress(experiment.name)
        if variant is not None:
            table = table[table["variant"] == "base"].reset_index(drop=True)
        if current is not None:
            now_table = current[experiment.name]
        elif variant is not None:
            bare = dataclasses.replace(experiment, variants=())
            now_table = run_experiment(bare, threads=threads, base_variant=variant).table
        else:
            now_table = run_experiment(experiment, threads=threads).table
        rows[experiment.name] = compare_rows(table, now_table, margin=margin, cross_version=cross_version)
    if variant is not None:
        notes.append(f"rules: variant {variant.name} ({variant.path}) against the baselines of the base rules")
    return judged(rows, notes, alpha)


def judged(rows: dict[str, pd.DataFrame], notes: list[str], alpha: float = FAMILY_ALPHA) -> Regression:
    """Compared rows (:func:`compare_rows`) with every sampled row's change decided by :func:`holm` over them all."""
    sampled = [(name, frame.index[frame["method"] != "exact"]) for name, frame in rows.items()]
    p_values = np.concatenate([rows[name].loc[index, "p_value"].to_numpy() for name, index in sampled] or [[]])
    rejected = holm(p_values, alpha)
    start = 0
    for name, index in sampled:
        rows[name].loc[index, "changed"] = rejected[start : start + len(index)]
        start += len(index)
    return Regression(rows, notes)
