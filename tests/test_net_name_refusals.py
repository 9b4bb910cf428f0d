"""A name with a control character, refused for what it is: by ``kalooki join`` and ``kalooki host``
before any table is asked (a usage error, worded as ``kalooki play`` words it), and by the table to a
client that sends one.

The join said "the table refused to seat you: a name is one word of at most 20 characters" (exit 1) of a
name of 10 characters, where ``kalooki play --name`` said "a name holds no control characters".
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("websockets")

from kalooki_net.protocol import PROTOCOL_VERSION
from net_helpers import Player, hosted, new_table

KALOOKI = Path(sys.executable).with_name("kalooki")
EVIL = "ev\x1b[31mil"
REFUSAL = "a name holds no control characters, got 'ev\\x1b[31mil'"


def kalooki(home: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KALOOKI_HOME": str(home), "COLUMNS": "200", "NO_COLOR": "1"}
    return subprocess.run(
        [str(KALOOKI), *arguments], input="", capture_output=True, text=True, env=env, timeout=60, check=False
    )


def join_asking_no_table(home: Path, name: str) -> subprocess.CompletedProcess[str]:
    """``kalooki join --name NAME``, refused before it asks the table: no connection comes where it is."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        address = f"127.0.0.1:{listener.getsockname()[1]}"
        joined = kalooki(home, "join", address, "--code", "ABC234", "--name", name)
        listener.settimeout(0)
        with pytest.raises(BlockingIOError):
            listener.accept()
    return joined


def test_join_refuses_a_name_with_a_control_character_as_play_does_before_asking_the_table(
    tmp_path: Path,
) -> None:
    played = kalooki(tmp_path, "play", "--name", EVIL)
    assert played.returncode == 2
    assert REFUSAL in " ".join(played.stderr.split())
    joined = join_asking_no_table(tmp_path, EVIL)
    assert joined.returncode == 2, joined.stdout + joined.stderr
    said = " ".join(joined.stderr.split())
    assert f"Invalid value for '--name': {REFUSAL}" in said
    assert "Traceback" not in said
    assert "\x1b" not in joined.stdout + joined.stderr  # spelled out, never sent to the terminal
    assert not (tmp_path / "tables").exists()  # no seat kept


def test_host_refuses_its_own_name_with_a_control_character_before_opening_the_table(tmp_path: Path) -> None:
    hosting = kalooki(tmp_path, "host", "--name", EVIL, "--bind", "127.0.0.1", "--port", "0")
    assert hosting.returncode == 2, hosting.stdout + hosting.stderr
    assert f"Invalid value for '--name': {REFUSAL}" in " ".join(hosting.stderr.split())
    assert "Traceback" not in hosting.stdout + hosting.stderr


@pytest.mark.parametrize("name", ["you", "You", "\uff59\uff4f\uff55", "\u0443\u043eu"])
def test_host_and_join_refuse_you_as_a_name_at_once_as_every_other_fault_of_it(
    tmp_path: Path, name: str
) -> None:
    """The host said "'you' is what the screens call each player" with no word of --name, exit 1, once the
    table had been set up; the join asked the table first. Both now say it of --name, a usage error."""
    refusal = "Invalid value for '--name': 'you' is what the screens call each player: choose another name"
    hosting = kalooki(tmp_path, "host", "--name", name, "--bind", "127.0.0.1", "--port", "0")
    assert hosting.returncode == 2, hosting.stdout + hosting.stderr
    assert refusal in " ".join(hosting.stderr.split())
    assert not (tmp_path / "saves").exists()
    joined = join_asking_no_table(tmp_path, name)
    assert joined.returncode == 2, joined.stdout + joined.stderr
    assert refusal in " ".join(joined.stderr.split())


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        (EVIL, REFUSAL),
        ("ann\u202e", "a name holds no control characters, got 'ann\\u202e'"),  # turns the line's text around
        ("a\x7fb", "a name holds no control characters, got 'a\\x7fb'"),
        # Marks and joiners that show nothing: the refusal read 'ann', a name with nothing wrong in it.
        ("ann\u200e", "a name holds no control characters, got 'ann\\u200e'"),
        ("a\u200dnn", "a name holds no control characters, got 'a\\u200dnn'"),
        ("ann\u061c", "a name holds no control characters, got 'ann\\u061c'"),
        ("a b", "a name is one word of at most 20 characters"),  # the rule, as before
    ],
)
def test_the_table_tells_a_client_the_real_reason_for_a_name(name: str, reason: str) -> None:
    table = new_table(seats=2, seed=9)
    with hosted(table) as host:
        before = host.call(table.lobby)
        player = Player(host.uri)
        join = {"type": "join", "protocol": PROTOCOL_VERSION, "code": table.code, "name": name}
        player.websocket.send(json.dumps(join))
        reply = player.until("error")
        assert (reply["code"], reply["message"]) == ("bad_name", reason)
        assert host.call(table.lobby) == before
        player.close()


def login_env(home: Path, login: str) -> dict[str, str]:
    """The environment of a user whose login name is ``login``."""
    env = {**os.environ, "KALOOKI_HOME": str(home), "COLUMNS": "200", "NO_COLOR": "1"}
    env.update(LOGNAME=login, USER=login, LNAME=login, USERNAME=login)
    return env


@pytest.mark.parametrize("login", ["anne-marie", "first.last"])
def test_join_with_no_name_sits_down_under_a_login_name_the_table_takes(tmp_path: Path, login: str) -> None:
    """A login name with a hyphen or a dot was taken for no name, and the join asked for a seat as 'you',
    which the table refused: "'you' is what the screens call each player: choose another name"."""
    table = new_table(seats=2, seed=9)
    with hosted(table) as host:
        arguments = [str(KALOOKI), "join", f"127.0.0.1:{host.server.port}", "--code", table.code]
        joining = subprocess.Popen(
            arguments, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env=login_env(tmp_path, login),
        )  # fmt: skip
        assert joining.stdout is not None
        try:
            first = joining.stdout.readline()  # then it waits for the game
        finally:
            joining.kill()
            joining.wait(10)
    assert first == f"You sit at seat 1 as {login}.\n"


def test_join_with_no_name_and_a_login_name_that_is_none_is_told_to_give_one(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:  # where the table would be: not asked
        address = f"127.0.0.1:{listener.getsockname()[1]}"
        joined = subprocess.run(
            [str(KALOOKI), "join", address, "--code", "ABC234"], input="", capture_output=True, text=True,
            env=login_env(tmp_path, "ann smith"), timeout=60, check=False,
        )  # fmt: skip
        listener.settimeout(0)
        with pytest.raises(BlockingIOError):
            listener.accept()
    assert joined.returncode == 2, joined.stdout + joined.stderr
    assert " ".join(joined.stderr.split()).endswith(
        "Error: Invalid value for '--name': your login name is no name at a table (one word of at most 20 "
        "characters that show, not 'you'): give yours"
    )
