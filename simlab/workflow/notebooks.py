"""The walk-through notebooks of ``notebooks/``, committed with their outputs: run, written back, checked.

``simlab notebooks`` executes every notebook top to bottom in a Jupyter kernel, as a designer
would, at :data:`NOTEBOOK_TRIALS` trials per sampled experiment cell, and writes it back with its
outputs (tables, printed lines and charts), so that the notebooks read on their own, on a code
host or in JupyterLab (``pip install -e ".[notebooks]"``). ``simlab notebooks --check`` executes
them in memory and names each cell whose committed output is no longer what it prints: every
answer is a pure function of its inputs and seed, so text outputs must match exactly; a chart
must be there (its pixels may differ between matplotlib versions).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from simlab.inputs.errors import SimlabError

__all__ = ["NOTEBOOK_TRIALS", "NOTEBOOKS", "execute", "stale_cells", "write_notebook", "text_outputs"]

#: Trials per sampled experiment cell in the committed notebooks (``SIMLAB_NOTEBOOK_TRIALS``).
NOTEBOOK_TRIALS = 5_000
#: Where the notebooks are.
NOTEBOOKS = Path("notebooks")


def _modules() -> tuple[Any, Any]:
    try:
        import nbformat
        from nbclient import NotebookClient
    except ImportError as exc:
        raise SimlabError(
            f'simlab notebooks needs nbclient and nbformat ({exc.name} is missing): pip install -e ".[notebooks]"'
        ) from None
    return nbformat, NotebookClient


def execute(path: Path, trials: int = NOTEBOOK_TRIALS) -> Any:
    """The notebook at ``path`` executed top to bottom (in its own directory), outputs and all.

    Raises:
        SimlabError: When a cell fails, naming the notebook and the cell.
    """
    nbformat, client_type = _modules()
    notebook = nbformat.read(path, as_version=4)
    previous = os.environ.get("SIMLAB_NOTEBOOK_TRIALS")
    os.environ["SIMLAB_NOTEBOOK_TRIALS"] = str(trials)  # the kernel inherits it
    try:
        client = client_type(
            notebook, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
        )
        client.execute()
    except Exception as exc:
        raise SimlabError(f"{path}: {str(exc).strip().splitlines()[-1][:300]}") from None
    finally:
        if previous is None:
            os.environ.pop("SIMLAB_NOTEBOOK_TRIALS", None)
        else:
            os.environ["SIMLAB_NOTEBOOK_TRIALS"] = previous
    for cell in notebook.cells:  # what a kernel adds that says nothing about the answer
        cell.get("metadata", {}).pop("execution", None)
        if cell.cell_type == "code":
            cell["outputs"] = _coalesced([o for o in cell.get("outputs", []) if o.get("name") != "stderr"])
    return notebook


def _coalesced(outputs: list[Any]) -> list[Any]:
    """Printed text in one output per run of prints (a kernel splits it by timing, not by meaning)."""
    merged: list[Any] = []
    for output in outputs:
        last = merged[-1] if merged else None
        if (
            last is not None
            and output.get("output_type") == "stream"
            and last.get("output_type") == "stream"
            and last.get("name") == output.get("name")
        ):
            last["text"] = "".join(last["text"]) + "".join(output["text"])
        else:
            merged.append(output)
    return merged


def text_outputs(cell: Any) -> list[str]:
    """A cell's outputs as text: what it printed (however the kernel split it) and the plain form of its values."""
    printed = "".join("".join(o.get("text", "")) for o in cell.get("outputs", []) if o.get("output_type") == "stream")
    shown = [printed] if printed else []
    for output in cell.get("outputs", []):
        if "text/plain" in output.get("data", {}) and "image/png" not in output.get("data", {}):
            shown.append("".join(output["data"]["text/plain"]))
    return shown


def _images(cell: Any) -> int:
    return sum("image/png" in output.get("data", {}) for output in cell.get("outputs", []))


def stale_cells(committed: Any, fresh: Any) -> list[str]:
    """The cells whose committed outputs are not what they print now: ``cell N (first line): what differs``."""
    found = []
    cells = list(zip(committed.cells, fresh.cells, strict=False))
    if len(committed.cells) != len(fresh.cells):
        found.append(f"{len(committed.cells)} cells committed, {len(fresh.cells)} now")
    for number, (old, new) in enumerate(cells, 1):
        if new.cell_type != "code":
            continue
        first = new.source.strip().splitlines()[0][:60] if new.source.strip() else ""
        if text_outputs(old) != text_outputs(new):
            found.append(f"cell {number} ({first}): its printed output changed")
        elif _images(old) != _images(new):
            found.append(f"cell {number} ({first}): {_images(old)} chart(s) committed, {_images(new)} now")
    return found


def write_notebook(notebook: Any, path: Path) -> None:
    """Write the executed notebook back (execution counts and all), atomically."""
    from simlab.output.atomic import staged_file

    nbformat, _ = _modules()
    with staged_file(path) as staged:
        nbformat.write(notebook, staged)


def notebook_paths(given: Iterable[Path]) -> list[Path]:
    """The notebooks named, or every notebook of ``notebooks/``.

    Raises:
        SimlabError: For a path that is not a notebook, or no notebook at all.
    """
    paths = list(given) or sorted(NOTEBOOKS.glob("*.ipynb"))
    if not paths:
        raise SimlabError(f"no notebook in {NOTEBOOKS}/: run from a simlab checkout or name the notebooks")
    for path in paths:
        if path.suffix != ".ipynb" or not path.is_file():
            raise SimlabError(f"{path}: not a notebook (.ipynb) file")
    return paths
