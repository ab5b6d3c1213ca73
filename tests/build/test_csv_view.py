"""The csv view, one for every layout: the rows an example reads (its document's, or the whole
file's), exactly as Python's ``csv`` module reads them, the first 50 and a row counting the rest,
the same whichever reader (stdlib or Arrow) the file needs."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from course_requests import ASSETS, BLOCKS, requests
from sites import parse_html, table_rows

from mkdocs_selfattn.blocks.spec import ExampleSpec, ViewOptions
from mkdocs_selfattn.build.cache import Cache
from mkdocs_selfattn.build.example import Example
from mkdocs_selfattn.build.layouts import LAYOUTS
from mkdocs_selfattn.build.pipeline import Pipeline
from mkdocs_selfattn.build.settings import Settings
from mkdocs_selfattn.build.views import CSV_ROWS
from mkdocs_selfattn.cli.run import _CommandLineFiles
from mkdocs_selfattn.core import csv_small

REQUESTS = requests()


def _load(spec: ExampleSpec, csv_path: Path) -> tuple[Pipeline, Example]:
    pipeline = Pipeline(Settings(scripts=False, mermaid=None), Cache(None))
    return pipeline, pipeline.load(replace(spec, csv=str(csv_path)), _CommandLineFiles())


def _shown(pipeline: Pipeline, example: Example, language: str = "en") -> list[list[str]]:
    out = pipeline.render(example, ViewOptions(show=("csv",), language=language), line=1)
    [(kind, html)] = out.pieces
    assert kind == "late"
    assert isinstance(html, str)
    [table] = parse_html(html).find_all("table")
    return table_rows(table)


def _expected(data: bytes, column: str | None, document: str | None) -> list[list[str]]:
    reader = csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""))
    header = [h.strip() for h in next(reader)]
    at = None if column is None else header.index(column)
    rows = [r for r in reader if r and (at is None or r[at] == document)]
    return [header, *([" ".join(c.split()) for c in r] for r in rows)]


def _document_column(spec: ExampleSpec) -> str:
    return dict(spec.columns).get("document", "document_id")


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_every_layout_shows_the_rows_it_reads_as_the_file_has_them(name: str) -> None:
    spec = REQUESTS[name].spec
    path = ASSETS / BLOCKS[name][0]
    pipeline, example = _load(spec, path)
    document = example.result.document
    column = None if document is None else _document_column(spec)
    expected = _expected(path.read_bytes(), column, document)
    assert len(expected) - 1 == example.result.document_rows <= CSV_ROWS
    assert _shown(pipeline, example) == expected


def _long_targets(tmp_path: Path, copies: int) -> tuple[ExampleSpec, Path, int]:
    """The course's targets document repeated ``copies`` times under new target names, and
    another document's rows between the copies (which the view must skip)."""
    spec = REQUESTS["targets"].spec
    text = (ASSETS / BLOCKS["targets"][0]).read_text(encoding="utf-8-sig")
    header, *lines = text.splitlines()
    ours = [line for line in lines if line.startswith(spec.document + ",")]
    others = [line for line in lines if not line.startswith(spec.document + ",")]
    body = []
    for k in range(copies):
        for line in ours:
            cells = line.split(",")  # the course file quotes nothing
            cells[1] += str(k) if k else ""
            body.append(",".join(cells))
        body += others[:2]
    path = tmp_path / "long.csv"
    path.write_text("\n".join([header, *body]) + "\n", encoding="utf-8")
    return spec, path, copies * len(ours)


def test_a_long_document_shows_its_first_rows_and_counts_the_rest(tmp_path: Path) -> None:
    spec, path, count = _long_targets(tmp_path, 6)
    assert count > CSV_ROWS
    pipeline, example = _load(spec, path)
    assert example.result.document_rows == count
    shown = _shown(pipeline, example)
    expected = _expected(path.read_bytes(), _document_column(spec), spec.document)
    assert shown[: CSV_ROWS + 1] == expected[: CSV_ROWS + 1]
    assert shown[-1][0] == f"… {count - CSV_ROWS} other lines"
    assert len(shown) == CSV_ROWS + 2
    assert _shown(pipeline, example, "ko")[-1][0] == f"… 나머지 {count - CSV_ROWS}줄"


def _small_reader_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(csv_small, "data_rows", lambda data: None)


def _computation_reads_with_arrow(monkeypatch: pytest.MonkeyPatch) -> None:
    from mkdocs_selfattn.core import csv_size

    monkeypatch.setattr(csv_size, "SMALL_BYTES", 0)


@pytest.mark.parametrize("name", sorted(LAYOUTS))
@pytest.mark.parametrize("arrow", [_small_reader_refuses, _computation_reads_with_arrow])
def test_the_view_is_the_same_whichever_reader_reads_the_file(
    name: str, arrow: Callable[[pytest.MonkeyPatch], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The view on Arrow's reading, and the view of a file the computation read with Arrow,
    show what the stdlib reader shows."""
    spec = REQUESTS[name].spec
    pipeline, example = _load(spec, ASSETS / BLOCKS[name][0])
    small = _shown(pipeline, example)
    arrow(monkeypatch)
    pipeline, example = _load(spec, ASSETS / BLOCKS[name][0])
    assert _shown(pipeline, example) == small


def _noted(tmp_path: Path, name: str, note: Callable[[int], str]) -> tuple[ExampleSpec, Path]:
    """The course's file of layout ``name`` (its document's rows only, when it names one) with a
    free-text column ``note``: ``note(k)`` is the cell of the k-th row."""
    spec = REQUESTS[name].spec
    text = (ASSETS / BLOCKS[name][0]).read_text(encoding="utf-8-sig")
    header, *lines = text.splitlines()
    if spec.document is not None:
        lines = [line for line in lines if line.startswith(spec.document + ",")]
    noted = [header + ",note"] + [line + "," + note(k) for k, line in enumerate(lines)]
    path = tmp_path / "noted.csv"
    path.write_text("\n".join(noted) + "\n", encoding="utf-8")
    return spec, path


def test_free_text_shows_hidden_characters_and_quoted_line_breaks(tmp_path: Path) -> None:
    spec, path = _noted(tmp_path, "targets", lambda k: '"a\nb"' if k == 0 else "x\u202ey")
    vectors = ("evidence_pack", "evidence_cap", "evidence_action")
    pipeline, example = _load(replace(spec, vectors=vectors), path)
    shown: list[Any] = _shown(pipeline, example)
    assert shown[0][-1] == "note"
    assert shown[1][-1] == "a b"  # one cell, its line break collapsed by the comparison
    assert {row[-1] for row in shown[2:]} == {"x<U+202E>y"}


def test_a_cell_past_the_csv_modules_field_limit_is_shown(tmp_path: Path) -> None:
    huge = "x" * (csv.field_size_limit() + 10)
    spec, path = _noted(tmp_path, "questions", lambda k: huge if k == 3 else "n")
    pipeline, example = _load(spec, path)
    shown = _shown(pipeline, example)
    assert len(shown) == 1 + example.result.document_rows
    assert shown[4][-1] == huge
    assert [row[-1] for row in shown[1:4]] == ["n", "n", "n"]
