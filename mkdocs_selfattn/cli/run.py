"""``mkdocs-selfattn run``: one example from a CSV, computed through the plugin's pipeline.

The options mirror a block's keys, for every layout (``--target``, ``--query``, ``--head``); a mix
of two layouts' options is a usage error, as the block's keys are.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from mkdocs_selfattn.build.example import ResolvedFile
from mkdocs_selfattn.build.layouts import layout_of
from mkdocs_selfattn.core.input_files import read_input
from mkdocs_selfattn.errors import DataError, SelfAttnError
from mkdocs_selfattn.render.escape import terminal_text
from mkdocs_selfattn.render.jsonout import render_json
from mkdocs_selfattn.render.template_limits import MAX_TEMPLATE_BYTES

if TYPE_CHECKING:
    from mkdocs_selfattn.blocks.spec import ExampleSpec


class _CommandLineFiles:
    """Paths as typed on the command line: relative to the working folder, shown as typed."""

    def __init__(self) -> None:
        self.project_root = Path.cwd()

    def resolve(self, raw: str, key: str, line: int) -> ResolvedFile:
        return ResolvedFile(path=Path(raw).absolute(), display=raw, link=raw)


def usage_of_run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """The options of one layout only, as a block's keys (exit 2 on a mix)."""
    reading = bool(args.queries or args.heads)
    if not reading and args.document is None:
        parser.error("run needs --document (or --query/--head to read the whole file)")
    wrong = []
    if reading and args.targets:
        wrong.append("--target")
    if not reading and (args.axes or args.normalise):
        wrong.append("--axis/--normalise (with --query or --head only)")
    if args.queries and args.normalise:
        wrong.append("--normalise (given weights, --head, only)")
    if args.heads and args.temperature is not None:
        wrong.append("--temperature (given weights do not pass through the softmax)")
    if args.axes and args.vectors:
        wrong.append("--vectors with --axis (give one of them)")
    if args.top < 1:
        wrong.append("--top below 1")
    if wrong:
        parser.error(f"run: {'; '.join(wrong)}")


def _spec(args: argparse.Namespace) -> ExampleSpec:
    from mkdocs_selfattn.blocks.spec import ExampleSpec

    vectors = tuple(v for v in args.vectors.split(",") if v) if args.vectors else None
    template = None
    if args.template is not None:
        try:
            template = read_input(args.template, MAX_TEMPLATE_BYTES).decode("utf-8")
        except OSError as exc:
            raise DataError(args.template, f"cannot be read ({exc.strerror or exc})") from None
        except UnicodeDecodeError:
            raise DataError(args.template, "is not UTF-8 text") from None
    return ExampleSpec(
        id=None,
        csv=args.csv,
        document=args.document,
        line=1,
        targets=tuple(args.targets) if args.targets else None,
        queries=MappingProxyType(dict(args.queries)) if args.queries else None,
        heads=MappingProxyType(dict(args.heads)) if args.heads else None,
        vectors=vectors,
        axes=MappingProxyType(dict(args.axes)) if args.axes else None,
        columns=MappingProxyType(dict(args.column)),
        display=MappingProxyType(dict(args.display)),
        groups=MappingProxyType({name: tuple(members) for name, members in args.group}),
        temperature=1.0 if args.temperature is None else args.temperature,
        normalise=args.normalise,
        template=template,
        mixed_candidates=True,
        top=args.top,
    )


def run_command(args: argparse.Namespace) -> int:
    """Load the example through the pipeline the plugin uses, then print one view of it."""
    from mkdocs_selfattn.blocks.spec import ViewOptions
    from mkdocs_selfattn.build.cache import Cache
    from mkdocs_selfattn.build.pipeline import Pipeline
    from mkdocs_selfattn.build.settings import Settings

    pipeline = Pipeline(Settings(scripts=False, mermaid=None), Cache(None))
    try:
        example = pipeline.load(_spec(args), _CommandLineFiles())
        result = example.result
        for warning in result.warnings:  # the plugin's data checks: uneven targets
            print(f"mkdocs-selfattn: warning: {terminal_text(warning)}", file=sys.stderr)
        if args.format == "json":
            text = render_json(result)
        elif args.format in ("markdown", "text"):
            text = layout_of(result).run_text(example, args.format)
        else:
            view = ViewOptions(show=(args.format,), top=args.top)
            pieces = pipeline.render(example, view, line=1).pieces
            text = "".join(str(content) + "\n" for _, content in pieces)
    except SelfAttnError as exc:
        print(f"mkdocs-selfattn: error: {terminal_text(str(exc))}", file=sys.stderr)
        return 1
    sys.stdout.write(text if args.format == "json" else terminal_text(text, keep_newlines=True))
    return 0
