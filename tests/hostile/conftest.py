"""Configuration of the hostile-input suite; its helpers are in :mod:`support` (built sites,
the HTML tree, the error-case harness), imported by each test module.

Hypothesis writes a source patch for every failing example, importing ``libcst`` for it from a
pytest hook. That import warns (``mypy_extensions.TypedDict is deprecated``), and with warnings as
errors a warning raised in a hook is an INTERNALERROR that ends the whole session: one failing
fuzz test would hide every result after it. The module is imported here once, quietly, so the hook
finds it loaded.
"""

from __future__ import annotations

import contextlib
import importlib
import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    with contextlib.suppress(ImportError):
        importlib.import_module("hypothesis.extra._patching")
