"""The package's layers, held by its import graph: a lower layer never imports a higher one, no
module imports itself back through others, and only the adapters import MkDocs or Markdown.

Every import counts: at the top of a module, inside a function and under ``TYPE_CHECKING``, since
each of them is a dependency a reader has to follow (and a cycle only hidden until it runs).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "mkdocs_selfattn"

LAYERS: dict[str, int] = {
    "errors": 0,
    "version": 0,
    "core": 1,
    "render": 2,
    "blocks": 3,
    "build": 4,
    "extension": 5,
    "plugin": 5,
    "cli": 6,
    "__init__": 7,
    "__main__": 7,
}
"""Each top-level module or folder and its rank: a module may import its own layer and lower ones.
Two adapters of one rank (the Markdown extension, the MkDocs plugin) do not import each other."""

FORBIDDEN: dict[str, frozenset[str]] = {
    "core": frozenset({"mkdocs", "markdown", "pymdownx", "matplotlib", "jinja2", "yaml"}),
    "render": frozenset({"mkdocs", "markdown", "pymdownx", "yaml"}),
    "blocks": frozenset({"mkdocs", "markdown", "pymdownx", "matplotlib", "numpy", "pyarrow"}),
    "build": frozenset({"mkdocs", "markdown", "pymdownx"}),
    "extension": frozenset({"mkdocs"}),
}
"""Third-party packages a layer must not import: the core runs without any site generator, pages
are parsed without numpy, and only the MkDocs adapter (and the CLI above it) knows MkDocs."""


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if "template" in parts:  # the starter course's example script, not package code
            continue
        name = ".".join(("mkdocs_selfattn", *parts)).removesuffix(".__init__")
        found[name] = path
    return found


MODULES = _modules()


def _imports(path: Path) -> Iterator[tuple[str, int]]:
    """Every module of the package (or third-party top-level name) that ``path`` imports."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}:{node.lineno}: relative import"
            module = node.module or ""
            for alias in node.names:
                yield (
                    (f"{module}.{alias.name}" if f"{module}.{alias.name}" in MODULES else module),
                    node.lineno,
                )


def _internal(name: str) -> str | None:
    while name not in MODULES and "." in name:
        name = name.rsplit(".", 1)[0]
    return name if name in MODULES else None


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


GRAPH: dict[str, set[str]] = defaultdict(set)
EDGES: list[tuple[str, str, int]] = []
EXTERNAL: list[tuple[str, str, int]] = []
for _module, _path in MODULES.items():
    for _name, _line in _imports(_path):
        _target = _internal(_name) if _name.startswith("mkdocs_selfattn") else None
        if _target is not None and _target != _module:
            GRAPH[_module].add(_target)
            EDGES.append((_module, _target, _line))
        elif not _name.startswith("mkdocs_selfattn"):
            EXTERNAL.append((_module, _name.split(".")[0], _line))


def test_every_top_level_module_and_folder_has_a_layer() -> None:
    assert {_layer(m) for m in MODULES} <= set(LAYERS), sorted(
        {_layer(m) for m in MODULES} - set(LAYERS)
    )


def test_no_layer_imports_a_higher_one() -> None:
    wrong = [
        f"{MODULES[a].relative_to(PACKAGE.parent)}:{line} imports {b}"
        for a, b, line in EDGES
        if LAYERS[_layer(a)] < LAYERS[_layer(b)]
        or (LAYERS[_layer(a)] == LAYERS[_layer(b)] and _layer(a) != _layer(b))
    ]
    assert wrong == []


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layers_do_not_import_what_is_not_theirs(layer: str) -> None:
    wrong = [
        f"{MODULES[a].relative_to(PACKAGE.parent)}:{line} imports {name}"
        for a, name, line in EXTERNAL
        if _layer(a) == layer and name in FORBIDDEN[layer]
    ]
    assert wrong == []


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(MODULES):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycles() -> None:
    assert _cycles(GRAPH) == []


def test_the_cycle_finder_finds_a_planted_cycle() -> None:
    """The check above can fail: a graph with a cycle through three modules is reported."""
    a, b, c = sorted(MODULES)[:3]
    planted: dict[str, set[str]] = defaultdict(set, {a: {b}, b: {c}, c: {a}})
    assert _cycles(planted) == [sorted([a, b, c])]


def test_the_public_api_is_what_the_top_init_exports() -> None:
    import mkdocs_selfattn

    assert set(mkdocs_selfattn.__all__) == {
        "BlockError",
        "DataError",
        "ScriptError",
        "SelfAttnError",
        "__version__",
        "makeExtension",
    }
    from importlib.metadata import entry_points

    for group, name in (
        ("mkdocs.plugins", "selfattn"),
        ("markdown.extensions", "selfattn"),
        ("console_scripts", "mkdocs-selfattn"),
    ):
        (entry,) = [e for e in entry_points(group=group) if e.name == name]
        assert callable(entry.load()), entry
