"""Where each value of a loaded variant came from (:class:`Origin`), and the loaded variant with them
(:class:`ResolvedVariant`): what :func:`kalooki.loader_layers.resolve` returns."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from kalooki.variant import KNOB_NAMES, Variant
from kalooki.yamlio import Location

_ORIGIN_KINDS = Literal["default", "file", "set", "stem"]


@dataclass(frozen=True)
class Origin:
    """Where a value of a resolved variant came from."""

    kind: _ORIGIN_KINDS
    source: str = ""
    line: int = 0
    column: int = 0
    text: str = ""
    """For a ``--set``: the option as given."""

    def __str__(self) -> str:
        if self.kind == "default":
            return "classic default"
        if self.kind == "set":
            return f"{self.source} {self.text}"
        if self.kind == "stem":
            return f"the name of {self.source}"
        return f"{self.source}:{self.line}:{self.column}" if self.line > 0 else self.source

    @staticmethod
    def at(location: Location, kind: _ORIGIN_KINDS = "file", text: str = "") -> Origin:
        return Origin(kind, location.source, location.line, location.column, text)


DEFAULT_ORIGIN = Origin("default")


@dataclass(frozen=True)
class ResolvedVariant:
    """A loaded variant, with the origin of each of its values and the files that were read."""

    variant: Variant
    origins: Mapping[str, Origin]
    """Field name -> where its value was set; every field of the model is present."""
    sources: tuple[str, ...]
    """The files read, each base before the file that extends it."""
    provenance: Mapping[str, str] = field(default_factory=dict)
    """Knob -> where its value comes from in the rule text (see :mod:`kalooki.provenance`)."""
    source: str | None = None
    """The rule text the variant follows, as its most specific file names it."""
    texts: tuple[str, ...] = ()
    """The rule texts :attr:`provenance` quotes: :attr:`source`, or each base's of a file naming none."""
    not_played: tuple[str, ...] = ()
    """What those texts have that the variant does not play (see :mod:`kalooki.provenance`)."""

    def set_at(self) -> dict[str, str]:
        """Where each knob without provenance was set, for those not at classic's default."""
        return {
            knob: str(origin)
            for knob, origin in self.origins.items()
            if knob in KNOB_NAMES and knob not in self.provenance and origin.kind != "default"
        }
