"""Strict, safe, positioned YAML loading for the project's hand-written files.

Variant files and game scripts are both read through :func:`load_yaml_file` /
:func:`load_yaml_text`. They return a :class:`YamlDocument`: the plain data (a
``dict`` of ``str`` keys holding dicts, lists, ``str``, ``int``, ``float``,
``bool`` and ``None``) plus the 1-based line and column of every key and value,
looked up by its path of keys (``doc.location(("set", "opening_threshold"))``).

What a file may not do, each reported as a positioned :class:`Diagnostic`:

* be larger than :data:`MAX_BYTES`, be empty, hold several documents, or hold
  anything but a mapping at the top;
* contain bytes that are not UTF-8, tab characters, lines ended by a carriage return alone, or
  non-printable characters;
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

A syntax error is one diagnostic, at the mistake where it can tell (a quote or a bracket never
closed, an apostrophe inside single quotes, a key indented by a space), not where the parser gave
up (:mod:`kalooki.yamlsyntax`); keys written without their colon (``goal_score=250``) are one each,
and so are the lines of a file written as ``--set`` options are, which reads as one text.

Scalars follow a small subset of YAML 1.2 (:mod:`kalooki.yamlscalars`), so that nothing
turns silently into a value the author did not mean. Diagnostics and :class:`YamlError` live in
:mod:`kalooki.diagnostics`; turning pydantic's validation errors into positioned, plain
messages in :mod:`kalooki.validation`. Every name stays importable from here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from yaml.composer import Composer
from yaml.events import AliasEvent, CollectionStartEvent, NodeEvent, ScalarEvent, StreamEndEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import Resolver
from yaml.scanner import Scanner

from kalooki.diagnostics import (
    MAX_DIAGNOSTICS,
    TOO_MANY,
    Diagnostic,
    KeyPath,
    Location,
    YamlError,
    cap_diagnostics,
    format_key_path,
    sort_diagnostics,
    too_many_errors,
    value_at,
)
from kalooki.safeio import FileReadError, FileTooBigError, read_regular_file
from kalooki.suggestions import suggest
from kalooki.text import HALF_PAIR, lone_surrogate, not_utf8
from kalooki.validation import (
    Locator,
    iter_mapping,
    merge_recovered,
    text_lookalikes,
    validation_diagnostics,
)
from kalooki.yamlscalars import (
    MAX_DIGITS,
    describe_value,
    kind_of,
    parse_scalar_text,
    resolve_plain_scalar,
    yaml11_hint,
)
from kalooki.yamlsyntax import (
    LONE_CR,
    LONE_CR_PROBLEM,
    TAB,
    TAB_PROBLEM,
    missing_colons,
    syntax_problem,
    top_text_problems,
    unreadable_character,
)

MAX_BYTES = 64 * 1024
"""Largest file accepted: hand-written files are a few hundred bytes."""

MAX_DEPTH = 32
"""Deepest nesting of mappings and lists accepted."""

_ALIAS_TAG = "!kalooki-alias"
"""The tag of the null scalar an alias is read as, so that it keeps the alias's position."""


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
    top_in_braces: bool = False
    """The top mapping is written ``{...}``, as JSON is: a file a program wrote, not a person."""
    _values: dict[KeyPath, tuple[int, int]] = field(default_factory=dict, repr=False)
    _keys: dict[KeyPath, tuple[int, int]] = field(default_factory=dict, repr=False)
    _scalars: dict[KeyPath, _Scalar] = field(default_factory=dict, repr=False)

    @staticmethod
    def of_data(source: str, data: dict[str, Any]) -> YamlDocument:
        """A document made in code, not read from text (a mapping of knobs): its diagnostics have no line
        or column, only ``source`` and the key."""
        return YamlDocument(source, data, _values={(): (0, 0)})

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
        found, value = value_at(self.data, path)
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
        # A UTF-16 byte-order mark: Windows Notepad's "Unicode", which other encodings' files are not told.
        utf16 = (
            " (it is UTF-16, which some editors call Unicode)"
            if raw[:2] in (b"\xff\xfe", b"\xfe\xff")
            else ""
        )
        raise YamlError(
            [Diagnostic(source, line, column, "", f"{not_utf8(byte)}; save the file as UTF-8{utf16}")]
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


def _empty_problem(text: str) -> str:
    """Why a file that holds no document is refused, in words that say what to write: "a mapping of keys
    to values" was the parser's term, and a file of comments alone (knobs commented out) was called empty."""
    kept = "a key and its value on each line (key: value)"
    if any(line.strip().startswith("#") for line in text.splitlines()):
        return f"the file holds only comments: write {kept}, without a '#' before it"
    return f"the file is empty: write {kept}"


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
    for match in re.finditer(TAB, text):
        line, column = _position(text, match.start())
        if line not in tab_lines and len(tab_lines) < MAX_DIAGNOSTICS:
            tab_lines.add(line)
            problems.items.append(Diagnostic(source, line, column, "", TAB_PROBLEM))
    lone_cr = LONE_CR.search(text)
    if lone_cr is not None:
        line, column = _position(text, lone_cr.start())
        problems.items.append(Diagnostic(source, line, column, "", LONE_CR_PROBLEM))
    # Text a caller decoded leniently may hold half of a UTF-16 pair, which the parser cannot encode
    # (a UnicodeEncodeError out of load_variant_text): said where it is, as a byte that is no UTF-8 is.
    half = HALF_PAIR.search(text)
    if half is not None:
        line, column = _position(text, half.start())
        problems.items.append(Diagnostic(source, line, column, "", lone_surrogate(half.group()) or ""))
    # The scanner's own complaint about a tab is confusing, so tabs stop the loading here.
    problems.raise_if_any()

    try:
        root = _compose_single(text, problems)
    except _TooMany:
        problems.items.append(too_many_errors(problems.items[-1] if problems.items else None, source))
        raise YamlError(problems.items) from None
    except _Fatal:
        raise YamlError(sort_diagnostics(problems.items)) from None
    except yaml.MarkedYAMLError as error:
        problems.items.extend(_syntax_diagnostics(error, text, source))
        raise YamlError(sort_diagnostics(problems.items)) from None
    except yaml.reader.ReaderError as error:
        line, column = _position(text, error.position)
        message = unreadable_character(error)
        raise YamlError([*problems.items, Diagnostic(source, line, column, "", message)]) from None
    if root is None:
        problems.raise_if_any()
        raise YamlError([Diagnostic(source, 1, 1, "", _empty_problem(text))])
    document = YamlDocument(source, {}, top_in_braces=isinstance(root, MappingNode) and bool(root.flow_style))
    try:
        data = _convert(root, (), document, problems)
    except _TooMany:
        problems.items.append(too_many_errors(problems.items[-1] if problems.items else None, source))
        raise YamlError(problems.items) from None
    if problems.items and isinstance(data, dict):
        document.data = data
        raise YamlError(sort_diagnostics(problems.items), document)
    problems.raise_if_any()
    if not isinstance(data, dict):
        lines = _top_text_problems(root, text)
        if lines:
            raise YamlError(_syntax_lines(lines, source))
        line, column = document._values[()]
        said = f"expected a mapping of keys to values at the top, found {kind_of(data)}"
        if data and isinstance(data, list) and all(isinstance(item, dict) for item in data):
            # `- jokers: 4`, each knob as a point of a list, as rules are noted on paper.
            said += ": write each key and its value on a line of its own, without the '- ' before it"
        raise YamlError([Diagnostic(source, line, column, "", said)])
    document.data = data
    return document


def _syntax_diagnostics(error: yaml.MarkedYAMLError, text: str, source: str) -> list[Diagnostic]:
    """A syntax error said at the mistake; where it is keys written without their colon, every such line."""
    found = missing_colons(error, text)
    if found is None:
        return _syntax_lines([syntax_problem(error, text)], source)
    # The parser stops at the first such line: with those found blanked out, it is read again for more.
    every: list[tuple[int, int, str]] = []
    lines = text.split("\n")
    while found and len(every) < MAX_DIAGNOSTICS:
        every.extend(found)
        for line, _, _ in found:
            lines[line - 1] = ""
        found = _more_missing_colons("\n".join(lines))
    return _syntax_lines(every[:MAX_DIAGNOSTICS], source)


def _more_missing_colons(text: str) -> list[tuple[int, int, str]]:
    try:
        root = _compose_single(text, _Problems(""))
    except yaml.MarkedYAMLError as error:
        return missing_colons(error, text) or []
    except (yaml.YAMLError, _TooMany, _Fatal):
        return []
    return _top_text_problems(root, text)


def _top_text_problems(root: Node | None, text: str) -> list[tuple[int, int, str]]:
    """Where the top of the file is one plain text: its lines, when each is a key without its colon."""
    if isinstance(root, ScalarNode) and not root.style:
        # A file written as `--set` options are (`jokers=4`) reads as one text over its lines.
        return top_text_problems(text, root.start_mark.line, root.end_mark.line)
    return []


def _syntax_lines(found: list[tuple[int, int, str]], source: str) -> list[Diagnostic]:
    return [
        Diagnostic(source, line, column, "", f"YAML syntax: {message}") for line, column, message in found
    ]


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
                f"duplicate key (first given on line {first_line[key]}): give it once",
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


__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_DIAGNOSTICS",
    "MAX_DIGITS",
    "TOO_MANY",
    "Diagnostic",
    "KeyPath",
    "Location",
    "Locator",
    "YamlDocument",
    "YamlError",
    "cap_diagnostics",
    "describe_value",
    "format_key_path",
    "iter_mapping",
    "load_yaml_file",
    "load_yaml_text",
    "merge_recovered",
    "parse_scalar_text",
    "resolve_plain_scalar",
    "sort_diagnostics",
    "suggest",
    "text_lookalikes",
    "validation_diagnostics",
    "yaml11_hint",
]
