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
from dataclasses import fields as dataclass_fields
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from mkdocs_selfattn.core.readings import Layout, ReadingResult, reading_payload
from mkdocs_selfattn.core.results import DocumentResult, result_payload
from mkdocs_selfattn.errors import SelfAttnError

if TYPE_CHECKING:  # a worker imports them when the first request arrives
    from mkdocs_selfattn.blocks.spec import ExampleSpec
    from mkdocs_selfattn.render.chart import ChartStyle
    from mkdocs_selfattn.render.labels import Labels

RESULTS_KEPT = 1024
"""Results a worker keeps for the chart requests that follow their compute request. All
computations are sent before any chart, so this must cover a whole course: at 64, a 100-chapter
cold build recomputed 59 results for their charts. A result is a few kilobytes."""

Result = DocumentResult | ReadingResult
"""What an example computes: the targets layout's results, or a questions or heads reading."""

_RESULTS: OrderedDict[str, Result] = OrderedDict()


@dataclass(frozen=True)
class ComputeRequest:
    """One example's computation: the block's spec as it is, with the CSV bytes the page read
    (never re-read there)."""

    key: str
    spec: ExampleSpec
    data: bytes
    source: str
    """The CSV as messages show it."""

    @classmethod
    def of(cls, key: str, spec: ExampleSpec, data: bytes, source: str) -> ComputeRequest:
        return cls(key=key, spec=spec, data=data, source=source)

    def __reduce__(self) -> tuple[Any, ...]:
        # A spec's mappings are read-only views, which do not pickle: they travel as dicts.
        fields = {f.name: _plain(getattr(self.spec, f.name)) for f in dataclass_fields(self.spec)}
        return (_request, (self.key, type(self.spec), fields, self.data, self.source))


def _plain(value: object) -> object:
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _frozen(value: object) -> object:
    if isinstance(value, dict):
        return MappingProxyType({k: _frozen(v) for k, v in value.items()})
    return value


def _request(
    key: str, kind: type[ExampleSpec], fields: dict[str, Any], data: bytes, source: str
) -> ComputeRequest:
    frozen: dict[str, Any] = {name: _frozen(value) for name, value in fields.items()}
    spec = kind(**frozen)
    return ComputeRequest(key=key, spec=spec, data=data, source=source)


@dataclass(frozen=True)
class ChartRequest:
    """One chart of a not yet computed example (the worker computes, or reuses, the result)."""

    compute: ComputeRequest
    style: ChartStyle
    number_format: str | None
    text: tuple[tuple[str, str], ...]
    title: str | None
    view: str = "chart"
    """The figure view (``chart``, ``context_chart``, …)."""
    query: str | None = None
    """The block's ``query:``: which question or head the figure shows."""
    page_text: tuple[tuple[str, str], ...] | None = None
    """The words of ``<title>`` and ``<desc>`` when the page's language is not the figure's."""


def compute(request: ComputeRequest) -> Result:
    if request.spec.layout != "targets":
        return compute_reading_request(request)
    from mkdocs_selfattn.core.column_map import ColumnMap
    from mkdocs_selfattn.core.csv_read import parse_table
    from mkdocs_selfattn.core.document_results import compute_document

    spec = request.spec
    if spec.document is None:  # the block parser refuses this; a hand-made spec may not
        raise ValueError("a targets example needs a document")
    columns = ColumnMap.from_mapping(dict(spec.columns), source=request.source)
    table = parse_table(request.data, source=request.source, columns=columns, vectors=spec.vectors)
    return compute_document(
        table,
        spec.document,
        targets=spec.targets,
        groups={name: list(members) for name, members in spec.groups.items()},
        temperature=spec.temperature,
        check=True,
    )


def compute_reading_request(request: ComputeRequest) -> ReadingResult:
    from mkdocs_selfattn.core.reading_results import compute_reading_result
    from mkdocs_selfattn.core.reading_table import parse_reading

    spec = request.spec
    layout: Layout = "questions" if spec.queries is not None else "heads"
    readers = spec.queries if spec.queries is not None else spec.heads
    table = parse_reading(
        request.data,
        source=request.source,
        mapping=dict(spec.columns),
        readers=dict(readers or {}),
        reader_key="queries" if layout == "questions" else "heads",
        vectors=spec.vectors,
        axes=None if spec.axes is None else {k: list(v) for k, v in spec.axes.items()},
        document=spec.document is not None,
        given=layout == "heads",
    )
    return compute_reading_result(
        table,
        layout,
        document=spec.document,
        groups={name: list(members) for name, members in spec.groups.items()},
        temperature=spec.temperature,
        normalise=spec.normalise,
    )


def payload_of(result: Result) -> dict[str, Any]:
    """The cache's (and a worker's) form of either kind of result."""
    if isinstance(result, ReadingResult):
        return reading_payload(result)
    return result_payload(result)


def compute_payload(request: ComputeRequest) -> dict[str, Any]:
    with _portable_errors():
        result = compute(request)
        _remember(request.key, result)
        return payload_of(result)


def draw_chart(request: ChartRequest) -> tuple[str, list[str]]:
    from mkdocs_selfattn.render.labels import Labels

    with _portable_errors():
        result = _RESULTS.get(request.compute.key)
        if result is None:
            result = compute(request.compute)
            _remember(request.compute.key, result)
        labels = Labels(dict(request.compute.spec.display)).for_result(result)
        return render_chart_job(
            result,
            labels,
            request.style,
            request.number_format,
            dict(request.text),
            request.title,
            request.view,
            request.query,
            page_text=None if request.page_text is None else dict(request.page_text),
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
    result: DocumentResult | ReadingResult,
    labels: Labels,
    style: ChartStyle,
    number_format: str | None,
    text: Mapping[str, str],
    title: str | None,
    view: str = "chart",
    query: str | None = None,
    *,
    page_text: Mapping[str, str] | None = None,
    page_labels: Labels | None = None,
    page_title: str | None = None,
) -> tuple[str, list[str]]:
    """Any figure view (``view``: its name) of one example, for this process or a worker: both
    its drawings (wide and narrow) in one string, cached as one. ``text``/``labels`` are the
    words drawn in the figure; ``page_text``/``page_labels``/``page_title`` those of its ``<title>``
    and ``<desc>`` (the page's language), when they differ."""
    from mkdocs_selfattn.render.figure_query import draw_figure

    return draw_figure(
        view,
        result,
        labels,
        style,
        number_format,
        text,
        title,
        query,
        page_text=page_text,
        page_labels=page_labels,
        page_title=page_title,
    )


def _remember(key: str, result: Result) -> None:
    _RESULTS[key] = result
    while len(_RESULTS) > RESULTS_KEPT:
        _RESULTS.popitem(last=False)
