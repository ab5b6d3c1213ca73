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

from mkdocs_selfattn.build.engines import ENGINES, Result
from mkdocs_selfattn.build.requests import ComputeRequest as ComputeRequest
from mkdocs_selfattn.core.readings import ReadingResult
from mkdocs_selfattn.core.record_form import payload
from mkdocs_selfattn.errors import SelfAttnError

if TYPE_CHECKING:  # a worker imports them when the first request arrives
    from mkdocs_selfattn.render.chart import ChartStyle
    from mkdocs_selfattn.render.labels import Labels

RESULTS_KEPT = 1024
"""Results a worker keeps for the chart requests that follow their compute request. All
computations are sent before any chart, so this must cover a whole course: at 64, a 100-chapter
cold build recomputed 59 results for their charts. A result is a few kilobytes."""

_RESULTS: OrderedDict[str, Result] = OrderedDict()


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
    """The example's results, by its layout's engine."""
    return ENGINES[request.spec.layout](request)


def payload_of(result: Result) -> dict[str, Any]:
    """The cache's (and a worker's) form of a result: one form for every layout."""
    return payload(result)


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
    result: ReadingResult,
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
