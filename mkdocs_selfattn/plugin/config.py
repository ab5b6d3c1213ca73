"""The plugin's MkDocs config, derived from :data:`mkdocs_selfattn.build.options.SITE_OPTIONS`.

MkDocs reports a ``ValidationError`` raised here as ``Config value 'plugins': Plugin 'selfattn'
option 'NAME': …`` and stops before building anything, which is where a bad value belongs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.base import BaseConfigOption, ValidationError
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError

from mkdocs_selfattn.build.options import SITE_OPTIONS, SiteOption


class Checked(BaseConfigOption[Any]):
    """An option whose value must pass ``check`` (a function returning a problem or None)."""

    def __init__(self, check: Callable[[object], str | None], default: Any = None) -> None:
        super().__init__()
        self.check = check
        self.default = default

    def validate(self, value: object, /) -> Any:
        # MkDocs passes None for an option the user did not set.
        return self.run_validation(self.default if value is None else value)

    def run_validation(self, value: object, /) -> Any:
        problem = self.check(value)
        if problem is not None:
            raise ValidationError(problem)
        return value


def _mkdocs_option(option: SiteOption) -> BaseConfigOption[Any]:
    if option.check is not None:
        return Checked(option.check, default=option.default)
    if option.choices:
        return c.Choice(option.choices, default=option.default)
    assert option.kind is not None, option.name
    return c.Type(option.kind, default=option.default)


def _config_class() -> type[base.Config]:
    """The plugin's MkDocs config, one entry per :data:`SITE_OPTIONS` item."""
    fields: dict[str, Any] = {option.name: _mkdocs_option(option) for option in SITE_OPTIONS}
    fields["__doc__"] = "The plugin's options; see mkdocs_selfattn.build.options.SITE_OPTIONS."
    return type("SelfAttnConfig", (base.Config,), fields)


if TYPE_CHECKING:  # values are read by name: their types are in SITE_OPTIONS
    SelfAttnConfig = base.Config
else:
    SelfAttnConfig = _config_class()


def cache_folder(cache_dir: str, config: MkDocsConfig, root: Path) -> Path | None:
    """The disk cache's folder (None: memory only), refused inside docs_dir or site_dir, where
    `mkdocs serve` would see every write as a change and rebuild forever."""
    if not cache_dir:
        return None
    folder = (root / cache_dir).resolve()
    for name, other in (("docs_dir", config.docs_dir), ("site_dir", config.site_dir)):
        other_path = Path(other).resolve()
        if folder == other_path or other_path in folder.parents:
            raise PluginError(
                f"selfattn: cache_dir {cache_dir!r} is inside {name}; "
                "choose a folder outside it, such as .cache/selfattn"
            )
    return folder
