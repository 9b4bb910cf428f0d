"""Parsing JSON from files a user hands us (saves, logs) without letting the parser be the weak point.

Python's :func:`json.loads` accepts ``NaN`` and ``Infinity``, turns ``1e400`` into an infinite
float, parses a 5,000-digit number (then ``int()`` refuses it elsewhere), and recurses once
per ``[``, so 100,000 of them raise :class:`RecursionError`; of a key given twice in one object it
keeps the last without a word. :func:`loads` refuses all of these with one :class:`JsonInputError`
line saying where.
"""

from __future__ import annotations

import json
import math
from typing import Any, Literal, NoReturn, TypeGuard

from kalooki.errors import KalookiError

MAX_DIGITS = 30
"""Longest number accepted: every number in a save or a log is far shorter."""


JsonDamage = Literal["empty", "cut off", "too much", "not JSON"]


class _TooMuch(ValueError):
    """Valid JSON this reader refuses (a number too long, a key twice): not "not JSON" to a reader."""


class JsonInputError(KalookiError):
    """Text that is not JSON we accept; the message says where and why, in one line.

    ``line`` and ``column`` (from 1) are where the parser stopped, 0 when it does not say; ``reason`` is
    the why alone. ``damage`` says what a reader is told of a file: ``"empty"`` (nothing but blanks),
    ``"cut off"`` (it ends partway through a document), ``"too much"`` (valid JSON holding what this
    reader refuses: a number too long, a key twice, nesting too deep) or ``"not JSON"``.
    """

    def __init__(self, reason: str, line: int = 0, column: int = 0, damage: JsonDamage = "not JSON") -> None:
        super().__init__(f"line {line} column {column}: {reason}" if line else reason)
        self.reason = reason
        self.line = line
        self.column = column
        self.damage: JsonDamage = damage


def kind_of_fault(error: JsonInputError) -> str:
    """What a line or file that did not parse is called before its reason: "not JSON", or, for valid
    JSON this reader refuses (a number too long, a key twice), what it holds."""
    return "holds what kalooki does not read" if error.damage == "too much" else "not JSON"


def is_whole_number(value: object) -> TypeGuard[int]:
    """Whether a value read from JSON is a whole number: an ``int``, not a ``bool`` (one in Python)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a number JSON allows")


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _TooMuch(f"a number of {len(text.lstrip('-'))} digits (at most {MAX_DIGITS} are accepted)")
    return int(text)


def _real(text: str) -> float:
    if len(text) > MAX_DIGITS + 10:
        raise _TooMuch(f"a number of {len(text)} characters (at most {MAX_DIGITS + 10} are accepted)")
    value = float(text)
    if not math.isfinite(value):
        raise _TooMuch(f"{text} is too large a number")
    return value


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # Python keeps the last of two equal keys without a word: an edited save or a peer's message
    # saying `"name": "x", "name": "y"` would mean what only one reader of it sees.
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _TooMuch(f"the key {json.dumps(key, ensure_ascii=True)} appears twice in one object")
            seen.add(key)
    return found


def loads(text: str | bytes) -> Any:
    """Parse one JSON document strictly; :class:`JsonInputError` for anything else."""
    try:
        return json.loads(
            text, parse_constant=_no_constant, parse_int=_whole, parse_float=_real, object_pairs_hook=_object
        )
    except json.JSONDecodeError as error:
        # "Unterminated string starting at" and "Invalid control character '\\n' at" end where
        # Python adds the place, which is given apart (line, column): the reason stops short of it.
        reason = error.msg.removesuffix(" at").removesuffix(" starting")
        raise JsonInputError(reason, error.lineno, error.colno, _damage(text, error)) from None
    except UnicodeDecodeError as error:
        raise JsonInputError(f"not UTF-8 text (byte {error.start + 1})") from None
    except RecursionError:
        raise JsonInputError("nested too deeply", damage="too much") from None
    except _TooMuch as error:
        raise JsonInputError(str(error), damage="too much") from None
    except ValueError as error:
        raise JsonInputError(str(error)) from None


def _damage(text: str | bytes, error: json.JSONDecodeError) -> JsonDamage:
    """Whether text the parser stopped in is empty, ends early, or is not JSON where it stopped: a string
    that never closes, or a stop at the text's end, is one the writer did not finish. (Bytes are looked
    at as given: the parser reads a UTF-16 byte-order mark alone as no text at all.)"""
    if not text.strip():
        return "empty"
    if error.doc.strip() and (
        error.msg.startswith("Unterminated string") or error.pos >= len(error.doc.rstrip())
    ):
        return "cut off"
    return "not JSON"
