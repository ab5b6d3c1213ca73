"""Generated input for the pure functions: a result or a :class:`SelfAttnError`, nothing else.

- block bodies (arbitrary text, YAML-ish text, and structured-but-wrong YAML mappings) for
  :func:`parse_block` and, on whole pages with inline values, for :func:`expand_page` with a real
  :class:`Pipeline` and a resolver over files in a temporary project;
- CSV files (arbitrary bytes, and structured CSV with hostile cells) for :func:`parse_table`, and
  the tables that parse for :func:`compute_document`.

A located error must point inside what was given: a block's error at a line of the block, a page
problem at a line of the page.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import string
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mkdocs_selfattn.blocks.markdown_scan import RawBlock
from mkdocs_selfattn.blocks.paths import resolve_path
from mkdocs_selfattn.blocks.spec import parse_block
from mkdocs_selfattn.build.cache import Cache
from mkdocs_selfattn.build.example import ResolvedFile
from mkdocs_selfattn.build.page import ExpandedPage, expand_page
from mkdocs_selfattn.build.pipeline import Pipeline
from mkdocs_selfattn.build.scheduler import PendingHtml
from mkdocs_selfattn.build.settings import Settings
from mkdocs_selfattn.errors import BlockError, DataError, SelfAttnError

from .support import GOOD_CSV

FUZZ = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

HOSTILE = [
    "<img src=x onerror=alert(1)>",
    "<script>alert(1)</script>",
    "a|b",
    '"]-->',
    "`x` ``y``",
    "line\nbreak",
    "שלום \u202e",
    "🤖👩‍💻",
    "$\\frac{$",
    "%%{init: {}}%%",
    "&amp; #60;",
    "",
    " ",
    "\t",
    "\x00",
    "\ufeff",
    "그것",
    "절연캡",
    "memo_cap_missing",
    "*alias",
    "&anchor",
    "!!python/object:os.system",
    "~",
    "null",
    "yes",
    "1e999",
    "nan",
]
KEYS = [
    "use",
    "id",
    "csv",
    "document",
    "targets",
    "vectors",
    "columns",
    "display",
    "groups",
    "temperature",
    "script",
    "show",
    "top",
    "number_format",
    "text",
    "title",
    "targts",
    "shwo",
    "Document",
    "csv ",
    "<<",
]
PATHS = [
    "good.csv",
    "/good.csv",
    "hostile.csv",
    "missing.csv",
    "sub",
    "sub/",
    "../data/outside.csv",
    "../../etc/passwd",
    "/etc/passwd",
    "~/x.csv",
    "out.csv",
    "loop.csv",
    "",
    "  ",
    "a\\b.csv",
    "C:/x.csv",
    "ex.py",
    "bad.py",
]
DOCUMENTS = ["memo_cap_missing", "memo_pressure_hold", "<b>", "missing"]
TOKENS = ["그것", "씌우지", "절연캡", "분리", "<b>", "nope"]
VIEWS = ["output", "table", "compare", "csv", "mermaid", "chart", "code", "tabel"]
COLUMNS = [
    "document_id",
    "target_token",
    "candidate_token",
    "candidate_role",
    "score",
    "evidence_pack",
    "evidence_cap",
    "nope",
]
ROLES = ["document", "target", "candidate", "role", "score", "target_index", "documnt"]
TEXT_KEYS = ["document", "candidates", "target", "weights", "chart_title", "axis_weigth"]

hostile_text = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=24))
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    hostile_text,
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(hostile_text, inner, max_size=4)
    ),
    max_leaves=10,
)


def _plausible(key: str) -> st.SearchStrategy[Any]:
    """Values that are nearly right for ``key``, so generation reaches deep into the pipeline."""
    tokens = st.sampled_from(TOKENS)
    return {
        "csv": st.sampled_from(PATHS),
        "script": st.sampled_from(PATHS),
        "document": st.sampled_from(DOCUMENTS),
        "targets": st.lists(tokens, max_size=3),
        "vectors": st.lists(st.sampled_from(COLUMNS), max_size=3),
        "show": st.lists(st.sampled_from(VIEWS), max_size=3) | st.sampled_from(VIEWS),
        "display": st.dictionaries(tokens, hostile_text, max_size=3),
        "groups": st.dictionaries(
            st.sampled_from(["g", "bundle", "bad name", "1x"]),
            st.lists(tokens, max_size=3),
            max_size=2,
        ),
        "columns": st.dictionaries(st.sampled_from(ROLES), st.sampled_from(COLUMNS), max_size=2),
        "text": st.dictionaries(st.sampled_from(TEXT_KEYS), hostile_text, max_size=2),
        "temperature": st.floats(allow_nan=True, allow_infinity=True) | st.integers(-3, 3),
        "top": st.integers(-2, 12),
        "number_format": st.sampled_from([".1%", ".3f", "%q", "{}", "", ">10", "e"]),
        "id": st.sampled_from(["a", "b", "memo", "1bad", "has space", "a-b_c"]),
        "use": st.sampled_from(["a", "b", "memo", "missing"]),
        "title": hostile_text,
    }.get(key, values)


@st.composite
def mappings(draw: Callable[..., Any]) -> dict[Any, Any]:
    data: dict[Any, Any] = {}
    if draw(st.integers(0, 9)) < 8:
        data["csv"] = draw(_plausible("csv") | values)
    if draw(st.integers(0, 9)) < 8:
        data["document"] = draw(_plausible("document") | values)
    for key in draw(st.lists(st.sampled_from(KEYS), max_size=5, unique=True)):
        data[key] = draw(_plausible(key) if draw(st.integers(0, 3)) else values)
    data.update(draw(st.dictionaries(hostile_text | scalars, values, max_size=2)))
    return data


def dump(data: dict[Any, Any], flow: bool) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, default_flow_style=flow)


YAMLISH = [
    *":-[]{}&*!|>'\"#%@`,? \n\n\t",
    "csv: ",
    "document: ",
    "show: ",
    "targets: ",
    "use: ",
    "- ",
    "&a ",
    "*a",
    "!!str ",
    "good.csv",
    "memo_cap_missing",
    "그것",
    "---\n",
    "...\n",
    "<<: ",
]
yamlish_text = st.lists(st.sampled_from(YAMLISH), max_size=30).map("".join)
structured_bodies = st.builds(dump, mappings(), st.booleans())
any_bodies = st.one_of(st.text(max_size=300), yamlish_text, structured_bodies)


def check_block_error(exc: SelfAttnError, first: int, last: int) -> None:
    if isinstance(exc, BlockError) and exc.line is not None:
        assert first <= exc.line <= last, f"error line {exc.line} outside the block {first}-{last}"


def parse_body(body: str, start: int = 7) -> None:
    end = start + body.count("\n") + 2
    try:
        parse_block(RawBlock(start, end, "", body))
    except SelfAttnError as exc:
        check_block_error(exc, start, end)


@pytest.mark.slow
@FUZZ
@given(st.one_of(st.text(max_size=400), yamlish_text))
@example("csv: good.csv\ndocument: " + "[" * 3000 + "]" * 3000)  # deeper than the recursion limit
@example("csv: good.csv\ndocument: d\ntop: 1" + "0" * 5000)  # more digits than int() takes
@example("? [a, b]\n: x\ncsv: good.csv")  # an unhashable key
def test_parse_block_text(body: str) -> None:
    parse_body(body)


@pytest.mark.slow
@FUZZ
@given(structured_bodies)
def test_parse_block_structured(body: str) -> None:
    parse_body(body)


# ---------------------------------------------------------------------------------------------
# Whole pages through the real pipeline


class FileResolver:
    """Paths as the Python-Markdown extension sees them: relative to docs, never outside root."""

    def __init__(self, root: Path) -> None:
        self.project_root = root
        self.docs = root / "docs"

    def resolve(self, raw: str, key: str, line: int) -> ResolvedFile:
        path, display = resolve_path(
            raw,
            key=key,
            line=line,
            relative_to=self.docs,
            absolute_to=self.docs,
            root=self.project_root,
        )
        return ResolvedFile(path=path, display=display, link=None)


HOSTILE_CSV = (
    "document_id,target_token,candidate_token,candidate_role,evidence_pack,evidence_cap,score\n"
    '"<b>","<img src=x onerror=alert(1)>","a|b","""]-->",0.1,0.2,1\n'
    '"<b>","<img src=x onerror=alert(1)>","line\nbreak","`r`",0.3,0.4,2\n'
)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[Pipeline, FileResolver]:
    root = tmp_path_factory.mktemp("fuzz-project")
    (root / "docs" / "sub").mkdir(parents=True)
    (root / "data").mkdir()
    (root / "docs" / "good.csv").write_text(GOOD_CSV, encoding="utf-8")
    (root / "docs" / "hostile.csv").write_text(HOSTILE_CSV, encoding="utf-8")
    (root / "data" / "outside.csv").write_text(GOOD_CSV, encoding="utf-8")
    (root / "docs" / "ex.py").write_text('print("hello")\n', encoding="utf-8")
    (root / "docs" / "bad.py").write_text("import sys\nsys.exit(2)\n", encoding="utf-8")
    os.symlink("/etc/passwd", root / "docs" / "out.csv")
    os.symlink("loop.csv", root / "docs" / "loop.csv")
    pipeline = Pipeline(Settings(script_timeout=5.0), Cache(None))
    return pipeline, FileResolver(root)


INLINE_WORDS = st.sampled_from(
    [
        "a",
        "b",
        "memo",
        "weight",
        "score",
        "top",
        "group",
        "representation",
        "shift",
        "baseline",
        "csv_rows",
        "document_rows",
        "그것",
        "절연캡",
        "g",
        "evidence_pack",
        ":.1%",
        ":%q",
        '"',
        "'",
        "wieght",
    ]
) | st.text(alphabet=string.ascii_letters + "<>&|'\" ", max_size=8)
inline_values = st.lists(INLINE_WORDS, max_size=5).map(
    lambda words: "Value `{selfattn} " + " ".join(words) + "` here."
)


@st.composite
def pages(draw: Callable[..., Any]) -> str:
    parts = ["# Fuzzed page", ""]
    for _ in range(draw(st.integers(1, 3))):
        body = draw(any_bodies)
        fence = draw(st.sampled_from(["```", "~~~", "````"]))
        indent = draw(st.sampled_from(["", "    "]))
        block_lines = [f"{fence}selfattn", *body.split("\n"), fence]
        if indent:
            parts += ["!!! note", ""]
        parts += [indent + line if line else "" for line in block_lines]
        parts += ["", draw(inline_values), ""]
    return "\n".join(parts)


@pytest.mark.slow
@FUZZ
@given(page=pages())
def test_expand_page(world: tuple[Pipeline, FileResolver], page: str) -> None:
    pipeline, resolver = world
    stored: list[str | PendingHtml] = []

    def store(html: str | PendingHtml, *_flags: object) -> str:  # (html, late) in page.Store
        stored.append(html)
        return f"SLOT{len(stored)}X"

    out = expand_page(page, pipeline=pipeline, resolver=resolver, store=store)
    assert isinstance(out, ExpandedPage)
    n_lines = page.count("\n") + 1
    for problem in out.problems:
        assert problem.line is not None, f"a problem without a line: {problem.message}"
        assert 1 <= problem.line <= n_lines, f"problem line {problem.line} of {n_lines}"
    for html in stored:
        if isinstance(html, PendingHtml):
            html.resolve()


# ---------------------------------------------------------------------------------------------
# CSV files

HEADER = (
    b"document_id,target_token,candidate_token,candidate_role,evidence_pack,evidence_cap,score\n"
)


def parse_or_error(data: bytes) -> Any:
    from mkdocs_selfattn.core.csv_read import parse_table

    try:
        return parse_table(data, source="fuzz.csv")
    except DataError as exc:
        error = exc
    assert error.path == "fuzz.csv"
    return None


@pytest.mark.slow
@FUZZ
@given(st.binary(max_size=3000))
def test_parse_table_bytes(data: bytes) -> None:
    parse_or_error(data)


@pytest.mark.slow
@FUZZ
@given(st.binary(max_size=2000))
def test_parse_table_bytes_after_a_header(data: bytes) -> None:
    parse_or_error(HEADER + data)


NUMBERS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(-(10**6), 10**6).map(str),
    st.sampled_from(
        [
            "",
            " 1",
            "1 ",
            "1_000",
            "+3",
            "٣",
            "1e999",
            "-inf",
            "NaN",
            "0x10",
            "1,5",
            "9" * 400,
            "1e-400",
            "\t2",
        ]
    ),
)
CELLS = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=16), NUMBERS)
INDEXES = st.one_of(
    st.integers(-(2**63), 2**63 - 1).map(str),
    st.sampled_from(["", "x", "1.5", "9" * 30, "9" * 5000, "-0", " 3"]),
)


@st.composite
def csv_files(draw: Callable[..., Any]) -> bytes:
    columns = ["document_id", "target_token", "candidate_token", "candidate_role", "score"]
    columns += draw(
        st.lists(st.sampled_from(["v1", "v2", "v3", "<v>", "a|b"]), max_size=3, unique=True)
    )
    with_index = draw(st.integers(0, 3)) == 0
    if with_index:
        columns += ["target_index", "candidate_index"]
    columns = draw(st.permutations(columns))
    if draw(st.integers(0, 5)) == 0:
        columns = columns[:-1] if draw(st.booleans()) else [*columns, columns[0]]
    numeric = {"score", "v1", "v2", "v3", "<v>", "a|b"}
    rows = []
    documents = draw(st.lists(CELLS, min_size=1, max_size=2))
    targets = draw(st.lists(CELLS, min_size=1, max_size=3))
    for _ in range(draw(st.integers(0, 8))):
        row = []
        for name in columns:
            if name in numeric:
                row.append(
                    draw(NUMBERS) if draw(st.integers(0, 4)) == 0 else repr(draw(st.floats(-5, 5)))
                )
            elif name.endswith("_index"):
                row.append(
                    draw(INDEXES) if draw(st.integers(0, 4)) == 0 else str(draw(st.integers(0, 20)))
                )
            elif name == "document_id":
                row.append(draw(st.sampled_from(documents)))
            elif name == "target_token":
                row.append(draw(st.sampled_from(targets)))
            else:
                row.append(draw(CELLS))
        if draw(st.integers(0, 9)) == 0:
            row = row[:-1] if row and draw(st.booleans()) else [*row, "extra"]
        rows.append(row)
    out = io.StringIO()
    writer = csv.writer(
        out,
        lineterminator=draw(st.sampled_from(["\n", "\r\n", "\r"])),
        quoting=draw(st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL, csv.QUOTE_NONNUMERIC])),
    )
    writer.writerow(columns)
    writer.writerows(rows)
    data = out.getvalue().encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 9)) == 0:
        data = b"\xef\xbb\xbf" + data
    if draw(st.integers(0, 9)) == 0 and data:
        at = draw(st.integers(0, len(data) - 1))
        junk = draw(st.sampled_from([b"\xff", b"\x00", b'"', b"\r", b"\n,"]))
        data = data[:at] + junk + data[at:]
    return data


@pytest.mark.slow
@FUZZ
@given(csv_files())
@example(
    b"document_id,target_token,candidate_token,candidate_role,target_index,candidate_index,v,score"
    b"\nd,t,c,r,1," + b"9" * 5000 + b",0.5,1\n"
)
def test_parse_table_structured(data: bytes) -> None:
    parse_or_error(data)


@pytest.mark.slow
@FUZZ
@given(csv_files())
def test_compute_document_structured(data: bytes) -> None:
    from figure_fixtures import compute_document

    table = parse_or_error(data)
    if table is None:
        return
    for document in table.documents[:2]:
        with contextlib.suppress(DataError):
            compute_document(table, document)
