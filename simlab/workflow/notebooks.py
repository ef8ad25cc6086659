"""The walk-through notebooks of ``notebooks/``, committed with their outputs: run, written back, checked.

``simlab notebooks`` executes every notebook top to bottom in a Jupyter kernel, as a designer
would, at :data:`NOTEBOOK_TRIALS` trials per sampled experiment cell, and writes it back with its
outputs (tables, printed lines and charts), so that the notebooks read on their own, on a code
host or in JupyterLab (``pip install -e ".[notebooks]"``). ``simlab notebooks --check`` executes
them in memory and names each cell whose committed output is no longer what it shows: every
answer is a pure function of its inputs and seed, so every output a reader sees must match:
printed text, the plain text of values, their HTML (the tables a code host and JupyterLab
show), each to the last digit a float keeps on any processor (12 significant), and each chart
by the SHA-256 of its PNG. A chart's pixels depend on the
matplotlib that drew it (recorded in the notebook's metadata when written): under another
version a chart is compared by its presence and size, and the check says so.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from simlab.inputs.errors import SimlabError, shown_path

__all__ = [
    "NOTEBOOK_TRIALS",
    "NOTEBOOKS",
    "execute",
    "stale_cells",
    "write_notebook",
    "text_outputs",
    "shown_outputs",
    "drawn_with",
    "read_notebook",
]

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


def read_notebook(path: Path) -> Any:
    """The notebook at ``path``.

    Raises:
        SimlabError: In one line, for a file that is not a Jupyter notebook.
    """
    nbformat, _ = _modules()
    try:
        notebook = nbformat.read(path, as_version=4)
        nbformat.validate(notebook)
    except Exception as exc:  # JSON, encoding, schema: each is "not a notebook" to the reader
        said = str(exc).strip().splitlines()[0][:120] if str(exc).strip() else type(exc).__name__
        raise SimlabError(f"{shown_path(path)}: not a Jupyter notebook ({said})") from None
    return notebook


def execute(path: Path, trials: int = NOTEBOOK_TRIALS) -> Any:
    """The notebook at ``path`` executed top to bottom (in its own directory), outputs and all.

    Raises:
        SimlabError: When a cell fails, naming the notebook and the cell.
    """
    _, client_type = _modules()
    notebook = read_notebook(path)
    previous = os.environ.get("SIMLAB_NOTEBOOK_TRIALS")
    os.environ["SIMLAB_NOTEBOOK_TRIALS"] = str(trials)  # the kernel inherits it
    try:
        client = client_type(
            notebook, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
        )
        client.execute()
    except Exception as exc:
        raise SimlabError(f"{shown_path(path)}: {str(exc).strip().splitlines()[-1][:300]}") from None
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


#: A number printed to more digits than a float's sums keep across processors, and a zero printed with a sign.
_LONG_NUMBER = re.compile(r"-?\d+\.\d{12,}(?:e[-+]?\d+)?")
_SIGNED_ZERO = re.compile(r"-(0\.0+)(?![0-9])")


def _same_on_any_processor(text: str) -> str:
    """Text as any processor prints it: long numbers to 12 significant digits, no signed zero, single spaces.

    An exact answer summed in another order (another processor's vector width) may differ in its
    last bit: 0.37592196994357663 and 0.3759219699435766, -0.000 and 0.000 are the same answer.
    """
    text = _LONG_NUMBER.sub(lambda m: f"{float(m.group()):.12g}", text)
    return re.sub(r"[ \t]+", " ", _SIGNED_ZERO.sub(r"\1", text))  # a table's columns realign around a sign


#: The outputs of a value a reader may see, besides its plain text.
_SHOWN = ("text/html", "text/markdown", "text/latex", "image/svg+xml", "application/json")


def _png_size(data: str) -> tuple[int, int]:
    """A base64 PNG's width and height (from its header)."""
    raw = base64.b64decode("".join(data))
    return int.from_bytes(raw[16:20], "big"), int.from_bytes(raw[20:24], "big")


def shown_outputs(cell: Any, pixels: bool = True) -> list[tuple[str, str]]:
    """Everything a reader sees of a cell, as (what, content) pairs.

    Printed text, each value's plain text and HTML (or Markdown, SVG, JSON), and each PNG by the
    SHA-256 of its bytes (by its size without ``pixels``).
    """
    printed = "".join("".join(o.get("text", "")) for o in cell.get("outputs", []) if o.get("output_type") == "stream")
    seen = [("printed text", _same_on_any_processor(printed))] if printed else []
    for output in cell.get("outputs", []):
        data = output.get("data", {})
        if "text/plain" in data and "image/png" not in data:
            seen.append(("text", _same_on_any_processor("".join(data["text/plain"]))))
        seen += [(kind.split("/")[-1].upper(), _same_on_any_processor("".join(data[kind])))
                 for kind in _SHOWN if kind in data]  # fmt: skip
        if "image/png" in data:
            raw = "".join(data["image/png"]).replace("\n", "")
            digest = hashlib.sha256(base64.b64decode(raw)).hexdigest() if pixels else "{} x {}".format(*_png_size(raw))
            seen.append(("chart", digest))
    return seen


def _images(cell: Any) -> int:
    return sum("image/png" in output.get("data", {}) for output in cell.get("outputs", []))


def drawn_with() -> str:
    """The matplotlib that draws the charts here (its version)."""
    import matplotlib

    return str(matplotlib.__version__)


def stale_cells(committed: Any, fresh: Any) -> list[str]:
    """The cells whose committed outputs are not what they show now: ``cell N (first line): what differs``.

    Charts are compared by hash where the notebook was written with the matplotlib here; else by
    their size, and the first line says so.
    """
    found = []
    written_with = committed.metadata.get("simlab", {}).get("matplotlib")
    pixels = written_with is None or written_with == drawn_with()
    cells = list(zip(committed.cells, fresh.cells, strict=False))
    if len(committed.cells) != len(fresh.cells):
        found.append(f"{len(committed.cells)} cells committed, {len(fresh.cells)} now")
    for number, (old, new) in enumerate(cells, 1):
        if new.cell_type != "code":
            continue
        first = new.source.strip().splitlines()[0][:60] if new.source.strip() else ""
        before, after = shown_outputs(old, pixels), shown_outputs(new, pixels)
        if _images(old) != _images(new):
            found.append(f"cell {number} ({first}): {_images(old)} chart(s) committed, {_images(new)} now")
        elif before != after:
            kinds = [kind for kind in dict.fromkeys(k for k, _ in before + after)
                     if [c for k, c in before if k == kind] != [c for k, c in after if k == kind]]  # fmt: skip
            what = "its printed output" if kinds == ["printed text"] else f"its {', '.join(kinds)}"
            found.append(f"cell {number} ({first}): {what} changed")
    if found and not pixels:
        found.insert(0, f"(charts drawn by matplotlib {written_with}, here {drawn_with()}: compared by size)")
    return found


def write_notebook(notebook: Any, path: Path) -> None:
    """Write the executed notebook back (execution counts and all), atomically."""
    from simlab.output.atomic import staged_file

    nbformat, _ = _modules()
    notebook.metadata.setdefault("simlab", {})["matplotlib"] = drawn_with()  # what drew its charts
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
        if path.suffix != ".ipynb" or "\0" in str(path) or not path.is_file():
            raise SimlabError(f"{shown_path(path)}: not a notebook (.ipynb) file")
    return paths
