"""``say`` longer than a table takes (300 characters): refused in one line, never cut without a word."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("websockets")

from test_net_host_process import piped_host
from test_net_join_cli import ann_beside_p0 as ann_piped_beside_p0
from test_net_join_pty import ann_beside_p0

REFUSED = "✗ say takes at most 300 characters, and this is 301: nothing was sent"


def test_the_playing_host_is_told_a_line_too_long_to_say_at_its_lobby_prompt(tmp_path: Path) -> None:
    # The host's start> prompt sent the first 300 characters and said nothing of the rest.
    with piped_host(tmp_path, "--seats", "3") as (keyboard, printed, guest):
        printed.until("[table] bob joined the table.")
        keyboard.write(f"say {'a' * 301}\nsay {'b' * 300}\nquit\n".encode())
        keyboard.flush()
        printed.until(REFUSED)
        said = guest.until("said")
        assert said["text"] == "b" * 300  # the longest line there is, said whole; the longer one not at all


def test_a_guest_waiting_for_the_game_is_told_a_line_too_long_to_say(tmp_path: Path) -> None:
    with ann_beside_p0(tmp_path, seats=3) as (_host, first, terminal):
        terminal.read_until("Waiting for the game...")
        terminal.type(f"say {'c' * 301}\n")
        terminal.read_until(REFUSED)
        terminal.type("say short\n")
        assert first.until("said")["text"] == "short"


def test_a_line_too_long_to_say_in_the_game_is_refused(tmp_path: Path) -> None:
    with ann_piped_beside_p0(tmp_path) as join:
        out = join(f"say {'d' * 301}\nquit\n")
    assert REFUSED in out
    assert "you: ddd" not in out


def test_a_line_that_shows_nothing_is_refused_before_it_is_sent(tmp_path: Path) -> None:
    # It was shown as "you: " and nothing, then refused by the table: the player saw it said.
    with ann_piped_beside_p0(tmp_path) as join:
        out = join("say \u200b\u3164\nquit\n")
    assert "✗ say what? that line shows nothing: nothing was sent" in out
    assert "you:" not in out
