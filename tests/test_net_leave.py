"""A connection that sends ``leave``: told its seat is left, then held to the join timeout as a new one is."""

from __future__ import annotations

import pytest

pytest.importorskip("websockets")

from net_helpers import Player, hosted, new_table
from websockets.exceptions import ConnectionClosed


def read_until_closed(player: Player) -> None:
    while True:
        player.receive()


def test_a_leave_is_told_to_the_leaver_and_the_seatless_connection_is_then_closed_as_a_new_one() -> None:
    # The leaver was sent nothing, and its connection, with no seat, was never closed: the join timeout
    # counted for the first join only.
    table = new_table(seed=9)
    with hosted(table, join_timeout=0.5) as host:
        ann = Player(host.uri, timeout=5.0)
        ann.join(table.code, name="ann")
        assert ann.until("presence")["status"] == "joined"
        ann.send({"type": "leave"})
        assert ann.until("presence") == {
            "type": "presence",
            "seat": 0,
            "name": "ann",
            "status": "left",
            "free": True,
        }
        with pytest.raises(ConnectionClosed) as closed:
            read_until_closed(ann)
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1008, "join within 0.5 seconds")
        assert table.seats[0].kind == "open"


def test_a_connection_that_left_may_join_again_within_the_timeout() -> None:
    table = new_table(seed=9)
    with hosted(table, join_timeout=0.5) as host:
        ann = Player(host.uri, timeout=5.0)
        ann.join(table.code, name="ann")
        ann.until("presence")  # joined
        ann.send({"type": "leave"})
        ann.until("presence")  # left
        assert ann.join(table.code, name="bob")["seat"] == 0
        ann.send({"type": "say", "text": "back"})
        assert ann.until("said") == {"type": "said", "seat": 0, "name": "bob", "text": "back"}
