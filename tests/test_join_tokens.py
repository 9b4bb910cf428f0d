"""A seat token ``kalooki join`` cannot keep (``KALOOKI_HOME`` a file, a full disk): one line saying so,
and the game goes on; never a traceback that leaves the seat taken, dropped, and held against its player."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytest.importorskip("websockets")

from kalooki_net import client
from kalooki_net.client import UNKEPT, TokenStore
from kalooki_net.table import Table
from net_helpers import Player, hosted, new_table

KALOOKI = Path(sys.executable).with_name("kalooki")
TABLE = "ws://127.0.0.1:8765"
CODE = "7KQ2MX"


def join_as_bob(table: Table, home: Path) -> tuple[subprocess.CompletedProcess[str], str]:
    """``kalooki join`` as bob at ``table`` (a bot's connection plays seat 1), with ``home`` for
    ``KALOOKI_HOME``, quitting at the first prompt: what it printed, and the address it joined."""
    env = {**os.environ, "KALOOKI_HOME": str(home), "COLUMNS": "300", "NO_COLOR": "1"}
    with hosted(table) as host:
        bot = Player(host.uri)
        bot.join(table.code, name="p0")
        threading.Thread(target=bot.play_until_over, daemon=True).start()
        address = f"127.0.0.1:{host.server.port}"
        join = subprocess.run(
            [str(KALOOKI), "join", address, "--code", table.code, "--name", "bob"],
            input="quit\n",
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
    return join, address


def test_a_token_that_cannot_be_written_is_told_not_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(*arguments: object, **options: object) -> tuple[int, str]:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(client.tempfile, "mkstemp", full)
    told: list[str] = []
    store = TokenStore(tmp_path, tell=told.append)
    said = f"{tmp_path}: this seat's token cannot be kept (No space left on device); {UNKEPT}"
    assert store.keep(TABLE, CODE, "ab" * 16, 1, "bob") == said
    assert told == [said]
    store.forget(TABLE, CODE, "ab" * 16)  # nothing kept, nothing to forget: quietly
    assert store.seats(TABLE, CODE) == []


def test_a_token_store_whose_folder_is_a_file_is_told_not_raised(tmp_path: Path) -> None:
    (tmp_path / "homefile").write_text("x\n")
    folder = tmp_path / "homefile" / "tables"
    said = f"{folder}: this seat's token cannot be kept (Not a directory); {UNKEPT}"
    assert TokenStore(folder).keep(TABLE, CODE, "ab" * 16, 1, "bob") == said


def test_join_with_its_home_a_file_says_so_before_it_sits_and_plays_on(tmp_path: Path) -> None:
    # It sat, then ended in a traceback (NotADirectoryError): the table held the seat, dropped, against
    # the player ("someone at the table is already called bob") for the whole wait.
    home = tmp_path / "homefile"
    home.write_text("x\n")
    join, _ = join_as_bob(new_table(seats=2, seed=31), home)
    assert join.returncode == 0, join.stderr
    assert join.stderr.splitlines() == [
        f"{home}: is a file, where kalooki keeps the seats it joined in a folder: "
        f"this seat's token cannot be kept; {UNKEPT}"
    ]
    assert "You sit at seat 2 as bob." in join.stdout


def test_the_game_screen_says_how_to_take_the_seat_back_before_any_drop(tmp_path: Path) -> None:
    # A window closed or a laptop that died says nothing after: the friend met only "You sit at seat 2 as
    # bob." and had to ask for the address and the code again.
    table = new_table(seats=2, seed=31)
    join, address = join_as_bob(table, tmp_path)
    assert join.returncode == 0, join.stderr
    lines = join.stdout.splitlines()
    told = (
        f"If you drop out, your seat comes back with: kalooki join {address} --code {table.code} --name bob"
    )
    assert told in lines, join.stdout
    hands = [index for index, line in enumerate(lines) if line.startswith("Your hand")]
    assert hands, join.stdout
    assert lines.index(told) < hands[0], join.stdout  # said as the game starts
