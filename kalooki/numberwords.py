"""What a person meant by a number the file does not hold as one: ``forty``, ``15pts``, ``40# to open``.

A knob's value is a number written in digits, alone on its line but for a comment that starts with
`` #``. :func:`number_hint` says how to write such a value when the text is a number in English
words (``two hundred and fifty`` is 250), a number with a word after it (``40 points``), or a number
with a comment glued to it (YAML starts a comment only at a ``#`` after a space).
"""

from __future__ import annotations

import re

_SMALL = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = {
    word: 10 * (index + 2)
    for index, word in enumerate(
        ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
    )
}
_WORDS = re.compile(r"[a-z]+(?:[\s-]+[a-z]+)*")
_GROUPED = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})+")
"""A number with its thousands set apart by commas (1,000), as it is written in prose."""
_ANOTHER_NUMBER = re.compile(r"(?:^|[\s/-])[0-9]")
"""A second number in what follows a number (`` or 11``, ``-51``), not its own digits (``,00``)."""
_NUMBER_THEN_TEXT = re.compile(r"(?P<number>[-+]?[0-9]+(?:\.[0-9]+)?)(?P<rest>.*)")
_MARK_THEN_NUMBER = re.compile(
    r"(?:[£$€~≈]|<=|>=|≤|≥|about|around|at least|at most|minimum|maximum|min|max)\s*(?P<number>[0-9]+)"
)
"""A number after a currency sign, a comparison or a word that says it is about (``£5``, ``>=40``,
``about 40``): the number is what a knob takes. Not after a bare ``>``: ``>40`` to open is 41."""
_PLAIN_NUMBER = re.compile(r"[-+]?[0-9]+(?:\.[0-9]+)?")
_CURLY_QUOTES = frozenset("“”‘’„«»")
"""Quotes a word processor puts in (“4”), which YAML reads as part of the text."""
_DIGIT_LIKE_LETTERS = frozenset("oOlI")
"""Letters typed for a digit (``4O``, ``1l``): a number with one after it is not a number and a unit."""


_UNITS = frozenset(
    ("point", "points", "pt", "pts", "card", "cards", "player", "players", "pack", "packs", "deck", "decks")
)
"""Words written after a number (``three cards``, ``forty points``) that say what it counts."""


def number_hint(text: str) -> str:
    """How to write ``text`` as the number it seems to mean, or ``""`` when it seems to mean none."""
    value = words_value(text)
    if value is not None:
        return f"write numbers in digits ({text} is {value})"
    bare = text.strip()
    if bare.isdecimal() and not bare.isascii() and len(bare) <= 18:  # no knob has more digits
        # A phone's or an East Asian keyboard's digits (４, ٤): a number, but not in the digits YAML reads.
        return f"write the number in the digits 0-9 ({int(bare)})"
    inside = bare[1:-1].strip()
    if bare[:1] in _CURLY_QUOTES and bare[-1:] in _CURLY_QUOTES and _PLAIN_NUMBER.fullmatch(inside):
        # A word processor's quotes are no quotes to YAML: they are part of the text.
        return f"write the number without the quotes ({inside})"
    spelt, _, unit = text.strip().rpartition(" ")
    if unit.lower() in _UNITS and (value := words_value(spelt)) is not None:
        return f"write the number alone, in digits ({value})"
    if _GROUPED.fullmatch(text.strip()):
        return f"write the number without its commas ({text.strip().replace(',', '')})"
    if (marked := _MARK_THEN_NUMBER.fullmatch(text.strip().lower())) is not None:
        return f"write the number alone ({marked.group('number')})"
    found = _NUMBER_THEN_TEXT.fullmatch(text)
    if found is None or not found.group("rest").strip():
        return ""
    number, rest = found.group("number"), found.group("rest")
    if rest.strip() in ("%", "percent", "per cent"):
        # No knob is a share of anything: the points, cards or players are counted, so 40% is a guess at
        # something else (40 points, a fraction of the goal) that only the author can settle.
        return f"a knob takes a count, not a percentage: write the number alone ({number}, if that is meant)"
    if rest.startswith("#"):
        return f"a comment needs a space before its '#' ({number} {rest})"
    word = rest.strip()
    if _ANOTHER_NUMBER.search(word):
        # "1 or 11", "40-51": the first would be a guess at which the family means.
        return "write one number"
    # A unit (pts, points), not a letter O typed for a zero (4O); or a comma or semicolon after it, as
    # a list or a line of code is written (40,); or a plus, as `kalooki variants` writes "runs 3+" (the
    # knob is already the fewest).
    if (
        (len(word) >= 2 and word[:2].isalpha() and set(word) - {"o", "O"})
        or (len(word) == 1 and word.isalpha() and word not in _DIGIT_LIKE_LETTERS)
        or word in (",", ";", "+", "!", "¢", "p.")
    ):
        return f"write the number alone ({number})"
    return ""


def words_value(text: str) -> int | None:
    """The number ``text`` spells in English words (``forty``, ``two hundred and fifty``), if any."""
    lowered = text.strip().lower()
    if not _WORDS.fullmatch(lowered):
        return None
    words = [word for word in re.split(r"[\s-]+", lowered) if word != "and"]
    if "thousand" in words:
        at = words.index("thousand")
        thousands = _below_thousand(words[:at])
        rest = _below_thousand(words[at + 1 :]) if words[at + 1 :] else 0
        if not thousands or rest is None:
            return None
        return thousands * 1000 + rest
    return _below_thousand(words)


def _below_thousand(words: list[str]) -> int | None:
    """The number from 0 to 999 that ``words`` spell (``nine hundred ninety nine``), or ``None``."""
    value = 0
    if len(words) >= 2 and words[1] == "hundred" and words[0] in _SMALL[1:10]:
        value, words = _SMALL.index(words[0]) * 100, words[2:]
        if not words:
            return value
    if not words:
        return None
    if words[0] in _TENS:
        value += _TENS[words[0]]
        words = words[1:]
        if words and words[0] in _SMALL[1:10]:
            value += _SMALL.index(words[0])
            words = words[1:]
    elif words[0] in _SMALL and not (value and words[0] == "zero"):
        value += _SMALL.index(words[0])
        words = words[1:]
    return value if not words else None
