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
from typing import Final

CONTROL_CHARACTERS: Final = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""C0 and C1 controls, DEL, the Unicode line and paragraph separators, and the bidirectional
embeddings, overrides and isolates: one of those in a variant's name turns the rest of the line
round, so a message can be made to read as something else (the marks U+200E and U+200F, which set a
direction without reordering anything, stay allowed)."""

_SPELLED: Final = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}

ECHO_LIMIT: Final = 80
"""The most characters of someone's input that a message shows back (see :func:`clipped`)."""


def _spell(match: re.Match[str]) -> str:
    character = match.group()
    spelled = _SPELLED.get(character)
    if spelled is not None:
        return spelled
    code = ord(character)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


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
