"""The host removes a player for good (``remove NAME``): dropped, a player who did nothing came back with
their token at once and held the table up again, as often as the host dropped them. (A watching host's
prompt takes it in test_net_drop.py.)"""

from __future__ import annotations

import pytest

pytest.importorskip("websockets")

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from kalooki_net.client import TokenStore
from kalooki_net.protocol import PROTOCOL_VERSION
from kalooki_net.table import REMOVED, REMOVED_BEFORE_THE_GAME, Table, removed_in_the_game
from net_helpers import TIMEOUT, Host, Player, hosted, new_table, with_hosts_seat
from websockets.exceptions import ConnectionClosed


def test_a_removed_player_is_told_their_seat_goes_to_its_bot_and_their_token_takes_it_no_more() -> None:
    table = new_table(seats=2, goal_score=1)  # one hand ends the game
    with hosted(table) as host:
        bob, cid = Player(host.uri), Player(host.uri)
        bob.join(table.code, name="bob")
        cid.join(table.code, name="cid")  # the last seat taken: the game starts
        bob.until("state")
        cid.until("state")
        bot = table.seats[0].bot
        said = host.call(host.server.remove, "BOB")  # a name in any case, as drop takes it
        assert said == f"bob is removed: {bot} plays their seat to the end of the game"
        assert bob.until("error") == {
            "type": "error",
            "code": "removed",
            "message": "the host removed you from the table: a bot plays your seat to the end",
        }
        with pytest.raises(ConnectionClosed) as closed:  # the error is the last it is sent
            bob.receive()
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1000, "removed by the host")
        presence = cid.until("presence")
        assert (presence["name"], presence["status"], presence.get("free")) == ("bob", "left", True)
        lobby = cid.until("lobby")
        assert lobby["seats"][0] == {
            "seat": 0,
            "name": "bob",
            "kind": "bot",
            "bot": bot,
            "connected": False,
            "host": False,
        }
        state = cid.until("state")  # the seat shown as its bot's, under bob's name
        assert (state["view"]["players"][0], state["stand_ins"]) == ("bob", {})
        back = Player(host.uri)
        back.send({"type": "join", "protocol": PROTOCOL_VERSION, "code": table.code, "token": bob.token})
        assert back.until("error") == {"type": "error", "code": "removed", "message": REMOVED}
        assert table.seats[0].kind == "bot"
        assert host.call(host.server.remove, "bob") == "bob is a bot: there is no player to remove"
        assert host.call(host.server.remove, "zed") == "no one at the table is called zed"
        # The game goes on to its end, the bot playing bob's seat.
        assert cid.play_until_over()["phase"] == "game_over"


def test_a_player_removed_before_the_game_frees_their_seat() -> None:
    table = with_hosts_seat(new_table(seats=4))
    with hosted(table) as host:
        bob, cid = Player(host.uri), Player(host.uri)
        bob.join(table.code, name="bob")
        cid.join(table.code, name="cid")
        assert host.call(host.server.remove, "bob") == "bob is removed: their seat is free again"
        assert bob.until("error")["message"] == "the host removed you from the table"
        assert table.seats[1].kind == "open"
        assert host.call(host.server.remove, "ann") == "that is your own seat: quit closes the table"
        dee = Player(host.uri)
        assert dee.join(table.code, name="dee")["seat"] == 1
        again = Player(host.uri)
        again.send({"type": "join", "protocol": PROTOCOL_VERSION, "code": table.code, "token": bob.token})
        # Not told a bot plays a seat that was freed (and is dee's now).
        assert again.until("error") == {
            "type": "error",
            "code": "removed",
            "message": REMOVED_BEFORE_THE_GAME,
        }


def test_a_player_removed_in_the_game_who_joins_again_by_name_is_told_the_host_removed_them() -> None:
    # Their kept token thrown away (kalooki join forgets it), they joined by name and read only that the
    # game had started and that its players rejoin from where they joined: they were one, and tried again.
    table = new_table(seats=2)
    with hosted(table) as host:
        bob, cid = Player(host.uri), Player(host.uri)
        bob.join(table.code, name="bob")
        cid.join(table.code, name="cid")  # the last seat taken: the game starts
        cid.until("state")
        assert host.call(host.server.remove, "bob").startswith("bob is removed: ")
        for name in ("bob", "BOB"):  # told apart as the table tells names apart
            back = Player(host.uri)
            back.send({"type": "join", "protocol": PROTOCOL_VERSION, "code": table.code, "name": name})
            refused = back.until("error")
            assert refused == {"type": "error", "code": "removed", "message": removed_in_the_game("bob")}
            assert refused["message"].startswith(
                "the host removed bob from this table: a bot plays bob's seat"
            )
        late = Player(host.uri)  # anyone else is a latecomer, as before
        late.send({"type": "join", "protocol": PROTOCOL_VERSION, "code": table.code, "name": "dee"})
        assert late.until("error")["code"] == "started"
        assert table.seats[0].kind == "bot"


def test_a_player_away_is_removed_too() -> None:
    # Away, the table waits for them: removed, it waits no more, and their token is refused.
    table = new_table(seats=2)  # waits 30 seconds for a player away
    with hosted(table) as host:
        bob, cid = Player(host.uri), Player(host.uri)
        bob.join(table.code, name="bob")
        cid.join(table.code, name="cid")  # the last seat taken: the game starts
        cid.until("state")
        bob.close()
        assert cid.until("presence")["status"] == "left"
        assert not host.call(table.stand_in, 0)
        assert host.call(host.server.remove, "bob").startswith("bob is removed: ")
        assert host.call(table.stand_in, 0)


KALOOKI = Path(sys.executable).with_name("kalooki")


def join_env(home: Path) -> dict[str, str]:
    """``kalooki join``'s environment: its tokens kept under ``home``, lines wide, no colour."""
    return {**os.environ, "KALOOKI_HOME": str(home), "COLUMNS": "300", "NO_COLOR": "1"}


def join_command(address: str, code: str, name: str) -> list[str]:
    return [str(KALOOKI), "join", address, "--code", code, "--name", name]


@contextmanager
def bob_removed_while_away(table: Table, env: dict[str, str]) -> Iterator[tuple[Host, str]]:
    """A table of two hosted, bob at ``kalooki join``, then cid (a scripted client): the game starts.
    bob's terminal is closed (his seat's token stays kept) and the host removes him while he is away;
    the host and its address."""
    with hosted(table) as host:
        address = f"127.0.0.1:{host.server.port}"
        join = subprocess.Popen(
            join_command(address, table.code, "bob"),
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            env=env,
        )
        try:
            deadline = time.monotonic() + TIMEOUT
            while table.seats[0].kind != "human":  # bob sat down
                assert time.monotonic() < deadline, "bob never sat down"
                time.sleep(0.05)
            cid = Player(host.uri)
            cid.join(table.code, name="cid")  # the last seat taken: the game starts
            cid.until("state")
        finally:
            join.kill()  # the terminal closed: bob is away
            join.wait(TIMEOUT)
            assert join.stdin is not None
            join.stdin.close()
        while cid.until("presence")["status"] != "left":
            pass
        assert host.call(host.server.remove, "bob").startswith("bob is removed: ")
        yield host, address


def test_kalooki_join_says_its_player_was_removed_and_forgets_the_seat(tmp_path: Path) -> None:
    # It said the connection was lost and how to rejoin a seat that was no longer theirs.
    table = new_table(seats=2, seed=31)
    env = join_env(tmp_path)
    with hosted(table) as host:
        address = f"127.0.0.1:{host.server.port}"
        join = subprocess.Popen(
            join_command(address, table.code, "bob"),
            stdin=subprocess.PIPE,  # held open: bob stays at the table until removed
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        try:
            uri, store = f"ws://{address}/", TokenStore(tmp_path / "tables")
            deadline = time.monotonic() + TIMEOUT
            while not store.seats(uri, table.code):  # sat down, the seat's token kept
                assert time.monotonic() < deadline, "bob never sat down"
                time.sleep(0.05)
            assert host.call(host.server.remove, "bob") == "bob is removed: their seat is free again"
            out, err = join.communicate(timeout=TIMEOUT)
        finally:
            join.kill()
    assert join.returncode == 1, err
    lines = out.splitlines()
    # Once: "✗ the host removed you from the table" came before it as well.
    assert lines[-1] == "The host removed you from the table.", out
    assert "✗" not in out
    assert "Rejoin" not in out
    assert store.seats(uri, table.code) == []


def test_a_player_removed_in_the_game_is_named_as_its_bot_on_the_others_terminals(tmp_path: Path) -> None:
    # Removed, bob's seat went on showing as a person's ("  bob   13 cards") to those at kalooki join,
    # the bot playing it unsaid, where the browser and the host's words said "greedy plays their seat".
    table = new_table(seats=2, seed=31)
    env = join_env(tmp_path)
    with hosted(table) as host:
        bob = Player(host.uri)
        bob.join(table.code, name="bob")  # seat 1, whose turn comes first: it does nothing
        address = f"127.0.0.1:{host.server.port}"
        join = subprocess.Popen(
            join_command(address, table.code, "cid"),
            stdin=subprocess.PIPE,  # held open: cid waits at the table until its turn
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        try:
            deadline = time.monotonic() + TIMEOUT
            while table.game is None:  # cid sat down: the game started
                assert time.monotonic() < deadline, "cid never sat down"
                time.sleep(0.05)
            bot = table.seats[0].bot
            assert host.call(host.server.remove, "bob").startswith("bob is removed")
            assert join.stdin is not None
            join.stdin.write("quit\n")  # read at cid's turn, once bob's bot has played
            join.stdin.flush()
            out, err = join.communicate(timeout=TIMEOUT)
        finally:
            join.kill()
    assert join.returncode == 0, err
    listed = [line.split() for line in out.splitlines() if line.lstrip("▶ ").startswith("bob ")]
    assert listed, out
    assert listed[-1][:3] == ["bob", f"({bot}", "bot)"], out


def test_kalooki_join_of_a_player_removed_while_away_says_so_each_time(tmp_path: Path) -> None:
    # Their kalooki join killed, bob was removed; back, the first join said their token took no seat, the
    # next only that the game had started and its players rejoin from where they joined.
    table = new_table(seats=2, seed=31)
    env = join_env(tmp_path)
    with bob_removed_while_away(table, env) as (_host, address):
        command = join_command(address, table.code, "bob")
        told = []
        for _ in range(2):
            again = subprocess.run(
                command, input="", capture_output=True, text=True, env=env, timeout=TIMEOUT, check=False
            )
            assert again.returncode == 1, again.stdout + again.stderr
            told.append(again.stdout + again.stderr)
    assert "the host removed you from this table: a bot plays your seat to the end of this game" in told[0]
    assert "the host removed bob from this table: a bot plays bob's seat to the end of this game" in told[1]
    for said in told:
        assert (
            "no one new can sit down or watch it; ask the host if you want to play at their next table"
            in said
        )
        assert "has started" not in said
        assert "Traceback" not in said


def test_a_player_removed_while_away_is_told_so_at_the_reopened_table(tmp_path: Path) -> None:
    # The host quit and reopened the table (kalooki host --resume): the removed token was not saved, so bob's
    # kalooki join, its token no seat's now, was told of the removal only by name ("bob") after a first
    # refusal, where a table not reopened says "you", as it does now.
    table = new_table(seats=2, seed=31)
    env = join_env(tmp_path)
    with bob_removed_while_away(table, env) as (host, address):
        saved = host.call(table.save_text)
    reopened = Table.resume(saved.encode())
    assert reopened.seats[0].removed
    with hosted(reopened, port=int(address.rpartition(":")[2])) as host:  # at the same address, as --resume
        run = {"input": "", "capture_output": True, "text": True, "env": env, "timeout": TIMEOUT}
        command = join_command(address, reopened.code, "bob")
        told = [subprocess.run(command, check=False, **run) for _ in range(2)]
    for again in told:
        assert again.returncode == 1, again.stdout + again.stderr
        assert "earlier table" not in again.stdout + again.stderr
        assert "has started" not in again.stdout + again.stderr
    said = [again.stdout + again.stderr for again in told]
    # As at the table before it was reopened: the token first, then (forgotten) the name.
    assert "the host removed you from this table: a bot plays your seat to the end of this game" in said[0]
    assert "the host removed bob from this table: a bot plays bob's seat to the end of this game" in said[1]


def test_a_removed_token_is_told_of_its_removal_at_the_reopened_table() -> None:
    # The reopened table answered a removed player's kept token bad_token: the browser said "Your seat here
    # is no longer known", and only a join by name then said the host had removed them.
    table = with_hosts_seat(new_table(seats=4))
    with hosted(table) as host:
        bob, cid, dee = Player(host.uri), Player(host.uri), Player(host.uri)
        bob.join(table.code, name="bob")
        cid.join(table.code, name="cid")
        assert host.call(host.server.remove, "cid") == "cid is removed: their seat is free again"
        dee.join(table.code, name="dee")
        eve = Player(host.uri)
        eve.join(table.code, name="eve")  # every seat taken (ann's kept for her): the game starts
        eve.until("state")
        assert host.call(host.server.remove, "bob").startswith("bob is removed: ")
        saved = host.call(table.save_text)
    reopened = Table.resume(saved.encode())
    with hosted(reopened) as host:
        for token, message in ((bob.token, REMOVED), (cid.token, REMOVED_BEFORE_THE_GAME)):
            back = Player(host.uri)
            back.send({"type": "join", "protocol": PROTOCOL_VERSION, "code": table.code, "token": token})
            assert back.until("error") == {"type": "error", "code": "removed", "message": message}
        assert host.call(reopened.seat_of_token, dee.token) is not None  # the others' seats are theirs still
