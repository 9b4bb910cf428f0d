"""A turn that owes a card (meld_at_once, released_joker_must_be_melded) can always still pay it."""

from __future__ import annotations

import pytest
from rules_helpers import assert_illegal, hand_text, new_game, play, table_text
from test_rules_jokers import table_position

from kalooki.cards import JOKER, parse_card, parse_cards
from kalooki.engine import Game
from kalooki.moves import Meld, Swap

STRANDED_5H = "that would leave you unable to meld the 5H you took from the discard pile"
JOKER_NOT_MELDED = "a freed joker must go into a new meld this turn, and your hand could not meld it"


def taken_5h(rule: str) -> Game:
    """ann has opened with 7H 8H 9H and holds 5C 5D QS KS JK; bob discards 5H and ann takes it."""
    game = new_game(
        {"hand_size": 8, "opening_threshold": 0, "discard_draw": rule},
        ["7H 8H 9H 5C 5D QS KS JK", "5H 2S 3D 9C TD 4S 6D 8C"],
        stock="2C 3S",
    )
    play(game, "draw stock", "meld 7H 8H 9H", "discard 2C")
    play(game, "draw stock", "discard 5H")
    play(game, "draw discard")
    return game


def test_a_meld_that_would_strand_the_taken_discard_is_refused() -> None:
    game = taken_5h("meld_at_once")
    # After QS KS JK only 5C 5D 5H would be left: melding all three leaves nothing to discard.
    assert_illegal(game, "meld QS KS JK", STRANDED_5H)
    assert Meld((tuple(parse_cards("QS KS JK")),)) not in game.legal_actions()
    # 5C 5D JK leaves the 5H a place on the new set: that is allowed.
    assert Meld((tuple(parse_cards("5C 5D JK")),)) in game.legal_actions()
    play(game, "meld 5C 5D 5H", "discard KS")
    assert table_text(game) == ["7H 8H 9H", "5C 5D 5H"]


def test_without_meld_at_once_the_same_meld_is_fine() -> None:
    game = taken_5h("always")
    play(game, "meld QS KS JK", "discard 5H")
    assert table_text(game) == ["7H 8H 9H", "QS KS JK"]


@pytest.mark.parametrize("must_meld", [True, False])
def test_a_freed_joker_built_onto_the_table_does_not_pay(must_meld: bool) -> None:
    game = table_position({"released_joker_must_be_melded": must_meld}, "5H 6H JK 8H", "7H QS QD")
    play(game, "swap 2 7H")
    assert hand_text(game, 0) == ["JK", "KH", "QD", "QS"]
    if must_meld:
        assert_illegal(game, "build 1 JK", JOKER_NOT_MELDED)
        play(game, "meld QS QD JK", "discard KH")
        assert table_text(game)[-1] == "QS QD JK"
    else:
        play(game, "build 1 JK", "discard KH")
        assert table_text(game)[0] == "5S 6S 7S JK"


def test_a_joker_taken_from_the_discard_pile_and_a_freed_joker_are_owed_separately() -> None:
    game = new_game(
        {
            "hand_size": 7,
            "opening_threshold": 0,
            "discard_draw": "meld_at_once",
            "released_joker_must_be_melded": True,
        },
        ["7C 8C 9C 3D 5H 5S KC", "2D JK 4D 5D 6D JK 9S"],
        stock="2C 3S",
    )
    play(game, "draw stock", "meld 7C 8C 9C", "discard 2C")
    play(game, "draw stock", "meld 2D JK 4D 5D 6D", "discard JK")
    play(game, "draw discard")
    assert game.owed_cards() == (JOKER,)
    assert Swap(2, (parse_card("3D"),)) in game.legal_actions()
    play(game, "swap 2 3D")
    # One joker for the discard taken, one freed: both go into the new meld.
    assert game.owed_cards() == (JOKER, JOKER)
    assert_illegal(
        game, "discard KC", "you took JK from the discard pile: meld or build it before you discard"
    )
    play(game, "meld 5H 5S JK JK", "discard KC")
    assert game.results[-1].winner == 0
