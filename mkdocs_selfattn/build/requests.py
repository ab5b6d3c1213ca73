"""One example's computation as a small, picklable request: what a worker receives, and what
each layout's engine (build/layouts.py) computes from. Below both, so neither imports the other."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mkdocs_selfattn.blocks.spec import ExampleSpec


@dataclass(frozen=True)
class ComputeRequest:
    """One example's computation: the block's spec as it is, with the CSV bytes the page read
    (never re-read there)."""

    key: str
    spec: ExampleSpec
    data: bytes
    source: str
    """The CSV as messages show it."""

    @classmethod
    def of(cls, key: str, spec: ExampleSpec, data: bytes, source: str) -> ComputeRequest:
        return cls(key=key, spec=spec, data=data, source=source)

    def __reduce__(self) -> tuple[Any, ...]:
        # A spec's mappings are read-only views, which do not pickle: they travel as dicts.
        fields = {f.name: _plain(getattr(self.spec, f.name)) for f in dataclass_fields(self.spec)}
        return (_request, (self.key, type(self.spec), fields, self.data, self.source))


def _plain(value: object) -> object:
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _frozen(value: object) -> object:
    if isinstance(value, dict):
        return MappingProxyType({k: _frozen(v) for k, v in value.items()})
    return value


def _request(
    key: str, kind: type[ExampleSpec], fields: dict[str, Any], data: bytes, source: str
) -> ComputeRequest:
    frozen: dict[str, Any] = {name: _frozen(value) for name, value in fields.items()}
    spec = kind(**frozen)
    return ComputeRequest(key=key, spec=spec, data=data, source=source)
