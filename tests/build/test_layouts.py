"""The layout registry (build/layouts.py, build/engines.py): one entry per layout a block can
ask for, each computing, caching and showing its own kind of result, and no layout branches left
in the modules that look layouts up."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path
from typing import Any, get_args, get_type_hints

import pytest
from course_requests import requests

from mkdocs_selfattn.blocks.spec import ExampleSpec
from mkdocs_selfattn.build.engines import ENGINES, engine_of
from mkdocs_selfattn.build.jobs import compute, payload_of
from mkdocs_selfattn.build.layouts import LAYOUTS, as_reading, layout_of
from mkdocs_selfattn.build.pipeline import cached_result

PACKAGE = Path(__file__).resolve().parents[2] / "mkdocs_selfattn"
REQUESTS = requests()


def test_every_layout_a_block_can_ask_for_has_one_entry() -> None:
    asked = set(get_args(get_type_hints(ExampleSpec.layout.fget)["return"]))
    assert asked == set(LAYOUTS) == set(ENGINES)
    for name, layout in LAYOUTS.items():
        assert layout.name == name
        assert layout.engine is ENGINES[name]


@pytest.mark.parametrize("name", sorted(REQUESTS))
def test_each_entry_computes_and_caches_its_own_layout(name: str) -> None:
    request = REQUESTS[name]
    assert request.spec.layout == name
    result = compute(request)
    assert result.layout == name
    assert layout_of(result) is LAYOUTS[name]
    assert engine_of(result) is ENGINES[name]
    # The cache's form comes back as the same result.
    assert cached_result(payload_of(result)) == result
    if LAYOUTS[name].reader is not None:
        assert as_reading(result, LAYOUTS[name]) is result
    else:
        with pytest.raises(AssertionError):
            as_reading(result, LAYOUTS[name])


LOOKED_UP = (
    "build/views.py",
    "build/inline.py",
    "build/inline_targets.py",
    "build/jobs.py",
    "build/pipeline.py",
    "cli/run.py",
)
"""Modules that reach a layout's code only through the registry."""


def _layout_branches(path: Path) -> list[int]:
    """Lines that choose by layout: an ``isinstance`` on a result kind, or a comparison of a
    ``layout`` with a layout's name."""
    kinds = {"ReadingResult", "DocumentResult", "ReadingTable", "CandidateTable"}
    names = {"targets", "questions", "heads", "queries"}
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
            named = any(
                (isinstance(s, ast.Name) and s.id == "layout")
                or (isinstance(s, ast.Attribute) and s.attr == "layout")
                for s in sides
            )
            literal = any(isinstance(s, ast.Constant) and s.value in names for s in sides)
            if named and literal:
                found.append(node.lineno)
    return found


@pytest.mark.parametrize("module", LOOKED_UP)
def test_modules_that_use_the_registry_do_not_branch_on_the_layout(module: str) -> None:
    assert _layout_branches(PACKAGE / module) == []


def test_the_branch_finder_finds_a_planted_branch(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text(
        "def f(result, spec):\n"
        "    if isinstance(result, ReadingResult):\n"
        "        return 1\n"
        "    return spec.layout == 'questions'\n",
        encoding="utf-8",
    )
    assert _layout_branches(planted) == [2, 4]


BRANCHES_LEFT = 27
"""Layout branches left in the package (47 in 20 modules before the registry)."""


def test_layout_branches_do_not_grow() -> None:
    """The package's remaining layout branches (in the renderers, inline values and block keys)
    are where the one-engine redesign still has to reach; new code looks layouts up instead."""
    count = sum(len(_layout_branches(p)) for p in PACKAGE.rglob("*.py"))
    assert count <= BRANCHES_LEFT, count


@pytest.fixture(scope="module")
def examples() -> dict[str, Any]:
    """The course's example of each layout, loaded by the pipeline the plugin uses."""
    from course_requests import ASSETS, BLOCKS

    from mkdocs_selfattn.build.cache import Cache
    from mkdocs_selfattn.build.pipeline import Pipeline
    from mkdocs_selfattn.build.settings import Settings
    from mkdocs_selfattn.cli.run import _CommandLineFiles

    pipeline = Pipeline(Settings(scripts=False, mermaid=None), Cache(None))
    loaded = {}
    for name, request in REQUESTS.items():
        spec = replace(request.spec, csv=str(ASSETS / BLOCKS[name][0]))
        loaded[name] = (pipeline, pipeline.load(spec, _CommandLineFiles()))
    return loaded


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_every_entry_fills_every_layout_view(name: str, examples: dict[str, Any]) -> None:
    from mkdocs_selfattn.blocks.spec import ViewOptions
    from mkdocs_selfattn.render.labels import Labels

    pipeline, example = examples[name]
    layout = LAYOUTS[name]
    assert layout_of(example.result) is layout
    view = ViewOptions(show=("table",), top=3)
    for build in (layout.tables, layout.compare, layout.csv_rows):
        tables = build(pipeline, example, view)
        assert tables, (name, build)
        assert all(table.rows for table in tables), (name, build)
    data = layout.try_data(example, example.result, view, None, {})
    assert data["words"], name
    markdown = layout.run_text(example.result, example, Labels(), "markdown")
    assert markdown.lstrip().startswith("|") or "\n|" in markdown, name
    assert layout.run_text(example.result, example, Labels(), "text").strip(), name
    rows = layout.inline("where", 1, None, example, "csv_rows", ())
    assert rows == str(example.result.csv_rows), name
    # The views ask the same entry: each renders through the pipeline without a problem.
    for shown in ("table", "compare", "csv", "try"):
        out = pipeline.render(example, ViewOptions(show=(shown,), top=3), line=1)
        assert out.pieces, (name, shown)
        assert not out.warnings, (name, shown, out.warnings)
