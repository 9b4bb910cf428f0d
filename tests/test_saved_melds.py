"""A table meld read back from a saved state is the meld its cards make: its first rank and suit too.

A run's rank and suit are what builds and joker swaps read; a state edited to hold others was taken,
and then played as another run (or failed as a bare ValueError at the next legal listing).
"""

from __future__ import annotations

from typing import Any

import pytest
from rules_helpers import new_game, play

from kalooki.engine import Game, StateFormatError

FOUR = {"hand_size": 4, "opening_threshold": 0}


def laid() -> Game:
    """ann opened with the run 7H 8H 9H, and in her next turn has laid the set KC KD KS: the turn's undo
    snapshot holds the table with the run alone."""
    game = new_game(
        {**FOUR, "hand_size": 7},
        ["7H 8H 9H KC KD KS 2S", "2C 3C 4D 5S 6H QD JC"],
        stock="3S 4C 5D",
    )
    play(game, "draw stock", "meld 7H 8H 9H", "discard 2S", "draw stock", "discard 4C")
    play(game, "draw stock", "meld KC KD KS")
    return game


@pytest.mark.parametrize(
    ("meld", "field", "value", "message"),
    [
        (
            0,
            "rank",
            2,
            "table[0]: the run 7H 8H 9H is saved with rank 2 and suit 2: its cards read as rank 7, suit 2",
        ),
        (
            0,
            "suit",
            -1,
            "table[0]: the run 7H 8H 9H is saved with rank 7 and suit -1: its cards read as rank 7, suit 2",
        ),
        (
            0,
            "suit",
            0,
            "table[0]: the run 7H 8H 9H is saved with rank 7 and suit 0: its cards read as rank 7, suit 2",
        ),
        (
            1,
            "rank",
            5,
            "table[1]: the set KC KD KS is saved with rank 5 and suit -1: its cards read as rank 13, suit -1",
        ),
        (
            1,
            "suit",
            3,
            "table[1]: the set KC KD KS is saved with rank 13 and suit 3: its cards read as rank 13, suit -1",
        ),
    ],
)
def test_a_table_meld_saved_with_another_rank_or_suit_is_refused(
    meld: int, field: str, value: int, message: str
) -> None:
    data = laid().to_json()
    data["table"][meld][field] = value
    with pytest.raises(StateFormatError) as caught:
        Game.from_json(data)
    assert str(caught.value) == f"the saved game is damaged: {message}"


def test_an_undo_snapshot_meld_saved_with_another_rank_is_refused() -> None:
    data: dict[str, Any] = laid().to_json()
    assert [meld["cards"] for meld in data["undo"]["table"]] == [data["table"][0]["cards"]]
    data["undo"]["table"][0]["rank"] = 3
    with pytest.raises(StateFormatError) as caught:
        Game.from_json(data)
    assert "the turn's undo snapshot: the run 7H 8H 9H is saved with rank 3 and suit 2" in str(caught.value)


def test_a_game_with_melds_on_the_table_reads_back_as_it_was() -> None:
    game = laid()
    assert Game.from_json(game.to_json()).to_json() == game.to_json()
