"""The block that computes what an example script prints: proposed from the script, proved by
the core.

A hand-written chapter script names its CSV, document, targets, labels and groups in constants
whose names vary from one author to the next (``DATA_PATH`` or ``CSV_FILE``, ``TARGET_TOKENS`` or
``CURRENT_TOKENS``), and some values sit inline (``in {"절연캡", "씌우지"}``). Reading those
names would break on the next script. Instead, three sources propose candidate blocks: the
script's printout (the question labels, head and axis names, group names, row counts it prints),
the CSV (which column holds which printed word) and every string literal of the script (lists,
sets and dicts of strings are only hints). The core then computes each candidate's printout with
the layout's default template, and a candidate counts only if it prints the script's output
character for character: a wrong guess can never become a block with wrong numbers. When no
candidate matches exactly, the one whose printout has the script's words and differs only in
numbers is kept, so the caller can say which numbers the script and the core disagree on.
"""

from __future__ import annotations

import ast
import csv
import itertools
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from mkdocs_selfattn.blocks.spec import ExampleSpec
from mkdocs_selfattn.build.example import ResolvedFile
from mkdocs_selfattn.cli.printout_numbers import NUMBER, NumberChange, compare
from mkdocs_selfattn.core.column_map import ColumnMap
from mkdocs_selfattn.core.reading_table import DEFAULT_COLUMNS
from mkdocs_selfattn.errors import SelfAttnError

MAX_CANDIDATES = 2000
"""Candidate blocks computed at most for one script (each costs one small core run)."""


@dataclass(frozen=True)
class ScriptHints:
    """The string literals of a script, as candidates for a block's keys."""

    strings: tuple[str, ...] = ()
    sequences: tuple[tuple[str, ...], ...] = ()
    """Lists, tuples and sets of strings, in the order written."""
    mappings: tuple[tuple[tuple[str, str], ...], ...] = ()
    """Dicts of strings to strings, and sequences of (string, string) pairs."""
    axes: tuple[tuple[tuple[str, tuple[str, ...]], ...], ...] = ()
    """Dicts of strings to sequences of strings."""

    def csv_paths(self) -> list[str]:
        return list(dict.fromkeys(s for s in self.strings if s.lower().endswith(".csv")))


def script_hints(source: str) -> ScriptHints | None:
    """The literals of ``source``; None when it is not Python this interpreter can parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    strings: list[str] = []
    sequences: list[tuple[str, ...]] = []
    mappings: list[tuple[tuple[str, str], ...]] = []
    axes: list[tuple[tuple[str, tuple[str, ...]], ...]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            strings.append(node.value)
        elif isinstance(node, ast.List | ast.Tuple | ast.Set):
            items = _strings(node.elts)
            if items:
                sequences.append(items)
            pairs = [_strings(e.elts) for e in node.elts if isinstance(e, ast.List | ast.Tuple)]
            if node.elts and len(pairs) == len(node.elts) and all(len(p) == 2 for p in pairs):
                mappings.append(tuple((p[0], p[1]) for p in pairs))
        elif isinstance(node, ast.Dict) and node.keys:
            keys = _strings([k for k in node.keys if k is not None])
            if len(keys) != len(node.keys):
                continue
            values = _strings(node.values)
            if values:
                mappings.append(tuple(zip(keys, values, strict=True)))
                continue
            lists = [_strings(v.elts) for v in node.values if isinstance(v, ast.List | ast.Tuple)]
            if len(lists) == len(keys) and all(lists):
                axes.append(tuple(zip(keys, lists, strict=True)))
    return ScriptHints(tuple(strings), tuple(sequences), tuple(mappings), tuple(axes))


def _strings(nodes: Sequence[ast.expr | None]) -> tuple[str, ...]:
    """The strings of ``nodes`` when every one is a string literal, else ()."""
    found = [n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    return tuple(found) if found and len(found) == len(nodes) else ()


@dataclass(frozen=True)
class CsvText:
    """The CSV as plain text: which words sit in which column, to propose column roles."""

    header: tuple[str, ...]
    rows: tuple[Mapping[str, str], ...]
    numeric: tuple[str, ...] = field(init=False)
    text: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        numeric = tuple(c for c in self.header if all(_is_number(r[c]) for r in self.rows))
        object.__setattr__(self, "numeric", numeric)
        object.__setattr__(self, "text", tuple(c for c in self.header if c not in numeric))

    def values(self, column: str, rows: Iterable[Mapping[str, str]] | None = None) -> list[str]:
        """The column's cells in file order, each once."""
        return list(dict.fromkeys(r[column] for r in (self.rows if rows is None else rows)))


def read_csv_text(path: Path) -> CsvText | None:
    """None when the file is no CSV this could read (the core then says nothing either: the
    pair is left alone)."""
    try:
        with path.open(encoding="utf-8-sig", newline="") as handle:
            reader = csv.DictReader(handle)
            rows = tuple({k: (v or "") for k, v in row.items() if k is not None} for row in reader)
            header = tuple(reader.fieldnames or ())
    except (OSError, UnicodeDecodeError, csv.Error):
        return None
    if not header or not rows:
        return None
    return CsvText(header, rows)


def _is_number(text: str) -> bool:
    return NUMBER.fullmatch(text.strip()) is not None


@dataclass(frozen=True)
class Match:
    """A candidate block and what the core prints for it."""

    spec: ExampleSpec
    printout: str
    changes: tuple[NumberChange, ...] = ()
    """Where the script's printout and the core's differ (empty: an exact match)."""


@dataclass(frozen=True)
class Inference:
    exact: Match | None
    closest: Match | None
    """With the script's words, other numbers: the script and the core disagree."""
    tried: int


class _Files:
    """The CSV at its real place; messages name it as the block will."""

    def __init__(self, root: Path, csv_path: Path, display: str) -> None:
        self.project_root = root
        self._file = ResolvedFile(path=csv_path, display=display, link=display)

    def resolve(self, raw: str, key: str, line: int) -> ResolvedFile:
        return self._file


def infer_block(
    root: Path, csv_path: Path, csv_ref: str, output: str, hints: ScriptHints
) -> Inference:
    """The candidate block whose default printout is ``output`` (see the module's docstring);
    ``csv_ref`` is the block's ``csv:`` value."""
    from mkdocs_selfattn.build.cache import Cache
    from mkdocs_selfattn.build.pipeline import Pipeline
    from mkdocs_selfattn.build.settings import Settings

    table = read_csv_text(csv_path)
    if table is None:
        return Inference(None, None, 0)
    pipeline = Pipeline(Settings(scripts=False, mermaid=None), Cache(None))
    files = _Files(root, csv_path, csv_ref)
    lines = output.split("\n")
    closest: Match | None = None
    tried = 0
    for spec in itertools.islice(_candidates(csv_ref, table, lines, hints), MAX_CANDIDATES):
        tried += 1
        try:
            printout = pipeline.load(spec, files).printout
        except SelfAttnError:
            continue
        if printout == output:
            return Inference(Match(spec, printout), None, tried)
        changes = compare(output, printout)
        if isinstance(changes, list) and (closest is None or len(changes) < len(closest.changes)):
            closest = Match(spec, printout, tuple(changes))
    return Inference(None, closest, tried)


def _candidates(
    csv_ref: str, table: CsvText, lines: list[str], hints: ScriptHints
) -> Iterator[ExampleSpec]:
    yield from _target_specs(csv_ref, table, lines, hints)
    yield from _question_specs(csv_ref, table, lines, hints)
    yield from _head_specs(csv_ref, table, lines, hints)


def _spec(csv_ref: str, **keys: object) -> ExampleSpec:
    frozen = {k: MappingProxyType(dict(v)) if isinstance(v, dict) else v for k, v in keys.items()}
    return ExampleSpec(id=None, line=1, csv=csv_ref, **frozen)  # type: ignore[arg-type]


def _printed(lines: list[str], pattern: str) -> list[str]:
    """The first group of ``pattern`` on every line it matches, each once, in order."""
    compiled = re.compile(pattern)
    return list(dict.fromkeys(m[1] for line in lines if (m := compiled.match(line))))


def _count(lines: list[str], name: str) -> int | None:
    found = _printed(lines, rf"^{re.escape(name)} = (\d+)$")
    return int(found[0]) if len(found) == 1 else None


def _subsets(hints: ScriptHints, allowed: Iterable[str]) -> list[tuple[str, ...]]:
    """The script's string sequences made only of ``allowed`` words, each once."""
    pool = set(allowed)
    return list(
        dict.fromkeys(s for s in hints.sequences if set(s) <= pool and len(set(s)) == len(s))
    )


def _readers(hints: ScriptHints, names: list[str], columns: Sequence[str]) -> list[dict[str, str]]:
    """``queries:``/``heads:`` for the printed ``names``: the script's own name → column pairs
    when it has them, else every way of giving each name one of the numeric ``columns``."""
    found = []
    for pairs in hints.mappings:
        mapping = dict(pairs)
        if all(mapping.get(n) in columns for n in names):
            found.append({n: mapping[n] for n in names})
    if found:
        return found
    return [
        dict(zip(names, cols, strict=True)) for cols in itertools.permutations(columns, len(names))
    ]


def _columns_holding(
    table: CsvText, words: Iterable[str], rows: Sequence[Mapping[str, str]]
) -> list[str]:
    wanted = set(words)
    return [c for c in table.text if wanted <= set(table.values(c, rows))]


def _target_specs(
    csv_ref: str, table: CsvText, lines: list[str], hints: ScriptHints
) -> Iterator[ExampleSpec]:
    """The targets layout: per target, every candidate with its weight (the CSV's own column
    names: a script that renames them is written by hand)."""
    names = ColumnMap()
    if not _printed(lines, r"^target_token = (.*)$") or not {
        names.document,
        names.target,
        names.candidate,
        names.score,
    } <= set(table.header):
        return
    documents = table.values(names.document)
    rows_printed = _count(lines, "focus_document_rows")
    named = [d for d in documents if d in hints.strings] or documents
    for document in named:
        rows = [r for r in table.rows if r[names.document] == document]
        if rows_printed is not None and len(rows) != rows_printed:
            continue
        targets = table.values(names.target, rows)
        candidates = table.values(names.candidate, rows)
        excluded = {names.score, names.target_index, names.candidate_index}
        vector_columns = [c for c in table.numeric if c not in excluded]
        display: dict[str, str] = {}
        for pairs in hints.mappings:
            if all(k in targets or k in candidates for k, _ in pairs):
                display |= dict(pairs)
        group_names = _printed(lines, r"^(\S+)_weight = ")
        members = _subsets(hints, candidates)
        groups = [
            dict(zip(group_names, chosen, strict=True))
            for chosen in itertools.permutations(members, len(group_names))
        ]
        for chosen_targets, vectors, labels, chosen_groups in itertools.product(
            # The script's own lists first: the block then names what the script names.
            [*_subsets(hints, targets), None],
            [*_subsets(hints, vector_columns), None],
            [{}, display] if display else [{}],
            groups,
        ):
            yield _spec(
                csv_ref,
                document=document,
                targets=chosen_targets,
                vectors=vectors,
                display=labels,
                groups=chosen_groups,
            )


def _reading_columns(role: str, column: str | None) -> dict[str, str]:
    """``columns:`` entries only where the file does not use the default name."""
    if column is None or DEFAULT_COLUMNS.get(role) == column:
        return {}
    return {role: column}


def _question_specs(
    csv_ref: str, table: CsvText, lines: list[str], hints: ScriptHints
) -> Iterator[ExampleSpec]:
    """The questions layout: per question its context and top lines, over the whole file (or over
    one document the script names)."""
    labels = _printed(lines, r"^question = (.*)$")
    if not labels:
        return
    tops = [m[1] for line in lines if (m := re.match(r"^(.+?) weight = \S+ signal = ", line))]
    if not tops:
        return
    per_question = len(tops) // len([x for x in lines if x.startswith("question = ")])
    tokens = [t.split(" ", 1)[0] for t in tops]
    roles = [t.split(" ", 1)[1] for t in tops if " " in t]
    group_names = _printed(lines, r"^\[(.+)\]$")
    documents: list[tuple[str | None, str | None]] = [(None, None)]
    for column in table.text:
        documents += [(column, d) for d in table.values(column) if d in hints.strings]
    for (doc_column, document), candidate, role, group in itertools.product(
        documents,
        _columns_holding(table, tokens, table.rows),
        _columns_holding(table, roles, table.rows) if len(roles) == len(tops) else [None],
        _columns_holding(table, group_names, table.rows) if group_names else [None],
    ):
        columns = (
            _reading_columns("document", doc_column)
            | _reading_columns("candidate", candidate)
            | _reading_columns("role", role)
            | ({"group": group} if group else {})
        )
        for queries in _readers(hints, labels, table.numeric):
            rest = [c for c in table.numeric if c not in queries.values()]
            for vectors in [None, *((c,) for c in rest), *_subsets(hints, rest)]:
                yield _spec(
                    csv_ref,
                    document=document,
                    queries=queries,
                    columns=columns,
                    vectors=vectors,
                    top=per_question,
                )


def _head_specs(
    csv_ref: str, table: CsvText, lines: list[str], hints: ScriptHints
) -> Iterator[ExampleSpec]:
    """The heads layout: per group each head's context over given weights, on named axes."""
    heads = _printed(lines, r"^(\S+)_context\s*= \[")
    axis_line = _printed(lines, r"^context_axes = (\[.*\])$")
    if not heads or len(axis_line) != 1:
        return
    try:
        axis_names = ast.literal_eval(axis_line[0])
    except (ValueError, SyntaxError):
        return
    if not isinstance(axis_names, list) or not all(isinstance(a, str) for a in axis_names):
        return
    rows_printed = _count(lines, "focus_report_rows")
    documents: list[tuple[str | None, str | None]] = []
    for column in table.text:
        for value in table.values(column):
            count = sum(1 for r in table.rows if r[column] == value)
            if count == rows_printed:
                documents.append((column, value))
    documents.sort(key=lambda d: d[1] not in hints.strings)
    if rows_printed is None:
        documents = [(None, None)]
    group_names = _printed(lines, r"^\[(.+)\]$")
    tokens: list[str] = []
    for printed in _printed(lines, r"^tokens = (\[.*\])$"):
        try:
            value = ast.literal_eval(printed)
        except (ValueError, SyntaxError):
            return
        tokens += [str(t) for t in value] if isinstance(value, list) else []
    axes_options: list[dict[str, tuple[str, ...]] | None] = [
        {name: tuple(cols) for name, cols in found}
        for found in hints.axes
        if [name for name, _ in found] == axis_names
        and all(set(cols) <= set(table.numeric) for _, cols in found)
    ]
    if set(axis_names) <= set(table.numeric):
        axes_options.append(None)
    for doc_column, document in documents:
        rows = [r for r in table.rows if doc_column is None or r[doc_column] == document]
        for candidate, group in itertools.product(
            _columns_holding(table, tokens, rows),
            _columns_holding(table, group_names, rows) if group_names else [None],
        ):
            columns = (
                _reading_columns("document", doc_column)
                | _reading_columns("candidate", candidate)
                | ({"group": group} if group else {})
            )
            for weights, axes, normalise in itertools.product(
                _readers(hints, heads, table.numeric), axes_options, (False, True)
            ):
                yield _spec(
                    csv_ref,
                    document=document,
                    heads=weights,
                    columns=columns,
                    axes=axes,
                    vectors=None if axes is not None else tuple(axis_names),
                    normalise=normalise,
                )
