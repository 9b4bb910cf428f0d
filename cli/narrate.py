"""Events told as short sentences, for the move-by-move account and the bots' turns."""

from __future__ import annotations

from typing import Any

from kalooki.cards import card_symbol, parse_cards
from kalooki.variant import Variant

from .table_notation import built_event_cards, meld_plain


def symbols(cards: str) -> str:
    """Script notation (``TH JK``) as people read cards (``10♥ JK``)."""
    return " ".join(card_symbol(card) for card in parse_cards(cards))


def melded(cards: str, variant: Variant | None) -> str:
    return symbols(cards) if variant is None else meld_plain(cards, variant)


def built(event: dict[str, Any], variant: Variant | None) -> str:
    if variant is None:
        return symbols(event["cards"])
    return built_event_cards(event["cards"], event["result"], variant).plain


def describe_event(
    event: dict[str, Any], *, reveal: bool = True, variant: Variant | None = None
) -> str | None:
    """One line for an event, or None for events that say nothing by themselves.

    ``reveal=False`` hides what only the acting player saw: the card drawn from the stock.
    With ``variant``, a joker in a meld says what it stands for, as the table does: ``JK(6♥)``.
    """
    kind = event["type"]
    player = event.get("player", "")
    if kind == "deal":
        face_up = "no card" if event["discard"] is None else symbols(event["discard"])
        dealer = f" by {event['dealer']}" if "dealer" in event else ""
        drawn = event.get("drawn_for_dealer")
        cut = (
            "each draws a card for the deal ("
            + ", ".join(f"{name} {symbols(card)}" for name, card in drawn.items())
            + "); "
            if drawn
            else ""
        )
        return (
            f"hand {event['hand']}: {cut}cards dealt{dealer}, {event['first']} plays first, {face_up} face up"
        )
    if kind == "draw":
        if event["source"] == "discard":
            return f"{player} takes {symbols(event['card'])} from the discard pile"
        return (
            f"{player} draws {symbols(event['card'])} from the stock"
            if reveal
            else f"{player} draws from the stock"
        )
    if kind == "meld":
        groups = ", ".join(melded(group, variant) for group in event["melds"])
        numbers = ", ".join(str(number) for number in event["numbers"])
        return f"{player} melds {groups} ({event['points']} points; table {numbers})"
    if kind == "build":
        result = melded(event["result"], variant)
        return f"{player} builds {built(event, variant)} on meld {event['meld']}: {result}"
    if kind == "release":
        jokers = "a joker" if event["jokers"] == 1 else f"{event['jokers']} jokers"
        return f"{player} puts {symbols(event['cards'])} on meld {event['meld']} and takes {jokers}"
    if kind == "discard":
        return f"{player} discards {symbols(event['card'])}"
    if kind == "reshuffle":
        return "the stock ran out: the discard pile is shuffled into a new stock"
    if kind == "stock_out":
        return "the stock ran out: the hand ends after this turn"
    if kind == "hand_end":
        if event["winner"] is None:
            why = {
                "stock_exhausted": "the stock ran out",
                "blocked": "nobody could draw",
                "turn_limit": "the turn limit was reached: nobody scores",
            }.get(event["end"], "abandoned")
            return f"hand {event['hand']} ends without a winner ({why})"
        how = "goes Kalooki" if event["kalooki"] else "goes out"
        return f"{event['winner']} {how}: hand {event['hand']} is over"
    if kind == "eliminated":
        return f"{player} reaches the limit and is out"
    if kind == "game_end":
        winners = event["winners"]
        return f"{' and '.join(winners)} {'win' if len(winners) > 1 else 'wins'} the game"
    return None
