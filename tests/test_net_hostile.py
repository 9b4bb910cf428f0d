"""A hostile client tries each attack on a live table: every one is refused, and the game is unchanged."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")

import kalooki_net.client
from kalooki_net.admission import MAX_UNREAD_BYTES, MAX_WRONG_TRIES, WRONG_TRIES_WINDOW, WrongTries
from kalooki_net.client import LOST, TableConnection, TableConnectionError
from kalooki_net.protocol import MAX_HOST_MESSAGE_BYTES, MAX_MESSAGE_BYTES, PROTOCOL_VERSION
from kalooki_net.server import TableServer
from net_helpers import (
    TIMEOUT,
    Host,
    Mutation,
    Player,
    a_real_welcome_and_state,
    hosted,
    join_a_table_that_sends,
    new_table,
    seat_and_play_a_hand,
    view_of,
    welcome_of,
)
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from websockets.sync.server import ServerConnection as SyncConnection
from websockets.sync.server import serve

KALOOKI = Path(sys.executable).with_name("kalooki")
A_WELCOME = {
    "type": "welcome", "protocol": PROTOCOL_VERSION, "seat": 0, "name": "ann", "token": "t",
    "host": False, "variant": {}, "variant_source": "classic",
}  # fmt: skip
"""A welcome as a table sends it (its rules aside: any mapping passes the protocol)."""


def snapshot(host: Host) -> dict[str, Any]:
    game = host.table.game
    assert game is not None
    return dict(host.call(game.to_json))


@pytest.fixture
def table_in_play(request: pytest.FixtureRequest) -> Any:
    table = new_table(seed=9)
    options = getattr(request, "param", {})
    with hosted(table, **options) as host:
        players = [Player(host.uri) for _ in range(4)]
        for index, player in enumerate(players):
            player.join(table.code, name=f"p{index}")
        for player in players:
            player.until("state")
        yield host, players


def read_until_closed(player: Player) -> None:
    while True:
        player.websocket.recv(timeout=TIMEOUT)


def flood_then_read(player: Player) -> None:
    for _ in range(5000):
        player.websocket.send(json.dumps({"type": "say", "text": "spam"}))
    read_until_closed(player)


def hears(player: Player, text: str) -> bool:
    while True:
        message = player.until("said")
        if message["text"] == text:
            return True


def refused(player: Player, message: Any, code: str) -> dict[str, Any]:
    player.websocket.send(message if isinstance(message, str) else json.dumps(message))
    reply = player.until("error")
    assert reply["code"] == code, reply
    return reply


def test_each_attack_is_refused_and_changes_nothing(table_in_play: Any) -> None:
    host, players = table_in_play
    before = snapshot(host)
    current = host.table.game.current
    other = players[(current + 1) % 4]  # a seated player whose turn it is not
    mover = players[current]
    # Acting for another seat, and moving out of turn. The words number the seats from 1, as every screen
    # does ("Seat 3: p2"), where they said the seat fields' indexes; the fields stay indexes.
    mine, theirs = (current + 1) % 4 + 1, current + 1
    wrong = refused(other, {"type": "move", "move": "ds", "seat": current}, "wrong_seat")
    assert wrong["message"] == f"you sit at seat {mine}: you cannot act for seat {theirs}"
    refused(other, {"type": "move", "move": "ds"}, "not_your_turn")
    refused(other, {"type": "undo", "seat": current}, "wrong_seat")
    # Taking another seat with its token, on a connection that has a seat already, or while it is connected.
    again = refused(
        other,
        {"type": "join", "protocol": PROTOCOL_VERSION, "code": host.table.code, "token": mover.token},
        "already_joined",
    )
    assert again["message"] == f"this connection already sits at seat {mine}"
    intruder = Player(host.uri)
    held = refused(
        intruder,
        {"type": "join", "protocol": PROTOCOL_VERSION, "code": host.table.code, "token": mover.token},
        "seat_in_use",
    )
    assert held["message"] == f"seat {theirs} (p{current}) is connected already"
    # Malformed JSON, not an object, an unknown type, wrong field types, a missing field, an extra field.
    refused(other, "{not json", "bad_json")
    refused(other, "[" * 30_000 + "]" * 30_000, "bad_json")  # under the size limit, too deep for json.loads
    refused(other, '{"type": "move", "move": "ds", "seat": ' + "9" * 5000 + "}", "bad_json")
    refused(other, "[1, 2]", "bad_message")
    refused(other, {"type": "teleport"}, "bad_message")
    refused(other, {"type": "move", "move": 7}, "bad_message")
    refused(other, {"type": "move", "move": "ds", "seat": "1"}, "bad_message")
    refused(other, {"type": "say"}, "bad_message")
    refused(other, {"type": "move", "move": "ds", "extra": True}, "bad_message")
    refused(other, {"type": "start"}, "not_host")
    # An illegal move by the player whose turn it is.
    refused(mover, {"type": "move", "move": "d 2C 3C"}, "illegal_move")
    assert snapshot(host) == before


def test_no_seat_without_the_code_nor_before_joining(table_in_play: Any) -> None:
    host, _players = table_in_play
    before = snapshot(host)
    stranger = Player(host.uri)
    refused(stranger, {"type": "move", "move": "ds"}, "not_joined")
    refused(stranger, {"type": "say", "text": "hello"}, "not_joined")
    refused(
        stranger, {"type": "join", "protocol": PROTOCOL_VERSION, "code": "WRONG1", "name": "eve"}, "bad_code"
    )
    with pytest.raises(ConnectionClosed):  # one guess per connection
        stranger.websocket.recv(timeout=TIMEOUT)
    guesser = Player(host.uri)
    refused(
        guesser,
        {"type": "join", "protocol": PROTOCOL_VERSION, "code": host.table.code, "token": "x" * 32},
        "bad_token",
    )
    late = Player(host.uri)
    reply = refused(
        late,
        {"type": "join", "protocol": PROTOCOL_VERSION, "code": host.table.code, "name": "zed"},
        "started",
    )
    # A latecomer never saw a token: the refusal does not speak of one.
    said = (
        "the game has started: no one new can sit down or watch it (its players rejoin from where they "
        "joined); ask the host if you want to play at their next table"
    )
    assert reply["message"] == said
    assert snapshot(host) == before


def test_guesses_at_the_code_and_the_tokens_are_bounded_per_address(tmp_path: Path) -> None:
    # One guess per connection, but a guesser opened connection after connection: hundreds of guesses a
    # second from one address, without end.
    now = [0.0]
    table = new_table(seats=2, seed=9)
    with hosted(table, wrong_tries=WrongTries(clock=lambda: now[0])) as host:
        ann = Player(host.uri)
        ann.join(table.code, name="ann")
        ann_token = ann.token
        join = {"type": "join", "protocol": PROTOCOL_VERSION, "code": table.code}
        for guess in range(MAX_WRONG_TRIES):
            if guess % 2:
                refused(Player(host.uri), {**join, "code": "WRONG1", "name": "eve"}, "bad_code")
            else:
                refused(Player(host.uri), {**join, "token": f"x{guess}" * 16}, "bad_token")
            now[0] += 1.0
        # Then even the right code is refused from that address, in words, and the connection closed.
        turned_away = Player(host.uri)
        reply = refused(turned_away, {**join, "name": "eve"}, "too_many_tries")
        assert reply["message"] == (
            "too many wrong join codes or seat tokens from your address: try again in 10 minutes"
        )
        with pytest.raises(ConnectionClosed):
            turned_away.websocket.recv(timeout=TIMEOUT)
        assert host.call(lambda: [seat.kind for seat in table.seats]) == ["human", "open"]
        ann.send({"type": "say", "text": "still here"})  # a seat taken before plays on
        assert ann.until("said")["text"] == "still here"
        # A player coming back with their token shares the guesser's address behind a proxy or router:
        # let in, as no one could have guessed it.
        ann.close()
        gone_by = time.monotonic() + TIMEOUT
        while host.call(lambda: table.seats[0].connected) and time.monotonic() < gone_by:
            time.sleep(0.01)
        ann = Player(host.uri)
        assert ann.join(table.code, token=ann_token)["seat"] == 0
        # kalooki join, refused: one line, no traceback.
        env = {**os.environ, "KALOOKI_HOME": str(tmp_path), "NO_COLOR": "1", "COLUMNS": "200"}
        address = f"127.0.0.1:{host.server.port}"
        command = [str(KALOOKI), "join", address, "--code", table.code, "--name", "cid"]
        join_process = subprocess.run(command, input="", capture_output=True, text=True, env=env, timeout=60)
        assert join_process.returncode != 0
        assert "Traceback" not in join_process.stdout + join_process.stderr
        assert "too many wrong join codes or seat tokens from your address: try again in 10 minutes" in (
            join_process.stdout + join_process.stderr
        )
        # Once the oldest wrong try no longer counts, the right code seats a player again.
        now[0] = WRONG_TRIES_WINDOW
        eve = Player(host.uri)
        assert eve.join(table.code, name="eve")["seat"] == 1
        eve.close()
        ann.close()


def test_no_name_that_would_read_as_someone_else_on_the_screens() -> None:
    # Each screen calls its own player "you"; Ann beside ann differs by case alone, ann\u3164 not at all.
    table = new_table(seats=3, seed=9)
    with hosted(table) as host:
        ann = Player(host.uri)
        ann.join(table.code, name="ann")
        before = host.call(table.lobby)
        for name, code in (
            ("you", "bad_name"),
            ("You", "bad_name"),
            ("YOU", "bad_name"),
            ("Ann", "name_taken"),
            ("\U0001d68a\U0001d697\U0001d697", "name_taken"),  # monospace letters: ann on a terminal
            ("\uff41\uff4e\uff4e", "name_taken"),  # fullwidth letters
            ("\uff59\uff4f\uff55", "bad_name"),  # fullwidth you
            ("ann\u3164", "bad_name"),  # a Hangul filler after it: shows as ann
            ("\u2800", "bad_name"),  # the blank braille pattern: shows as nothing
            ("ann\ufe0f", "name_taken"),  # variation selectors change how a letter is drawn, not which
            ("ann\ufe00", "name_taken"),
            ("ann\U000e0100", "name_taken"),
            ("\ufe0f", "bad_name"),  # one alone: shows as nothing
        ):
            impostor = Player(host.uri)
            join = {"type": "join", "protocol": PROTOCOL_VERSION, "code": table.code, "name": name}
            reply = refused(impostor, join, code)
            if code == "name_taken":
                assert reply["message"] == "someone at the table is already called ann"  # the name seated
            impostor.close()
        assert host.call(table.lobby) == before
        # Nor is a bot given a name a player has in other letters: 𝚋𝚘𝚋 and a bot called bob read alike.
        mono_bob = Player(host.uri)
        mono_bob.join(table.code, name="\U0001d68b\U0001d698\U0001d68b")
        host.call(host.server.start_game)  # bots take the open seats
        assert ann.until("state")["view"]["players"] == ["ann", "\U0001d68b\U0001d698\U0001d68b", "cid"]
        mono_bob.close()
        ann.close()


def test_a_name_too_long_is_refused_as_a_bad_name_like_any_other() -> None:
    table = new_table(seats=2, seed=9)
    with hosted(table) as host:
        for name in ("a" * 21, "a b"):
            player = Player(host.uri)
            join = {"type": "join", "protocol": PROTOCOL_VERSION, "code": table.code, "name": name}
            reply = refused(player, join, "bad_name")
            assert reply["message"] == "a name is one word of at most 20 characters"
            player.close()


def test_readies_repeated_before_the_deal_are_told_to_the_others_once() -> None:
    table = new_table(seats=2, seed=3, hand_size=7, opening_threshold=0)
    with hosted(table) as host:
        players = seat_and_play_a_hand(host.uri, table.code)
        for _ in range(20):
            players[0].send({"type": "ready"})
        players[0].send({"type": "say", "text": "ready, all of them"})
        heard = []
        while not heard or heard[-1]["type"] != "said":
            heard.append(players[1].receive())
        assert [message["type"] for message in heard] == [
            "state",
            "said",
        ]  # one state: who is ready changed once
        told = heard[0]
        assert (told["events"], told["ready"], told["waiting_for"]) == ([], [0], [1])
        assert players[0].until("state")["ready"] == [0]  # told as the others are
        players[1].send({"type": "ready"})  # the last one deals the next hand, to both
        for player in players:
            assert player.until("state")["view"]["hand_number"] == 2
            player.close()


def test_a_client_of_another_protocol_version_is_told_so(table_in_play: Any) -> None:
    host, _players = table_in_play
    newer = Player(host.uri)
    join = {"type": "join", "protocol": PROTOCOL_VERSION + 1, "code": host.table.code, "name": "zed"}
    reply = refused(newer, join, "protocol_version")
    assert reply["message"] == f"this table speaks protocol {PROTOCOL_VERSION}, not {PROTOCOL_VERSION + 1}"


def test_an_oversize_message_closes_that_connection_only(table_in_play: Any) -> None:
    host, players = table_in_play
    before = snapshot(host)
    players[1].websocket.send(json.dumps({"type": "say", "text": "x" * MAX_MESSAGE_BYTES}))
    with pytest.raises(ConnectionClosed) as closed:
        read_until_closed(players[1])
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1009  # message too big
    assert snapshot(host) == before
    players[2].send({"type": "say", "text": "still here"})
    assert hears(players[3], "still here")


def test_a_flood_is_rate_limited_then_cut_off(table_in_play: Any) -> None:
    host, players = table_in_play
    before = snapshot(host)
    flooder = players[1]
    for _ in range(100):  # past the burst the host allows
        flooder.websocket.send(json.dumps({"type": "say", "text": "spam"}))
    assert flooder.until("error")["code"] == "rate_limited"
    codes = ["rate_limited"]
    with pytest.raises(ConnectionClosed):  # and a flood that goes on is cut off
        flood_then_read(flooder)
    assert "rate_limited" in codes
    assert snapshot(host) == before
    players[2].send({"type": "say", "text": "after the flood"})
    assert hears(players[3], "after the flood")


class SmallBuffers(TableServer):
    """Small kernel send buffers, so a client that does not read backs up in seconds rather than megabytes."""

    async def handle(self, websocket: ServerConnection) -> None:
        websocket.transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        await super().handle(websocket)


def test_a_client_that_never_reads_is_dropped_and_the_table_plays_on() -> None:
    table = new_table(seed=9)
    with hosted(table, SmallBuffers, rate=1000.0, burst=1000.0, volume=1e9, send_timeout=2.0) as host:
        players = [Player(host.uri) for _ in range(3)]
        # The sleeper's receive window is tiny, so what it does not read backs up on the host quickly.
        sock = socket.create_connection(("127.0.0.1", host.server.port))
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        sleeper = connect(
            host.uri, sock=sock, open_timeout=TIMEOUT, compression=None, max_queue=1
        ).__enter__()
        sleeper.send(
            json.dumps({"type": "join", "protocol": PROTOCOL_VERSION, "code": table.code, "name": "zzz"})
        )
        for index, player in enumerate(players):
            player.join(table.code, name=f"p{index}")
        stop = threading.Event()

        def drain(player: Player) -> None:
            with contextlib.suppress(ConnectionClosed):
                while not stop.is_set():
                    with contextlib.suppress(TimeoutError):
                        player.websocket.recv(timeout=0.1)

        readers = [threading.Thread(target=drain, args=(player,)) for player in players]
        for reader in readers:
            reader.start()
        deadline = time.monotonic() + 3 * TIMEOUT
        while host.call(lambda: 0 in host.server.by_seat) and time.monotonic() < deadline:
            for _ in range(5):
                players[0].send({"type": "say", "text": "y" * 300})
            time.sleep(0.02)
        stop.set()
        for reader in readers:
            reader.join(TIMEOUT)
        assert not host.call(lambda: 0 in host.server.by_seat)  # the sleeper (seat 0) is cut off
        assert host.call(lambda: sorted(host.server.by_seat)) == [1, 2, 3]
        players[1].send({"type": "say", "text": "we carry on"})
        assert hears(players[2], "we carry on")
        sleeper.close()


def test_pings_sent_without_reading_the_pongs_are_cut_off(table_in_play: Any) -> None:
    # Each ping is answered with a pong that waits on the host until it is read: a connection that sent
    # pings and read nothing made the host hold 10 MB more each second, with no join and no code.
    host, players = table_in_play
    sock = socket.create_connection(("127.0.0.1", host.server.port))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{host.server.port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    assert sock.recv(12) == b"HTTP/1.1 101"
    pings = (bytes([0x89, 0x80 | 125]) + bytes(4) + b"p" * 125) * 1000  # masked, as from a client

    def unread() -> int:  # the most any connection has left unread on the host
        return max(
            (client.websocket.transport.get_write_buffer_size() for client in host.server.clients), default=0
        )

    held, sent = 0, 0
    with contextlib.suppress(ConnectionError):
        while sent < 200:  # 26 MB of pings at most
            sock.sendall(pings)
            sent += 1
            held = max(held, host.call(unread))
    sock.close()
    assert held <= MAX_UNREAD_BYTES + len(pings)
    assert sent < 200  # cut off
    players[2].send({"type": "say", "text": "still here"})
    assert hears(players[3], "still here")


def test_plain_http_and_foreign_origins_are_answered_without_an_upgrade(table_in_play: Any) -> None:
    import urllib.error
    import urllib.request

    host, _players = table_in_play
    with urllib.request.urlopen(f"http://127.0.0.1:{host.server.port}/", timeout=TIMEOUT) as page:
        assert page.status == 200
        assert b"table.js" in page.read()  # the browser page
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(f"http://127.0.0.1:{host.server.port}/etc/passwd", timeout=TIMEOUT)
    assert answer.value.code == 404
    # The table's own page may connect: same host and port as the table.
    with connect(host.uri, origin=f"http://127.0.0.1:{host.server.port}", open_timeout=TIMEOUT) as same_site:
        same_site.send(json.dumps({"type": "say", "text": "not joined"}))
        assert json.loads(same_site.recv(timeout=TIMEOUT))["code"] == "not_joined"
    with (
        pytest.raises(Exception, match="403"),
        connect(host.uri, origin="https://evil.example", open_timeout=TIMEOUT),
    ):
        pass


def test_a_connection_that_never_joins_is_closed() -> None:
    table = new_table(seed=9)
    with hosted(table, join_timeout=0.5) as host:
        idle = Player(host.uri)
        with pytest.raises(ConnectionClosed) as closed:
            read_until_closed(idle)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 1008
        # The host forgets the connection once its handler has finished, just after the close.
        deadline = time.monotonic() + TIMEOUT
        while host.call(lambda: len(host.server.clients)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert host.call(lambda: len(host.server.clients)) == 0


def test_a_table_that_sends_unreadable_json_does_not_stop_the_client() -> None:
    # The other way round: kalooki join's reader skips what it cannot read and reads on.
    welcome = A_WELCOME

    def answer(websocket: SyncConnection) -> None:
        websocket.recv(timeout=TIMEOUT)  # the join
        websocket.send("[" * 30_000 + "]" * 30_000)
        websocket.send('{"type": "said", "seat": 1, "text": ' + "9" * 5000 + "}")
        websocket.send(json.dumps(welcome))
        with contextlib.suppress(ConnectionClosed, TimeoutError):
            websocket.recv(timeout=TIMEOUT)

    with serve(answer, "127.0.0.1", 0) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        connection = TableConnection(f"ws://127.0.0.1:{server.socket.getsockname()[1]}/")
        try:
            assert connection.join("ABC123", name="ann") == welcome
        finally:
            connection.close()
            server.shutdown()


def test_a_table_that_sends_a_message_too_big_is_left_before_it_is_read() -> None:
    # kalooki join read messages of any size: a table could make a player's machine hold gigabytes.
    welcome = A_WELCOME

    def answer(websocket: SyncConnection) -> None:
        websocket.recv(timeout=TIMEOUT)  # the join
        with contextlib.suppress(ConnectionClosed):
            websocket.send('"' + "x" * MAX_HOST_MESSAGE_BYTES + '"')
            websocket.send(json.dumps(welcome))
            websocket.recv(timeout=TIMEOUT)

    with serve(answer, "127.0.0.1", 0, max_size=None) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        connection = TableConnection(f"ws://127.0.0.1:{server.socket.getsockname()[1]}/")
        try:
            with pytest.raises(TableConnectionError) as refused:
                connection.join("ABC123", name="ann")
            assert str(refused.value) == f"the table closed the connection: {LOST}"
        finally:
            connection.close()
            server.shutdown()


def test_a_table_that_never_answers_the_join_is_an_error_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kalooki_net.client, "CONNECT_TIMEOUT", 0.5)  # the wait for the welcome is 3 of these

    def silent(websocket: SyncConnection) -> None:
        with contextlib.suppress(ConnectionClosed, TimeoutError):
            while True:
                websocket.recv(timeout=TIMEOUT)

    with serve(silent, "127.0.0.1", 0) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        connection = TableConnection(f"ws://127.0.0.1:{server.socket.getsockname()[1]}/")
        try:
            with pytest.raises(TableConnectionError, match="the table did not answer"):
                connection.join("ABC123", name="ann")
        finally:
            connection.close()
            server.shutdown()


@pytest.mark.parametrize(
    ("mutation", "said"),
    [
        (
            lambda sent: welcome_of(sent).update(variant={"jokers": "many"}),
            "the table's rules cannot be played: variant.jokers: expected a whole number, got 'many': "
            "write a whole number from 0 to 8",
        ),
        (
            lambda sent: welcome_of(sent)["variant"].update(meld_bonus=5),
            "the table's rules use 'meld_bonus', a knob this kalooki does not know: a newer kalooki wrote "
            "them; upgrade kalooki to join it",
        ),
        (
            lambda sent: welcome_of(sent).update(seat=7),
            "the table seated you at seat 8, which its game does not have",
        ),
        (lambda sent: view_of(sent).update(table=[{"cards": ["ZZ"]}]), None),
        (lambda sent: view_of(sent).pop("hand"), None),
        (lambda sent: view_of(sent).update(turn=None), None),
    ],
    ids=["rules", "rules of a newer kalooki", "seat", "meld", "no hand", "no turn"],
)
def test_join_refuses_a_table_that_sends_what_no_table_sends(mutation: Mutation, said: str | None) -> None:
    # kalooki join stopped with a Python traceback (KeyError: 'kind', TypeError, IndexError, a
    # pydantic ValidationError): a table that is not kalooki's, or not honest, could crash the client.
    messages = a_real_welcome_and_state()
    mutation(messages)
    result = join_a_table_that_sends(messages)
    assert "Traceback" not in result.stderr + result.stdout, result.stderr
    assert result.returncode == 1
    if said is not None:
        assert result.stderr == f"{said}\n"
    else:  # the state is skipped, as unreadable JSON is: the game never starts, and the table goes
        assert "Waiting for the game" in result.stdout


def test_what_a_table_says_reaches_the_terminal_spelled_out() -> None:
    # A table that is not honest put escape sequences in a player's name, a refusal and its reason for
    # closing, and kalooki join printed them raw: the terminal was retitled and cleared.
    escape = "\x1b]0;PWNED\x07\x1b[2J"
    spelled = "\\x1b]0;PWNED\\x07\\x1b[2J"
    messages = a_real_welcome_and_state()
    welcome_of(messages)["name"] = f"bob{escape}"
    lobby = next(message for message in messages if message["type"] == "lobby")
    sent = [
        welcome_of(messages),
        lobby,
        {"type": "presence", "seat": 0, "name": f"ann{escape}", "status": "joined"},
        {"type": "error", "code": "bad_json", "message": f"no{escape}"},
        {"type": "closing", "reason": f"bye{escape}"},
    ]
    result = join_a_table_that_sends(sent)
    assert "\x1b" not in result.stdout + result.stderr
    assert result.stdout.splitlines() == [
        f"You sit at seat 2 as bob{spelled}.",
        "Waiting for the game...",
        f"ann{spelled} joined the table.",
        f"✗ no{spelled}",
        f"The table is closed: bye{spelled}.",
    ]
