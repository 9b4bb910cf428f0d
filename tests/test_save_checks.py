"""A loaded save is checked as a whole: seats that match the players, exactly one pack, and no
take-back carried past the end of a hand."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rules_helpers import new_game, play

from kalooki.engine import Game, StateFormatError

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
        f"the saved game is damaged: current: seat {seat} is not at the table: "
        "this 2-player game's seats are 0 to 1"
    )
    assert str(caught.value) == message


def test_the_last_seat_may_be_current() -> None:
    game = new_game({"hand_size": 4, "opening_threshold": 0}, ["7H 8H 9H 2S", "2C 3C 4D 5S"], stock="KD")
    play(game, "draw stock", "meld 7H 8H 9H", "discard 2S")
    assert game.current == 1
    assert Game.from_json(game.to_json()).current == 1


def test_a_save_that_is_not_one_pack() -> None:
    data = saved()
    data["hands"][1] = [*data["hands"][1], data["hands"][1][0]]
    with pytest.raises(StateFormatError) as caught:
        Game.from_json(data)
    assert str(caught.value) == "the saved game is damaged: its cards are not exactly one pack"


def test_the_end_of_a_hand_leaves_nothing_to_take_back() -> None:
    game = new_game({"hand_size": 4, "opening_threshold": 0}, ["7H 8H 9H 2S", "2C 3C 4D 5S"], stock="KD")
    play(game, "draw stock", "meld 7H 8H 9H", "discard KD", "draw stock")
    assert game.to_json()["undo"] is not None
    game.abandon_hand()
    assert game.to_json()["undo"] is None
