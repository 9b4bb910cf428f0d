"""Going Kalooki is judged by what the turn laid, not by how it was typed.

Seed 000: going Kalooki is laying down all the cards "in one move without using any builders". A
whole hand laid as one meld command, as two, or as a meld and then a card built onto that same
meld puts the same cards on the same table in the same turn: each is Kalooki. Building onto a meld
that was on the table before the turn is what ``kalooki_allows_building`` decides.
"""

from __future__ import annotations

import pytest
from rules_helpers import new_game, play, table_text

from kalooki.rulebook import key_rules
from kalooki.variant import Variant

# bob holds AC 5D 9S JK 3C 2D 6H = 61 points; going Kalooki adds 25 (classic scoring: penalty).
BOB = "AC 5D 9S JK 3C 2D 6H"


@pytest.mark.parametrize("allows", [False, True])
@pytest.mark.parametrize(
    "moves",
    [
        ("meld 7H 8H 9H TH, 4C 4D 4S",),
        ("meld 7H 8H 9H TH", "meld 4C 4D 4S"),
        ("meld 7H 8H 9H, 4C 4D 4S", "build 1 TH"),
        ("meld 7H 8H 9H", "build 1 TH", "meld 4C 4D 4S"),
        ("meld 8H 9H TH, 4C 4D 4S", "build 1 7H low"),
    ],
    ids=["one-command", "two-melds", "meld-then-build", "build-between-melds", "build-low-end"],
)
def test_the_same_cards_laid_in_one_turn_get_the_same_verdict(allows: bool, moves: tuple[str, ...]) -> None:
    rules = {"hand_size": 7, "opening_threshold": 0, "kalooki_allows_building": allows}
    game = new_game(rules, ["7H 8H 9H TH 4C 4D 4S", BOB], stock="KS")
    play(game, "draw stock", *moves, "discard KS")
    result = game.results[-1]
    assert sorted(table_text(game)) == ["4C 4D 4S", "7H 8H 9H TH"]
    assert (result.winner, result.kalooki) == (0, True)
    assert result.scores == (0, 61 + 25)


@pytest.mark.parametrize(("allows", "kalooki", "bob"), [(False, False, 18), (True, True, 18 + 25)])
def test_building_onto_a_meld_laid_before_the_turn_is_what_the_knob_decides(
    allows: bool, kalooki: bool, bob: int
) -> None:
    # ann lays her own run and builds onto it too; only the build onto bob's older run counts.
    game = new_game(
        {"hand_size": 6, "opening_threshold": 0, "kalooki_allows_building": allows},
        ["2S 3S 4S 5S 8C 9D", "5C 6C 7C AD 3H 4D"],
        stock="KH QD 6S",
    )
    play(game, "draw stock", "discard KH")
    play(game, "draw stock", "meld 5C 6C 7C", "discard QD")
    play(game, "draw stock", "meld 2S 3S 4S", "build 2 5S 6S", "build 1 8C", "discard 9D")
    result = game.results[-1]
    assert (result.winner, result.kalooki) == (0, kalooki)
    assert result.scores == (0, bob)
    # The key rules shown at the table say so, as the rulebook does.
    said = "Going Kalooki (laying your whole hand in one turn, having laid nothing before"
    spoilt = (
        ", building on no meld already on the table nor taking a joker from one) costs every other player 25."
    )
    assert f"{said}{')' if allows else spoilt}" in " ".join(key_rules(game.variant))
    # Without jokers there is none to take: the short rule does not speak of one.
    jokerless = game.variant.model_copy(update={"jokers": 0})
    assert f"{said}{')' if allows else spoilt.replace(' nor taking a joker from one', '')}" in " ".join(
        key_rules(jokerless)
    )


def test_the_knob_reference_counts_building_on_the_turns_own_melds_as_laying_down() -> None:
    # The reference (schema, docs/variants.md) must not call the build onto ann's new run "building on
    # the table": under false it is still Kalooki, and bob pays his 61 and the 25.
    meaning = Variant.model_fields["kalooki_allows_building"].description or ""
    assert "a meld that was on the table before the going-out turn" in meaning
    assert "melds laid in that turn, and built on, are part of laying the hand down" in meaning
    game = new_game({"hand_size": 7, "opening_threshold": 0}, ["7H 8H 9H TH 4C 4D 4S", BOB], stock="KS")
    play(game, "draw stock", "meld 7H 8H 9H, 4C 4D 4S", "build 1 TH", "discard KS")
    result = game.results[-1]
    assert (result.winner, result.kalooki, result.scores) == (0, True, (0, 61 + 25))


def test_taking_back_a_turn_forgets_the_melds_it_laid() -> None:
    game = new_game({"hand_size": 7, "opening_threshold": 0}, ["7H 8H 9H TH 4C 4D 4S", BOB], stock="KS")
    play(game, "draw stock", "meld 7H 8H 9H")
    assert game.turn.laid == [0]
    game.undo_turn()
    assert game.turn.laid == []
    assert game.turn.to_json()["laid"] == []
