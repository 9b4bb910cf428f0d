"""A saved state's shape check takes each field right up to its bound and refuses one step past it.

:func:`kalooki.statecheck.check_state_shape` runs before anything is built from a save, so its
bounds are all that stands between an edited number and the engine: each is pinned here from both
sides, with the one-line message that names the field.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from rules_helpers import new_game, play

from kalooki.engine import StateFormatError
from kalooki.statecheck import check_state_shape, rng_state_problem

Edit = Callable[[dict[str, Any]], None]

MAX_WHOLE = 10**12
"""The bound of every count, total and number in a state, written out: the module's own constant would
move with it."""

A_RESULT = {
    "number": 1,
    "winner": 0,
    "kalooki": False,
    "end": "went_out",
    "seats": [0, 1],
    "hand_points": [0, 5],
    "scores": [0, 5],
    "turns": 3,
}


def state() -> dict[str, Any]:
    """A saved state in play, with one past hand's result so the results' fields are there to edit."""
    game = new_game({"hand_size": 4, "opening_threshold": 0}, ["7H 8H 9H 2S", "2C 3C 4D 5S"], stock="KD")
    play(game, "draw stock", "meld 7H 8H 9H")
    data: dict[str, Any] = json.loads(json.dumps(game.to_json()))
    data["results"] = [dict(A_RESULT)]
    return data


def setting(*path: str | int, value: Any) -> Edit:
    """An edit that sets the field at ``path`` (keys and list indexes) to ``value``."""

    def edit(data: dict[str, Any]) -> None:
        place: Any = data
        for step in path[:-1]:
            place = place[step]
        place[path[-1]] = value

    return edit


def both(*edits: Edit) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        for each in edits:
            each(data)

    return edit


def meld(**fields: Any) -> Edit:
    return setting(
        "table", 0, value={"kind": "run", "cards": [32, 33, 34], "owner": 0, "rank": 7, "suit": 2} | fields
    )


WITHIN = [
    setting("totals", 0, value=MAX_WHOLE),
    setting("totals", 1, value=-MAX_WHOLE),
    setting("turn_number", value=0),
    setting("turn_number", value=MAX_WHOLE),
    setting("first_seat", value=1),  # the last seat of this 2-player game
    setting("stock", 0, value=0),
    setting("stock", 0, value=52),
    meld(cards=[32]),
    meld(cards=[32] * 14),
    meld(rank=1, suit=-1),
    meld(rank=14, suit=3),
    meld(owner=1),
    meld(joker_layers=[1] * 14),
    setting("turn", "must_use_limit", value=24),
    setting("turn", "jokers_owed", value=8),
    # The most melds a table holds: four decks and eight jokers in melds of three.
    setting("turn", "laid", value=[0] * 72),
    setting("results", 0, "number", value=MAX_WHOLE),
    setting("results", 0, "seats", value=[0]),
    setting("results", 0, "seats", value=[0, 1] * 4),
    setting("results", 0, "hand_points", value=[0] * 8),
    setting("results", 0, "scores", value=[-MAX_WHOLE] * 8),
    setting("players", value=[f"p{seat}" for seat in range(8)]),
    setting("hands", value=[[]] * 8),
    setting("opened", value=[False] * 8),
    setting("totals", value=[0] * 8),
    setting("eliminated", value=[False] * 8),
    setting("winners", value=[0] * 8),
    setting("hand_number", value=1),
    setting("hand_number", value=MAX_WHOLE),
    setting("turn_limit", value=1),
    setting("turn_limit", value=MAX_WHOLE),
]


@pytest.mark.parametrize("edit", WITHIN, ids=range(len(WITHIN)))
def test_a_field_at_its_bound_has_the_shape_of_a_state(edit: Edit) -> None:
    data = state()
    edit(data)
    check_state_shape(data)


LESS = "must be at most"
MORE = "must be at least"
SEATS = "is not at the table: this 2-player game's seats are 0 to 1"
BEYOND = [
    (setting("totals", 0, value=MAX_WHOLE + 1), f"totals[0]: {LESS} {MAX_WHOLE}, got {MAX_WHOLE + 1}"),
    (setting("totals", 1, value=-MAX_WHOLE - 1), f"totals[1]: {MORE} -{MAX_WHOLE}, got {-MAX_WHOLE - 1}"),
    (setting("turn_number", value=-1), f"turn_number: {MORE} 0, got -1"),
    (setting("turn_number", value=MAX_WHOLE + 1), f"turn_number: {LESS} {MAX_WHOLE}, got {MAX_WHOLE + 1}"),
    # A seat past this game's players, as one past any game's, is named with this game's seats.
    (setting("first_seat", value=2), f"first_seat: 2 {SEATS}"),
    (setting("first_seat", value=8), f"first_seat: 8 {SEATS}"),
    (setting("first_seat", value=-1), f"first_seat: -1 {SEATS}"),
    (setting("stock", 0, value=-1), f"stock[0]: {MORE} 0, got -1"),
    (setting("stock", 0, value=53), f"stock[0]: {LESS} 52, got 53"),
    (meld(cards=[]), "table[0].cards: expected at least 1 item, got 0"),
    (meld(cards=[32] * 15), "table[0].cards: expected at most 14 items, got 15"),
    (meld(rank=0), f"table[0].rank: {MORE} 1, got 0"),
    (meld(rank=15), f"table[0].rank: {LESS} 14, got 15"),
    (meld(suit=-2), f"table[0].suit: {MORE} -1, got -2"),
    (meld(suit=4), f"table[0].suit: {LESS} 3, got 4"),
    (meld(owner=2), f"table[0].owner: 2 {SEATS}"),
    (meld(joker_layers=[1] * 15), "table[0].joker_layers: expected at most 14 items, got 15"),
    (setting("turn", "must_use_limit", value=25), f"turn.must_use_limit: {LESS} 24, got 25"),
    (setting("turn", "must_use_limit", value=-1), f"turn.must_use_limit: {MORE} 0, got -1"),
    (setting("turn", "jokers_owed", value=9), f"turn.jokers_owed: {LESS} 8, got 9"),
    (setting("turn", "jokers_owed", value=-1), f"turn.jokers_owed: {MORE} 0, got -1"),
    (setting("turn", "laid", value=[0] * 73), "turn.laid: expected at most 72 items, got 73"),
    (setting("turn", "laid", value=[-1]), f"turn.laid[0]: {MORE} 0, got -1"),
    (setting("results", 0, "number", value=0), f"results[0].number: {MORE} 1, got 0"),
    (
        setting("results", 0, "number", value=MAX_WHOLE + 1),
        f"results[0].number: {LESS} {MAX_WHOLE}, got {MAX_WHOLE + 1}",
    ),
    (setting("results", 0, "seats", value=[]), "results[0].seats: expected at least 1 item, got 0"),
    (setting("results", 0, "seats", value=[0] * 9), "results[0].seats: expected at most 8 items, got 9"),
    (setting("results", 0, "seats", value=[0, 5]), f"results[0].seats[1]: 5 {SEATS}"),
    (
        setting("results", 0, "hand_points", value=[0] * 9),
        "results[0].hand_points: expected at most 8 items, got 9",
    ),
    (setting("results", 0, "scores", value=[0] * 9), "results[0].scores: expected at most 8 items, got 9"),
    (setting("results", 0, "turns", value=-1), f"results[0].turns: {MORE} 0, got -1"),
    (setting("players", value=["ann"]), "players: expected at least 2 items, got 1"),
    (setting("players", value=5), "players: expected a list, got 5"),
    (
        both(setting("players", value=[f"p{seat}" for seat in range(8)]), setting("current", value=8)),
        "current: 8 is not at the table: this 8-player game's seats are 0 to 7",
    ),
    # Two fields out of range: the first is named.
    (
        both(setting("hand_number", value=0), setting("turn_number", value=-1)),
        f"hand_number: {MORE} 1, got 0",
    ),
    (setting("players", value=[f"p{seat}" for seat in range(9)]), "players: expected at most 8 items, got 9"),
    (setting("hands", value=[[]] * 9), "hands: expected at most 8 items, got 9"),
    (setting("opened", value=[False] * 9), "opened: expected at most 8 items, got 9"),
    (setting("totals", value=[0] * 9), "totals: expected at most 8 items, got 9"),
    (setting("eliminated", value=[False] * 9), "eliminated: expected at most 8 items, got 9"),
    (setting("winners", value=[0] * 9), "winners: expected at most 8 items, got 9"),
    (setting("rng", value=[3, []]), "rng: expected at least 3 items, got 2"),
    (setting("rng", value=[3, [], None, 0]), "rng: expected at most 3 items, got 4"),
    (setting("hand_number", value=0), f"hand_number: {MORE} 1, got 0"),
    (setting("hand_number", value=MAX_WHOLE + 1), f"hand_number: {LESS} {MAX_WHOLE}, got {MAX_WHOLE + 1}"),
    (setting("turn_limit", value=0), f"turn_limit: {MORE} 1, got 0"),
    (setting("turn_limit", value=MAX_WHOLE + 1), f"turn_limit: {LESS} {MAX_WHOLE}, got {MAX_WHOLE + 1}"),
]


@pytest.mark.parametrize(("edit", "message"), BEYOND, ids=[message for _, message in BEYOND])
def test_a_field_one_step_past_its_bound_is_refused_by_name(edit: Edit, message: str) -> None:
    assert refusal(edit) == f"the saved game is damaged: {message}"


def refusal(edit: Edit) -> str:
    """The shape check's refusal of the state after ``edit``."""
    data = state()
    edit(data)
    with pytest.raises(StateFormatError) as caught:
        check_state_shape(data)
    return str(caught.value)


def real_rng() -> list[Any]:
    version, words, gauss = random.Random(5).getstate()
    return [version, list(words), gauss]


def rng_with(index: int, value: Any) -> list[Any]:
    rng = real_rng()
    rng[index] = value
    return rng


def rng_word(index: int, value: Any) -> list[Any]:
    rng = real_rng()
    rng[1][index] = value
    return rng


RNG_TAKEN = [
    real_rng(),
    rng_with(2, None),
    rng_with(2, -0.5),
    rng_word(0, 0),
    rng_word(0, 2**32 - 1),
    rng_word(-1, 0),
    rng_word(-1, 624),
]


@pytest.mark.parametrize("rng", RNG_TAKEN, ids=range(len(RNG_TAKEN)))
def test_a_random_state_python_can_restore_is_taken(rng: list[Any]) -> None:
    assert rng_state_problem(rng) is None
    random.Random().setstate((rng[0], tuple(rng[1]), rng[2]))


RNG_REFUSED = [
    ({"version": 3}, "is not [version, [numbers], gauss]"),
    (real_rng()[:2], "is not [version, [numbers], gauss]"),
    ([*real_rng(), None], "is not [version, [numbers], gauss]"),
    (rng_with(0, 2), "is not [3, [numbers], gauss]"),
    (rng_with(0, 4), "is not [3, [numbers], gauss]"),
    (rng_with(0, "3"), "is not [3, [numbers], gauss]"),
    (rng_with(1, "words"), "is not [3, [numbers], gauss]"),
    (rng_with(1, real_rng()[1][:-1]), "holds 624 numbers, not 625"),
    (rng_with(1, [*real_rng()[1], 0]), "holds 626 numbers, not 625"),
    (rng_word(0, -1), "holds a number that is not a 32-bit word"),
    (rng_word(0, 2**32), "holds a number that is not a 32-bit word"),
    (rng_word(0, 1.0), "holds a number that is not a 32-bit word"),
    (rng_word(0, True), "holds a number that is not a 32-bit word"),
    (rng_word(-1, 625), "has its position out of range"),
    (rng_with(2, float("nan")), "has a gauss value that is not a finite number"),
    (rng_with(2, float("inf")), "has a gauss value that is not a finite number"),
    (rng_with(2, float("-inf")), "has a gauss value that is not a finite number"),
    (rng_with(2, 1), "has a gauss value that is not a finite number"),
    (rng_with(2, "0.5"), "has a gauss value that is not a finite number"),
]


@pytest.mark.parametrize(("rng", "problem"), RNG_REFUSED, ids=range(len(RNG_REFUSED)))
def test_a_random_state_python_cannot_restore_is_refused(rng: Any, problem: str) -> None:
    assert rng_state_problem(rng) == problem


NOT_WHOLE = [
    (
        setting("stock", 0, value="7"),
        "stock[0]: expected a whole number, got '7': in quotes it is text; remove the quotes",
    ),
    (setting("current", value=1.0), "current: expected a whole number, got 1.0"),
    (setting("hands", 1, 0, value=True), "hands[1][0]: expected a whole number, got the boolean true"),
    (setting("opened", 0, value=1), "opened[0]: expected true or false, got 1"),
    (
        setting("turn", "must_use_limit", value="0"),
        "turn.must_use_limit: expected a whole number, got '0': in quotes it is text; remove the quotes",
    ),
]


@pytest.mark.parametrize(("edit", "message"), NOT_WHOLE, ids=[message for _, message in NOT_WHOLE])
def test_a_number_or_flag_written_as_something_else_is_refused(edit: Edit, message: str) -> None:
    """JSON a reader would coerce (a number as text, a float, a boolean for a number) is not a state."""
    assert refusal(edit) == f"the saved game is damaged: {message}"
