"""YAML syntax errors said where the mistake is, not where the parser gave up.

PyYAML reports the place it could go no further: for a quote never closed, the end of the file;
for an apostrophe inside single quotes, the letter after it; for a key indented by one space, that
key with "did not find expected key". Its error often carries a second place, where what it was
reading started (``context_mark``). :func:`syntax_problem` looks at both and at the text, and for
the mistakes a person makes most often (and an escape that names no character, ``"\\ud800"``,
"invalid Unicode character escape code" to libyaml) says what it is, at the place to fix; otherwise
it keeps PyYAML's own words and place. Keys written without their colon (``goal_score=250``) are said by
:func:`missing_colons`, a line each, and the lines of a file whose top is one such text (a file
written as ``--set`` options are) by :func:`top_text_problems`.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import yaml

from kalooki.text import escape_naming_no_character

_KEY_LINE = re.compile(r"(?P<indent> *)[^\s#:'\"\[\]{}-][^:#]*:(?:\s|$)")
"""A line that starts with a ``key:`` (after its indentation)."""

_WORD = re.compile(r"[A-Za-z_][\w-]*")
"""What a key looks like at the start of a line that has no colon after it."""

_CLOSERS = {"[": "]", "{": "}"}
_COLLECTIONS = {"[": "list", "{": "mapping"}


TAB = "\t"
TAB_PROBLEM = "tab character: write spaces instead"
"""What a file and a ``--set`` value are told of a tab, which YAML's scanner refuses in confusing words.
Any tab is refused, in a comment or quoted text too: "indent and separate with spaces" was no help there."""

LONE_CR = re.compile("\r(?!\n)")
LONE_CR_PROBLEM = (
    "a line ends in a carriage return alone (an old Mac line ending): "
    "save the file with LF or CRLF line endings"
)
"""What a file is told of a line break that is a CR alone. YAML reads one as a line break and so did the
loader, but an editor's YAML language server reads the whole file as one line and flags it: refused here,
what the editor flags is refused by validate too. The first is said, with its line and column as the
editor counts them (by LF)."""


def unreadable_character(error: yaml.reader.ReaderError) -> str:
    """What a file and a ``--set`` value are told of a character YAML's reader refuses."""
    character = error.character if isinstance(error.character, str) else chr(error.character)
    return f"non-printable character U+{ord(character):04X} is not allowed"


def syntax_problem(error: yaml.MarkedYAMLError, text: str) -> tuple[int, int, str]:
    """The 1-based line and column of a syntax error and what to say there (without "YAML syntax: ")."""
    lines = text.split("\n")
    problem, context = error.problem_mark, error.context_mark
    explainers = (
        _byte_order_mark,
        _escape_of_no_character,
        _unknown_escape,
        _unclosed_quote,
        _unclosed_flow,
        _quote_inside_quotes,
        _after_closing_quote,
        _reserved_start,
        _indented_key,
        _list_item_among_keys,
        _missing_colon,
        _colon_in_value,
    )
    for explain in explainers:
        found = explain(error, lines)
        if found is not None:
            return found
    mark = problem or context
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    return line, column, str(error.problem or error.context)


def _char(lines: list[str], line: int, column: int) -> str:
    """The character at a 0-based line and column ('' outside the text)."""
    if 0 <= line < len(lines) and 0 <= column < len(lines[line]):
        return lines[line][column]
    return ""


BYTE_ORDER_MARK = "\ufeff"


def _byte_order_mark(error: Any, lines: list[str]) -> tuple[int, int, str] | None:
    # Two files joined into one (the second saved with a byte order mark): the parser stops on the
    # invisible character in words that point nowhere ("did not find expected key").
    problem = error.problem_mark
    if problem is None:
        return None
    for number, text in enumerate(lines[: problem.line + 1]):
        column = text.find(BYTE_ORDER_MARK, 1 if number == 0 else 0)
        if column >= 0:
            return (
                number + 1,
                column + 1,
                "a byte order mark (U+FEFF, invisible) is here; it may only begin a file: delete it",
            )
    return None


def _escape_of_no_character(error: Any, lines: list[str]) -> tuple[int, int, str] | None:
    # libyaml stops after the escape's letter: "\\ud800" is reported at its "d".
    mark = error.problem_mark
    if error.problem != "found invalid Unicode character escape code" or mark is None:
        return None
    start = mark.column - 2
    found = escape_naming_no_character(lines[mark.line][start:]) if 0 <= mark.line < len(lines) else None
    if start < 0 or found is None or found[0] != 0:
        return None
    return mark.line + 1, start + 1, found[1]


_HEX_DIGITS = {"x": (2, "\\x41 is A"), "u": (4, "\\u00E9 is é"), "U": (8, "\\U000000E9 is é")}
"""How many hexadecimal digits each escape of double quotes takes, and one written in full."""

_BACKSLASH_ADVICE = "inside double quotes write a backslash as \\\\, or use single quotes"


def _unknown_escape(error: Any, lines: list[str]) -> tuple[int, int, str] | None:
    # libyaml says "found unknown escape character" at the backslash, and "did not find expected
    # hexdecimal number" at the first digit of \x, \u or \U (PyYAML's scanner says it otherwise).
    mark, problem = error.problem_mark, str(error.problem or "")
    hex_digits = problem.startswith(("did not find expected hexdecimal", "expected escape sequence of"))
    if mark is None or not (hex_digits or problem.startswith("found unknown escape character")):
        return None
    text = lines[mark.line] if 0 <= mark.line < len(lines) else ""
    start = text.rfind("\\", 0, mark.column + 1)
    if hex_digits and _char(lines, mark.line, start + 1) not in _HEX_DIGITS:
        start = text.rfind("\\", 0, max(mark.column - 1, 0))
    letter = _char(lines, mark.line, start + 1)
    if start < 0 or not letter:
        # A backslash at the very end (a --set value "abc\): what it escapes is the closing quote.
        return _never_closed(error.context_mark, lines) if start >= 0 else None
    if letter not in _HEX_DIGITS:
        return mark.line + 1, start + 1, f"\\{letter} is not an escape: {_BACKSLASH_ADVICE}"
    count, example = _HEX_DIGITS[letter]
    end = start + 2
    while end < min(len(text), start + 2 + count) and text[end] in "0123456789abcdefABCDEF":
        end += 1
    if end < len(text) and text[end] not in "\"' \\":
        end += 1
    written = text[start:end]
    message = (
        f"{written} is not an escape: \\{letter} is followed by {count} hexadecimal digits ({example}); "
        + _BACKSLASH_ADVICE
    )
    return mark.line + 1, start + 1, message


AFTER_CLOSING_QUOTE = "text after the closing quote: put all of the value inside the quotes"
"""What to say where a value goes on after its quoted text (``name: "Friday" rules``)."""


def _after_closing_quote(error: Any, lines: list[str]) -> tuple[int, int, str] | None:
    # After a quoted value only the line's end or a comment may come: libyaml says what it expected
    # there instead (a key, a '-', a ',' or '}', the next document), at what came.
    mark, problem = error.problem_mark, str(error.problem or "")
    if mark is None or not problem.startswith(
        ("did not find expected", "found character that cannot start", "block sequence entries are not")
    ):
        return None
    before = lines[mark.line][: mark.column].rstrip() if mark.line < len(lines) else ""
    if not before.endswith(("'", '"')):
        return None
    return mark.line + 1, mark.column + 1, AFTER_CLOSING_QUOTE


def _reserved_start(error: Any, lines: list[str]) -> tuple[int, int, str] | None:
    # `name: %house`, `name: @ours`: characters YAML keeps for itself cannot start plain text.
    mark = error.problem_mark
    if error.problem != "found character that cannot start any token" or mark is None:
        return None
    char = _char(lines, mark.line, mark.column)
    if char not in ("%", "@", "`"):
        return None
    return mark.line + 1, mark.column + 1, f"plain text cannot start with {char}: put the text in quotes"


def _unclosed_quote(error: Any, lines: list[str]) -> tuple[int, int, str] | None:
    context, problem = error.context_mark, str(error.problem or "")
    if error.context != "while scanning a quoted scalar" or context is None:
        return None
    if "end of stream" not in problem and "document" not in problem:
        return None
    return _never_closed(context, lines)


def _never_closed(opening: Any, lines: list[str]) -> tuple[int, int, str] | None:
    """What to say at the quote ``opening`` marks, whose quoted text never ends."""
    if opening is None:
        return None
    quote = _char(lines, opening.line, opening.column) or '"'
    message = f"the quoted text that starts here is never closed (no closing {quote})"
    return opening.line + 1, opening.column + 1, message


def _unclosed_flow(error: Any, lines: list[str]) -> tuple[int, int, str] | None:
    context, problem = error.context_mark, error.problem_mark
    if context is None or problem is None or problem.line <= context.line:
        return None
    if error.context not in ("while parsing a flow sequence", "while parsing a flow mapping"):
        return None
    # It ran into the next key, or to the end: not closed. (A comma missing inside a list written over
    # several lines stops at a value instead, and keeps PyYAML's words.)
    at_end = not "".join(lines[problem.line :]).strip()
    if not at_end and _char(lines, problem.line, problem.column) != ":":
        return None
    opener = _char(lines, context.line, context.column)
    if opener not in _CLOSERS:
        return None
    until = "the end of the file" if at_end else f"line {problem.line + 1}"
    collection, closer = _COLLECTIONS[opener], _CLOSERS[opener]
    message = (
        f"the {collection} that opens here with '{opener}' is never closed (no '{closer}' before {until})"
    )
    return context.line + 1, context.column + 1, message


def _quote_inside_quotes(error: Any, lines: list[str]) -> tuple[int, int, str] | None:
    problem = error.problem_mark
    if problem is None:
        return None
    line, column = problem.line, problem.column
    quote = _char(lines, line, column - 1)
    # A quoted text that ends right before a letter: a quote inside it ended it (it's, "say "hi"").
    if quote not in ("'", '"') or not _char(lines, line, column).isalnum():
        return None
    text = lines[line]
    start = column - 1
    while start > 0 and text[start - 1].isalnum():
        start -= 1
    end = column
    while end < len(text) and text[end].isalnum():
        end += 1
    before, after = text[start : column - 1], text[column:end]
    if quote == "'":
        message = (
            "this apostrophe ends the single-quoted text: inside single quotes write it twice "
            f"({before}''{after}), or use double quotes"
        )
    else:
        message = (
            'this " ends the double-quoted text: inside double quotes write it as \\" '
            f'({before}\\"{after}), or use single quotes'
        )
    return line + 1, column, message


LIST_ITEM_AMONG_KEYS = (
    "a list item where a key goes: write a list under its key, each item indented on a line of its own"
)
"""What to say of a ``- item`` line among a mapping's ``key: value`` lines (PyYAML: "did not find expected
key")."""


def _list_item_among_keys(error: Any, lines: list[str]) -> tuple[int, int, str] | None:
    mark = error.problem_mark
    if mark is None or error.context != "while parsing a block mapping":
        return None
    text = lines[mark.line] if mark.line < len(lines) else ""
    if not text[mark.column :].startswith(("- ", "-\t")) and text[mark.column :] != "-":
        return None
    return mark.line + 1, mark.column + 1, LIST_ITEM_AMONG_KEYS


def _indented_key(error: Any, lines: list[str]) -> tuple[int, int, str] | None:
    problem = error.problem_mark
    if problem is None or error.context not in (None, "while parsing a block mapping"):
        return None
    significant = [
        number for number, text in enumerate(lines) if text.strip() and not text.lstrip().startswith("#")
    ]
    if not significant:
        return None
    first = _KEY_LINE.match(lines[significant[0]])
    problem_text = lines[problem.line] if problem.line < len(lines) else ""
    problem_spaces = len(problem_text) - len(problem_text.lstrip(" "))
    if first is not None and problem.line > significant[0] and problem_spaces < len(first.group("indent")):
        # The whole mapping was taken to start where the first key does; the error comes later.
        spaces = len(first.group("indent"))
        return significant[0] + 1, spaces + 1, f"{_indented(spaces)}: top-level keys start in column 1"
    line = problem.line
    found = _KEY_LINE.match(lines[line]) if line < len(lines) else None
    earlier = [number for number in significant if number < line]
    if found is None or not found.group("indent") or not earlier:
        return None
    spaces = len(found.group("indent"))
    before = lines[earlier[-1]]
    before_spaces = len(before) - len(before.lstrip(" "))
    # The line before must be a whole entry of a mapping (`key: value`), less indented: not a key that
    # opens a nested mapping (`key:`), and not a list item.
    if (
        before_spaces >= spaces
        or _KEY_LINE.match(before) is None
        or before.split(" #")[0].rstrip().endswith(":")
    ):
        return None
    if before_spaces == 0:
        return line + 1, spaces + 1, f"{_indented(spaces)}: top-level keys start in column 1"
    return (
        line + 1,
        spaces + 1,
        f"{_indented(spaces)}, the key on line {earlier[-1] + 1} by {before_spaces}: "
        "keys of one mapping start in the same column",
    )


def _missing_colon(error: Any, lines: list[str]) -> tuple[int, int, str] | None:
    # A line with no `: ` (`goal_score=250`, `goal_score:250`, `goal_score 250`) is read as text
    # that goes on until a later line's colon, which is where PyYAML gives up, even past the end.
    context = error.context_mark
    if error.context != "while scanning a simple key" or context is None or context.line >= len(lines):
        return None
    return _no_colon_line(lines, context.line, context.column)


def _no_colon_line(lines: list[str], line: int, start: int) -> tuple[int, int, str] | None:
    """What to say about a 0-based line whose key, at column ``start``, has no colon after it."""
    text = lines[line][start:].split(" #")[0].rstrip()
    key = _WORD.match(text)
    if key is None:
        return None
    name, rest = key.group(), text[key.end() :]
    value = rest.lstrip(" =:" + LOOKALIKE_COLONS).strip()
    written = f"{name}: {value}" if value and " " not in value else "KEY: VALUE"
    mark = rest.lstrip()[:1]
    if mark and mark in LOOKALIKE_COLONS:
        # A CJK keyboard's colon (U+FF1A) looks like one, and "no colon" sends the eye to one that is there.
        column = start + key.end() + len(rest) - len(rest.lstrip())
        message = (
            f"'{mark}' (U+{ord(mark):04X} {unicodedata.name(mark)}) is not the colon YAML reads after a key: "
            f"write {written}"
        )
    elif rest.startswith(":"):
        column, message = start + key.end(), f"a colon needs a space after it: write {written}"
    elif rest.lstrip().startswith("="):
        column = start + key.end() + len(rest) - len(rest.lstrip())
        message = f"a key and its value are written with a colon, not '=': write {written}"
    else:
        column, message = start, f"this line has no colon after its key: write {written}"
    return line + 1, column + 1, message


def missing_colons(error: yaml.MarkedYAMLError, text: str) -> list[tuple[int, int, str]] | None:
    """Where a syntax error comes of keys with no colon after them: each such line (else None).

    A first key written `goal_score=250` makes the top of the file one text, which goes on over
    the lines below like it until a later line's colon, where PyYAML gives up: every line of that
    text is a key without its colon.
    """
    lines = text.split("\n")
    single = _missing_colon(error, lines)
    if single is not None:
        return [single]
    problem = error.problem_mark
    first = next((number for number, line in enumerate(lines) if _significant(line)), None)
    if problem is None or first is None or problem.line <= first or not _no_colon(lines[first]):
        return None
    return top_text_problems(text, first, problem.line - 1) or None


def top_text_problems(text: str, first: int, last: int) -> list[tuple[int, int, str]]:
    """The lines ``first`` to ``last`` (0-based) of a file whose top is one text, each written
    `KEY=VALUE`, `KEY:VALUE` or `KEY VALUE`; empty when any other line is in it.

    A file written as `--set` options are (`jokers=4`) reads as one text over its lines, not as
    keys; a line of prose (`Our Friday rules`) does not say a key was meant.
    """
    lines = text.split("\n")
    found = []
    for number in range(first, min(last + 1, len(lines))):
        if not _significant(lines[number]):
            continue
        problem = _no_colon_line(lines, number, 0) if _no_colon(lines[number]) else None
        if problem is None:
            return []
        found.append(problem)
    return found


LOOKALIKE_COLONS = "\uff1a\ufe55\ua789\u2236"
"""Characters drawn as a colon that YAML does not read as one: full-width and small (CJK input), the
modifier letter colon, the ratio sign."""

_NO_COLON = re.compile(
    r"[A-Za-z_][\w-]*(?:\s*=|:(?=\S)| +[^\s#=:]\S*\s*(?:#|$)|\s*[" + LOOKALIKE_COLONS + "])"
)
"""A line that starts with a key and a value written without `: ` (`KEY=VALUE`, `KEY:VALUE`, `KEY VALUE`)."""


def _no_colon(line: str) -> bool:
    return _NO_COLON.match(line) is not None and _KEY_LINE.match(line) is None


def _significant(line: str) -> bool:
    return bool(line.strip()) and not line.lstrip().startswith("#")


def _colon_in_value(error: Any, lines: list[str]) -> tuple[int, int, str] | None:
    # `description: Friday: at ours`: a colon and a space inside a plain value read as a second key.
    problem = error.problem_mark
    if problem is None or not str(error.problem or "").startswith("mapping values are not allowed"):
        return None
    text = lines[problem.line] if problem.line < len(lines) else ""
    found = _KEY_LINE.match(text)
    if found is None or problem.column < found.end() or _char(lines, problem.line, problem.column) != ":":
        return None
    key, value = text[: found.end()].rstrip(), text[found.end() :].split(" #")[0].strip()
    quoted = f'"{value}"' if '"' not in value else "'" + value.replace("'", "''") + "'"
    message = (
        "a colon followed by a space inside a value is read as another key: "
        f"put the value in quotes: {key} {quoted}"
    )
    return problem.line + 1, problem.column + 1, message


def _indented(spaces: int) -> str:
    return f"this key is indented by {spaces} space{'s' if spaces > 1 else ''}"
