"""Output on a terminal or into a file whose encoding is not UTF-8 (``LC_ALL=C``, a Latin-1 locale).

Python raises ``UnicodeEncodeError`` on the first character such a stream cannot take, and kalooki's
output is full of them: suits, bullets, arrows, dashes, box drawing, players' and variants' names.
Rather than each command testing the encoding before each symbol, :func:`write_plainly` gives standard
output and standard error an error handler that writes the project's ASCII stand-ins for its symbols
(the letters ``plain_cards`` uses for suits, ``*`` for a bullet, ``->`` for an arrow) and a letter
without its accent (``ě`` as ``e``), or ``?`` where there is none. rich draws its boxes in ASCII of
itself on such a stream; the game screen's own fallbacks (``render.glyphs``) write these same stand-ins.
"""

from __future__ import annotations

import codecs
import io
import sys
import unicodedata

HANDLER = "kalooki-plain"
"""The name the error handler is registered under (``codecs.register_error``)."""

STAND_INS: dict[str, str] = {
    "•": "*",
    "—": "-",
    "–": "-",
    "→": "->",
    "←": "<-",
    "·": "-",
    "▶": ">",
    "✗": "x",
    "✓": "v",
    "×": "x",
    "±": "+/-",
    "…": "...",
    "♣": "C",
    "♦": "D",
    "♥": "H",
    "♠": "S",
    "♧": "C",
    "♢": "D",
    "♡": "H",
    "♤": "S",
    "❤": "H",
    "█": "#",
}
"""The symbols kalooki writes and what stands for each in ASCII: the suits as the card notation's letters."""


def stand_in(char: str) -> str:
    """ASCII for one character no encoding at hand can write."""
    if char in STAND_INS:
        return STAND_INS[char]
    name = unicodedata.name(char, "")
    if name.startswith("BOX DRAWINGS"):
        # As rich's ASCII box draws them: its lines as - and |, every corner and joint as +.
        across, down = "HORIZONTAL" in name, "VERTICAL" in name
        return "-" if across and not down else "|" if down and not across else "+"
    if "BLOCK" in name or "SHADE" in name:
        return "#"
    if unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return ""  # an accent or mark of its own, a zero-width joiner: its letter is written already
    # A letter without its accent (é as e), a ligature as its letters (ﬁ as fi).
    plain = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    return plain if plain and plain.isascii() else "?"


def _handler(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(stand_in(char) for char in error.object[error.start : error.end]), error.end


def _writes_unicode(stream: object) -> bool:
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
    return encoding.startswith("utf")


def register_stand_ins() -> None:
    """Register the stand-ins' error handler under :data:`HANDLER` (once)."""
    try:
        codecs.lookup_error(HANDLER)
    except LookupError:
        codecs.register_error(HANDLER, _handler)


def as_written(text: str, encoding: str | None) -> str:
    """``text`` as a stream in ``encoding`` writes it, stand-ins and all (``±`` as ``+/-``).

    For text rich measures inside a table: it counts ``…`` one column, and the stand-in written in its
    place took three, pushing that row's later columns out of line with the others'."""
    if not encoding:
        return text
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        register_stand_ins()
        return text.encode(encoding, errors=HANDLER).decode(encoding)
    except LookupError:  # an encoding Python does not know: nothing to go by
        return text
    return text


def write_plainly() -> None:
    """Give standard output and error the stand-ins' handler where their encoding is not a UTF."""
    register_stand_ins()
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and not _writes_unicode(stream):
            stream.reconfigure(errors=HANDLER)
