"""The schema's card and move patterns accept exactly what the parsers accept.

An editor flags a card or move the pattern refuses; a pattern stricter than the parser
would flag a good script, a looser one would miss ``ZZ``. Hypothesis writes text from the
pieces of the move language (and from anything at all) and compares the two verdicts.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kalooki.cards import CardError, parse_card
from kalooki.moves import MoveSyntaxError, parse_move
from kalooki.textpatterns import card_pattern, move_pattern

CARD = re.compile(card_pattern())
MOVE = re.compile(move_pattern())

PIECES = [
    *"ACDHJKQST0123456789acdhjkqst*,♣♦♥♠♡ſ\u212a",
    "10", "JK", "jk", "Joker", "7H", "10c", "QS", "XX", "1C",
    "draw", "DRAW", "stock", "discard", "ds", "dd", "m", "meld", "b", "build", "s", "swap", "d",
    "low", "HIGH", "0", "2", "02", "²", "٣",
]  # fmt: skip
SPACES = [" ", "  ", "\t", "\u3000", "\n", ""]


def _reads(parser: Callable[[str], object], text: str) -> bool:
    try:
        parser(text)
    except (CardError, MoveSyntaxError):
        return False
    return True


@st.composite
def pieces(draw: st.DrawFn, count: int) -> str:
    words = draw(st.lists(st.sampled_from(PIECES), min_size=1, max_size=count))
    gaps = draw(st.lists(st.sampled_from(SPACES), min_size=len(words) + 1, max_size=len(words) + 1))
    return "".join(gap + word for gap, word in zip(gaps, words, strict=False)) + gaps[-1]


@given(st.one_of(pieces(3), st.text(max_size=6)))
@example("7H")
@example(" 10c ")
@example("7\u017f")  # the long s: str.upper() makes it an S
@example("ZZ")
@example("1C")
def test_card_pattern_is_parse_card(text: str) -> None:
    assert bool(CARD.search(text)) == _reads(parse_card, text), repr(text)


@given(st.one_of(pieces(8), st.text(max_size=12)))
@example("draw stock")
@example("DS")
@example("draw stoc\u212a")  # the Kelvin sign: str.lower() makes it a k
@example("m 7H 8H 9H, QS QD QC")
@example("meld 7H 8H,")
@example("build 2 TH JK low")
@example("build 2 low")
@example("build 0 TH")
@example("build ² TH")
@example("swap 3 5C")
@example("d KD JK")
@example("fly away")
def test_move_pattern_is_parse_move(text: str) -> None:
    assert bool(MOVE.search(text)) == _reads(parse_move, text), repr(text)


def test_build_with_a_superscript_number_is_a_message_not_a_crash() -> None:
    with pytest.raises(MoveSyntaxError, match="table meld's number"):
        parse_move("build ² TH")
