"""SIGTERM and SIGHUP stop a game at the keyboard as Ctrl-C does: saved, said, and the players told.

Left to their default, either signal ended ``kalooki play`` and ``kalooki host`` without a word: the
game was saved (after every move) but nothing said so, and a host's guests read that their connection
was lost, as if a network had failed, rather than that the table closed.
"""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from kalooki_cli.saves import read_save
from kalooki_cli.stop_signals import Terminated, stopped_by, stopped_status
from test_play_pty import Terminal, environment

from kalooki.savegame import SAVE_SUFFIX

if TYPE_CHECKING:
    from net_helpers import Player

SIGNALS = [
    pytest.param(signal.SIGTERM, "Terminated \\(SIGTERM\\)", 143, id="SIGTERM"),
    pytest.param(signal.SIGHUP, "Hung up \\(SIGHUP\\)", 129, id="SIGHUP"),
]


def test_each_stop_has_its_words_and_the_shells_status() -> None:
    assert (stopped_by(KeyboardInterrupt()), stopped_status(KeyboardInterrupt())) == ("Interrupted", 130)
    assert (stopped_by(Terminated(signal.SIGTERM)), stopped_status(Terminated())) == (
        "Terminated (SIGTERM)",
        143,
    )
    hung_up = Terminated(signal.SIGHUP)
    assert (stopped_by(hung_up), stopped_status(hung_up)) == ("Hung up (SIGHUP)", 129)


@pytest.mark.parametrize(("signum", "said", "status"), SIGNALS)
def test_a_signal_at_the_play_prompt_says_the_game_is_saved_and_it_resumes(
    tmp_path: Path, signum: int, said: str, status: int
) -> None:
    env = environment(tmp_path)
    terminal = Terminal(["play", "--seed", "31", "--fast"], env)
    try:
        terminal.read_until(r"draw> ")
        terminal.type("ds\n")
        terminal.read_until(r"play> ")
        (save,) = (tmp_path / "saves").glob(f"*{SAVE_SUFFIX}")
        drawn = read_save(save).game.to_json()
        terminal.send_signal(signum)
        assert terminal.wait() == status
    finally:
        terminal.kill()
    screen = re.sub(r"\s+", " ", terminal.output)
    assert re.search(rf"{said}: the game is saved in {re.escape(str(save))}", screen)
    assert f"kalooki resume {save}" in screen
    assert "Traceback" not in terminal.output
    assert read_save(save).game.to_json() == drawn  # the save made after the draw, as it was

    resumed = Terminal(["resume", "--fast"], env)
    try:
        resumed.read_until(r"play> ")  # mid-turn, after the draw, as it stopped
        resumed.type("quit\n")
        assert resumed.wait() == 0
    finally:
        resumed.kill()


JOIN_LINE = re.compile(r"kalooki join 127\.0\.0\.1:(\d+) --code (\w+)")


def bob_joins(host: Terminal, prompt: str) -> tuple[Player, str]:
    """bob, a scripted player, takes a seat at the table ``host`` opened, once it shows ``prompt``; bob
    and the table's port."""
    pytest.importorskip("websockets")
    from net_helpers import Player

    found = JOIN_LINE.search(host.read_until(prompt))
    assert found is not None
    guest = Player(f"ws://127.0.0.1:{found.group(1)}/")
    guest.join(found.group(2), name="bob")
    return guest, found.group(1)


def test_sigterm_to_a_host_in_a_game_closes_the_table_and_tells_the_guests(tmp_path: Path) -> None:
    from net_helpers import says_reopen

    arguments = ["host", "--bind", "127.0.0.1", "--port", "0", "--seats", "2", "--name", "ann"]
    terminal = Terminal([*arguments, "--bot-pause", "0"], environment(tmp_path))
    guest: Player | None = None
    try:
        guest, port = bob_joins(terminal, r"start> ")
        guest.until("state")
        terminal.read_until(r"\[table\] The game starts: press Enter to sit down\.")
        terminal.type("\n")
        terminal.read_until(r"(draw|play)> ")
        os.kill(terminal.pid, signal.SIGTERM)  # its main thread waits on the table's messages and the keys
        # The guest hears the table close, as when the host quits, not that its connection was lost.
        assert guest.until("closing")["reason"] == "the host stopped"
        assert terminal.wait() == 143
    finally:
        terminal.kill()
        if guest is not None:
            guest.close()
    after = terminal.output[terminal.matched :]
    assert "Terminated (SIGTERM): the table is closed, and the game is saved." in after
    (save,) = (tmp_path / "saves").glob(f"*{SAVE_SUFFIX}")
    reopen = f"kalooki host --resume {save} --bind 127.0.0.1 --bot-pause 0 --port {port}"
    assert says_reopen(after, reopen)
    assert "Traceback" not in terminal.output


def test_a_host_whose_terminal_closes_tells_its_guests_the_table_closed(tmp_path: Path) -> None:
    # The window closed: SIGHUP, and nothing can be written to the terminal any more. The command ended
    # on failing to say so ("cannot write the output", exit 1); the guests must still be told.
    arguments = ["host", "--watch", "--bind", "127.0.0.1", "--port", "0", "--seats", "2"]
    terminal = Terminal(arguments, environment(tmp_path))
    guest: Player | None = None
    try:
        guest, _port = bob_joins(terminal, r"table> ")
        terminal.read_until(r"bob joined the table\.\ntable> ")
        assert terminal.hang_up() == 129
        assert guest.until("closing")["reason"] == "the host stopped"
    finally:
        terminal.kill()
        if guest is not None:
            guest.close()


# A SIGHUP ignored by whoever started the host (``trap '' HUP``) stays ignored.
IGNORING_SIGHUP = (
    "import os, signal, sys; signal.signal(signal.SIGHUP, signal.SIG_IGN); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)


def test_a_host_run_with_sighup_ignored_keeps_its_table_until_sigterm(tmp_path: Path) -> None:
    pytest.importorskip("websockets")
    kalooki = Path(sys.executable).with_name("kalooki")
    arguments = ["-c", IGNORING_SIGHUP, str(kalooki), "host", "--watch", "--bind", "127.0.0.1", "--port", "0"]
    terminal = Terminal(arguments, environment(tmp_path), program=Path(sys.executable))
    try:
        terminal.read_until(r"table> ")
        terminal.send_signal(signal.SIGHUP)
        terminal.type("help\n")  # still there, and still answering
        terminal.read_until(r"help\nType start to begin [^>]*table> ")
        terminal.send_signal(signal.SIGTERM)
        assert terminal.wait() == 143
    finally:
        terminal.kill()
    assert "Terminated (SIGTERM): the table is closed." in terminal.output
    assert "Hung up" not in terminal.output


def test_sigterm_to_a_guest_in_the_lobby_leaves_the_seat_and_says_so(tmp_path: Path) -> None:
    pytest.importorskip("websockets")
    from net_helpers import Player, hosted, new_table

    table = new_table(seats=3, seed=31)
    with hosted(table) as host:
        first = Player(host.uri)
        first.join(table.code, name="p0")
        env = {**os.environ, "KALOOKI_HOME": str(tmp_path), "TERM": "xterm", "COLUMNS": "80", "LINES": "24"}
        address = f"127.0.0.1:{host.server.port}"
        terminal = Terminal(["join", address, "--code", table.code, "--name", "ann"], env)
        try:
            terminal.read_until("Waiting for the game...")
            os.kill(terminal.pid, signal.SIGTERM)  # its main thread waits on the table's messages
            terminal.read_until(r"Terminated \(SIGTERM\): you left the table before the game started\.")
            assert terminal.wait() == 143
        finally:
            terminal.kill()
            first.close()
        assert host.call(lambda: [seat.kind for seat in host.table.seats]) == ["human", "open", "open"]
