"""Which CSV columns play which part, apart from the table itself: page rendering needs the names
without the numeric table (and without importing numpy, which a page built from a worker's
result never uses)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace

from mkdocs_selfattn.errors import DataError


@dataclass(frozen=True)
class ColumnMap:
    """Names of the CSV columns the core needs, so a course may call ``document_id`` ``memo``."""

    document: str = "document_id"
    target: str = "target_token"
    candidate: str = "candidate_token"
    role: str = "candidate_role"
    score: str = "score"
    target_index: str = "target_index"
    candidate_index: str = "candidate_index"

    @classmethod
    def keys(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, str], *, source: str) -> ColumnMap:
        """Build from user options, refusing keys the core does not know."""
        unknown = sorted(set(mapping) - set(cls.keys()))
        if unknown:
            raise DataError(
                source,
                f"unknown column role(s) {', '.join(unknown)} in the column mapping; "
                f"the roles are {', '.join(cls.keys())}",
                key="columns",
            )
        chosen = replace(cls(), **{k: str(v) for k, v in mapping.items()})
        chosen._refuse_shared(set(mapping), source)
        return chosen

    def _refuse_shared(self, mapped: set[str], source: str) -> None:
        """A column is either text (a name) or numbers (the score, a position), never both: read
        both ways, a cell such as ``04`` would be one token but the number 4, and a small file
        and a big one (two readers) could disagree on which to show."""

        def named(role: str, kind: str) -> str:
            return f"{role} ({kind})" if role in mapped else f"{role} ({kind}, by default)"

        text = {getattr(self, role): role for role in ("document", "target", "candidate", "role")}
        for role in ("score", "target_index", "candidate_index"):
            column = getattr(self, role)
            if column in text:
                raise DataError(
                    source,
                    f"column {column!r} is both the {named(text[column], 'text')} and the "
                    f"{named(role, 'a number')} in the column mapping; map each to a column "
                    "of its own",
                    key="columns",
                )

    @property
    def text_columns(self) -> tuple[str, str, str, str]:
        return (self.document, self.target, self.candidate, self.role)

    @property
    def index_columns(self) -> tuple[str, str]:
        return (self.target_index, self.candidate_index)
