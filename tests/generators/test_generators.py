"""One core, every site generator: the same chapter built by MkDocs, ProperDocs and Zensical.

MkDocs and ProperDocs run the ``selfattn`` plugin; Zensical runs no MkDocs plugins, so the same
``mkdocs.yml`` also lists the ``mkdocs_selfattn`` Python-Markdown extension (under MkDocs and
ProperDocs the plugin has already replaced every block before the extension sees the page, so
listing both changes nothing there). Each generator builds its own copy of the project in a
subprocess, with its own command line (``python -m mkdocs|properdocs|zensical build``), bounded by
a timeout. Then the numbers a reader sees are read back from each built page:

* the printout and code blocks (``<pre>``), which must also match tests/golden/seed_printout.txt,
* the mermaid sources,
* every table cell,
* paragraphs and list items, where the inline values are,
* the text of the charts (axis ticks and bar labels),

and compared across the three generators. Two pages are built: a small chapter written here (all
views, a script, a ``use:`` block, a block inside an admonition, every kind of inline value) and
the real demo chapter from docs/course with the repository's own mkdocs.yml (nav cut down to the
chapter).

Zensical's ``--strict`` does not see warnings logged by Python-Markdown extensions, so the
extension runs with ``on_error: fail``: a broken block stops the Zensical build. MkDocs and
ProperDocs build the small chapter with ``--strict``.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from html_tree import Node, parse_html

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
COURSE_CSV_REL = "docs/assets/part-05/chapter-13/self-attention-safety-memo-candidates.csv"
COURSE_SCRIPT_REL = "docs/examples/self_attention_memo.py"
SEED_PRINTOUT = REPO / "tests" / "golden" / "seed_printout.txt"
CHAPTER_REL = "course/part-05/chapter-13/p5-13-2-self-attention.md"
SMALL_REL = "course/part-05/chapter-13/small-chapter.md"

GENERATORS = ("mkdocs", "properdocs", "zensical")
BUILD_TIMEOUT = 300.0
EXTENSION_NAMES = ("mkdocs_selfattn", "mkdocs_selfattn.extension")

# ---------------------------------------------------------------------------------------------
# The small chapter

SMALL_CONFIG = """\
site_name: selfattn on three generators
docs_dir: docs
theme:
  name: material
  language: zh
markdown_extensions:
  - admonition
  - pymdownx.details
  - pymdownx.superfences:
      custom_fences:
        - name: mermaid
          class: mermaid
          format: !!python/name:pymdownx.superfences.fence_code_format
  - pymdownx.tabbed:
      alternate_style: true
  - pymdownx.highlight
  - attr_list
  - md_in_html
  - tables
  - mkdocs_selfattn:
      on_error: fail
plugins:
  - search
  - selfattn
nav:
  - small-chapter: course/part-05/chapter-13/small-chapter.md
"""

DISPLAY = "{배터리팩: 电池包, 분리: 分离, 절연캡: 绝缘帽, 씌우지: 未套上, 그것: 它, 위험: 风险}"
CSV = "/assets/part-05/chapter-13/self-attention-safety-memo-candidates.csv"

# key → (inline value, what MkDocs must show; the numbers come from the golden printout)
INLINE = {
    "csv_rows": ("memo csv_rows", "36"),
    "document_rows": ("memo document_rows", "12"),
    "baseline": ("memo baseline", "[0.383, 0.475, 0.417]"),
    "score": ("memo score 그것 절연캡", "2.4"),
    "weight_it_cap": ("memo weight 그것 절연캡", "0.43"),
    "weight_it_not_applied": ("memo weight 그것 씌우지", "0.214"),
    "weight_not_applied_detach": ("memo weight 씌우지 분리", "0.246"),
    "top": ("memo top 그것", "绝缘帽"),
    "group": ("memo group 그것 cap_plus_not_applied", "0.644"),
    "group_percent": ("memo group 그것 cap_plus_not_applied :.1%", "64.4%"),
    "representation": ("memo representation 그것", "[0.203, 0.691, 0.436]"),
    "shift": ("memo shift 씌우지", "[-0.056, 0.123, -0.007]"),
    "shift_cap": ("memo shift 씌우지 evidence_cap", "0.123"),
    "sharp_weight": ("sharp weight 그것 절연캡", None),
}

SMALL_CHAPTER = (
    textwrap.dedent(
        f"""\
        # 小节：同一份备忘录，三个生成器

        ```selfattn
        id: memo
        csv: {CSV}
        document: memo_cap_missing
        targets: [그것, 씌우지]
        vectors: [evidence_pack, evidence_cap, evidence_action]
        display: {DISPLAY}
        groups: {{cap_plus_not_applied: [절연캡, 씌우지]}}
        script: /examples/self_attention_memo.py
        show: [output, table, compare, mermaid, chart]
        ```

        ## Inline values

        """
    )
    + "\n".join(f"- {key}: `{{selfattn}} {value}`" for key, (value, _) in INLINE.items())
    + "\n\n"
    + textwrap.dedent(
        f"""\
        Prose with values inside: 绝缘帽 gets `{{selfattn}} memo weight 그것 절연캡` and the
        bundle `{{selfattn}} memo group 씌우지 cap_plus_not_applied :.1%`.

        ## The program

        ```selfattn
        use: memo
        show: [code, output]
        ```

        ## Sharper

        !!! note "temperature 0.5"

            ```selfattn
            id: sharp
            csv: {CSV}
            document: memo_cap_missing
            targets: [그것, 씌우지]
            display: {DISPLAY}
            groups: {{cap_plus_not_applied: [절연캡, 씌우지]}}
            temperature: 0.5
            show: [compare, mermaid]
            top: 2
            ```
        """
    )
)


# ---------------------------------------------------------------------------------------------
# Projects and builds


@dataclass
class Build:
    generator: str
    root: Path
    command: list[str]
    returncode: int
    stdout: str
    stderr: str

    @property
    def log(self) -> str:
        return self.stdout + self.stderr

    def page(self, rel: str) -> Path:
        """``a/b.md`` → site/a/b/index.html (directory URLs, as every generator defaults to)."""
        return self.root / "site" / rel.removesuffix(".md") / "index.html"

    def describe(self) -> str:
        return (
            f"{self.generator}: {' '.join(self.command)} (in {self.root}) exited "
            f"{self.returncode}\n--- stdout\n{self.stdout[-4000:]}\n--- stderr\n"
            f"{self.stderr[-4000:]}"
        )


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env["NO_MKDOCS_2_WARNING"] = "1"  # mkdocs-material's end-of-life notice
    env["DISABLE_MKDOCS_2_WARNING"] = "true"  # ProperDocs' notice, if a plugin enables it
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def build(generator: str, template: Path, workdir: Path, *, strict: bool) -> Build:
    """Copy the project at ``template`` and build it with ``generator``, from the project folder."""
    root = workdir / generator
    shutil.copytree(template, root)
    command = [sys.executable, "-m", generator, "build", "-f", "mkdocs.yml"]
    if generator == "zensical":
        command.append("--clean")  # never reuse rendered pages from Zensical's .cache
    if strict:
        command.append("--strict")
    process = subprocess.run(
        command,
        cwd=root,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=BUILD_TIMEOUT,
        env=_env(),
        check=False,
    )
    return Build(generator, root, command, process.returncode, process.stdout, process.stderr)


def build_all(template: Path, workdir: Path, *, strict: bool) -> dict[str, Build]:
    builds = {g: build(g, template, workdir, strict=strict) for g in GENERATORS}
    for result in builds.values():
        assert result.returncode == 0, result.describe()
        problems = [line for line in result.log.splitlines() if "selfattn:" in line]
        assert not problems, f"{result.generator} reported selfattn problems:\n" + "\n".join(
            problems
        )
    return builds


def _copy_course_files(project: Path) -> None:
    for rel in (COURSE_CSV_REL, COURSE_SCRIPT_REL):
        target = project / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / rel, target)


def small_project(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "mkdocs.yml").write_text(SMALL_CONFIG, encoding="utf-8")
    _copy_course_files(root)
    page = root / "docs" / SMALL_REL
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(SMALL_CHAPTER, encoding="utf-8")
    return root


# The repository's mkdocs.yml holds !!python/name: tags; they are kept as they are.


@dataclass
class _Tagged:
    tag: str
    value: Any


class _Loader(yaml.SafeLoader):
    pass


class _Dumper(yaml.SafeDumper):
    pass


def _construct_tagged(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> _Tagged:
    value: Any
    if isinstance(node, yaml.ScalarNode):
        value = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        assert isinstance(node, yaml.MappingNode)
        value = loader.construct_mapping(node, deep=True)
    return _Tagged(node.tag, value)


def _represent_tagged(dumper: yaml.SafeDumper, data: _Tagged) -> yaml.Node:
    if isinstance(data.value, list):
        return dumper.represent_sequence(data.tag, data.value)
    if isinstance(data.value, dict):
        return dumper.represent_mapping(data.tag, data.value)
    return dumper.represent_scalar(data.tag, str(data.value))


_Loader.add_multi_constructor("tag:yaml.org,2002:python/", _construct_tagged)
_Loader.add_multi_constructor("!", _construct_tagged)
_Dumper.add_representer(_Tagged, _represent_tagged)


def _with_extension(extensions: list[Any]) -> list[Any]:
    """The repository's markdown_extensions with ``mkdocs_selfattn`` set to ``on_error: fail``."""
    out: list[Any] = []
    found = False
    for item in extensions:
        name = item if isinstance(item, str) else next(iter(item))
        if name in EXTENSION_NAMES:
            options = {} if isinstance(item, str) else dict(item[name] or {})
            options["on_error"] = "fail"
            item = {name: options}
            found = True
        out.append(item)
    if not found:
        out.append({"mkdocs_selfattn": {"on_error": "fail"}})
    return out


def chapter_project(root: Path) -> Path:
    """The real chapter with the repository's mkdocs.yml, nav cut down to the chapter.

    Only docs/course, docs/assets and docs/examples are copied: the plugin's own documentation
    writes page-relative ``csv:`` paths, which the extension reads from docs_dir (see
    docs/plugin/other-generators.md), so those pages are not part of this comparison.
    """
    config = yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)
    docs_dir = REPO / str(config.get("docs_dir", "docs"))
    config["docs_dir"] = "docs"
    config.pop("site_dir", None)
    config["nav"] = [CHAPTER_REL]
    config["markdown_extensions"] = _with_extension(list(config.get("markdown_extensions") or []))
    # The comparison is of the default language's chapter: Zensical runs no mkdocs-static-i18n,
    # so the other languages' pages (page.ko.md, page.en.md) are left out for every generator.
    config["plugins"] = [p for p in config.get("plugins") or [] if not _is_i18n(p)]
    root.mkdir(parents=True)
    (root / "mkdocs.yml").write_text(
        yaml.dump(config, Dumper=_Dumper, allow_unicode=True, sort_keys=False), encoding="utf-8"
    )
    for folder in ("course", "assets", "examples"):
        if (docs_dir / folder).is_dir():
            shutil.copytree(docs_dir / folder, root / "docs" / folder, ignore=_other_language_pages)
    return root


def _is_i18n(plugin: Any) -> bool:
    return plugin == "i18n" or (isinstance(plugin, dict) and "i18n" in plugin)


def _other_language_pages(folder: str, names: list[str]) -> set[str]:
    return {n for n in names if re.search(r"\.(ko|en)\.md$", n)}


# ---------------------------------------------------------------------------------------------
# Reading a built page


def _squash(text: str) -> str:
    return " ".join(text.replace("¶", " ").split())


@dataclass(frozen=True)
class PageNumbers:
    """What a reader of the page sees, by kind; compared across generators."""

    printouts: list[str]
    mermaid: list[str]
    tables: list[list[list[str]]]
    prose: list[str]
    charts: list[list[str]]
    raw: str

    def inline(self) -> dict[str, str]:
        """``- key: value`` list items (the small chapter's inline values), by key."""
        found: dict[str, str] = {}
        for text in self.prose:
            key, sep, value = text.partition(": ")
            if sep and key in INLINE:
                found[key] = value
        return found


def read_page(path: Path) -> PageNumbers:
    raw = path.read_text(encoding="utf-8")
    articles = parse_html(raw).find_all("article")
    assert len(articles) == 1, f"expected one <article> in {path}, found {len(articles)}"
    article = articles[0]
    printouts: list[str] = []
    mermaid: list[str] = []
    for pre in article.find_all("pre"):
        if pre.inside("svg"):
            continue
        text = html.unescape(pre.text()).strip("\n")
        (mermaid if "mermaid" in pre.classes else printouts).append(text)
    mermaid += [_squash(div.text()) for div in article.find_all("div") if "mermaid" in div.classes]
    tables = [
        [
            [_squash(cell.text()) for cell in row.children if isinstance(cell, Node)]
            for row in table.find_all("tr")
        ]
        for table in article.find_all("table")
    ]
    prose = [
        _squash(node.text())
        for node in article.iter()
        if node.tag in ("p", "li", "summary") and not node.inside("table", "pre", "svg")
    ]
    charts = [
        [_squash(t.text()) for t in svg.find_all("text")]
        for svg in article.find_all("svg")
        if "selfattn-chart-wide" in svg.classes
    ]
    return PageNumbers(printouts, mermaid, tables, prose, charts, raw)


def assert_same(pages: dict[str, PageNumbers], kind: str) -> None:
    reference = getattr(pages["mkdocs"], kind)
    assert reference, f"MkDocs' page has no {kind}"
    for generator in GENERATORS[1:]:
        other = getattr(pages[generator], kind)
        if other == reference:
            continue
        first = next(
            (i for i, (a, b) in enumerate(zip(reference, other, strict=False)) if a != b),
            min(len(reference), len(other)),
        )
        pytest.fail(
            f"{kind} differ between mkdocs and {generator} (item {first}; "
            f"{len(reference)} vs {len(other)} items):\n"
            f"mkdocs:      {reference[first] if first < len(reference) else '(none)'!r}\n"
            f"{generator + ':':12} {other[first] if first < len(other) else '(none)'!r}"
        )


def assert_fully_rendered(pages: dict[str, PageNumbers]) -> None:
    for generator, page in pages.items():
        for leftover in ("{selfattn}", "```selfattn", "selfattn-error", "SELFATTNSLOT"):
            assert leftover not in page.raw, f"{generator}: the page still contains {leftover!r}"


# ---------------------------------------------------------------------------------------------
# Fixtures


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> dict[str, PageNumbers]:
    workdir = tmp_path_factory.mktemp("generators-small")
    template = small_project(workdir / "template")
    builds = build_all(template, workdir, strict=True)
    return {g: read_page(b.page(SMALL_REL)) for g, b in builds.items()}


@pytest.fixture(scope="module")
def chapter(tmp_path_factory: pytest.TempPathFactory) -> dict[str, PageNumbers]:
    assert (REPO / "docs" / CHAPTER_REL).is_file(), f"the demo chapter docs/{CHAPTER_REL} is gone"
    workdir = tmp_path_factory.mktemp("generators-chapter")
    template = chapter_project(workdir / "template")
    builds = build_all(template, workdir, strict=False)
    return {g: read_page(b.page(CHAPTER_REL)) for g, b in builds.items()}


# ---------------------------------------------------------------------------------------------
# The small chapter


def test_small_chapter_is_fully_rendered_everywhere(small: dict[str, PageNumbers]) -> None:
    assert_fully_rendered(small)


def test_small_chapter_printout_matches_golden_everywhere(small: dict[str, PageNumbers]) -> None:
    golden = SEED_PRINTOUT.read_text(encoding="utf-8").strip("\n")
    for generator, page in small.items():
        # the output view, then the code view and the output view of the `use:` block
        assert page.printouts.count(golden) == 2, f"{generator}: printouts {page.printouts!r}"
        assert any("import csv" in p for p in page.printouts), f"{generator}: no code view"


@pytest.mark.parametrize("kind", ["printouts", "mermaid", "tables", "prose", "charts"])
def test_small_chapter_same_numbers(small: dict[str, PageNumbers], kind: str) -> None:
    assert_same(small, kind)


def test_small_chapter_views_are_all_there(small: dict[str, PageNumbers]) -> None:
    for generator, page in small.items():
        assert len(page.mermaid) == 2, f"{generator}: mermaid views {page.mermaid!r}"
        assert len(page.charts) == 1, f"{generator}: charts {page.charts!r}"
        assert "0.43" in page.charts[0], f"{generator}: chart labels {page.charts[0]!r}"
        # table view: one table per target; compare view: one table per example (two examples)
        assert len(page.tables) == 4, f"{generator}: {len(page.tables)} tables"


def test_small_chapter_inline_values(small: dict[str, PageNumbers]) -> None:
    expected = {key: shown for key, (_, shown) in INLINE.items() if shown is not None}
    mkdocs = small["mkdocs"].inline()
    assert set(mkdocs) == set(INLINE), mkdocs
    assert {k: mkdocs[k] for k in expected} == expected
    assert float(mkdocs["sharp_weight"]) > float(mkdocs["weight_it_cap"])  # temperature 0.5
    for generator in GENERATORS[1:]:
        assert small[generator].inline() == mkdocs, generator
    for generator, page in small.items():
        prose = [p for p in page.prose if p.startswith("Prose with values inside")]
        assert prose == [
            f"Prose with values inside: 绝缘帽 gets 0.43 and the bundle {_bundle_percent(page)}."
        ], generator


def _bundle_percent(page: PageNumbers) -> str:
    """未套上's bundle weight as ``:.1%`` shows it, from the printout (``… = 0.55``)."""
    found = re.findall(r"cap_plus_not_applied_weight = ([0-9.]+)", page.printouts[0])
    assert len(found) == 2, page.printouts[0]
    return f"{float(found[1]):.1%}"


# ---------------------------------------------------------------------------------------------
# The real demo chapter, with the repository's mkdocs.yml


def test_chapter_is_fully_rendered_everywhere(chapter: dict[str, PageNumbers]) -> None:
    assert_fully_rendered(chapter)


@pytest.mark.parametrize("kind", ["printouts", "mermaid", "tables", "prose", "charts"])
def test_chapter_same_numbers(chapter: dict[str, PageNumbers], kind: str) -> None:
    assert_same(chapter, kind)


def test_chapter_printout_matches_golden(chapter: dict[str, PageNumbers]) -> None:
    golden = SEED_PRINTOUT.read_text(encoding="utf-8").strip("\n")
    for generator, page in chapter.items():
        assert golden in page.printouts, f"{generator}: no printout equals the golden one"
