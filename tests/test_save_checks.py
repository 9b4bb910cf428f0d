"""A loaded save is checked as a whole: seats that match the players, exactly one pack, and no
take-back carried past the end of a hand."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from rules_helpers import new_game, play

from kalooki import rules
from kalooki.bots import make_bot
from kalooki.cards import JOKER, full_pack, pack_difference, parse_card
from kalooki.driver import play_turn
from kalooki.engine import Game, StateFormatError
from kalooki.variant import Variant

SEATS = "the saved game is damaged: its seats do not match its players"


def saved() -> dict[str, Any]:
    game = new_game({"hand_size": 4, "opening_threshold": 0}, ["7H 8H 9H 2S", "2C 3C 4D 5S"], stock="KD")
    play(game, "draw stock", "meld 7H 8H 9H")
    return game.to_json()


def damaged(change: dict[str, Any]) -> dict[str, Any]:
    data = json.loads(json.dumps(saved()))
    data.update(change)
    return data


@pytest.mark.parametrize(
    "change",
    [
        {"dealer": 2},
        {"dealer": -1},
        {"totals": [0]},
        {"opened": [True, False, False]},
        {"eliminated": []},
    ],
)
def test_seats_that_do_not_match_the_players(change: dict[str, Any]) -> None:
    with pytest.raises(StateFormatError) as caught:
        Game.from_json(damaged(change))
    assert str(caught.value) == SEATS


@pytest.mark.parametrize("seat", [2, -1, 7])
def test_a_seat_out_of_range_is_refused_with_this_games_seats(seat: int) -> None:
    # In the game's own terms: pydantic's "Input should be less than 8" held for any game of two players.
    with pytest.raises(StateFormatError) as caught:
        Game.from_json(damaged({"current": seat}))
    message = (
        f"the saved game is damaged: current: {seat} is not at the table: "
        "this 2-player game's seats are 0 to 1"
    )
    assert str(caught.value) == message


def test_the_last_seat_may_be_current() -> None:
    game = new_game({"hand_size": 4, "opening_threshold": 0}, ["7H 8H 9H 2S", "2C 3C 4D 5S"], stock="KD")
    play(game, "draw stock", "meld 7H 8H 9H", "discard 2S")
    assert game.current == 1
    assert Game.from_json(game.to_json()).current == 1


def test_a_save_that_is_not_one_pack_names_the_cards() -> None:
    # It said only "its cards are not exactly one pack", leaving the reader to count 106 cards.
    data = saved()
    data["hands"][1] = [*data["hands"][1], data["hands"][1][0]]
    data["stock"].remove(parse_card("7C"))
    with pytest.raises(StateFormatError) as caught:
        Game.from_json(data)
    assert str(caught.value) == (
        "the saved game is damaged: its cards are not exactly one pack: "
        "2C 3 times (the pack has 2), 7C once (the pack has 2)"
    )


def test_the_difference_from_a_pack_is_said_card_by_card() -> None:
    one = full_pack(1, 0)
    cards = one + Counter([parse_card("QD")])
    cards[parse_card("7C")] = 0
    assert pack_difference(cards, one) == "7C missing, QD twice"
    cards[JOKER] = 1
    assert pack_difference(cards, one) == "7C missing, QD twice, JK once (the pack has 0)"
    assert pack_difference(Counter(), one, most=2) == "AC missing, 2C missing and 50 more"


def test_the_end_of_a_hand_leaves_nothing_to_take_back() -> None:
    game = new_game({"hand_size": 4, "opening_threshold": 0}, ["7H 8H 9H 2S", "2C 3C 4D 5S"], stock="KD")
    play(game, "draw stock", "meld 7H 8H 9H", "discard KD", "draw stock")
    assert game.to_json()["undo"] is not None
    game.abandon_hand()
    assert game.to_json()["undo"] is None


def _turn_edited(knobs: dict[str, Any], moves: list[str], **turn: Any) -> str:
    """Why a game, played to its play phase with ``moves``, is refused once its turn record is edited."""
    game = new_game(
        {"hand_size": 4, "opening_threshold": 0, **knobs}, ["7H 8H 9H 2S", "2C 3C 4D 5S"], stock="KD QC"
    )
    play(game, *moves)
    data = game.to_json()
    data["turn"].update(turn)
    with pytest.raises(StateFormatError) as caught:
        Game.from_json(data)
    return str(caught.value)


def test_freed_jokers_owed_without_a_joker_in_hand_are_refused() -> None:
    # The edit made the turn one that could never end: every discard refused, and a hint failed.
    message = _turn_edited({"released_joker_must_be_melded": True}, ["draw stock"], jokers_owed=1)
    assert message.endswith("the turn owes 1 freed jokers a meld, but the hand holds fewer jokers")


def test_freed_jokers_owed_where_the_variant_never_asks_are_refused() -> None:
    message = _turn_edited({}, ["draw stock"], jokers_owed=1)
    assert message.endswith("which released_joker_must_be_melded: false never asks")


def test_a_discard_owed_that_the_turn_did_not_take_is_refused() -> None:
    message = _turn_edited(
        {"discard_draw": "meld_at_once"}, ["draw stock"], must_use_card=0, must_use_limit=0
    )
    assert message.endswith("the turn owes a card taken from the discard pile, but took no such card")


def test_a_debt_before_the_draw_is_refused() -> None:
    message = _turn_edited({"released_joker_must_be_melded": True}, [], jokers_owed=1)
    assert message.endswith("the turn owes a card to lay before it has drawn")


def test_a_discard_owed_that_the_hand_can_no_longer_lay_is_refused() -> None:
    # 2S was never laid: it is recorded as taken under meld_at_once, but nothing on the table or in
    # ann's hand takes it.
    message = _turn_edited(
        {"discard_draw": "meld_at_once"},
        ["draw stock"],
        drew="discard",
        drawn_card=parse_card("2S"),
        must_use_card=parse_card("2S"),
        must_use_limit=0,
    )
    assert message.endswith("the turn owes what its hand can no longer lay, so it could never end")


def test_a_turn_that_owes_a_taken_discard_it_can_still_lay_restores() -> None:
    game = new_game(
        {"hand_size": 8, "opening_threshold": 0, "discard_draw": "meld_at_once"},
        ["7H 8H 9H 5C 5D QS KS JK", "5H 2S 3D 9C TD 4S 6D 8C"],
        stock="2C 3S",
    )
    play(game, "draw stock", "meld 7H 8H 9H", "discard 2C", "draw stock", "discard 5H", "draw discard")
    assert game.owed_cards() == (parse_card("5H"),)
    assert Game.from_json(game.to_json()).to_json() == game.to_json()


def test_a_turn_whose_melds_laid_are_not_meld_indexes_is_refused() -> None:
    # int() read 0.5 as 0 and 'x' as a damaged save's ValueError: each is named as every other field is.
    message = _turn_edited({}, ["draw stock"], laid=[0.5])
    assert message == "the saved game is damaged: turn.laid[0]: expected a whole number, got 0.5"


def _taken_under_meld_at_once() -> Game:
    """bob has taken ann's 5H from the discard pile under meld_at_once, holding no other: he must lay it."""
    game = new_game(
        {"hand_size": 8, "opening_threshold": 0, "discard_draw": "meld_at_once"},
        ["7H 8H 9H 5C 5D QS KS JK", "5H 2S 3D 9C TD 4S 6D 8C"],
        stock="2C 3S",
    )
    play(game, "draw stock", "meld 7H 8H 9H", "discard 2C", "draw stock", "discard 5H", "draw discard")
    return game


@pytest.mark.parametrize("where", [("turn",), ("turn", "undo")])
def test_copies_of_a_taken_discard_kept_beyond_those_held_are_refused(where: tuple[str, ...]) -> None:
    # Raised to 1, the count let the player keep the 5H, or throw it straight back, unlaid.
    data = _taken_under_meld_at_once().to_json()
    for part in where:
        turn = data["undo"]["turn"] if part == "undo" else data["turn"]
        turn["must_use_limit"] = 1
    with pytest.raises(StateFormatError) as caught:
        Game.from_json(data)
    assert str(caught.value).endswith(
        "the turn lets the hand keep 1 of 5H (the card taken from the discard pile), "
        "but it held 0 before taking it"
    )


def test_copies_kept_counted_where_no_discard_was_taken_are_refused() -> None:
    message = _turn_edited({"discard_draw": "meld_at_once"}, ["draw stock"], must_use_limit=2)
    assert message.endswith(
        "the turn counts copies of a card taken from the discard pile that it may keep, but took no such card"
    )


def test_a_taken_joker_keeps_one_more_copy_for_each_joker_a_swap_frees() -> None:
    # bob takes the joker ann threw, then frees ann's: the hand may keep that one, and the save restores.
    game = new_game(
        {"hand_size": 5, "opening_threshold": 0, "discard_draw": "meld_at_once", "jokers": 4},
        ["7C 7D JK 2S JK", "7H 7S 4C 5C 6C"],
        stock="KD KH",
    )
    play(game, "draw stock", "meld 7C 7D JK", "discard JK", "draw discard", "meld 4C 5C 6C", "swap 1 7H 7S")
    assert (game.turn.must_use_card, game.turn.must_use_limit) == (JOKER, 1)
    assert Game.from_json(game.to_json()).to_json() == game.to_json()


@pytest.mark.parametrize(
    ("field", "said"),
    [
        (
            "current",
            "turn 3 of a hand seat 1 (ann) began, which is seat 1 (ann)'s, but the game has seat 2 (bob)",
        ),
        (
            "turn_number",
            "turn 4 of a hand seat 1 (ann) began, which is seat 2 (bob)'s, but the game has seat 1 (ann)",
        ),
    ],
)
def test_a_player_to_move_that_the_hands_turns_do_not_lead_to_is_refused(field: str, said: str) -> None:
    # Turn 3 of a two-player hand ann began is ann's: moving it to bob gave him a turn out of order.
    game = new_game({"hand_size": 4, "opening_threshold": 0}, ["7H 8H 9H 2S", "2C 3C 4D 5S"], stock="KD QC")
    play(game, "draw stock", "discard 2S", "draw stock", "discard 5S")
    data = game.to_json()
    assert (data["current"], data["turn_number"], data["phase"]) == (0, 3, "draw")
    data[field] += 1
    with pytest.raises(StateFormatError) as caught:
        Game.from_json(data)
    assert str(caught.value).endswith(f"it is {said} to move")


def _between_hands() -> dict[str, Any]:
    """A three-player hand cid won by going out, ann left with 6 points, bob with 2."""
    game = Game(Variant(), ["ann", "bob", "cid"], seed=3)
    bots = [make_bot("greedy", random.Random(seat)) for seat in range(3)]
    while game.phase != "hand_over":
        play_turn(game, bots[game.current])
    data = game.to_json()
    assert (data["results"][0]["winner"], data["results"][0]["hand_points"]) == (2, [6, 2, 0])
    return data


@pytest.mark.parametrize(
    ("points", "said"),
    [
        ([11, 2, 0], "gives seat 1 (ann) 11 points, but the cards they were left with are worth 6"),
        ([6, 2, 4], "gives points to its winner"),
    ],
)
def test_hand_points_that_are_not_the_cards_left_are_refused(points: list[int], said: str) -> None:
    # Scores and totals made to add up, as an editor would: only the cards still held say otherwise.
    data = _between_hands()
    result = data["results"][0]
    result["hand_points"] = points
    result["scores"] = data["totals"] = rules.hand_scores(Variant(), 2, False, points, [0, 1, 2])
    with pytest.raises(StateFormatError) as caught:
        Game.from_json(data)
    assert str(caught.value).endswith(f"hand 1's result {said}")


def test_a_hands_turns_that_are_not_the_turn_it_ended_in_are_refused() -> None:
    data = _between_hands()
    data["results"][0]["turns"] += 1
    with pytest.raises(StateFormatError) as caught:
        Game.from_json(data)
    assert "lasted 37 turns, but it ended in turn 36" in str(caught.value)


def test_hand_points_for_a_player_the_hand_was_not_dealt_to_are_refused() -> None:
    # cid, out of the game since hand 1, was dealt no hand 2: its result gives him nothing. Hand 2 was
    # abandoned, so its scores stay 0 and the totals add up with the edit.
    from test_reachable_checks import cid_out_hand_over

    data = cid_out_hand_over().to_json()
    assert (data["results"][1]["seats"], data["results"][1]["hand_points"]) == ([0, 1], [35, 25, 0])
    data["results"][1]["hand_points"][2] = 5
    with pytest.raises(StateFormatError) as caught:
        Game.from_json(data)
    assert str(caught.value).endswith("hand 2's result gives points to a player it was not dealt to")


def test_a_stand_in_hand_between_hands_is_not_asked_for_its_points() -> None:
    # A table's view holds stand-ins for the hands it does not show: ann's 6D made 5H (5 points, where her
    # result says 6) is taken as a stand-in, and refused as her own cards.
    data = _between_hands()
    assert (data["hands"][0], data["stock"][0]) == ([parse_card("6D")], parse_card("5H"))
    data["hands"][0], data["stock"][0] = [data["stock"][0]], data["hands"][0][0]
    assert Game.from_json(data, stand_ins=[0]).hands[0] == [parse_card("5H")]
    with pytest.raises(StateFormatError) as caught:
        Game.from_json(data)
    assert str(caught.value).endswith(
        "gives seat 1 (ann) 6 points, but the cards they were left with are worth 5"
    )
