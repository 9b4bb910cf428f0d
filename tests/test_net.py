"""kalooki host / join: a real table on 127.0.0.1 with scripted clients (the ``net`` extra)."""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
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
from net_helpers import TIMEOUT, Host, Player, hosted, new_table, play_moves, seat_and_play_a_hand

from kalooki.bots import make_bot
from kalooki.cards import format_card, parse_card
from kalooki.driver import play_turn
from kalooki.engine import Event, Game
from kalooki.loader import load_variant
from kalooki.log import replay
from kalooki.moves import Draw
from kalooki.savegame import SaveFormatError, load_save, save_checksum
from kalooki.variant import Variant

CARD = re.compile(r"^(?:[2-9TJQKA][CDHS]|JK)$")


def play_whole_game(players: list[Player]) -> dict[int, dict[str, Any]]:
    results: dict[int, dict[str, Any]] = {}

    def run(player: Player) -> None:
        results[player.seat] = player.play_until_over()

    threads = [threading.Thread(target=run, args=(player,)) for player in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return results


def seat_four(host_uri: str, code: str) -> list[Player]:
    players = [Player(host_uri) for _ in range(4)]
    for index, player in enumerate(players):
        player.join(code, name=f"p{index}")
    return players


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


def test_a_player_who_drops_rejoins_their_seat_mid_hand() -> None:
    table = new_table(goal_score=51, seed=3)
    with hosted(table) as host:
        players = seat_four(host.uri, table.code)
        for player in players:
            player.until("state")
        play_moves(players, 6)
        dropper = players[1]
        assert dropper.view is not None
        hand_before = dropper.view["hand"]
        dropper.close()
        # The others play on until seat 1's turn; then the table waits for it (the wait is 30 s).
        others = [players[0], players[2], players[3]]
        while host.call(lambda: table.game.current) != 1:
            play_moves(others, 1)
        rejoined = Player(host.uri)
        assert rejoined.join(table.code, token=dropper.token)["seat"] == 1
        view = rejoined.until("state")["view"]
        assert view["hand_number"] == 1
        assert view["current"] == 1
        assert view["phase"] == "draw"
        assert view["hand"] == hand_before  # the seat back as it was left
        assert host.call(lambda: [format_card(card) for card in table.game.hands[1]]) == hand_before
        results = play_whole_game([players[0], rejoined, players[2], players[3]])
    assert table.game is not None
    assert table.game.game_over
    assert results[1]["totals"] == table.game.totals


@contextmanager
def ann_and_eve_in_the_lobby(told: list[str] | None = None) -> Iterator[tuple[Host, Table, Player, Player]]:
    """A table of four before its game, ann at seat 0 and eve at seat 1; ``told``: the host's lines."""
    table = new_table(seed=3)
    with hosted(table, on_change=told.append if told is not None else None) as host:
        ann, eve = Player(host.uri), Player(host.uri)
        ann.join(table.code, name="ann")
        eve.join(table.code, name="eve")
        yield host, table, ann, eve


def test_a_player_who_leaves_before_the_game_is_named_to_the_others() -> None:
    # Before the game a seat that is left is free again: the news must still say whose it was.
    told: list[str] = []
    with ann_and_eve_in_the_lobby(told) as (host, table, ann, eve):
        eve.send({"type": "leave"})
        left = ann.until("presence")
        while left["status"] != "left":
            left = ann.until("presence")
        assert (left["seat"], left["name"], left.get("free")) == (1, "eve", True)
        assert host.call(lambda: table.seats[1].kind) == "open"
    # The host's screen said "eve left" for a seat freed and for one kept for its token alike.
    assert "eve left the table." in told


def test_a_seat_dropped_before_the_game_waits_for_its_token_then_is_free() -> None:
    # A reload or a dropped network in the lobby freed the seat at once: the page's token was then no
    # seat's, and its player was sent back to the join form to sit down anew, if a seat was still open.
    told: list[str] = []
    with ann_and_eve_in_the_lobby(told) as (host, table, ann, eve):
        eve.close()
        left = ann.until("presence")
        while left["status"] != "left":
            left = ann.until("presence")
        assert "free" not in left  # dropped: the seat waits for its token
        assert "eve dropped out: the table waits for them." in told
        while host.call(lambda: table.seats[1].connected):
            time.sleep(0.02)
        assert host.call(lambda: (table.seats[1].kind, table.seats[1].name)) == ("human", "eve")
        back = Player(host.uri)
        assert back.join(table.code, token=eve.token)["seat"] == 1
        # Gone for longer than the table's wait: the seat is open again for someone else.
        host.call(lambda: setattr(table, "wait_seconds", 0.0))
        back.close()
        deadline = time.monotonic() + 10
        while host.call(lambda: table.seats[1].kind) != "open":
            assert time.monotonic() < deadline, "the dropped seat was never freed"
            time.sleep(0.02)
        lobby = ann.until("lobby")
        while lobby["seats"][1]["kind"] != "open":
            lobby = ann.until("lobby")
        # Said, as of a seat left on purpose: the lobby alone showed it, and no log or terminal said it.
        assert "eve left the table." in told


def test_the_hosts_own_seat_joins_and_a_player_who_dropped_is_back() -> None:
    def news_of(player: Player, seat: int) -> tuple[str, str]:
        message = player.until("presence")
        while message["seat"] != seat:
            message = player.until("presence")
        return message["name"], message["status"]

    table = new_table(seats=2, seed=3)
    _seat, host_token = table.join("ann", host=True)  # as kalooki host makes its own seat
    table.seats[0].connected = False
    with hosted(table) as host:
        bob = Player(host.uri)
        bob.join(table.code, name="bob")
        ann = Player(host.uri)
        ann.join(table.code, token=host_token)  # the table is full: the game starts
        assert news_of(bob, 0) == ("ann", "joined")
        bob.close()
        assert news_of(ann, 1) == ("bob", "left")
        Player(host.uri).join(table.code, token=bob.token)
        assert news_of(ann, 1) == ("bob", "back")


def test_a_bot_plays_for_a_player_away_longer_than_the_wait() -> None:
    table = new_table(goal_score=51, seed=4)
    table.wait_seconds = 0.0
    with hosted(table) as host:
        players = seat_four(host.uri, table.code)
        token = players[2].token
        players[2].close()
        others = play_whole_game([players[0], players[1], players[3]])
        assert table.game is not None
        assert table.game.game_over
        assert all(view["phase"] == "game_over" for view in others.values())
        back = Player(host.uri)
        assert back.join(table.code, token=token)["seat"] == 2
        assert back.until("state")["view"]["phase"] == "game_over"


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


@pytest.mark.parametrize("wait", [float("nan"), float("inf"), -1.0])
def test_a_table_waits_a_number_of_seconds(wait: float) -> None:
    # Its saves and welcomes carry the wait as JSON, which has no NaN or infinity.
    with pytest.raises(ValueError, match="give a number of seconds, 0 or more"):
        Table(Variant(), seats=2, bots=["greedy"], seed=1, wait_seconds=wait)


def test_a_table_save_with_a_wait_that_is_no_number_of_seconds_is_refused() -> None:
    table = new_table()
    table.start()
    document = json.loads(table.save_text())
    document["session"]["table"]["wait_seconds"] = "1e999"
    document["checksum"] = save_checksum(document["session"], document["game"])
    with pytest.raises(SaveFormatError, match=r"table.wait_seconds is '1e999', not a number of seconds"):
        Table.resume(json.dumps(document).encode())


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("kind", "admin", "seat 1's kind is 'admin', not human or bot"),
        ("name", "Ann", "seat 1's name is 'Ann', where its game's player is 'ann'"),
        ("token", 5, "seat 1's token is 5, not a SHA-256 digest"),
        ("host", "no", "seat 1's host is 'no', not true or false"),
        ("code", "AB\x1b[2J", "table.code is 'AB\\x1b[2J', not a join code"),
    ],
)
def test_a_table_save_edited_to_seats_its_game_does_not_have_is_refused(
    field: str, value: object, said: str
) -> None:
    # The checksum is anyone's to recompute: such a table opened, then a rejoin with a token of 5 ended in
    # a traceback on the host's terminal, and a seat of kind 'admin' made a lobby no client could read.
    table = new_table()
    table.join("ann")
    table.start()
    document = json.loads(table.save_text())
    edited = document["session"]["table"]
    (edited if field == "code" else edited["seats"][0])[field] = value
    document["checksum"] = save_checksum(document["session"], document["game"])
    with pytest.raises(SaveFormatError) as refused:
        Table.resume(json.dumps(document).encode())
    assert str(refused.value) == f"the table's save is damaged: {said}"


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


def heard_until_said(player: Player) -> list[dict[str, Any]]:
    """What ``player`` receives up to and with the next line said at the table."""
    heard = [player.receive()]
    while heard[-1]["type"] != "said":
        heard.append(player.receive())
    return heard


def test_between_hands_every_seat_is_told_who_is_ready_and_a_seat_reloaded_stays_ready() -> None:
    table = new_table(seats=3, seed=3, hand_size=7, opening_threshold=0)
    with hosted(table) as host:
        p0, p1, p2 = seat_and_play_a_hand(host.uri, table.code, seats=3)
        hand_over = json.loads(p2.received[-1])
        assert (hand_over["view"]["phase"], hand_over["ready"], hand_over["waiting_for"]) == (
            "hand_over",
            [],
            [0, 1, 2],
        )
        p0.send({"type": "ready"})
        p1.send({"type": "ready"})
        p1.send({"type": "ready"})  # again: nothing changes, nothing is sent
        p1.send({"type": "say", "text": "ready"})
        for player in (p0, p2):
            told = [message for message in heard_until_said(player) if message["type"] == "state"]
            assert [(state["events"], state["ready"], state["waiting_for"]) for state in told] == [
                ([], [0], [1, 2]),
                ([], [0, 1], [2]),
            ]
        p1.close()  # a reload: the seat drops, and is back with its token
        back = Player(host.uri)
        assert back.join(table.code, token=p1.token)["seat"] == 1
        state = back.until("state")
        assert (state["view"]["phase"], state["ready"], state["waiting_for"]) == ("hand_over", [0, 1], [2])
        back.send({"type": "say", "text": "back"})
        heard = [message["type"] for message in heard_until_said(p0)]
        assert "state" not in heard  # gone and back ready: whom the deal waits for never changed
        assert heard.count("presence") == 2
        p2.send({"type": "ready"})  # the last one: the deal, and no one is ready for the next
        for player in (p0, back, p2):
            dealt = player.until("state")
            assert dealt["view"]["hand_number"] == 2
            assert "ready" not in dealt
            assert "waiting_for" not in dealt
            player.close()


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


@pytest.mark.parametrize(("gone_after", "told"), [(0, ["draw", "discard"]), (1, ["discard"])])
def test_a_player_back_is_not_told_a_turn_taken_back_as_played(gone_after: int, told: list[str]) -> None:
    # bob, away, was sent "ann melds A♦ A♣ JK" under "While you were away": ann had taken it back.
    # He drops before ann's turn, or after her draw.
    table = new_table(seats=2, seed=10, hand_size=7, opening_threshold=0)  # ann is dealt AD AC JK, first
    with hosted(table) as host:
        ann, bob = Player(host.uri), Player(host.uri)
        ann.join(table.code, name="ann")
        bob.join(table.code, name="bob")
        assert ann.until("state")["view"]["current"] == ann.seat
        for index, move in enumerate(("ds", "m AD AC JK")):
            if index == gone_after:
                bob.close()
                while ann.until("presence")["status"] != "left":
                    pass
            ann.send({"type": "move", "move": move})
            ann.until("state")
        ann.send({"type": "undo"})
        ann.until("state")
        ann.send({"type": "move", "move": "d JH"})
        ann.until("state")
        back = Player(host.uri)
        back.join(table.code, token=bob.token)
        assert [event["type"] for event in back.until("state")["events"]] == told


def test_a_player_back_is_told_the_reshuffle_of_a_draw_whose_turn_was_taken_back() -> None:
    # ann's draw takes the stock's last card and the discard pile becomes the stock; she melds and takes it
    # back. The undo took the reshuffle from what bob, away, was told, though it stood: the table is as
    # after the draw, and the draw's own events with it.
    table = new_table(
        seats=2, seed=10, decks=1, jokers=2, hand_size=26, max_players=2, opening_threshold=0
    )  # one card in the stock
    with hosted(table) as host:
        ann, bob = Player(host.uri), Player(host.uri)
        ann.join(table.code, name="ann")
        bob.join(table.code, name="bob")
        assert ann.until("state")["view"]["current"] == ann.seat
        bob.close()
        while ann.until("presence")["status"] != "left":
            pass
        ann.send({"type": "move", "move": "ds"})
        assert [event["type"] for event in ann.until("state")["events"]] == ["draw", "reshuffle"]
        meld = ann.next_move()
        assert meld.startswith("meld ")
        ann.send({"type": "move", "move": meld})
        ann.until("state")
        ann.send({"type": "undo"})
        assert ann.until("state")["view"]["stock_count"] == 1  # the reshuffle stands
        ann.send({"type": "move", "move": f"d {ann.view['hand'][0]}"})
        ann.until("state")
        back = Player(host.uri)
        back.join(table.code, token=bob.token)
        assert [event["type"] for event in back.until("state")["events"]] == ["draw", "reshuffle", "discard"]
        back.close()
        ann.close()


@pytest.mark.parametrize(("knobs", "sent"), [({}, False), ({"turn_discard": "optional"}, True)])
def test_the_welcome_leaves_a_later_knob_out_at_its_default(knobs: dict[str, str], sent: bool) -> None:
    # A client from before turn_discard existed reads the rules of a table that does not use it.
    table = new_table(seed=3, **knobs)
    with hosted(table) as host:
        welcome = Player(host.uri).join(table.code, name="ann")
    assert ("turn_discard" in welcome["variant"]) is sent
    assert Variant.model_validate(welcome["variant"]) == table.variant
