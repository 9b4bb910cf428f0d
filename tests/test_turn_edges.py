"""Turns at the edges of the pack and the table: an empty stock or discard pile, a reshuffle a script
dictates, a table with nothing to build on, and refusals that name the card and the count."""

from __future__ import annotations

from typing import Any

import pytest
from rules_helpers import assert_illegal, new_game, play

from kalooki.cards import format_cards, parse_card, parse_cards
from kalooki.engine import Game, IllegalMoveError
from kalooki.moves import Build, Discard, Draw, parse_move
from kalooki.rulebook import render_rulebook
from kalooki.variant import Variant

HANDS = ["7H 8H 9H TH 2S", "2C 3C 4D 5S 9D"]


def last_stock_card(knobs: dict[str, Any]) -> Game:
    """ann to draw the one card left in the stock (KD); the discard pile holds everything else, 2D on top."""
    game = new_game({"hand_size": 5, "opening_threshold": 0, **knobs}, HANDS, discard="2D", stock="KD")
    game.discard_pile = game.stock[:-1] + game.discard_pile
    game.stock = game.stock[-1:]
    return game


def test_reshuffle_all_leaves_no_discard_to_take() -> None:
    game = last_stock_card({"stock_exhausted": "reshuffle_all"})
    pile = list(game.discard_pile)
    events = play(game, "draw stock")
    assert events[1]["type"] == "reshuffle"
    assert sorted(game.stock) == sorted(pile)
    assert game.discard_pile == []
    play(game, "discard 2S")
    play(game, "draw stock", "discard 9D")
    assert game.discard_pile == parse_cards("2S 9D")


def test_nothing_is_legal_once_the_empty_stock_ended_the_hand() -> None:
    # ann still holds five cards, and she is the current seat, but the hand is over.
    game = last_stock_card({"stock_exhausted": "end_hand"})
    play(game, "draw stock", "discard 2S")
    assert game.phase == "hand_over"
    assert game.hands[game.current]
    assert game.legal_actions() == []
    assert list(game.iter_legal_actions()) == []
    assert game.legal_swaps() == []
    # ann drew and laid nothing: the ended hand keeps no turn to take back, and its save loads.
    assert (game.can_undo(), game.to_json()["undo"]) == (False, None)
    assert Game.from_json(game.to_json()).to_json() == game.to_json()


def test_the_discard_pile_can_be_empty() -> None:
    game = new_game({"hand_size": 5, "opening_threshold": 0}, HANDS, discard="2D", stock="KD")
    # The face-up 2D and all of the stock but KD go to ann's hand.
    game.set_hand(0, game.hands[0] + game.discard_pile + game.stock[:-1])
    game.discard_pile, game.stock = [], game.stock[-1:]
    assert_illegal(game, "draw discard", "the discard pile is empty: draw stock")
    assert game.legal_actions() == [Draw("stock")]
    events = play(game, "draw stock", "discard 2S")
    assert [event["type"] for event in events] == ["draw", "discard", "reshuffle"]
    # bob's turn began with no stock: the whole pile, 2S, became the stock and left none to take.
    assert (game.stock, game.discard_pile) == (parse_cards("2S"), [])
    assert_illegal(game, "draw discard", "the discard pile is empty: draw stock")
    assert game.legal_actions() == [Draw("stock")]


def test_reshuffle_keep_top_with_only_the_top_card_leaves_the_stock_empty() -> None:
    game = new_game(
        {"hand_size": 5, "opening_threshold": 0, "stock_exhausted": "reshuffle_keep_top"},
        HANDS,
        discard="2D",
        stock="KD",
    )
    # The whole stock goes to ann's hand: the pile's one card is its top, so there is nothing to reshuffle.
    game.set_hand(0, game.hands[0] + game.stock)
    game.stock = []
    assert_illegal(game, "draw stock", "the stock is empty: draw discard")
    assert_illegal(game, "discard KD", "ann must draw first: draw discard")  # not "draw stock or ..."
    events = play(game, "draw discard", "discard KD")
    assert [event["type"] for event in events] == ["draw", "discard"]
    assert (game.stock, game.discard_pile, game.current) == ([], parse_cards("KD"), 1)
    assert_illegal(game, "draw stock", "the stock is empty: draw discard")
    assert play(game, "draw discard")[0]["card"] == "KD"


def test_reshuffle_keep_top_waits_for_the_next_turn_where_the_pile_held_one_card() -> None:
    # The stock's last card drawn over a pile of one card: nothing to shuffle under it, so the stock stays
    # empty through the turn, and at the next turn the whole pile except the discard just made becomes the
    # stock.
    knobs = {
        "hand_size": 5,
        "opening_threshold": 0,
        "stock_exhausted": "reshuffle_keep_top",
        "upcard": False,
    }
    game = new_game(knobs, [*HANDS, "5C 6C 7C 8H 9H"], discard=None)
    game.stock = parse_cards("4D QD")  # QD on top
    events = play(game, "draw stock", "discard QD", "draw stock")
    assert [event["type"] for event in events] == ["draw", "discard", "draw"]
    assert (game.stock, game.discard_pile) == ([], parse_cards("QD"))
    events = play(game, "discard 4D")
    assert [event["type"] for event in events] == ["discard", "reshuffle"]
    assert (game.stock, game.discard_pile, game.current) == (parse_cards("QD"), parse_cards("4D"), 2)
    rulebook = render_rulebook(game.variant)
    assert (
        "If that card is all the pile holds, the stock stays empty until the next turn begins, and then the "
        "whole pile except the discard just made becomes the stock." in rulebook
    )
    assert "the player with the lowest total wins, and players tied on it share the win." in rulebook


def test_a_forced_reshuffle_must_hold_the_discard_pile() -> None:
    game = last_stock_card({"stock_exhausted": "reshuffle_all"})
    pile = list(game.discard_pile)
    game.forced_reshuffles = [[*pile[1:], parse_card("KD")]]
    with pytest.raises(IllegalMoveError) as caught:
        game.apply(parse_move("draw stock"))
    assert str(caught.value) == "the reshuffled stock does not hold the discard pile's cards"
    game = last_stock_card({"stock_exhausted": "reshuffle_all"})
    order = list(reversed(game.discard_pile))
    # Reshuffles are dictated in the order they happen: the first listed is the first used.
    game.forced_reshuffles = [list(order), list(game.discard_pile)]
    events = play(game, "draw stock")
    assert game.stock == order
    assert events[1]["stock"] == format_cards(reversed(order))
    assert game.forced_reshuffles == [list(reversed(order))]


def test_a_swap_with_no_meld_on_the_table() -> None:
    game = new_game(
        {"hand_size": 5, "opening_threshold": 0, "joker_release_requires_opening": False}, HANDS, stock="KD"
    )
    play(game, "draw stock")
    assert_illegal(game, "swap 1 9C", "there are no melds on the table yet")
    play(game, "meld 7H 8H 9H")
    assert_illegal(game, "swap 2 9C", "there is no table meld 2: the melds are numbered 1 to 1")
    assert_illegal(game, "build 2 TH", "there is no table meld 2: the melds are numbered 1 to 1")
    with pytest.raises(IllegalMoveError) as caught:
        game.apply(Build(meld=0, cards=(parse_card("TH"),)))
    assert str(caught.value) == "there is no table meld 0: the melds are numbered 1 to 1"


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("meld 7H 8H 9H JK", "you have no JK in your hand to play"),
        ("meld 7H 7H 8H 9H", "you have only 1 7H in your hand to play 2 times"),
        ("meld 2S 2S 2S", "you have only 1 2S in your hand to play 3 times"),
        ("meld 6H 7H 8H", "you have no 6H in your hand to play"),
        # It said "you have no JK in your hand to play 2 times": none is none, however many are played.
        ("meld 7H JK JK", "you have no JK in your hand to play"),
        ("meld 6H 6H 6S", "you have no 6H in your hand to play"),
    ],
)
def test_laying_cards_the_hand_does_not_hold(move: str, message: str) -> None:
    game = new_game({"hand_size": 5, "opening_threshold": 0}, HANDS, stock="KD")
    play(game, "draw stock")
    assert_illegal(game, move, message)


def test_building_cards_the_hand_does_not_hold() -> None:
    game = new_game({"hand_size": 5, "opening_threshold": 0}, HANDS, stock="KD")
    play(game, "draw stock", "meld 7H 8H 9H")
    # ann holds TH 2S KD: a 6H would fit the run's low end, a second TH its high end.
    assert_illegal(game, "build 1 6H", "you have no 6H in your hand to play")
    assert_illegal(game, "build 1 TH TH", "you have only 1 TH in your hand to play 2 times")


class _OwnDraw(Draw):
    """A caller's own kind of draw (apply checks a plain Draw by its exact type first)."""

    __slots__ = ()


class _OwnDiscard(Discard):
    __slots__ = ()


def test_a_callers_own_kind_of_draw_and_discard_plays_as_a_draw_and_a_discard() -> None:
    game = new_game({"hand_size": 5, "opening_threshold": 0}, HANDS, stock="KD")
    drawn = game.apply(_OwnDraw("stock"))
    discarded = game.apply(_OwnDiscard(parse_card("2S")))
    assert [event["type"] for event in [*drawn, *discarded]] == ["draw", "discard"]
    assert (game.hands[0], game.discard_pile[-1], game.current) == (
        parse_cards("7H 8H 9H TH KD"),
        parse_card("2S"),
        1,
    )


def test_meld_events_number_the_new_melds() -> None:
    game = new_game(
        {"hand_size": 9, "opening_threshold": 0},
        ["7H 8H 9H 2C 2D 2S 4C 5C 6C", "2H 3H 4D 5S 9D TC JC QC KC"],
        stock="KD",
    )
    events = play(game, "draw stock", "meld 7H 8H 9H, 2C 2D 2S")
    assert (events[1]["numbers"], events[1]["melds"]) == ([1, 2], ["7H 8H 9H", "2C 2D 2S"])
    assert play(game, "meld 4C 5C 6C")[0]["numbers"] == [3]
    assert game.to_json()["turn"]["drew"] == "stock"


def test_meld_at_once_with_a_copy_already_in_hand() -> None:
    # ann holds a 7H and takes the other 7H from the pile: melding one 7H pays for the one taken.
    game = new_game(
        {"hand_size": 5, "opening_threshold": 0, "discard_draw": "meld_at_once"},
        ["5H 6H 7H 2S 3C", "2H 3H 4D 5S 9D"],
        discard="7H",
        stock="KD",
    )
    play(game, "draw discard")
    assert game.to_json()["turn"]["drew"] == "discard"
    assert game.owed_cards() == (parse_card("7H"),)
    play(game, "meld 5H 6H 7H")
    assert game.owed_cards() == ()
    play(game, "discard 2S")
    assert game.current == 1


def test_a_refusal_about_the_player_is_worded_for_the_log_and_for_the_player() -> None:
    game = Game(Variant(), ["ann", "bob"], seed=1)
    assert game.current == 0
    with pytest.raises(IllegalMoveError) as caught:
        game.apply(Discard(game.hands[0][0]))
    error = caught.value
    assert str(error) == "ann must draw first: draw stock or draw discard"
    assert (error.player, error.to_player) == ("ann", "you must draw first: draw stock or draw discard")
    game.apply(Draw("stock"))
    with pytest.raises(IllegalMoveError) as caught:
        game.apply(Draw("stock"))
    assert caught.value.to_player == "you have drawn already this turn: meld, build, swap or discard"
    with pytest.raises(IllegalMoveError) as caught:
        game.apply(Discard(next(card for card in range(52) if card not in game.hands[0])))
    assert caught.value.player is None
    assert caught.value.to_player == str(caught.value)
