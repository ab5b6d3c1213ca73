"""An example loaded from a CSV and a block's keys, as a page's block loads it (the pipeline the
plugin uses, the command line's file resolver), for tests of what a layout answers."""

from __future__ import annotations

from pathlib import Path

from mkdocs_selfattn.blocks.markdown_scan import find_blocks
from mkdocs_selfattn.blocks.spec import parse_block
from mkdocs_selfattn.build.cache import Cache
from mkdocs_selfattn.build.example import Example
from mkdocs_selfattn.build.pipeline import Pipeline
from mkdocs_selfattn.build.settings import Settings
from mkdocs_selfattn.cli.run import _CommandLineFiles


def load_example(tmp_path: Path, csv: str, block: str) -> Example:
    """``csv`` written to ``tmp_path``, read by a block ``id: ex`` with the keys ``block``."""
    path = tmp_path / "data.csv"
    path.write_text(csv, encoding="utf-8")
    [raw] = find_blocks(f"```selfattn\nid: ex\ncsv: {path}\n{block}```\n")
    spec = parse_block(raw)
    assert spec.example is not None
    return Pipeline(Settings(), Cache(None)).load(spec.example, _CommandLineFiles())
