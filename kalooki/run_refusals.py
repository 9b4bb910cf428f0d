"""Why cards of one suit, enough for a run, are not one: the words :func:`kalooki.melds.make_meld` gives
after "is not a run: " (too many cards, a rank twice, a joker past the lowest or highest rank, an ace where
this variant's runs may not hold it, or a gap), asked only once the cards failed to read as a run.
"""

from __future__ import annotations

from collections.abc import Sequence

from kalooki.cards import ACE, JOKER, Card, rank_of
from kalooki.rules import RUN_MAX, RunFrame, run_frame
from kalooki.variant import Variant

_ACE_ONLY: dict[tuple[int, ...], str] = {
    (14,): "in this variant an ace may only sit above the king (Q-K-A)",
    (1,): "in this variant an ace may only sit below the two (A-2-3)",
}
"""The variant's own rule, where an ace may sit at one end of a run only (not under wrap)."""


def ace_rule(variant: Variant) -> str | None:
    """Where this variant's runs may hold an ace, in words, when only at one end (ace_in_runs high or low)."""
    frame = run_frame(variant)
    return None if frame.wrap else _ACE_ONLY.get(frame.ace_positions)


def either_end_frame(variant: Variant) -> RunFrame | None:
    """The run frame with an ace at either end, where the variant allows only one: a run that fits it and
    not the variant's is refused for the ace's place alone, which the refusal then names."""
    if ace_rule(variant) is None:
        return None
    return RunFrame(minimum=variant.run_minimum, wrap=False, ace_positions=(1, 14))


def run_refusal(cards: Sequence[Card], variant: Variant) -> str:
    """Why ``cards`` are no run under the variant, as written (see the module's description)."""
    if len(cards) > RUN_MAX:
        return f"a run has at most {RUN_MAX} cards"
    ranks = [rank_of(card) for card in cards if card != JOKER]
    if len(set(ranks)) != len(ranks):
        return "a rank appears twice"
    beyond = _joker_beyond_the_frame(cards, variant)
    if beyond:
        return beyond
    # Cards that would be consecutive if the ranks went round the corner (K-A-2) are refused only
    # for where the ace (or a joker standing for it) sits; any other order or gap is not consecutive.
    if _consecutive_round_the_corner(cards):
        return (
            ace_rule(variant) or "an ace may sit below the two or above the king, not between them (no K-A-2)"
        )
    return (
        "the cards are not consecutive as written (write a run low to high, a joker where a card is missing)"
    )


def _consecutive_round_the_corner(cards: Sequence[Card]) -> bool:
    """Whether the naturals, as written, sit one rank apart on the ranks' circle (K-A-2 allowed)."""
    starts = {(rank_of(card) - index) % 13 for index, card in enumerate(cards) if card != JOKER}
    return len(starts) == 1


_END_WORDS = {1: "ace", 2: "two", 13: "king", 14: "ace"}


def _joker_beyond_the_frame(cards: Sequence[Card], variant: Variant) -> str | None:
    """Why naturals consecutive as written still make no run: a joker past the lowest or highest rank."""
    frame = run_frame(variant)
    if frame.wrap:
        return None
    ace_ranks, lowest, highest = frame.ace_positions, frame.lowest, frame.highest
    naturals = [(index, rank_of(card)) for index, card in enumerate(cards) if card != JOKER]
    for ace in ace_ranks:
        lows = {(ace if rank == ACE else rank) - index for index, rank in naturals}
        placed = [ace if rank == ACE else rank for _, rank in naturals]
        if len(lows) != 1 or min(placed) < lowest or max(placed) > highest:
            continue
        low = lows.pop()
        # Where the ace may sit at one end only, the two (or the king) is the end for the ace's sake: say so.
        if low < lowest:
            why = "no card ranks lower" if lowest == 1 else _ACE_ONLY[(14,)]
            return f"a joker cannot stand below the {_END_WORDS[lowest]}: {why}"
        if low + len(cards) - 1 > highest:
            why = "no card ranks higher" if highest == 14 else _ACE_ONLY[(1,)]
            return f"a joker cannot stand above the {_END_WORDS[highest]}: {why}"
    return None


__all__ = ["ace_rule", "either_end_frame", "run_refusal"]
