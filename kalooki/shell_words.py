"""Commands shown to paste back into a shell: each word as bash reads it back, whatever it holds."""

from __future__ import annotations

import shlex
from collections.abc import Iterable

from kalooki.text import has_controls

_NAMED = {
    "\a": "\\a",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\v": "\\v",
    "\f": "\\f",
    "\r": "\\r",
    "\x1b": "\\E",
}
"""Control characters bash's ``$'...'`` spells by name."""


def shell_word(word: str) -> str:
    """``word`` quoted for bash: as :func:`shlex.quote` does, unless it holds a control character.

    Inside ``'...'`` a tab is typed as a tab, and the hint would show it as ``\\t`` (or break its
    line with a newline), which bash reads back as a backslash and a t: a file name holding one is
    spelled in ``$'...'``, which bash reads back as that very name. A byte that is not UTF-8 (held
    by the name as a lone surrogate) is spelled as that byte.
    """
    if not has_controls(word) and not any(_undecodable(character) for character in word):
        return shlex.quote(word)
    return "$'" + "".join(_escaped(character) for character in word) + "'"


def shell_join(words: Iterable[str]) -> str:
    return " ".join(shell_word(word) for word in words)


def _undecodable(character: str) -> bool:
    return "\udc80" <= character <= "\udcff"


def _escaped(character: str) -> str:
    if character in "\\'":
        return "\\" + character
    if character in _NAMED:
        return _NAMED[character]
    if _undecodable(character):
        return f"\\x{ord(character) - 0xDC00:02x}"
    if not has_controls(character):
        return character
    code = ord(character)
    return f"\\x{code:02x}" if code < 0x80 else f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


__all__ = ["shell_join", "shell_word"]
