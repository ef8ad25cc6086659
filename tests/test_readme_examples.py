"""The README's and the documentation's console examples run, and print what they show.

Each ``console`` block of the README (and of every page under ``docs/``) is a session: every
``$ simlab ...`` line (with its
``\\`` continuations, a trailing ``# comment`` left out) runs in a copy of the project's
experiments and baselines, in order, and each line shown under it must appear in what it
prints. Times are compared as times (``0.8 s`` matches any time), ``...`` ends a shown line
early. A command shown with an ``error:`` line must exit with status 2, one whose comment
says ``exit 1`` with 1, every other one with 0.
"""

import re
import shlex
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]
#: The pages whose console examples are run: the README, then every page of the documentation.
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


@dataclass
class Example:
    command: str
    comment: str = ""
    shown: list[str] = field(default_factory=list)


def sessions(text: str) -> list[list[Example]]:
    """The console blocks of a page, each a list of commands with the lines shown under them."""
    found = []
    for block in re.findall(r"```console\n(.*?)```", text, flags=re.S):
        examples: list[Example] = []
        lines = block.splitlines()
        i = 0
        while i < len(lines):
            line = lines[i]
            if line.startswith("$ "):
                text = line[2:]
                while text.rstrip().endswith("\\") and i + 1 < len(lines):
                    i += 1
                    text = text.rstrip()[:-1] + " " + lines[i].strip()
                command, _, comment = text.partition("  #")
                examples.append(Example(command.strip(), comment.strip()))
            elif examples and line.strip():
                examples[-1].shown.append(line)
            i += 1
        found.append(examples)
    return found


SESSIONS = [(page, session) for page in PAGES for session in sessions(page.read_text(encoding="utf-8"))]


def _pattern(shown: str) -> re.Pattern[str]:
    """A shown line as a pattern: times match any time, ``...`` ends the line early."""
    text = shown.split("...")[0].rstrip() if "..." in shown else shown.rstrip()
    parts = re.split(r"\d+(?:\.\d+)? s\b", text)
    return re.compile(r"\d+(?:\.\d+)? s\b".join(re.escape(p) for p in parts).replace(r"\ ", " "))


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "experiments", tmp_path / "experiments")
    shutil.copytree(ROOT / "results" / "baselines", tmp_path / "results" / "baselines")
    return tmp_path


def test_the_readme_and_the_guides_have_console_examples():
    readme = [s for page, s in SESSIONS if page == ROOT / "README.md"]
    assert len(readme) >= 5 and all(readme)  # five questions, five commands
    guides = [page for page in PAGES if page.parent.name == "guide" or page.name == "getting-started.md"]
    assert all(any(page == guide for page, _ in SESSIONS) for guide in guides if "console" in guide.read_text())


@pytest.mark.parametrize(
    "session", range(len(SESSIONS)), ids=[f"{page.stem}-{i}" for i, (page, _) in enumerate(SESSIONS)]
)
def test_readme_session(project, session, monkeypatch, capsys):
    """Each command of a README or guide session, run in the project as a designer types it (in this process:
    the command line's own start-up is checked by tests/test_startup.py and ``simlab bench``)."""
    monkeypatch.chdir(project)
    for example in SESSIONS[session][1]:
        words = shlex.split(example.command)
        assert words[0] == "simlab", example.command
        code, out, err = run_cli(capsys, *words[1:])
        printed = out + err
        expected = 2 if any(s.startswith("error:") for s in example.shown) else 1 if "exit 1" in example.comment else 0
        assert code == expected, f"{example.command}: exit {code}\n{printed[-2000:]}"
        for shown in example.shown:
            assert _pattern(shown).search(printed), f"{example.command}: no line like {shown!r} in\n{printed[-3000:]}"
