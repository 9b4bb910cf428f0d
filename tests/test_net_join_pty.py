"""``kalooki join`` at a terminal: the keyboard works during another turn (say, look, score, quit)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")

from net_helpers import (
    TIMEOUT,
    Host,
    Player,
    bot_plays_until_the_hand_ends,
    hosted,
    new_table,
    with_hosts_seat,
)
from test_play_pty import Terminal
from websockets.exceptions import ConnectionClosed

SUITS = str.maketrans({"♣": "C", "♦": "D", "♥": "H", "♠": "S"})


def ann_joins(host: Host, home: Path) -> Terminal:
    """``kalooki join`` as ann, on a pseudo-terminal of 80 by 24."""
    env = {**os.environ, "KALOOKI_HOME": str(home), "TERM": "xterm", "COLUMNS": "80", "LINES": "24"}
    address = f"127.0.0.1:{host.server.port}"
    return Terminal(["join", address, "--code", host.table.code, "--name", "ann"], env)


@contextmanager
def ann_beside_p0(home: Path, seats: int, **knobs: Any) -> Iterator[tuple[Host, Player, Terminal]]:
    """A table of ``seats`` (classic with ``knobs``): p0, a scripted client, sits first, then ann at
    ``kalooki join`` on a pty."""
    table = new_table(seats=seats, seed=31, **knobs)
    with hosted(table) as host:
        p0 = Player(host.uri)
        p0.join(table.code, name="p0")
        terminal = ann_joins(host, home)
        try:
            yield host, p0, terminal
        finally:
            terminal.kill()


def up_to_anns_draw(terminal: Terminal, p0: Player) -> None:
    """p0, first to play, draws and discards: ann's terminal asks for her draw."""
    terminal.read_until("p0 is playing")
    for _ in range(2):
        p0.until("state")
        p0.send({"type": "move", "move": p0.next_move()})
    terminal.read_until("draw> ")


def test_say_during_another_players_turn_then_play_and_quit(tmp_path: Path) -> None:
    table = new_table(seats=2, seed=31)
    with hosted(table) as host:
        bot = Player(host.uri)
        bot.join(table.code, name="p0")

        heard: list[str] = []

        def wait_for_hello_then_play() -> None:
            # Seat 0 plays first, but not before hearing from ann: her words come during its turn.
            message = bot.receive()
            while message["type"] != "said":
                message = bot.receive()
            heard.append(message["text"])
            # Once ann has left, the table waits for her and this player's reads time out: that ends it.
            with contextlib.suppress(TimeoutError, ConnectionClosed):
                bot.play_until_over()

        threading.Thread(target=wait_for_hello_then_play, daemon=True).start()
        terminal = ann_joins(host, tmp_path)
        try:
            terminal.read_until("You sit at seat 2 with p0")
            # Seated while another player thinks: ann sees her hand at once, and again on look or Enter.
            terminal.read_until(r"Your hand \(13\)[^\n]*\np0 is playing")
            terminal.type("look\n")
            terminal.read_until(r"Your hand \(13\)[^\n]*\np0 is playing")
            terminal.type("\n")
            terminal.read_until(r"Your hand \(13\)[^\n]*\np0 is playing")
            terminal.type("ds\n")  # not ann's turn: refused, nothing sent
            terminal.read_until("wait for your turn: p0 is playing")
            # Text that is no move is said so whoever's turn it is, as at the page and at one's own turn.
            terminal.type("blah\n")
            terminal.read_until("'blah' is not a command: type help for the list")
            terminal.type("say hello there\n")
            terminal.read_until("you: hello there")
            terminal.read_until("p0 .*discards")  # the bot heard it and played its turn
            terminal.read_until("draw>")
            terminal.type("score\n")
            terminal.read_until("total")
            terminal.type("quit\n")
            terminal.read_until("you left the table")
            assert terminal.wait() == 0
        finally:
            terminal.kill()
    assert heard == ["hello there"]


def test_hint_and_undo_during_another_players_turn_wait_for_ones_own(tmp_path: Path) -> None:
    # Typed while p0 played, both read "'hint' is not a command (did you mean 'hint'?)", though help on the
    # same screen listed them and ds typed then was told to wait for one's turn.
    with ann_beside_p0(tmp_path, seats=2) as (_host, _p0, terminal):
        terminal.read_until("p0 is playing")
        for typed, word in (("hint", "hint"), ("HINT", "hint"), ("undo", "undo"), ("u", "u")):
            terminal.type(f"{typed}\n")
            terminal.read_until(
                re.escape(f"✗ {word} works on your turn: p0 is playing (say TEXT talks to the table)")
            )
        terminal.type("quit\n")
        terminal.read_until("you left the table")
        assert terminal.wait() == 0
    assert "did you mean" not in terminal.output
    assert "not a command" not in terminal.output


def test_a_line_typed_once_ready_between_hands_says_the_deal_waits_not_that_someone_plays(
    tmp_path: Path,
) -> None:
    # Ready between hands, ds typed said "wait for your turn: p0 is playing": no one was playing.
    table = new_table(seats=2, seed=3, hand_size=7, opening_threshold=0)
    with hosted(table) as host:
        p0 = Player(host.uri)
        p0.join(table.code, name="p0")
        threading.Thread(target=bot_plays_until_the_hand_ends, args=(p0,), daemon=True).start()
        env = {
            **os.environ,
            "KALOOKI_HOME": str(tmp_path),
            "TERM": "xterm",
            "COLUMNS": "200",
            "NO_COLOR": "1",
        }
        address = f"127.0.0.1:{host.server.port}"
        terminal = Terminal(["join", address, "--code", table.code, "--name", "ann"], env)
        try:
            # ann draws from the stock and throws back her hand's first card until p0 goes out.
            while "Press Enter" not in terminal.read_until(
                r"draw> |play> |Press Enter when you are ready for hand 2", 60
            ):
                if terminal.output.endswith("draw> "):
                    terminal.type("ds\n")
                else:
                    hand = [line for line in terminal.output.splitlines() if line.startswith("Your hand (")]
                    card = hand[-1].partition(": ")[2].split()[0].rstrip("*").replace("10", "T")
                    terminal.type(f"d {card.translate(SUITS)}\n")
            terminal.read_until(r"\(or score, say TEXT, rules, help, quit\): ")
            terminal.type("\n")  # ready: the deal waits for p0, who is never ready
            terminal.read_until("Waiting for p0 to be ready")
            terminal.type("ds\nhint\n")
            terminal.read_until(re.escape("✗ wait for your turn: the next hand is not dealt yet (say TEXT"))
            terminal.read_until(
                re.escape("✗ hint works on your turn: the next hand is not dealt yet (say TEXT")
            )
            terminal.type("quit\n")
            terminal.read_until("you left the table")
            assert terminal.wait() == 0
        finally:
            terminal.kill()
            p0.close()
    assert "is playing (say TEXT" not in terminal.output


def test_what_another_player_says_cannot_drive_the_terminal(tmp_path: Path) -> None:
    # An escape sequence that would retitle the window and one that would clear the screen, and a
    # newline that would print a line of its own: all shown spelled out, on the speaker's one line.
    words = "\x1b]0;owned\x07 \x1b[2Jhello\nYour turn"
    table = new_table(seats=2, seed=31)
    with hosted(table) as host:
        speaker = Player(host.uri)
        speaker.join(table.code, name="p0")

        def speak_once_seated() -> None:
            with contextlib.suppress(TimeoutError, ConnectionClosed):
                speaker.until("state")  # ann has sat down: the game has started
                speaker.send({"type": "say", "text": words})

        threading.Thread(target=speak_once_seated, daemon=True).start()
        terminal = ann_joins(host, tmp_path)
        try:
            terminal.read_until(re.escape(r"p0: \x1b]0;owned\x07 \x1b[2Jhello\nYour turn"))
            assert "\x1b" not in terminal.output  # what is left once the screen's own colours are read
            assert "\x07" not in terminal.output
            terminal.type("quit\n")
            terminal.read_until("you left the table")
            assert terminal.wait() == 0
        finally:
            terminal.kill()


def test_say_and_quit_work_while_the_table_waits_for_the_game(tmp_path: Path) -> None:
    # In the lobby the keyboard was not read: "say" went out only once the game had started, and
    # "quit" did nothing (Ctrl-C alone left, silently).
    with ann_beside_p0(tmp_path, seats=3) as (host, first, terminal):
        terminal.read_until("Waiting for the game...")
        terminal.type("say who brought snacks?\n")
        terminal.read_until("you: who brought snacks?")
        said = first.until("said")
        assert (said["name"], said["text"]) == ("ann", "who brought snacks?")
        first.send({"type": "say", "text": "bob did"})
        terminal.read_until("p0: bob did")
        terminal.type("ds\n")
        terminal.read_until(r"The game has not started: say TEXT talks to the table, quit leaves it\.")
        terminal.type("quit\n")
        terminal.read_until("You left the table before the game started.")
        assert terminal.wait() == 0
        assert "ann: who brought snacks?" not in terminal.output  # said once, as "you"
        left = first.until("presence")
        assert (left["name"], left["status"]) == ("ann", "left")
        assert host.call(lambda: [seat.kind for seat in host.table.seats]) == ["human", "open", "open"]


def test_a_guest_who_types_start_while_the_table_waits_is_told_only_the_host_starts_it(
    tmp_path: Path,
) -> None:
    # It read "The game has not started: say TEXT talks to the table, quit leaves it.", as any word does:
    # the guest, who had seen the host told to type start, did not know it was not theirs to type.
    table = with_hosts_seat(new_table(seats=3, seed=31))
    with hosted(table) as host:
        env = {**os.environ, "KALOOKI_HOME": str(tmp_path), "TERM": "xterm", "COLUMNS": "80", "LINES": "24"}
        address = f"127.0.0.1:{host.server.port}"
        terminal = Terminal(["join", address, "--code", table.code, "--name", "bob"], env)
        try:
            terminal.read_until("Waiting for the game...")
            terminal.type("Start\n")
            terminal.read_until(
                r"Only ann \(the host\) can start the game, or it starts when every seat is taken:\s+say"
                r"\s+TEXT\s+asks them to, quit leaves the table\."
            )
            terminal.type("ds\n")  # any other word: as before
            terminal.read_until(r"The game has not started: say TEXT talks to the table, quit leaves it\.")
            assert host.call(lambda: table.game) is None
            terminal.type("quit\n")
            assert terminal.wait() == 0
        finally:
            terminal.kill()


def test_a_line_told_at_the_prompt_is_followed_by_the_prompt_again(tmp_path: Path) -> None:
    # What another player said came after "draw> " on its line, and the prompt was not shown again:
    # the player typed their move on a bare line, not knowing whether the game still asked for it.
    # Then it came on the prompt's line ("draw> p0: your go"), as if typed there.
    with ann_beside_p0(tmp_path, seats=2) as (_host, bot, terminal):
        up_to_anns_draw(terminal, bot)
        bot.send({"type": "say", "text": "your go"})
        said = terminal.read_until(r"p0: your go\ndraw> ")
        assert said == "\np0: your go\ndraw> "  # below the prompt, on its own line, then the prompt again
        terminal.type("quit\n")
        terminal.read_until("you left the table")
        assert terminal.wait() == 0


def test_a_player_who_leaves_the_lobby_is_told_apart_from_one_who_dropped(tmp_path: Path) -> None:
    # Both were "dropped out: the table waits for them", though a seat left on purpose is free at once.
    with ann_beside_p0(tmp_path, seats=4) as (host, _first, terminal):
        terminal.read_until("waiting> ")
        eve = Player(host.uri)
        eve.join(host.table.code, name="eve")
        terminal.read_until("eve joined the table.")
        eve.send({"type": "leave"})
        terminal.read_until(r"eve left the table\.")
        cid = Player(host.uri)
        cid.join(host.table.code, name="cid")
        terminal.read_until("cid joined the table.")
        cid.close()
        terminal.read_until(r"cid dropped out: the table waits for them\.")
        terminal.type("quit\n")
        assert terminal.wait() == 0


def test_ctrl_c_while_the_table_waits_for_the_game_leaves_it_and_says_so(tmp_path: Path) -> None:
    # Ctrl-C in the lobby ended kalooki join without a word, and the seat was left as a dropped one.
    with ann_beside_p0(tmp_path, seats=3) as (host, first, terminal):
        terminal.read_until("Waiting for the game...")
        terminal.type("\x03")  # the main thread waits on the table's messages, not in a read of the keyboard
        terminal.read_until("Interrupted: you left the table before the game started.")
        assert terminal.wait() == 130
        left = first.until("presence")
        while left["status"] != "left":
            left = first.until("presence")
        assert left["name"] == "ann"
        assert host.call(lambda: [seat.kind for seat in host.table.seats]) == ["human", "open", "open"]


def test_a_guest_waiting_for_the_game_is_told_who_starts_it_and_has_a_prompt(tmp_path: Path) -> None:
    # "Waiting for the game..." and then nothing: no prompt, and no word of who starts the game or
    # that say and quit work meanwhile (a line typed there was the first to tell).
    with ann_beside_p0(tmp_path, seats=3) as (_host, first, terminal):
        told = terminal.read_until(r"waiting> ")
        assert "Waiting for the game...\nThe host starts it, or it starts when every seat is taken." in told
        assert "say TEXT talks to the table, quit leaves it." in " ".join(told.split())
        first.send({"type": "say", "text": "snacks?"})
        # Told below the prompt, on a line of its own, then the prompt again.
        assert terminal.read_until(r"waiting> ") == "\np0: snacks?\nwaiting> "
        terminal.type("\n")
        terminal.read_until(r"waiting> ")
        terminal.type("quit\n")
        terminal.read_until("You left the table before the game started.")
        assert terminal.wait() == 0


def test_a_table_closed_while_the_prompt_waits_is_said_below_the_prompt(tmp_path: Path) -> None:
    # It came on the prompt's line, "draw> The table is closed: the host stopped.", as if typed there.
    with ann_beside_p0(tmp_path, seats=2) as (host, bot, terminal):
        up_to_anns_draw(terminal, bot)
        asyncio.run_coroutine_threadsafe(host.server.close("the host stopped"), host.loop).result(TIMEOUT)
        closed = terminal.read_until(r"The table is closed: the host stopped\.")
        assert closed.startswith("\nThe table is closed: the host stopped.\n"), closed
        assert terminal.wait() == 1


@pytest.mark.parametrize(
    ("act", "told"),
    [
        ("remove", "✗ the host removed you from the table: a bot plays your seat to the end\n"),
        ("drop", "✗ the host dropped your connection: the table waits 30 seconds for you"),
    ],
)
def test_a_seat_the_host_drops_or_removes_at_the_prompt_is_told_below_the_prompt(
    tmp_path: Path, act: str, told: str
) -> None:
    # It came on the prompt's line, "draw> ✗ the host removed you from the table", as if typed there.
    with ann_beside_p0(tmp_path, seats=2) as (host, bot, terminal):
        up_to_anns_draw(terminal, bot)
        assert host.call(getattr(host.server, act), "ann").startswith("ann")
        said = terminal.read_until(re.escape(told))
        assert said.startswith(f"\n{told}"), said
        assert terminal.wait() == 1
        if act == "remove":  # told once: "The host removed you from the table." came after it as well
            with contextlib.suppress(AssertionError):  # the program's end: what it printed is all read
                terminal.read_until("never printed", timeout=5)
            assert "The host removed you from the table." not in terminal.output


def test_draw_alone_draws_from_the_stock_where_the_discard_is_never_taken(tmp_path: Path) -> None:
    # kalooki play took it so (czech-500), but kalooki join checked the line itself and refused it: "write
    # draw stock or draw discard (ds or dd)", offering a draw the table then refused too.
    with ann_beside_p0(tmp_path, seats=2, discard_draw="never") as (_host, p0, terminal):
        up_to_anns_draw(terminal, p0)
        terminal.type("draw\n")
        drawn = terminal.read_until("play> ")
        assert "You draw" in drawn, drawn
        assert "draw stock or draw discard" not in drawn
