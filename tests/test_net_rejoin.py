"""``kalooki join`` taking a seat back: the kept token survives a refusal.

Each test runs real ``kalooki join`` processes against a table served on 127.0.0.1, with their own
``KALOOKI_HOME``: one account, whose ``tables`` folder keeps the seats' tokens.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

pytest.importorskip("websockets")

from kalooki_net.table import Table
from net_helpers import KALOOKI, Host, Terminal, hosted, new_table
from test_net_join_cli import shows, stopped


def address(host: Host) -> str:
    return f"127.0.0.1:{host.server.port}"


def join_once(host: Host, home: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``kalooki join`` run to its end: refused, or seated and quitting at its first prompt."""
    env = {**os.environ, "KALOOKI_HOME": str(home), "COLUMNS": "200", "NO_COLOR": "1"}
    command = [str(KALOOKI), "join", address(host), "--code", host.table.code, *options]
    return subprocess.run(command, input="quit\n", capture_output=True, text=True, env=env, timeout=120)


def dropped(table: Table, seat: int) -> None:
    """Wait until the table has noticed that ``seat``'s connection is gone."""
    deadline = time.monotonic() + 90
    while table.seats[seat].connected:
        assert time.monotonic() < deadline, f"seat {seat} is still connected"
        time.sleep(0.1)


def started_with(host: Host, *players: Terminal) -> None:
    """Once each player sits, the host starts the game (bots take the open seats); each shows its hand."""
    for player in players:
        shows(player, "You sit at seat ")
    host.call(host.server.start_game)
    for player in players:
        shows(player, r"Your hand \(")


def test_a_seat_held_by_a_stalled_connection_is_refused_and_kept_until_the_table_lets_go(
    tmp_path: Path,
) -> None:
    # bob's kalooki join froze (kill -STOP) and he ran the join again: the table refused it (the seat was
    # still connected), the token was thrown away, and a new seat was asked for and refused: "the game has
    # started". Now the refusal says the seat is held and what to do, and once the table has let the stalled
    # connection go, the same command takes the seat back.
    with hosted(new_table(seats=3)) as host:
        bob = Terminal(address(host), host.table.code, tmp_path, "bob")
        started_with(host, bob)
        os.kill(bob.process.pid, signal.SIGSTOP)
        try:
            again = join_once(host, tmp_path)
            assert again.returncode == 1
            assert again.stderr.strip() == (
                "your seat is still held by another connection: quit the kalooki join that holds it; if that "
                "one stopped answering, the table lets it go within half a minute: try again then"
            )
            dropped(host.table, 0)  # its pings unanswered
            back = Terminal(address(host), host.table.code, tmp_path, None)
            shows(back, "You sit at seat 1 as bob.")
            stopped(back)
        finally:
            bob.process.kill()  # stopped or not
            bob.process.wait()
