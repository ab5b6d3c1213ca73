"""Work that may run in a worker process: functions of small, picklable requests.

Before pages render, the plugin sends the examples the cache cannot answer to a worker (see
``workers.py``), so that importing numpy, pyarrow and matplotlib and computing and drawing
happen on the other core while MkDocs reads and renders pages. Run here or there, a request
gives the same bytes: results travel as the same dict the cache stores.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mkdocs_selfattn.errors import SelfAttnError
from mkdocs_selfattn.render.chart import ChartStyle
from mkdocs_selfattn.render.labels import Labels
from mkdocs_selfattn.results import DocumentResult, result_payload

if TYPE_CHECKING:  # not imported at run time: a worker has no use for the block parser (YAML)
    from mkdocs_selfattn.spec import ExampleSpec

RESULTS_KEPT = 1024
"""Results a worker keeps for the chart requests that follow their compute request. All
computations are sent before any chart, so this must cover a whole course: at 64, a 100-chapter
cold build recomputed 59 results for their charts. A result is a few kilobytes."""

_RESULTS: OrderedDict[str, DocumentResult] = OrderedDict()


@dataclass(frozen=True)
class ComputeRequest:
    """One example's computation, with the CSV bytes the page read (never re-read there)."""

    key: str
    data: bytes
    source: str
    """The CSV as messages show it."""
    document: str
    targets: tuple[str, ...] | None
    vectors: tuple[str, ...] | None
    columns: tuple[tuple[str, str], ...]
    groups: tuple[tuple[str, tuple[str, ...]], ...]
    temperature: float

    @classmethod
    def of(cls, key: str, spec: ExampleSpec, data: bytes, source: str) -> ComputeRequest:
        return cls(
            key=key,
            data=data,
            source=source,
            document=spec.document,
            targets=spec.targets,
            vectors=spec.vectors,
            columns=tuple(spec.columns.items()),
            groups=tuple((name, tuple(members)) for name, members in spec.groups.items()),
            temperature=spec.temperature,
        )


@dataclass(frozen=True)
class ChartRequest:
    """One chart of a not yet computed example (the worker computes, or reuses, the result)."""

    compute: ComputeRequest
    display: tuple[tuple[str, str], ...]
    style: ChartStyle
    number_format: str | None
    text: tuple[tuple[str, str], ...]
    title: str | None


def compute(request: ComputeRequest) -> DocumentResult:
    from mkdocs_selfattn.candidate_table import ColumnMap
    from mkdocs_selfattn.csv_read import parse_table
    from mkdocs_selfattn.document_results import compute_document

    columns = ColumnMap.from_mapping(dict(request.columns), source=request.source)
    table = parse_table(
        request.data, source=request.source, columns=columns, vectors=request.vectors
    )
    return compute_document(
        table,
        request.document,
        targets=request.targets,
        groups={name: list(members) for name, members in request.groups},
        temperature=request.temperature,
        check=True,
    )


def compute_payload(request: ComputeRequest) -> dict[str, Any]:
    with _portable_errors():
        result = compute(request)
        _remember(request.key, result)
        return result_payload(result)


def draw_chart(request: ChartRequest) -> tuple[str, list[str]]:
    with _portable_errors():
        result = _RESULTS.get(request.compute.key)
        if result is None:
            result = compute(request.compute)
            _remember(request.compute.key, result)
        labels = Labels(dict(request.display)).for_result(result)
        return render_chart_job(
            result, labels, request.style, request.number_format, dict(request.text), request.title
        )


@contextmanager
def _portable_errors() -> Iterator[None]:
    """A failure in a worker travels back pickled, and one that cannot be unpickled breaks the
    whole pool: send our own errors (which pickle) as they are, and anything else as text."""
    try:
        yield
    except SelfAttnError:
        raise
    except Exception as exc:
        raise RuntimeError(f"{type(exc).__name__}: {exc}") from None


def render_chart_job(
    result: DocumentResult,
    labels: Labels,
    style: ChartStyle,
    number_format: str | None,
    text: Mapping[str, str],
    title: str | None,
) -> tuple[str, list[str]]:
    from mkdocs_selfattn.render.chart import render_chart

    out = render_chart(
        result, labels, style=style, number_format=number_format, text=text, title=title
    )
    return out.svg, out.missing_glyphs


def _remember(key: str, result: DocumentResult) -> None:
    _RESULTS[key] = result
    while len(_RESULTS) > RESULTS_KEPT:
        _RESULTS.popitem(last=False)
