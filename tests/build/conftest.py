"""What the build tests share: the course's example of each layout, loaded once."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest


@pytest.fixture(scope="session")
def examples() -> dict[str, Any]:
    """The course's example of each layout, loaded by the pipeline the plugin uses:
    ``{layout: (pipeline, example)}``."""
    from course_requests import ASSETS, BLOCKS, requests

    from mkdocs_selfattn.build.cache import Cache
    from mkdocs_selfattn.build.pipeline import Pipeline
    from mkdocs_selfattn.build.settings import Settings
    from mkdocs_selfattn.cli.run import _CommandLineFiles

    pipeline = Pipeline(Settings(scripts=False, mermaid=None), Cache(None))
    loaded = {}
    for name, request in requests().items():
        spec = replace(request.spec, csv=str(ASSETS / BLOCKS[name][0]))
        loaded[name] = (pipeline, pipeline.load(spec, _CommandLineFiles()))
    return loaded
