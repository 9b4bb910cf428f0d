"""Letters that read as other letters on a screen, for telling players' names apart.

A name is shown in a terminal or a browser, never spelled out code by code: a Cyrillic 'а' (U+0430)
is drawn as the Latin 'a', and 'ạnn' or 'ann' with an accent over its last letter is easily taken for
'ann' in a lobby of small type. :func:`skeleton` reads a name as the eye does, so that two players
whose names look alike are refused as one, whatever keyboard typed them.

The table is kept small and careful: the Cyrillic, Greek, Armenian, Cherokee and Latin letters (small
capitals, and letters with a stroke) that are drawn as a plain Latin letter in common fonts (after
Unicode's confusables, UTS #39), each in its own case.
A letter that only resembles one (Cyrillic 'к', Greek 'ε') is left out: names that a player can tell
apart at a glance stay two names.
"""

from __future__ import annotations

import unicodedata
from typing import Final

_LOOKALIKES_BY_LETTER: Final = {
    "a": "\u0430\u03b1\u0251",  # Cyrillic а, Greek α, Latin alpha ɑ
    "c": "\u0441\u03f2",  # Cyrillic с, Greek lunate sigma ϲ
    "d": "\u0501",  # Cyrillic komi de ԁ
    "e": "\u0435",  # Cyrillic е
    "g": "\u0261",  # Latin script g ɡ
    "h": "\u04bb\u0570",  # Cyrillic shha һ, Armenian ho հ
    "i": "\u0456\u03b9\u0131\u0269",  # Cyrillic і, Greek ι, Latin dotless ı, Latin iota ɩ
    "j": "\u0458\u03f3\u0237",  # Cyrillic ј, Greek yot ϳ, Latin dotless ȷ
    "l": "\u04cf",  # Cyrillic palochka ӏ
    "n": "\u0578",  # Armenian vo ո
    "o": "\u043e\u03bf\u0585",  # Cyrillic о, Greek ο, Armenian oh օ
    "p": "\u0440\u03c1",  # Cyrillic р, Greek ρ
    "q": "\u051b\u0566",  # Cyrillic qa ԛ, Armenian za զ
    "s": "\u0455",  # Cyrillic dze ѕ
    "u": "\u03c5\u057d",  # Greek υ, Armenian seh ս
    "v": "\u03bd\u0475",  # Greek ν, Cyrillic izhitsa ѵ
    "w": "\u051d\u0461",  # Cyrillic we ԝ, omega ѡ
    "x": "\u0445\u03c7",  # Cyrillic х, Greek χ
    "y": "\u0443\u04af",  # Cyrillic у, straight u ү
    "A": "\u0410\u0391",
    "B": "\u0412\u0392",
    "C": "\u0421\u03f9",
    "E": "\u0415\u0395",
    "H": "\u041d\u0397\u04ba",
    "I": "\u0406\u0399\u04c0",
    "J": "\u0408\u037f",
    "K": "\u041a\u039a",
    "M": "\u041c\u039c",
    "N": "\u039d",
    "O": "\u041e\u039f\u0555",
    "P": "\u0420\u03a1",
    "Q": "\u051a",
    "S": "\u0405",
    "T": "\u0422\u03a4",
    "U": "\u054d",
    "W": "\u051c",
    "X": "\u0425\u03a7",
    "Y": "\u04ae\u03a5",
    "Z": "\u0396",
}

_MARKED_BY_LETTER: Final = {
    # Latin letters with a stroke or bar, which no accent-stripping decomposes: the stroke is a mark as an
    # accent is, and names are not told apart by it (ⱥnn, or Łukasz beside Lukasz).
    "a": "\u2c65",  # ⱥ
    "b": "\u0180",  # ƀ
    "c": "\u023c",  # ȼ
    "d": "\u0111\u0256",  # đ, ɖ
    "e": "\u0247",  # ɇ
    "g": "\u01e5",  # ǥ
    "h": "\u0127",  # ħ
    "i": "\u0268",  # ɨ
    "j": "\u0249",  # ɉ
    "k": "\ua741",  # ꝁ
    "l": "\u0142",  # ł
    "o": "\u00f8",  # ø
    "p": "\u1d7d",  # ᵽ
    "r": "\u024d",  # ɍ
    "t": "\u0167",  # ŧ
    "y": "\u024f",  # ɏ
    "z": "\u01b6",  # ƶ
    "A": "\u023a",  # Ⱥ
    "B": "\u0243",  # Ƀ
    "C": "\u023b",  # Ȼ
    "D": "\u0110\u00d0\u0189",  # Đ, Ð (eth), Ɖ (African D)
    "E": "\u0246",  # Ɇ
    "G": "\u01e4",  # Ǥ
    "H": "\u0126",  # Ħ
    "I": "\u0197",  # Ɨ
    "J": "\u0248",  # Ɉ
    "L": "\u0141",  # Ł
    "O": "\u00d8",  # Ø
    "R": "\u024c",  # Ɍ
    "T": "\u0166",  # Ŧ
    "Y": "\u024e",  # Ɏ
    "Z": "\u01b5",  # Ƶ
}
"""Latin letters with a stroke, each read as the letter under it."""

_SMALL_CAPITALS_AND_CHEROKEE: Final = {
    # Small capitals read as the capital they are drawn as (ᴀnn is Ann), and the Cherokee capitals that are
    # drawn as Latin ones (ᎪNN is ANN; a small Cherokee letter folds to its capital, which is read then).
    "A": "\u1d00\u13aa",  # ᴀ Ꭺ
    "B": "\u0299\u13f4",  # ʙ Ᏼ
    "C": "\u1d04\u13df",  # ᴄ Ꮯ
    "D": "\u1d05\u13a0",  # ᴅ Ꭰ
    "E": "\u1d07\u13ac",  # ᴇ Ꭼ
    "G": "\u0262\u13c0",  # ɢ Ꮐ
    "H": "\u029c\u13bb",  # ʜ Ꮋ
    "I": "\u026a",  # ɪ
    "J": "\u1d0a\u13ab",  # ᴊ Ꭻ
    "K": "\u1d0b\u13e6",  # ᴋ Ꮶ
    "L": "\u029f\u13de",  # ʟ Ꮮ
    "M": "\u1d0d\u13b7",  # ᴍ Ꮇ
    "N": "\u0274",  # ɴ
    "O": "\u1d0f",  # ᴏ
    "P": "\u1d18\u13e2",  # ᴘ Ꮲ
    "R": "\u0280\u13a1",  # ʀ Ꭱ
    "S": "\ua731\u13da",  # ꜱ Ꮪ
    "T": "\u1d1b\u13a2",  # ᴛ Ꭲ
    "U": "\u1d1c",  # ᴜ
    "V": "\u1d20\u13d9",  # ᴠ Ꮩ
    "W": "\u1d21\u13b3",  # ᴡ Ꮃ
    "Y": "\u028f",  # ʏ
    "Z": "\u1d22\u13c3",  # ᴢ Ꮓ
}
"""Small capitals and Cherokee capitals, each read as the Latin capital it is drawn as."""

LOOKALIKES: Final = {
    ord(other): letter
    for table in (_LOOKALIKES_BY_LETTER, _MARKED_BY_LETTER, _SMALL_CAPITALS_AND_CHEROKEE)
    for letter, others in table.items()
    for other in others
}
"""Each look-alike's code to the Latin letter it is drawn as."""


def _marked_alphabet(code: int) -> bool:
    """Whether a mark on the letter ``code`` is an accent, which names are not told apart by: a letter of
    the alphabets whose letters take their accents from the combining diacritics (Latin, Greek, Cyrillic,
    Armenian, and their phonetic and extended letters). Elsewhere a mark is often a letter's own vowel
    (Devanagari's ु): two such names are two names."""
    return code < 0x0590 or 0x1D00 <= code < 0x2000 or 0x2C60 <= code < 0x2C80 or 0xA640 <= code < 0xA800


def skeleton(text: str) -> str:
    """``text`` as it reads on a screen: its accents on Latin, Greek and Cyrillic letters left out (a
    mark with no letter before it too), and each look-alike read as the Latin letter it is drawn as.
    The case is kept ('А' reads as 'A'): the caller folds it."""
    kept: list[str] = []
    base: int | None = None
    for character in unicodedata.normalize("NFD", text):
        if unicodedata.category(character) in ("Mn", "Me"):
            if base is None or _marked_alphabet(base):
                continue
        else:
            base = ord(character)
        kept.append(character)
    return "".join(kept).translate(LOOKALIKES)
