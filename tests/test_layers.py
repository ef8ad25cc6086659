"""simlab's layers import one way: each package only from those below it (docs/architecture.md).

From the bottom: errors, text and what simlab is, the engine, the mechanics, the readers of user
input, the systems and their registry, the asking of them (requests and variants), the balance
searches, the records of a run, the output that writes them, the analyses that say them, the
workflow that makes them, then
the web page, the commands, the API and the package's public face.

Every way one module reaches another counts: ``import simlab.X``, ``from simlab.X import Y``,
``from simlab import X``, at the top or inside a function, and a module named in a string
(``importlib.import_module("simlab.X")``, a template package, a lazy table of names). None may
reach up, and no two modules may reach each other, however far round.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

SIMLAB = Path(__file__).resolve().parents[1] / "simlab"
#: The layers from the bottom; a module may import from its own layer and those before it.
LAYERS = [
    {"errors", "text", "about"},
    {"engine"},
    {"mechanics", "data"},
    {"inputs"},
    {"systems"},
    {"asking"},
    {"balance"},
    {"records"},
    {"output"},
    {"analyses"},
    {"workflow"},
    {"web"},
    {"commands"},
    {"cli", "api", "__main__"},
    {"simlab"},  # the package's own __init__: the public names, loaded lazily from the API
]
#: A string that names a module of simlab.
_NAMED = re.compile(r"^simlab(?:\.[a-z_][a-z0-9_]*)+(?::[A-Za-z_]\w*)?$")


def layer(module: str) -> int:
    """The layer of ``simlab.X...`` (``simlab`` alone: the package's __init__)."""
    name = (module.split(".")[1:] or ["simlab"])[0]
    return next(i for i, members in enumerate(LAYERS) if name in members)


def _modules() -> Iterator[tuple[str, ast.AST]]:
    for path in sorted(SIMLAB.rglob("*.py")):
        module = ".".join(("simlab", *path.relative_to(SIMLAB).with_suffix("").parts)).removesuffix(".__init__")
        yield module, ast.parse(path.read_text(encoding="utf-8"))


def _exists(module: str) -> bool:
    path = SIMLAB.joinpath(*module.split(".")[1:])
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file() or path.is_dir()


def _typing_only(tree: ast.AST) -> set[int]:
    """The ids of the nodes under ``if TYPE_CHECKING:``: imports for type hints, never run."""
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", "")) == "TYPE_CHECKING":
            hidden |= {id(inner) for child in node.body for inner in ast.walk(child)}
    return hidden


def reached(tree: ast.AST) -> set[str]:
    """Every module of simlab that ``tree`` imports or names, however written (type hints' imports aside)."""
    found: set[str] = set()
    hidden = _typing_only(tree)
    for node in ast.walk(tree):
        if id(node) in hidden:
            continue
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "simlab"}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "simlab":
            modules = {f"{node.module}.{a.name}" for a in node.names if _exists(f"{node.module}.{a.name}")}
            if node.module != "simlab" or len(modules) < len(node.names):  # a name of the module itself
                found.add(node.module)
            found |= modules
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _NAMED.match(node.value):
            named = node.value.partition(":")[0]
            if _exists(named):  # a module named in a string ("simlab.toml", a file, names none)
                found.add(named)
    return found


def test_every_import_goes_down_or_across():
    upward = []
    for module, tree in _modules():
        for target in reached(tree):
            if target == "simlab" and module != "simlab":
                upward.append((module, target))  # the public face: only users import it
            elif layer(target) > layer(module):
                upward.append((module, target))
    assert not upward, upward


def test_no_two_modules_reach_each_other():
    """No circle of imports, at module or function level (strings included)."""
    graph: dict[str, set[str]] = {}
    for module, tree in _modules():
        graph[module] = {t for t in reached(tree) if t != module and _exists(t) and t != "simlab"}
    # a package's __init__ that names its own parts (a registry loading them lazily) holds them, not a circle
    edges = {m: {t for t in targets if not t.startswith(f"{m}.")} for m, targets in graph.items()}
    circles, state = [], {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for target in sorted(edges.get(node, ())):
            if state.get(target) == 1:
                circles.append([*path[path.index(target):], target] if target in path else [node, target])
            elif target not in state:
                visit(target, [*path, target])
        state[node] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module, [module])
    assert not circles, circles


def test_the_layer_test_sees_every_way_to_reach_a_module():
    tree = ast.parse(
        "import simlab.web.app\n"
        "from simlab import api\n"
        "def f():\n    from simlab.commands import serve\n"
        "x = importlib.import_module('simlab.workflow.jobs')\n"
        "y = 'simlab.output.plots:curve'\n"
    )
    assert {"simlab.web.app", "simlab.api", "simlab.commands", "simlab.commands.serve", "simlab.workflow.jobs",
            "simlab.output.plots"} <= reached(tree)  # fmt: skip
