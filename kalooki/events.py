"""What happened in a game, as typed values carrying :data:`~kalooki.cards.Card` codes.

The engine reports each action as events in their JSON form (``{"type": "draw", "player": "ann",
"source": "stock", "card": "7H"}``), the form logs, scripts' ``--json`` and the network protocol
carry. :func:`event_from_json` reads one into a frozen dataclass of this module (cards as card
codes, so no reader parses card text again) and :meth:`to_json` writes it back exactly, key for key
and in the same order, so a log read and written again is byte-identical. Keys that a source may
leave out stay optional: ``dealer`` (logs from before it was recorded), the stock and another
player's card drawn from the stock (what a network seat may not see).

Readers ``match`` on the classes and close with :func:`typing.assert_never`, so a new kind of
event that a reader does not handle fails the type check instead of being dropped silently.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, TypeVar, assert_never

from kalooki.cards import Card, format_card, format_cards, parse_card, parse_cards
from kalooki.errors import KalookiError
from kalooki.text import clipped, safe_repr

Cards = tuple[Card, ...]
T = TypeVar("T")


class EventFormatError(KalookiError):
    """An event whose JSON form is not one the engine writes; ``detail`` says what is wrong with it."""

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail or message


class _EventJson(Mapping[str, Any]):
    """Read access to an event's JSON form (``event["card"]``, ``event.get("dealer")``, ``dict(event)``).

    Code written when the engine's events were dicts keeps working: it reads the same keys and
    values, and an event equals its JSON form. New code reads the typed fields.
    """

    __slots__ = ()
    kind: ClassVar[str]
    """The event's ``type`` in its JSON form."""

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError

    def __getitem__(self, key: str) -> Any:
        if key == "type":
            return self.kind
        return self.to_json()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_json())

    def __len__(self) -> int:
        return len(self.to_json())


def read_as_of(kinds: object, melds: int) -> tuple[Literal["set", "run"] | None, ...]:
    """A meld event's ``read_as``: one of set, run or null a meld, or ValueError."""
    if not isinstance(kinds, list | tuple) or (kinds and len(kinds) != melds):
        raise ValueError(f"read_as must list set, run or null for each of the {melds} melds")
    read: list[Literal["set", "run"] | None] = []
    for kind in kinds:
        if kind not in (None, "set", "run"):
            raise ValueError(f"read_as: {kind!r} is not set, run or null")
        read.append(kind)
    return tuple(read)


def meld_groups(melds: object) -> list[Any]:
    """A meld event's ``melds``, each group its cards as text; ValueError for anything but a list, which
    was read as Python reads it: null as "'NoneType' object is not iterable", a text letter by letter."""
    if not isinstance(melds, list | tuple):
        shown = clipped(json.dumps(melds, default=repr))
        raise ValueError(
            f'melds must be a list of melds, each its cards as text (["7H 8H 9H", "QS QD QC"]), not {shown}'
        )
    return list(melds)


def _cards(text: object) -> Cards:
    return tuple(parse_cards(str(text)))


def _card_or_none(text: object) -> Card | None:
    return None if text is None else parse_card(str(text))


@dataclass(frozen=True, slots=True, eq=False)
class DealEvent(_EventJson):
    """A hand dealt: every hand, the face-up card and the stock (top first)."""

    kind: ClassVar[str] = "deal"

    hand: int
    first: str
    hands: Mapping[str, Cards]
    discard: Card | None
    dealer: str | None = None
    stock: Cards | None = None
    drawn_for_dealer: Mapping[str, Card] = field(default_factory=dict)
    """The cards drawn to choose the first dealer (first hand of a variant that draws for it): each
    player's first draw."""
    drawn_again: tuple[Mapping[str, Card], ...] = ()
    """Where the highest card was tied: each round of the tied players' draws again, in order."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "deal", "hand": self.hand}
        if self.dealer is not None:
            data["dealer"] = self.dealer
        data["first"] = self.first
        data["hands"] = {name: format_cards(cards) for name, cards in self.hands.items()}
        data["discard"] = None if self.discard is None else format_card(self.discard)
        if self.stock is not None:
            data["stock"] = format_cards(self.stock)
        if self.drawn_for_dealer:
            data["drawn_for_dealer"] = {
                name: format_card(card) for name, card in self.drawn_for_dealer.items()
            }
        if self.drawn_again:
            data["drawn_again"] = [
                {name: format_card(card) for name, card in again.items()} for again in self.drawn_again
            ]
        return data


@dataclass(frozen=True, slots=True, eq=False)
class DrawEvent(_EventJson):
    """A card drawn; ``card`` is None where the card was not seen (another player's, from the stock)."""

    kind: ClassVar[str] = "draw"

    player: str
    source: Literal["stock", "discard"]
    card: Card | None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "draw", "player": self.player, "source": self.source}
        if self.card is not None:
            data["card"] = format_card(self.card)
        return data


@dataclass(frozen=True, slots=True, eq=False)
class MeldEvent(_EventJson):
    """New melds laid, numbered on the table, and the points they are worth."""

    kind: ClassVar[str] = "meld"

    player: str
    melds: tuple[Cards, ...]
    numbers: tuple[int, ...]
    points: int
    # How the move said each meld reads ("run", "set", None: as usual), where it said so for one.
    read_as: tuple[Literal["set", "run"] | None, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "meld",
            "player": self.player,
            "melds": [format_cards(meld) for meld in self.melds],
            "numbers": list(self.numbers),
            "points": self.points,
            # Only where a move named a reading: logs from before it, and every other meld, read as they did.
            **({"read_as": list(self.read_as)} if self.read_as else {}),
        }


@dataclass(frozen=True, slots=True, eq=False)
class BuildEvent(_EventJson):
    """Cards built onto table meld ``meld`` (numbered from 1), and the meld they made."""

    kind: ClassVar[str] = "build"

    player: str
    meld: int
    cards: Cards
    end: str | None
    result: Cards

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "build",
            "player": self.player,
            "meld": self.meld,
            "cards": format_cards(self.cards),
            "end": self.end,
            "result": format_cards(self.result),
        }


@dataclass(frozen=True, slots=True, eq=False)
class ReleaseEvent(_EventJson):
    """Cards put in place of jokers on table meld ``meld``; the jokers freed go to the player's hand."""

    kind: ClassVar[str] = "release"

    player: str
    meld: int
    cards: Cards
    jokers: int
    result: Cards

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "release",
            "player": self.player,
            "meld": self.meld,
            "cards": format_cards(self.cards),
            "jokers": self.jokers,
            "result": format_cards(self.result),
        }


@dataclass(frozen=True, slots=True, eq=False)
class DiscardEvent(_EventJson):
    kind: ClassVar[str] = "discard"

    player: str
    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"type": "discard", "player": self.player, "card": format_card(self.card)}


@dataclass(frozen=True, slots=True, eq=False)
class EndTurnEvent(_EventJson):
    """A turn ended without a discard (``turn_discard: optional``)."""

    kind: ClassVar[str] = "end_turn"

    player: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "end_turn", "player": self.player}


@dataclass(frozen=True, slots=True, eq=False)
class ReshuffleEvent(_EventJson):
    """The discard pile shuffled into a new stock (``stock``, top first, where it may be seen)."""

    kind: ClassVar[str] = "reshuffle"

    rule: str
    stock: Cards | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "reshuffle", "rule": self.rule}
        if self.stock is not None:
            data["stock"] = format_cards(self.stock)
        return data


@dataclass(frozen=True, slots=True, eq=False)
class StockOutEvent(_EventJson):
    """The stock ran out and the rules end the hand after this turn."""

    kind: ClassVar[str] = "stock_out"

    rule: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "stock_out", "rule": self.rule}


@dataclass(frozen=True, slots=True, eq=False)
class HandEndEvent(_EventJson):
    kind: ClassVar[str] = "hand_end"

    hand: int
    end: str
    winner: str | None
    kalooki: bool
    hand_points: Mapping[str, int]
    scores: Mapping[str, int]
    totals: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "hand_end",
            "hand": self.hand,
            "end": self.end,
            "winner": self.winner,
            "kalooki": self.kalooki,
            "hand_points": dict(self.hand_points),
            "scores": dict(self.scores),
            "totals": dict(self.totals),
        }


@dataclass(frozen=True, slots=True, eq=False)
class EliminatedEvent(_EventJson):
    kind: ClassVar[str] = "eliminated"

    player: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "eliminated", "player": self.player}


@dataclass(frozen=True, slots=True, eq=False)
class GameEndEvent(_EventJson):
    kind: ClassVar[str] = "game_end"

    winners: tuple[str, ...]
    totals: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        return {"type": "game_end", "winners": list(self.winners), "totals": dict(self.totals)}


GameEvent = (
    DealEvent
    | DrawEvent
    | MeldEvent
    | BuildEvent
    | ReleaseEvent
    | DiscardEvent
    | EndTurnEvent
    | ReshuffleEvent
    | StockOutEvent
    | HandEndEvent
    | EliminatedEvent
    | GameEndEvent
)
"""Any event; readers ``match`` on it and end with ``case _: assert_never(event)``."""

PlayEvent = DrawEvent | MeldEvent | BuildEvent | ReleaseEvent | DiscardEvent | EndTurnEvent
"""The events of a player's own actions."""


class EventVisitor(ABC, Generic[T]):
    """One walk over events for every reader, in the manner of python-chess's ``pgn.BaseVisitor``.

    :meth:`visit` dispatches on the event's class and ends with :func:`typing.assert_never`; a reader
    implements one method per kind. A new kind of event therefore fails the type check in
    :meth:`visit` until it has a method here, and then every reader that does not implement it
    cannot be instantiated: no reader drops an event silently.
    """

    def visit(self, event: GameEvent) -> T:
        match event:
            case DealEvent():
                return self.deal(event)
            case DrawEvent():
                return self.draw(event)
            case MeldEvent():
                return self.meld(event)
            case BuildEvent():
                return self.build(event)
            case ReleaseEvent():
                return self.release(event)
            case DiscardEvent():
                return self.discard(event)
            case EndTurnEvent():
                return self.end_turn(event)
            case ReshuffleEvent():
                return self.reshuffle(event)
            case StockOutEvent():
                return self.stock_out(event)
            case HandEndEvent():
                return self.hand_end(event)
            case EliminatedEvent():
                return self.eliminated(event)
            case GameEndEvent():
                return self.game_end(event)
            case _:
                assert_never(event)

    @abstractmethod
    def deal(self, event: DealEvent) -> T: ...

    @abstractmethod
    def draw(self, event: DrawEvent) -> T: ...

    @abstractmethod
    def meld(self, event: MeldEvent) -> T: ...

    @abstractmethod
    def build(self, event: BuildEvent) -> T: ...

    @abstractmethod
    def release(self, event: ReleaseEvent) -> T: ...

    @abstractmethod
    def discard(self, event: DiscardEvent) -> T: ...

    @abstractmethod
    def end_turn(self, event: EndTurnEvent) -> T: ...

    @abstractmethod
    def reshuffle(self, event: ReshuffleEvent) -> T: ...

    @abstractmethod
    def stock_out(self, event: StockOutEvent) -> T: ...

    @abstractmethod
    def hand_end(self, event: HandEndEvent) -> T: ...

    @abstractmethod
    def eliminated(self, event: EliminatedEvent) -> T: ...

    @abstractmethod
    def game_end(self, event: GameEndEvent) -> T: ...


def _read(data: Mapping[str, Any]) -> GameEvent:
    kind = data["type"]
    if kind == "deal":
        drawn = data.get("drawn_for_dealer") or {}
        return DealEvent(
            hand=int(data["hand"]),
            first=str(data["first"]),
            hands={str(name): _cards(cards) for name, cards in data["hands"].items()},
            discard=_card_or_none(data["discard"]),
            dealer=None if data.get("dealer") is None else str(data["dealer"]),
            stock=None if "stock" not in data else _cards(data["stock"]),
            drawn_for_dealer={str(name): parse_card(str(card)) for name, card in drawn.items()},
            drawn_again=tuple(
                {str(name): parse_card(str(card)) for name, card in again.items()}
                for again in data.get("drawn_again") or ()
            ),
        )
    if kind == "draw":
        source = data["source"]
        if source not in ("stock", "discard"):
            raise ValueError(f"unknown source {source!r}")
        return DrawEvent(str(data["player"]), source, _card_or_none(data.get("card")))
    if kind == "meld":
        return MeldEvent(
            player=str(data["player"]),
            melds=tuple(_cards(meld) for meld in meld_groups(data["melds"])),
            numbers=tuple(int(number) for number in data["numbers"]),
            points=int(data["points"]),
            read_as=read_as_of(data.get("read_as", ()), len(data["melds"])),
        )
    if kind == "build":
        end = data["end"]
        return BuildEvent(
            str(data["player"]),
            int(data["meld"]),
            _cards(data["cards"]),
            None if end is None else str(end),
            _cards(data["result"]),
        )
    if kind == "release":
        return ReleaseEvent(
            str(data["player"]),
            int(data["meld"]),
            _cards(data["cards"]),
            int(data["jokers"]),
            _cards(data["result"]),
        )
    if kind == "discard":
        return DiscardEvent(str(data["player"]), parse_card(str(data["card"])))
    if kind == "end_turn":
        return EndTurnEvent(str(data["player"]))
    if kind == "reshuffle":
        return ReshuffleEvent(str(data["rule"]), None if "stock" not in data else _cards(data["stock"]))
    if kind == "stock_out":
        return StockOutEvent(str(data["rule"]))
    if kind == "hand_end":
        return HandEndEvent(
            hand=int(data["hand"]),
            end=str(data["end"]),
            winner=None if data["winner"] is None else str(data["winner"]),
            kalooki=bool(data["kalooki"]),
            hand_points={str(name): int(value) for name, value in data["hand_points"].items()},
            scores={str(name): int(value) for name, value in data["scores"].items()},
            totals={str(name): int(value) for name, value in data["totals"].items()},
        )
    if kind == "eliminated":
        return EliminatedEvent(str(data["player"]))
    if kind == "game_end":
        return GameEndEvent(
            winners=tuple(str(name) for name in data["winners"]),
            totals={str(name): int(value) for name, value in data["totals"].items()},
        )
    raise ValueError(f"unknown event type {kind!r}")


def event_from_json(data: Mapping[str, Any]) -> GameEvent:
    """The typed event of an event's JSON form; :class:`EventFormatError` when it is not one."""
    try:
        return _read(data)
    except (KeyError, TypeError, ValueError, AttributeError, KalookiError) as error:
        kind = data.get("type") if isinstance(data, Mapping) else None
        what = f"a {kind!r} event" if isinstance(kind, str) else "an event"
        detail = f"no {error}" if isinstance(error, KeyError) else str(error)
        if not isinstance(data, Mapping):  # said as Python's "'NoneType' object is not subscriptable"
            detail = f"{clipped(safe_repr(data), 60)} is not a JSON object, an event's fields by name"
        raise EventFormatError(f"{what} that cannot be read: {detail}", detail) from None


def as_event(event: GameEvent | Mapping[str, Any]) -> GameEvent:
    """``event`` typed: read by :func:`event_from_json` if it is in its JSON form."""
    if isinstance(event, _EventJson):
        return event  # type: ignore[return-value]  # every _EventJson is one of GameEvent's classes
    return event_from_json(event)


def events_from_json(events: Iterable[GameEvent | Mapping[str, Any]]) -> list[GameEvent]:
    """Each event typed (see :func:`as_event`)."""
    return [as_event(event) for event in events]


__all__ = [
    "BuildEvent",
    "DealEvent",
    "DiscardEvent",
    "DrawEvent",
    "EliminatedEvent",
    "EndTurnEvent",
    "EventFormatError",
    "EventVisitor",
    "GameEndEvent",
    "GameEvent",
    "HandEndEvent",
    "MeldEvent",
    "PlayEvent",
    "ReleaseEvent",
    "ReshuffleEvent",
    "StockOutEvent",
    "as_event",
    "event_from_json",
    "events_from_json",
]
