"""Cheap necessary conditions that let bots skip the exact solver on most turns.

The solver answers exactly, but a call costs far more than a whole turn of the engine. Most
turns nothing can be laid, and that is visible from the cards alone: a natural card that sits
in no complete set or run window (jokers filling gaps) cannot be in any meld, and an opening's
melds are worth at most the points of such cards plus the jokers'. These checks may say "maybe"
when the answer is no, never "no" when it is yes, so a bot that skips the solver on "no" plays
exactly as if it had asked.

Runs are tested with bit masks: bit ``p`` of a suit's mask is set when the hand holds the card
at run position ``p`` (1 = ace low ... 13 = king, 14 = ace high), so a window of positions is a
shift and a mask, and a window's count is ``int.bit_count``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from kalooki.cards import JOKER, Card, rank_points
from kalooki.melds import RUN_MAX, SET_MAX, TableMeld
from kalooki.variant import Variant


@lru_cache(maxsize=64)
def _frame(variant: Variant) -> tuple[tuple[int, ...], int, bool]:
    """The window start positions a run may use, the window width, and whether positions wrap."""
    size = variant.run_minimum
    mode = variant.ace_in_runs
    if mode == "wrap":
        return tuple(range(1, 14)), size, True
    lowest = 2 if mode == "high" else 1
    highest = 13 if mode == "low" else 14
    return tuple(range(lowest, highest - size + 2)), size, False


def meldable(hand: Sequence[Card], variant: Variant) -> int:
    """The natural cards of ``hand`` that some new meld of this hand could hold, as a mask of card codes.

    Exact without jokers; with jokers a little generous (a window of one natural and jokers is
    counted although it reads as a set), which keeps it a safe filter. Test a card with
    ``mask >> card & 1``.
    """
    jokers = 0
    suits_of_rank = [0] * 13
    masks = [0, 0, 0, 0]
    for card in hand:
        if card == JOKER:
            jokers += 1
            continue
        index, suit = card % 13, card // 13
        suits_of_rank[index] |= 1 << suit
        masks[suit] |= _POSITION_BITS[index]
    found = 0
    for index, suits in enumerate(suits_of_rank):
        if suits and _SUIT_COUNT[suits] + jokers >= 3:
            for suit in range(4):
                if suits >> suit & 1:
                    found |= 1 << (suit * 13 + index)
    starts, size, wrap = _frame(variant)
    for suit, mask in enumerate(masks):
        if not mask:
            continue
        if wrap:
            # Unroll the circle: positions 1-13 then 14-26 again, so a window never needs a modulus.
            core = mask & _ONE_TO_THIRTEEN
            mask = core | (core << 13)
        if jokers:
            covered = 0
            full = (1 << size) - 1
            for start in starts:
                window = (mask >> start) & full
                have = window.bit_count()
                if have and size - have <= jokers:
                    covered |= window << start
        else:
            # Without jokers a window must be full: AND the shifted masks, then spread the starts back.
            first = mask
            for step in range(1, size):
                first &= mask >> step
            first &= _starts_mask(starts)
            covered = first
            for step in range(1, size):
                covered |= first << step
        if wrap:
            covered = (covered | (covered >> 13)) & _ONE_TO_THIRTEEN
        if covered:
            found |= ((covered & _ONE_TO_THIRTEEN) >> 1) << (suit * 13)
            if covered >> 14 & 1:
                found |= 1 << (suit * 13)
    return found


_ONE_TO_THIRTEEN = (1 << 14) - 2
_POSITION_BITS = [(1 << 1) | (1 << 14) if index == 0 else 1 << (index + 1) for index in range(13)]
_SUIT_COUNT = [suits.bit_count() for suits in range(16)]


@lru_cache(maxsize=64)
def _starts_mask(starts: tuple[int, ...]) -> int:
    mask = 0
    for start in starts:
        mask |= 1 << start
    return mask


def opening_bound(hand: Sequence[Card], can_meld: int, variant: Variant) -> int:
    """An upper bound on the points of new melds the hand could lay (every meldable card, jokers at most)."""
    ace = variant.ace_value
    total = 0
    for card in hand:
        if card == JOKER:
            total += max(ace, 10)
        elif can_meld >> card & 1:
            total += rank_points(card % 13 + 1, ace)
    return total


def may_open(hand: Sequence[Card], variant: Variant) -> bool:
    """False when the hand surely has no opening (its meldable cards cannot reach the threshold)."""
    can_meld = meldable(hand, variant)
    if not can_meld:
        return False
    return opening_bound(hand, can_meld, variant) >= max(variant.opening_threshold, 1)


def fits_table(card: Card, table: Sequence[TableMeld], variant: Variant) -> bool:
    """Whether ``card`` could start a build onto some table meld (a joker: whether any meld has room)."""
    if card == JOKER:
        return any(len(meld.cards) < (SET_MAX if meld.kind == "set" else RUN_MAX) for meld in table)
    rank, suit = card % 13 + 1, card // 13
    wrap = variant.ace_in_runs == "wrap"
    for meld in table:
        if meld.kind == "set":
            if meld.rank == rank and len(meld.cards) < SET_MAX and suit in meld.missing_suits():
                return True
            continue
        if meld.suit != suit or len(meld.cards) >= RUN_MAX:
            continue
        below, above = meld.rank - 1, meld.high_rank() + 1
        if wrap:
            below, above = (below - 1) % 13 + 1, (above - 1) % 13 + 1
        if rank in (below, above) or (rank == 1 and 14 in (below, above)):
            return True
    return False


def may_lay(hand: Sequence[Card], table: Sequence[TableMeld], variant: Variant) -> bool:
    """For a player who has opened: False when nothing in hand can be melded or built."""
    if JOKER in hand:
        return True
    if meldable(hand, variant):
        return True
    return any(fits_table(card, table, variant) for card in set(hand))
