"""The named ranks agree with the card notation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from kalooki.cards import (
    ACE,
    CARD_CODES,
    HEARTS,
    JACK,
    JOKER,
    KING,
    QUEEN,
    RANKS,
    CardError,
    card_name,
    card_symbol,
    format_card,
    format_cards,
    full_pack,
    is_joker,
    make_card,
    pack_list,
    parse_card,
    parse_cards,
    rank_of,
    sorted_hand,
)
from kalooki.errors import KalookiError
from kalooki.moves import parse_move


def test_named_ranks_are_the_ranks_written() -> None:
    assert [rank_of(parse_card(text)) for text in ("AS", "JS", "QS", "KS")] == [ACE, JACK, QUEEN, KING]
    assert format_cards(make_card(rank, HEARTS) for rank in RANKS) == "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"


def test_card_codes_cover_the_pack_and_the_joker() -> None:
    pack = full_pack(1, 2)
    assert sorted(pack) == list(range(CARD_CODES))
    assert JOKER == CARD_CODES - 1
    assert (is_joker(JOKER), is_joker(parse_card("JS")), is_joker(parse_card("KS"))) == (True, False, False)


def test_the_pack_in_its_fixed_order() -> None:
    assert pack_list(1, 2) == [*range(52), JOKER, JOKER]
    assert pack_list(2, 0)[:4] == [0, 0, 1, 1]
    assert Counter(pack_list(2, 3)) == full_pack(2, 3)


def test_a_hand_is_shown_by_suit_then_rank_jokers_last() -> None:
    assert format_cards(sorted_hand(parse_cards("JK 2S AC KH JK AS"))) == "AC KH AS 2S JK JK"


@pytest.mark.parametrize("token", ["JK(7♠)", "jk(10h)"])
def test_a_joker_may_carry_its_stand_in_as_a_note(token: str) -> None:
    assert parse_card(token) == JOKER


@pytest.mark.parametrize("token", ["JK(7♠))", "JK(7♠()", "JK(7(♠)", "JK(7 ♠)", "JK(7♠", "JK7♠)"])
def test_a_joker_note_is_one_pair_of_brackets_round_one_word(token: str) -> None:
    with pytest.raises(CardError) as refused:
        parse_card(token)
    assert str(refused.value).startswith(f"'{token}' is not a card: write a rank")


@pytest.mark.parametrize(
    ("token", "apart"),
    [
        ("5d5h5s", "5d 5h 5s"),
        ("10H10S", "10H 10S"),
        ("QSJK", "QS JK"),
        ("7♥8♥", "7♥ 8♥"),
        # A run written as the help and the rulebook write one (A-2-3, 5-6-7) was told how a card is written.
        ("AS-2S-3S", "AS 2S 3S"),
        ("7h-8h-JK-10h", "7h 8h JK 10h"),
        # Two cards are a run written so too, not only three or more.
        ("AS-2S", "AS 2S"),
    ],
)
def test_cards_typed_with_no_space_between_are_told_apart(token: str, apart: str) -> None:
    with pytest.raises(CardError) as refused:
        parse_card(token)
    assert (
        str(refused.value) == f"'{token}' is not a card: write the cards apart, a space between them: {apart}"
    )


# A hyphen between a card and what is no card is no run written out: 7H-XX names no cards to part.
# A joker in a run written so is JK: the other words for it are read only alone (7H-JOKER is no card).
@pytest.mark.parametrize("token", ["5D5", "1010H", "7HX8H", "7H-XX", "7H-JOKER"])
def test_what_only_starts_as_cards_run_together_is_told_how_a_card_is_written(token: str) -> None:
    with pytest.raises(CardError) as refused:
        parse_card(token)
    assert str(refused.value).startswith(f"'{token}' is not a card: write a rank")


@pytest.mark.parametrize("line", ["d " + "A" * 5000, "m 7H 8H " + "Q" * 5000, "b 1 7H " + "\x1b" * 3000])
def test_a_long_bad_card_is_quoted_clipped(line: str) -> None:
    # A page pasted at the prompt: the move is quoted cut short, and so is the card it could not read.
    with pytest.raises(KalookiError) as refused:
        parse_move(line)
    message = str(refused.value)
    assert "is not a card: write a rank" in message
    assert len(message) < 300, message
    assert message.count("…") == 2, message


@pytest.mark.parametrize(
    ("value", "said"),
    [(None, "None"), (7, "7"), (["7H", "8H"], "a list of 2 items"), ({"7H": 1}, "an object of 1 key")],
)
def test_cards_are_read_only_from_text(value: object, said: str) -> None:
    with pytest.raises(CardError) as refused:
        parse_cards(value)  # type: ignore[arg-type]
    assert str(refused.value) == f'{said} is not a list of cards: cards are written as text, e.g. "7H 8H JK"'


def test_a_card_that_is_a_list_is_named_as_one_not_echoed() -> None:
    with pytest.raises(CardError) as refused:
        parse_card(["7H"] * 1000)  # type: ignore[arg-type]
    assert (
        str(refused.value) == "a list of 1,000 items is not a card: a card is written as text, e.g. 7H or JK"
    )


@pytest.mark.parametrize("write", [format_card, card_symbol, card_name])
@pytest.mark.parametrize("code", [-1, 53, 99, "7H", None])
def test_a_code_that_is_no_cards_is_refused_when_written(write: Callable[[Any], str], code: object) -> None:
    # -1 was written as the king of spades (its suit read as spades from the end), 53 failed as an IndexError.
    with pytest.raises(CardError) as caught:
        write(code)
    assert str(caught.value) == f"{code!r} is not a card code (0-51 for standard cards, 52 for a joker)"


def test_every_code_is_written_as_the_move_language_and_people_read_it() -> None:
    assert [format_card(code) for code in (0, 9, 12, 13, 51, JOKER)] == ["AC", "TC", "KC", "AD", "KS", "JK"]
    assert [card_symbol(code) for code in (9, 22, 35, 48, JOKER)] == ["10♣", "10♦", "10♥", "10♠", "JK"]
    # The symbols' table by rank and suit: the kings, and the second suit's ace (a code read as its own).
    assert [card_symbol(code) for code in (0, 12, 13, 25, 51)] == ["A♣", "K♣", "A♦", "K♦", "K♠"]
    assert [card_name(code) for code in (0, 35, JOKER)] == ["ace of clubs", "ten of hearts", "joker"]
