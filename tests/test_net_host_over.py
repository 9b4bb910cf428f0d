"""``kalooki host --watch`` once its game is over: nobody is waited for, and the host is told to close."""

from __future__ import annotations

import queue
import re
import threading
from pathlib import Path

import pytest

pytest.importorskip("websockets")

from net_helpers import TIMEOUT, Player
from test_net_host_process import GAME_TIMEOUT, heard_until, start_host

CLOSE = "Type quit to close the table."


def test_a_watching_host_is_told_the_game_is_over_and_players_leave_rather_than_are_waited_for(
    tmp_path: Path,
) -> None:
    # After "[table] The game is over: p1 won." the host said "[table] p0 dropped out: the table waits
    # for them." (nothing waits once the game is over), and its help still offered drop NAME.
    heard: queue.Queue[str] = queue.Queue()
    arguments = ["kalooki-40", "--set", "goal_score=40", "--seats", "2", "--seed", "11"]
    host, uri, code = start_host(tmp_path, *arguments, heard=heard)
    assert host.stdin is not None
    try:
        players = [Player(uri) for _ in range(2)]
        for index, player in enumerate(players):
            player.join(code, name=f"p{index}")
        robots = [threading.Thread(target=player.play_until_over) for player in players]
        for robot in robots:
            robot.start()
        over = heard_until(heard, "The game is over", GAME_TIMEOUT)
        assert re.fullmatch(rf"(table> )?\[table\] The game is over: p[01] won\. {re.escape(CLOSE)}", over), (
            over
        )
        for robot in robots:
            robot.join(GAME_TIMEOUT)
        players[0].close()
        assert heard_until(heard, "p0 ").endswith("[table] p0 left the table.")
        # The pages and the other seats hear it so too: nobody waits for a player once the game is over.
        left = players[1].until("presence")
        assert (left["name"], left["status"], left.get("free")) == ("p0", "left", True)
        host.stdin.write("drop p1\nhelp\n")
        host.stdin.flush()
        refused = (
            "the game is over, so nobody is waited for: type quit to close the table (until then it shows "
        )
        assert heard_until(heard, "nobody is waited for").endswith(f"{refused}the result)")
        assert heard_until(heard, "The game is over:").endswith(
            "The game is over: type quit to close the table (until then it shows the result)."
        )
        players[1].close()
    finally:
        host.stdin.close()
        assert host.wait(TIMEOUT) == 0
