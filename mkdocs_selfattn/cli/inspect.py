"""``mkdocs-selfattn inspect CSV``: what a CSV holds, in CSV order, and a block to start from.

An author writing a block needs the document ids, the targets and the candidates spelled exactly
as the CSV spells them; this reads the file with the same validating reader as a build.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from mkdocs_selfattn.cli.inspect_layouts import Header, choose_layout, read_header
from mkdocs_selfattn.cli.inspect_reading import (
    ENGINE_LAYOUT,
    ReadingContents,
    describe_reading,
    inspect_reading,
)
from mkdocs_selfattn.cli.pasted_block import ID_PATTERN, count, scalar, word
from mkdocs_selfattn.core.column_map import ColumnMap
from mkdocs_selfattn.core.csv_read import read_table
from mkdocs_selfattn.core.data_checks import DataProblems, document_problems
from mkdocs_selfattn.core.readings import READING_KINDS
from mkdocs_selfattn.core.table import Table
from mkdocs_selfattn.render.escape import terminal_text


@dataclass(frozen=True)
class Target:
    name: str
    """As inline values name it: ``token@position`` when the CSV has position columns."""
    token: str
    """As ``targets:`` names it (every position of the token is a target)."""
    candidates: tuple[str, ...]


@dataclass(frozen=True)
class Document:
    name: str
    rows: int
    targets: tuple[Target, ...]


@dataclass(frozen=True)
class CsvContents:
    path: str
    rows: int
    columns: Mapping[str, str]
    """Only the roles mapped on the command line (the block's ``columns:``)."""
    table: Table
    documents: tuple[Document, ...]
    header: tuple[str, ...]
    vectors: tuple[str, ...] | None = None
    """Set when the block must name its vector columns (some other column is text)."""
    problems: Mapping[str, DataProblems] = field(default_factory=dict)
    """Per document, the data mistakes a page showing it would refuse or warn about."""
    others: tuple[str, ...] = ()
    """Other layouts the header fits (``--layout`` picks one)."""

    @property
    def has_errors(self) -> bool:
        """True when a page showing some document of the file would fail."""
        return any(p.errors for p in self.problems.values())


def inspect_csv(
    path: str, columns: Mapping[str, str], layout: str | None = None
) -> CsvContents | ReadingContents:
    """The file in the terms of ``layout`` (default: the first layout its header fits)."""
    header = read_header(path)
    need, others = choose_layout(header, columns, layout)
    if not READING_KINDS[ENGINE_LAYOUT[need.key]].readers_are_tokens:
        return inspect_reading(header, need, columns, others)
    mapping = ColumnMap.from_mapping(columns, source=path)
    vectors = _vectors(header, mapping)
    table = read_table(path, columns=mapping, vectors=vectors)
    documents = _documents(table)
    problems = {doc.name: document_problems(table, doc.name) for doc in documents}
    return CsvContents(
        path, table.n_rows, dict(columns), table, documents, header.names, vectors, problems, others
    )


def _vectors(header: Header, mapping: ColumnMap) -> tuple[str, ...] | None:
    """The vector columns when some column outside the roles is text (a gloss, a note): the
    numeric ones, which the block must then list. None when every such column is numeric (the
    default)."""
    roles = set(mapping.text_columns) | set(mapping.index_columns) | {mapping.score}
    rest = [name for name in header.names if name not in roles]
    numeric = [name for name in rest if name in header.numeric]
    if len(numeric) == len(rest) or not numeric:
        return None
    return tuple(numeric)


def _documents(table: Table) -> tuple[Document, ...]:
    """Documents, targets and candidates in the order their first row comes in the file."""
    order: dict[str, dict[str, list[str]]] = {}
    rows: dict[str, int] = {}
    tokens: dict[str, str] = {}
    for row in range(table.n_rows):
        doc = table.documents[int(table.document_codes[row])]
        target = _token(table, row, target=True)
        tokens[target] = table.groups[int(table.group_codes[row])]
        candidate = _token(table, row, target=False)
        rows[doc] = rows.get(doc, 0) + 1
        # Every row as it is: a repeated candidate shows twice (and is reported), never merged.
        order.setdefault(doc, {}).setdefault(target, []).append(candidate)
    return tuple(
        Document(
            doc,
            rows[doc],
            tuple(Target(t, tokens[t], tuple(c)) for t, c in targets.items()),
        )
        for doc, targets in order.items()
    )


def _token(table: Table, row: int, *, target: bool) -> str:
    if target:
        name = table.groups[int(table.group_codes[row])]
        index = table.group_index
    else:
        name = table.encoded.token(row)
        index = table.encoded.candidate_index
    # With position columns a block names a repeated token as token@position.
    return name if index is None else f"{name}@{int(index[row])}"


def describe(contents: CsvContents | ReadingContents) -> str:
    if isinstance(contents, ReadingContents):
        lines = describe_reading(contents)
    else:
        lines = _describe_targets(contents)
    return "\n".join(terminal_text(line) for line in lines) + "\n"


def _describe_targets(contents: CsvContents) -> list[str]:
    table = contents.table
    cols = ColumnMap.from_mapping(contents.columns, source=contents.path)
    role_names = ColumnMap.keys()
    roles = {getattr(cols, role): role for role in role_names}
    roles |= dict.fromkeys(table.columns.axis_names, "vector")
    lines = [
        f"{contents.path}: {count(contents.rows, 'row')}, "
        f"{count(len(contents.documents), 'document')}",
        "columns: "
        + ", ".join(
            f"{name} ({roles[name]})" if name in roles else name for name in contents.header
        ),
    ]
    if contents.others:
        lines.append(f"layout targets (also fits {', '.join(contents.others)}: --layout)")
    for doc in contents.documents:
        lines += ["", f"document {doc.name} ({count(doc.rows, 'row')})"]
        for target in doc.targets:
            lines.append(f"  target {target.name}: " + ", ".join(target.candidates))
        problems = contents.problems.get(doc.name, DataProblems())
        lines += [f"  error: {error}" for error in problems.errors]
        lines += [f"  warning: {warning}" for warning in problems.warnings]
    lines += ["", "A block for the first document (csv: the path from the page to this file):", ""]
    return lines + suggested_block(contents)


def suggested_block(contents: CsvContents) -> list[str]:
    """A ``selfattn`` block that builds as printed, and one inline value that reads it."""
    doc = contents.documents[0]
    example_id = doc.name if ID_PATTERN.match(doc.name) else "example"
    targets = list(dict.fromkeys(t.token for t in doc.targets))
    first = doc.targets[0]
    lines = [
        "```selfattn",
        f"id: {scalar(example_id)}",
        f"csv: {scalar(contents.path)}",
        f"document: {scalar(doc.name)}",
        "targets: [" + ", ".join(scalar(t) for t in targets) + "]",
    ]
    if contents.columns:
        pairs = ", ".join(f"{role}: {scalar(name)}" for role, name in contents.columns.items())
        lines.append("columns: {" + pairs + "}")
    if contents.vectors:
        lines.append("vectors: [" + ", ".join(scalar(v) for v in contents.vectors) + "]")
    lines += ["show: [output, table, chart]", "```", ""]
    lines.append(
        f"`{{selfattn}} {example_id} weight {word(first.name)} {word(first.candidates[0])}`"
    )
    return lines
