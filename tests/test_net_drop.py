"""The host drops a player's connection (``drop NAME``): a player who is there but does nothing no longer
holds the table up for good, since the wait and its stand-in count only for a seat away."""

from __future__ import annotations

import pytest

pytest.importorskip("websockets")

import queue
from pathlib import Path

from kalooki_cli.host_watch import dropped_name
from kalooki_cli.remote import table_commands
from net_helpers import TIMEOUT, Player, hosted, new_table
from test_net_host_process import start_host, two_players_in_a_game
from websockets.exceptions import ConnectionClosed


def test_the_host_drops_a_connected_player_who_then_rejoins_with_their_token() -> None:
    table = new_table(seats=4)
    table.join("ann", host=True)  # as kalooki host makes its own seat, its connection yet to come
    table.seats[0].connected, table.seats[0].away_since = False, None
    with hosted(table) as host:
        bob, cid = Player(host.uri), Player(host.uri)
        bob.join(table.code, name="bob")
        cid.join(table.code, name="cid")
        host.call(host.server.start_game)
        bob.until("state")
        cid.until("state")
        said = host.call(host.server.drop, "BOB")  # a name in any case, as names are told apart
        assert said == (
            "bob's connection is dropped: the table waits 30 seconds for them, then a bot plays their seat"
        )
        refusal = bob.until("error")
        assert refusal == {
            "type": "error",
            "code": "dropped",
            "message": "the host dropped your connection: the table waits 30 seconds for you, "
            "then a bot plays your seat until you join again",
        }
        with pytest.raises(ConnectionClosed) as closed:  # the error is the last it is sent
            bob.receive()
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1000, "dropped by the host")
        presence = cid.until("presence")
        assert (presence["name"], presence["status"]) == ("bob", "left")
        assert not table.seats[1].connected
        assert table.seats[1].away_since is not None
        assert host.call(host.server.drop, "bob") == "bob is not connected: the table waits for them already"
        assert host.call(host.server.drop, "ann") == "that is your own seat: quit closes the table"
        assert host.call(host.server.drop, "dee") == "dee is a bot: it has no connection to drop"
        assert host.call(host.server.drop, "zed\x1b") == "no one at the table is called zed\\x1b"
        back = Player(host.uri)
        assert back.join(table.code, token=bob.token)["seat"] == 1
        assert table.seats[1].connected


def test_the_hosts_commands_name_drop() -> None:
    assert dropped_name("drop  bob ") == "bob"
    assert dropped_name("Drop bob") == "bob"
    assert dropped_name("dropped") == ""
    host_rows = dict(table_commands(host=True))
    assert host_rows["drop NAME"] == "drop a player's connection: the table waits for them, then a bot plays"
    assert "drop NAME" not in dict(table_commands(host=False))


def test_a_watching_host_drops_a_player_at_its_prompt(tmp_path: Path) -> None:
    # Its prompt offered only quit: a player who sat and did nothing held the table up for good.
    heard: queue.Queue[str] = queue.Queue()
    host, uri, code = start_host(tmp_path, "--seats", "2", "--seed", "21", "--wait", "0", heard=heard)
    try:
        p0, p1 = two_players_in_a_game(uri, code)
        assert host.stdin is not None
        host.stdin.write("drop p0\n")
        host.stdin.flush()
        assert p0.until("error")["code"] == "dropped"
        presence = p1.until("presence")
        assert (presence["name"], presence["status"]) == ("p0", "left")
        wanted = "p0's connection is dropped: the table waits 0 seconds for them, then a bot plays their seat"
        while wanted not in heard.get(timeout=TIMEOUT):
            pass
    finally:
        assert host.stdin is not None
        host.stdin.close()
        assert host.wait(TIMEOUT) == 0
