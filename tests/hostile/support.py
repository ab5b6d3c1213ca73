"""Helpers for the hostile-input suite: throw-away MkDocs projects built by the real command line.

A :class:`Project` is a folder with ``mkdocs.yml`` (material theme, admonition, superfences with
the mermaid fence, content tabs, plugins ``search`` and ``selfattn``), pages in ``docs/`` and data
files. Builds run ``python -m mkdocs build [--strict] -f … -d …`` in a subprocess of their own
session, so a build that hangs can be killed with everything it started, and under an address-space
limit, so a build that balloons dies instead of taking the machine with it.

The HTML of built pages is read with :mod:`html.parser` into a small tree (:class:`Node`), so tests
ask "is there an ``<img>`` element?" rather than searching for substrings.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from html_tree import Node, parse_html

# ---------------------------------------------------------------------------------------------
# Data

GOOD_CSV = """\
document_id,target_token,candidate_token,candidate_role,evidence_pack,evidence_cap,evidence_action,score
memo_cap_missing,그것,배터리팩,equipment,0.9,0.1,0.0,0.2
memo_cap_missing,그것,분리,prior_action,0.8,0.2,0.4,0.7
memo_cap_missing,그것,절연캡,missing_object,0.1,0.95,0.2,2.4
memo_cap_missing,그것,씌우지,missing_action,0.0,0.7,0.9,1.7
memo_cap_missing,그것,그것,current_token,0.3,0.3,0.3,0.8
memo_cap_missing,그것,위험,risk_question,0.2,0.6,0.7,1.3
memo_cap_missing,씌우지,배터리팩,equipment,0.9,0.1,0.0,0.4
memo_cap_missing,씌우지,분리,prior_action,0.8,0.2,0.4,1.7
memo_cap_missing,씌우지,절연캡,missing_object,0.1,0.95,0.2,2.1
memo_cap_missing,씌우지,씌우지,current_action,0.0,0.7,0.9,1.4
memo_cap_missing,씌우지,그것,other_reference,0.3,0.3,0.3,0.2
memo_cap_missing,씌우지,위험,risk_question,0.2,0.6,0.7,0.6
memo_pressure_hold,그것,펌프,pump_equipment,0.7,0.0,0.2,0.3
memo_pressure_hold,그것,정지,prior_action,0.6,0.1,0.5,0.8
memo_pressure_hold,그것,압력,pressure_signal,0.2,0.1,0.8,2.5
memo_pressure_hold,그것,불안정,risk_state,0.1,0.2,0.9,2.2
memo_pressure_hold,그것,그것,current_token,0.3,0.3,0.3,0.7
memo_pressure_hold,그것,재기동,restart_decision,0.5,0.1,0.6,1.5
"""
"""A small course CSV: ``memo_cap_missing`` (targets 그것, 씌우지) and ``memo_pressure_hold``."""

ASCII_NAMES = {
    "그것": "it",
    "씌우지": "not_applied",
    "절연캡": "cap",
    "배터리팩": "pack",
    "분리": "detach",
    "위험": "risk",
    "펌프": "pump",
    "정지": "stop",
    "압력": "pressure",
    "불안정": "unstable",
    "재기동": "restart",
}


def ascii_csv() -> str:
    """GOOD_CSV with Latin tokens, for charts on machines without a Hangul font."""
    text = GOOD_CSV
    for korean, latin in sorted(ASCII_NAMES.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(korean, latin)
    return text


GOOD_CSV_PATH = "docs/data/good.csv"

MERMAID_FENCE = """\
  - pymdownx.superfences:
      custom_fences:
        - name: mermaid
          class: mermaid
          format: !!python/name:pymdownx.superfences.fence_code_format
"""

BUILD_TIMEOUT = 240.0
MEMORY_LIMIT = 6 * 1024**3
"""Address-space limit of every build: generous (pyarrow reserves ~2 GiB of it), but finite."""


def good_block(
    example_id: str = "good",
    *,
    csv: str = "/data/good.csv",
    document: str = "memo_cap_missing",
    targets: str = "[그것]",
    show: str = "[table]",
    extra: str = "",
) -> str:
    """A block that builds: the course example, one target, shown as a table."""
    lines = [
        "```selfattn",
        f"id: {example_id}",
        f"csv: {csv}",
        f"document: {document}",
        f"targets: {targets}",
        *[line for line in textwrap.dedent(extra).strip("\n").split("\n") if line],
        f"show: {show}",
        "```",
    ]
    return "\n".join(lines) + "\n"


def block(body: str, *, fence: str = "```", info: str = "selfattn") -> str:
    """A ``selfattn`` fence around ``body`` (dedented)."""
    return f"{fence}{info}\n{textwrap.dedent(body).strip(chr(10))}\n{fence}\n"


def yaml_str(text: str) -> str:
    """A YAML double-quoted scalar holding ``text`` exactly (JSON strings are YAML)."""
    return json.dumps(text, ensure_ascii=False)


def slot_token(src_uri: str, number: int = 0) -> str:
    """The placeholder the plugin uses for the ``number``-th stored HTML piece of a page."""
    return f"SELFATTNSLOT{hashlib.sha1(src_uri.encode()).hexdigest()[:10]}N{number}X"


# ---------------------------------------------------------------------------------------------
# Running commands


@dataclass
class Finished:
    """A finished (or killed) command: exit status, output, wall time and peak memory."""

    command: list[str]
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    maxrss_kib: int
    timed_out: bool

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


_LAUNCHER = r"""
import os, resource, signal, subprocess, sys
limit, report, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
if limit:
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
child = subprocess.Popen(command)
def forward(signum, frame):
    child.send_signal(signum)
for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(signum, forward)
while True:
    try:
        _, status, usage = os.wait4(child.pid, 0)
        break
    except InterruptedError:
        continue
with open(report, "w") as handle:
    handle.write(str(usage.ru_maxrss))
code = os.waitstatus_to_exitcode(status)
if code < 0:
    signal.signal(-code, signal.SIG_DFL)
    os.kill(os.getpid(), -code)
sys.exit(code)
"""
"""Starts the command and reports the peak memory of it and its children. A process started
straight from pytest inherits pytest's own peak (the kernel keeps a process's high-water mark
across fork and exec, vfork included), so after a few hundred tests a healthy build would
"reach" the size pytest had grown to; started from this small launcher, it starts from the
launcher's. Signals that stop a build are passed on, and the command's exit (or the signal that
ended it) is the launcher's."""


class Running:
    """A command started in its own session; ``wait`` kills the whole group at the deadline."""

    def __init__(
        self,
        command: list[str],
        *,
        cwd: Path,
        timeout: float,
        env: Mapping[str, str] | None = None,
        memory_limit: int | None = MEMORY_LIMIT,
    ) -> None:
        self.command = command
        self.timeout = timeout
        self._out = tempfile.TemporaryFile()  # noqa: SIM115 - read and closed in wait()
        self._err = tempfile.TemporaryFile()  # noqa: SIM115 - read and closed in wait()
        report = tempfile.NamedTemporaryFile(delete=False, suffix=".maxrss")  # noqa: SIM115
        report.close()
        self._report = Path(report.name)
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, "-c", _LAUNCHER, str(memory_limit or 0), str(self._report), *command],
            cwd=cwd,
            env=dict(env if env is not None else build_env()),
            stdin=subprocess.DEVNULL,
            stdout=self._out,
            stderr=self._err,
            start_new_session=True,
        )

    @property
    def pid(self) -> int:
        return self.process.pid

    def wait(self) -> Finished:
        deadline = self.started + self.timeout
        timed_out = False
        status = rusage = None
        while True:
            pid, status, rusage = os.wait4(self.process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                timed_out = True
                kill_group(self.process.pid)
                _, status, rusage = os.wait4(self.process.pid, 0)
                break
            time.sleep(0.05)
        seconds = time.monotonic() - self.started
        self.process.returncode = os.waitstatus_to_exitcode(status)
        if timed_out:
            # Whatever the build left running in its session goes too (scripts, chart workers).
            kill_group(self.process.pid)
        stdout, stderr = self._read(self._out), self._read(self._err)
        return Finished(
            self.command,
            self.process.returncode,
            stdout,
            stderr,
            seconds,
            self._peak(rusage),
            timed_out,
        )

    def _peak(self, rusage: Any) -> int:
        """The command's peak (KiB) as the launcher measured it; killed before it could say,
        the launcher's own, which is at least as high."""
        try:
            reported = self._report.read_text()
        finally:
            self._report.unlink(missing_ok=True)
        if reported:
            return int(reported)
        return int(rusage.ru_maxrss) if rusage is not None else 0

    @staticmethod
    def _read(handle: Any) -> str:
        handle.seek(0)
        data = handle.read()
        handle.close()
        return data.decode("utf-8", "replace")


def kill_group(pgid: int) -> None:
    """SIGKILL the process group ``pgid`` (a session this suite started), if it still exists."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def build_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "COV_"))}
    env["NO_MKDOCS_2_WARNING"] = "1"
    env["NO_COLOR"] = "1"
    env["PYTHONIOENCODING"] = "utf-8"
    env.pop("PYTHONWARNINGS", None)
    return env


# ---------------------------------------------------------------------------------------------
# Build logs

_LEVEL = re.compile(r"^(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\s+-\s")
_PROBLEM = re.compile(
    r"^(?:(?P<level>WARNING|ERROR)\s+-\s+)?(?P<page>[^\s:]+\.md)(?::(?P<line>\d+))?: selfattn: "
    r"(?P<message>.*)$"
)


@dataclass(frozen=True)
class Problem:
    """One ``docs/PAGE.md:LINE: selfattn: message`` report from a build log."""

    page: str
    line: int | None
    message: str


def problems(log: str) -> list[Problem]:
    """Every located selfattn report in ``log``; continuation lines join their message."""
    found: list[Problem] = []
    current: dict[str, Any] | None = None
    for raw in log.splitlines():
        match = _PROBLEM.match(raw.strip())
        if match:
            if current:
                found.append(Problem(**current))
            current = {
                "page": match["page"],
                "line": int(match["line"]) if match["line"] else None,
                "message": match["message"],
            }
        elif current is not None and raw and not _LEVEL.match(raw) and not raw.startswith("Abort"):
            current["message"] += "\n" + raw
        elif current is not None:
            found.append(Problem(**current))
            current = None
    if current:
        found.append(Problem(**current))
    return found


# ---------------------------------------------------------------------------------------------
# Projects


@dataclass
class Project:
    """A throw-away MkDocs project rooted at ``root`` (the folder of mkdocs.yml)."""

    root: Path
    options: dict[str, Any] = field(default_factory=dict)

    # -- writing -------------------------------------------------------------------------------

    def write(self, relative: str, content: str | bytes) -> Path:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", newline="")
        return path

    def page(self, name: str, text: str) -> Path:
        return self.write(f"docs/{name}", text)

    def configure(self, name: str = "mkdocs.yml", **options: Any) -> Path:
        """Write a config file; ``options`` are the selfattn options (merged over the defaults)."""
        merged = {**self.options, **options}
        plugin = "  - selfattn: " + json.dumps(merged, ensure_ascii=False) + "\n"
        return self.write(
            name,
            "site_name: hostile input\n"
            "docs_dir: docs\n"
            "theme:\n  name: material\n"
            "markdown_extensions:\n"
            "  - admonition\n" + MERMAID_FENCE + "  - pymdownx.tabbed:\n"
            "      alternate_style: true\n"
            "  - tables\n"
            "plugins:\n  - search\n" + plugin,
        )

    # -- building ------------------------------------------------------------------------------

    def command(self, *, strict: bool, site: str = "site", config: str = "mkdocs.yml") -> list[str]:
        command = [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "-f",
            str(self.root / config),
            "-d",
            str(self.root / site),
        ]
        if strict:
            command.append("--strict")
        return command

    def start(
        self,
        *,
        strict: bool = False,
        site: str = "site",
        config: str = "mkdocs.yml",
        timeout: float = BUILD_TIMEOUT,
    ) -> Running:
        return Running(
            self.command(strict=strict, site=site, config=config), cwd=self.root, timeout=timeout
        )

    def build(
        self,
        *,
        strict: bool = False,
        site: str = "site",
        config: str = "mkdocs.yml",
        timeout: float = BUILD_TIMEOUT,
    ) -> Build:
        finished = self.start(strict=strict, site=site, config=config, timeout=timeout).wait()
        return Build(self, self.root / site, finished)


@dataclass
class Build:
    project: Project
    site: Path
    run: Finished

    @property
    def returncode(self) -> int:
        return self.run.returncode

    @property
    def log(self) -> str:
        return self.run.output

    def problems(self) -> list[Problem]:
        return problems(self.log)

    def html_path(self, page: str) -> Path:
        stem = page.removesuffix(".md")
        if stem == "index":
            return self.site / "index.html"
        return self.site / stem / "index.html"

    def html(self, page: str) -> str:
        return self.html_path(page).read_text(encoding="utf-8")

    def tree(self, page: str) -> Node:
        return parse_html(self.html(page))

    def article(self, page: str) -> Node:
        articles = self.tree(page).find_all("article")
        assert len(articles) == 1, f"expected one <article> in {page}, found {len(articles)}"
        return articles[0]

    def describe(self) -> str:
        tail = "\n".join(self.log.splitlines()[-25:])
        return f"exit {self.returncode} after {self.run.seconds:.1f} s; log tail:\n{tail}"


# ---------------------------------------------------------------------------------------------
# Checks shared by the suites


def partial_files(project: Project, site: Path) -> list[str]:
    """Leftovers of interrupted writes: ``.tmp-*`` anywhere, HTML pages cut short."""
    found = [
        str(p.relative_to(project.root))
        for p in project.root.rglob("*")
        if p.name.startswith(".tmp") or p.name.endswith((".tmp", ".part"))
    ]
    if site.is_dir():
        for page in site.rglob("*.html"):
            text = page.read_text(encoding="utf-8", errors="replace").rstrip()
            if not text.endswith("</html>"):
                found.append(f"{page.relative_to(project.root)} (truncated HTML)")
    return found


def files_containing(folders: list[Path], needles: list[str]) -> list[str]:
    """``file: needle`` for each file under ``folders`` that contains one of ``needles``."""
    hits: list[str] = []
    encoded = [(n, n.encode()) for n in needles]
    for folder in folders:
        if not folder.exists():
            continue
        paths = [folder] if folder.is_file() else sorted(folder.rglob("*"))
        for path in paths:
            if path.is_symlink() or not path.is_file():
                continue
            data = path.read_bytes()
            hits += [f"{path}: {text!r}" for text, raw in encoded if raw in data]
    return hits


_ACTIVE_TAGS = frozenset(
    {
        "script",
        "img",
        "iframe",
        "object",
        "embed",
        "form",
        "input",
        "link",
        "meta",
        "base",
        "frame",
        "frameset",
        "audio",
        "video",
        "source",
        "foreignobject",
        "animate",
        "set",
    }
)


_OWN_ASSETS = (
    "assets/stylesheets/selfattn.css",
    "assets/stylesheets/selfattn-try.css",
    "assets/javascripts/selfattn/selfattn-try.js",
)
_MERMAID_LOADER = "(function(src){var m=window.mermaid;"


def _own_asset(node: Node) -> bool:
    """A tag the plugin puts in the content for the assets the page uses (so that Material's
    instant navigation finds them): marked, and naming one of the plugin's published files or
    being its mermaid loader. Data cannot reach these: any other active element still counts."""
    if "data-selfattn-asset" not in node.attrs:
        return False
    if node.tag == "link":
        href = node.attrs.get("href") or ""
        return node.attrs.get("rel") == "stylesheet" and href.endswith(_OWN_ASSETS)
    if node.tag == "script":
        src = node.attrs.get("src")
        if src is not None:
            return src.endswith(_OWN_ASSETS) and not node.text().strip()
        return node.text().startswith(_MERMAID_LOADER)
    return False


def injected_markup(article: Node, document: Node | None = None) -> list[str]:
    """Elements and attributes in a page that only data could have put there.

    Inside ``article``: no active elements (our pages have none of their own) and no
    ``javascript:`` links; in the whole ``document``: no ``on*`` event attributes.
    """
    found: list[str] = []
    for node in article.iter():
        if node.tag in _ACTIVE_TAGS and not _own_asset(node):
            found.append(f"<{node.tag} {node.attrs}>")
        for name, value in node.attrs.items():
            if name.startswith("on"):
                found.append(f"<{node.tag}> has event attribute {name}={value!r}")
            if name in ("href", "src", "xlink:href", "action") and value.strip().lower().startswith(
                ("javascript:", "data:text/html")
            ):
                found.append(f"<{node.tag} {name}={value!r}>")
        if node.tag == "style" and not node.inside("svg"):
            found.append("<style> outside the chart SVG")
    if document is not None:
        for node in document.iter():
            for name in node.attrs:
                if name.startswith("on"):
                    found.append(f"<{node.tag}> has event attribute {name}")
    return found


def normalize(text: str) -> str:
    """Whitespace runs (spaces, newlines, tabs, CR, NBSP not included) become one space."""
    return " ".join(re.split(r"[ \t\r\n\f\v]+", text)).strip()


# ---------------------------------------------------------------------------------------------
# The HTML tree: tests/html_tree.py


# ---------------------------------------------------------------------------------------------
# Mermaid source as a reader's browser gets it

_NODE_LINE = re.compile(
    r'^  (?:(?P<src>[a-z]+\d*) (?:-->|-\.-) )?(?P<id>[a-z]+\d*)\["(?P<label>[^"]*)"\]$'
)
_PLAIN_LINES = (
    # The diagram's own settings (front matter), written by the plugin, never from data.
    re.compile(r"^---$"),
    re.compile(r"^config:$"),
    re.compile(r"^  flowchart:$"),
    re.compile(r"^    [a-zA-Z]+: \d+$"),
    re.compile(r"^flowchart TD$"),
    # The accessible title and description: one line, no markup, no directive.
    re.compile(r"^  acc(?:Title|Descr): [^<>{}\n]*$"),
    re.compile(r"^  [a-z]+\d* (?:-->|-\.-) [a-z]+\d*$"),
    re.compile(r"^  classDef \w+ [\w:#,.-]+$"),
    re.compile(r"^  class [a-z0-9,]+ \w+$"),
)
_ENTITY = re.compile(r"#(\d+);")


@dataclass(frozen=True)
class MermaidDiagram:
    labels: list[str]
    """Labels decoded as mermaid shows them (``#NN;`` → character, ``<br/>`` → newline)."""
    broken_lines: list[str]
    """Lines that are neither a well-quoted node nor a known statement."""


def read_mermaid(source: str) -> MermaidDiagram:
    """Check every line of a flowchart and decode its labels.

    A node line must be ``ID["…"]`` (optionally ``SRC --> ID["…"]``) with no ``"`` inside the
    label: an unescaped quote would end the label early and the rest would be read as syntax.
    """
    labels: list[str] = []
    broken: list[str] = []
    for line in source.rstrip("\n").split("\n"):
        match = _NODE_LINE.match(line)
        if match:
            parts = match["label"].split("<br/>")
            labels.append("\n".join(_ENTITY.sub(lambda m: chr(int(m[1])), p) for p in parts))
        elif not any(p.match(line) for p in _PLAIN_LINES):
            broken.append(line)
    return MermaidDiagram(labels, broken)


# ---------------------------------------------------------------------------------------------
# Error cases: one bad spot on one page of a three-page site


@dataclass(frozen=True)
class ErrorCase:
    """A page chunk that must fail visibly, precisely and alone.

    ``chunk`` goes into ``docs/bad.md``; the expected line is the line of ``chunk`` that holds
    ``at`` (``"#HERE"`` markers are YAML comments, so they can sit on any block line), or, with
    ``at=None``, any line from the chunk's first to its last.
    """

    id: str
    chunk: str
    message: str
    """A regular expression the error message must match (searched, case-sensitive)."""
    at: str | None = "#HERE"
    files: Mapping[str, str | bytes] = field(default_factory=dict)
    setup: Callable[[Project], None] | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    forbidden: tuple[str, ...] = ()
    """Text that must not reach any built file or the build log (e.g. a line of /etc/passwd)."""
    after: bool = True
    """Whether a good block after the chunk must still render."""
    max_seconds: float = BUILD_TIMEOUT
    max_log_bytes: int = 256 * 1024
    max_page_bytes: int = 2 * 1024 * 1024
    max_rss_mib: int | None = None
    """Peak memory a build may reach (its resident set, measured by the kernel)."""
    extra_check: Callable[[Project, Build, list[str]], None] | None = None


BAD_PAGE_HEAD = """\
# A page with a broken example

Some text before the example, so the example does not start on line 1.

!!! note "A note"
    The rest of this page must still be built.

"""

BAD_PAGE_TAIL = """
## After the broken example

{after}
AFTER-TOP:`{{selfattn}} after top 그것`:END
"""
BAD_PAGE_TAIL_PLAIN = """
## After the broken example

Plain text.
"""


def error_site(root: Path, case: ErrorCase) -> tuple[Project, str, tuple[int, int]]:
    """Write the three-page project for ``case``.

    Returns the project, the text of bad.md and the first and last page line of the chunk.
    """
    project = Project(root, {"chart_workers": 0, **case.options})
    project.write(GOOD_CSV_PATH, GOOD_CSV)
    for relative, content in case.files.items():
        project.write(relative, content)
    project.configure("mkdocs.yml", cache_dir=".cache/loose/selfattn")
    project.configure("mkdocs-strict.yml", cache_dir=".cache/strict/selfattn")
    project.page(
        "index.md",
        "# Home\n\n" + good_block("home") + "\nHOME-TOP:`{selfattn} home top 그것`:END\n",
    )
    project.page(
        "other.md",
        "# Other\n\n" + good_block("other", show="[table, output]") + "\nDone.\n",
    )
    chunk = case.chunk if case.chunk.endswith("\n") else case.chunk + "\n"
    tail = BAD_PAGE_TAIL.format(after=good_block("after")) if case.after else BAD_PAGE_TAIL_PLAIN
    text = BAD_PAGE_HEAD + chunk + tail
    project.page("bad.md", text)
    first = BAD_PAGE_HEAD.count("\n") + 1
    last = first + chunk.count("\n") - 1
    if case.setup is not None:
        case.setup(project)
    return project, text, (first, last)


def expected_line(text: str, case: ErrorCase, span: tuple[int, int]) -> int | None:
    if case.at is None:
        return None
    lines = text.split("\n")
    for number in range(span[0], span[1] + 1):
        if case.at in lines[number - 1]:
            return number
    raise AssertionError(f"case {case.id}: marker {case.at!r} is not in the chunk")


def check_error_case(root: Path, case: ErrorCase) -> None:
    """Build strict and non-strict at once; collect every broken promise, then fail with all."""
    project, text, span = error_site(root, case)
    want_line = expected_line(text, case, span)
    strict_run = project.start(
        strict=True, site="site-strict", config="mkdocs-strict.yml", timeout=case.max_seconds
    )
    loose_run = project.start(
        strict=False, site="site", config="mkdocs.yml", timeout=case.max_seconds
    )
    strict = Build(project, project.root / "site-strict", strict_run.wait())
    loose = Build(project, project.root / "site", loose_run.wait())
    failures: list[str] = []
    pattern = re.compile(case.message, re.S)

    def where(line: int | None) -> str:
        return f"docs/bad.md:{line}"

    for label, build in (("strict", strict), ("non-strict", loose)):
        if build.run.timed_out:
            failures.append(f"{label} build did not finish within {case.max_seconds:g} s (killed)")
            continue
        if case.max_rss_mib is not None and build.run.maxrss_kib > case.max_rss_mib * 1024:
            failures.append(
                f"{label} build reached {build.run.maxrss_kib // 1024} MiB "
                f"(limit {case.max_rss_mib} MiB)"
            )
        if build.run.seconds > case.max_seconds:
            failures.append(f"{label} build took {build.run.seconds:.1f} s")
        if len(build.log.encode()) > case.max_log_bytes:
            failures.append(f"{label} build log is {len(build.log.encode())} bytes")
        if crashed(build.log):
            failures.append(f"{label} build printed a traceback:\n{_tail(build.log)}")
        reports = build.problems()
        on_bad = [p for p in reports if p.page == "docs/bad.md"]
        matching = [p for p in on_bad if pattern.search(p.message)]
        if not matching:
            failures.append(
                f"{label} log has no 'docs/bad.md:LINE: selfattn: …' report matching "
                f"{case.message!r}; reports: {[(p.page, p.line, p.message[:300]) for p in reports]}"
                f"\n{_tail(build.log)}"
            )
        else:
            if want_line is not None and not any(p.line == want_line for p in matching):
                failures.append(
                    f"{label}: expected the report at {where(want_line)}, got "
                    f"{[where(p.line) for p in matching]}"
                )
            if want_line is None and not any(
                p.line is not None and span[0] <= p.line <= span[1] for p in matching
            ):
                failures.append(
                    f"{label}: expected the report on a line in {span}, got "
                    f"{[where(p.line) for p in matching]}"
                )
        others = [p for p in reports if p.page != "docs/bad.md"]
        if others:
            failures.append(f"{label}: reports about other pages: {others}")
        failures += [f"{label}: partial file {f}" for f in partial_files(project, build.site)]

    if not strict.run.timed_out and strict.returncode == 0:
        failures.append("--strict build exited 0")
    if not loose.run.timed_out:
        if loose.returncode != 0:
            failures.append(f"non-strict build failed: {loose.describe()}")
        else:
            failures += _check_pages(loose, case, pattern)
    if case.forbidden:
        leaks = files_containing(
            [loose.site, strict.site, project.root / ".cache"], list(case.forbidden)
        )
        leaks += [f"build log: {n!r}" for n in case.forbidden if n in loose.log + strict.log]
        failures += [f"leaked: {leak}" for leak in leaks]
    if case.extra_check is not None:
        case.extra_check(project, loose, failures)
    assert not failures, f"case {case.id}:\n- " + "\n- ".join(failures)


def _check_pages(build: Build, case: ErrorCase, pattern: re.Pattern[str]) -> list[str]:
    failures: list[str] = []
    for page in ("index.md", "other.md", "bad.md"):
        if not build.html_path(page).exists():
            failures.append(f"non-strict build did not write {page}")
    if failures:
        return failures
    for page in ("index.md", "other.md"):
        article = build.article(page)
        if article.find_all(cls="selfattn-error"):
            failures.append(f"{page} shows a selfattn error")
        if not article.find_all("table"):
            failures.append(f"{page} lost its example table")
    home = " ".join(build.article("index.md").text().split())
    if "HOME-TOP:절연캡:END" not in home:
        failures.append("index.md's inline value is wrong")
    page_bytes = build.html_path("bad.md").stat().st_size
    if page_bytes > case.max_page_bytes:
        failures.append(f"bad.md is {page_bytes} bytes")
    document = build.tree("bad.md")
    article = build.article("bad.md")
    boxes = [n for n in article.find_all("div", cls="selfattn-error") if "admonition" in n.classes]
    if not boxes:
        failures.append("bad.md has no visible .selfattn-error admonition")
    elif not any(pattern.search(normalize(b.text())) for b in boxes):
        failures.append(
            f"no error admonition on bad.md says {case.message!r}: "
            f"{[normalize(b.text())[:300] for b in boxes]}"
        )
    else:
        box = boxes[0]
        if not any("admonition-title" in n.classes for n in box.find_all("p")):
            failures.append("the error admonition has no title")
    failures += [f"bad.md: {m}" for m in injected_markup(article, document)]
    if "A note" not in article.text():
        failures.append("bad.md lost the text before the example")
    if case.after:
        text = " ".join(article.text().split())
        if "AFTER-TOP:절연캡:END" not in text:
            failures.append("the good example after the broken one did not render (inline value)")
        if not article.find_all("table"):
            failures.append("the good example after the broken one lost its table")
    return failures


def crashed(log: str) -> bool:
    """Whether the build itself printed a Python traceback.

    A failing script's stderr is quoted inside one report line (joined with ``|``), so only a line
    that starts with ``Traceback`` is the build's own.
    """
    return any(line.startswith("Traceback (most recent call last)") for line in log.splitlines())


def published_copies(folders: list[Path], source: Path) -> list[str]:
    """Files under ``folders`` whose bytes are exactly those of ``source``."""
    data = source.read_bytes()
    return [
        str(path)
        for folder in folders
        if folder.is_dir()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data
    ]


def _tail(log: str, lines: int = 15) -> str:
    return "\n".join("    " + line for line in log.splitlines()[-lines:])


def chunk_line(chunk: str, needle: str, occurrence: int = 1) -> int:
    """Page line in bad.md of the ``occurrence``-th line of ``chunk`` holding ``needle``."""
    first = BAD_PAGE_HEAD.count("\n") + 1
    seen = 0
    for index, line in enumerate(chunk.split("\n")):
        if needle in line:
            seen += 1
            if seen == occurrence:
                return first + index
    raise AssertionError(f"{needle!r} is not in the chunk")


def alias_bomb(depth: int = 9, width: int = 9, *, mapping: bool = False) -> tuple[str, str]:
    """Billion-laughs anchors as one flow collection, and the alias of its largest member.

    Composing and loading are cheap (members are shared references); anything that walks the
    expanded value (``repr``, ``str``, copying) touches ``width ** depth`` leaves.
    """
    names = [f"l{i}" for i in range(depth)]
    if mapping:
        levels = ["&l0 {" + ", ".join(f"k{j}: lol" for j in range(width)) + "}"]
        levels += [
            f"&{names[i]} {{" + ", ".join(f"k{j}: *{names[i - 1]}" for j in range(width)) + "}"
            for i in range(1, depth)
        ]
    else:
        levels = ["&l0 [" + ", ".join(["lol"] * width) + "]"]
        levels += [
            f"&{names[i]} [" + ", ".join([f"*{names[i - 1]}"] * width) + "]"
            for i in range(1, depth)
        ]
    return "[" + ", ".join(levels) + "]", f"*{names[-1]}"
