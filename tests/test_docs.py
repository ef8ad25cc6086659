"""The docs stand on their own: generated parts match the registry, and every cited path exists."""

import json
import re
from pathlib import Path

import nbformat
import pytest
from conftest import run_cli

from simlab.commands import COMMANDS
from simlab.commands.reference import REFERENCE, stale_reference
from simlab.output.reference import MARKER, stale_references
from simlab.systems import all_systems

ROOT = Path(__file__).resolve().parents[1]
#: Repository paths as the README and notebooks write them: in backticks or as link targets.
PATH = re.compile(r"(?:`|\]\()((?:\.\./)?(?:docs|experiments|simlab|notebooks|tests|results|\.ci)/[^`)\s]*)")


def cited_paths(text: str) -> list[str]:
    """Repository paths named in ``text`` (placeholders such as ``<name>`` left out)."""
    found = [p.rstrip(".,:") for p in PATH.findall(text)]
    return [p for p in found if "<" not in p and not re.search(r"NAME|SYSTEM|TABLE", p) and "..." not in p]


def exists(path: str, base: Path) -> bool:
    target = (base / path).resolve()
    return target.exists() or bool(list(target.parent.glob(target.name)))


def test_the_generated_docs_match_the_registry():
    stale = [*stale_references(ROOT), *stale_reference(ROOT)]
    assert not stale, f"out of date with the registry (run simlab docs): {[str(p) for p in stale]}"
    for system in all_systems():
        assert (ROOT / "docs" / "systems" / f"{system.name}.md").read_text().count(MARKER) == 1


def test_every_spec_path_simlab_systems_prints_exists(capsys):
    code, out, _ = run_cli(capsys, "systems", "--json")
    assert code == 0
    for system in json.loads(out):
        specs = [system["spec"], *(q["spec"] for q in system.get("questions", {}).values())]
        for spec in specs:
            assert (ROOT / spec).is_file(), f"{system['name']}: {spec}"


def test_the_reference_covers_every_command_system_metric_and_key():
    from simlab.analyses import tables
    from simlab.workflow.experiments import TOP_KEYS

    commands = (ROOT / REFERENCE / "commands.md").read_text(encoding="utf-8")
    metrics = (ROOT / REFERENCE / "metrics.md").read_text(encoding="utf-8")
    keys = (ROOT / REFERENCE / "keys.md").read_text(encoding="utf-8")
    assert all(f"\n## simlab {name}\n" in commands for name in COMMANDS)
    for system in all_systems():
        assert f"(`{system.name}`)" in metrics and (ROOT / "docs" / "systems" / f"{system.name}.md").is_file()
        for question in system.questions.values():
            assert all(f"| `{m}` |" in metrics for m in [*question.metrics, *question.extra_metrics])
    assert all(f"| `{key}` |" in keys for key in TOP_KEYS)
    for table, analyses in tables().items():
        assert f"## [{table}]" in keys and all(f"| `{k.name}` |" in keys for a in analyses for k in a.keys)


def test_the_readme_is_a_front_door_and_every_page_is_on_the_site():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 200
    site = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = [p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")]
    assert [p for p in pages if f": {p}\n" not in site] == []  # no page the site's navigation leaves out


DOCUMENTS = ["README.md", *(p.relative_to(ROOT).as_posix() for p in sorted((ROOT / "docs").rglob("*.md")))]


@pytest.mark.parametrize("document", DOCUMENTS)
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
