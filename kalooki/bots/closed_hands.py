"""Which hands surely hold no opening, judged from the last hands found to hold none.

A greedy player who has not opened asks of nearly every hand it weighs whether it holds an opening:
at the draw, of the hand with and without the top discard, and again in the play. Most such hands
are the last one less a card, or with a card that joins nothing: their openings would all be openings
of a hand already found to hold none. Remembering those hands spares the count checks and the
solver: after one search in vain, a hand is searched again only when a new card joins a meld.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kalooki import rules
from kalooki.bots.nearness import closeness_of
from kalooki.cards import JOKER, Card
from kalooki.cardstate import EMPTY, CardState

if TYPE_CHECKING:
    from kalooki.variant import Variant


def joins_nothing(card: Card, state: CardState, copies: int, variant: Variant) -> bool:
    """Whether natural ``card``, held ``copies`` times with the other cards of ``state`` (jokers aside),
    joins no meld of them: nothing near it (no same rank in another suit, no same suit within two ranks),
    and too few copies for a set of that card alone, which sets that may repeat a suit allow (three
    packs or more hold three: ``7H 7H 7H``)."""
    if closeness_of(card, state):
        return False
    return rules.suits_must_differ(variant) or copies < rules.SMALLEST_MELD


class ClosedHands:
    """The last hand searched for an opening in vain (its meldable cards), and the last hand known to
    hold none (searched, or ruled out by the count checks alone), each with its size and rules."""

    __slots__ = ("_hand", "_hand_rules", "_hand_size", "_searched", "_searched_rules", "_searched_size")

    def __init__(self) -> None:
        self._searched = EMPTY
        self._searched_size = 0
        self._searched_rules: Variant | None = None
        self._hand = EMPTY
        self._hand_size = 0
        self._hand_rules: Variant | None = None

    def forget(self) -> None:
        """A new hand is dealt: what the last one held says nothing of it."""
        self._searched = self._hand = EMPTY

    def searched_in_vain(
        self, hand: Sequence[Card], state: CardState, can_meld: int, variant: Variant
    ) -> None:
        """``hand`` (its card state ``state``, its meldable cards ``can_meld``) was searched: no opening."""
        # From the list: iterating a state walks all 53 codes.
        self._searched = CardState.of([card for card in hand if card == JOKER or can_meld >> card & 1])
        self._searched_size = len(hand)
        self._searched_rules = self._hand_rules = variant
        self._hand, self._hand_size = state, len(hand)

    def ruled_out(self, state: CardState, size: int, variant: Variant) -> None:
        """A hand of ``size`` cards, found by the count checks alone, holds no opening: for :meth:`within`
        (not :meth:`may_open`, whose last hand searched in vain rules out more)."""
        self._hand, self._hand_size, self._hand_rules = state, size, variant

    def within(self, state: CardState, size: int, variant: Variant) -> bool:
        """Whether a hand of ``size`` cards surely holds no opening: it is part of the last hand known to
        hold none, or part of it plus one card that joins no meld in the hand (:func:`joins_nothing`, and
        no joker), so its openings would all be openings of that hand. The size limit keeps the cards that
        must stay in hand honest: an opening here would leave as many cards there."""
        if self._hand_rules is not variant or size > self._hand_size:
            return False
        closed = self._hand
        extra = state.excess(closed)
        if not extra:
            return True
        card = extra.bit_length() - 1
        if extra != 1 << card or state.count(card) - closed.count(card) > 1 or state.jokers:
            return False
        return joins_nothing(card, state, state.count(card), variant)

    def may_open(self, state: CardState, size: int, variant: Variant, can_meld: int) -> bool:
        """False when the hand's meldable cards (``can_meld``) and jokers all lie within those of the last
        hand searched in vain, and the hand is no larger: only meldable cards can be in an opening."""
        searched = self._searched
        if not searched.size or size > self._searched_size or self._searched_rules is not variant:
            return True
        # Whether a meldable card (or a joker) is held more often than in the hand that held no opening.
        return bool(state.excess(searched) & (can_meld | 1 << JOKER))
