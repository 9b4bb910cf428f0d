"""The openings :meth:`Game.legal_actions` lists, exactly, in small hand-built positions.

Before a player opens, every combination of melds that reaches the threshold is legal; the listing
searches them, pruning a branch once the points still missing cannot be made from the cards left.
These hands sit on the edges of that search: a meld laid twice from two packs, an opening worth
exactly the threshold with every card it may use, and a hand that may not lay its last card.
"""

from __future__ import annotations

from typing import Any

from kalooki.cards import format_cards, parse_cards
from kalooki.engine import FixedDeal, Game
from kalooki.moves import Draw, Meld
from kalooki.variant import Variant


def openings(hand: str, drawn: str, **knobs: Any) -> set[tuple[str, ...]]:
    """The openings listed for the first player holding ``hand`` after drawing ``drawn``, each as the
    text of its melds, sorted: the order the melds are listed in does not matter here."""
    cards = parse_cards(hand)
    variant = Variant(hand_size=len(cards), **knobs)
    game = Game(variant, ["P1", "P2"], seed=1, deal=FixedDeal(hands={0: cards}, stock_top=parse_cards(drawn)))
    game.apply(Draw("stock"))
    found = set()
    for action in game.legal_actions():
        if isinstance(action, Meld):
            game.check(action)
            found.add(tuple(sorted(format_cards(group) for group in action.groups)))
    return found


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
