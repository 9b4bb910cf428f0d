"""The openings :meth:`Game.legal_actions` lists, exactly, in small hand-built positions.

Before a player opens, every combination of melds that reaches the threshold is legal; the listing
searches them, pruning a branch once the points still missing cannot be made from the cards left.
These hands sit on the edges of that search: a meld laid twice from two packs, an opening worth
exactly the threshold with every card it may use, and a hand that may not lay its last card.
"""

from __future__ import annotations

from itertools import islice
from typing import Any

import pytest

from kalooki.cards import format_cards, parse_cards
from kalooki.engine import FixedDeal, Game
from kalooki.moves import Draw, Meld
from kalooki.solver import best_opening
from kalooki.variant import Variant


def after_drawing(hand: str, drawn: str, **knobs: Any) -> Game:
    """The first player holding ``hand``, having drawn ``drawn`` from the stock."""
    cards = parse_cards(hand)
    variant = Variant(hand_size=len(cards), **knobs)
    game = Game(variant, ["P1", "P2"], seed=1, deal=FixedDeal(hands={0: cards}, stock_top=parse_cards(drawn)))
    game.apply(Draw("stock"))
    return game


def listed_openings(game: Game) -> list[Meld]:
    return [action for action in game.legal_actions() if isinstance(action, Meld)]


def openings(hand: str, drawn: str, **knobs: Any) -> set[tuple[str, ...]]:
    """The openings listed for the first player holding ``hand`` after drawing ``drawn``, each as the
    text of its melds, sorted: the order the melds are listed in does not matter here. Each is
    accepted, and listed once."""
    game = after_drawing(hand, drawn, **knobs)
    found = []
    for action in listed_openings(game):
        game.check(action)
        found.append(tuple(sorted(format_cards(group) for group in action.groups)))
    assert len(found) == len(set(found)), f"an opening listed twice: {found}"
    return set(found)


def melds(*groups: str) -> tuple[str, ...]:
    return tuple(sorted(format_cards(parse_cards(group)) for group in groups))


def test_the_same_meld_twice_from_two_packs_is_an_opening() -> None:
    # 7-8-9 of hearts is worth 24: only both copies together reach 48.
    assert openings("7H 8H 9H 7H 8H 9H 2C", "5S", opening_threshold=48) == {melds("7H 8H 9H", "7H 8H 9H")}


def test_a_meld_laid_twice_is_listed_beside_the_same_meld_once() -> None:
    assert openings("7H 8H 9H 7H 8H 9H 2C", "5S", opening_threshold=24) == {
        melds("7H 8H 9H"),
        melds("7H 8H 9H", "7H 8H 9H"),
    }


def test_an_opening_worth_exactly_the_threshold_with_every_card_it_may_use_is_listed() -> None:
    # One card must stay to discard: the three others are exactly the 29 (or 30) points needed.
    assert openings("9H TH JH", "2C", opening_threshold=29) == {melds("9H TH JH")}
    assert openings("9H TH JH", "2C", opening_threshold=30) == set()
    assert openings("JH QH KH", "2C", opening_threshold=30) == {melds("JH QH KH")}
    assert openings("JD QD KD", "2C", opening_threshold=30) == {melds("JD QD KD")}
    assert openings("JS QS KS", "2S", opening_threshold=30) == {melds("JS QS KS")}


def test_jokers_count_toward_an_opening_at_their_most() -> None:
    # The jokers as JH QH make 9-Q worth 39, the only laying that reaches it.
    assert openings("9H TH JK JK", "2C", opening_threshold=39) == {melds("9H TH JK JK")}
    # An ace worth 1 still leaves a joker worth ten: 9H TH JK as 9-J is 29, and 9-Q 39.
    assert openings("9H TH JK", "2C", ace_value=1, opening_threshold=29) == {melds("9H TH JK")}
    assert openings("9H TH JK JK", "2C", ace_value=1, opening_threshold=39) == {melds("9H TH JK JK")}


def test_an_opening_leaves_a_card_to_discard_where_the_last_card_must_be_discarded() -> None:
    hand, drawn = "7H 8H 9H QS QD QC", "TH"
    some = {melds("QC QD QS"), melds("7H 8H 9H TH")}
    some |= {melds("7H 8H 9H", "QC QD QS"), melds("8H 9H TH", "QC QD QS")}
    assert openings(hand, drawn, opening_threshold=30) == some
    every_card = melds("7H 8H 9H TH", "QC QD QS")
    assert openings(hand, drawn, opening_threshold=30, going_out="discard_optional") == some | {every_card}


BIG_HANDS = {
    "no opening in reach": "7C 5C 7H 6C 4C 5H 5C 6H 4H 4H 9H 9C 7H 5H QC 6H 4C 6C 9C QH JK",
    "some openings in reach": "5S 2S QD 9H 9H 2C 3H 2D TC 4C 7S 5C 9C 7H 9S 4D TS 4D 5H 7C JK",
    "many openings in reach": "3H 4D 7C 8H 5H 4H 3C 5C 8C 7H 4D 3C 8D 7D 3H 3D 7C 4C 3D 5C 5D",
    "low cards, high threshold": "5S 6S 4C 3S 4S 2S 4S 5C 2C 2C 6C 3S 4C 5S 3C JK JK",
}
"""Hands of 17 to 21 (and a drawn joker, four in the pack) whose openings take more than
:data:`kalooki.legal.MAX_OPENING_STEPS` steps of the listing's search to find."""


def test_a_hand_whose_openings_lie_past_the_search_bound_lists_the_solvers_best() -> None:
    game = after_drawing(BIG_HANDS["no opening in reach"], "JK", jokers=4, opening_threshold=120)
    plan = best_opening(game.hands[0], game.variant, keep=1)
    assert plan is not None
    assert listed_openings(game) == [Meld(plan.melds)]
    game.check(Meld(plan.melds))
    # The whole search finds many: it is the bound that left the listing without one.
    found = (action for action in game.iter_legal_actions() if isinstance(action, Meld))
    assert len(list(islice(found, 2))) == 2


def test_a_hand_whose_search_runs_past_the_bound_without_any_opening_lists_none() -> None:
    # 140 is out of this hand's reach (138 at most): the bounded search gives up, and so does the solver.
    game = after_drawing(BIG_HANDS["no opening in reach"], "JK", jokers=4, opening_threshold=140)
    assert best_opening(game.hands[0], game.variant, keep=1) is None
    assert listed_openings(game) == []


@pytest.mark.parametrize(
    ("hand", "knobs", "reached", "every"),
    [
        # With four jokers, one natural and two or three jokers may also be laid as a run (JK 6H JK run):
        # those groups are tried too, so the steps reach fewer openings and the whole search finds more.
        ("some openings in reach", {"opening_threshold": 100}, 10, 15),
        ("many openings in reach", {"opening_threshold": 60}, 891, None),
        # Most branches are pruned here: a looser bound spends the steps on them instead, and a joker
        # counted at more than ten (where an ace is worth ten) is a looser bound.
        ("low cards, high threshold", {"opening_threshold": 80}, 48, 141),
        ("low cards, high threshold", {"opening_threshold": 80, "ace_value": 10}, 28, 49),
    ],
)
def test_the_bounded_search_lists_the_openings_it_finds_within_its_steps_in_order(
    hand: str, knobs: dict[str, int], reached: int, every: int | None
) -> None:
    game = after_drawing(BIG_HANDS[hand], "JK", jokers=4, **knobs)
    found = [action for action in islice(game.iter_legal_actions(), 5000) if isinstance(action, Meld)]
    listed = listed_openings(game)
    # Pinned: how far MAX_OPENING_STEPS (2,000) steps of the pruned search reach in these hands, one
    # step more or fewer changing the second's count, a looser bound the others'. A change to the
    # bound, to what counts as a step, or to the pruning moves them.
    assert len(listed) == reached
    assert listed == found[:reached]
    if every is not None:
        assert len(found) == every
    else:
        assert len(found) > reached
