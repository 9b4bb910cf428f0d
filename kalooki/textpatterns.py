"""Regular expressions for the schemas: a card (as :func:`kalooki.cards.parse_card` reads one) and a move.

An editor applies them to a game script's cards and moves, so ``ZZ`` or ``fly away`` is
flagged as it is typed. They accept exactly what the parsers accept, built from the same
constants, and the tests compare them with the parsers on generated text. The parsers
ignore case through ``str.upper``/``str.lower`` and split on ``str.split()`` whitespace, so
the character classes are worked out from those functions over all of Unicode (a few
characters besides ASCII count: the Kelvin sign lowercases to ``k``, the long s uppercases
to ``S``), not written by hand.

The expressions use only syntax that ECMAScript (with the ``u`` flag, as the YAML language
server compiles them) and Python's :mod:`re` (as the ``jsonschema`` package does) read alike.
"""

from __future__ import annotations

import sys
import typing
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache

from pydantic import GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from kalooki.cards import JOKER_NOTE_OPEN, JOKER_WORDS, RANK_TEXTS, SUIT_CHARACTERS
from kalooki.melds import MeldKind, RunEnd
from kalooki.moves import ALIASES, USAGE, DrawSource

_CLASS_SPECIAL = frozenset("\\]^-[")


@cache
def _all_characters() -> tuple[str, ...]:
    return tuple(map(chr, range(sys.maxunicode + 1)))


@cache
def _case_variants(direction: str) -> dict[str, frozenset[str]]:
    """For ``"upper"`` (or ``"lower"``): each character -> the other characters whose ``.upper()`` it is."""
    chars = _all_characters()
    convert = str.upper if direction == "upper" else str.lower
    found: defaultdict[str, set[str]] = defaultdict(set)
    for char, converted in zip(chars, map(convert, chars), strict=True):
        if converted != char and len(converted) == 1:
            found[converted].add(char)
    return {char: frozenset(variants) for char, variants in found.items()}


def _escape(char: str) -> str:
    code = ord(char)
    if char in _CLASS_SPECIAL:
        return "\\" + char
    if 0x20 < code < 0x7F:
        return char
    # \u{...} (ECMAScript) and \U... (Python) differ, so a character beyond the BMP is written as itself.
    return f"\\u{code:04x}" if code <= 0xFFFF else char


def _char_class(chars: Iterable[str]) -> str:
    unique = sorted(set(chars))
    if len(unique) == 1 and unique[0].isascii() and unique[0].isalnum():
        return unique[0]
    return "[" + "".join(_escape(char) for char in unique) + "]"


def _folded(text: str, direction: str) -> str:
    """``text`` as the parser matches it after ``str.upper()`` (or ``str.lower()``) of the input."""
    variants = _case_variants(direction)
    return "".join(_char_class(variants.get(char, frozenset()) | {char}) for char in text)


def _alternatives(texts: Iterable[str], direction: str) -> str:
    return "(?:" + "|".join(_folded(text, direction) for text in texts) + ")"


@cache
def whitespace_class() -> str:
    """What ``str.split()`` and ``str.strip()`` take for whitespace."""
    return _char_class(filter(str.isspace, _all_characters()))


def card_expression() -> str:
    """One card token, unanchored: ``7H``, ``10c``, ``Q♠``, ``JK``, ..."""
    suits = _char_class(
        variant
        for suit in SUIT_CHARACTERS
        for variant in _case_variants("upper").get(suit, frozenset()) | {suit}
    )
    ranks = _alternatives(sorted(RANK_TEXTS, key=len, reverse=True), "upper")
    # A joker's note (JK(7♠)) holds neither brackets nor whitespace, as parse_card requires.
    note = f"{_folded(JOKER_NOTE_OPEN, 'upper')}[^()" + whitespace_class()[1:-1] + "]*\\)"
    return f"(?:{note}|{_alternatives(JOKER_WORDS, 'upper')}|{ranks}{suits})"


@cache
def card_pattern() -> str:
    """A whole string that :func:`kalooki.cards.parse_card` reads (surrounding whitespace allowed)."""
    space = whitespace_class()
    return f"^{space}*{card_expression()}{space}*$"


@cache
def move_pattern() -> str:
    """A whole string that :func:`kalooki.moves.parse_move` reads: one command of the move language."""
    space = whitespace_class()
    gap = f"{space}+"
    card = card_expression()
    # Each verb with its one-letter aliases; "ds" and "dd" stand for a whole draw command.
    spellings: dict[str, list[str]] = defaultdict(list)
    draw_aliases: list[str] = []
    for alias, expansion in ALIASES.items():
        if " " in expansion:
            draw_aliases.append(alias)
        else:
            spellings[expansion].append(alias)
    words = {name: _alternatives([name, *aliases], "lower") for name, aliases in spellings.items()}
    draw = (
        f"{_folded('draw', 'lower')}{gap}{_alternatives(typing.get_args(DrawSource), 'lower')}"
        f"|{_alternatives(draw_aliases, 'lower')}"
    )
    number = "0*[1-9][0-9]*"
    # A meld's group may end with how to read it (JK 6H JK run).
    reading = _alternatives(typing.get_args(MeldKind), "lower")
    group = f"{space}*{card}(?:{gap}{card})*(?:{gap}{reading})?{space}*"
    cards = f"(?:{gap}{card})+"
    meld = f"{words['meld']}{gap}{group}(?:,{group})*"
    build = f"{words['build']}{gap}{number}{cards}(?:{gap}{_alternatives(typing.get_args(RunEnd), 'lower')})?"
    swap = f"{words['swap']}{gap}{number}{cards}"
    discard = f"{words['discard']}{gap}{card}"
    end = f"{_folded('end', 'lower')}(?:{gap}{_folded('turn', 'lower')})?"
    return f"^{space}*(?:{draw}|{meld}|{build}|{swap}|{discard}|{end}){space}*$"


CARD_PATTERN_MESSAGE = (
    "not a card: write a rank (A 2-9 T J Q K, or 10) and a suit (C D H S), e.g. 7H, TC, 10C, QS, "
    "or JK for a joker"
)
MOVE_PATTERN_MESSAGE = f"not a move: {USAGE}"


@dataclass(frozen=True)
class SchemaPattern:
    """``Annotated`` metadata that gives a string field's JSON Schema a pattern, and only its schema.

    The loader checks the text itself, with messages that say what is wrong; the pattern is for
    editors (with the message the YAML language server shows when it does not match). It is
    worked out when a schema is generated, not when the model is defined.
    """

    pattern: Callable[[], str]
    message: str

    def __get_pydantic_json_schema__(
        self, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        schema = handler(core_schema)
        schema["pattern"] = self.pattern()
        schema["patternErrorMessage"] = self.message
        return schema


CARD_TEXT = SchemaPattern(card_pattern, CARD_PATTERN_MESSAGE)
MOVE_TEXT = SchemaPattern(move_pattern, MOVE_PATTERN_MESSAGE)
