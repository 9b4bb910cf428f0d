"""``kalooki join`` taking a seat back: the kept token survives a refusal, and ``--name`` picks whose seat.

Each test runs real ``kalooki join`` processes against a table served on 127.0.0.1, with their own
``KALOOKI_HOME``: one account, whose ``tables`` folder keeps the seats' tokens.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

pytest.importorskip("websockets")

from kalooki_net.client import TokenStore
from kalooki_net.table import STARTED as TABLE_STARTED
from kalooki_net.table import Table
from net_helpers import KALOOKI, Host, Player, Terminal, hosted, new_table
from test_net_join_cli import shows, stopped

STARTED = f"the table refused to seat you: {TABLE_STARTED}"


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


def test_a_new_name_refused_at_a_started_game_leaves_the_kept_seat(tmp_path: Path) -> None:
    # Refused as carol (no one new sits down once the game has started), the account's token for bob's seat
    # was thrown away: bob, back, was refused too, his seat lost for good.
    with hosted(new_table(seats=3)) as host:
        bob = Terminal(address(host), host.table.code, tmp_path, "bob")
        shows(bob, "You sit at seat 1 as bob.")
        started_with(host, bob)
        carol = join_once(host, tmp_path, "--name", "carol")
        assert carol.returncode == 1
        # It said "your seat there comes back with --name bob" to carol, who may never have had one.
        assert carol.stderr.strip() == f"{STARTED}; if you had a seat there, it comes back with --name bob"
        stopped(bob)
        dropped(host.table, 0)
        back = join_once(host, tmp_path, "--name", "bob")
    assert back.returncode == 0, back.stderr
    assert "You sit at seat 1 as bob." in back.stdout


def test_another_name_does_not_take_the_kept_seat(tmp_path: Path) -> None:
    # --name carol, with bob's seat kept and bob away, printed "You sit at seat 1 as bob.": carol played
    # bob's hand. Now carol is refused as any newcomer is, and bob's seat waits for him.
    with hosted(new_table(seats=3)) as host:
        bob = Terminal(address(host), host.table.code, tmp_path, "bob")
        started_with(host, bob)
        stopped(bob)
        dropped(host.table, 0)
        carol = join_once(host, tmp_path, "--name", "carol")
        assert carol.returncode == 1
        assert "You sit" not in carol.stdout
        assert carol.stderr.startswith(STARTED)
        back = Terminal(address(host), host.table.code, tmp_path, None)  # the command as it was first told
        shows(back, "You sit at seat 1 as bob.")
        stopped(back)


def test_a_seat_held_by_a_stalled_connection_is_refused_and_kept_until_the_table_lets_go(
    tmp_path: Path,
) -> None:
    # bob's kalooki join froze (kill -STOP) and he ran the join again: the table refused it (the seat was
    # still connected), the token was thrown away, and a new seat was asked for and refused: "the game has
    # started". Now the refusal says the seat is held and what to do, and once the table has let the stalled
    # connection go, the same command takes the seat back.
    # Pings every five seconds rather than ten: the table lets the stalled connection go sooner, as it
    # would, 5 to 10 seconds after the stop. (Every second, a second join slowed by a busy machine came
    # after the table had let go, and took the seat back at once.)
    with hosted(new_table(seats=3), ping_seconds=5.0) as host:
        bob = Terminal(address(host), host.table.code, tmp_path, "bob")
        started_with(host, bob)
        os.kill(bob.process.pid, signal.SIGSTOP)
        try:
            again = join_once(host, tmp_path)
            assert again.returncode == 1
            assert again.stderr.strip() == (
                "seat 1 (bob) is still held by another connection: quit the kalooki join that holds it; if "
                "that one stopped answering, the table lets it go within half a minute: try again then"
            )
            dropped(host.table, 0)  # its pings unanswered
            back = Terminal(address(host), host.table.code, tmp_path, None)
            shows(back, "You sit at seat 1 as bob.")
            stopped(back)
        finally:
            bob.process.kill()  # stopped or not
            bob.process.wait()


def test_two_people_on_one_account_each_keep_their_seat(tmp_path: Path) -> None:
    # The account kept one token a table: ann's was replaced by bob's, and "kalooki join ... --name ann" sat
    # ann down at bob's seat. Each name now keeps its own; with no --name the join asks whose.
    table = new_table(seats=3)
    table.wait_seconds = 0.0  # ann, back, need not wait for bob's turn, away, to be played
    with hosted(table) as host:
        ann = Terminal(address(host), host.table.code, tmp_path, "ann")
        shows(ann, "You sit at seat 1 as ann.")
        bob = Terminal(address(host), host.table.code, tmp_path, "bob")
        shows(bob, "You sit at seat 2 as bob.")
        started_with(host, ann, bob)
        assert f"Rejoin with: kalooki join {address(host)} --code {host.table.code} --name bob" in bob.quit()
        stopped(ann)
        dropped(host.table, 0)
        dropped(host.table, 1)
        whose = join_once(host, tmp_path)
        assert whose.returncode == 2
        assert "this account keeps seats at that table for bob and ann: say whose with --name" in " ".join(
            whose.stderr.replace("│", " ").split()
        )
        back = join_once(host, tmp_path, "--name", "ANN")  # as the table tells names apart
        assert back.returncode == 0, back.stderr
        assert "You sit at seat 1 as ann." in back.stdout


def test_a_token_file_of_one_seat_still_rejoins_and_keeps_a_second_name_beside_it(tmp_path: Path) -> None:
    # A file as kalooki wrote it before it kept seats by name: its one seat comes back by its name, and
    # another name sits down anew beside it, where it took the file's seat before.
    with hosted(new_table(seats=3)) as host:
        ann = Player(host.uri)
        welcome = ann.join(host.table.code, name="ann")
        ann.close()
        dropped(host.table, 0)
        store = TokenStore(tmp_path / "tables")
        path = store.path(host.uri, host.table.code)
        path.parent.mkdir()
        path.write_text(json.dumps({"table": host.uri, "seat": 0, "name": "ann", "token": welcome["token"]}))
        bob = Terminal(address(host), host.table.code, tmp_path, "bob")
        shows(bob, "You sit at seat 2 as bob.")
        back = Terminal(address(host), host.table.code, tmp_path, "ann")
        shows(back, "You sit at seat 1 as ann.")
        stopped(bob)
        stopped(back)
    kept = json.loads(path.read_text())
    # An older kalooki reads the top-level seat: the one kept last.
    assert (kept["name"], kept["seat"], kept["token"]) == ("ann", 0, welcome["token"])
    assert [seat["name"] for seat in kept["seats"]] == ["ann", "bob"]


def test_a_kept_seat_the_table_does_not_know_is_said_so_when_the_game_has_started(tmp_path: Path) -> None:
    # The token kept for ann was from an earlier table at this address and code: it is forgotten and a new
    # seat asked for, which a started game refuses. The player read only the refusal of a newcomer.
    with hosted(new_table(seats=3)) as host:
        bob = Terminal(address(host), host.table.code, tmp_path / "bob", "bob")
        started_with(host, bob)
        home, uri, code = tmp_path / "ann", f"ws://{address(host)}/", host.table.code
        TokenStore(home / "tables").keep(uri, code, "an-earlier-tables-token", 2, "ann")
        ann = join_once(host, home, "--name", "ann")
        stopped(bob)
    assert ann.returncode == 1
    assert ann.stderr.strip() == (
        "this table knows no seat of ann's (the one this account kept was at an earlier table here), and "
        + STARTED
    )
    assert TokenStore(home / "tables").seats(uri, code) == []


def test_a_damaged_kept_seat_file_is_said_before_a_new_seat_is_asked_for(tmp_path: Path) -> None:
    # It was replaced in silence: the join asked for a new seat and wrote over it without a word.
    with hosted(new_table(seats=3)) as host:
        home, uri = tmp_path / "ann", f"ws://{address(host)}/"
        path = TokenStore(home / "tables").path(uri, host.table.code)
        path.parent.mkdir(parents=True)
        path.write_text('{"token": "' + "t" * 100_000 + '"}')  # sent as it was, the table closed the join
        ann = Terminal(address(host), host.table.code, home, "ann")
        shows(ann, "You sit at seat 1 as ann.")
        said = stopped(ann)
    assert said.splitlines()[0] == (
        f"{path}: the seats kept for this table cannot be read (it holds no seat's token as a table gives "
        "it): a new seat is asked for"
    )
    assert [seat.name for seat in TokenStore(home / "tables").seats(uri, host.table.code)] == ["ann"]
