"""The try view's download: an edit of one cell changes that cell, and only it, for every CSV the
build accepts (quotes anywhere, doubled quotes, quoted commas and line breaks, LF, CRLF and lone
CR, a BOM or none, blank lines, a last line with or without its line break).

The browser splices the edited number into the file's text at the cell's span (UTF-16 offsets,
see assets/try/selfattn-try.js ``editedCsv``); :func:`_download` does exactly that here, so the
spans the build computes are checked on hypothesis-generated files against both readers.
"""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mkdocs_selfattn.core.csv_read import parse_table
from mkdocs_selfattn.core.document_results import compute_targets
from mkdocs_selfattn.errors import DataError
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.render.try_csv import CsvText, field_spans, unquote, utf16_slice
from mkdocs_selfattn.render.try_data import try_data
from mkdocs_selfattn.render.try_view import view_words

HEADER = ["w", "document_id", "target_token", "candidate_token", "candidate_role", "v", "score"]
"""A numeric first column (a vector column, not a required one) ahead of the required ones."""

BOM = "\ufeff"


def _download(data: dict[str, Any], edits: list[tuple[list[int], str]]) -> bytes:
    """The browser's ``editedCsv``: splice each edit at its UTF-16 span, last first, then put
    the BOM back if the file had one."""
    text = data["csv"]["text"].encode("utf-16-le")
    for (start, end), value in sorted(edits, key=lambda e: -e[0][0]):
        text = text[: 2 * start] + value.encode("utf-16-le") + text[2 * end :]
    out = (BOM if data["csv"]["bom"] else "") + text.decode("utf-16-le")
    return out.encode("utf-8")


def _rows(data: bytes) -> list[list[str]]:
    """Python's csv module on the file, blank lines dropped (as both readers drop them)."""
    text = data.decode("utf-8-sig")
    return [row for row in csv.reader(io.StringIO(text, newline="")) if row]


_letters = st.sampled_from(list("abé😀"))
_anything = st.sampled_from(list('ab,"\r\n é😀'))
_token = st.builds(lambda first, rest: first + rest, _letters, st.text(_anything, max_size=5))


@st.composite
def _written(draw: st.DrawFn, value: str) -> str:
    """One way of writing ``value`` that both readers read back as ``value``."""
    plain_ok = not any(c in value for c in ",\r\n") and not value.startswith('"')
    forms = ["quoted", "split"] + (["plain"] if plain_ok else [])
    form = draw(st.sampled_from(forms))
    if form == "plain":
        return value  # may hold a stray quote: 12" valve
    if form == "split":
        # A quoted start, then the rest as plain text: "ab"c reads as abc.
        k = draw(st.integers(0, len(value)))
        rest = value[k:]
        if any(c in rest for c in ',\r\n"'):
            k, rest = len(value), ""
        return '"' + value[:k].replace('"', '""') + '"' + rest
    return '"' + value.replace('"', '""') + '"'


@st.composite
def _number(draw: st.DrawFn) -> tuple[float, str]:
    value = draw(st.floats(-50, 50, allow_nan=False).map(lambda x: round(x, 3)))
    text = repr(value)
    pad = draw(st.sampled_from(["", " ", "  "]))  # Arrow allows spaces around a number
    quoted = draw(st.booleans())
    text = pad + text + pad
    return value, f'"{text}"' if quoted else text


@st.composite
def csv_files(draw: st.DrawFn) -> tuple[bytes, list[list[str]]]:
    """A file the build accepts, and its table as the readers give it."""
    rows: list[list[str]] = []
    written: list[list[str]] = []
    documents = draw(st.lists(st.sampled_from(["d", "e"]), min_size=1, max_size=3))
    for document in ["d", *documents]:
        targets = draw(st.lists(_token, min_size=1, max_size=2, unique=True))
        candidates = draw(st.lists(_token, min_size=1, max_size=3, unique=True))
        for target in targets:
            for candidate in candidates:
                w, w_text = draw(_number())
                v, v_text = draw(_number())
                score, score_text = draw(_number())
                role = draw(_token)
                values = [repr(w), document, target, candidate, role, repr(v), repr(score)]
                texts = [w_text, draw(_written(document)), draw(_written(target))]
                texts += [draw(_written(candidate)), draw(_written(role)), v_text, score_text]
                rows.append(values)
                written.append(texts)
    ends = st.sampled_from(["\n", "\r\n", "\r"])
    out = BOM * draw(st.integers(0, 1)) + ",".join(HEADER) + draw(ends)
    for k, texts in enumerate(written):
        out += draw(st.sampled_from(["", "", "\n", "\r\n"]))  # blank lines
        last = k == len(written) - 1
        out += ",".join(texts) + ("" if last and draw(st.booleans()) else draw(ends))
    return out.encode("utf-8"), rows


def _try_data(data: bytes, document: str = "d") -> dict[str, Any]:
    result = compute_targets(parse_table(data, source="x.csv"), document)
    return try_data(
        result,
        Labels(),
        data,
        source="x.csv",
        columns={},
        groups={},
        number_format=None,
        words=view_words(None, {}),
        csv_href=None,
        csv_name="x.csv",
    )


def _score_rows(rows: list[list[str]]) -> list[int]:
    """The data rows of document "d" in the order the view lists its cells (target by target)."""
    order: dict[str, list[int]] = {}
    for r, row in enumerate(rows):
        if row[1] == "d":
            order.setdefault(row[2], []).append(r)
    return [r for target_rows in order.values() for r in target_rows]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(csv_files(), st.data())
def test_an_edited_cell_downloads_as_that_cell_and_nothing_else(
    made: tuple[bytes, list[list[str]]], pick: st.DataObject
) -> None:
    data, values = made
    header, *table = _rows(data)
    assert [row[1:5] for row in table] == [row[1:5] for row in values]  # the file is as intended
    view = _try_data(data)
    cells = [cell for group in view["groups"] for cell in group["heads"][0]["cells"]]
    rows = _score_rows(table)
    assert len(cells) == len(rows)
    k = pick.draw(st.integers(0, len(cells) - 1))
    new = pick.draw(st.sampled_from(["1.5", "-0.25", "1e-07", "12", "3.0000000000000004"]))
    downloaded = _download(view, [(cells[k], new)])
    expected = [list(row) for row in table]
    expected[rows[k]][6] = new
    assert _rows(downloaded) == [header, *expected]
    # The build reads the download as the same table with that one score changed.
    before = parse_table(data, source="x.csv")
    after = parse_table(downloaded, source="x.csv")
    assert list(after.values[:, 0]) == [
        float(new) if r == rows[k] else s for r, s in enumerate(before.values[:, 0])
    ]
    # Every edit at once, as a reader who changed every score downloads them.
    everything = _download(view, [(cell, new) for cell in cells])
    for r in rows:
        expected[r][6] = new
    assert _rows(everything) == [header, *expected]


def test_a_stray_quote_in_another_document_moves_no_cell() -> None:
    """The issue's case: ``12" valve`` in another document made the trophy's edit land in the
    suitcase's row."""
    text = (
        "document_id,target_token,candidate_token,candidate_role,v,score\n"
        'pump,it,12" valve,object,0.5,1.0\n'
        "pump,it,seal,object,0.1,0.3\n"
        "trophy_big,it,trophy,object,0.9,2.3\n"
        "trophy_big,it,suitcase,container,0.2,1.1\n"
    )
    view = _try_data(text.encode(), "trophy_big")
    cells = view["groups"][0]["heads"][0]["cells"]
    assert [utf16_slice(text, tuple(c)) for c in cells] == ["2.3", "1.1"]
    edited = _rows(_download(view, [(cells[0], "0.5")]))
    assert edited[3] == ["trophy_big", "it", "trophy", "object", "0.9", "0.5"]
    assert edited[4] == ["trophy_big", "it", "suitcase", "container", "0.2", "1.1"]


def test_two_boms_are_refused_before_any_download() -> None:
    """A second BOM is an invisible character the build refuses (issue 25, class 2), so no try
    view offers such a file for download; the message says what to fix."""
    text = BOM + BOM + "w,document_id,target_token,candidate_token,candidate_role,score\n"
    text += "1,d,it,a,r,2.0\n1,d,it,b,r,1.0\n"
    with pytest.raises(DataError, match="starts with two byte order marks"):
        _try_data(text.encode())


_piece = st.sampled_from(["a", '"', '""', ",", "\n", "\r", "\r\n", " ", "😀", "x,y", '"q"'])


@settings(max_examples=400, deadline=None)
@given(st.lists(_piece, max_size=30).map("".join))
def test_records_and_fields_are_the_csv_modules_for_any_text(text: str) -> None:
    """Any text at all, valid CSV or not: the records and fields are the stdlib reader's
    (non-strict, the reader of small files; Arrow's agrees on every file it accepts)."""
    cut = CsvText(text)
    got = [[unquote(text[a:b]) for a, b in cut.fields(k)] for k in range(len(cut.records))]
    expected = [row for row in csv.reader(io.StringIO(text, newline="")) if row]
    assert got == expected
    # UTF-16 offsets read back the same fields.
    spans = field_spans(text)
    assert [[unquote(utf16_slice(text, s)) for s in record] for record in spans] == expected


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(csv_files())
def test_the_fields_are_arrows(made: tuple[bytes, list[list[str]]]) -> None:
    """The reader of big files cuts the same records and fields."""
    pa = pytest.importorskip("pyarrow")
    from mkdocs_selfattn.core.csv_arrow import arrow_read

    data, _ = made
    text = data.decode("utf-8-sig")
    cut = CsvText(text)
    header = [f"c{k}" for k in range(len(HEADER))]
    table = arrow_read(data, header, {h: pa.string() for h in header}, header)
    columns = [table.column(h).to_pylist() for h in header]
    arrow_rows = [list(row) for row in zip(*columns, strict=True)]
    ours = [[unquote(text[a:b]) for a, b in cut.fields(k)] for k in range(1, len(cut.records))]
    assert ours == arrow_rows


def test_a_cell_that_does_not_read_back_is_refused_not_guessed() -> None:
    """Should the map ever disagree with the core, the view is refused, never a wrong download."""
    from mkdocs_selfattn.render.try_data import _score_cells

    data = b"document_id,target_token,candidate_token,candidate_role,v,score\nd,it,a,r,1,2\n"
    result = compute_targets(parse_table(data, source="x.csv"), "d")
    forged = data.replace(b",2\n", b",3\n")
    with pytest.raises(DataError, match="could not find this row's 'score' cell"):
        _score_cells(result, data, forged.decode(), "x.csv", {})
