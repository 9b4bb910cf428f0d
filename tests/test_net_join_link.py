"""``kalooki join`` given the browser link its host prints, or an address pasted with a space around it."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from kalooki_cli.app import app
from typer.testing import CliRunner

pytest.importorskip("websockets")

from net_helpers import Player, hosted, new_table

KALOOKI = Path(sys.executable).with_name("kalooki")


def join(home: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """``kalooki join ARGUMENTS --name ann``, who quits at her first prompt."""
    env = {**os.environ, "KALOOKI_HOME": str(home), "COLUMNS": "200", "NO_COLOR": "1"}
    command = [str(KALOOKI), "join", *arguments, "--name", "ann"]
    return subprocess.run(command, input="quit\n", capture_output=True, text=True, env=env, timeout=60)


def beside_p0(home: Path, address: str, *code: str) -> str:
    """``kalooki join`` at a table of two where p0 (a client of the protocol, first to play) sits:
    ``address`` with its port for ``{port}`` and its code for ``{code}``, then ``code`` (``{code}`` too)."""
    table = new_table(seats=2, seed=31)
    with hosted(table) as host:
        p0 = Player(host.uri)
        p0.join(table.code, name="p0")
        threading.Thread(target=p0.play_until_over, daemon=True).start()  # ann's prompt comes at her turn
        given = [part.format(code=table.code) for part in code]
        done = join(home, address.format(port=host.server.port, code=table.code), *given)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_browser_link_the_host_prints_is_the_tables_address_and_its_code(tmp_path: Path) -> None:
    # It said "'ws://[http://127.0.0.1:P/?code=CODE]:8765/' is not a table's address: Invalid IPv6 URL".
    assert "You sit at seat 2 as ann." in beside_p0(tmp_path / "a", "http://127.0.0.1:{port}/?code={code}")
    # The same code in --code too, in any case.
    both = beside_p0(tmp_path / "b", "http://127.0.0.1:{port}/?code={code}", "--code", "{code}")
    assert "You sit at seat 2 as ann." in both


def test_an_address_pasted_with_spaces_round_it_is_the_address(tmp_path: Path) -> None:
    # " 127.0.0.1" was looked up as a computer's name, and not found.
    assert "You sit at seat 2 as ann." in beside_p0(tmp_path, " 127.0.0.1:{port} ", "--code", "{code}")


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (
            ["http://127.0.0.1:1/?code=BVWKRQ", "--code", "ABC123"],
            "Invalid value for '--code': the link's code is BVWKRQ, not ABC123: give one of them",
        ),
        (
            ["http://127.0.0.1:1"],
            "Invalid value for '--code': give the table's join code (--code CODE), or paste the link its "
            "host prints",
        ),
        (
            ["ftp://127.0.0.1:1/", "--code", "ABC123"],
            "Invalid value for 'HOST[:PORT]': 'ftp://127.0.0.1:1/' is not a table's address: give "
            "HOST[:PORT], or the http:// link its host prints",
        ),
        (
            ["http://127.0.0.1:99999/?code=ABC123"],
            "Invalid value for 'HOST[:PORT]': 'http://127.0.0.1:99999/?code=ABC123' is not a table's link: "
            "give http://HOST[:PORT]/?code=CODE",
        ),
    ],
)
def test_a_link_that_cannot_be_the_tables_is_a_usage_error(arguments: list[str], said: str) -> None:
    result = CliRunner().invoke(app, ["join", *arguments])
    assert result.exit_code == 2, result.output
    assert said in " ".join(result.output.replace("│", " ").split())


def test_an_https_link_to_a_plain_table_says_so(tmp_path: Path) -> None:
    # It printed OpenSSL's words alone: "[SSL: UNEXPECTED_EOF_WHILE_READING] EOF occurred in violation of
    # protocol (_ssl.c:1006)".
    table = new_table(seats=2, seed=31)
    with hosted(table) as host:
        port = host.server.port
        done = join(tmp_path, f"https://127.0.0.1:{port}/?code={table.code}")
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.splitlines() == [
        f"cannot reach the table at wss://127.0.0.1:{port}/: it does not answer over TLS "
        "(https://); a table that kalooki host serves itself is reached with http:// or no scheme"
    ]


@pytest.mark.parametrize(
    "arguments", [["127.0.0.1:1", "--code", ""], ["http://127.0.0.1:1/?code=ABC123", "--code", " "]]
)
def test_an_empty_code_is_a_usage_error(arguments: list[str]) -> None:
    # It was sent: "that is not this table's join code" (exit 1), and one of the address's ten wrong tries;
    # beside a link, "the link's code is ABC123, not  : give one of them".
    result = CliRunner().invoke(app, ["join", *arguments, "--name", "bob"])
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines()[-1] == (
        "Error: Invalid value for '--code': give the table's join code, not an empty one"
    )
