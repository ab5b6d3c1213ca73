"""Command line over the same core, renderers and pipeline as the plugin.

``run`` computes one example from a CSV, ``check`` a whole site without building it, ``inspect``
shows what a CSV holds, ``new`` writes a starter course. The work lives in :mod:`check`,
:mod:`inspect_csv` and :mod:`starter`; this module parses arguments and prints.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from mkdocs_selfattn.blocks.spec_layout import LAYOUT_KEYS
from mkdocs_selfattn.build.views import VIEWS
from mkdocs_selfattn.cli.run import run_command, usage_of_run
from mkdocs_selfattn.errors import SelfAttnError, listing
from mkdocs_selfattn.render.escape import terminal_text
from mkdocs_selfattn.version import __version__

if TYPE_CHECKING:
    pass


def _pair(text: str, what: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"{what} must look like KEY=VALUE, not {text!r}")
    return key, value


def _display(text: str) -> tuple[str, str]:
    return _pair(text, "--display")


def _group(text: str) -> tuple[str, list[str]]:
    name, members = _pair(text, "--group")
    tokens = [m for m in members.split(",") if m]
    if not tokens:
        raise argparse.ArgumentTypeError(f"--group {name} lists no tokens")
    return name, tokens


def _column(text: str) -> tuple[str, str]:
    from mkdocs_selfattn.blocks.spec_values import COLUMN_ROLES

    role, name = _pair(text, "--column")
    roles = COLUMN_ROLES
    if role not in roles:
        raise argparse.ArgumentTypeError(
            f"--column role {role!r} is unknown; roles: {listing(roles)}"
        )
    return role, name


def _reader(option: str) -> Callable[[str], tuple[str, str]]:
    def parse(text: str) -> tuple[str, str]:
        name, column = _pair(text, option)
        if not column:
            raise argparse.ArgumentTypeError(f"{option} {name} names no column")
        return name, column

    return parse


def _axis(text: str) -> tuple[str, tuple[str, ...]]:
    name, members = _pair(text, "--axis")
    columns = tuple(m for m in members.split(",") if m)
    if not columns:
        raise argparse.ArgumentTypeError(f"--axis {name} lists no columns")
    return name, columns


def _temperature(text: str) -> float:
    # Refused here rather than by the core so that 0, -1 or nan is a usage error (exit 2)
    # about the command line, not a data error blamed on the CSV file.
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(
            f"--temperature needs a number greater than 0, not {text!r}"
        )
    return value


def _seconds(text: str) -> float:
    from mkdocs_selfattn.build.options import script_timeout_problem

    try:
        value: object = float(text)
    except ValueError:
        value = text
    problem = script_timeout_problem(value)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return float(text)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mkdocs-selfattn",
        description="Compute self-attention examples from a CSV, as the MkDocs plugin does.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="compute one document's example and print it")
    run.add_argument("csv", help="the CSV file of candidate rows")
    run.add_argument(
        "--document",
        help="the document (memo) to compute (required for targets; default with --query or "
        "--head: the whole file)",
    )
    run.add_argument(
        "--target",
        action="append",
        dest="targets",
        metavar="TOKEN",
        help="a target token to re-read (repeatable; default: every target in CSV order)",
    )
    readers = run.add_mutually_exclusive_group()
    readers.add_argument(
        "--query",
        action="append",
        dest="queries",
        type=_reader("--query"),
        metavar="LABEL=SCORE_COLUMN",
        help="a question over every line: softmax of that column (repeatable, in order)",
    )
    readers.add_argument(
        "--head",
        action="append",
        dest="heads",
        type=_reader("--head"),
        metavar="NAME=WEIGHT_COLUMN",
        help="a head with given weights (repeatable; the first is the reference)",
    )
    run.add_argument("--vectors", help="vector columns, comma-separated (default: the rest)")
    run.add_argument(
        "--axis",
        action="append",
        dest="axes",
        type=_axis,
        metavar="NAME=COLUMN,COLUMN",
        help="a context axis, the sum of its columns (repeatable; --query/--head)",
    )
    run.add_argument(
        "--normalise",
        action="store_true",
        help="divide each head's given weights by their sum where it is not 1 (--head)",
    )
    run.add_argument(
        "--template", metavar="FILE", help="a Jinja2 template file for the text printout"
    )
    run.add_argument(
        "--top", type=int, default=3, metavar="N", help="top lines in the printout (default 3)"
    )
    run.add_argument(
        "--display",
        action="append",
        type=_display,
        default=[],
        metavar="TOKEN=LABEL",
        help="how a token is shown (repeatable)",
    )
    run.add_argument(
        "--group",
        action="append",
        type=_group,
        default=[],
        metavar="NAME=TOKEN,TOKEN",
        help="report the summed weight of these candidates as NAME_weight (repeatable)",
    )
    run.add_argument(
        "--column",
        action="append",
        type=_column,
        default=[],
        metavar="ROLE=NAME",
        help="map a column role (document, target, candidate, role, score, …) to a CSV column",
    )
    run.add_argument("--temperature", type=_temperature, default=None, help="softmax temperature")
    run.add_argument(
        "--format",
        choices=["text", "json", "markdown", *VIEWS],
        default="text",
        help="text: the printout; json; markdown: tables; or any view a block can show",
    )

    check = commands.add_parser(
        "check",
        help="compute every block and inline value of a site, as a build would, writing nothing",
    )
    check.add_argument(
        "-f", "--config-file", metavar="FILE", help="the site's mkdocs.yml (default: ./mkdocs.yml)"
    )
    check.add_argument("--format", choices=["text", "json"], default="text")

    inspect = commands.add_parser(
        "inspect", help="list the documents, targets, candidates and columns of a CSV"
    )
    inspect.add_argument("csv", help="the CSV file of candidate rows")
    inspect.add_argument(
        "--columns",
        nargs="+",
        type=_column,
        default=[],
        metavar="ROLE=NAME",
        help="map column roles to CSV columns, as a block's 'columns:' does",
    )
    inspect.add_argument(
        "--layout",
        choices=LAYOUT_KEYS,
        help="read the file as this layout's block would (default: the first its header fits)",
    )

    new = commands.add_parser("new", help="write a starter course into a new folder")
    new.add_argument("dir", help="the folder to create (must be missing or empty)")

    migrate = commands.add_parser(
        "migrate",
        help="replace a pasted printout and its script by a block; report stale numbers "
        "(exit 0: none, 1: stale numbers, 2: usage or input error)",
    )
    migrate.add_argument("pages", nargs="+", metavar="PAGE", help="markdown pages to migrate")
    migrate.add_argument(
        "--write", action="store_true", help="rewrite the pages (default: report and propose)"
    )
    migrate.add_argument(
        "-f",
        "--config-file",
        metavar="FILE",
        help="the site's mkdocs.yml (default: the nearest one above the page)",
    )
    migrate.add_argument(
        "--scripts-dir",
        default="examples",
        metavar="DIR",
        help="where in docs_dir the scripts are kept as files (default: examples)",
    )
    migrate.add_argument(
        "--timeout", type=_seconds, default=30.0, help="seconds a script may run (default 30)"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "run":
        usage_of_run(parser, args)
    if args.command == "check":
        return _check(args.config_file, args.format)
    if args.command == "inspect":
        return _inspect(args.csv, dict(args.columns), args.layout)
    if args.command == "new":
        return _new(args.dir)
    if args.command == "migrate":
        from mkdocs_selfattn.cli.migrate import migrate_command

        return migrate_command(
            args.pages,
            config_file=args.config_file,
            scripts_dir=args.scripts_dir,
            timeout=args.timeout,
            write=args.write,
        )
    return run_command(args)


def _check(config_file: str | None, fmt: str) -> int:
    from mkdocs_selfattn.cli.check import check_site

    report = check_site(config_file)
    sys.stdout.write(report.as_json() if fmt == "json" else report.as_text())
    return 1 if report.problems else 0


def _inspect(csv_path: str, columns: dict[str, str], layout: str | None) -> int:
    from mkdocs_selfattn.cli.inspect import describe, inspect_csv

    try:
        contents = inspect_csv(csv_path, columns, layout)
    except SelfAttnError as exc:
        print(f"mkdocs-selfattn: error: {terminal_text(str(exc))}", file=sys.stderr)
        return 1
    sys.stdout.write(describe(contents))
    return 1 if contents.has_errors else 0  # data mistakes are listed above, as the build has them


def _new(folder: str) -> int:
    from mkdocs_selfattn.cli.starter import StarterError, next_step, write_starter

    try:
        written = write_starter(folder)
    except StarterError as exc:
        print(f"mkdocs-selfattn: error: {terminal_text(str(exc))}", file=sys.stderr)
        return 1
    for path in written:
        print(f"wrote {path}")
    print(next_step(folder))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
