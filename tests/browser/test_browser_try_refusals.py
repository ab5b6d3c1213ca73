"""The try view refuses what the build refuses, with the build's words, and computes near the
float range as the core does (issue 25: ``shift inf`` after one edit on data the build refuses).

Each case edits a page in Chromium, downloads the edited CSV and runs the build's own pipeline on
it: where the build raises, the page must show that message and no number; where it computes,
the page must show its numbers, bit for bit. One case per check the core makes on numbers a
reader can edit (scores, given weights, the temperature): the shift beyond the float range
(targets; questions and heads), the distance between two contexts beyond it, the temperature,
a score difference that overflows (the core redoes it halved), a weighted sum that overflows on
the way (redone halved and held to the group's range), a distance whose squares overflow
(scaled, as hypot); and the download of a file with a stray quote and a BOM (two are refused by
the build).
"""

from __future__ import annotations

import csv
import dataclasses
import functools
import io
import struct
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import _QuietHandler, _Server, mkdocs_build

from mkdocs_selfattn.blocks.markdown_scan import find_blocks
from mkdocs_selfattn.blocks.spec import parse_block
from mkdocs_selfattn.build.cache import Cache
from mkdocs_selfattn.build.pipeline import Example, Pipeline, ResolvedFile, Settings
from mkdocs_selfattn.core.readings import ReadingResult
from mkdocs_selfattn.core.results import document_of
from mkdocs_selfattn.errors import SelfAttnError

pytestmark = [pytest.mark.browser, pytest.mark.slow]

M = "1.7976931348623157e308"  # the largest float

TARGETS = "document_id,target_token,candidate_token,candidate_role,v,score\n"
HEADS = "candidate_token,v,w1,w2\n"
QUESTIONS = "candidate_token,v,q1,q2\n"


@dataclass(frozen=True)
class Case:
    block: str
    csv: str
    edits: tuple[tuple[int, int, int, str], ...]
    """(section, head, row, text typed into that box)."""
    temperature: str | None = None
    """Typed into the temperature box after the edits."""


CASES: dict[str, Case] = {
    # A reader moves all the weight to "a": its shift from the baseline passes 1.8e308.
    "shift": Case(
        "document: d\n",
        TARGETS + f"d,it,a,r,{M},0\nd,it,b,r,-{M},5\nd,it,c,r,-{M},5\n",
        ((0, 0, 0, "50"),),
    ),
    # The CLI's --temperature 0: refused, with attention's words.
    "temperature": Case(
        "document: d\n", TARGETS + "d,it,a,r,1,2\nd,it,b,r,2,1\n", (), temperature="0"
    ),
    # s - max overflows at this temperature: the core redoes it halved (weights near 1/2).
    "hot": Case(
        "document: d\n",
        TARGETS + "d,it,a,r,1,1e308\nd,it,b,r,2,-1e308\n",
        (),
        temperature="1e308",
    ),
    # Given weights within 1e-9 of 1 but above it: w·M overflows on the way; the core redoes
    # the sum halved and holds it to the lines' range.
    "sums": Case(
        "vectors: [v]\nheads: {h: w1}\n",
        HEADS + f"a,{M},0.5,0\nb,{M},0.5,0\nc,{M},0,1\n",
        ((0, 0, 2, "1e-10"),),
    ),
    # One head: all weight to "a" puts the context 2.3e308 from the baseline.
    "heads_shift": Case(
        "vectors: [v]\nheads: {h: w1}\n",
        HEADS + f"a,{M},0,0\nb,-{M},0.5,0\nc,-{M},0.5,1\n",
        ((0, 0, 0, "1"), (0, 0, 1, "0"), (0, 0, 2, "0")),
    ),
    # Two heads 1.7e308 apart: the squares overflow, the distance does not (scaled).
    "distance": Case(
        "vectors: [v]\nheads: {h1: w1, h2: w2}\n",
        HEADS + "a,1e308,0.5,0.5\nb,-0.7e308,0.5,0.5\nc,0,0,0\n",
        ((0, 0, 0, "1"), (0, 0, 1, "0"), (0, 1, 0, "0"), (0, 1, 1, "1")),
    ),
    # Two questions over the same lines whose contexts end 3.4e308 apart: refused.
    "far": Case(
        "vectors: [v]\nqueries: {first: q1, second: q2}\n",
        QUESTIONS + f"a,{M},5,5\nb,-{M},0,0\n",
        ((1, 0, 1, "50"), (1, 0, 0, "0")),
    ),
    # The download: a stray quote in another document, and a BOM.
    "quotes": Case(
        "document: trophy\n",
        "\ufeffw,"
        + TARGETS.replace("v,", "")
        + '1,pump,it,12" valve,object,1.0\n1,pump,it,seal,object,0.3\n'
        + "1,trophy,it,trophy,object,2.3\n1,trophy,it,suitcase,container,1.1\n",
        ((0, 0, 0, "0.5"),),
    ),
}


def _block(name: str, case: Case) -> str:
    return f"```selfattn\nid: {name}\ncsv: {name}.csv\n{case.block}show: [try]\n```\n"


YML = """\
site_name: try refusals
theme:
  name: material
  font: false
plugins:
  - selfattn:
      cache_dir: ""
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    project = tmp_path_factory.mktemp("refusals-project")
    docs = project / "docs"
    docs.mkdir()
    for name, case in CASES.items():
        (docs / f"{name}.csv").write_bytes(case.csv.encode())
        (docs / f"{name}.md").write_text(f"# {name}\n\n{_block(name, case)}", encoding="utf-8")
    (project / "mkdocs.yml").write_text(YML, encoding="utf-8")
    root = tmp_path_factory.mktemp("refusals-site")
    mkdocs_build(project / "mkdocs.yml", root)
    server = _Server(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield docs, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)


@pytest.fixture
def tab(browser: Any, served: tuple[Path, str]) -> Iterator[Callable[[str], Any]]:
    contexts: list[Any] = []

    def open_tab(name: str) -> Any:
        context = browser.new_context(accept_downloads=True)
        context.set_default_timeout(60_000)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.errors = errors
        page.goto(served[1] + f"{name}/", wait_until="load")
        page.wait_for_selector(".selfattn-try-ui [data-q=context]")
        return page

    yield open_tab
    for context in contexts:
        context.close()


class _Resolver:
    def __init__(self, docs: Path) -> None:
        self.project_root = docs.parent
        self.docs = docs

    def resolve(self, raw: str, key: str, line: int) -> ResolvedFile:
        return ResolvedFile(path=self.docs / raw, display=raw, link=raw)


def _core(docs: Path, name: str, csv_bytes: bytes, temperature: float) -> Example | str:
    """The build's example for the edited file (at the reader's temperature, as the CLI's
    --temperature gives it), or the build's refusal."""
    work = docs.parent / "edited"
    work.mkdir(exist_ok=True)
    (work / f"{name}.csv").write_bytes(csv_bytes)
    [raw] = find_blocks(_block(name, CASES[name]))
    spec = parse_block(raw).example
    assert spec is not None
    try:
        if temperature != 1.0:
            spec = dataclasses.replace(spec, temperature=temperature)
        return Pipeline(Settings(), Cache(None)).load(spec, _Resolver(work))
    except SelfAttnError as exc:
        return exc.message


def _edit(page: Any, case: Case) -> None:
    for s, h, i, text in case.edits:
        box = page.locator(
            f'.selfattn-try [data-q=input][data-g="{s}"][data-h="{h}"][data-i="{i}"]'
        )
        box.fill(text)
    if case.temperature is not None:
        page.locator(".selfattn-try-bar input[type=number]").fill(case.temperature)


def _download(page: Any, tmp_path: Path) -> bytes:
    with page.expect_download() as info:
        page.locator(".selfattn-try-download").click()
    path = tmp_path / "edited.csv"
    info.value.save_as(path)
    return path.read_bytes()


SHOWN = """
() => Object.fromEntries(Array.from(document.querySelectorAll('.selfattn-try [data-v]')).map(
  el => [`${el.dataset.q}/${el.dataset.g}/${el.dataset.h}/${el.dataset.i ?? el.dataset.a}`,
         Number(el.dataset.v)]))
"""
REFUSALS = """
() => Array.from(document.querySelectorAll('.selfattn-try-refused'))
  .filter(el => !el.hidden).map(el => el.textContent)
"""


def _bits(value: float) -> bytes:
    return struct.pack("<d", value)


def _expected(example: Example) -> dict[str, float]:
    """The core's numbers, keyed as the page's data attributes name them."""
    out: dict[str, float] = {}
    result = example.result
    if result.layout == "targets":
        for g, target in enumerate(document_of(result).targets):
            for i, cand in enumerate(target.candidates):
                out[f"weight/{g}/0/{i}"] = cand.weight
            for a, v in enumerate(target.context):
                out[f"context/{g}/0/{a}"] = v
            for a, v in enumerate(target.shift):
                out[f"shift/{g}/0/{a}"] = v
        return out
    assert isinstance(result, ReadingResult)
    for g, group in enumerate(result.groups):
        for h, head in enumerate(group.heads):
            for a, v in enumerate(head.context):
                out[f"context/{g}/{h}/{a}"] = v
            for x in range(len(group.heads)):
                for y in range(x + 1, len(group.heads)):
                    out[f"separation/{g}/{x}/{y}"] = group.separations[x][y]
    return out


@pytest.mark.parametrize("name", list(CASES))
def test_the_page_refuses_or_computes_as_the_build(
    name: str, tab: Callable[[str], Any], served: tuple[Path, str], tmp_path: Path
) -> None:
    case = CASES[name]
    page = tab(name)
    _edit(page, case)
    downloaded = _download(page, tmp_path)
    temperature = float(case.temperature) if case.temperature is not None else 1.0
    core = _core(served[0], name, downloaded, temperature)
    refusals = page.evaluate(REFUSALS)
    shown = page.evaluate(SHOWN)
    if isinstance(core, str):
        assert refusals, f"the build refuses ({core}) but the page shows {shown}"
        assert any(core in text for text in refusals), (core, refusals)
        assert not any(k.split("/")[0] in ("weight", "context", "shift") for k in shown), shown
    else:
        assert refusals == []
        expected = _expected(core)
        differing = {
            k: (shown.get(k), v)
            for k, v in expected.items()
            if k not in shown or _bits(shown[k]) != _bits(v)
        }
        assert differing == {}
    assert page.errors == []


def test_the_download_keeps_every_other_row_as_written(
    tab: Callable[[str], Any], tmp_path: Path
) -> None:
    """A stray quote in another document and a BOM: the edit lands in the trophy's row."""
    page = tab("quotes")
    _edit(page, CASES["quotes"])
    downloaded = _download(page, tmp_path)
    original = CASES["quotes"].csv.encode()
    assert downloaded.startswith(b"\xef\xbb\xbf")
    assert not downloaded.startswith(b"\xef\xbb\xbf\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(downloaded.decode("utf-8-sig"), newline="")))
    before = list(csv.reader(io.StringIO(original.decode("utf-8-sig"), newline="")))
    assert len(rows) == len(before)
    assert rows[3] == ["1", "trophy", "it", "trophy", "object", "0.5"]
    assert [r for k, r in enumerate(rows) if k != 3] == [r for k, r in enumerate(before) if k != 3]
    assert downloaded.replace(b"0.5\n", b"2.3\n", 1) == original
