"""Golden files for every view, rendered by the pure pipeline (no MkDocs).

The goldens live in tests/golden/views/. After an intended change of a view, rewrite them with

    python -m pytest tests/render/test_views_golden.py --update-goldens

and review ``git diff tests/golden`` before committing. The chart golden depends on the installed
matplotlib and the chart fonts' packages (not on the machine's fonts).
"""

from __future__ import annotations

import difflib
import re
import shutil
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest
from sites import (
    COURSE_CSV,
    COURSE_CSV_REL,
    SEED_DISPLAY,
    SEED_PRINTOUT,
    parse_html,
    table_rows,
)

from mkdocs_selfattn.blocks.markdown_scan import find_blocks
from mkdocs_selfattn.blocks.paths import resolve_path
from mkdocs_selfattn.blocks.spec import BlockSpec, ViewOptions, parse_block
from mkdocs_selfattn.build.cache import Cache
from mkdocs_selfattn.build.example import Example, ResolvedFile
from mkdocs_selfattn.build.pipeline import Pipeline
from mkdocs_selfattn.build.settings import Settings
from mkdocs_selfattn.render.chart import render_chart

GOLDEN = Path(__file__).parents[1] / "golden" / "views"
SVG = "{http://www.w3.org/2000/svg}"

CSV_LINK = "../../assets/part-05/chapter-13/self-attention-safety-memo-candidates.csv"

SEED = """\
```selfattn
id: memo
csv: /assets/part-05/chapter-13/self-attention-safety-memo-candidates.csv
document: memo_cap_missing
targets: [그것, 씌우지]
display: {배터리팩: 电池包, 분리: 分离, 절연캡: 绝缘帽, 씌우지: 未套上, 그것: 它, 위험: 风险}
groups: {cap_plus_not_applied: [절연캡, 씌우지]}
script: ../examples/memo_example.py
show: [output, table, compare, csv, mermaid, chart, code]
```
"""

# The example script whose text the code view shows. Its backticks make the code fence longer.
SCRIPT = '''\
"""Prints the chapter's numbers (a stand-in for the course script)."""

from pathlib import Path

FENCE = "```"  # a code view must not be closed early by this

print(Path("tests-golden-printout.txt").read_text(encoding="utf-8"), end="")
'''

HOSTILE_CSV = """\
document_id,target_token,candidate_token,candidate_role,x|y,score
doc*1*,it|self,<script>alert(1)</script>,role_`tick`,0.5,1.0
doc*1*,it|self,[link](http://e.x),"role, with comma",0.25,2.0
doc*1*,it|self,"say ""hi"" --> there",_emph_,-1.5,0.5
doc*1*,it|self,:smile: {++add++} #1;,~~strike~~,0,0.0
"""


@dataclass
class _Resolver:
    """Paths for a page at docs/course/chapter.md, like the plugin's resolver."""

    project_root: Path

    def resolve(self, raw: str, key: str, line: int) -> ResolvedFile:
        docs = self.project_root / "docs"
        path, display = resolve_path(
            raw,
            key=key,
            line=line,
            relative_to=docs / "course",
            absolute_to=docs,
            root=self.project_root,
        )
        link = "../" + path.relative_to(docs).as_posix()  # docs/course/chapter.md → course/chapter/
        return ResolvedFile(path=path, display=display, link="../" + link)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("golden-project")
    csv_path = root / COURSE_CSV_REL
    csv_path.parent.mkdir(parents=True)
    shutil.copyfile(COURSE_CSV, csv_path)
    script = root / "docs" / "examples" / "memo_example.py"
    script.parent.mkdir(parents=True)
    script.write_text(SCRIPT, encoding="utf-8")
    shutil.copyfile(SEED_PRINTOUT, root / "tests-golden-printout.txt")
    (root / "docs" / "course").mkdir(parents=True)
    (root / "docs" / "hostile.csv").write_text(HOSTILE_CSV, encoding="utf-8")
    return root


def _spec(text: str) -> BlockSpec:
    [raw] = find_blocks(text)
    return parse_block(raw)


def _pipeline(**settings: object) -> Pipeline:
    return Pipeline(Settings(**settings), Cache(None))  # type: ignore[arg-type]


def _load(project: Path, text: str = SEED, **settings: object) -> tuple[Pipeline, Example]:
    spec = _spec(text)
    assert spec.example is not None
    pipeline = _pipeline(**settings)
    return pipeline, pipeline.load(spec.example, _Resolver(project))


def _view(pipeline: Pipeline, example: Example, name: str, **options: object) -> tuple[str, str]:
    view = ViewOptions(show=(name,), **options)  # type: ignore[arg-type]
    [(kind, content)] = pipeline.render(example, view, example.spec.line).pieces
    if not isinstance(content, str):  # a chart drawn elsewhere (not with this pipeline)
        content = content.resolve()
    return kind, content


def golden_name(view: str, kind: str) -> str:
    """``table.md`` for a markdown piece, ``table.html`` for raw HTML (a chart: ``.svg``)."""
    return f"{view}.{'md' if kind == 'md' else 'html'}"


def check_golden(name: str, actual: str, update: bool) -> None:
    """Compare ``actual`` with tests/golden/views/NAME byte for byte (or rewrite it)."""
    path = GOLDEN / name
    data = actual.encode("utf-8")
    if update:
        path.parent.mkdir(parents=True, exist_ok=True)
        for stale in GOLDEN.glob(f"{path.stem}.*"):
            if stale != path:
                stale.unlink()  # the view changed kind (say markdown → HTML)
        path.write_bytes(data)
        return
    assert path.exists(), f"{path} is missing; run pytest with --update-goldens to create it"
    expected = path.read_bytes()
    if data != expected:
        diff = difflib.unified_diff(
            expected.decode("utf-8").splitlines(),
            actual.splitlines(),
            f"golden/views/{name}",
            "rendered",
            lineterm="",
        )
        shown = "\n".join(list(diff)[:80])
        pytest.fail(
            f"{name} differs from its golden (rerun with --update-goldens if intended):\n{shown}"
        )


# ---------------------------------------------------------------------------------------------
# Text views


def test_output_view(project: Path, update_goldens: bool) -> None:
    no_script = SEED.replace("script: ../examples/memo_example.py\n", "").replace(", code]", "]")
    pipeline, example = _load(project, no_script)
    kind, text = _view(pipeline, example, "output")
    check_golden(golden_name("output", kind), text, update_goldens)
    # The fence holds exactly the chapter's printout.
    seed = SEED_PRINTOUT.read_text(encoding="utf-8")
    assert text == "```text\n" + seed.rstrip("\n") + "\n```"
    assert example.printout == seed


def test_output_view_runs_the_script(project: Path) -> None:
    pipeline, example = _load(project)
    assert example.script_output == SEED_PRINTOUT.read_text(encoding="utf-8")
    _, text = _view(pipeline, example, "output")
    assert "was not run" not in text


def test_output_view_with_scripts_off(project: Path, update_goldens: bool) -> None:
    pipeline, example = _load(project, scripts=False)
    assert example.script_output is None
    kind, text = _view(pipeline, example, "output")
    check_golden(golden_name("output_scripts_off", kind), text, update_goldens)
    assert text.startswith("```text\n" + SEED_PRINTOUT.read_text(encoding="utf-8").rstrip("\n"))
    assert "not run" in text


def test_table_view(project: Path, update_goldens: bool) -> None:
    pipeline, example = _load(project)
    kind, text = _view(pipeline, example, "table")
    check_golden(golden_name("table", kind), text, update_goldens)


def test_compare_view(project: Path, update_goldens: bool) -> None:
    pipeline, example = _load(project)
    kind, text = _view(pipeline, example, "compare")
    check_golden(golden_name("compare", kind), text, update_goldens)


def test_csv_view(project: Path, update_goldens: bool) -> None:
    pipeline, example = _load(project)
    kind, text = _view(pipeline, example, "csv")
    check_golden(golden_name("csv", kind), text, update_goldens)
    assert f'<a href="{CSV_LINK}" download>' in text
    # Only the document's 12 rows (plus the header).
    if kind == "md":
        assert len([line for line in text.split("\n") if line.startswith("|")]) == 12 + 2
    else:
        [table] = parse_html(text).find_all("table")
        assert len(table_rows(table)) == 12 + 1


def test_mermaid_view(project: Path, update_goldens: bool) -> None:
    pipeline, example = _load(project)
    kind, text = _view(pipeline, example, "mermaid")
    check_golden(golden_name("mermaid", kind), text, update_goldens)
    # Raw HTML (kept out of the search index), exactly what superfences made of the fence.
    assert kind == "late"
    assert text.startswith('<pre class="mermaid"><code>---\nconfig:\n')
    assert "\nflowchart TD\n" in text
    assert text == _superfences_mermaid(pipeline, example)


def _superfences_mermaid(pipeline: Pipeline, example: Example) -> str:
    import markdown
    from figure_fixtures import render_mermaid
    from pymdownx.superfences import fence_code_format

    fence = "```mermaid\n" + render_mermaid(example.result, example.labels) + "```"
    mermaid = {"name": "mermaid", "class": "mermaid", "format": fence_code_format}
    md = markdown.Markdown(
        extensions=["pymdownx.superfences"],
        extension_configs={"pymdownx.superfences": {"custom_fences": [mermaid]}},
    )
    return md.convert(fence)


def test_mermaid_view_options(project: Path, update_goldens: bool) -> None:
    pipeline, example = _load(project)
    kind, text = _view(
        pipeline,
        example,
        "mermaid",
        top=1,
        number_format=".1%",
        text={"document": "备忘录", "weights": 'looks at "most"', "shift": "Δ"},
    )
    check_golden(golden_name("mermaid_options", kind), text, update_goldens)
    assert "绝缘帽 43.0%" in text
    assert "绝缘帽 36.7%" in text
    assert "未套上 0.214" not in text  # top: 1 keeps one weight per target


def test_code_view(project: Path, update_goldens: bool) -> None:
    pipeline, example = _load(project)
    kind, text = _view(pipeline, example, "code")
    check_golden(golden_name("code", kind), text, update_goldens)
    assert text.startswith('````python title="memo_example.py"\n')
    assert SCRIPT.rstrip("\n") in text


HOSTILE = """\
```selfattn
csv: ../hostile.csv
document: doc*1*
display: {"<script>alert(1)</script>": "<b>bold</b> | pipe"}
groups: {g: ["[link](http://e.x)", ":smile: {++add++} #1;"]}
```
"""


def test_hostile_csv_text_is_escaped_in_every_view(project: Path, update_goldens: bool) -> None:
    pipeline, example = _load(project, HOSTILE)
    parts = []
    for name in ("output", "table", "compare", "csv", "mermaid"):
        kind, text = _view(pipeline, example, name)
        parts.append(f"<!-- view: {name} ({kind}) -->\n{text}\n")
    for stale in GOLDEN.glob("hostile.*"):
        if update_goldens and stale.name != "hostile.txt":
            stale.unlink()
    check_golden("hostile.txt", "\n".join(parts), update_goldens)

    for name in ("table", "compare", "csv"):
        kind, text = _view(pipeline, example, name)
        assert "<script>" not in text
        assert "<b>" not in text
        if kind == "md":
            rows = [line for line in text.split("\n") if line.startswith("|")]
            # No '|' from the CSV split a cell: every row has as many cells as the header.
            assert {row.count("|") for row in rows} == {rows[0].count("|")}
        else:
            tree = parse_html(text)
            for table in tree.find_all("table"):
                rows = table_rows(table)
                assert {len(r) for r in rows} == {len(rows[0])}
            if name != "compare":
                # The CSV text reads literally, as text.
                assert "<script>alert(1)</script>" in tree.text()


# ---------------------------------------------------------------------------------------------
# Chart


def _chart_svg(project: Path, **options: object) -> str:
    """Both drawings of the chart (wide, then narrow), as its box holds them."""
    _, example = _load(project)
    out = render_chart(example.result, example.labels, **options)  # type: ignore[arg-type]
    return out.both


def test_chart_draws_cjk_labels_with_the_bundled_cjk_font(project: Path) -> None:
    """The chart fonts (DejaVu Sans, then the packaged Noto Sans CJK SC) draw every label."""
    _, example = _load(project)
    out = render_chart(example.result, example.labels)
    assert out.missing_glyphs == []


def test_chart_golden_and_byte_identical(project: Path, update_goldens: bool) -> None:
    first = _chart_svg(project)
    second = _chart_svg(project)
    assert first == second
    check_golden("chart.svg", first, update_goldens)


def test_chart_view_through_the_pipeline(project: Path) -> None:
    pipeline, example = _load(project)
    _, html = _view(pipeline, example, "chart")
    assert html == f'<div class="selfattn-chart-box">{_chart_svg(project)}</div>'
    # Rendered again by a fresh pipeline (no cache): the same bytes.
    pipeline2, example2 = _load(project)
    assert _view(pipeline2, example2, "chart")[1] == html


def test_chart_with_title_and_format(project: Path, update_goldens: bool) -> None:
    svg = _chart_svg(
        project,
        number_format=".0%",
        text={"axis_weight": "权重", "axis_candidate": "候选"},
        title="注意力 <权重>",
    )
    assert svg == _chart_svg(
        project,
        number_format=".0%",
        text={"axis_weight": "权重", "axis_candidate": "候选"},
        title="注意力 <权重>",
    )
    check_golden("chart_titled.svg", svg, update_goldens)
    wide, narrow = re.split(r"(?=<svg )", svg.strip())[-2:]
    for drawing in (wide, narrow):
        texts = _svg_texts(ET.fromstring(drawing))
        assert "43%" in texts
        assert "权重" in texts or "候选 · 权重" in texts
        assert "候选" in texts or "候选 · 权重" in texts
        root = ET.fromstring(drawing)
        assert root.find(f"{SVG}title") is not None
        assert root.find(f"{SVG}title").text == "注意力 <权重>"  # type: ignore[union-attr]


def _svg_texts(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()).strip() for t in root.iter(f"{SVG}text")]


@pytest.mark.parametrize("drawing", ["wide", "narrow"])
def test_chart_svg_is_accessible_themeable_and_inline_ready(project: Path, drawing: str) -> None:
    wide, narrow = re.split(r"(?=<svg )", _chart_svg(project).strip())[-2:]
    svg = wide if drawing == "wide" else narrow
    assert f"selfattn-chart-{drawing}" in svg.split(">", 1)[0]
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"

    # Display labels are real <text> content (selectable, searchable, screen-readable).
    texts = _svg_texts(root)
    for label in SEED_DISPLAY.values():
        assert label in texts, f"{label} is not a <text> of the chart"
    for token in SEED_DISPLAY:
        assert token not in svg, f"CSV token {token} shown instead of its display label"
    assert any("attention weight" in t for t in texts)
    assert "0.43" in texts

    # An accessible name and description.
    title = root.find(f"{SVG}title")
    desc = root.find(f"{SVG}desc")
    assert title is not None
    assert desc is not None
    assert title.text == "attention weights of 它, 未套上"
    assert "绝缘帽 0.43" in (desc.text or "")
    assert "未套上: " in (desc.text or "")
    assert root.get("role") == "img"
    labelled_by = (root.get("aria-labelledby") or "").split()
    assert labelled_by == [title.get("id"), desc.get("id")]

    # Scales with the page: no fixed size on the root, a viewBox instead.
    assert root.get("width") is None
    assert root.get("height") is None
    assert root.get("viewBox")
    assert re.match(r"<svg\b[^>]*>", svg)
    assert not re.search(r"<svg\b[^>]*\s(width|height)=", svg)

    # Follows the theme's text colour; the drawing sentinels never leak.
    assert "currentColor" in svg
    assert "#010203" not in svg
    assert "#040506" not in svg

    # Inline-ready: no XML prolog or doctype, and the stylesheet only targets this chart.
    assert svg.startswith("<svg")
    assert "<?xml" not in svg
    assert "<!DOCTYPE" not in svg
    for css in re.findall(r"<style[^>]*>(.*?)</style>", svg, re.S):
        for selector in re.findall(r"([^{}]+)\{", css):
            assert selector.strip().startswith(".selfattn-chart"), selector


def test_two_charts_on_one_page_have_disjoint_ids(project: Path) -> None:
    first = _chart_svg(project)
    second = _chart_svg(project, number_format=".1%")
    ids_first = re.findall(r'\bid="([^"]+)"', first)
    ids_second = re.findall(r'\bid="([^"]+)"', second)
    assert len(ids_first) == len(set(ids_first))
    assert not set(ids_first) & set(ids_second)
    # Every internal reference points at an id of the same chart.
    for ref in re.findall(r'(?:href="#|url\(#)([^")]+)', first):
        assert ref in ids_first


@pytest.mark.parametrize("language", ["ko", "zh"])
def test_views_in_the_page_language(project: Path, update_goldens: bool, language: str) -> None:
    """The plugin's own words in Korean and Chinese (the English goldens are the ones above)."""
    pipeline, example = _load(project)
    for name in ("table", "compare", "mermaid"):
        kind, text = _view(pipeline, example, name, language=language)
        check_golden(f"{name}_{language}.{'md' if kind == 'md' else 'html'}", text, update_goldens)
        assert "candidate" not in text
