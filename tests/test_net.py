"""kalooki host / join: a real table on 127.0.0.1 with scripted clients (the ``net`` extra): a whole game
saved and logged, what each seat is told and never told, the protocol's messages and the welcome.

Seats that drop, leave and come back are test_net_away.py's; a table's save read back,
test_net_table_save.py's.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")

from kalooki_cli.interactive import TurnLogWriter
from kalooki_cli.saves import write_save
from kalooki_net.botclient import BotSeat
from kalooki_net.protocol import host_message_problem, protocol_schema
from kalooki_net.server import TableServer
from kalooki_net.table import Table
from kalooki_net.telling import Telling
from kalooki_net.view import seat_view
from net_helpers import (
    TIMEOUT,
    Player,
    hosted,
    new_table,
    play_whole_game,
    seat_four,
)

from kalooki.bots import make_bot
from kalooki.cards import format_card, parse_card
from kalooki.driver import play_turn
from kalooki.engine import Event, Game
from kalooki.loader import load_variant
from kalooki.log import replay
from kalooki.moves import Draw
from kalooki.savegame import load_save
from kalooki.variant import Variant

CARD = re.compile(r"^(?:[2-9TJQKA][CDHS]|JK)$")


def test_four_clients_play_a_whole_game_saved_and_logged(tmp_path: Path) -> None:
    table = new_table(goal_score=51)
    save, log = tmp_path / "table.kalooki-save.json", tmp_path / "table.jsonl"
    table.save_path, table.write_save = save, write_save
    table.log_factory = lambda game: TurnLogWriter(game, log)
    with hosted(table) as host:
        players = seat_four(host.uri, table.code)
        results = play_whole_game(players)
    game = table.game
    assert game is not None
    assert game.game_over
    assert sorted(results) == [0, 1, 2, 3]
    for seat, view in results.items():
        assert view["phase"] == "game_over"
        assert view["totals"] == game.totals
        assert view["hand"] == [format_card(card) for card in game.hands[seat]]
    assert not any(player.errors for player in players)
    # The save is the play format (kalooki resume reads it), holding the finished game.
    loaded = load_save(save.read_bytes())
    assert loaded.game.game_over
    assert loaded.game.totals == game.totals
    # The log replays through the engine to the same result.
    summary = replay(json.loads(line) for line in log.read_text().splitlines())
    assert summary.game_over
    assert list(summary.totals.values()) == game.totals


class RecordingTelling(Telling):
    """Records every state message with what its seat may know at that moment."""

    sent: list[tuple[int, str, Counter[int], Counter[int]]]

    def state_message(self, seat: int, events: Any, *, coach: bool = False) -> dict[str, Any]:
        message = super().state_message(seat, events, coach=coach)
        game = self.server.table.require_game()
        visible: Counter[int] = Counter(game.hands[seat])
        visible.update(game.discard_pile)
        for meld in game.table:
            visible.update(meld.cards)
        visible.update(public_cards(events, game.players[seat]))
        # The card the current player took from the discard pile was face up: everyone saw it taken.
        if game.turn.drew == "discard" and game.turn.drawn_card is not None:
            visible[game.turn.drawn_card] += 1
        if game.turn.must_use_card is not None:
            visible[game.turn.must_use_card] += 1
        hidden: Counter[int] = Counter(game.stock)
        for other, hand in enumerate(game.hands):
            if other != seat:
                hidden.update(hand)
        if game.phase in ("hand_over", "game_over"):
            for hand in game.hands:
                visible.update(hand)  # everyone's cards left are shown at the end of a hand
        if not hasattr(self, "sent"):
            self.sent = []
        self.sent.append((seat, json.dumps(message), visible, hidden))
        return message


class RecordingServer(TableServer):
    """A table whose every state message is recorded (:class:`RecordingTelling`)."""

    def __init__(self, table: Table, **options: Any) -> None:
        super().__init__(table, **options)
        self.telling = RecordingTelling(self)


def public_cards(events: list[Event], own: str) -> list[int]:
    cards: list[int] = []
    for event in events:
        kind = event["type"]
        if kind == "meld":
            cards += [parse_card(text) for group in event["melds"] for text in group.split()]
        elif kind in ("build", "release"):
            cards += [parse_card(text) for text in event["cards"].split()]
        elif kind == "discard" or (
            kind == "draw" and (event["source"] == "discard" or event["player"] == own)
        ):
            cards.append(parse_card(event["card"]))
        elif kind == "deal":
            cards.append(parse_card(event["discard"]))
            cards += [parse_card(text) for text in event["hands"].get(own, "").split()]
    return cards


SYMBOL_CARD = re.compile(r"(?<![\w(/])(10|[2-9JQKA])([♣♦♥♠])")
"""A card as the table's words write it (``10♥``), in a ``coach`` text."""
JOKER_MEANING = re.compile(r"JK\([^)]*\)")
"""What a table joker stands for (``JK(9♣/♦)``): public, and not a card of anyone's."""


def card_tokens(value: Any) -> list[int]:
    if isinstance(value, str):
        words = JOKER_MEANING.sub("JK", value)
        symbols = [
            parse_card(("T" if rank == "10" else rank) + suit) for rank, suit in SYMBOL_CARD.findall(words)
        ]
        return [parse_card(token) for token in words.split() if CARD.match(token)] + symbols
    if isinstance(value, list):
        return [card for item in value for card in card_tokens(item)]
    if isinstance(value, dict):
        # A coach's "jokers" say what each table joker stands for: public, and no card of anyone's.
        return [card for key, item in value.items() if key != "jokers" for card in card_tokens(item)]
    return []


@pytest.mark.parametrize("coached", [False, True], ids=["terminal", "coached"])
def test_no_client_ever_receives_another_hand_or_the_stock(coached: bool) -> None:
    """Coached: two of the four seats join as the browser page does, with the table's words (``coach``)
    in every state; those words are checked as every other byte is."""
    from kalooki_cli.web_coach import WebCoach

    table = new_table(goal_score=51, seed=11)
    with hosted(table, RecordingServer, advisor=WebCoach() if coached else None) as host:
        players = [Player(host.uri) for _ in range(4)]
        for index, player in enumerate(players):
            player.join(table.code, name=f"p{index}", coach=coached and index < 2)
        play_whole_game(players)
        server = host.server
    assert isinstance(server, RecordingServer)
    assert isinstance(server.telling, RecordingTelling)
    assert table.game is not None
    assert table.game.game_over
    assert len(server.telling.sent) > 100
    leaks = []
    for seat, text, visible, hidden in server.telling.sent:
        for card in set(card_tokens(json.loads(text))):
            if card not in visible:
                leaks.append((seat, format_card(card), card in hidden))
    assert leaks == []
    # Every hidden card kept out of the bytes as well: a stock card nobody can see is never written.
    for seat, text, visible, hidden in server.telling.sent:
        secret = {format_card(card) for card in hidden if card not in visible}
        written = set(re.findall(r"\b(?:[2-9TJQKA][CDHS]|JK)\b", text))
        assert not (secret & written), (seat, secret & written)


def test_the_protocol_schema_accepts_what_the_host_sends() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft7Validator(protocol_schema())
    table = new_table(goal_score=51, seed=8)
    with hosted(table) as host:
        players = seat_four(host.uri, table.code)
        play_whole_game(players)
    kinds = set()
    for player in players:
        for text in player.received:
            message = json.loads(text)
            kinds.add(message["type"])
            validator.validate(message)
    assert {"welcome", "lobby", "state", "presence"} <= kinds


def test_a_text_that_is_no_move_is_refused_with_the_moves_as_a_list_too() -> None:
    # For a client with commands of its own (the page's move box), which adds them to the moves; the
    # message is as it was. A coach connection is told the list at its welcome, for its help.
    table = new_table(seats=2, seed=10, hand_size=7)  # seat 0 plays first
    moves = [
        {"usage": "draw stock", "key": "ds"},
        {"usage": "draw discard", "key": "dd"},
        {"usage": "meld CARDS[, CARDS ...]", "key": "m"},
        {"usage": "build N CARDS [low|high]", "key": "b"},
        {"usage": "swap N CARDS", "key": "s"},
        {"usage": "discard CARD", "key": "d"},
    ]
    with hosted(table) as host:
        ann, bob = BotSeat(host.uri), BotSeat(host.uri)
        welcome = ann.join(table.code, name="ann", coach=True)
        assert welcome["commands"] == moves
        assert "commands" not in bob.join(table.code, name="bob")  # kalooki join lists its own
        ann.until("state")
        ann.send({"type": "move", "move": "zz"})
        refusal = ann.until("error")
        usage = " | ".join(move["usage"] for move in moves)
        assert refusal == {
            "type": "error",
            "code": "illegal_move",
            "message": f"'zz' is not a move: commands: {usage}",
            "commands": moves,
        }
        ann.send({"type": "move", "move": "d"})  # a move, mistyped: no list
        assert "commands" not in ann.until("error")
        assert [host_message_problem(message) for message in (welcome, refusal)] == [None, None]
        ann.close()
        bob.close()


def test_a_view_holds_only_the_seats_own_hand() -> None:
    table: Table = new_table(seed=2)
    for name in ("ann", "bob", "cid", "dee"):
        table.join(name)
    table.start()
    assert table.game is not None
    view = seat_view(table.game, 0)
    assert view["hand"] == [format_card(card) for card in table.game.hands[0]]
    assert view["hand_counts"] == [len(hand) for hand in table.game.hands]
    assert view["revealed"] is None
    assert "stock" not in view
    assert "seed" not in view
    assert TIMEOUT > 0


def test_a_discard_taken_under_meld_at_once_tells_no_one_else_how_many_the_taker_held() -> None:
    # Every seat was sent the turn's must_use_limit: the copies of the card the taker already held.
    game = Game(load_variant("kalooki-40"), ["ann", "bob", "cid", "dee"], seed=1)
    bots = [make_bot("greedy", random.Random(seat)) for seat in range(4)]
    while not (game.discard_pile and game.discard_pile[-1] in game.hands[game.current]):
        play_turn(game, bots[game.current])
    assert game.turn_number == 3  # seed 1: the player on turn 3 holds a copy of the top discard
    taker = game.current
    game.apply(Draw("discard"))
    assert game.turn.must_use_limit == 1
    assert seat_view(game, taker)["turn"]["must_use_limit"] == 1
    assert game.view(taker).turn.must_use_limit == 1
    taken = game.turn.must_use_card
    assert taken is not None
    for seat in (*(other for other in range(4) if other != taker), -1):
        turn = seat_view(game, seat)["turn"]
        assert (turn["must_use_card"], turn["must_use_limit"]) == (
            format_card(taken),
            0,
        )  # the card is public
    assert game.view((taker + 1) % 4).turn.must_use_limit == 0


def test_an_undo_tells_every_seat_whose_melds_were_taken_back() -> None:
    """The others were told of the melds as laid, and no event takes them back: the state says whose."""
    table = new_table(seats=2, seed=10, hand_size=7, opening_threshold=0)  # ann is dealt AD AC JK, first
    with hosted(table) as host:
        ann, bob = Player(host.uri), Player(host.uri)
        ann.join(table.code, name="ann")
        bob.join(table.code, name="bob")
        ann.send({"type": "start"})
        assert ann.until("state")["view"]["current"] == ann.seat
        for move in ("ds", "m AD AC JK"):
            ann.send({"type": "move", "move": move})
            assert "taken_back" not in ann.until("state")
        told = bob.until("state")
        while not told["view"]["table"]:
            told = bob.until("state")
        assert "taken_back" not in told
        ann.send({"type": "undo"})
        for player in (ann, bob):
            state = player.until("state")
            assert state["taken_back"] == ann.seat
            assert (state["events"], state["view"]["table"]) == ([], [])
        assert host.call(lambda: table.require_game().table) == []


@pytest.mark.parametrize(
    ("source", "told"),
    [
        ("kalooki-40", "kalooki-40"),
        ("/home/ann/rules/friday.yaml", "friday.yaml"),
        ("C:\\ann\\ours.yaml", "ours.yaml"),
    ],
)
def test_the_welcome_names_the_variant_without_the_hosts_folders(source: str, told: str) -> None:
    # The host's path to its variant file went to every player who joined.
    table = new_table(seats=2)
    table.variant_source = source
    with hosted(table) as host:
        player = Player(host.uri)
        assert player.join(table.code, name="ann")["variant_source"] == told
        player.close()
    assert table.variant_source == source  # the host's own save keeps where the file is


@pytest.mark.parametrize(("knobs", "sent"), [({}, False), ({"turn_discard": "optional"}, True)])
def test_the_welcome_leaves_a_later_knob_out_at_its_default(knobs: dict[str, str], sent: bool) -> None:
    # A client from before turn_discard existed reads the rules of a table that does not use it.
    table = new_table(seed=3, **knobs)
    with hosted(table) as host:
        welcome = Player(host.uri).join(table.code, name="ann")
    assert ("turn_discard" in welcome["variant"]) is sent
    assert Variant.model_validate(welcome["variant"]) == table.variant
