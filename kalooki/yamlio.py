"""Strict, safe, positioned YAML loading for the project's hand-written files.

Variant files and game scripts are both read through :func:`load_yaml_file` /
:func:`load_yaml_text`. They return a :class:`YamlDocument`: the plain data (a
``dict`` of ``str`` keys holding dicts, lists, ``str``, ``int``, ``float``,
``bool`` and ``None``) plus the 1-based line and column of every key and value,
looked up by its path of keys (``doc.location(("set", "opening_threshold"))``).

What a file may not do, each reported as a positioned :class:`Diagnostic`:

* be larger than :data:`MAX_BYTES`, be empty, hold several documents, or hold
  anything but a mapping at the top;
* contain bytes that are not UTF-8, tab characters, or non-printable characters;
* use anchors, aliases or tags (``&a``, ``*a``, ``!!int``): they make a file hard
  to read and aliases are the way to a "billion laughs" bomb;
* repeat a key in a mapping (the error names the line of the first one);
* nest deeper than :data:`MAX_DEPTH`, or use a non-scalar key.

Some of these leave the data usable: an anchor or a tag is dropped, an alias reads as
null, a repeated or non-scalar key is skipped (the first value kept), a second document
is ignored, and a number too long to read is null. The :class:`YamlError` for a file
with only such errors carries the recovered :class:`YamlDocument`, and the variant and
game-script loaders validate it too, so that one anchor does not hide an unknown key
elsewhere in the file; they leave out a validation error at the very place a YAML error
was reported (an alias's null value is not also "expected a whole number"). Errors that
make the data unusable are reported alone: invalid UTF-8, tabs, a syntax error, a
non-printable character, nesting too deep, more than :data:`MAX_DIAGNOSTICS` errors, an
empty file or a top level that is not a mapping.

Scalars follow a small subset of YAML 1.2, so that nothing turns silently into a
value the author did not mean. A plain (unquoted) scalar is

* ``null``, ``Null``, ``NULL``, ``~`` or nothing: ``None`` (as every YAML version reads them);
* ``true`` or ``false`` (lowercase only): a ``bool``;
* a decimal integer without a leading zero (``0``, ``42``, ``-7``): an ``int``;
* a decimal fraction (``0.5``, ``-1.25e+3``): a ``float``;
* anything else, including YAML 1.1's ``yes``/``no``/``on``/``off``, ``True``,
  octal ``0250``, hexadecimal ``0x1F``, sexagesimal ``1:30``, ``1_000`` and dates:
  a ``str``.

So where text is expected, ``name: yes`` is the text ``yes``; where a number or a
boolean is expected the validator rejects the text, and :func:`yaml11_hint`
explains what YAML 1.1 would have made of it (``0250`` is octal 168 there).
Quoted and block scalars are always text. Mapping keys are always text.
"""

from __future__ import annotations

import difflib
import re
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import yaml
from pydantic import BaseModel, ValidationError
from yaml.composer import Composer
from yaml.events import AliasEvent, CollectionStartEvent, NodeEvent, ScalarEvent, StreamEndEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import Resolver
from yaml.scanner import Scanner

from kalooki.errors import KalookiError
from kalooki.safeio import FileReadError, FileTooBigError, read_regular_file
from kalooki.text import escape_controls

MAX_BYTES = 64 * 1024
"""Largest file accepted: hand-written files are a few hundred bytes."""

MAX_DEPTH = 32
"""Deepest nesting of mappings and lists accepted."""

MAX_DIAGNOSTICS = 100
"""More diagnostics than this for one file are cut short: a hostile file could make millions."""

MAX_DIGITS = 50
"""Longest integer accepted; Python refuses to convert very long digit strings anyway."""

KeyPath = tuple[str | int, ...]

_INT = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
# The exponent needs a sign and the fraction a dot, as in PyYAML's YAML 1.1 resolver, so whatever
# PyYAML writes as plain text (e.g. ``1e3``) also reads back as text here.
_FLOAT = re.compile(r"[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+][0-9]+)?")
# Null, NULL: every YAML tool (1.1 and 1.2 alike, editors included) reads them as null, so they are.
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_ALIAS_TAG = "!kalooki-alias"
"""The tag of the null scalar an alias is read as, so that it keeps the alias's position."""

# What YAML 1.2's core schema (the YAML language server's, so an editor's) reads as a boolean or a number.
_YAML12_BOOL = re.compile(r"true|True|TRUE|false|False|FALSE")
_YAML12_NUMBER = re.compile(
    r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+"
    r"|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
)

_YAML11_BOOLS = frozenset(
    word
    for base in ("yes", "no", "on", "off", "true", "false", "y", "n")
    for word in (base, base.capitalize(), base.upper())
)
_YAML11_OCTAL = re.compile(r"[-+]?0[0-7_]+")
_YAML11_HEX = re.compile(r"[-+]?0x[0-9a-fA-F_]+")
_YAML11_BINARY = re.compile(r"[-+]?0b[01_]+")
_YAML11_SEXAGESIMAL = re.compile(r"[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?")
_YAML11_UNDERSCORED = re.compile(r"[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?")


# --------------------------------------------------------------------------- diagnostics


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

    def __str__(self) -> str:
        # Every part may echo the input (a file name, a key, a quoted value): control characters are
        # spelled out, so one diagnostic is always one line and nothing reaches a terminal as a command.
        path, key, message = (escape_controls(part) for part in (self.path, self.key, self.message))
        where = f"{path}:{self.line}:{self.column}" if self.line > 0 else path
        return f"{where}: {key}: {message}" if key else f"{where}: {message}"

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

    def error(self, message: str) -> Diagnostic:
        return Diagnostic(self.source, self.line, self.column, self.key, message)

    def with_key(self, key: str) -> Location:
        return Location(self.source, self.line, self.column, key)


def cap_diagnostics(diagnostics: Sequence[Diagnostic]) -> tuple[Diagnostic, ...]:
    """At most :data:`MAX_DIAGNOSTICS`, then one "too many errors" line where the first one left out was."""
    items = tuple(diagnostics)
    if len(items) <= MAX_DIAGNOSTICS or items[MAX_DIAGNOSTICS].message.startswith(TOO_MANY):
        return items[: MAX_DIAGNOSTICS + 1]
    return (*items[:MAX_DIAGNOSTICS], _too_many(items[MAX_DIAGNOSTICS]))


TOO_MANY = "too many errors"


def _too_many(where: Diagnostic | None, source: str = "") -> Diagnostic:
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


# --------------------------------------------------------------------------- scalars


def resolve_plain_scalar(text: str) -> Any:
    """The value of an unquoted scalar under this module's strict rules (see the module doc).

    Raises ``ValueError`` for an integer too long to be meant.
    """
    if text in _NULLS:
        return None
    if text == "true":
        return True
    if text == "false":
        return False
    if _INT.fullmatch(text):
        if len(text.lstrip("+-")) > MAX_DIGITS:
            raise ValueError(f"numbers of more than {MAX_DIGITS} digits are not accepted")
        return int(text)
    if _FLOAT.fullmatch(text):
        return float(text)
    return text


def yaml11_hint(text: str, expected: str) -> str:
    """Why the plain text ``text`` is not a value of the ``expected`` kind (``"integer"`` / ``"boolean"``).

    Returns ``""`` when the text is not something YAML 1.1 would have read differently.
    """
    if expected == "boolean" and text in _YAML11_BOOLS:
        return "only lowercase true and false are booleans"
    if expected in ("integer", "number"):
        if _YAML11_OCTAL.fullmatch(text) and text.replace("_", "").strip("+-0"):
            digits = text.lstrip("+-").lstrip("0_").replace("_", "")
            octal = int(text.replace("_", ""), 8)
            return f"a leading zero is not allowed (YAML 1.1 reads {text} as octal {octal}); write {digits}"
        if _YAML11_HEX.fullmatch(text) or _YAML11_BINARY.fullmatch(text):
            decimal = int(text.replace("_", ""), 0)
            return f"write numbers in decimal ({text} is {decimal})"
        if _YAML11_SEXAGESIMAL.fullmatch(text):
            return f"{text} is not a number here (YAML 1.1 reads it as base 60)"
        if "_" in text and _YAML11_UNDERSCORED.fullmatch(text):
            return f"write {text.replace('_', '')} without underscores"
    return ""


def describe_value(value: object) -> str:
    """A short, bounded description of an input value for an error message."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing (null)"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return repr(shown)
    if isinstance(value, int | float):
        text = repr(value)
        return text if len(text) <= 40 else text[:37] + "..."
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def _kind_of(value: object) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "a mapping"


def parse_scalar_text(text: str) -> Any:
    """A command-line value (``--set KEY=VALUE``) read as one YAML scalar.

    Plain text follows :func:`resolve_plain_scalar`; text in single or double quotes
    is a string with YAML's quoting rules (``'"40"'`` is the string ``40``).
    Raises ``ValueError`` with a message when the value cannot be read.
    """
    if "\t" in text:
        raise ValueError("tab characters are not allowed")
    stripped = text.strip()
    if stripped[:1] in ("'", '"'):
        try:
            node = yaml.compose(stripped, Loader=yaml.SafeLoader)
        except yaml.YAMLError as error:
            problem = getattr(error, "problem", None) or "cannot read the quoted value"
            raise ValueError(problem) from None
        if not isinstance(node, ScalarNode) or node.style not in ("'", '"'):
            raise ValueError("expected one quoted value")
        return node.value
    return resolve_plain_scalar(stripped)


# --------------------------------------------------------------------------- the document


@dataclass(frozen=True)
class _Scalar:
    text: str
    plain: bool


@dataclass
class YamlDocument:
    """A loaded file: its data and where each part of it is."""

    source: str
    """The file's display name, used as FILE in diagnostics."""
    data: dict[str, Any]
    _values: dict[KeyPath, tuple[int, int]] = field(default_factory=dict, repr=False)
    _keys: dict[KeyPath, tuple[int, int]] = field(default_factory=dict, repr=False)
    _scalars: dict[KeyPath, _Scalar] = field(default_factory=dict, repr=False)

    def __contains__(self, path: object) -> bool:
        return path in self._values

    def _nearest(self, path: KeyPath) -> KeyPath:
        # Pydantic's error locations can name union members or positions that are not in the
        # data; the longest prefix that is in the document is the best place to point at.
        path = tuple(path)
        while path and path not in self._values:
            path = path[:-1]
        return path

    def location(self, path: Sequence[str | int], key: str | None = None) -> Location:
        """Where the value at ``path`` starts (or the nearest enclosing value that exists)."""
        found = self._nearest(tuple(path))
        line, column = self._values.get(found, (1, 1))
        return Location(self.source, line, column, format_key_path(path) if key is None else key)

    def key_location(self, path: Sequence[str | int], key: str | None = None) -> Location:
        """Where the key of the mapping entry at ``path`` starts (the value's place for list items)."""
        path = tuple(path)
        if path in self._keys:
            line, column = self._keys[path]
            return Location(self.source, line, column, format_key_path(path) if key is None else key)
        return self.location(path, key)

    def scalar_text(self, path: Sequence[str | int]) -> str | None:
        """The source text of an unquoted scalar at ``path``; ``None`` for anything else."""
        scalar = self._scalars.get(tuple(path))
        return scalar.text if scalar is not None and scalar.plain else None

    def value(self, path: Sequence[str | int]) -> Any:
        """The data at ``path``; raises ``KeyError`` when there is none."""
        found, value = _value_at(self.data, path)
        if not found:
            raise KeyError(format_key_path(path))
        return value


# --------------------------------------------------------------------------- loading


class _Problems:
    def __init__(self, source: str) -> None:
        self.source = source
        self.items: list[Diagnostic] = []

    def add(self, mark: Any, message: str, key: str = "") -> None:
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        self.items.append(Diagnostic(self.source, line, column, key, message))
        if len(self.items) >= MAX_DIAGNOSTICS:
            raise _TooMany

    def raise_if_any(self) -> None:
        if self.items:
            raise YamlError(sort_diagnostics(self.items))


class _TooMany(Exception):
    pass


class _Fatal(Exception):
    pass


class _StrictComposer(Composer):
    """PyYAML's composer, refusing anchors, aliases, tags and deep nesting as it goes.

    Aliases never reach the node tree (they become empty scalars after being reported),
    so the tree is no larger than the text and converting it cannot blow up.
    """

    problems: _Problems
    depth: int
    aliases_seen: set[str]

    if TYPE_CHECKING:  # provided by the parser class mixed in below

        def peek_event(self) -> Any: ...

        def get_event(self) -> Any: ...

    def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
        # Tags are not used (scalars are read by _convert's own rules); skipping the resolver's
        # regular expressions makes a 64 KiB list of numbers load a third faster.
        return ""

    def start(self, problems: _Problems) -> None:
        self.problems = problems
        self.depth = 0
        self.aliases_seen = set()

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        event = self.peek_event()
        if isinstance(event, AliasEvent):
            self.get_event()
            # Once per name: an alias bomb repeats each alias many times.
            if event.anchor not in self.aliases_seen:
                self.aliases_seen.add(str(event.anchor))
                self.problems.add(
                    event.start_mark,
                    f"alias *{event.anchor} is not allowed: write the value out in full",
                )
            mark: Any = event.start_mark
            return ScalarNode(_ALIAS_TAG, "", mark, mark)
        if isinstance(event, NodeEvent) and event.anchor is not None:
            self.problems.add(
                event.start_mark,
                f"anchor &{event.anchor} is not allowed: anchors and aliases are not supported",
            )
            # Forget the anchor so the composer neither records it nor rejects a repeated name.
            event.anchor = None
        if isinstance(event, ScalarEvent | CollectionStartEvent) and event.tag is not None:
            shown = event.tag.replace("tag:yaml.org,2002:", "!!", 1)
            self.problems.add(event.start_mark, f"tag {shown} is not allowed: remove it")
            event.tag = None
            if isinstance(event, ScalarEvent):
                event.implicit = (True, True)
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.problems.add(event.start_mark, f"nested more than {MAX_DEPTH} levels deep")
            raise _Fatal
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


if yaml.__with_libyaml__:
    from yaml._yaml import CParser

    # libyaml scans about seven times faster than PyYAML's pure-Python scanner, which keeps even a
    # hostile 64 KiB file well under a second; the composer above still runs on its events.
    class _StrictLoader(_StrictComposer, CParser, Resolver):
        def __init__(self, stream: str, problems: _Problems) -> None:
            CParser.__init__(self, stream)
            Composer.__init__(self)
            Resolver.__init__(self)
            self.start(problems)

else:  # pragma: no cover - PyYAML built without libyaml

    class _StrictLoader(_StrictComposer, Reader, Scanner, Parser, Resolver):  # type: ignore[no-redef]
        def __init__(self, stream: str, problems: _Problems) -> None:
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)
            Composer.__init__(self)
            Resolver.__init__(self)
            self.start(problems)


def _position(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, column


def _decode(raw: bytes, source: str) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        line_start = raw.rfind(b"\n", 0, error.start) + 1
        column = len(raw[line_start : error.start].decode("utf-8", "replace")) + 1
        byte = raw[error.start]
        raise YamlError(
            [
                Diagnostic(
                    source, line, column, "", f"not UTF-8 text: byte 0x{byte:02X}; save the file as UTF-8"
                )
            ]
        ) from None
    return text


def _size_problem(source: str, size: int, max_bytes: int) -> YamlError:
    return YamlError(
        [
            Diagnostic(
                source,
                1,
                1,
                "",
                f"the file is {size} bytes; at most {max_bytes} bytes ({max_bytes // 1024} KiB) are accepted",
            )
        ]
    )


def load_yaml_file(
    path: str | Path, *, display: str | None = None, max_bytes: int = MAX_BYTES
) -> YamlDocument:
    """Read and load one file. ``display`` is the name used in diagnostics (default: ``path`` as given).

    Raises :class:`YamlError` for an unreadable or invalid file (a missing file too, without position).
    """
    source = display if display is not None else str(path)
    try:
        raw = read_regular_file(path, max_bytes)
    except FileTooBigError as error:
        if error.size is None:
            raise YamlError([Diagnostic(source, 1, 1, "", str(error))]) from None
        raise _size_problem(source, error.size, max_bytes) from None
    except FileReadError as error:
        raise YamlError([Diagnostic(source, 0, 0, "", str(error))]) from None
    return load_yaml_text(raw, source, max_bytes=max_bytes)


def load_yaml_text(text: str | bytes, source: str, *, max_bytes: int = MAX_BYTES) -> YamlDocument:
    """Load one document from text (or UTF-8 bytes); ``source`` names it in diagnostics."""
    if isinstance(text, str):
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > max_bytes:
            raise _size_problem(source, size, max_bytes)
    else:
        if len(text) > max_bytes:
            raise _size_problem(source, len(text), max_bytes)
        text = _decode(text, source)
    text = text.removeprefix("\ufeff")

    problems = _Problems(source)
    tab_lines: set[int] = set()
    for match in re.finditer("\t", text):
        line, column = _position(text, match.start())
        if line not in tab_lines and len(tab_lines) < MAX_DIAGNOSTICS:
            tab_lines.add(line)
            problems.items.append(
                Diagnostic(source, line, column, "", "tab character: indent and separate with spaces")
            )
    # The scanner's own complaint about a tab is confusing, so tabs stop the loading here.
    problems.raise_if_any()

    try:
        root = _compose_single(text, problems)
    except _TooMany:
        problems.items.append(_too_many(problems.items[-1] if problems.items else None, source))
        raise YamlError(problems.items) from None
    except _Fatal:
        raise YamlError(sort_diagnostics(problems.items)) from None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problems.add(mark, f"YAML syntax: {error.problem or error.context}")
        raise YamlError(sort_diagnostics(problems.items)) from None
    except yaml.reader.ReaderError as error:
        line, column = _position(text, error.position)
        character = error.character if isinstance(error.character, str) else chr(error.character)
        message = f"non-printable character U+{ord(character):04X} is not allowed"
        raise YamlError([*problems.items, Diagnostic(source, line, column, "", message)]) from None
    if root is None:
        problems.raise_if_any()
        raise YamlError(
            [Diagnostic(source, 1, 1, "", "the file is empty: expected a mapping of keys to values")]
        )
    document = YamlDocument(source, {})
    try:
        data = _convert(root, (), document, problems)
    except _TooMany:
        problems.items.append(_too_many(problems.items[-1] if problems.items else None, source))
        raise YamlError(problems.items) from None
    if problems.items and isinstance(data, dict):
        document.data = data
        raise YamlError(sort_diagnostics(problems.items), document)
    problems.raise_if_any()
    if not isinstance(data, dict):
        line, column = document._values[()]
        found = _kind_of(data)
        raise YamlError(
            [
                Diagnostic(
                    source,
                    line,
                    column,
                    "",
                    f"expected a mapping of keys to values at the top, found {found}",
                )
            ]
        )
    document.data = data
    return document


def _compose_single(text: str, problems: _Problems) -> Node | None:
    loader = _StrictLoader(text, problems)
    try:
        loader.get_event()  # the stream start
        if loader.check_event(StreamEndEvent):
            return None
        root: Node | None = loader.compose_document()
        if not loader.check_event(StreamEndEvent):
            event: Any = loader.peek_event()
            problems.add(
                event.start_mark,
                "a second document starts here: a file holds exactly one document (remove the '---')",
            )
        return root
    finally:
        loader.dispose()


def _convert(node: Node, path: KeyPath, document: YamlDocument, problems: _Problems) -> Any:
    # Recursion is bounded: the composer refused anything deeper than MAX_DEPTH.
    document._values[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, ScalarNode):
        # The pure-Python parser marks a plain scalar's style with None, libyaml with "".
        plain = not node.style
        document._scalars[path] = _Scalar(node.value, plain)
        if not plain:
            return node.value
        try:
            return resolve_plain_scalar(node.value)
        except ValueError as error:
            problems.add(node.start_mark, str(error), format_key_path(path))
            return None
    if isinstance(node, SequenceNode):
        return [_convert(item, (*path, index), document, problems) for index, item in enumerate(node.value)]
    assert isinstance(node, MappingNode)
    result: dict[str, Any] = {}
    first_line: dict[str, int] = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, ScalarNode):
            problems.add(
                key_node.start_mark, "a key must be plain text, not a list or mapping", format_key_path(path)
            )
            continue
        key = key_node.value
        key_path = (*path, key)
        if key in first_line:
            problems.add(
                key_node.start_mark,
                f"duplicate key (first given on line {first_line[key]})",
                format_key_path(key_path),
            )
            continue
        first_line[key] = key_node.start_mark.line + 1
        document._keys[key_path] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
        value = _convert(value_node, key_path, document, problems)
        if (
            isinstance(value_node, ScalarNode)
            and not value_node.style
            and value_node.value == ""
            and value_node.tag != _ALIAS_TAG
        ):
            # An empty value has no text to point at; its key is where the author looks. (An alias,
            # read as null, keeps its place: that is where its error is.)
            document._values[key_path] = document._keys[key_path]
        result[key] = value
    return result


# --------------------------------------------------------------------------- validation messages


class Locator(Protocol):
    """Anything that can say where a value is: a :class:`YamlDocument`, or the ``--set`` options."""

    def location(self, path: Sequence[str | int], key: str | None = None) -> Location: ...

    def key_location(self, path: Sequence[str | int], key: str | None = None) -> Location: ...

    def scalar_text(self, path: Sequence[str | int]) -> str | None: ...


def suggest(word: str, candidates: Iterable[str]) -> str | None:
    """The closest candidate to a misspelt ``word``, if any is close enough."""
    options = list(candidates)
    lowered = {option.lower(): option for option in options}
    if word.lower() in lowered:
        return lowered[word.lower()]
    matches = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    if not matches:
        matches = difflib.get_close_matches(word.lower().replace("-", "_"), options, n=1, cutoff=0.6)
    return matches[0] if matches else None


def _fields_at(model: type[BaseModel] | None, loc: Sequence[str | int]) -> list[str]:
    """The field names of the (nested) model that holds the value at ``loc``."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return []
        info = current.model_fields.get(part)
        if info is None:
            return []
        current = info.annotation
        # Look through Optional / list[...] / dict[str, ...] to the model they hold.
        while typing.get_origin(current) is not None:
            args = [arg for arg in typing.get_args(current) if arg is not type(None)]
            models = [arg for arg in args if isinstance(arg, type) and issubclass(arg, BaseModel)]
            current = models[0] if models else (args[-1] if args else None)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return []


def _value_at(data: Any, path: Sequence[str | int]) -> tuple[bool, Any]:
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


def _unquoted_kind(text: str) -> str:
    try:
        value = resolve_plain_scalar(text)
    except ValueError:
        return ""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return ""


def _message(error: Mapping[str, Any], found: bool, value: Any, plain_text: str | None) -> str:
    kind = error["type"]
    ctx = error.get("ctx") or {}
    got = f", got {describe_value(value)}" if found else ""

    def with_hint(base: str, expected: str) -> str:
        hint = ""
        if plain_text is not None:
            hint = yaml11_hint(plain_text, expected)
        elif isinstance(value, str):
            kind = _unquoted_kind(value)
            if kind == expected or (expected == "number" and kind == "integer"):
                hint = "in quotes it is text; remove the quotes"
        return f"{base}: {hint}" if hint else base

    if kind in ("int_type", "int_parsing", "int_from_float"):
        if isinstance(value, bool):
            return f"expected a whole number, got the boolean {describe_value(value)}"
        return with_hint(f"expected a whole number{got}", "integer")
    if kind in ("float_type", "float_parsing"):
        return with_hint(f"expected a number{got}", "number")
    if kind in ("bool_type", "bool_parsing"):
        return with_hint(f"expected true or false{got}", "boolean")
    if kind in ("string_type", "str_type"):
        # A written null (NULL, ~) was probably meant as text; leaving the value out was not.
        quotable = isinstance(value, bool | int | float) or (value is None and bool(plain_text))
        suffix = " (put it in quotes to make it text)" if quotable else ""
        return f"expected text{got}{suffix}"
    if kind == "literal_error":
        expected = str(ctx.get("expected", ""))
        options = re.findall(r"'([^']*)'", expected)
        text = f"expected one of {', '.join(options)}{got}" if options else f"expected {expected}{got}"
        if isinstance(value, str) and options:
            close = suggest(value, options)
            if close:
                text += f" (did you mean '{close}'?)"
        return text
    if kind == "greater_than_equal":
        return f"must be at least {ctx.get('ge')}{got}"
    if kind == "less_than_equal":
        return f"must be at most {ctx.get('le')}{got}"
    if kind == "greater_than":
        return f"must be more than {ctx.get('gt')}{got}"
    if kind == "less_than":
        return f"must be less than {ctx.get('lt')}{got}"
    if kind == "string_too_short":
        if ctx.get("min_length", 1) == 1:
            return "must not be empty"
        return f"must be at least {ctx.get('min_length')} characters long"
    if kind == "string_too_long":
        return f"must be at most {ctx.get('max_length')} characters long"
    if kind in ("too_short", "too_long"):
        bound = ctx.get("min_length") if kind == "too_short" else ctx.get("max_length")
        size = len(value) if found and isinstance(value, list | dict) else ctx.get("actual_length")
        text = f"expected at {'least' if kind == 'too_short' else 'most'} {_items(bound)}"
        return f"{text}, got {size}" if isinstance(size, int) else text
    if kind == "string_pattern_mismatch":
        return f"must match the pattern {ctx.get('pattern')}"
    if kind == "multiple_of":
        return f"must be a multiple of {ctx.get('multiple_of')}{got}"
    if kind == "finite_number":
        return f"must be a finite number{got}"
    if kind == "int_parsing_size":
        return "the number is too large"
    if kind == "none_required":
        return f"must be empty (null){got}"
    if kind == "enum":
        options = re.findall(r"'([^']*)'", str(ctx.get("expected", "")))
        return f"expected one of {', '.join(options)}{got}" if options else f"not an accepted value{got}"
    if kind == "missing":
        return "is required"
    if kind in ("list_type", "tuple_type"):
        return f"expected a list{got}"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return f"expected a mapping{got}"
    if kind in ("value_error", "assertion_error"):
        return str(ctx.get("error", error["msg"]))
    return _plain_pydantic_message(str(error["msg"]))


def _items(count: object) -> str:
    return f"{count} item" if count == 1 else f"{count} items"


def _plain_pydantic_message(message: str) -> str:
    """A pydantic message this module has no sentence for, without its "Value error, " style prefix."""
    message = re.sub(r"^(?:Value|Assertion) error, ", "", message)
    return message[:1].lower() + message[1:] if message[1:2].islower() else message


def validation_diagnostics(
    error: ValidationError,
    data: Any,
    locator: Locator,
    *,
    prefix: Sequence[str | int] = (),
    model: type[BaseModel] | None = None,
    key_label: Callable[[KeyPath], str] | None = None,
) -> list[Diagnostic]:
    """Turn a pydantic error into positioned diagnostics that quote at most a few characters of input.

    ``data`` is what was validated, found at ``prefix`` in the ``locator``'s input. ``model`` (the class
    validated) lets an unknown key get a "did you mean" from the valid keys at its level. ``key_label``
    names a path in messages (default: :func:`format_key_path` of the full path).
    """
    diagnostics: list[Diagnostic] = []
    # include_input=False: the input can be huge, and str(ValidationError) would serialise all of it.
    for item in error.errors(include_input=False, include_url=False):
        loc = tuple(item["loc"])
        # Union members show up in the location as type names: keep only the parts that are in the data
        # (and the name of a missing key, which by definition is not).
        path: list[str | int] = []
        current = data
        for index, part in enumerate(loc):
            found, child = _value_at(current, [part])
            if found:
                path.append(part)
                current = child
            elif item["type"] == "missing" and index == len(loc) - 1:
                path.append(part)
        full: KeyPath = (*prefix, *path)
        label = key_label(full) if key_label is not None else format_key_path(full)
        found, value = _value_at(data, path)
        if item["type"] == "extra_forbidden":
            name = str(path[-1]) if path else ""
            message = f"unknown key '{name}'"
            close = suggest(name, _fields_at(model, path[:-1]))
            if close:
                message += f"; did you mean '{close}'?"
            diagnostics.append(locator.key_location(full, label).error(message))
            continue
        if item["type"] == "missing":
            parent = full[:-1]
            diagnostics.append(locator.location(parent, label).error(_message(item, False, None, None)))
            continue
        message = _message(item, found, value, locator.scalar_text(full))
        diagnostics.append(locator.location(full, label).error(message))
    return diagnostics


def merge_recovered(
    error: YamlError, validate: Callable[[YamlDocument], list[Diagnostic]]
) -> list[Diagnostic]:
    """``error``'s diagnostics, plus what ``validate`` finds in the data it recovered (if any).

    A validation diagnostic at the very place of a YAML one is left out: it is a consequence
    (an alias read as null), not a second problem.
    """
    diagnostics = list(error.diagnostics)
    if error.document is not None:
        places = {(item.path, item.line, item.column) for item in diagnostics}
        diagnostics += [
            item for item in validate(error.document) if (item.path, item.line, item.column) not in places
        ]
    return sort_diagnostics(diagnostics)


def text_lookalikes(document: YamlDocument, reported: Iterable[Diagnostic] = ()) -> list[Diagnostic]:
    """Plain text values that YAML 1.2 reads as a boolean or a number (``True``, ``0x10``, ``1e3``, ``.inf``).

    This module reads them as text, but an editor (YAML 1.2) reads them as values and flags them
    where text is expected; so that both agree they are refused, with the fix: quote them. A value
    at the place of a diagnostic in ``reported`` (where a number was expected, say) is left out.
    """
    places = {(item.line, item.column) for item in reported if item.path == document.source}
    found: list[Diagnostic] = []
    for path, scalar in document._scalars.items():
        if not scalar.plain or not isinstance(_value_at(document.data, path)[1], str):
            continue
        kind = "a boolean" if _YAML12_BOOL.fullmatch(scalar.text) else None
        if kind is None and _YAML12_NUMBER.fullmatch(scalar.text):
            kind = "a number"
        location = document.location(path)
        if kind is not None and (location.line, location.column) not in places:
            found.append(
                location.error(
                    f"{scalar.text} is {kind} in YAML 1.2 (and in editors): put it in quotes to make it text"
                )
            )
    return found


def iter_mapping(
    document: YamlDocument, path: Sequence[str | int] = ()
) -> Iterator[tuple[str, Any, Location]]:
    """The entries of the mapping at ``path``, in file order, with each value's location."""
    found, mapping = _value_at(document.data, path)
    if not found or not isinstance(mapping, dict):
        return
    for key, value in mapping.items():
        yield key, value, document.location((*path, key))
