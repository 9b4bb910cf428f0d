"""Text from outside (files, saves, logs, a player's keyboard) made safe to show.

A terminal obeys control characters: an escape sequence in a variant's name can retitle the
window or clear the screen, a newline inside a quoted value turns one diagnostic into two (or
into a fake ``ok`` line), and a right-to-left override makes the rest of a line read backwards.
Names and descriptions refuse them; every other value a message echoes goes through
:func:`escape_controls`, which spells them as Python does (``\\n``, ``\\x1b``), so what is shown
is one line of plain characters.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Final

CONTROL_RANGES: Final = ((0x00, 0x1F), (0x7F, 0x9F), (0x2028, 0x2029), (0x202A, 0x202E), (0x2066, 0x2069))
"""C0 and C1 controls, DEL, the Unicode line and paragraph separators, and the bidirectional
embeddings, overrides and isolates, each range by its first and last code: one of the last in a
variant's name turns the rest of the line round, so a message can be made to read as something else
(the marks U+200E and U+200F, which set a direction without reordering anything, stay allowed)."""


def control_class(spell: Callable[[int], str], *, line_breaks: bool = False) -> str:
    """The inside of a regular expression's character class matching :data:`CONTROL_RANGES`, each
    code written by ``spell``: Python's patterns and JSON Schema's write them differently.
    ``line_breaks``: the line feed is left out of the class (a text of several lines may hold it)."""
    ranges: tuple[tuple[int, int], ...] = CONTROL_RANGES
    if line_breaks:
        ranges = ((0x00, 0x09), (0x0B, 0x1F), *CONTROL_RANGES[1:])
    return "".join(f"{spell(first)}{'-' if last > first + 1 else ''}{spell(last)}" for first, last in ranges)


def _python_escape(code: int) -> str:
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


CONTROL_CHARACTERS: Final = re.compile(f"[{control_class(_python_escape)}]")
"""A character of :data:`CONTROL_RANGES`."""

_SPELLED: Final = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}

ECHO_LIMIT: Final = 80
"""The most characters of someone's input that a message shows back (see :func:`clipped`)."""


def _spell(match: re.Match[str]) -> str:
    character = match.group()
    spelled = _SPELLED.get(character)
    if spelled is not None:
        return spelled
    return _python_escape(ord(character))


def escape_controls(text: str) -> str:
    """``text`` with every control character spelled out: ``"a\\x1b[2Jb"`` for ``a<ESC>[2Jb``."""
    return CONTROL_CHARACTERS.sub(_spell, text)


def has_controls(text: str) -> bool:
    return CONTROL_CHARACTERS.search(text) is not None


def first_control(text: str) -> str | None:
    """The first control character of ``text``, spelled out (None when there is none)."""
    match = CONTROL_CHARACTERS.search(text)
    return None if match is None else _spell(match)


def clipped(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, the last an ellipsis where it was longer.

    A message that quotes what was typed stays one line when a whole page was pasted.
    """
    return text if len(text) <= limit else text[: limit - 1] + "…"


def unlike_ascii(key: str) -> str:
    """For a key with a character no key name has (every one is plain ASCII), that character named:
    a look-alike letter (Cyrillic 'о') or an invisible one (a zero-width space) reads as the key meant."""
    odd = next((char for char in key if not (char.isascii() and char.isprintable())), None)
    if odd is None:
        return ""
    name = unicodedata.name(odd, "a character with no name")
    return f" (it holds U+{ord(odd):04X} {name}; key names are plain ASCII)"


def name_key(name: str) -> str:
    """A player's name as the screens show it: in any case, and in any of Unicode's ways of writing the
    same letters (𝚊𝚗𝚗 in monospace letters, or José with its accent apart, shows as ann or José on a
    terminal). Two names of one key would read as one player."""
    return unicodedata.normalize("NFKC", name).casefold()
