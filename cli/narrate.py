"""Events told as short sentences, for the move-by-move account and the bots' turns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, assert_never

from kalooki.cards import Card, card_symbol
from kalooki.events import (
    BuildEvent,
    DealEvent,
    DiscardEvent,
    DrawEvent,
    EliminatedEvent,
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
    return _describe(as_event(event), reveal, variant)


def _describe(event: GameEvent, reveal: bool, variant: Variant | None) -> str:
    match event:
        case DealEvent():
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
            return (
                f"hand {event.hand}: {cut}cards dealt{dealer}, {event.first} plays first, {face_up} face up"
            )
        case DrawEvent(player=player, source="discard", card=card) if card is not None:
            return f"{player} takes {card_symbol(card)} from the discard pile"
        case DrawEvent(player=player, card=card):
            if reveal and card is not None:
                return f"{player} draws {card_symbol(card)} from the stock"
            return f"{player} draws from the stock"
        case MeldEvent(player=player):
            groups = ", ".join(melded(group, variant) for group in event.melds)
            numbers = ", ".join(str(number) for number in event.numbers)
            return f"{player} melds {groups} ({event.points} points; table {numbers})"
        case BuildEvent(player=player):
            result = melded(event.result, variant)
            return f"{player} builds {built(event, variant)} on meld {event.meld}: {result}"
        case ReleaseEvent(player=player):
            jokers = "a joker" if event.jokers == 1 else f"{event.jokers} jokers"
            return f"{player} puts {symbols(event.cards)} on meld {event.meld} and takes {jokers}"
        case DiscardEvent(player=player, card=card):
            return f"{player} discards {card_symbol(card)}"
        case ReshuffleEvent():
            return "the stock ran out: the discard pile is shuffled into a new stock"
        case StockOutEvent():
            return "the stock ran out: the hand ends after this turn"
        case HandEndEvent(winner=None):
            why = _NO_WINNER.get(event.end, "abandoned")
            return f"hand {event.hand} ends without a winner ({why})"
        case HandEndEvent(winner=winner):
            how = "goes Kalooki" if event.kalooki else "goes out"
            return f"{winner} {how}: hand {event.hand} is over"
        case EliminatedEvent(player=player):
            return f"{player} reaches the limit and is out"
        case GameEndEvent(winners=winners):
            return f"{' and '.join(winners)} {'win' if len(winners) > 1 else 'wins'} the game"
        case _:
            assert_never(event)
