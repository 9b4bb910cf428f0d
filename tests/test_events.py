"""Typed events: every event the engine writes reads into its class and writes back byte for byte."""

from __future__ import annotations

import json
import random
import typing
from pathlib import Path
from typing import Any

import pytest

from kalooki.bots import make_bot
from kalooki.cards import parse_card, parse_cards
from kalooki.driver import play_turn
from kalooki.engine import Game
from kalooki.events import (
    DealEvent,
    DrawEvent,
    EventFormatError,
    EventVisitor,
    GameEndEvent,
    GameEvent,
    HandEndEvent,
    MeldEvent,
    ReshuffleEvent,
    event_from_json,
)
from kalooki.loader import builtin_variant_names, load_variant

GOLDEN = Path(__file__).parent / "golden" / "scripts"


def played_events(variant: str, seed: int, hands: int = 2) -> list[GameEvent]:
    variant_model = load_variant(variant)
    players = max(variant_model.min_players, min(3, variant_model.max_players))
    game = Game(variant_model, [f"p{seat}" for seat in range(players)], seed=seed)
    bots = [
        make_bot(["random", "greedy", "expert"][seat % 3], random.Random(seat)) for seat in range(players)
    ]
    events = list(game.opening_events)
    for _ in range(hands):
        while game.phase in ("draw", "play"):
            events += play_turn(game, bots[game.current])
        if game.phase != "hand_over":
            break
        events += game.next_hand()
    return events


@pytest.mark.parametrize("variant", builtin_variant_names())
def test_every_event_of_played_hands_reads_back_from_its_json(variant: str) -> None:
    events = played_events(variant, seed=3)
    kinds = set()
    for event in events:
        written = event.to_json()
        read = event_from_json(json.loads(json.dumps(written)))
        assert read == event
        assert json.dumps(read.to_json()) == json.dumps(written)
        # Code written for dict events reads the same keys and values, in the same order.
        assert dict(event) == written
        assert list(event) == list(written)
        assert event["type"] == written["type"]
        kinds.add(type(event))
    assert {DealEvent, DrawEvent, HandEndEvent} <= kinds


def test_golden_script_events_write_back_byte_for_byte() -> None:
    for path in sorted(GOLDEN.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        found = [
            item for item in _walk(data) if isinstance(item, dict) and "type" in item and "player" in item
        ]
        for event in found:
            assert json.dumps(event_from_json(event).to_json()) == json.dumps(event), path.name


def _walk(data: Any) -> list[Any]:
    items = [data]
    if isinstance(data, dict):
        for value in data.values():
            items += _walk(value)
    elif isinstance(data, list):
        for value in data:
            items += _walk(value)
    return items


def test_events_carry_cards_not_card_text() -> None:
    draw = event_from_json({"type": "draw", "player": "ann", "source": "stock", "card": "TH"})
    assert draw == DrawEvent("ann", "stock", parse_card("TH"))
    meld = event_from_json(
        {"type": "meld", "player": "ann", "melds": ["7H 8H JK"], "numbers": [1], "points": 24}
    )
    assert meld == MeldEvent("ann", (tuple(parse_cards("7H 8H JK")),), (1,), 24)


def test_what_a_seat_or_an_old_log_leaves_out_stays_out() -> None:
    # A network seat sees no stock and another player's stock card; logs from before dealers were recorded.
    unseen = {"type": "draw", "player": "bob", "source": "stock"}
    assert event_from_json(unseen) == DrawEvent("bob", "stock", None)
    assert event_from_json(unseen).to_json() == unseen
    old_deal = {"type": "deal", "hand": 1, "first": "ann", "hands": {"ann": "7H 8H"}, "discard": None}
    typed = event_from_json(old_deal)
    assert isinstance(typed, DealEvent)
    assert (typed.dealer, typed.stock) == (None, None)
    assert typed.to_json() == old_deal
    assert event_from_json({"type": "reshuffle", "rule": "reshuffle"}) == ReshuffleEvent("reshuffle")
    end = {"type": "game_end", "winners": ["ann"], "totals": {"ann": 10, "bob": 120}}
    assert event_from_json(end) == GameEndEvent(("ann",), {"ann": 10, "bob": 120})


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "teleport"}, "a 'teleport' event that cannot be read: unknown event type 'teleport'"),
        ({"type": "draw", "player": "ann"}, "a 'draw' event that cannot be read: no 'source'"),
        ({"type": "discard", "player": "ann", "card": "ZZ"}, "a 'discard' event that cannot be read: "),
        # Said as Python's "'NoneType' object is not subscriptable", "string indices must be integers".
        (None, "an event that cannot be read: None is not a JSON object, an event's fields by name"),
        ("draw", "an event that cannot be read: 'draw' is not a JSON object, an event's fields by name"),
    ],
)
def test_an_unreadable_event_says_which_and_why(data: dict[str, Any], message: str) -> None:
    with pytest.raises(EventFormatError) as caught:
        event_from_json(data)
    assert str(caught.value).startswith(message)


def test_every_kind_of_event_has_a_visitor_method_that_every_reader_must_write() -> None:
    kinds = {cls.kind for cls in typing.get_args(GameEvent)}
    assert set(EventVisitor.__abstractmethods__) == kinds

    class Forgetful(EventVisitor[str]):
        def deal(self, event: DealEvent) -> str:
            return "deal"

    with pytest.raises(TypeError, match="abstract"):
        Forgetful()  # type: ignore[abstract]


def test_the_script_and_the_table_tell_the_same_walk() -> None:
    # Both narrators are visitors of one walk: every event of a played game goes through each.
    from kalooki_cli.narrate import Sentences, TableTelling
    from kalooki_cli.render import Seating

    events = played_events("classic", seed=5)
    game = Game(load_variant("classic"), ["p0", "p1", "p2"], seed=5)
    table = TableTelling(game, Seating(tuple(game.players), 0, {1: "greedy", 2: "greedy"}), letters=True)
    hidden = Sentences(reveal=False)
    for event in events:
        sentence = hidden.visit(event)
        told = table.visit(event)
        if isinstance(event, DrawEvent) and event.source == "stock" and event.player != "p0":
            assert sentence == f"{event.player} draws from the stock"
            assert isinstance(told, tuple)
            assert told[1].plain == "draws from the stock"
