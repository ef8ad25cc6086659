"""The notebooks run top to bottom (executed by a Jupyter kernel, as a designer would), show their charts, and
are committed with the outputs they print now (``simlab notebooks`` writes them, ``--check`` finds stale ones)."""

from pathlib import Path

import nbformat
import pytest
from conftest import run_cli

from simlab.workflow.notebooks import execute, stale_cells

NOTEBOOKS = sorted(Path("notebooks").glob("*.ipynb"))


def test_the_walk_throughs_exist():
    assert "hitech_tft.ipynb" in [p.name for p in NOTEBOOKS]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_top_to_bottom_and_its_committed_outputs_are_current(path):
    committed = nbformat.read(path, as_version=4)
    fresh = execute(path)
    errors = [o for cell in fresh.cells for o in cell.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
    drawing = [cell for cell in fresh.cells if cell.cell_type == "code" and "plots." in cell.source]
    assert drawing, f"{path.name} draws no chart"
    for cell in drawing:
        images = [o for o in cell.get("outputs", []) if "image/png" in o.get("data", {})]
        assert images, f"{path.name}: a cell that draws a chart shows no image:\n{cell.source[:200]}"
    assert not stale_cells(committed, fresh), f"{path.name} is stale: run simlab notebooks"
    assert sum(bool(cell.get("outputs")) for cell in committed.cells) >= len(drawing)  # committed with its outputs


def test_a_stale_notebook_is_named_cell_by_cell(tmp_path, capsys):
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell("print(6 * 7)", outputs=[nbformat.v4.new_output("stream", text="41\n")])],
        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
    )
    path = tmp_path / "mine.ipynb"
    nbformat.write(notebook, path)
    code, out, _ = run_cli(capsys, "notebooks", "--check", str(path))
    assert code == 1 and "cell 1 (print(6 * 7)): its printed output changed" in out
    code, out, _ = run_cli(capsys, "notebooks", str(path))
    assert code == 0 and nbformat.read(path, as_version=4).cells[0].outputs[0]["text"] == "42\n"
    code, _, err = run_cli(capsys, "notebooks", str(tmp_path / "none.txt"))
    assert code == 2 and "not a notebook" in err


def _png(red: int) -> str:
    """A 1 × 1 PNG of one colour, base64."""
    import base64
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    raw = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes([0, red, 0, 0])))
    return base64.b64encode(raw + chunk(b"IEND", b"")).decode()


def test_check_compares_every_output_a_reader_sees_html_and_charts_by_hash(tmp_path, capsys):
    html = "display({\"text/html\": \"<b>42</b>\", \"text/plain\": \"42\"}, raw=True)"
    shows = f'{html}\ndisplay({{"image/png": "{_png(9)}"}}, raw=True)'
    tampered = [
        nbformat.v4.new_output("display_data", data={"text/html": "<b>41</b>", "text/plain": "42"}),
        nbformat.v4.new_output("display_data", data={"image/png": _png(8)}),
    ]
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(shows, outputs=tampered)],
        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
    )
    path = tmp_path / "shown.ipynb"
    nbformat.write(notebook, path)
    code, out, _ = run_cli(capsys, "notebooks", "--check", str(path))
    assert code == 1 and "cell 1 (display({" in out and "its HTML, chart changed" in out
    (tmp_path / "odd.ipynb").write_text("not json", encoding="utf-8")
    code, out, err = run_cli(capsys, "notebooks", "--check", str(tmp_path / "odd.ipynb"))
    assert code == 2 and out == "" and err.startswith("error: ") and "not a Jupyter notebook" in err
    assert len(err.strip().splitlines()) == 1
