"""simlab's layers import one way: each package only from those below it (docs/architecture.md).

From the bottom: errors and text, the engine, the mechanics, the readers of user input, the
systems and their registry, the requests and variants built on it, the balance searches asking
them, the records of a run, the
output that writes them, the workflow that makes them, then the web page, the commands and the API.
An import inside a function counts as any other: none may reach up.
"""

from __future__ import annotations

import ast
from pathlib import Path

SIMLAB = Path(__file__).resolve().parents[1] / "simlab"
#: The layers from the bottom; a module may import from its own layer and those before it.
LAYERS = [
    {"simlab", "errors", "text"},
    {"engine"},
    {"mechanics", "data"},
    {"inputs"},
    {"systems"},
    {"inputs.requests", "inputs.variants"},
    {"balance"},
    {"records"},
    {"output"},
    {"workflow"},
    {"web"},
    {"commands"},
    {"cli", "api", "__main__"},
]


def layer(module: str) -> int:
    """The layer of ``simlab.X...``: the variants and requests stand above the registry they use."""
    parts = module.split(".")[1:] or ["simlab"]
    name = ".".join(parts[:2]) if parts[0] == "inputs" and len(parts) > 1 else parts[0]
    if name.startswith("inputs.") and name not in ("inputs.requests", "inputs.variants"):
        name = "inputs"
    return next(i for i, members in enumerate(LAYERS) if name in members)


def test_every_import_goes_down_or_across():
    upward = []
    for path in SIMLAB.rglob("*.py"):
        module = ".".join(("simlab", *path.relative_to(SIMLAB).with_suffix("").parts)).removesuffix(".__init__")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "simlab":
                names = [a.name for a in node.names if a.name != "__version__"]
                targets = [node.module] if node.module != "simlab" else [f"simlab.{name}" for name in names]
                upward += [(module, t) for t in targets if layer(t) > layer(module)]
    assert not upward, upward
