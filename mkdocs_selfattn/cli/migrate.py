"""``mkdocs-selfattn migrate PAGE``: a hand-written example (script, pasted printout) made a block.

For each pair of fences (:mod:`migrate_pairs`) the script is run as a build runs it (guarded,
from the folder of ``mkdocs.yml``), its printout today is compared with the pasted one number by
number (:mod:`printout_numbers`), and the block is worked out and proved against the core
(:mod:`migrate_block`). The block keeps the script as a file (a block's ``script:`` names a
file, which the build runs and checks) and shows ``[code, output]``, so the page shows the same
code and, from then on, its real printout. A page is rewritten only with ``write``, atomically,
and only where a pair was proved; everything else stays byte for byte.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from mkdocs_selfattn.blocks.block_text import block_body, differs_when_read_back, fence
from mkdocs_selfattn.blocks.markdown_scan import find_blocks
from mkdocs_selfattn.cli.migrate_block import Match, infer_block, script_hints
from mkdocs_selfattn.cli.migrate_pairs import Pair, find_pairs
from mkdocs_selfattn.cli.printout_numbers import WordChange, compare
from mkdocs_selfattn.errors import ScriptError

OK, STALE, INPUT_ERROR = 0, 1, 2
"""Exit codes: nothing stale; some pasted (or script) number disagrees; a usage or input error."""


class MigrateError(Exception):
    """A page or project the command cannot read: one message, exit 2."""


@dataclass(frozen=True)
class Project:
    """Where the build would run a script, and the folder block paths start from."""

    root: Path
    docs: Path

    @classmethod
    def find(cls, page: Path, config_file: str | None) -> Project:
        config = Path(config_file) if config_file else _nearest_config(page)
        try:
            data = yaml.load(config.read_text(encoding="utf-8"), Loader=_AnyTagLoader)
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
            raise MigrateError(f"{config}: cannot read the MkDocs config ({exc})") from None
        docs_dir = data.get("docs_dir", "docs") if isinstance(data, dict) else "docs"
        root = config.resolve().parent
        return cls(root, (root / str(docs_dir)).resolve())


class _AnyTagLoader(yaml.SafeLoader):
    """mkdocs.yml's ``!!python/name:`` and ``!ENV`` tags read as nothing: only ``docs_dir`` is
    needed, and nothing in the config is ever executed."""


_AnyTagLoader.add_multi_constructor("", lambda loader, suffix, node: None)


def _nearest_config(page: Path) -> Path:
    for folder in page.resolve().parents:
        for name in ("mkdocs.yml", "mkdocs.yaml"):
            if (folder / name).is_file():
                return folder / name
    raise MigrateError(f"{page}: no mkdocs.yml in its folder or above; give one with -f")


@dataclass
class PageReport:
    """What one page holds, what changed in it, and every message about it."""

    display: str
    messages: list[str] = field(default_factory=list)
    blocks: list[str] = field(default_factory=list)
    """The proposed replacement of each pair proved, as the report shows it."""
    stale: int = 0
    disagreements: int = 0
    errors: int = 0
    written: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        if self.errors:
            return INPUT_ERROR
        return STALE if self.stale or self.disagreements else OK


@dataclass(frozen=True)
class Replacement:
    pair: Pair
    lines: list[str]
    """The page lines that take the pair's place (prose between the fences included)."""
    script_path: Path
    script: str


def migrate_page(
    page: Path,
    *,
    config_file: str | None = None,
    scripts_dir: str = "examples",
    timeout: float = 30.0,
    write: bool = False,
) -> PageReport:
    """Check (and with ``write`` rewrite) one page; raises :class:`MigrateError` for a page or
    project that cannot be read."""
    try:
        raw = page.read_bytes()
    except OSError as exc:
        raise MigrateError(f"{page}: cannot read the page ({exc.strerror or exc})") from None
    try:
        original = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise MigrateError(f"{page}:{line}: not UTF-8; save the page as UTF-8") from None
    project = Project.find(page, config_file)
    if not page.resolve().is_relative_to(project.docs):
        raise MigrateError(f"{page}: not inside the docs folder {project.docs}")
    report = PageReport(str(page))
    text = original.replace("\r\n", "\n")
    pairs = [p for p in find_pairs(text) if _reads_csv(p.script)]
    if not pairs:
        report.messages.append(
            f"{page}: left as it is: no python code block that reads a CSV, followed by its "
            "printout in a text code block"
        )
        return report
    names = _Names(page, project, scripts_dir, text)
    replacements = []
    for pair in pairs:
        found = _migrate_pair(pair, page, project, names, timeout, report)
        if found is not None:
            replacements.append(found)
    if write and replacements:
        _write(page, original, text, replacements, project, report)
    return report


def _reads_csv(script: str) -> bool:
    hints = script_hints(script)
    return hints is not None and bool(hints.csv_paths())


class _Names:
    """Free block ids and script file names, unique on the page and in the scripts folder."""

    def __init__(self, page: Path, project: Project, scripts_dir: str, text: str) -> None:
        stem = re.sub(r"[^\w-]", "_", page.name.removesuffix(".md"))
        self.stem = stem if re.match(r"[A-Za-z_]", stem) else f"example_{stem}"
        self.folder = project.docs / scripts_dir.strip("/")
        self.ids = {
            m[1].strip()
            for b in find_blocks(text)
            for m in re.finditer(r"^id:\s*(.+)$", b.body, re.MULTILINE)
        }
        self.taken: set[Path] = set()

    def next(self, script: str) -> tuple[str, Path]:
        for n in range(1, 1000):
            name = self.stem if n == 1 else f"{self.stem}-{n}"
            path = self.folder / f"{name}.py"
            free = not path.exists() or _holds(path, script)
            if name not in self.ids and path not in self.taken and free:
                self.ids.add(name)
                self.taken.add(path)
                return name, path
        raise MigrateError(f"{self.folder}: no free name for another example script")


def _holds(path: Path, text: str) -> bool:
    """``path`` is a file with exactly ``text`` (then it is the script's file already)."""
    try:
        return path.is_file() and path.read_bytes() == text.encode("utf-8")
    except OSError:
        return False


def _migrate_pair(
    pair: Pair, page: Path, project: Project, names: _Names, timeout: float, report: PageReport
) -> Replacement | None:
    from mkdocs_selfattn.build.scripts import run_script

    hints = script_hints(pair.script)
    assert hints is not None  # _reads_csv parsed it
    where = f"{page}:{pair.code_start}"
    with tempfile.TemporaryDirectory(prefix="selfattn-migrate-") as folder:
        trial = Path(folder) / f"{names.stem}.py"
        trial.write_text(pair.script, encoding="utf-8")
        try:
            output = run_script(
                trial, cwd=project.root, timeout=timeout, display="of this code block"
            ).stdout
        except ScriptError as exc:
            report.errors += 1
            report.messages.append(f"{where}: {exc}; fix it, then migrate")
            return None
    csv_path = _csv_of(hints.csv_paths(), project)
    if csv_path is None:
        report.messages.append(
            f"{where}: left as it is: the script names no CSV file that exists from the folder "
            f"of mkdocs.yml ({', '.join(hints.csv_paths())})"
        )
        return None
    if not csv_path.is_relative_to(project.root):
        report.messages.append(f"{where}: left as it is: its CSV {csv_path} is outside the project")
        return None
    inferred = infer_block(project.root, csv_path, _ref(csv_path, page, project), output, hints)
    match = inferred.exact or inferred.closest
    if match is None:
        report.messages.append(
            f"{where}: left as it is: its printout is not one the plugin computes from "
            f"{_ref(csv_path, page, project)} (no block of the three layouts prints it; a "
            "script printing its own format needs a block with 'template:', written by hand)"
        )
        return None
    pasted = compare(pair.pasted, output)
    if isinstance(pasted, WordChange):
        report.messages.append(
            f"{page}:{pair.out_start + 1 + pasted.line}: left as it is: the text block at line "
            f"{pair.out_start} is not this script's printout (pasted {_preview(pasted.old)}, "
            f"the script prints {_preview(pasted.new)})"
        )
        return None
    disagree = {(c.line, c.position): c for c in match.changes}
    said = {(c.line, c.position): c.old for c in pasted}
    for change in pasted:
        if (change.line, change.position) in disagree:
            continue  # the script is wrong there, said once below
        report.stale += 1
        report.messages.append(
            f"{page}:{pair.out_start + 1 + change.line}: stale number: the pasted printout says "
            f"{change.old}, the script prints {change.new} ({_nth(change.position)} number of "
            "the line)"
        )
    for (line, position), change in disagree.items():
        report.disagreements += 1
        pasted_text = said.get((line, position), change.old)
        report.messages.append(
            f"{page}:{pair.out_start + 1 + line}: the script prints {change.old} where the core "
            f"computes {change.new} ({_nth(position)} number of the line; pasted: "
            f"{pasted_text}); fix the script or its CSV, then migrate (a block with this script "
            "would fail the build)"
        )
    if inferred.exact is None:
        return None
    example_id, script_path = names.next(pair.script)
    script_ref = _ref(script_path, page, project)
    lines = _block_lines(match, example_id, script_ref, pair, page)
    report.blocks.append(
        f"{page}:{pair.code_start}-{pair.out_end}: {match.spec.layout} example, script kept as "
        f"{os.path.relpath(script_path, project.root)}\n" + "\n".join(lines)
    )
    return Replacement(pair, lines, script_path, pair.script)


def _csv_of(paths: list[str], project: Project) -> Path | None:
    """The first CSV the script names that exists where the script runs (the project folder)."""
    for raw in paths:
        candidate = (project.root / raw).resolve()
        if candidate.is_file():
            return candidate
    return None


def _ref(path: Path, page: Path, project: Project) -> str:
    """A block's path: ``/…`` from the docs folder, else relative to the page."""
    if path.is_relative_to(project.docs):
        return "/" + path.relative_to(project.docs).as_posix()
    return Path(os.path.relpath(path, page.resolve().parent)).as_posix()


def _preview(line: str | None) -> str:
    """A printout line, short enough for a one-line message."""
    if line is None:
        return "nothing more"
    return repr(line if len(line) <= 40 else line[:39] + "…")


def _nth(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _block_lines(
    match: Match, example_id: str, script_ref: str, pair: Pair, page: Path
) -> list[str]:
    """The fences that replace the pair: one block showing code and output, or, with prose
    between the script and its printout, a code block and an output block around the prose."""
    body = block_body(match.spec, example_id, script_ref)
    wrong = differs_when_read_back(body, match.spec)
    if wrong is not None:
        raise MigrateError(
            f"{page}:{pair.code_start}: the block written for this example would not read "
            f"back the same ({wrong}); please report this"
        )
    if not pair.prose_between:
        return fence([*body, "show: [code, output]"], pair.indent)
    use = fence([f"use: {example_id}", "show: [output]"], pair.indent)
    return [*fence([*body, "show: [code]"], pair.indent), *pair.gap, *use]


def _write(
    page: Path,
    original: str,
    text: str,
    replacements: list[Replacement],
    project: Project,
    report: PageReport,
) -> None:
    """Scripts first, then the page, each by a rename: a failure leaves the page as it was."""
    lines = text.split("\n")
    for item in sorted(replacements, key=lambda r: r.pair.code_start, reverse=True):
        lines[item.pair.code_start - 1 : item.pair.out_end] = item.lines
    result = "\n".join(lines)
    if "\r\n" in original:
        result = result.replace("\n", "\r\n")
    target = page
    try:
        for item in replacements:
            if not item.script_path.exists():
                target = item.script_path
                atomic_write(target, item.script.encode("utf-8"))
                report.written.append(os.path.relpath(target, project.root))
        target = page
        atomic_write(page, result.encode("utf-8"))
    except OSError as exc:
        report.errors += 1
        report.messages.append(
            f"{target}: cannot write it ({exc.strerror or exc}); {page} is unchanged"
        )
        return
    report.written.append(str(page))


def atomic_write(path: Path, data: bytes) -> None:
    """Write beside ``path`` and rename over it: readers see the old file or the new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def migrate_command(
    pages: list[str], *, config_file: str | None, scripts_dir: str, timeout: float, write: bool
) -> int:
    """Every page in turn: its messages, then its proposed blocks (or what was written)."""
    import sys

    code = OK
    for name in pages:
        try:
            report = migrate_page(
                Path(name),
                config_file=config_file,
                scripts_dir=scripts_dir,
                timeout=timeout,
                write=write,
            )
        except MigrateError as exc:
            print(f"mkdocs-selfattn: error: {exc}", file=sys.stderr)
            code = INPUT_ERROR
            continue
        for message in report.messages:
            print(message)
        if write:
            for path in report.written:
                print(f"wrote {path}")
        else:
            for proposed in report.blocks:
                print(f"\nproposed for {proposed}\n")
        if report.blocks:
            print(_summary(report, write))
        code = max(code, report.exit_code)
    return code


def _summary(report: PageReport, write: bool) -> str:
    done = "replaced" if write else "to replace (run with --write)"
    return (
        f"{report.display}: {_count(len(report.blocks), 'example')} {done}; "
        f"{_count(report.stale, 'stale number')}, "
        f"{_count(report.disagreements, 'number')} where the script and the core disagree"
    )


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
