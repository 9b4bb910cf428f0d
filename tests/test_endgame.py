"""The end-game judgement the bots share: which cards the table can still take, and what is used up."""

from __future__ import annotations

import pytest

from kalooki.bots import endgame
from kalooki.cards import JOKER, format_cards, parse_cards
from kalooki.melds import make_meld
from kalooki.variant import Variant


def places(cards: str, **knobs: object) -> str:
    rules = Variant(**knobs)  # type: ignore[arg-type]
    return format_cards(sorted(endgame.places(make_meld(parse_cards(cards), rules), rules)))


@pytest.mark.parametrize(
    ("meld", "knobs", "expected"),
    [
        ("7C 7D 7H", {}, "7S"),
        ("7C 7D 7H 7S", {}, ""),
        ("7C 7D 7H", {"set_suits": "may_repeat"}, "7C 7D 7H 7S"),
        ("7C 7D 7H", {"set_maximum": 3}, ""),
        ("5H 6H 7H", {}, "4H 8H"),
        ("2H 3H 4H", {}, "AH 5H"),
        ("2H 3H 4H", {"ace_in_runs": "high"}, "5H"),
        ("QH KH AH", {}, "JH"),
        ("QH KH AH", {"ace_in_runs": "wrap"}, "2H JH"),
        ("JH QH KH JK", {}, "TH"),
    ],
)
def test_the_cards_a_meld_takes_one_at_a_time(meld: str, knobs: dict[str, object], expected: str) -> None:
    assert places(meld, **knobs) == expected


def test_a_card_is_used_up_when_every_copy_is_on_the_table() -> None:
    rules = Variant()
    table = [make_meld(parse_cards("5H 6H 7H"), rules), make_meld(parse_cards("8C 8D 8H"), rules)]
    # 4H and 8H each have two copies: one 8H is on the table, the other is still out there.
    assert format_cards(endgame.live_places(table, [], rules)) == "4H 8H 8S JK"
    table.append(make_meld(parse_cards("8H 8S 8D"), rules))
    # Both 8H are on the table now; the new set wants an 8C, of which one is.
    assert format_cards(endgame.live_places(table, [], rules)) == "8C 4H 8S JK"
    # A card this player holds is not one it can still draw.
    assert format_cards(endgame.live_places(table, [], rules, parse_cards("4H 4H JK JK 8S"))) == "8C"


def test_a_discard_pile_that_never_becomes_a_stock_uses_up_all_but_its_top_card() -> None:
    pile = parse_cards("4H 8C 4H")
    table = [make_meld(parse_cards("5H 6H 7H"), Variant())]
    reshuffled = Variant()
    assert endgame.used_up(table, pile, reshuffled)[parse_cards("4H")[0]] == 0
    ending = Variant(stock_exhausted="end_hand")
    assert endgame.used_up(table, pile, ending)[parse_cards("4H")[0]] == 1
    never = Variant(stock_exhausted="end_hand", discard_draw="never")
    assert format_cards(endgame.live_places(table, pile, never)) == "8H JK"
    assert JOKER not in endgame.used_up(table, pile, never)


def test_a_hand_too_small_for_a_new_meld() -> None:
    # Must keep a card to discard: two cards after the discard make three with the draw, and a meld
    # of three leaves none to discard. Where the last card may be melded, two are enough.
    assert [endgame.too_few_for_a_meld(held, keep=1) for held in range(4)] == [False, True, True, False]
    assert [endgame.too_few_for_a_meld(held, keep=0) for held in range(4)] == [False, True, False, False]


def test_places_still_to_fill_count_a_set_once_and_a_joker_for_a_dead_place() -> None:
    rules = Variant(jokers=0)
    # A set of three lacks one suit and takes one more card; a run takes one at each end.
    table = [make_meld(parse_cards("7C 7D 7H"), rules), make_meld(parse_cards("5H 6H 7H"), rules)]
    assert endgame.live_slots(table, [], rules) == 3  # 7S, 4H, 8H
    # Both 8H melded: the run's high end is dead. Each new set wants an 8 of which one copy is left.
    table += [make_meld(parse_cards("8C 8D 8H"), rules), make_meld(parse_cards("8S 8D 8H"), rules)]
    assert endgame.live_slots(table, [], rules) == 4  # 7S, 4H, 8S, 8C
    jokers = Variant()
    table = [make_meld(parse_cards("JH QH KH"), jokers)]
    assert endgame.live_slots(table, [], jokers) == 2  # TH, AH
    table += [make_meld(parse_cards("TH TC TD"), jokers), make_meld(parse_cards("TH TS TC"), jokers)]
    # TH is used up, but a joker may still fill its place.
    assert endgame.live_slots(table, [], jokers) == 4  # AH, a joker below JH, TS, TD
    assert endgame.live_slots(table, [], Variant(jokers=0)) == 3
