"""Positioned diagnostics: one error in one input, at a line and column, capped and in file order.

:class:`Diagnostic` prints as a compiler-style line (``FILE:LINE:COL: KEY: message``); a
:class:`YamlError` carries the diagnostics of one input (and, when loading could step over its
errors, the data as recovered). Keys are named by their path, written ``set.decks`` or
``players[0]`` (:func:`format_key_path`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kalooki.errors import KalookiError
from kalooki.text import escape_controls

if TYPE_CHECKING:
    from kalooki.yamlio import YamlDocument

MAX_DIAGNOSTICS = 100
"""More diagnostics than this for one file are cut short: a hostile file could make millions."""

KeyPath = tuple[str | int, ...]


def format_key_path(path: Iterable[str | int]) -> str:
    """``("set", "decks")`` -> ``set.decks``; list positions are written ``players[0]``."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


@dataclass(frozen=True)
class Diagnostic:
    """One error in one input, at a 1-based line and column.

    ``str()`` gives the compiler-style line ``FILE:LINE:COL: KEY: message``. The key is
    left out when the error is about no key in particular (a tab, an empty file), and
    the line and column are left out when they are 0 (an input with no position, such
    as a variant name given on the command line).
    """

    path: str
    line: int
    column: int
    key: str
    message: str
    meant: str = field(default="", compare=False)
    """For an unknown key, the key the message takes it for (its "did you mean"); else empty. Not part
    of the line or the JSON: the loader reads it to leave that knob out of the rules it checks."""

    def __str__(self) -> str:
        # Every part may echo the input (a file name, a key, a quoted value): control characters are
        # spelled out, so one diagnostic is always one line and nothing reaches a terminal as a command.
        path, key, message = (escape_controls(part) for part in (self.path, self.key, self.message))
        where = f"{path}:{self.line}:{self.column}" if self.line > 0 else path
        said = f"{key}: {message}" if key else message
        # Nothing to name (an empty name given on the command line): no line opening with ": ".
        return f"{where}: {said}" if where else said

    def to_dict(self) -> dict[str, str | int]:
        return {
            "path": escape_controls(self.path),
            "line": self.line,
            "column": self.column,
            "key": escape_controls(self.key),
            "message": escape_controls(self.message),
        }


@dataclass(frozen=True)
class Location:
    """Where something is: a source, a 1-based line and column (0 for none), and the key it belongs to."""

    source: str
    line: int = 0
    column: int = 0
    key: str = ""

    def error(self, message: str, *, meant: str = "") -> Diagnostic:
        return Diagnostic(self.source, self.line, self.column, self.key, message, meant)


def cap_diagnostics(diagnostics: Sequence[Diagnostic]) -> tuple[Diagnostic, ...]:
    """At most :data:`MAX_DIAGNOSTICS`, then one "too many errors" line where the first one left out was."""
    items = tuple(diagnostics)
    if len(items) <= MAX_DIAGNOSTICS or items[MAX_DIAGNOSTICS].message.startswith(TOO_MANY):
        return items[: MAX_DIAGNOSTICS + 1]
    return (*items[:MAX_DIAGNOSTICS], too_many_errors(items[MAX_DIAGNOSTICS]))


TOO_MANY = "too many errors"


def too_many_errors(where: Diagnostic | None, source: str = "") -> Diagnostic:
    """The line that ends a capped list, at the position of the first error left out (or the last kept)."""
    message = f"{TOO_MANY}; stopped after {MAX_DIAGNOSTICS}"
    if where is None:
        return Diagnostic(source, 0, 0, "", message)
    return Diagnostic(where.path, where.line, where.column, "", message)


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """In file order; diagnostics of different sources keep the order of their first appearance."""
    items = list(diagnostics)
    first_seen: dict[str, int] = {}
    for item in items:
        first_seen.setdefault(item.path, len(first_seen))
    return sorted(items, key=lambda d: (first_seen[d.path], d.line, d.column))


class YamlError(KalookiError):
    """One or more diagnostics about an input; ``str()`` is their lines.

    ``document``: when loading found only errors it could step over (see the module doc),
    the data as recovered, so that a validator can report its problems too.
    """

    def __init__(self, diagnostics: Sequence[Diagnostic], document: YamlDocument | None = None) -> None:
        self.diagnostics: tuple[Diagnostic, ...] = cap_diagnostics(diagnostics)
        self.document = document
        super().__init__("\n".join(str(diagnostic) for diagnostic in self.diagnostics))

    def __str__(self) -> str:
        return "\n".join(str(diagnostic) for diagnostic in self.diagnostics)


def value_at(data: Any, path: Sequence[str | int]) -> tuple[bool, Any]:
    """Whether ``data`` holds something at ``path`` (keys and list positions), and what."""
    current = data
    for part in path:
        if isinstance(current, dict) and isinstance(part, str) and part in current:
            current = current[part]
            continue
        if isinstance(current, list) and isinstance(part, int) and 0 <= part < len(current):
            current = current[part]
            continue
        return False, None
    return True, current
