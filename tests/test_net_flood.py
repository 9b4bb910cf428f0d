"""A flooding client is answered as the protocol says: ``rate_limited`` for each message over the rate, and
after 100 of those the connection is closed, once what it was sent has gone out; a flood of pings is
closed too, as is a message sent in thousands of fragments."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket

import pytest

pytest.importorskip("websockets")

from kalooki_net.seat_connection import BURST
from kalooki_net.server import MAX_REFUSED_FLOOD
from net_helpers import TIMEOUT, Player, hosted, new_table
from websockets.exceptions import ConnectionClosed


def read_until_closed(player: Player) -> None:
    while True:
        player.receive()  # each error is kept in player.errors


def test_a_flood_gets_a_refusal_for_each_message_over_the_limit_then_is_closed() -> None:
    # With 300 messages in a burst the connection was closed after 15 replies and no rate_limited at all:
    # the close went out ahead of the replies still waiting to be sent.
    # A rate of one message a hundred seconds, so every message past the burst is over it however slowly
    # this machine sends them (at the default rate a slow one stayed under it and was never closed).
    with hosted(new_table(seed=9), rate=0.01, burst=5) as host:
        flooder = Player(host.uri)
        # The burst, then as many as close it: one more could meet the close on its way.
        for _ in range(5 + MAX_REFUSED_FLOOD):
            flooder.websocket.send(json.dumps({"type": "undo"}))
        with pytest.raises(ConnectionClosed) as closed:
            read_until_closed(flooder)
        codes = [error["code"] for error in flooder.errors]
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1008, "too many messages")
        assert codes.count("rate_limited") == MAX_REFUSED_FLOOD == 100
        assert codes.count("not_joined") == 5  # the burst
        assert codes[-1] == "rate_limited"


def test_a_flood_of_pings_is_closed_and_the_table_plays_on() -> None:
    # A ping is answered by the library itself, and the rate limit saw only messages: four connections
    # sending pings as fast as they could held everyone's moves and talk up for seconds, unbounded.
    with hosted(new_table(seed=9)) as host:
        ann, bob = Player(host.uri), Player(host.uri)
        ann.join(host.table.code, name="ann")
        bob.join(host.table.code, name="bob")
        pinger = Player(host.uri)
        with contextlib.suppress(ConnectionClosed):  # the close may meet the last pings on their way
            for _ in range(10 * int(BURST)):
                pinger.websocket.ping()
        with pytest.raises(ConnectionClosed) as closed:
            read_until_closed(pinger)
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1008, "too many pings")
        ann.send({"type": "say", "text": "we carry on"})
        assert bob.until("said")["text"] == "we carry on"


def fragments(count: int) -> bytes:
    """One text message, ``{}``, sent in ``count`` pieces (masked, as from a client): all but two empty."""
    first, last = bytes([0x01, 0x81, 0, 0, 0, 0]) + b"{", bytes([0x80, 0x81, 0, 0, 0, 0]) + b"}"
    return first + bytes([0x00, 0x80, 0, 0, 0, 0]) * (count - 2) + last


def test_a_message_in_thousands_of_fragments_is_closed_and_the_table_plays_on() -> None:
    # A message may come in up to 4,096 pieces, each read and kept by the library and only the whole
    # counted by the rate limit: messages of 4,096 empty pieces held everyone up as a flood of pings did.
    with hosted(new_table(seed=9)) as host:
        ann, bob = Player(host.uri), Player(host.uri)
        ann.join(host.table.code, name="ann")
        bob.join(host.table.code, name="bob")
        port = host.server.port
        with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as raw:
            key = base64.b64encode(os.urandom(16)).decode()
            raw.sendall(
                f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
            )
            answer = b""
            while b"\r\n\r\n" not in answer:
                answer += raw.recv(4096)
            assert answer.startswith(b"HTTP/1.1 101")
            with contextlib.suppress(ConnectionError):  # the close may meet the last pieces on their way
                raw.sendall(fragments(10 * int(BURST)))
            told = answer.split(b"\r\n\r\n", 1)[1]
            while chunk := raw.recv(4096):
                told += chunk
        # A close frame from the host: 1008 and why, and no error message for the message before it.
        close = (
            bytes([0x88, 2 + len(b"too many fragments")]) + (1008).to_bytes(2, "big") + b"too many fragments"
        )
        assert told == close
        ann.send({"type": "say", "text": "we carry on"})
        assert bob.until("said")["text"] == "we carry on"


def test_long_messages_are_held_to_a_rate_of_characters_too() -> None:
    # Each message costs the host by its length (10 ms to read and refuse the costliest 64 KiB): four
    # connections sending such messages within the rate of messages held every player's replies up for
    # seconds. Ten of 60,000 characters at once: the first is read, and refused for what it is; a
    # peer cannot send that much again within a second.
    with hosted(new_table(seed=9)) as host:
        peer = Player(host.uri)
        long_line = json.dumps({"type": "say", "text": "x" * 60_000})
        for _ in range(10):
            peer.websocket.send(long_line)
        replies = [peer.until("error") for _ in range(10)]
        assert replies[0]["code"] == "bad_message"
        assert replies[0]["message"] == "say: text: must be at most 300 characters long"
        over = [reply["message"] for reply in replies if reply["code"] == "rate_limited"]
        assert over
        assert set(over) == {"too much sent: at most 16,384 characters of messages a second"}
