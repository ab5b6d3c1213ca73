"""Shared pytest configuration. Several people add to this file: keep each section separate."""

from __future__ import annotations

import pytest

# =============================================================================================
# Golden files (tests/golden/views/*; used by tests/test_views_golden.py)
#
#   python -m pytest tests/test_views_golden.py --update-goldens
#
# rewrites the golden files from the current renderers instead of comparing against them.
# Review the diff (git diff tests/golden) before committing.


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-goldens",
        action="store_true",
        default=False,
        help="rewrite tests/golden/views/* from the current renderers instead of comparing",
    )


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    """True when the run was started with --update-goldens."""
    return bool(request.config.getoption("--update-goldens"))


# ============================================================================== end of goldens
