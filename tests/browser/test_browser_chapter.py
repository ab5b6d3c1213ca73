"""What readers of the chapter see, checked in headless Chromium rather than in the HTML source.

The page's markdown says what the author asked for (which examples, which views, which inline
values, in which order); the browser says what is on the screen. The tests read the numbers off
the rendered page (printout, tables, comparison table, mermaid figures, charts, prose) and check
that every place showing the same quantity shows the same number.

Pages: the real course chapter (the repository's mkdocs.yml built into a temporary folder) and a
small memo page of our own (tests/browser/conftest.py), so the checks do not depend on the
chapter's prose alone.
"""

from __future__ import annotations

import math
import re
import shlex
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from mkdocs_selfattn.render.words import TABLE, words

pytestmark = pytest.mark.browser

# -- the page's markdown: what the author asked for ----------------------------------------------

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`\n]*)$")
_INLINE = re.compile(r"(?<![`\\])`(\{selfattn\}[^`]*)`(?!`)")


@dataclass
class Example:
    id: str
    display: dict[str, str]
    groups: list[str]
    figure_display: dict[str, str] = field(default_factory=dict)
    """The labels drawn in figures (the site's figure_language may differ from the page's)."""

    def label(self, token: str) -> str:
        return self.display.get(token, token)

    def from_figure(self, label: str) -> str:
        """A label drawn in a figure as the page's prose and tables show that token."""
        tokens = {shown: token for token, shown in self.figure_display.items()}
        return self.label(tokens.get(label, label))


@dataclass
class View:
    kind: str  # output, table, compare, csv, mermaid, chart, code, or "fence" (an author mermaid)
    example: Example | None
    top: int = 3
    text: dict[str, str] = field(default_factory=dict)  # the block's localised table words


@dataclass
class InlineValue:
    raw: str
    example: str
    quantity: str
    args: tuple[str, ...]
    spec: str | None
    prefix: str  # page text just before it, whitespace removed
    suffix: str  # page text just after it, whitespace removed
    shown: str | None = None  # what the browser shows there


@dataclass
class Source:
    views: list[View]
    inline: list[InlineValue]
    examples: dict[str, Example]
    language: str = "zh"
    figure_language: str = "zh"

    def of_kind(self, kind: str) -> list[View]:
        return [v for v in self.views if v.kind == kind]


def read_source(path: Path, language: str = "zh") -> Source:
    """The page's blocks and inline values; ``from:`` files are read for ``language``'s labels."""
    lines = path.read_text(encoding="utf-8").split("\n")
    docs = next(p for p in path.parents if p.name == "docs")
    figure = _figure_language(docs.parent / "mkdocs.yml")
    figure = language if figure == "page" else figure
    views: list[View] = []
    examples: dict[str, Example] = {}
    prose: list[str | None] = []  # None where a fence interrupts the prose
    i = 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if not match:
            prose.append(lines[i])
            i += 1
            continue
        fence, indent = match["fence"], match["indent"]
        close = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        j = i + 1
        while j < len(lines) and not close.match(lines[j]):
            j += 1
        body = "\n".join(line.removeprefix(indent) for line in lines[i + 1 : j])
        name = (match["info"].split() or [""])[0].strip("{}.")
        if name == "mermaid":
            views.append(View("fence", None))
        elif name == "selfattn":
            options = _shared(yaml.safe_load(body) or {}, docs, language, figure)
            views += _block_views(options, examples)
        prose.append(None)
        i = j + 1
    return Source(views, _inline_values(prose), examples, language, figure)


def _figure_language(config: Path) -> str:
    """The site option figure_language of ``config`` (``page`` when it sets none)."""
    text = config.read_text(encoding="utf-8") if config.is_file() else ""
    found = re.search(r"^\s*figure_language:\s*([\w-]+)", text, re.M)
    return found[1] if found else "page"


def _shared(
    options: dict[str, Any], docs: Path, language: str, figure: str | None = None
) -> dict[str, Any]:
    """A ``use:``/``from:`` block as the defining block it stands for, in ``language``."""
    if "from" in options:
        path = docs / str(options["from"]).lstrip("/")
        definition = dict(yaml.safe_load(path.read_text(encoding="utf-8"))[str(options["use"])])
        rest = {k: v for k, v in options.items() if k not in ("use", "from")}
        options = {**definition, "id": str(options["use"]), **rest}
    display = options.get("display") or {}
    keyed = any(isinstance(v, dict) for v in display.values())
    figure_display = (display.get(figure or language) or {}) if keyed else display
    for key in ("display", "text"):
        value = options.get(key) or {}
        if any(isinstance(v, dict) for v in value.values()):  # keyed by language
            options = {**options, key: value.get(language) or {}}
    return {**options, "figure_display": figure_display}


def _block_views(options: dict[str, Any], examples: dict[str, Example]) -> list[View]:
    if "use" in options:
        example = examples.get(str(options["use"]))
    else:
        example = Example(
            id=str(options.get("id", "")),
            display={str(k): str(v) for k, v in (options.get("display") or {}).items()},
            groups=[str(g) for g in (options.get("groups") or {})],
            figure_display={str(k): str(v) for k, v in options["figure_display"].items()},
        )
        if example.id:
            examples[example.id] = example
    show = options.get("show") or []
    text = {str(k): str(v) for k, v in (options.get("text") or {}).items()}
    return [View(str(kind), example, int(options.get("top", 3)), text) for kind in show]


def _plain(markdown: str) -> str:
    """Roughly the text a paragraph's markdown shows, with all whitespace removed."""
    text = re.sub(r"^\s*(?:[-*+]|\d+\.|>|!!!|\?\?\?\+?)\s+", "", markdown, flags=re.M)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<(https?://[^>]+)>", r"\1", text)
    text = re.sub(r"</?[a-zA-Z][^>]*>", "", text)
    text = text.replace("**", "").replace("*", "").replace("`", "").replace("\\", "")
    return re.sub(r"\s+", "", text)


def _inline_values(prose: list[str | None]) -> list[InlineValue]:
    paragraphs: list[list[str]] = [[]]
    for line in prose:
        if line is None or not line.strip():
            paragraphs.append([])
        else:
            paragraphs[-1].append(line)
    found: list[InlineValue] = []
    for paragraph in paragraphs:
        text = "\n".join(paragraph)
        spans = list(_INLINE.finditer(text))
        for n, span in enumerate(spans):
            before = text[spans[n - 1].end() if n else 0 : span.start()]
            after = text[span.end() : spans[n + 1].start() if n + 1 < len(spans) else len(text)]
            words = shlex.split(span[1].removeprefix("{selfattn}"))
            spec = words.pop()[1:] if len(words) > 2 and words[-1].startswith(":") else None
            found.append(
                InlineValue(
                    raw=span[0],
                    example=words[0],
                    quantity=words[1],
                    args=tuple(words[2:]),
                    spec=spec,
                    prefix=_plain(before)[-8:],
                    suffix=_plain(after)[:3],
                )
            )
    return found


# -- the page in the browser: what the reader sees -------------------------------------------------

WAIT_FOR_MERMAID = """
(expected) => {
  const hosts = [...document.querySelectorAll("article div.mermaid")];
  return document.querySelectorAll("article pre.mermaid").length === 0
    && hosts.length === expected
    && hosts.every((h) => h.shadowRoot && h.shadowRoot.querySelector("svg"));
}
"""

READ_PAGE = """
() => {
  const article = document.querySelector("article.md-content__inner");
  const text = (el) => (el ? el.innerText.trim() : "");
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y + window.scrollY, width: r.width, height: r.height };
  };
  const topLevel = (el) => {
    while (el.parentElement && el.parentElement !== article) el = el.parentElement;
    return el;
  };
  const children = [...article.children];
  const tables = [...article.querySelectorAll("table")].map((table) => {
    const outer = topLevel(table);
    return {
      index: children.indexOf(outer),
      caption: text(outer.previousElementSibling),
      header: [...table.querySelectorAll("thead th")].map(text),
      rows: [...table.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map(text)),
      visible: table.checkVisibility(),
    };
  });
  const printouts = [...article.querySelectorAll("pre code")]
    .map((code) => code.innerText)
    .filter((t) => t.startsWith("csv_rows = "));
  const charts = [...article.querySelectorAll("svg.selfattn-chart")]
    .filter((svg) => svg.checkVisibility()).map((svg) => {
    const inside = (t, part) => !!t.closest(`g[id*="-${part}"]`);
    const texts = [...svg.querySelectorAll("text")];
    return {
      box: box(svg),
      visible: svg.checkVisibility(),
      // The renderer names its groups: candidate_P, value_S_P (matplotlib's own: legend_N).
      ticks: texts.filter((t) => inside(t, "candidate_")).map((t) => t.textContent),
      legend: texts.filter((t) => inside(t, "legend_")).map((t) => t.textContent),
      bars: texts.filter((t) => inside(t, "value_")).map((t) => t.textContent),
    };
  });
  const mermaids = [...article.querySelectorAll("div.mermaid")].map((host) => {
    const svg = host.shadowRoot && host.shadowRoot.querySelector("svg");
    if (!svg) return { svg: false };
    return {
      svg: true,
      box: box(host),
      svgBox: box(svg),
      visible: host.checkVisibility(),
      errorText: /Syntax error|Parse error/i.test(svg.textContent),
      nodes: [...svg.querySelectorAll("g.node")].map((n) => ({
        id: n.id,
        text: (n.querySelector(".nodeLabel") || n).innerText || n.textContent,
        box: box(n),
      })),
      text: svg.textContent,
    };
  });
  return {
    tables, printouts, charts, mermaids,
    text: article.innerText,
    errors: [...article.querySelectorAll(".selfattn-error")].map(text),
  };
}
"""


def open_all_details(reader: Any) -> None:
    """Click every collapsed answer open, as a reader would before reading it."""
    page = reader.page
    closed = page.locator("article details:not([open]) > summary")
    for _ in range(closed.count()):
        closed.first.scroll_into_view_if_needed()
        closed.first.click()
    page.wait_for_function(
        "() => document.querySelectorAll('article details:not([open])').length === 0"
    )


def load(open_reader: Callable[..., Any], target: Any, scheme: str = "light") -> Any:
    """Open the page and wait until every mermaid figure of its markdown has rendered."""
    reader = open_reader(target.address, scheme=scheme)
    source = read_source(target.source)
    reader.page.wait_for_function(WAIT_FOR_MERMAID, arg=mermaid_count(source), timeout=30_000)
    return reader, source


def mermaid_count(source: Source) -> int:
    return len(source.of_kind("fence")) + len(source.of_kind("mermaid"))


# -- numbers read off the page -------------------------------------------------------------------

_LABEL = re.compile(r"^(?P<label>.*?)(?:\s*\((?P<raw>[^()]*)\))?$")


def _label(cell: str) -> str:
    """'电池包 (배터리팩)' -> '电池包': the display label (the CSV token follows it, small)."""
    match = _LABEL.match(cell.strip())
    assert match is not None
    return match["label"].strip()


def _vector(cells: list[str]) -> str:
    return "[" + ", ".join(c.strip() for c in cells) + "]"


@dataclass
class Shown:
    """Every quantity the page shows outside the prose: key -> [(where, text shown)]."""

    values: dict[tuple[str, ...], list[tuple[str, str]]] = field(
        default_factory=lambda: defaultdict(list)
    )

    def add(self, where: str, key: tuple[str, ...], value: str) -> None:
        self.values[key].append((where, value.strip()))

    def weights(self, example: str, target: str) -> dict[str, float]:
        out: dict[str, float] = {}
        for key, shown in self.values.items():
            if key[:3] == (example, "weight", target):
                out[key[3]] = float(shown[0][1])
        return out


def read_printout(shown: Shown, example: Example, text: str, where: str) -> None:
    ex, target = example.id, ""
    for line in text.splitlines():
        name, _, value = line.partition(" = ")
        if not value:
            continue
        if name == "csv_rows":
            shown.add(where, (ex, "csv_rows"), value)
        elif name == "focus_document_rows":
            shown.add(where, (ex, "document_rows"), value)
        elif name == "baseline_representation":
            shown.add(where, (ex, "baseline"), value)
        elif name == "target_token":
            target = value
        elif name == "new_representation":
            shown.add(where, (ex, "representation", target), value)
        elif name == "representation_shift":
            shown.add(where, (ex, "shift", target), value)
        elif name == "top_token":
            shown.add(where, (ex, "top", target), value)
        elif name.endswith(" weight"):
            shown.add(where, (ex, "weight", target, name.removesuffix(" weight")), value.split()[0])
        elif name.endswith("_weight") and name.removesuffix("_weight") in example.groups:
            shown.add(where, (ex, "group", target, name.removesuffix("_weight")), value)


def read_target_table(shown: Shown, example: Example, table: dict[str, Any], where: str) -> None:
    caption = table["caption"]
    parts = [p.strip() for p in caption.split("·")]
    assert parts[0].startswith("target "), f"{where}: caption {caption!r}"
    target = _label(parts[0].removeprefix("target "))
    ex = example.id
    for part in parts[1:]:
        name, _, value = part.partition(":")
        if name.strip() == "top":
            shown.add(where, (ex, "top", target), _label(value))
        elif name.strip() in example.groups:
            shown.add(where, (ex, "group", target, name.strip()), value)
    header = table["header"]
    score, weight = header.index("score"), header.index("weight")
    vector = slice(weight + 1, None)
    rows = {"new representation": "representation", "baseline": "baseline", "shift": "shift"}
    for row in table["rows"]:
        first = row[0].strip()
        if first in rows:
            key = (ex, "baseline") if first == "baseline" else (ex, rows[first], target)
            shown.add(where, key, _vector(row[vector]))
        else:
            candidate = _label(first)
            shown.add(where, (ex, "score", target, candidate), row[score])
            shown.add(where, (ex, "weight", target, candidate), row[weight])


def read_compare_table(shown: Shown, example: Example, table: dict[str, Any], where: str) -> None:
    targets = [_label(h) for h in table["header"][1:]]
    for row in table["rows"]:
        first = row[0].strip()
        for target, cell in zip(targets, row[1:], strict=True):
            if cell.strip() in ("–", "-", ""):
                continue
            if first in example.groups:
                shown.add(where, (example.id, "group", target, first), cell)
                continue
            candidate = _label(first)
            if "▲" in cell:
                shown.add(where, (example.id, "top", target), candidate)
            shown.add(where, (example.id, "weight", target, candidate), cell.replace("▲", ""))


def read_chart(shown: Shown, example: Example, chart: dict[str, Any], where: str) -> None:
    candidates, targets, bars = chart["ticks"], chart["legend"], chart["bars"]
    assert len(bars) == len(candidates) * len(targets), f"{where}: bar labels {bars}"
    for s, target in enumerate(targets):
        for c, candidate in enumerate(candidates):
            key = (
                example.id,
                "weight",
                example.from_figure(target),
                example.from_figure(candidate),
            )
            shown.add(where, key, bars[s * len(candidates) + c])


def read_mermaid(shown: Shown, example: Example, figure: dict[str, Any], where: str) -> None:
    nodes = {re.sub(r"^.*-flowchart-(\w+?)-\d+$", r"\1", n["id"]): n for n in figure["nodes"]}
    n = 0
    while f"t{n}" in nodes:
        # The plugin breaks a box's lines at spaces (a vector between its numbers): read the
        # target and the vectors from the box's whole text, the weights one line each.
        target = example.from_figure(
            " ".join(nodes[f"t{n}"]["text"].split()).rsplit(": ", 1)[-1].strip()
        )
        for line in nodes[f"w{n}"]["text"].splitlines()[1:]:
            candidate, _, value = line.rpartition(" ")
            key = (example.id, "weight", target, example.from_figure(candidate))
            shown.add(where, key, value)
        whole = " ".join(nodes[f"r{n}"]["text"].split())
        representation, shift = re.findall(r"\[[^\]]*\]", whole)[:2]
        shown.add(where, (example.id, "representation", target), representation)
        shown.add(where, (example.id, "shift", target), shift)
        n += 1


# The table words a block can localise with `text:`, as the renderer writes them by default.
_TABLE_WORDS = {
    "candidate": "candidate",
    "role": "role",
    "score": "score",
    "weight": "weight",
    "target": "target",
    "top": "top",
    "representation": "new representation",
    "baseline": "baseline",
    "shift": "shift",
}


def _canonical_words(seen: dict[str, Any], source: Source) -> dict[str, Any]:
    """Map localised table words (a block's `text:`) back to the defaults the readers expect."""
    canon: dict[str, str] = {
        word: _TABLE_WORDS[key]
        for key, word in words(TABLE, source.language).items()
        if key in _TABLE_WORDS  # a word added to TABLE later maps only once it is listed above
    }
    for view in source.views:
        for key, word in view.text.items():
            if key in _TABLE_WORDS and view.kind in ("table", "compare"):
                canon[word] = _TABLE_WORDS[key]

    def fix(text: str) -> str:
        stripped = text.strip()
        if stripped in canon:
            return canon[stripped]
        for word, default in sorted(canon.items(), key=lambda kv: -len(kv[0])):
            if stripped.startswith(word + " ") or stripped.startswith(word + ":"):
                return default + stripped[len(word) :]
        return text

    for table in seen["tables"]:
        table["header"] = [fix(h) for h in table["header"]]
        if table.get("caption"):
            table["caption"] = " · ".join(fix(p) for p in table["caption"].split(" · "))
        for row in table["rows"]:
            if row:
                row[0] = fix(row[0])
    return seen


def read_page(reader: Any, source: Source) -> tuple[dict[str, Any], Shown]:
    """Every number the page shows in printouts, tables, figures and charts, by quantity."""
    seen = _canonical_words(reader.page.evaluate(READ_PAGE), source)
    shown = Shown()
    outputs = [v for v in source.views if v.kind == "output"]
    assert len(seen["printouts"]) == len(outputs), "one printout per 'output' view"
    for n, (view, text) in enumerate(zip(outputs, seen["printouts"], strict=True)):
        assert view.example is not None
        read_printout(shown, view.example, text, f"printout {n + 1}")

    target_tables = [t for t in seen["tables"] if "role" in t["header"] and "weight" in t["header"]]
    groups: list[list[dict[str, Any]]] = []
    for table in target_tables:
        if groups and table["index"] == groups[-1][-1]["index"] + 2:
            groups[-1].append(table)
        else:
            groups.append([table])
    table_views = source.of_kind("table")
    assert len(groups) == len(table_views), "the per-target tables of each 'table' view"
    for n, (view, group) in enumerate(zip(table_views, groups, strict=True)):
        assert view.example is not None
        for table in group:
            read_target_table(shown, view.example, table, f"table view {n + 1}")

    compares = [
        t for t in seen["tables"] if t["header"][:1] == ["candidate"] and t not in target_tables
    ]
    compare_views = source.of_kind("compare")
    assert len(compares) == len(compare_views), "one comparison table per 'compare' view"
    for n, (view, table) in enumerate(zip(compare_views, compares, strict=True)):
        assert view.example is not None
        read_compare_table(shown, view.example, table, f"compare table {n + 1}")

    chart_views = source.of_kind("chart")
    assert len(seen["charts"]) == len(chart_views), "one chart per 'chart' view"
    for n, (view, chart) in enumerate(zip(chart_views, seen["charts"], strict=True)):
        assert view.example is not None
        read_chart(shown, view.example, chart, f"chart {n + 1}")

    figures = [v for v in source.views if v.kind in ("fence", "mermaid")]
    assert len(seen["mermaids"]) == len(figures), "one rendered figure per mermaid fence/view"
    for n, (view, figure) in enumerate(zip(figures, seen["mermaids"], strict=True)):
        if view.kind == "mermaid":
            assert view.example is not None
            read_mermaid(shown, view.example, figure, f"mermaid figure {n + 1}")
    return seen, shown


# -- finding the inline values in the rendered prose ---------------------------------------------

_NUMBER = r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?%?"
_VALUE = rf"\[[^\]]*\]|{_NUMBER}|[^，。；：、,;:()（）\s]+"


def find_inline_values(source: Source, page_text: str) -> list[InlineValue]:
    """Walk the page text in order and read what is shown where each inline value stands."""
    text = re.sub(r"\s+", "", page_text)
    position = 0
    for item in source.inline:
        assert item.prefix or item.suffix, f"{item.raw}: no text around it to find it by"
        value = f"(.+?){re.escape(item.suffix)}" if item.suffix else f"({_VALUE})"
        pattern = re.compile(re.escape(item.prefix) + value)
        match = pattern.search(text, position)
        assert match is not None, (
            f"{item.raw}: the page shows no '{item.prefix}…{item.suffix}' after position "
            f"{position}; page text there: {text[position : position + 200]!r}"
        )
        item.shown = match[1]
        position = match.end(1)
    return source.inline


PROVIDES = {  # which quantities each view shows in full (mermaid shows only the top weights)
    "output": {
        "csv_rows",
        "document_rows",
        "baseline",
        "weight",
        "top",
        "group",
        "representation",
        "shift",
    },
    "table": {"score", "weight", "top", "group", "representation", "shift", "baseline"},
    "compare": {"weight", "top", "group"},
    "chart": {"weight"},
}


def _key(item: InlineValue, example: Example) -> tuple[str, ...]:
    args = [example.label(a) for a in item.args]
    q = item.quantity
    if q in ("csv_rows", "document_rows"):
        return (example.id, q)
    if q == "baseline":
        return (example.id, q)
    if q in ("representation", "shift", "top"):
        return (example.id, q, args[0])
    return (example.id, q, args[0], item.args[1] if q == "group" else args[1])


def _component(vector: str, item: InlineValue, vector_names: list[str]) -> str:
    column = item.args[-1] if item.quantity != "baseline" else item.args[0]
    return vector.strip("[]").split(", ")[vector_names.index(column)]


def same_value(item: InlineValue, expected: str) -> bool:
    """The inline value (read with whitespace removed) shows what the rest of the page shows."""
    assert item.shown is not None
    if item.quantity == "top":
        return _label(item.shown) == expected
    if expected.startswith("["):
        shown, wanted = (re.sub(r"[\s\[\]]", "", v).split(",") for v in (item.shown, expected))
        return len(shown) == len(wanted) and all(
            same_number(a, b, item.spec) for a, b in zip(shown, wanted, strict=True)
        )
    return same_number(item.shown, expected, item.spec)


def same_number(shown: str, reference: str, spec: str | None) -> bool:
    if spec is None:
        return shown == reference
    number = float(shown.rstrip("%")) / (100 if shown.endswith("%") else 1)
    digits = re.search(r"\.(\d+)", spec)
    step = 10 ** -int(digits[1]) if digits else 1.0
    step /= 100 if spec.endswith("%") else 1
    # the reference is rounded to 3 decimals; the shown value to the spec's precision
    return math.isclose(number, float(reference), abs_tol=step / 2 + 0.0005 + 1e-12)


# -- the tests ----------------------------------------------------------------------------------


def test_mermaid_figures_render_offline_with_the_computed_weights(
    page_under_test: Any, open_reader: Callable[..., Any]
) -> None:
    reader, source = load(open_reader, page_under_test)
    seen, shown = read_page(reader, source)

    assert reader.page.evaluate("window.__selfattnOpenShadow") is True
    assert seen["mermaids"], "the page has no mermaid figure"
    for n, figure in enumerate(seen["mermaids"], 1):
        assert figure["svg"], f"mermaid figure {n} did not render to an SVG"
        assert figure["visible"], f"mermaid figure {n} is not visible"
        assert figure["svgBox"]["width"] > 100, figure
        assert figure["svgBox"]["height"] > 50, figure
        assert not figure["errorText"], f"mermaid figure {n} shows an error: {figure['text']}"
        assert figure["nodes"], f"mermaid figure {n} has no nodes"
        assert all(node["box"]["width"] > 0 for node in figure["nodes"])

    # The plugin's figures show, per target, the `top` largest weights, each equal to the weights
    # of the printout, tables and charts (checked in full by the inline-value test below).
    figures = [v for v in source.views if v.kind in ("fence", "mermaid")]
    for n, view in enumerate(figures, 1):
        if view.kind != "mermaid":
            continue
        assert view.example is not None
        ex = view.example.id
        targets = sorted({key[2] for key in shown.values if key[:2] == (ex, "weight")})
        assert targets
        for target in targets:
            in_figure = {
                key[3]: value
                for key, values in shown.values.items()
                if key[:3] == (ex, "weight", target)
                for where, value in values
                if where == f"mermaid figure {n}"
            }
            everywhere = shown.weights(ex, target)
            expected = sorted(everywhere, key=lambda c: -everywhere[c])[: view.top]
            assert sorted(in_figure) == sorted(expected), (
                f"mermaid figure {n}, target {target}: shows {in_figure}, the {view.top} "
                f"largest weights elsewhere on the page are {expected}"
            )
    assert_consistent(shown)

    # Offline: nothing but 127.0.0.1 was reachable, and the figures still rendered, so the
    # plugin's bundled mermaid was used (not the CDN copy mkdocs-material would fetch).
    mermaid_js = [u for s, u in reader.served if u.endswith("selfattn/mermaid.min.js")]
    assert mermaid_js, f"the bundled mermaid was not loaded; served: {reader.served}"
    assert all(s == 200 for s, u in reader.served if u == mermaid_js[0])
    needed = [(t, u) for t, u in reader.blocked if not _theme_webfont(u)]
    assert not needed, f"the page tried to reach the network: {needed}"
    assert not reader.errors, f"page errors: {reader.errors}"


def _theme_webfont(url: str) -> bool:
    """mkdocs-material's Google Fonts stylesheet: blocked, the theme falls back to system fonts."""
    return url.startswith(("https://fonts.googleapis.com/", "https://fonts.gstatic.com/"))


def assert_consistent(shown: Shown) -> None:
    mismatches = {
        key: values for key, values in shown.values.items() if len({v for _, v in values}) > 1
    }
    assert not mismatches, "the page shows different numbers for the same quantity:\n" + "\n".join(
        f"  {key}: {values}" for key, values in mismatches.items()
    )


def test_inline_values_match_the_tables_and_the_printout(
    page_under_test: Any, open_reader: Callable[..., Any]
) -> None:
    reader, source = load(open_reader, page_under_test)
    open_all_details(reader)
    seen, shown = read_page(reader, source)
    assert not seen["errors"], f"the page shows selfattn errors: {seen['errors']}"
    assert_consistent(shown)
    assert source.inline, "the page has no inline values"

    vector_names: dict[str, list[str]] = {}
    for table in seen["tables"]:
        if "role" in table["header"] and "weight" in table["header"]:
            header = table["header"]
            names = header[header.index("weight") + 1 :]
            for view in source.of_kind("table"):
                assert view.example is not None
                vector_names.setdefault(view.example.id, names)

    checked = 0
    unchecked: list[InlineValue] = []
    wrong: list[str] = []
    for item in find_inline_values(source, seen["text"]):
        assert item.shown is not None
        example = source.examples[item.example]
        with_column = (item.quantity == "baseline" and item.args) or (
            item.quantity in ("representation", "shift") and len(item.args) == 2
        )
        references = shown.values.get(_key(item, example), [])
        if not references:
            unchecked.append(item)
            assert re.fullmatch(_VALUE, item.shown), f"{item.raw} shows {item.shown!r}"
            continue
        for where, value in references:
            expected = _component(value, item, vector_names[example.id]) if with_column else value
            if not same_value(item, expected):
                wrong.append(f"{item.raw} shows {item.shown!r}, {where} shows {expected!r}")
        checked += 1
    assert not wrong, "inline values differ from the rest of the page:\n" + "\n".join(wrong)

    # A value may go unchecked only when no view of its example on the page shows that quantity
    # (e.g. the representation of an example shown only as a comparison table and a chart).
    shown_kinds = defaultdict(set)
    for view in source.views:
        if view.example is not None:
            shown_kinds[view.example.id].add(view.kind)
    for item in unchecked:
        showing = {k for k in shown_kinds[item.example] if item.quantity in PROVIDES.get(k, ())}
        assert not showing, f"{item.raw}: its {sorted(showing)} view(s) show no such quantity"
    assert checked >= len(source.inline) // 2, (checked, unchecked)


# -- charts: visible, Chinese labels drawn with real glyphs --------------------------------------

# Not document.fonts.check('16px "Noto Sans CJK SC"', '绝缘帽'): for fonts that are not web fonts
# Chromium answers true whatever the family (it answers true for "No Such Font" too), so it
# proves nothing. Instead: the glyph bitmaps, the rendered width and the font actually used.
GLYPH_PROBE = """
(svg) => {
  // Draw each CJK character of the chart's labels with the chart's own font stack, and a character
  // no font has (U+0378 is unassigned): a missing glyph renders as the same notdef box for every
  // character, a real glyph has its own shape.
  const cjk = /[\\u3400-\\u9fff]/;
  const texts = [...svg.querySelectorAll("text")].filter((t) => cjk.test(t.textContent));
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 64;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  const draw = (ch, family) => {
    ctx.clearRect(0, 0, 64, 64);
    ctx.font = `48px ${family}`;
    ctx.textBaseline = "top";
    ctx.fillStyle = "#000";
    ctx.fillText(ch, 4, 4);
    const data = ctx.getImageData(0, 0, 64, 64).data;
    let bits = "", ink = 0;
    for (let i = 3; i < data.length; i += 4) {
      const on = data[i] > 127;
      bits += on ? "1" : "0";
      ink += on;
    }
    return { bits, ink, width: ctx.measureText(ch).width };
  };
  return texts.map((t, n) => {
    t.setAttribute("data-glyph-probe", String(n));
    const family = getComputedStyle(t).fontFamily;
    const chars = [...new Set([...t.textContent].filter((c) => cjk.test(c)))];
    const notdef = draw("\\u0378", family);
    return {
      text: t.textContent,
      family,
      rendered: t.getComputedTextLength(),
      fontSize: parseFloat(getComputedStyle(t).fontSize),
      notdef: { ink: notdef.ink, width: notdef.width },
      glyphs: chars.map((c) => {
        const g = draw(c, family);
        return { char: c, ink: g.ink, bits: g.bits, isNotdef: g.bits === notdef.bits };
      }),
    };
  });
}
"""


CJK_FONT = r"CJK|Han Sans|Hei|YaHei|PingFang|Noto Sans (?:SC|TC|JP|KR)"


def platform_fonts(page: Any, selector: str) -> list[dict[str, Any]]:
    """The fonts Chromium actually drew an element's text with (DevTools CSS domain)."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": -1, "pierce": False})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        return list(cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"])
    finally:
        cdp.detach()


def test_charts_are_visible_with_real_cjk_glyphs(
    page_under_test: Any, open_reader: Callable[..., Any]
) -> None:
    reader, source = load(open_reader, page_under_test)
    page = reader.page
    seen, shown = read_page(reader, source)
    chart_views = source.of_kind("chart")
    assert chart_views, "the page has no chart"

    charts = page.locator("article svg.selfattn-chart:visible")
    for n, (view, chart) in enumerate(zip(chart_views, seen["charts"], strict=True)):
        assert view.example is not None
        where = f"chart {n + 1} ({view.example.id})"
        handle = charts.nth(n)
        handle.scroll_into_view_if_needed()
        assert handle.is_visible(), f"{where} is not visible"
        width, height = chart["box"]["width"], chart["box"]["height"]
        assert width > 300, f"{where} is too narrow to read: {chart['box']}"
        assert height > 150, f"{where} is too low to read: {chart['box']}"
        in_view = page.evaluate(
            "(el) => { const r = el.getBoundingClientRect();"
            " return r.left >= 0 && r.right <= window.innerWidth; }",
            handle.element_handle(),
        )
        assert in_view, f"{where} is wider than the window"

        # The labels are the display labels (Chinese, or the figure language's), not the CSV's
        # Korean tokens.
        labels = set(view.example.figure_display.values())
        assert chart["ticks"], where
        if labels:
            assert set(chart["ticks"]) <= labels, f"{where}: ticks {chart['ticks']}"
            assert set(chart["legend"]) <= labels, f"{where}: legend {chart['legend']}"
        cjk = [t for t in chart["ticks"] + chart["legend"] if re.search(r"[\u3400-\u9fff]", t)]
        if source.figure_language != "zh":
            assert not cjk, f"{where} draws Chinese in a {source.figure_language} figure: {cjk}"
        else:
            _check_cjk_glyphs(page, handle, where, cjk)
        # The bars are labelled with the same weights as the rest of the page.
        ex, page_label = view.example.id, view.example.from_figure
        for target in chart["legend"]:
            for candidate in chart["ticks"]:
                key = (ex, "weight", page_label(target), page_label(candidate))
                values = {v for _, v in shown.values[key]}
                assert len(values) == 1, f"{where}: {target}/{candidate} shown as {values}"


def _check_cjk_glyphs(page: Any, handle: Any, where: str, cjk: list[str]) -> None:
    """The chart's Chinese labels are drawn with real glyphs of a CJK font."""
    assert cjk, f"{where} has no Chinese labels to check"

    probes = page.evaluate(GLYPH_PROBE, handle.element_handle())
    assert probes, f"{where}: no CJK text element"
    for probe in probes:
        for glyph in probe["glyphs"]:
            assert glyph["ink"] > 0, f"{where}: {glyph['char']!r} draws nothing"
            assert not glyph["isNotdef"], (
                f"{where}: {glyph['char']!r} of {probe['text']!r} is drawn as the missing-"
                f"glyph box with fonts {probe['family']}"
            )
        shapes = {g["bits"] for g in probe["glyphs"]}
        assert len(shapes) == len(probe["glyphs"]), f"{where}: identical glyph boxes"
        # On screen, a CJK label is about one em per character wide.
        count = len(re.findall(r"[\u3400-\u9fff]", probe["text"]))
        assert probe["rendered"] >= 0.8 * probe["fontSize"] * count, probe
    # And the font Chromium really used for a label is a CJK font, not a fallback box.
    fonts = platform_fonts(page, f'svg.selfattn-chart [data-glyph-probe="{len(probes) - 1}"]')
    cjk_fonts = [f for f in fonts if re.search(CJK_FONT, f["familyName"])]
    assert cjk_fonts, f"{where}: {probes[-1]['text']!r} was drawn with {fonts}"


# -- palettes: contrast of chart text and axes ----------------------------------------------------

READ_COLORS = """
(svg) => {
  const opacity = (el) => {
    let o = 1;
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      o *= parseFloat(getComputedStyle(e).opacity);
    }
    return o;
  };
  const backgrounds = [];
  for (let e = svg.parentElement; e; e = e.parentElement) {
    backgrounds.push(getComputedStyle(e).backgroundColor);
  }
  const inside = (t, part) => !!t.closest(`g[id*="-${part}"]`);
  const texts = [...svg.querySelectorAll("text")].map((t) => {
    const cs = getComputedStyle(t);
    const alpha = parseFloat(cs.fillOpacity) * opacity(t);
    return { kind: "text", what: t.textContent, color: cs.fill, alpha };
  });
  // axes: the baseline (and any unfilled patch) and the tick marks
  const lines = 'g[id*="-patch_"] > path, g[id$="-baseline"] > path';
  const spines = [...svg.querySelectorAll(lines)].filter(
    (p) => getComputedStyle(p).stroke !== "none" && getComputedStyle(p).fill === "none");
  const ticks = [...svg.querySelectorAll('g[id*="tick_"] g[id*="-line2d_"] use')];
  const axes = [...spines, ...ticks].map((p) => {
    const cs = getComputedStyle(p);
    const alpha = parseFloat(cs.strokeOpacity) * opacity(p);
    return { kind: "axis", what: p.closest("g[id]").id, color: cs.stroke, alpha };
  });
  return {
    scheme: document.body.getAttribute("data-md-color-scheme"),
    backgrounds,
    items: [...texts, ...axes],
    spines: spines.length,
    ticks: ticks.length,
  };
}
"""

_COLOR = re.compile(r"rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)")


def parse_color(text: str) -> tuple[float, float, float, float]:
    match = _COLOR.fullmatch(text.strip())
    assert match is not None, f"unexpected computed colour {text!r}"
    r, g, b = (float(match[i]) for i in (1, 2, 3))
    alpha = match[4]
    a = 1.0 if alpha is None else float(alpha.rstrip("%")) / (100 if alpha.endswith("%") else 1)
    return r, g, b, a


RGB = tuple[float, float, float]


def over(top: tuple[float, float, float, float], below: RGB) -> RGB:
    r, g, b, a = top
    return (r * a + below[0] * (1 - a), g * a + below[1] * (1 - a), b * a + below[2] * (1 - a))


def page_background(backgrounds: list[str]) -> tuple[float, float, float]:
    """Composite the ancestors' background colours, root first, over a white canvas."""
    color = (255.0, 255.0, 255.0)
    for text in reversed(backgrounds):
        color = over(parse_color(text), color)
    return color


def luminance(rgb: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def switch_palette(reader: Any, scheme: str) -> None:
    """Use the page's own toggle in the header until the wanted scheme is on."""
    page = reader.page
    for _ in range(3):
        if page.evaluate("document.body.getAttribute('data-md-color-scheme')") == scheme:
            break
        toggle = page.locator("header [data-md-component=palette] label.md-header__button:visible")
        assert toggle.count() == 1, "the header has no visible palette toggle"
        toggle.click()
        page.wait_for_timeout(100)
    page.wait_for_function(
        "(s) => document.body.getAttribute('data-md-color-scheme') === s", arg=scheme
    )
    page.wait_for_timeout(400)  # let colour transitions finish before reading colours


PALETTES = [pytest.param("default", "light", id="light"), pytest.param("slate", "dark", id="dark")]


@pytest.mark.parametrize(("scheme", "name"), PALETTES)
def test_chart_text_and_axes_keep_contrast_in_both_palettes(
    chapter: Any,
    open_reader: Callable[..., Any],
    artifacts: Path,
    scheme: str,
    name: str,
) -> None:
    reader, source = load(open_reader, chapter)
    switch_palette(reader, scheme)
    page = reader.page
    open_all_details(reader)
    page.wait_for_function(WAIT_FOR_MERMAID, arg=mermaid_count(source))
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / f"chapter-{name}.png"), full_page=True)

    charts = page.locator("article svg.selfattn-chart:visible")
    assert charts.count() == len(source.of_kind("chart")) > 0
    low: list[str] = []
    for n in range(charts.count()):
        colors = page.evaluate(READ_COLORS, charts.nth(n).element_handle())
        assert colors["scheme"] == scheme
        # The x axis line; values sit on the bars, so there is no y axis and no tick marks.
        assert colors["spines"] >= 1, colors
        background = page_background(colors["backgrounds"])
        for item in colors["items"]:
            r, g, b, a = parse_color(item["color"])
            ratio = contrast(over((r, g, b, a * item["alpha"]), background), background)
            need = 4.5 if item["kind"] == "text" else 3.0
            if ratio < need:
                low.append(
                    f"chart {n + 1} {item['kind']} {item['what']!r}: {item['color']} "
                    f"(opacity {item['alpha']:.2f}) on rgb{background} = {ratio:.2f} < {need}"
                )
    assert not low, f"{scheme}: unreadable chart parts:\n" + "\n".join(low)


READ_MERMAID_COLORS = """
() => [...document.querySelectorAll("article div.mermaid")].flatMap((host, figure) => {
  const svg = host.shadowRoot.querySelector("svg");
  return [...svg.querySelectorAll("g.node")].map((node) => {
    const shape = node.querySelector("rect, polygon, circle, ellipse, path");
    const label = [...node.querySelectorAll(".nodeLabel, .nodeLabel *")].filter(
      (e) => [...e.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim())).pop();
    const backgrounds = [];
    for (let e = host; e; e = e.parentElement) {
      backgrounds.push(getComputedStyle(e).backgroundColor);
    }
    return {
      figure: figure + 1,
      node: (label || node).textContent.slice(0, 40),
      fill: getComputedStyle(shape).fill,
      fillOpacity: parseFloat(getComputedStyle(shape).fillOpacity),
      text: getComputedStyle(label || node).color,
      backgrounds,
    };
  });
})
"""


@pytest.mark.parametrize(("scheme", "name"), PALETTES)
def test_mermaid_node_labels_readable_in_both_palettes(
    chapter: Any, open_reader: Callable[..., Any], scheme: str, name: str
) -> None:
    reader, _source = load(open_reader, chapter)
    switch_palette(reader, scheme)
    nodes = reader.page.evaluate(READ_MERMAID_COLORS)
    assert nodes
    low = []
    for node in nodes:
        background = page_background(node["backgrounds"])
        r, g, b, a = parse_color(node["fill"])
        fill = over((r, g, b, a * node["fillOpacity"]), background)
        ratio = contrast(over(parse_color(node["text"]), fill), fill)
        if ratio < 4.5:
            low.append(
                f"figure {node['figure']} node {node['node']!r}: text {node['text']} on fill "
                f"{node['fill']} = {ratio:.2f} < 4.5"
            )
    assert not low, f"{name} palette: unreadable mermaid node labels:\n" + "\n".join(low)
