"""Each layout's engine: how an example of that layout is computed from its request, always into
the one record family (:class:`~mkdocs_selfattn.core.readings.ReadingResult`, whose cache form
is :mod:`~mkdocs_selfattn.core.record_form`'s). The
lower half of the layout registry (build/layouts.py holds the rest): the worker's jobs need only
this half.

The computations import the core when they run, so a warm build, which computes nothing, imports
neither numpy nor pyarrow."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mkdocs_selfattn.core.readings import READING_KINDS, ReadingKind, ReadingResult

if TYPE_CHECKING:
    from mkdocs_selfattn.build.requests import ComputeRequest

Result = ReadingResult
"""What an example of any layout computes: its groups and the heads that read them."""


Engine = Callable[["ComputeRequest"], Result]
"""How one layout's example is computed from its request."""


def _compute_targets(request: ComputeRequest) -> ReadingResult:
    from mkdocs_selfattn.core.column_map import ColumnMap
    from mkdocs_selfattn.core.csv_read import parse_table
    from mkdocs_selfattn.core.document_results import compute_targets

    spec = request.spec
    if spec.document is None:  # the block parser refuses this; a hand-made spec may not
        raise ValueError("a targets example needs a document")
    columns = ColumnMap.from_mapping(dict(spec.columns), source=request.source)
    table = parse_table(request.data, source=request.source, columns=columns, vectors=spec.vectors)
    return compute_targets(
        table,
        spec.document,
        targets=spec.targets,
        groups={name: list(members) for name, members in spec.groups.items()},
        temperature=spec.temperature,
        check=True,
    )


@dataclass(frozen=True)
class _Reading:
    """A reading layout's engine: groups of candidate rows read by the block's ``queries:``
    (softmax over score columns) or ``heads:`` (given weights)."""

    kind: ReadingKind

    def __call__(self, request: ComputeRequest) -> ReadingResult:
        from mkdocs_selfattn.core.reading_results import compute_reading_result
        from mkdocs_selfattn.core.reading_table import parse_reading

        spec = request.spec
        readers: Mapping[str, str] | None = getattr(spec, self.kind.block_key)
        table = parse_reading(
            request.data,
            source=request.source,
            mapping=dict(spec.columns),
            readers=dict(readers or {}),
            reader_key=self.kind.block_key,
            vectors=spec.vectors,
            axes=None if spec.axes is None else {k: list(v) for k, v in spec.axes.items()},
            document=spec.document is not None,
            given=self.kind.given,
        )
        return compute_reading_result(
            table,
            self.kind.layout,
            document=spec.document,
            groups={name: list(members) for name, members in spec.groups.items()},
            temperature=spec.temperature,
            normalise=spec.normalise,
        )


ENGINES: dict[str, Engine] = {
    "targets": _compute_targets,
    "questions": _Reading(READING_KINDS["questions"]),
    "heads": _Reading(READING_KINDS["heads"]),
}
