"""The docs stand on their own: generated parts match the registry, and every cited path exists."""

import json
import re
from pathlib import Path

import nbformat
import pytest
from conftest import run_cli

from simlab.output.reference import MARKER, stale_references

ROOT = Path(__file__).resolve().parents[1]
#: Repository paths as the README and notebooks write them: in backticks or as link targets.
PATH = re.compile(r"(?:`|\]\()((?:\.\./)?(?:docs|experiments|simlab|notebooks|tests|results|\.ci)/[^`)\s]*)")


def cited_paths(text: str) -> list[str]:
    """Repository paths named in ``text`` (placeholders such as ``<name>`` left out)."""
    return [p.rstrip(".,:") for p in PATH.findall(text) if "<" not in p and "NAME" not in p and "..." not in p]


def exists(path: str, base: Path) -> bool:
    target = (base / path).resolve()
    return target.exists() or bool(list(target.parent.glob(target.name)))


def test_the_generated_docs_match_the_registry():
    stale = stale_references(ROOT)
    assert not stale, f"out of date with the registry (run simlab docs): {[str(p) for p in stale]}"
    for page in (ROOT / "docs" / "systems").glob("*.md"):
        assert page.read_text().count(MARKER) == 1


def test_every_spec_path_simlab_systems_prints_exists(capsys):
    code, out, _ = run_cli(capsys, "systems", "--json")
    assert code == 0
    for system in json.loads(out):
        specs = [system["spec"], *(q["spec"] for q in system.get("questions", {}).values())]
        for spec in specs:
            assert (ROOT / spec).is_file(), f"{system['name']}: {spec}"


@pytest.mark.parametrize("document", ["README.md", "docs/architecture.md", "docs/rules/README.md"])
def test_every_repository_path_a_document_names_exists(document):
    path = ROOT / document
    missing = [p for p in cited_paths(path.read_text()) if not exists(p, path.parent if "/" in document else ROOT)]
    missing = [p for p in missing if not exists(p, ROOT)]
    assert not missing, f"{document} names paths that do not exist: {missing}"


def test_every_path_a_notebook_names_exists():
    for notebook in (ROOT / "notebooks").glob("*.ipynb"):
        text = "\n".join(cell.source for cell in nbformat.read(notebook, as_version=4).cells)
        missing = [p for p in cited_paths(text) if not exists(p, ROOT) and not exists(p, notebook.parent)]
        assert not missing, f"{notebook.name} names paths that do not exist: {missing}"
