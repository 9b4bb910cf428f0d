"""Events told as short sentences, for the move-by-move account and the bots' turns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kalooki.cards import Card, card_symbol
from kalooki.events import (
    BuildEvent,
    DealEvent,
    DiscardEvent,
    DrawEvent,
    EliminatedEvent,
    EventVisitor,
    GameEndEvent,
    GameEvent,
    HandEndEvent,
    MeldEvent,
    ReleaseEvent,
    ReshuffleEvent,
    StockOutEvent,
    as_event,
)
from kalooki.variant import Variant

from .table_notation import built_event_cards, meld_plain


def symbols(cards: Sequence[Card]) -> str:
    """Cards as people read them (``10♥ JK``)."""
    return " ".join(card_symbol(card) for card in cards)


def melded(cards: Sequence[Card], variant: Variant | None) -> str:
    return symbols(cards) if variant is None else meld_plain(cards, variant)


def built(event: BuildEvent, variant: Variant | None) -> str:
    if variant is None:
        return symbols(event.cards)
    return built_event_cards(event.cards, event.result, variant).plain


_NO_WINNER = {
    "stock_exhausted": "the stock ran out",
    "blocked": "nobody could draw",
    "turn_limit": "the turn limit was reached: nobody scores",
}


def describe_event(
    event: GameEvent | Mapping[str, Any], *, reveal: bool = True, variant: Variant | None = None
) -> str:
    """One line for an event (typed, or in its JSON form).

    ``reveal=False`` hides what only the acting player saw: the card drawn from the stock.
    With ``variant``, a joker in a meld says what it stands for, as the table does: ``JK(6♥)``.
    """
    return Sentences(reveal, variant).visit(as_event(event))


class Sentences(EventVisitor[str]):
    """Each event as a sentence of its own, the players named: the account of a script or a log."""

    def __init__(self, reveal: bool = True, variant: Variant | None = None) -> None:
        self.reveal = reveal
        self.variant = variant

    def deal(self, event: DealEvent) -> str:
        face_up = "no card" if event.discard is None else card_symbol(event.discard)
        dealer = "" if event.dealer is None else f" by {event.dealer}"
        drawn = event.drawn_for_dealer
        cut = (
            "each draws a card for the deal ("
            + ", ".join(f"{name} {card_symbol(card)}" for name, card in drawn.items())
            + "); "
            if drawn
            else ""
        )
        first = f"{event.first} plays first"
        return f"hand {event.hand}: {cut}cards dealt{dealer}, {first}, {face_up} face up"

    def draw(self, event: DrawEvent) -> str:
        if event.card is not None and event.source == "discard":
            return f"{event.player} takes {card_symbol(event.card)} from the discard pile"
        if self.reveal and event.card is not None:
            return f"{event.player} draws {card_symbol(event.card)} from the stock"
        return f"{event.player} draws from the stock"

    def meld(self, event: MeldEvent) -> str:
        groups = ", ".join(melded(group, self.variant) for group in event.melds)
        numbers = ", ".join(str(number) for number in event.numbers)
        return f"{event.player} melds {groups} ({event.points} points; table {numbers})"

    def build(self, event: BuildEvent) -> str:
        result = melded(event.result, self.variant)
        return f"{event.player} builds {built(event, self.variant)} on meld {event.meld}: {result}"

    def release(self, event: ReleaseEvent) -> str:
        jokers = "a joker" if event.jokers == 1 else f"{event.jokers} jokers"
        return f"{event.player} puts {symbols(event.cards)} on meld {event.meld} and takes {jokers}"

    def discard(self, event: DiscardEvent) -> str:
        return f"{event.player} discards {card_symbol(event.card)}"

    def reshuffle(self, event: ReshuffleEvent) -> str:
        return "the stock ran out: the discard pile is shuffled into a new stock"

    def stock_out(self, event: StockOutEvent) -> str:
        return "the stock ran out: the hand ends after this turn"

    def hand_end(self, event: HandEndEvent) -> str:
        if event.winner is None:
            why = _NO_WINNER.get(event.end, "abandoned")
            return f"hand {event.hand} ends without a winner ({why})"
        how = "goes Kalooki" if event.kalooki else "goes out"
        return f"{event.winner} {how}: hand {event.hand} is over"

    def eliminated(self, event: EliminatedEvent) -> str:
        return f"{event.player} reaches the limit and is out"

    def game_end(self, event: GameEndEvent) -> str:
        winners = event.winners
        return f"{' and '.join(winners)} {'win' if len(winners) > 1 else 'wins'} the game"
