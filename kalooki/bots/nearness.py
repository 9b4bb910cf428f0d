"""How near a card is to melding with the rest of a hand: the greedy bots' measure for discards and draws.

A card is near another of the same rank, or of the same suit within two ranks (round the ace).
Read from a list of counts (a discard scores every card of one hand) or from a hand's
:class:`~kalooki.cardstate.CardState` (a draw asks about one card).
"""

from __future__ import annotations

from collections.abc import Sequence

from kalooki.cards import JOKER, Card
from kalooki.cardstate import KEY_BITS, CardState


def card_counts(hand: Sequence[Card]) -> list[int]:
    counts = [0] * 53
    for card in hand:
        counts[card] += 1
    return counts


def closeness_in(card: Card, counts: Sequence[int]) -> int:
    """How many other cards of the hand could meld with ``card`` (same rank, or same suit within 2
    ranks), from the hand's card counts (so a discard choice counts the hand once)."""
    if card == JOKER:
        return 99
    a, b, c, d, e, f, g = _NEAR[card]
    return counts[a] + counts[b] + counts[c] + counts[d] + counts[e] + counts[f] + counts[g]


def _near(card: Card) -> tuple[Card, ...]:
    """The cards that could meld with ``card``: its rank in the other suits, then its suit one or two
    ranks away, counting round the ace (an ace sits next to a two and a king)."""
    index = card % 13
    base = card - index
    others = tuple(suit * 13 + index for suit in range(4) if suit * 13 + index != card)
    return others + tuple(base + (index + step) % 13 for step in (1, 2, 11, 12))


_NEAR = tuple(_near(card) for card in range(JOKER))
_NEAR_KEYS = tuple(sum(15 << (code * KEY_BITS) for code in near) for near in _NEAR)
"""Per card, the bits of a state's key that count the cards near it (see :func:`closeness_of`)."""


def closeness_of(card: Card, state: CardState) -> int:
    """:func:`closeness_in` read from the hand's card state (no counts to build)."""
    if card == JOKER:
        return 99
    # The near cards' counts masked out of the key at once; then only the held ones are read,
    # highest first (what lies above a count is already cleared): most cards have none near.
    near = state.key & _NEAR_KEYS[card]
    total = 0
    while near:
        shift = (near.bit_length() - 1) & -KEY_BITS
        total += near >> shift
        near &= (1 << shift) - 1
    return total


def discard_of(candidates: list[Card], counts: list[int], values: Sequence[int], short: bool) -> Card:
    """The greedy bot's discard orders for joker-free ``candidates`` (see its ``choose_discard``), with
    :func:`closeness_in` written out in the comprehension: a discard scores every distinct card of
    the hand, every turn."""
    near = _NEAR
    if short:
        return min(
            [
                (
                    values[card],
                    counts[a] + counts[b] + counts[c] + counts[d] + counts[e] + counts[f] + counts[g],
                    card,
                )
                for card in candidates
                for a, b, c, d, e, f, g in [near[card]]
            ]
        )[2]
    return max(
        [
            (
                values[card]
                - 8 * (counts[a] + counts[b] + counts[c] + counts[d] + counts[e] + counts[f] + counts[g]),
                card,
            )
            for card in candidates
            for a, b, c, d, e, f, g in [near[card]]
        ]
    )[1]


def least_useful(hand: Sequence[Card], owed: Sequence[Card], values: Sequence[int], short: bool) -> Card:
    """The greedy bot's discard: the costliest card least connected to the rest of ``hand``, never a
    joker nor a card the turn owes if another is there. ``short``: the hand falls short of an opening
    even with every meldable card, and opens only by gaining points: it keeps its high cards and lets
    its low ones go (throwing away the high cards it draws would keep it short for good)."""
    # Each card once; the orders end on the card itself, so the order of this list is no matter.
    held = set(hand)
    candidates = [card for card in held if card != JOKER and card not in owed] or list(held)
    counts = card_counts(hand)
    if JOKER not in candidates:
        return discard_of(candidates, counts, values, short)
    # The orders as tuples ending on the card (each card once, so no two tie), then the best one's card.
    if short:
        return min([(values[card], closeness_in(card, counts), card) for card in candidates])[2]
    return max([(values[card] - 8 * closeness_in(card, counts), card) for card in candidates])[1]
