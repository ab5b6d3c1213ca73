"""``inspect`` for a CSV read by ``queries:`` or ``heads:``: its documents, groups and lines as the
build's validating reader reads them, and a block that builds as printed.

The file says which columns are questions or heads (:mod:`inspect_layouts`); what it does not
say is guessed from the data, so the block is right for the common shapes: the lines are named
by the first text column nobody else claims, and the groups of a heads file are the fewest
leading text columns within which every head's weights sum to 1.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs_selfattn.cli.inspect_layouts import Header, LayoutNeed, column_names
from mkdocs_selfattn.cli.pasted_block import ID_PATTERN, count, scalar, word
from mkdocs_selfattn.core.input_files import read_input
from mkdocs_selfattn.core.reading_table import DEFAULT_COLUMNS, parse_reading
from mkdocs_selfattn.core.readings import READING_KINDS, Layout
from mkdocs_selfattn.core.table import Table
from mkdocs_selfattn.errors import DataError

if TYPE_CHECKING:
    from mkdocs_selfattn.core.data_checks import DataProblems

ENGINE_LAYOUT: Mapping[str, Layout] = {k.block_key: k.layout for k in READING_KINDS.values()}
_SUM_SLACK = 1e-6
"""Looser than the engine's tolerance: this only guesses the groups, the engine checks them."""


@dataclass(frozen=True)
class ReadingPlan:
    """The columns a block would give for this file, in its terms."""

    need: LayoutNeed
    candidate: str
    role: str | None
    document: str | None
    group: str | None
    readers: tuple[tuple[str, str], ...]
    """(question or head name, its score or weight column), in header order."""
    vectors: tuple[str, ...]

    def columns(self) -> dict[str, str]:
        """Every role's column, as ``parse_reading`` takes them."""
        roles = {
            "document": self.document,
            "group": self.group,
            "candidate": self.candidate,
            "role": self.role,
        }
        return {role: name for role, name in roles.items() if name is not None}

    def block_columns(self) -> dict[str, str]:
        """Only the roles a block must map (the rest keep their default names)."""
        return {r: n for r, n in self.columns().items() if DEFAULT_COLUMNS.get(r) != n}


@dataclass(frozen=True)
class ReadingContents:
    path: str
    plan: ReadingPlan
    table: Table
    header: Header
    others: tuple[str, ...]
    """Other layouts the header fits (``--layout`` picks one)."""
    documents: dict[str, dict[str, list[tuple[int, str]]]]
    """Document → group → (data row, line token), in CSV order ("" without the column)."""
    problems: DataProblems
    """The data mistakes of the block printed (the first document, or the whole file)."""

    @property
    def has_errors(self) -> bool:
        """True when the printed block would fail."""
        return bool(self.problems.errors)


def plan_reading(header: Header, need: LayoutNeed, mapping: Mapping[str, str]) -> ReadingPlan:
    names = column_names(mapping)
    columns = need.readers(header, names)
    text = [n for n in header.text() if n not in columns]

    def present(role: str) -> str | None:
        name = mapping.get(role, names[role])
        return name if name and (role in mapping or name in header.names) else None

    candidate, role = present("candidate"), present("role")
    document, group = present("document"), present("group")
    if READING_KINDS[ENGINE_LAYOUT[need.key]].given and document is None and group is None:
        free = [n for n in text if n not in (candidate, role)]
        document, group = _grouping(header, columns, free)
    taken = {candidate, role, document, group}
    if candidate is None:
        candidate = next((n for n in text if n not in taken), None)
        if candidate is None:
            raise DataError(
                header.path,
                "no text column names the lines; map one with --columns candidate=NAME",
                line=1,
            )
        taken.add(candidate)
    if role is None:
        role = next((n for n in text if n not in taken and "role" in n.lower()), None)
    mapped = {candidate, role, document, group}
    vectors = tuple(n for n in header.names if n in header.numeric and n not in columns)
    return ReadingPlan(
        need,
        candidate,
        role,
        document,
        group,
        _names(columns, need.reader_word),
        tuple(v for v in vectors if v not in mapped),
    )


def _grouping(
    header: Header, columns: Sequence[str], free: Sequence[str]
) -> tuple[str | None, str | None]:
    """(document, group): the fewest leading text columns (at most two) within which every
    weight column sums to 1."""
    index = {name: i for i, name in enumerate(header.names)}
    for k in range(min(2, len(free)) + 1):
        keys = [index[n] for n in free[:k]]
        sums: dict[tuple[tuple[str, ...], str], float] = {}
        for row in header.rows:
            key = tuple(row[i] for i in keys)
            for column in columns:
                sums[key, column] = sums.get((key, column), 0.0) + float(row[index[column]])
        if all(abs(total - 1.0) <= _SUM_SLACK for total in sums.values()):
            return (free[0], free[1]) if k == 2 else (None, free[0] if k else None)
    return None, None


def _names(columns: Sequence[str], word: str) -> tuple[tuple[str, str], ...]:
    """Short names (``score_flow_limit`` → ``flow_limit``), or the columns when shortening would
    make two alike or a name that is another entry's column."""
    short = []
    for column in columns:
        name = column
        if column.lower().startswith(word + "_"):
            name = column[len(word) + 1 :]
        elif column.lower().endswith("_" + word):
            name = column[: -len(word) - 1]
        short.append(name or column)
    if len(set(short)) < len(short) or set(short) & (set(columns) - set(short)):
        short = list(columns)
    return tuple(zip(short, columns, strict=True))


def inspect_reading(
    header: Header, need: LayoutNeed, mapping: Mapping[str, str], others: tuple[str, ...]
) -> ReadingContents:
    from mkdocs_selfattn.core.data_checks import DataProblems
    from mkdocs_selfattn.core.reading_results import compute_reading_result

    plan = plan_reading(header, need, mapping)
    try:
        data = read_input(header.path)
    except OSError as exc:
        raise DataError(header.path, f"cannot be read ({exc.strerror or exc})") from None
    table = parse_reading(
        data,
        source=header.path,
        mapping=plan.columns(),
        readers=dict(plan.readers),
        reader_key=need.key,
        vectors=plan.vectors,
        document=plan.document is not None,
        given=READING_KINDS[ENGINE_LAYOUT[need.key]].given,
    )
    documents: dict[str, dict[str, list[tuple[int, str]]]] = {}
    tokens = table.text(plan.candidate)
    for row in range(table.n_rows):
        doc = table.documents[int(table.document_codes[row])]
        group = table.groups[int(table.group_codes[row])]
        documents.setdefault(doc, {}).setdefault(group, []).append((row, tokens[row]))
    first = next(iter(documents)) if plan.document is not None else None
    try:
        result = compute_reading_result(table, ENGINE_LAYOUT[need.key], document=first)
        problems = DataProblems(warnings=tuple(result.warnings))
    except DataError as exc:
        problems = DataProblems(errors=(exc,))
    return ReadingContents(header.path, plan, table, header, others, documents, problems)


def describe_reading(contents: ReadingContents) -> list[str]:
    plan = contents.plan
    roles = {name: role for role, name in plan.columns().items()}
    roles |= dict.fromkeys(plan.vectors, "vector")
    roles |= {column: plan.need.reader_role for _, column in plan.readers}
    documents = contents.documents
    whole = plan.document is None
    amount = count(len(documents), "document") if not whole else ""
    if whole and plan.group is not None:
        amount = count(len(documents[""]), "group")
    lines = [
        f"{contents.path}: {count(contents.table.n_rows, 'row')}"
        + (f", {amount}" if amount else "")
        + f"; layout {plan.need.key}"
        + (f" (also fits {', '.join(contents.others)}: --layout)" if contents.others else ""),
        "columns: " + ", ".join(f"{n} ({roles.get(n, 'text')})" for n in contents.header.names),
        f"{ENGINE_LAYOUT[plan.need.key]}: "
        + ", ".join(name if name == col else f"{name} ({col})" for name, col in plan.readers),
    ]
    for doc, groups in documents.items():
        lines.append("")
        if not whole:
            lines.append(f"document {doc} ({count(sum(map(len, groups.values())), 'row')})")
        for group, members in groups.items():
            label = f"group {group}" if plan.group is not None else "lines"
            indent = "  " if not whole else ""
            size = "" if not whole else f" ({count(len(members), 'row')})"
            lines.append(f"{indent}{label}{size}: " + ", ".join(token for _, token in members))
    lines += [""] if contents.problems.errors or contents.problems.warnings else []
    lines += [f"error: {error}" for error in contents.problems.errors]
    lines += [f"warning: {warning}" for warning in contents.problems.warnings]
    what = "the whole file" if whole else "the first document"
    lines += ["", f"A block for {what} (csv: the path from the page to this file):", ""]
    return lines + reading_block(contents)


def reading_block(contents: ReadingContents) -> list[str]:
    """A ``selfattn`` block that builds as printed, and one inline value that reads it."""
    plan = contents.plan
    doc, groups = next(iter(contents.documents.items()))
    stem = Path(contents.path).stem
    if plan.document is not None and ID_PATTERN.match(doc):
        example_id = doc
    else:
        example_id = stem.replace("-", "_") if ID_PATTERN.match(stem) else "example"
    lines = ["```selfattn", f"id: {scalar(example_id)}", f"csv: {scalar(contents.path)}"]
    if plan.document is not None:
        lines.append(f"document: {scalar(doc)}")
    pairs = ", ".join(f"{role}: {scalar(name)}" for role, name in plan.block_columns().items())
    if pairs:
        lines.append("columns: {" + pairs + "}")
    readers = ", ".join(f"{scalar(name)}: {scalar(col)}" for name, col in plan.readers)
    lines.append(f"{plan.need.key}: {{{readers}}}")
    lines.append("vectors: [" + ", ".join(scalar(v) for v in plan.vectors) + "]")
    lines += ["show: [output, table, chart]", "```", ""]
    group, members = next(iter(groups.items()))
    row, token = members[0]
    if sum(1 for _, other in members if other == token) > 1:
        token = f"{token}@{row}"
    scoped = READING_KINDS[ENGINE_LAYOUT[plan.need.key]].always_grouped or len(groups) > 1
    args = [*([group] if scoped else []), plan.readers[0][0], token]
    lines.append(f"`{{selfattn}} {example_id} weight {' '.join(word(a) for a in args)}`")
    return lines
