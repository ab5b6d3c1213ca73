"""``mkdocs-selfattn inspect CSV``: what a CSV holds, in CSV order, and a block to start from.

An author writing a block needs the document ids, the targets and the candidates spelled exactly
as the CSV spells them; this reads the file with the same validating reader as a build.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import yaml

from mkdocs_selfattn.core.candidate_table import CandidateTable
from mkdocs_selfattn.core.column_map import ColumnMap
from mkdocs_selfattn.core.csv_read import read_table
from mkdocs_selfattn.core.data_checks import DataProblems, document_problems
from mkdocs_selfattn.core.input_files import read_input
from mkdocs_selfattn.render.escape import terminal_text

_ID = re.compile(r"^[A-Za-z_][\w-]*$")


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
    table: CandidateTable
    documents: tuple[Document, ...]
    header: tuple[str, ...]
    vectors: tuple[str, ...] | None = None
    """Set when the block must name its vector columns (some other column is text)."""
    problems: Mapping[str, DataProblems] = field(default_factory=dict)
    """Per document, the data mistakes a page showing it would refuse or warn about."""

    @property
    def has_errors(self) -> bool:
        """True when a page showing some document of the file would fail."""
        return any(p.errors for p in self.problems.values())


def inspect_csv(path: str, columns: Mapping[str, str]) -> CsvContents:
    mapping = ColumnMap.from_mapping(columns, source=path)
    header, vectors = _header_and_vectors(path, mapping)
    table = read_table(path, columns=mapping, vectors=vectors)
    documents = _documents(table)
    problems = {doc.name: document_problems(table, doc.name) for doc in documents}
    return CsvContents(
        path, table.n_rows, dict(columns), table, documents, header, vectors, problems
    )


def _header_and_vectors(
    path: str, mapping: ColumnMap
) -> tuple[tuple[str, ...], tuple[str, ...] | None]:
    """The header, and the vector columns when some column outside the roles is text (a
    gloss, a note): the numeric ones, which the block must then list. None when every such
    column is numeric (the default), or when the file cannot be read here (the validating
    reader then says why)."""
    try:
        text = read_input(path).decode("utf-8-sig")
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except (OSError, UnicodeDecodeError, csv.Error):
        return (), None
    if not rows:
        return (), None
    header = tuple(name.strip() for name in rows[0])
    roles = set(mapping.text_columns) | set(mapping.index_columns) | {mapping.score}
    rest = [i for i, name in enumerate(header) if name not in roles]
    numeric = [i for i in rest if all(_is_number(row[i]) for row in rows[1:] if len(row) > i)]
    if len(numeric) == len(rest) or not numeric:
        return header, None
    return header, tuple(header[i] for i in numeric)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _documents(table: CandidateTable) -> tuple[Document, ...]:
    """Documents, targets and candidates in the order their first row comes in the file."""
    order: dict[str, dict[str, list[str]]] = {}
    rows: dict[str, int] = {}
    tokens: dict[str, str] = {}
    for row in range(table.n_rows):
        doc = table.documents[int(table.document_codes[row])]
        target = _token(table, row, target=True)
        tokens[target] = table.targets[int(table.target_codes[row])]
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


def _token(table: CandidateTable, row: int, *, target: bool) -> str:
    if target:
        name = table.targets[int(table.target_codes[row])]
        index = table.target_index
    else:
        name = table.candidates[int(table.candidate_codes[row])]
        index = table.candidate_index
    # With position columns a block names a repeated token as token@position.
    return name if index is None else f"{name}@{int(index[row])}"


def describe(contents: CsvContents) -> str:
    table = contents.table
    cols = table.columns
    role_names = ColumnMap.keys()
    roles = {getattr(cols, role): role for role in role_names}
    roles |= dict.fromkeys(table.vector_columns, "vector")
    lines = [
        f"{contents.path}: {_count(contents.rows, 'row')}, "
        f"{_count(len(contents.documents), 'document')}",
        "columns: "
        + ", ".join(
            f"{name} ({roles[name]})" if name in roles else name for name in contents.header
        ),
    ]
    for doc in contents.documents:
        lines += ["", f"document {doc.name} ({_count(doc.rows, 'row')})"]
        for target in doc.targets:
            lines.append(f"  target {target.name}: " + ", ".join(target.candidates))
        problems = contents.problems.get(doc.name, DataProblems())
        lines += [f"  error: {error}" for error in problems.errors]
        lines += [f"  warning: {warning}" for warning in problems.warnings]
    lines += ["", "A block for the first document (csv: the path from the page to this file):", ""]
    lines += suggested_block(contents)
    return "\n".join(terminal_text(line) for line in lines) + "\n"


def suggested_block(contents: CsvContents) -> list[str]:
    """A ``selfattn`` block that builds as printed, and one inline value that reads it."""
    doc = contents.documents[0]
    example_id = doc.name if _ID.match(doc.name) else "example"
    targets = list(dict.fromkeys(t.token for t in doc.targets))
    first = doc.targets[0]
    lines = [
        "```selfattn",
        f"id: {_scalar(example_id)}",
        f"csv: {_scalar(contents.path)}",
        f"document: {_scalar(doc.name)}",
        "targets: [" + ", ".join(_scalar(t) for t in targets) + "]",
    ]
    if contents.columns:
        pairs = ", ".join(f"{role}: {_scalar(name)}" for role, name in contents.columns.items())
        lines.append("columns: {" + pairs + "}")
    if contents.vectors:
        lines.append("vectors: [" + ", ".join(_scalar(v) for v in contents.vectors) + "]")
    lines += ["show: [output, table, chart]", "```", ""]
    lines.append(
        f"`{{selfattn}} {example_id} weight {_word(first.name)} {_word(first.candidates[0])}`"
    )
    return lines


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _scalar(text: str) -> str:
    """``text`` plain when YAML reads it back as the same string in a flow list, else quoted."""
    if text and not any(ch in text for ch in ",[]{}#&*!|>'\"%@`:") and text == text.strip():
        try:
            if yaml.safe_load(text) == text:
                return text
        except yaml.YAMLError:
            pass
    return json.dumps(text, ensure_ascii=False)


def _word(text: str) -> str:
    """An inline value's argument: quoted when it has spaces (inline values split like a shell)."""
    if text and not any(ch.isspace() or ch in "'\"\\`" for ch in text):
        return text
    return "'" + text.replace("'", "'\\''") + "'"
