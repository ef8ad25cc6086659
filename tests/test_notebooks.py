"""The notebooks run top to bottom (executed by a Jupyter kernel, as a designer would) and show their charts."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted(Path("notebooks").glob("*.ipynb"))


def test_the_walk_throughs_exist():
    assert "hitech_tft.ipynb" in [p.name for p in NOTEBOOKS]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_top_to_bottom(path, monkeypatch):
    monkeypatch.setenv("SIMLAB_NOTEBOOK_TRIALS", "2000")  # the sampled experiments at a quick look's trials
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=900, kernel_name="python3", resources={"metadata": {"path": "notebooks"}})
    client.execute()
    errors = [o for cell in notebook.cells for o in cell.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
    drawing = [cell for cell in notebook.cells if cell.cell_type == "code" and "plots." in cell.source]
    assert drawing, f"{path.name} draws no chart"
    for cell in drawing:
        images = [o for o in cell.get("outputs", []) if "image/png" in o.get("data", {})]
        assert images, f"{path.name}: a cell that draws a chart shows no image:\n{cell.source[:200]}"
