"""A flooding client is answered as the protocol says: ``rate_limited`` for each message over the rate, and
after 100 of those the connection is closed, once what it was sent has gone out; a flood of pings is
closed too."""

from __future__ import annotations

import contextlib
import json

import pytest

pytest.importorskip("websockets")

from kalooki_net.seat_connection import BURST
from kalooki_net.server import MAX_REFUSED_FLOOD
from net_helpers import Player, hosted, new_table
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
