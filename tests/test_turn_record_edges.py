"""The record of a turn, asked where no undo snapshot speaks for it: between hands, and in a table's view.

Between hands the record of the turn the hand was won in stays until the next deal (the end of the hand's
screen words from it why going out was not Kalooki); a table's view carries no undo snapshot. As in
``test_reachable_checks``, games are played to a point, edited in place and asked of
:func:`kalooki.statecheck.check_reachable`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest
from test_reachable_checks import Edit, both, gone_out, in_play, result, setting

from kalooki.engine import Game, StateFormatError
from kalooki.statecheck import check_reachable


def hand_two_gone_out() -> Game:
    """As :func:`gone_out`, as hand 2: hand 1 was abandoned, unscored (the result the check reads is the
    last one). Hand 2 is dealt by ann, as the deal passes on from bob, and bob plays first: ann goes out
    in turn 2, the hand's turns say so."""
    game = gone_out()
    won = game.results[0]
    abandoned = dataclasses.replace(won, winner=None, end="abandoned", kalooki=False, scores=(0, 0))
    game.results = [abandoned, dataclasses.replace(won, number=2, dealer=0, turns=2)]
    game.hand_number, game.dealer, game.first_seat, game.turn_number = 2, 0, 1, 2
    return game


ENDED = [
    ("hand 2 left unscored", lambda: hand_two_gone_out(), lambda game: None, None),
    (
        "a hand left unscored",
        gone_out,
        both(result(winner=None, end="abandoned", kalooki=False, scores=(0, 0)), setting("totals", [0, 0])),
        None,
    ),
    (
        "hand 2 begun opened",
        hand_two_gone_out,
        lambda game: setattr(game.turn, "opened_before", True),
        "the turn records that seat 1 (ann) had opened when it began, "
        "but every meld of theirs on the table was laid in it",
    ),
]


@pytest.mark.parametrize(
    ("build", "edit", "message"), [case[1:] for case in ENDED], ids=[c[0] for c in ENDED]
)
def test_the_turn_a_hand_was_won_in_is_asked_of_the_last_hand_won_by_going_out(
    build: Callable[[], Game], edit: Edit, message: str | None
) -> None:
    """The record left between hands is the last turn's: asked of the last result when it was won by going
    out, of no other."""
    game = build()
    check_reachable(game)
    edit(game)
    if message is None:
        check_reachable(game)
        return
    with pytest.raises(StateFormatError) as caught:
        check_reachable(game)
    assert str(caught.value) == f"the saved game is not one play can reach: {message}"


# A table's view shows one seat's hand: the others are stand-ins (here bob sees ann's turn), and it carries
# no undo snapshot (at most a stand-in), so the turn's record is asked against the table alone.
VIEWED: list[tuple[str, Edit, tuple[int, ...], str | None]] = [
    ("stock draw hidden", lambda game: setattr(game.turn, "drawn_card", None), (0, 2), None),
    (
        "discard draw unrecorded",
        both(
            lambda game: setattr(game.turn, "drew", "discard"),
            lambda game: setattr(game.turn, "drawn_card", None),
        ),
        (0, 2),
        "the player to move has drawn, but the card drawn is not recorded",
    ),
    (
        "laid twice",
        lambda game: setattr(game.turn, "laid", [0, 0]),
        (1, 2),
        "the melds the turn laid are not each one of seat 1 (ann)'s on the table",
    ),
]


@pytest.mark.parametrize(
    ("edit", "stand_ins", "message"), [case[1:] for case in VIEWED], ids=[c[0] for c in VIEWED]
)
def test_a_view_of_a_turn_is_asked_what_it_shows(
    edit: Edit, stand_ins: tuple[int, ...], message: str | None
) -> None:
    game = in_play()
    game._undo = None
    edit(game)
    if message is None:
        check_reachable(game, stand_ins)
        return
    with pytest.raises(StateFormatError) as caught:
        check_reachable(game, stand_ins)
    assert str(caught.value) == f"the saved game is not one play can reach: {message}"
