"""The host drops a player's connection (``drop NAME``): a player who is there but does nothing no longer
holds the table up for good, since the wait and its stand-in count only for a seat away."""

from __future__ import annotations

import pytest

pytest.importorskip("websockets")

import queue
from pathlib import Path

from kalooki_cli.host_watch import seat_command
from kalooki_cli.remote import table_commands
from net_helpers import TIMEOUT, Player, hosted, new_table, with_hosts_seat
from test_net_host_process import start_host, two_players_in_a_game
from websockets.exceptions import ConnectionClosed


def test_the_host_drops_a_connected_player_who_then_rejoins_with_their_token() -> None:
    table = with_hosts_seat(new_table(seats=4))
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


def test_the_hosts_commands_name_drop_and_remove() -> None:
    assert seat_command("drop  bob ") == ("drop", "bob")
    assert seat_command("Drop bob") == ("drop", "bob")
    assert seat_command("REMOVE bob") == ("remove", "bob")
    assert seat_command("remove") == ("remove", "")
    assert seat_command("dropped") is None
    host_rows = dict(table_commands(host=True))
    assert host_rows["drop NAME"] == "drop a player's connection: the table waits for them, then a bot plays"
    assert host_rows["remove NAME"] == "remove a player for good: a bot plays their seat to the end"
    assert "drop NAME" not in dict(table_commands(host=False))
    assert "remove NAME" not in dict(table_commands(host=False))


@pytest.mark.parametrize(
    ("typed", "code", "said"),
    [
        # Its prompt offered only quit: a player who sat and did nothing held the table up for good.
        (
            "drop p0\n",
            "dropped",
            ["p0's connection is dropped: the table waits 0 seconds for them, then a bot plays their seat"],
        ),
        # Dropped, they came back at once and held it up again.
        (
            "remove\nremove p0\n",
            "removed",
            ["remove whom? (remove NAME removes a player for good", "p0 is removed: "],
        ),
    ],
)
def test_a_watching_host_drops_or_removes_a_player_at_its_prompt(
    tmp_path: Path, typed: str, code: str, said: list[str]
) -> None:
    heard: queue.Queue[str] = queue.Queue()
    host, uri, code_ = start_host(tmp_path, "--seats", "2", "--seed", "21", "--wait", "0", heard=heard)
    try:
        p0, p1 = two_players_in_a_game(uri, code_)
        assert host.stdin is not None
        host.stdin.write(typed)
        host.stdin.flush()
        assert p0.until("error")["code"] == code
        presence = p1.until("presence")
        assert (presence["name"], presence["status"]) == ("p0", "left")
        for wanted in said:
            while wanted not in heard.get(timeout=TIMEOUT):
                pass
    finally:
        assert host.stdin is not None
        host.stdin.close()
        assert host.wait(TIMEOUT) == 0
