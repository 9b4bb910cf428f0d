"""Who may take a released joker (joker_taker), the low ace's value (ace_low_value), and sets that
may repeat suits up to a size (set_suits, set_maximum).

Seed 001: "another player may steal the Joker for his own Melds". Some tables count A-2-3 as 1+2+3
toward the opening while an ace left in hand costs 11. Seed 004: "books (three or four the same)",
which two packs make possible with repeated suits.
"""

from __future__ import annotations

from typing import Any

import pytest
from rules_helpers import assert_illegal, hand_text, new_game, play, table_text

from kalooki.cards import JOKER

# ---------------------------------------------------------------- joker_taker


def joker_game(taker: str) -> Any:
    """ann lays 5H JK 7H; both players hold a 6H to free the joker."""
    rules = {"hand_size": 6, "opening_threshold": 0, "joker_taker": taker}
    game = new_game(rules, ["5H JK 7H 6H 9C 9D", "2C 3C 4C 6H 8S 8D"], stock="KS QS QD JD")
    play(game, "draw stock", "meld 5H JK 7H", "discard KS", "draw stock", "meld 2C 3C 4C", "discard QS")
    play(game, "draw stock")
    return game


def test_anyone_may_take_a_joker_from_their_own_meld() -> None:
    game = joker_game("anyone")
    play(game, "swap 1 6H")
    assert table_text(game) == ["5H 6H 7H", "2C 3C 4C"]
    assert game.hands[0].count(JOKER) == 1


def test_only_another_player_may_take_a_joker() -> None:
    game = joker_game("other_players")
    assert_illegal(
        game, "swap 1 6H", "in this variant only another player may take a joker from your meld 5H JK 7H"
    )
    assert game.legal_swaps() == []
    play(game, "discard QD", "draw stock", "swap 1 6H")
    assert table_text(game) == ["5H 6H 7H", "2C 3C 4C"]
    assert game.hands[1].count(JOKER) == 1


# ---------------------------------------------------------------- ace_low_value


@pytest.mark.parametrize(
    ("low", "error"), [(None, None), (1, "your first meld is worth 10 points; this variant needs 15")]
)
def test_a_low_ace_counts_ace_low_value_toward_the_opening(low: int | None, error: str | None) -> None:
    rules = {"hand_size": 5, "opening_threshold": 15, "ace_low_value": low}
    game = new_game(rules, ["AH 2H 3H 4H 9C", "2C 5D 9S JK 3C"], stock="KS")
    play(game, "draw stock")
    if error is not None:
        assert_illegal(
            game,
            "meld AH 2H 3H 4H",
            f"{error} (lay them all in one meld command, melds parted by commas: meld 7H 8H 9H, QS QD QC)",
        )
        return
    events = play(game, "meld AH 2H 3H 4H")
    assert events[0]["points"] == 20


@pytest.mark.parametrize("low", [None, 1])
def test_a_high_ace_a_set_of_aces_and_an_ace_in_hand_keep_ace_value(low: int | None) -> None:
    rules = {"hand_size": 7, "opening_threshold": 0, "ace_low_value": low}
    game = new_game(rules, ["QH KH AH AC AD AS 9C", "2C 5D 9S AH 3C 4C 6C"], stock="KS")
    play(game, "draw stock")
    assert play(game, "meld QH KH AH")[0]["points"] == 31
    assert play(game, "meld AC AD AS")[0]["points"] == 33
    assert game.hand_value(1) == 2 + 5 + 9 + 11 + 3 + 4 + 6  # bob's ace costs 11 in hand


# ---------------------------------------------------------------- set_suits and set_maximum


@pytest.mark.parametrize(
    ("knobs", "meld", "error"),
    [
        ({}, "7H 7H 7S", "7H 7H 7S is not a set: two cards share a suit (a set has one card of each suit)"),
        ({"set_suits": "may_repeat"}, "7H 7H 7S", None),
        (
            {"set_suits": "may_repeat"},
            "7H 7H 7S 7S 7D",
            "7H 7H 7S 7S 7D is not a set: a set has at most 4 cards",
        ),
        ({"set_suits": "may_repeat", "set_maximum": 5}, "7H 7H 7S 7S 7D", None),
        (
            {"set_maximum": 3},
            "7H 7S 7D 7C",
            "7H 7S 7D 7C is not a set: a set has at most 3 cards, one of each suit",
        ),
    ],
    ids=["distinct", "may-repeat", "may-repeat-max-4", "may-repeat-max-5", "distinct-max-3"],
)
def test_set_suits_and_set_maximum(knobs: dict[str, Any], meld: str, error: str | None) -> None:
    rules = {"hand_size": 7, "opening_threshold": 0, **knobs}
    game = new_game(rules, ["7H 7H 7S 7S 7D 7C 2C", "2D 5D 9S AH 3C 4C 6C"], stock="KS")
    play(game, "draw stock")
    if error is not None:
        assert_illegal(game, f"meld {meld}", error)
        return
    play(game, f"meld {meld}")
    assert table_text(game) == [meld]


@pytest.mark.parametrize(("suits", "legal"), [("distinct", False), ("may_repeat", True)])
def test_building_a_repeated_suit_onto_a_set(suits: str, legal: bool) -> None:
    rules = {"hand_size": 7, "opening_threshold": 0, "set_suits": suits}
    game = new_game(rules, ["7H 7S 7D 7H 2C 3C 4C", "2D 5D 9S AH 3D 4D 6C"], stock="KS")
    play(game, "draw stock", "meld 7H 7S 7D")
    if not legal:
        assert_illegal(game, "build 1 7H", "7H does not fit the set 7H 7S 7D: that suit is already there")
        return
    play(game, "build 1 7H")
    assert table_text(game) == ["7H 7S 7D 7H"]
    assert "7H" not in hand_text(game, 0)
