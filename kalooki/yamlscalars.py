"""How this project reads a YAML scalar: a small subset of YAML 1.2, so that nothing turns silently
into a value the author did not mean (:mod:`kalooki.yamlio` reads files with it). A plain (unquoted)
scalar is

* ``null``, ``Null``, ``NULL``, ``~`` or nothing: ``None`` (as every YAML version reads them);
* ``true`` or ``false`` (lowercase only): a ``bool``;
* a decimal integer without a leading zero (``0``, ``42``, ``-7``): an ``int``;
* a decimal fraction (``0.5``, ``-1.25e+3``): a ``float``;
* anything else, including YAML 1.1's ``yes``/``no``/``on``/``off``, ``True``,
  octal ``0250``, hexadecimal ``0x1F``, sexagesimal ``1:30``, ``1_000`` and dates, and YAML
  1.2's octal ``0o17`` and exponents without a dot or a sign (``1e3``): a ``str``.

So where text is expected, ``name: yes`` is the text ``yes``; where a number or a
boolean is expected the validator rejects the text, and :func:`yaml11_hint`
explains what YAML 1.1 would have made of it (``0250`` is octal 168 there).
Quoted and block scalars are always text. Mapping keys are always text.
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from yaml.nodes import MappingNode, ScalarNode

from kalooki.text import escape_naming_no_character, writable_repr
from kalooki.yamlsyntax import AFTER_CLOSING_QUOTE, TAB, TAB_PROBLEM, syntax_problem, unreadable_character

MAX_DIGITS = 50
"""Longest integer accepted; Python refuses to convert very long digit strings anyway."""

_INT = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
# The exponent needs a sign and the fraction a dot, as in PyYAML's YAML 1.1 resolver, so whatever
# PyYAML writes as plain text (e.g. ``1e3``) also reads back as text here.
_FLOAT = re.compile(r"[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+][0-9]+)?")
# Null, NULL: every YAML tool (1.1 and 1.2 alike, editors included) reads them as null, so they are.
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})

# What YAML 1.2's core schema (the YAML language server's, so an editor's) reads as a boolean or a number.
YAML12_BOOL = re.compile(r"true|True|TRUE|false|False|FALSE")
YAML12_NUMBER = re.compile(
    r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+"
    r"|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
)

_YAML11_BOOLS = frozenset(
    word
    for base in ("yes", "no", "on", "off", "true", "false", "y", "n")
    for word in (base, base.capitalize(), base.upper())
)
_YAML11_TRUE = frozenset({"yes", "on", "true", "y"})
"""The YAML 1.1 booleans (lower-cased) that read as true; the rest of :data:`_YAML11_BOOLS` read as false."""
_YAML11_OCTAL = re.compile(r"[-+]?0[0-7_]+")
_YAML11_HEX = re.compile(r"[-+]?0x[0-9a-fA-F_]+")
_YAML11_BINARY = re.compile(r"[-+]?0b[01_]+")
# YAML 1.2 spellings of numbers that are text here: an editor shows them as numbers, with no error.
_YAML12_OCTAL = re.compile(r"[-+]?0o[0-7]+")
_YAML12_EXPONENT = re.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)[eE][-+]?[0-9]+")
_SUGGESTED_MOST = 1e15
"""Past this, a number is no knob's: an exponent so large gets no suggestion (the range says why)."""
_YAML11_SEXAGESIMAL = re.compile(r"[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?")
_YAML11_UNDERSCORED = re.compile(r"[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?")


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
        meant = "true" if text.lower() in _YAML11_TRUE else "false"
        return f"only lowercase true and false are booleans: write {meant}"
    if expected in ("integer", "number"):
        if _YAML11_OCTAL.fullmatch(text) and text.replace("_", "").strip("+-0"):
            digits = text.lstrip("+-").lstrip("0_").replace("_", "")
            octal = int(text.replace("_", ""), 8)
            return f"a leading zero is not allowed (YAML 1.1 reads {text} as octal {octal}); write {digits}"
        if _YAML11_HEX.fullmatch(text) or _YAML11_BINARY.fullmatch(text) or _YAML12_OCTAL.fullmatch(text):
            decimal = int(text.replace("_", ""), 0)
            return f"write numbers in decimal ({text} is {decimal})"
        if _YAML12_EXPONENT.fullmatch(text):
            value = float(text)
            if abs(value) < _SUGGESTED_MOST:
                return f"write numbers in full ({text} is {int(value) if value.is_integer() else value})"
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
        text = writable_repr(value)  # a number Python will not write out is said to be one
        return text if len(text) <= 40 else text[:37] + "..."
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def kind_of(value: object) -> str:
    """What sort of value ``value`` is, for a message: "a number", "a list", "nothing (null)"."""
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


class ValueTextError(ValueError):
    """A command-line value that cannot be read: what to say, and where in the value (0-based)."""

    def __init__(self, message: str, offset: int = 0) -> None:
        super().__init__(message)
        self.offset = offset


# libyaml, as files are read with: the same mistakes get the same words (kalooki.yamlsyntax).
_QUOTED_LOADER: Any = yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader


def parse_scalar_text(text: str) -> Any:
    """A command-line value (``--set KEY=VALUE``) read as one YAML scalar.

    Plain text follows :func:`resolve_plain_scalar`; text in single or double quotes
    is a string with YAML's quoting rules (``'"40"'`` is the string ``40``).
    Raises :class:`ValueTextError` saying what is wrong, and where in ``text``, in the words a
    file's syntax error gets (:func:`~kalooki.yamlsyntax.syntax_problem`).
    """
    tab = text.find(TAB)
    if tab >= 0:
        raise ValueTextError(TAB_PROBLEM, tab)
    stripped = text.strip()
    lead = len(text) - len(text.lstrip())
    if stripped[:1] in ("'", '"'):
        # PyYAML reads a surrogate's escape as half a character, and one past U+10FFFF as a crash.
        bad_escape = escape_naming_no_character(stripped) if stripped[0] == '"' else None
        if bad_escape is not None:
            raise ValueTextError(bad_escape[1], lead + bad_escape[0])
        return _quoted_value(stripped, lead)
    try:
        return resolve_plain_scalar(stripped)
    except ValueError as error:
        raise ValueTextError(str(error), lead) from None


def _quoted_value(text: str, lead: int) -> str:
    try:
        node = yaml.compose(text, Loader=_QUOTED_LOADER)
    except yaml.reader.ReaderError as error:
        raise ValueTextError(unreadable_character(error), lead + error.position) from None
    except yaml.MarkedYAMLError as error:
        line, column, message = syntax_problem(error, text)
        mark = error.problem_mark
        if message in ("did not find expected <document start>", "but found another document") and mark:
            # What follows the quoted text on a line of its own (`'a'` and `'b'`, or `---`), which
            # files meet as their next key.
            line, column, message = mark.line + 1, mark.column + 1, AFTER_CLOSING_QUOTE
        raise ValueTextError(message, lead + _index(text, line, column)) from None
    if isinstance(node, ScalarNode) and node.style in ("'", '"'):
        return str(node.value)
    # `'a': b` reads as a mapping whose key is the quoted text.
    after = node.value[0][0].end_mark if isinstance(node, MappingNode) and node.value else None
    index = _index(text, after.line + 1, after.column + 1) if after is not None else 0
    while index < len(text) and text[index] == " ":
        index += 1
    raise ValueTextError(AFTER_CLOSING_QUOTE, lead + index)


def _index(text: str, line: int, column: int) -> int:
    """The 0-based place in ``text`` of a 1-based line and column."""
    lines = text.split("\n")
    return sum(len(before) + 1 for before in lines[: line - 1]) + column - 1
