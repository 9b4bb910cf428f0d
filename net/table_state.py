"""Whether a state from the table adds up, before ``kalooki join`` rebuilds a game from it.

The host reads every client message as hostile (:func:`~kalooki_net.protocol.parse_client_message`);
a client reads the table's the same way. :func:`~kalooki_net.protocol.host_message_problem` gives
each field its type; :func:`view_problem` gives the view its sense: a list of one entry per player
wherever the view has one, every seat at the table, every card a card, no more of a card than the
pack holds, and the hands it does not show with the stock as many cards as it does not show. A view
that passes is rebuilt (:func:`~kalooki_net.view.shadow_game`), then checked as a save is
(:mod:`kalooki.statecheck`); whatever fails is a :class:`TableStateError`, one line that names the
field and what is wrong with it, never a save's words nor a typed card's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from kalooki.cards import Card, CardError, format_card, full_pack, parse_card
from kalooki.engine import StateFormatError
from kalooki.melds import MeldError, make_meld
from kalooki.statecheck import MAX_PLAYERS, first_error
from kalooki.text import clipped
from kalooki.validation import spell_surrogates
from kalooki.variant import Variant

from .protocol import View

WATCHER = -1
"""The seat number of a view for someone who sits at no seat (the host with ``--watch``)."""
DOES_NOT_ADD_UP = "the table sent a state that does not add up"
PER_PLAYER = ("hand_counts", "opened", "totals", "eliminated")
"""The view's lists of one entry per player, besides ``revealed`` (None during a hand)."""


class TableStateError(StateFormatError):
    """A state from the table that is not consistent: one no honest host sends."""

    def __init__(self, problem: str) -> None:
        super().__init__(f"{DOES_NOT_ADD_UP}: {problem}")
        self.problem = problem


def _quoted(text: str) -> str:
    """A text the table sent, as a message quotes it: short, and with no lone surrogate (no UTF-8 has one)."""
    return f"'{spell_surrogates(clipped(text, 20))}'"


def _entries(count: int) -> str:
    return f"{count} entry" if count == 1 else f"{count} entries"


def _seats_problem(view: Mapping[str, Any], count: int) -> str | None:
    seats = f"this {count}-player table's seats are 0 to {count - 1}"
    seat = view["seat"]
    if seat != WATCHER and not 0 <= seat < count:
        return f"view.seat: {seat} is not at the table: {seats} (or {WATCHER}, watching)"
    for field in ("current", "first_seat"):
        if not 0 <= view[field] < count:
            return f"view.{field}: {view[field]} is not at the table: {seats}"
    return None


def _card_fields(view: Mapping[str, Any]) -> Iterator[tuple[str, Sequence[str]]]:
    """Each list of cards in ``view``, with its place (``view.table[0].cards``)."""
    yield "view.hand", view["hand"]
    yield "view.discard_pile", view["discard_pile"]
    for index, meld in enumerate(view["table"]):
        yield f"view.table[{index}].cards", meld["cards"]
    for index, hand in enumerate(view["revealed"] or ()):
        yield f"view.revealed[{index}]", hand
    for key in ("drawn_card", "must_use_card"):
        if view["turn"][key] is not None:
            yield f"view.turn.{key}", [view["turn"][key]]


def _cards_problem(view: Mapping[str, Any], variant: Variant) -> str | None:
    for where, texts in _card_fields(view):
        for index, text in enumerate(texts):
            try:
                parse_card(text)
            except CardError:
                place = where if where.startswith("view.turn.") else f"{where}[{index}]"
                return f"{place}: {_quoted(text)} is not a card"
    for index, meld in enumerate(view["table"]):
        try:
            make_meld([parse_card(text) for text in meld["cards"]], variant, kind=meld["kind"])
        except MeldError as error:
            return f"view.table[{index}]: {error}"
    laid = view["turn"]["laid"]
    if any(not 0 <= index < len(view["table"]) for index in laid) or len(set(laid)) != len(laid):
        return f"view.turn.laid: {laid} are not each a meld on the table (it holds {len(view['table'])})"
    return None


def _seen(view: Mapping[str, Any]) -> Counter[Card]:
    """Every card the view shows: the hands it shows, the discard pile, the melds."""
    revealed = view["revealed"]
    hands = revealed if revealed is not None else [view["hand"]] if view["seat"] != WATCHER else []
    texts = [*(card for hand in hands for card in hand), *view["discard_pile"]]
    texts.extend(card for meld in view["table"] for card in meld["cards"])
    return Counter(parse_card(text) for text in texts)


def _counts_problem(view: Mapping[str, Any], variant: Variant) -> str | None:
    """The cards shown, the hands' counts and the stock's: together exactly one pack."""
    counts, seat, revealed = view["hand_counts"], view["seat"], view["revealed"]
    for index, count in enumerate(counts):
        if count < 0:
            return f"view.hand_counts[{index}]: {count} is no number of cards"
    pack, seen = full_pack(variant.decks, variant.jokers), _seen(view)
    for card, copies in sorted(seen.items()):
        if copies > pack[card]:
            return f"view: it shows {format_card(card)} {copies} times, and the pack holds {pack[card]}"
    if revealed is not None:
        shown = {index: len(hand) for index, hand in enumerate(revealed)}
    else:
        shown = {seat: len(view["hand"])} if seat != WATCHER else {}
    for index, size in shown.items():
        if counts[index] != size:
            hand = f"view.revealed[{index}]" if revealed is not None else "view.hand"
            return f"view.hand_counts[{index}] is {counts[index]}, but {hand} holds {size} cards"
    unseen = pack.total() - seen.total()
    hidden = sum(count for index, count in enumerate(counts) if index not in shown)
    if hidden > unseen:
        return f"view.hand_counts: the hands not shown hold {hidden} cards, but only {unseen} are unseen"
    if view["stock_count"] != unseen - hidden:
        return (
            f"view.stock_count is {view['stock_count']}, but {unseen - hidden} cards are in no hand, "
            "meld or discard pile"
        )
    return None


def view_problem(view: Mapping[str, Any], variant: Variant) -> str | None:
    """What makes ``view`` no state a table of ``variant`` can be in (None when it adds up so far)."""
    try:
        View.model_validate(view)
    except ValidationError as error:
        return first_error(error, "view")
    count = len(view["players"])
    if not 2 <= count <= MAX_PLAYERS:
        return f"view.players holds {_entries(count)}: a table has 2 to {MAX_PLAYERS} players"
    for field in PER_PLAYER if view["revealed"] is None else (*PER_PLAYER, "revealed"):
        if len(view[field]) != count:
            return f"view.{field} holds {_entries(len(view[field]))} for {count} players"
    return _seats_problem(view, count) or _cards_problem(view, variant) or _counts_problem(view, variant)


def state_problem(message: Mapping[str, Any], seat: int) -> str | None:
    """What in a state message, its view aside, does not fit the seat its welcome gave (``seat``)."""
    view = message["view"]
    if view["seat"] != seat:
        return f"view.seat is {view['seat']}, but welcome.seat is {seat}"
    for key in message["stand_ins"]:
        if not (key.isascii() and key.isdigit() and int(key) < len(view["players"])):
            return f"stand_ins: {_quoted(key)} is not a seat at the table"
    return None


__all__ = ["DOES_NOT_ADD_UP", "WATCHER", "TableStateError", "state_problem", "view_problem"]
