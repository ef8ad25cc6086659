"""``simlab init``: a designer's own repository of house rules, ready to run, baseline and check on every pull request.

The project holds a small example experiment per system (exact, one cell a row of the system's
table), own rows of the tables (``tables/SYSTEM/TABLE.csv``, which every example reads), a
``variants/`` folder, a README, a ``.gitignore``, and two ways to check it in CI: a GitHub Actions
workflow and a plain script for any other CI, both running ``simlab regress``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from simlab.inputs.errors import SimlabError, shown_path
from simlab.inputs.params import as_plain
from simlab.systems import System, all_systems, get_system

__all__ = ["project_files", "write_project", "CHECK_SCRIPT", "WORKFLOW"]

#: The plain script any CI can run: install simlab, then check every experiment against its baseline.
CHECK_SCRIPT = "ci/simlab-check.sh"
#: The GitHub Actions workflow.
WORKFLOW = ".github/workflows/simlab.yml"
#: The columns of a row the project's own table gives (numbers the designer is likely to change), at most.
_COLUMNS = 3


def _row_input(system: System) -> tuple[str, str]:
    """The example's row input and its table (``weapon``, ``weapons``)."""
    rows = system.attack.row_inputs
    key = next(k for k in system.example if k in rows)
    return key, rows[key]


def _own_rows(system: System) -> str:
    """The CSV of one row of the example's table, as shipped: a few of its numbers, ready to be changed."""
    key, table = _row_input(system)
    row = as_plain(system.tables()[table].row(str(system.example[key])))
    numbers = [c for c, v in row.items() if c != "name" and isinstance(v, int | float) and not isinstance(v, bool)]
    columns = numbers[:_COLUMNS]
    cells = [str(row["name"]), *(str(row[c]) for c in columns)]
    return "name," + ",".join(columns) + "\n" + ",".join(f'"{c}"' if "," in c else c for c in cells) + "\n"


def _experiment(system: System) -> str:
    """A small exact experiment of the system's attack, reading the project's own rows."""
    key, _ = _row_input(system)
    fixed = {k: v for k, v in system.example.items() if k != key}
    lines = [
        f"# {system.title}: the example's attack, with the project's own rows (tables/{system.name}/).",
        f'name = "{system.name}_example"',
        f'system = "{system.name}"',
        'method = "exact"',
        f'tables = "../tables/{system.name}"',
        "",
        "[fixed]",
        *(f"{k} = {json.dumps(_typed(v))}" for k, v in fixed.items()),
        "",
        "[grid]",
        f"{key} = [{json.dumps(system.example[key])}]",
    ]
    return "\n".join(lines) + "\n"


def _typed(value: Any) -> Any:
    """An example's value as TOML holds it (``"20"`` is the number 20)."""
    text = str(value)
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


def _readme(systems: Sequence[System]) -> str:
    names = ", ".join(system.title for system in systems)
    return f"""# House rules

A simlab project: {names}. Each experiment in `experiments/` asks a question of the rules; the
rows in `tables/SYSTEM/TABLE.csv` change or add rows of the system's tables (a blank cell keeps the
shipped value); `variants/` holds house-rule variants. Every pull request is checked against the
baselines in `results/baselines/`.

```sh
python -m pip install simlab
simlab run experiments/*.toml            # the reports, in results/
simlab baseline experiments/*.toml       # after an intended change: store the new numbers
simlab regress experiments/*.toml        # exit 1 if a number moved
simlab regress experiments/*.toml --format markdown   # the same, as a pull-request comment
```

CI: `{WORKFLOW}` (GitHub Actions) runs `simlab regress` on every pull request and posts what moved;
`{CHECK_SCRIPT}` does the same on any other CI.
"""


def _workflow() -> str:
    return f"""name: simlab
on:
  pull_request:
  push:
    branches: [main]
jobs:
  regress:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.11"
      - name: Check the house rules against their baselines
        run: bash {CHECK_SCRIPT}
      - name: Keep the report of what moved
        if: always()
        uses: actions/upload-artifact@v4
        with:
          name: simlab-regress
          path: |
            regress.md
            regress.xml
            regress/
"""


def _check_script() -> str:
    return """#!/usr/bin/env bash
# Check every experiment against its baseline: exit 1 when a number moved (regress.md says what).
set -uo pipefail
cd "$(dirname "$0")/.."
command -v simlab >/dev/null || python -m pip install -q "${SIMLAB_PACKAGE:-simlab}"
simlab regress experiments/*.toml --format markdown --junit regress.xml --report regress > regress.md
status=$?
cat regress.md
exit $status
"""


def project_files(systems: Sequence[str] = ()) -> dict[str, str]:
    """Every file of a new project by its path, for the systems named (default: every system).

    Raises:
        SimlabError: For an unknown system (with the valid ones).
    """
    chosen = [get_system(name) for name in systems] if systems else list(all_systems())
    files: dict[str, str] = {
        "simlab.toml": _settings(chosen),
        "README.md": _readme(chosen),
        ".gitignore": "results/*\n!results/baselines/\n__pycache__/\nregress.md\nregress.xml\nregress/\n",
        "variants/README.md": "House-rule variants: TOML files that change rule parameters and table rows "
        "(`simlab compare experiments/X.toml --variant variants/Y.toml`).\n",
        WORKFLOW: _workflow(),
        CHECK_SCRIPT: _check_script(),
    }
    for system in chosen:
        _, table = _row_input(system)
        files[f"experiments/{system.name}_example.toml"] = _experiment(system)
        files[f"tables/{system.name}/{table}.csv"] = _own_rows(system)
    return files


def _settings(systems: Sequence[System]) -> str:
    names = ", ".join(json.dumps(system.name) for system in systems)
    return (
        "# The project's settings.\n"
        f"systems = [{names}]\n"
        'tables = "tables"            # own rows: tables/SYSTEM/TABLE.csv\n'
        'baselines = "results/baselines"\n'
        "trials = 100000              # of a question asked without --trials (an experiment states its own)\n"
    )


def write_project(directory: Path, files: Mapping[str, str]) -> list[Path]:
    """Write a new project's files, refusing before writing anything where one of them exists.

    Raises:
        SimlabError: Naming the first file that exists.
    """
    paths = [directory / name for name in files]
    existing = next((path for path in paths if path.exists()), None)
    if existing is not None:
        raise SimlabError(f"{shown_path(existing)}: exists already; simlab init writes a new project "
                          "and never over a file (choose an empty folder)")  # fmt: skip
    for path, text in zip(paths, files.values(), strict=True):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if path.suffix == ".sh":
            path.chmod(0o755)
    return paths
