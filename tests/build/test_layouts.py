"""The layout registry (build/layouts.py, build/engines.py): one entry per layout a block can
ask for, each computing, caching and showing its own kind of result, and no layout branches left
in the modules that look layouts up."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, get_args, get_type_hints

import pytest
from course_requests import requests

from mkdocs_selfattn.blocks.spec import ExampleSpec
from mkdocs_selfattn.blocks.spec_layout import BLOCK_LAYOUTS, LAYOUT_KEYS
from mkdocs_selfattn.build.engines import ENGINES
from mkdocs_selfattn.build.jobs import compute, payload_of
from mkdocs_selfattn.build.layouts import LAYOUTS, layout_of, try_data_of
from mkdocs_selfattn.build.pipeline import cached_result
from mkdocs_selfattn.cli.inspect_layouts import LAYOUT_NEEDS
from mkdocs_selfattn.core.readings import READING_KINDS, ReadingResult
from mkdocs_selfattn.render.layout_renderers import RENDERERS

PACKAGE = Path(__file__).resolve().parents[2] / "mkdocs_selfattn"
REQUESTS = requests()


def test_the_layout_a_block_asks_for_is_its_keys_entry() -> None:
    from mkdocs_selfattn.blocks.spec_layout import DEFAULT_LAYOUT

    for key, entry in BLOCK_LAYOUTS.items():
        given: dict[str, Any] = {} if key == DEFAULT_LAYOUT else {key: {"r": "c"}}
        spec = ExampleSpec(id="x", csv="x.csv", document="", line=1, **given)
        assert spec.layout == entry.layout
    assert {entry.layout for entry in BLOCK_LAYOUTS.values()} == set(LAYOUTS)


def test_every_layout_a_block_can_ask_for_has_one_entry() -> None:
    asked = set(get_args(get_type_hints(ExampleSpec.layout.fget)["return"]))
    assert asked == set(LAYOUTS) == set(ENGINES)
    for name, layout in LAYOUTS.items():
        assert layout.name == name


@pytest.mark.parametrize("name", sorted(REQUESTS))
def test_each_entry_computes_and_caches_its_own_layout(name: str) -> None:
    request = REQUESTS[name]
    assert request.spec.layout == name
    result = compute(request)
    assert result.layout == name
    assert layout_of(result) is LAYOUTS[name]
    # The cache's form comes back as the same result.
    assert cached_result(payload_of(result), name) == result
    # One record family for every layout.
    assert type(result) is ReadingResult


def _layout_branches(path: Path) -> list[int]:
    """Lines that choose by layout: an ``isinstance`` on a result or table kind, or a comparison
    of a ``layout`` (a name, an attribute, ``.get("layout")``) with a layout's name or names."""
    kinds = {"ReadingResult", "DocumentResult", "Table"}
    names = {*LAYOUTS, *BLOCK_LAYOUTS}  # a further layout's names are looked for too

    def names_layout(node: ast.AST) -> bool:
        return (
            (isinstance(node, ast.Name) and node.id == "layout")
            or (isinstance(node, ast.Attribute) and node.attr == "layout")
            or (
                isinstance(node, ast.Call)
                and any(isinstance(a, ast.Constant) and a.value == "layout" for a in node.args)
            )
        )

    def layout_literal(node: ast.AST) -> bool:
        if isinstance(node, ast.Constant):
            return node.value in names
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return any(layout_literal(e) for e in node.elts)
        return False

    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance":
            second = node.args[1] if len(node.args) > 1 else None
            mentioned = (
                {n.id for n in ast.walk(second) if isinstance(n, ast.Name)} if second else set()
            )
            if mentioned & kinds:
                found.append(node.lineno)
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(map(names_layout, sides)) and any(map(layout_literal, sides)):
                found.append(node.lineno)
    return sorted(found)


def test_no_module_branches_on_the_layout() -> None:
    """What differs by layout is data in the registries (the block keys' ``BLOCK_LAYOUTS``, the
    reading kinds, the engines, the renderers', the pipeline's ``LAYOUTS``): code looks a
    layout up there instead of telling layouts apart (47 branches in 20 modules before)."""
    found = {
        str(p.relative_to(PACKAGE)): lines
        for p in sorted(PACKAGE.rglob("*.py"))
        if (lines := _layout_branches(p))
    }
    assert found == {}


JSON_FORM = {"DocumentResult", "TargetResult", "CandidateResult", "document_of"}
"""The targets layout's published JSON form (core/results.py), which no view reads."""


def _json_form_users(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.name in JSON_FORM
    }


def test_every_view_reads_the_one_record_family() -> None:
    """Every engine makes ReadingResult and every view reads it; the targets' document →
    target → candidate records are only their JSON form, made in one place (the renderers'
    ``plain`` entry)."""
    found = {
        str(p.relative_to(PACKAGE)): names
        for p in sorted(PACKAGE.rglob("*.py"))
        if p.name != "results.py" and (names := _json_form_users(p))
    }
    assert found == {"render/layout_renderers.py": {"document_of"}}


def test_the_branch_finder_finds_a_planted_branch(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text(
        "def f(result, spec, variables):\n"
        "    if isinstance(result, ReadingResult):\n"
        "        return 1\n"
        "    if variables.get('layout') == 'heads':\n"
        "        return 2\n"
        "    if result.layout in ('questions', 'heads'):\n"
        "        return 3\n"
        "    return spec.layout == 'questions'\n",
        encoding="utf-8",
    )
    assert _layout_branches(planted) == [2, 4, 6, 8]


def test_every_layout_has_one_entry_in_every_registry() -> None:
    """A layout is one entry per layer's registry; none may lack one (or keep a stale one)."""
    assert set(RENDERERS) == set(LAYOUTS) == set(ENGINES)
    assert {name: layout.kind for name, layout in LAYOUTS.items()} == dict(READING_KINDS)
    assert set(BLOCK_LAYOUTS) == {kind.block_key for kind in READING_KINDS.values()}
    for layout, kind in READING_KINDS.items():
        assert kind.layout == layout
        assert BLOCK_LAYOUTS[kind.block_key].layout == layout
    # `inspect --layout KEY` offers every block key: each needs its description of a header.
    assert [need.key for need in LAYOUT_NEEDS] == list(LAYOUT_KEYS)


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_every_entry_fills_every_layout_view(name: str, examples: dict[str, Any]) -> None:
    from mkdocs_selfattn.blocks.spec import ViewOptions
    from mkdocs_selfattn.build.inline_quantities import answer

    pipeline, example = examples[name]
    layout = LAYOUTS[name]
    assert layout_of(example.result) is layout
    view = ViewOptions(show=("table",), top=3)
    for build in (layout.tables, layout.compare):
        tables = build(pipeline, example, view)
        assert tables, (name, build)
        assert all(table.rows for table in tables), (name, build)
    data = try_data_of(example, example.result, view, None, {})
    assert data["words"] == layout.try_words(None, {}), name
    markdown = layout.run_text(example, "markdown")
    assert markdown.lstrip().startswith("|") or "\n|" in markdown, name
    assert layout.run_text(example, "text") == example.printout, name
    forms = [entry.inline for entry in LAYOUTS.values()]
    rows = answer(layout.inline, forms, "where", 1, None, example, "csv_rows", ())
    assert rows == str(example.result.csv_rows), name
    # The views ask the same entry: each renders through the pipeline without a problem.
    for shown in ("table", "compare", "csv", "try"):
        out = pipeline.render(example, ViewOptions(show=(shown,), top=3), line=1)
        assert out.pieces, (name, shown)
        assert not out.warnings, (name, shown, out.warnings)
