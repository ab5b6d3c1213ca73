"""Labels keyed by language, the plugin's own words per language, shared example files and
localised scripts, through the pure pipeline (no MkDocs; real builds: test_i18n.py)."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from sites import COURSE_CSV, COURSE_CSV_REL, parse_html, table_rows

from mkdocs_selfattn.blocks.languages import localize_spec, localize_view, localized_script, pick
from mkdocs_selfattn.blocks.markdown_scan import find_blocks
from mkdocs_selfattn.blocks.paths import resolve_path
from mkdocs_selfattn.blocks.shared import load_shared
from mkdocs_selfattn.blocks.spec import BlockSpec, parse_block
from mkdocs_selfattn.build.block_errors import error_html
from mkdocs_selfattn.build.cache import Cache
from mkdocs_selfattn.build.example import ResolvedFile
from mkdocs_selfattn.build.page import expand_page
from mkdocs_selfattn.build.pipeline import Pipeline
from mkdocs_selfattn.build.settings import Settings
from mkdocs_selfattn.errors import BlockError, DataError
from mkdocs_selfattn.render.words import CHART, MERMAID, PAGE, TABLE, primary, words

CSV = "/" + COURSE_CSV_REL.removeprefix("docs/")


def _block(body: str) -> BlockSpec:
    [raw] = find_blocks(f"```selfattn\n{body}\n```\n")
    return parse_block(raw)


@dataclass
class _Resolver:
    """A page at docs/course/chapter.md."""

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
        return ResolvedFile(path=path, display=display, link=None)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    csv_path = tmp_path / COURSE_CSV_REL
    csv_path.parent.mkdir(parents=True)
    shutil.copyfile(COURSE_CSV, csv_path)
    (tmp_path / "docs" / "course").mkdir()
    return tmp_path


# -- block options keyed by language ------------------------------------------------------------


def test_display_text_and_title_keyed_by_language() -> None:
    spec = _block(
        f"id: m\ncsv: {CSV}\ndocument: memo_cap_missing\n"
        "display: {en: {그것: it}, zh-Hans: {그것: 它}}\n"
        "text: {en: {axis_weight: weight}, zh: {axis_weight: 权重}}\n"
        "title: {en: It, zh: 它}\nshow: [chart]"
    )
    assert spec.example is not None
    assert localize_spec(spec.example, "en").display == {"그것": "it"}
    assert localize_spec(spec.example, "zh").display == {"그것": "它"}  # primary subtags match
    assert localize_spec(spec.example, "ko").display == {}  # no labels: the CSV tokens
    zh = localize_view(spec.view, "zh-TW")
    assert (dict(zh.text), zh.title, zh.language) == ({"axis_weight": "权重"}, "它", "zh-TW")
    ko = localize_view(spec.view, "ko")
    assert (dict(ko.text), ko.title) == ({}, None)


def test_one_mapping_for_every_language_is_unchanged() -> None:
    spec = _block(f"csv: {CSV}\ndocument: d\ndisplay: {{그것: it}}\ntext: {{top: best}}\ntitle: T")
    assert spec.example is not None
    assert localize_spec(spec.example, "zh").display == {"그것": "it"}
    view = localize_view(spec.view, "zh")
    assert (dict(view.text), view.title) == ({"top": "best"}, "T")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("display: {en: {그것: it}, 씌우지: x}", "give every language its own mapping"),
        ("text: {en: {axis: x}}", "unknown text key 'axis'"),
        ("title: {en: [x]}", "'title': expected a text value"),
    ],
)
def test_language_maps_are_checked(body: str, message: str) -> None:
    with pytest.raises(BlockError, match=message) as caught:
        _block(f"csv: {CSV}\ndocument: d\n{body}")
    assert caught.value.line == 4


def test_from_needs_use() -> None:
    with pytest.raises(BlockError, match="say which example with 'use: ID'"):
        _block(f"from: shared.yml\ncsv: {CSV}\ndocument: d")


def test_pick_prefers_the_exact_code() -> None:
    assert pick({"zh": 1, "zh-TW": 2}, "zh-TW") == 2
    assert pick({"zh": 1, "zh-TW": 2}, "zh-CN") == 1
    assert pick({"en": 1}, None) is None
    assert primary("ZH_hant") == "zh"
    assert primary(None) == "en"


# -- built-in words -----------------------------------------------------------------------------


def test_every_language_has_every_word() -> None:
    for catalogue in (TABLE, MERMAID, CHART, PAGE):
        for language in ("ko", "zh"):
            assert set(catalogue[language]) == set(catalogue["en"]), language


def test_unknown_language_gets_english_words() -> None:
    assert words(TABLE, "fr") == dict(TABLE["en"])
    assert "could not be built" in error_html("x", language="fr")
    assert "이 예제를 만들 수 없습니다" in error_html("x", language="ko")
    assert "无法生成这个示例" in error_html("x", language="zh-Hans")


def test_page_words_follow_the_page_language(project: Path) -> None:
    page = (
        f"```selfattn\nid: m\ncsv: {CSV}\ndocument: memo_cap_missing\n"
        "targets: [그것]\nshow: [table]\n```\n\n"
        "```selfattn\nuse: nothing\n```\n\n`{selfattn} m weight 그것 없음`\n"
    )
    stored: list[str] = []

    def store(html: object, late: bool) -> str:
        stored.append(str(html))
        return f"SLOT{len(stored)}"

    for language, header, error, inline in (
        ("ko", "후보 토큰", "이 예제를 만들 수 없습니다", "⚠ selfattn 오류"),
        ("zh", "候选 token", "无法生成这个示例", "⚠ selfattn 错误"),
        (None, "candidate token", "could not be built", "⚠ selfattn error"),
    ):
        stored.clear()
        pipeline = Pipeline(Settings(), Cache(None))
        out = expand_page(
            page, pipeline=pipeline, resolver=_Resolver(project), store=store, language=language
        )
        assert len(out.problems) == 2
        [table] = parse_html(stored[-1]).find_all("table")
        assert table_rows(table)[0][0] == header
        assert any(error in piece for piece in stored)
        assert any(inline in piece for piece in stored)


# -- shared example files -----------------------------------------------------------------------


SHARED = """\
memo:
  csv: ../assets/part-05/chapter-13/self-attention-safety-memo-candidates.csv
  document: memo_cap_missing
  targets: [그것]
  display: {en: {그것: it}, zh: {그것: 它}}
other: {csv: x.csv, document: d}
"""


def test_a_shared_file_defines_the_example_for_every_language(project: Path) -> None:
    (project / "docs" / "course" / "shared.yml").write_text(SHARED, encoding="utf-8")
    page = "```selfattn\nuse: memo\nfrom: shared.yml\nshow: [output]\n```\n\n"
    page += "`{selfattn} memo top 그것`\n"
    for language, label in (("en", "it"), ("zh", "它"), ("ko", "그것")):
        out = expand_page(
            page,
            pipeline=Pipeline(Settings(), Cache(None)),
            resolver=_Resolver(project),
            store=lambda html, late: "X",
            language=language,
        )
        assert out.problems == []
        assert f"target_token = {label}\n" in out.markdown
        # The page depends on the shared file: the memo re-renders when it changes.
        assert project / "docs" / "course" / "shared.yml" in out.digests


def test_shared_file_problems_name_the_file(project: Path) -> None:
    shared = project / "docs" / "course" / "shared.yml"
    resolver = _Resolver(project)
    with pytest.raises(DataError, match="file not found"):
        load_shared("shared.yml", "memo", resolver, 3)
    shared.write_text(SHARED, encoding="utf-8")
    with pytest.raises(BlockError, match="defines no example 'nope'; it defines: memo, other"):
        load_shared("shared.yml", "nope", resolver, 3)
    shared.write_text(SHARED.replace("targets: [그것]", "targets: 그것"), encoding="utf-8")
    with pytest.raises(BlockError, match=r"in docs/course/shared.yml:4: 'targets'") as caught:
        load_shared("shared.yml", "memo", resolver, 3)
    assert caught.value.line == 3
    shared.write_text("memo: [", encoding="utf-8")
    with pytest.raises(DataError, match="invalid YAML"):
        load_shared("shared.yml", "memo", resolver, 3)
    shared.write_text(SHARED.replace("  targets:", "  show: [chart]\n  targets:"), "utf-8")
    with pytest.raises(BlockError, match="sets 'show', a view key"):
        load_shared("shared.yml", "memo", resolver, 3)


def test_paths_in_a_shared_file_are_relative_to_it(project: Path) -> None:
    (project / "docs" / "shared").mkdir()
    (project / "docs" / "shared" / "s.yml").write_text(
        "m:\n  csv: ../assets/x.csv\n  document: d\n  script: /examples/s.py\n", encoding="utf-8"
    )
    shared = load_shared("/shared/s.yml", "m", _Resolver(project), 1)
    assert (shared.spec.csv, shared.spec.script) == ("/assets/x.csv", "/examples/s.py")
    shared = load_shared("../shared/s.yml", "m", _Resolver(project), 1)
    assert shared.spec.csv == "../assets/x.csv"  # ../shared/../assets from docs/course


# -- localised scripts --------------------------------------------------------------------------


def test_a_localised_script_is_preferred(project: Path) -> None:
    examples = project / "docs" / "examples"
    examples.mkdir()
    for name in ("memo.py", "memo.en.py"):
        (examples / name).write_text("print()\n", encoding="utf-8")
    spec = _block(f"csv: {CSV}\ndocument: d\nscript: /examples/memo.py")
    assert spec.example is not None
    resolver = _Resolver(project)
    assert localized_script(spec.example, resolver, "en-GB").path.name == "memo.en.py"
    assert localized_script(spec.example, resolver, "zh").path.name == "memo.py"
    assert localized_script(spec.example, resolver, None).path.name == "memo.py"


def test_document_ids_and_group_names_have_labels(project: Path) -> None:
    page = (
        f"```selfattn\nid: m\ncsv: {CSV}\ndocument: memo_cap_missing\ntargets: [그것]\n"
        "groups: {cap: [절연캡, 씌우지]}\n"
        "display: {en: {memo_cap_missing: the cap memo, cap: cap + not fitted}}\n"
        "show: [output, compare, mermaid]\n```\n"
    )
    stored: list[str] = []

    def store(html: object, late: bool) -> str:
        stored.append(str(html))
        return "X"

    out = expand_page(
        page,
        pipeline=Pipeline(Settings(), Cache(None)),
        resolver=_Resolver(project),
        store=store,
        language="en",
    )
    assert out.problems == []
    compare, mermaid = stored
    assert [row[0] for row in table_rows(parse_html(compare).find("table"))][-1] == (
        "cap + not fitted"
    )
    assert 'doc["document&lt;br/&gt;the cap memo"]' in mermaid
    assert "cap_weight = " in out.markdown  # the printout keeps the name the script prints


def test_page_language_front_matter_then_i18n_locale_then_theme(tmp_path: Path) -> None:
    from mkdocs.config import load_config
    from mkdocs.structure.files import File

    from mkdocs_selfattn.plugin.site_language import page_language

    (tmp_path / "docs").mkdir()
    config_file = tmp_path / "mkdocs.yml"
    config_file.write_text("site_name: x\ntheme:\n  name: material\n  language: zh\n", "utf-8")
    config = load_config(config_file=str(config_file))
    file = File("a.md", str(tmp_path / "docs"), str(tmp_path / "site"), True)
    assert page_language(file, {}, config) == "zh"
    file.locale = "ko"  # type: ignore[attr-defined]  # what mkdocs-static-i18n sets
    assert page_language(file, {}, config) == "ko"
    assert page_language(file, {"selfattn_language": "en"}, config) == "en"


@pytest.mark.parametrize(
    ("formatter", "expected"),
    [
        ("pymdownx.superfences.fence_code_format", ("pre", "mermaid")),
        ("pymdownx.superfences.fence_div_format", ("div", "mermaid")),
        ("pymdownx.superfences.fence_code_format\n          class: diagram", ("pre", "diagram")),
        ("html.escape", None),  # a formatter the plugin cannot copy: the view stays a fence
    ],
)
def test_the_mermaid_view_copies_the_sites_fence(
    tmp_path: Path, formatter: str, expected: tuple[str, str] | None
) -> None:
    from mkdocs.config import load_config

    from mkdocs_selfattn.plugin.site_fences import mermaid_format
    from mkdocs_selfattn.render.mermaid import mermaid_html

    name, _, extra = formatter.partition("\n")
    cls = "" if extra else "\n          class: mermaid"
    (tmp_path / "docs").mkdir()
    config_file = tmp_path / "mkdocs.yml"
    config_file.write_text(
        "site_name: x\nmarkdown_extensions:\n  - pymdownx.superfences:\n      custom_fences:\n"
        f"        - name: mermaid{cls}\n{extra and extra + chr(10)}"
        f"          format: !!python/name:{name}\n",
        "utf-8",
    )
    assert mermaid_format(load_config(config_file=str(config_file))) == expected
    assert mermaid_html("a --> b\n", "div", "m") == '<div class="m">a --&gt; b</div>'


@pytest.mark.slow
def test_a_wrong_language_in_front_matter_is_said_on_every_build(tmp_path: Path) -> None:
    from sites import new_site, seed_block

    page = "---\nselfattn_language: 5\n---\n# P\n\n" + seed_block(show="[table]")
    site = new_site(tmp_path / "project", {"index.md": page})
    expected = [
        "docs/index.md: selfattn: front matter 'selfattn_language': a number 5 is not a language "
        "code; write one such as 'en', 'ko' or 'zh-Hans' (until then the page is in the site's "
        "language)"
    ]
    assert site.build().selfattn() == expected
    assert site.build().selfattn() == expected  # warm: the page memo holds, the warning does not go
    assert "<table>" in (site.site_dir / "index.html").read_text("utf-8")  # the page still builds
