"""Who deals, which way the deal passes, and the upcard: first_dealer, deal_direction, upcard.

Seed 001: "players will each draw one card, and the highest card determines the first dealer. The
deal move counter-clockwise with each new hand", and play starts "with the player left of the
dealer". Seed 004: "the person to the left of the dealer becomes the first player and play continues
clockwise". kalooki.co.uk: some tables start with an empty discard pile.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from kalooki_cli.narrate import Sentences
from rules_helpers import assert_illegal, new_game, play

from kalooki.cards import CardError, parse_card
from kalooki.engine import DealError, FixedDeal, Game
from kalooki.log import header_record, replay
from kalooki.variant import Variant

PLAYERS = ["ann", "bob", "cid"]


def dealers(knobs: dict[str, Any], hands: int = 3) -> list[tuple[str, str]]:
    """(dealer, first player) of each of the first hands, from the deal events."""
    game = Game(Variant(**knobs), PLAYERS, seed=4)
    deals = [event for event in game.opening_events if event["type"] == "deal"]
    for _ in range(hands - 1):
        game.abandon_hand()
        deals += [event for event in game.next_hand() if event["type"] == "deal"]
    assert [game.players[game.dealer]] == [deals[-1]["dealer"]]
    return [(deal["dealer"], deal["first"]) for deal in deals]


@pytest.mark.parametrize(
    ("knobs", "expected"),
    [
        # Classic: the player before the first listed deals, so the first listed plays first.
        ({}, [("cid", "ann"), ("ann", "bob"), ("bob", "cid")]),
        ({"play_direction": "counter_clockwise"}, [("bob", "ann"), ("ann", "cid"), ("cid", "bob")]),
        # kaluki-51's table: play clockwise, the deal passing counter-clockwise.
        ({"deal_direction": "counter_clockwise"}, [("cid", "ann"), ("bob", "cid"), ("ann", "bob")]),
        ({"deal_direction": "clockwise"}, [("cid", "ann"), ("ann", "bob"), ("bob", "cid")]),
        (
            {"play_direction": "counter_clockwise", "deal_direction": "clockwise"},
            [("bob", "ann"), ("cid", "bob"), ("ann", "cid")],
        ),
        (
            {"play_direction": "counter_clockwise", "deal_direction": "counter_clockwise"},
            [("bob", "ann"), ("ann", "cid"), ("cid", "bob")],
        ),
    ],
    ids=["as-play", "as-play-ccw", "deal-ccw", "deal-cw", "play-ccw-deal-cw", "both-ccw"],
)
def test_the_deal_passes_one_seat_each_hand_and_the_next_player_leads(
    knobs: dict[str, Any], expected: list[tuple[str, str]]
) -> None:
    assert dealers(knobs) == expected


@pytest.mark.parametrize("deal_direction", ["as_play", "clockwise"])
def test_the_deal_passes_from_the_dealer_past_the_players_put_out(deal_direction: str) -> None:
    # kalooki-40 (as_play) played to 40: dee dealt hand 1, ann (who played first) and bob went out of the
    # game. The deal moved the first player on and sat the dealer before them: dee dealt hand 2 as well.
    from kalooki.loader import load_variant
    from kalooki.script import load_script_text
    from kalooki.script_run import run_script

    text = (
        "variant: kalooki-40\n"
        f"set: {{goal_score: 40, deal_direction: {deal_direction}}}\n"
        "players: [{name: ann, bot: greedy}, {name: bob, bot: greedy}, {name: cid, bot: greedy}, "
        "{name: dee, bot: greedy}]\nseed: 2\n"
    )
    run = run_script(load_script_text(text))
    hands = run.to_json()["hands"]
    assert sorted(hands[1]["hand_points"]) == ["cid", "dee"]  # ann and bob are out after hand 1
    assert [hand["dealer"] for hand in hands[:4]] == ["dee", "cid", "dee", "cid"]
    assert load_variant("kalooki-40").deal_direction == "as_play"
    from kalooki.rulebook import render_rulebook

    rulebook = render_rulebook(load_variant("kalooki-40"))
    assert "A player out of the game is passed over: the deal goes to the next one still in it." in rulebook


def test_high_card_chooses_the_first_dealer() -> None:
    game = Game(Variant(first_dealer="high_card"), PLAYERS, seed=4)
    deal = game.opening_events[0]
    assert deal["drawn_for_dealer"] == {"ann": "QH", "bob": "TD", "cid": "AS"}  # the ace is high
    assert (deal["dealer"], deal["first"]) == ("cid", "ann")
    # Seat order would have had the same dealer there: this seed shows the draw deciding.
    game = Game(Variant(first_dealer="high_card"), PLAYERS, seed=3)
    deal = game.opening_events[0]
    assert deal["drawn_for_dealer"] == {"ann": "AD", "bob": "3H", "cid": "4C"}
    assert (deal["dealer"], deal["first"]) == ("ann", "bob")
    assert game.current == 1


def test_high_card_ties_draw_again() -> None:
    # ann 2♥, bob 5♠, cid 5♣: bob and cid tie and draw again, 3♦ against 2♥, and bob deals. The record
    # keeps both rounds: it once wrote the draw again over the first, which showed cid's 2♥ beside
    # ann's (one pack holds one 2♥) and a dealer on a 3 while ann held a 2 and cid a 2.
    game = Game(Variant(first_dealer="high_card"), PLAYERS, seed=6)
    deal = game.opening_events[0]
    assert deal["drawn_for_dealer"] == {"ann": "2H", "bob": "5S", "cid": "5C"}
    assert deal["drawn_again"] == [{"bob": "3D", "cid": "2H"}]
    assert (deal["dealer"], deal["first"]) == ("bob", "cid")
    assert (
        Sentences()
        .deal(deal)
        .startswith(
            "hand 1: each draws a card for the deal (ann 2♥, bob 5♠, cid 5♣); bob and cid draw again "
            "(bob 3♦, cid 2♥); cards dealt by bob, cid plays first"
        )
    )
    # A log of it replays with both rounds reported again.
    seen: list[Any] = []
    replay([header_record(game), deal.to_json()], lambda _game, events: seen.extend(events))
    assert seen[0].to_json() == deal.to_json()


def test_high_card_only_chooses_the_first_dealer() -> None:
    # seed 4 draws cid as the first dealer; then the deal passes the way play goes, as ever.
    assert dealers({"first_dealer": "high_card"}) == [("cid", "ann"), ("ann", "bob"), ("bob", "cid")]


@pytest.mark.parametrize("upcard", [True, False])
def test_upcard(upcard: bool) -> None:
    hands = ["7H 8H 9H TH 2C", "AC 5D 9S JK 3C"]
    knobs = {"hand_size": 5, "opening_threshold": 0, "upcard": upcard}
    game = new_game(knobs, hands, discard="QS" if upcard else None, stock="KS QD")
    assert len(game.stock) == 106 - 10 - (1 if upcard else 0)
    if upcard:
        assert game.discard_pile == [parse_card("QS")]
        play(game, "draw discard")
    else:
        assert game.discard_pile == []
        assert_illegal(game, "draw discard", "the discard pile is empty: draw stock")
        play(game, "draw stock", "discard 2C")
        play(game, "draw discard")  # bob takes ann's discard, the first card of the pile
        assert game.hands[1][-1] == parse_card("2C")


def test_no_upcard_refuses_a_fixed_face_up_card() -> None:
    with pytest.raises(DealError) as caught:
        new_game({"hand_size": 5, "upcard": False}, ["7H 8H 9H TH 2C", "AC 5D 9S JK 3C"], discard="QS")
    assert str(caught.value) == "this variant turns up no card at the deal: leave out the discard"


@pytest.mark.parametrize("again", [False, True])
def test_a_card_drawn_for_the_dealer_that_is_none_changes_nothing(again: bool) -> None:
    # Read once the hand had been dealt: the refusal left the next hand half begun.
    game = Game(Variant(), PLAYERS, seed=4)
    game.abandon_hand()
    before = json.dumps(game.to_json(), sort_keys=True)
    drawn = {"ann": "KS", "bob": "KH", "cid": "2C"}
    deal = FixedDeal(
        dealer=0,
        drawn_for_dealer={**drawn, "bob": "KH" if again else "ZZ"},
        drawn_again=[{"ann": "3C", "bob": "ZZ"}] if again else [],
    )
    with pytest.raises(CardError) as caught:
        game.next_hand(deal)
    assert str(caught.value) == (
        "'ZZ' is not a card: write a rank (A 2-9 T J Q K, or 10) and a suit (C D H S), e.g. 7H, TC, 10C, QS,"
        " or JK for a joker"
    )
    assert json.dumps(game.to_json(), sort_keys=True) == before
