"""Whether a state from the table adds up, before ``kalooki join`` rebuilds a game from it.

The host reads every client message as hostile (:func:`~kalooki_net.protocol.parse_client_message`);
a client reads the table's the same way. :func:`~kalooki_net.protocol.host_message_problem` gives
each field its type; :func:`view_problem` gives the view its sense: a list of one entry per player
wherever the view has one, every seat at the table, every card a card, no more of a card than the
pack holds, and the hands it does not show with the stock as many cards as it does not show. A view
that passes is rebuilt (:func:`~kalooki_net.view.shadow_game`), then checked as a save is
(:mod:`kalooki.statecheck`); whatever fails is a :class:`TableStateError`, one line that names the
field and what is wrong with it, never a save's words nor a typed card's. The state's events are
checked the same way (:func:`events_problem`): each one the engine writes, in the engine's own form,
naming only the table's players, its melds and melds that are melds, so the narration can trust them;
one that fails is a :class:`TableEventError`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from kalooki.cards import Card, CardError, format_card, full_pack, parse_card
from kalooki.engine import StateFormatError
from kalooki.events import (
    BuildEvent,
    DealEvent,
    EventFormatError,
    GameEndEvent,
    GameEvent,
    HandEndEvent,
    MeldEvent,
    ReleaseEvent,
    ReshuffleEvent,
    StockOutEvent,
    event_from_json,
)
from kalooki.jsonio import is_whole_number
from kalooki.melds import MeldError, make_meld
from kalooki.statecheck import MAX_PLAYERS, first_error
from kalooki.text import clipped, spell_surrogates
from kalooki.variant import MIN_PLAYERS, Variant

from .protocol import View

WATCHER = -1
"""The seat number of a view for someone who sits at no seat (the host with ``--watch``)."""
DOES_NOT_ADD_UP = "the table sent a state that does not add up"
EVENT_DOES_NOT_ADD_UP = "the table sent an event that does not add up"
PER_PLAYER = ("hand_counts", "opened", "totals", "eliminated")
"""The view's lists of one entry per player, besides ``revealed`` (None during a hand)."""


class TableStateError(StateFormatError):
    """A state from the table that is not consistent: one no honest host sends."""

    def __init__(self, problem: str, lead: str = DOES_NOT_ADD_UP) -> None:
        super().__init__(f"{lead}: {problem}")
        self.problem = problem


class TableEventError(TableStateError):
    """An event in a state from the table that no game can have sent: one that is not the engine's, or that
    names a player, a meld or cards the table does not have."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem, EVENT_DOES_NOT_ADD_UP)


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


def seen_cards(view: Mapping[str, Any]) -> Counter[Card]:
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
    pack, seen = full_pack(variant.decks, variant.jokers), seen_cards(view)
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
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        return f"view.players holds {_entries(count)}: a table has {MIN_PLAYERS} to {MAX_PLAYERS} players"
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


# ---------------------------------------------------------------- the events


_SHAPES: dict[str, dict[str, str]] = {
    "deal": {
        "hand": "int",
        "first": "str",
        "hands": "dict[str]",
        "discard": "str?",
        "dealer": "str?",
        "stock": "str?",
        "drawn_for_dealer": "dict[str]",
        "drawn_again": "list[dict[str]]",
    },
    "draw": {"player": "str", "source": "str", "card": "str?"},
    "meld": {"player": "str", "melds": "list[str]", "numbers": "list[int]", "points": "int"},
    "build": {"player": "str", "meld": "int", "cards": "str", "end": "str?", "result": "str"},
    "release": {"player": "str", "meld": "int", "cards": "str", "jokers": "int", "result": "str"},
    "discard": {"player": "str", "card": "str"},
    "end_turn": {"player": "str"},
    "reshuffle": {"rule": "str", "stock": "str?"},
    "stock_out": {"rule": "str"},
    "hand_end": {
        "hand": "int",
        "end": "str",
        "winner": "str?",
        "kalooki": "bool",
        "hand_points": "dict[int]",
        "scores": "dict[int]",
        "totals": "dict[int]",
    },
    "eliminated": {"player": "str"},
    "game_end": {"winners": "list[str]", "totals": "dict[int]"},
}
"""Each event's fields and their JSON types, as the engine writes them (``?``: or null, or left out)."""
_OPTIONAL = {"dealer", "card", "stock", "drawn_for_dealer", "drawn_again"}
_WORDS = {
    "int": "a whole number",
    "str": "text",
    "bool": "true or false",
    "list[str]": "a list of texts",
    "list[int]": "a list of whole numbers",
    "dict[str]": "an object of texts by player",
    "dict[int]": "an object of whole numbers by player",
    "list[dict[str]]": "a list of objects of texts by player",
}


def _fits(value: object, kind: str) -> bool:
    if kind == "int":
        return is_whole_number(value)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "str":
        return isinstance(value, str)
    outer, _, inner = kind.rstrip("]").partition("[")
    if outer == "list":
        return isinstance(value, list) and all(_fits(item, inner) for item in value)
    return isinstance(value, dict) and all(_fits(item, inner) for item in value.values())


def _shape_problem(data: Mapping[str, Any]) -> str | None:
    """The first field of a known event that is missing or not of its JSON type, in a person's words."""
    for field, kind in _SHAPES.get(str(data.get("type")), {}).items():
        nullable = kind.endswith("?")
        if field not in data:
            if field in _OPTIONAL:
                continue
            return f"it has no {field}"
        value, kind = data[field], kind.rstrip("?")
        if (nullable and value is None) or _fits(value, kind):
            continue
        sent = clipped(json.dumps(value, ensure_ascii=False), 40)
        return f"{field}: expected {_WORDS[kind]}{' or null' if nullable else ''}, got {sent}"
    return None


def _event_names(event: GameEvent) -> Iterator[tuple[str, str]]:
    """Each player an event names, with its field (``player``, ``hand_points`` for one of its keys)."""
    match event:
        case DealEvent():
            yield "first", event.first
            if event.dealer is not None:
                yield "dealer", event.dealer
            yield from (("hands", name) for name in event.hands)
            yield from (("drawn_for_dealer", name) for name in event.drawn_for_dealer)
            yield from (("drawn_again", name) for again in event.drawn_again for name in again)
        case HandEndEvent():
            if event.winner is not None:
                yield "winner", event.winner
            for field in ("hand_points", "scores", "totals"):
                yield from ((field, name) for name in getattr(event, field))
        case GameEndEvent():
            yield from (("winners", name) for name in event.winners)
            yield from (("totals", name) for name in event.totals)
        case ReshuffleEvent() | StockOutEvent():
            pass
        case _:
            yield "player", event.player


def _meld_numbers(event: GameEvent) -> tuple[int, ...]:
    if isinstance(event, MeldEvent):
        return event.numbers
    return (event.meld,) if isinstance(event, BuildEvent | ReleaseEvent) else ()


def _melds_problem(event: GameEvent, variant: Variant, melds: int | None) -> str | None:
    """What in a meld, build or swap is not on the table (``melds`` long; None: a hand before), or no meld."""
    for number in _meld_numbers(event):
        if number < 1 or (melds is not None and number > melds):
            holds = f" (it holds {melds})" if melds is not None else ""
            return f"meld {clipped(str(number), 20)} is not on the table{holds}"
    made: list[tuple[str, Sequence[Card], Any]] = []
    if isinstance(event, MeldEvent):
        if len(event.numbers) != len(event.melds):
            return f"numbers holds {_entries(len(event.numbers))} for {len(event.melds)} melds"
        if event.points < 0:
            return f"points: {clipped(str(event.points), 20)} is no number of points"
        kinds = event.read_as or (None,) * len(event.melds)
        made.extend((f"melds[{index}]", cards, kinds[index]) for index, cards in enumerate(event.melds))
    elif isinstance(event, BuildEvent | ReleaseEvent):
        made.append(("result", event.result, None))
    for where, cards, kind in made:
        try:
            make_meld(cards, variant, kind=kind)
        except MeldError as error:
            return f"{where}: {error}"
    if isinstance(event, ReleaseEvent) and not 1 <= event.jokers <= len(event.cards):
        return f"jokers: {clipped(str(event.jokers), 20)}, but cards holds {_entries(len(event.cards))}"
    return None


def _event_problem(
    data: Mapping[str, Any], players: Sequence[str], variant: Variant, melds: int | None
) -> str | None:
    problem = _shape_problem(data)
    if problem is not None:
        return problem
    try:
        event = event_from_json(data)
    except EventFormatError as error:
        return clipped(error.detail, 200)  # it may quote a whole hand of cards that are none
    problem = _melds_problem(event, variant, melds)
    if problem is not None:
        return problem
    for field, name in _event_names(event):
        if name not in players:
            return f"{field}: {_quoted(name)} is not a player at the table"
    if isinstance(event, HandEndEvent) and (missing := set(event.hand_points) - set(event.totals)):
        return f"totals: no total for {_quoted(sorted(missing)[0])}, who has hand_points"
    return None


def events_problem(
    events: Sequence[Mapping[str, Any]], view: Mapping[str, Any], variant: Variant
) -> str | None:
    """What makes one of a state's ``events`` no event of the game ``view`` (which :func:`view_problem`
    passed) shows: ``events[2] (meld): meld 9 is not on the table (it holds 2)``.

    The melds are numbered on the view's table from the last deal in ``events`` on; a deal clears the
    table, so an event before it names the melds of the hand before, which only have to be numbers.
    """
    deals = [index for index, data in enumerate(events) if data.get("type") == "deal"]
    for index, data in enumerate(events):
        melds = len(view["table"]) if not deals or index > deals[-1] else None
        problem = _event_problem(data, view["players"], variant, melds)
        if problem is not None:
            kind = data.get("type")
            where = (
                f"events[{index}] ({_quoted(kind)[1:-1]})" if isinstance(kind, str) else f"events[{index}]"
            )
            return spell_surrogates(f"{where}: {problem}")
    return None


__all__ = [
    "DOES_NOT_ADD_UP",
    "EVENT_DOES_NOT_ADD_UP",
    "WATCHER",
    "TableEventError",
    "TableStateError",
    "events_problem",
    "seen_cards",
    "state_problem",
    "view_problem",
]
