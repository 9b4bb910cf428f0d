"""``kalooki host`` at a terminal, at its lobby prompt: help, quit, Ctrl-C, a game that starts by itself."""

from __future__ import annotations

import json
import re
import shutil
import threading
from pathlib import Path

import pytest

pytest.importorskip("websockets")

from net_helpers import Player
from test_play_pty import Terminal, environment

JOIN_LINE = re.compile(r"kalooki join 127\.0\.0\.1:(\d+) --code (\w+)")


def open_table(home: Path, seats: int = 2) -> tuple[Terminal, str, str]:
    arguments = ["host", "--bind", "127.0.0.1", "--port", "0", "--seats", str(seats), "--name", "ann"]
    terminal = Terminal([*arguments, "--bot-pause", "0"], environment(home))
    found = JOIN_LINE.search(terminal.read_until(r"start> "))
    assert found is not None
    return terminal, f"ws://127.0.0.1:{found.group(1)}/", found.group(2)


def test_the_lobby_prompt_answers_help_and_quit(tmp_path: Path) -> None:
    terminal, _uri, _code = open_table(tmp_path)
    try:
        terminal.type("help\n")
        terminal.read_until(r"Type start to begin now \(bots take the empty seats\), say TEXT to talk to the")
        terminal.type("quit\n")
        terminal.read_until("The table is closed")
        assert terminal.wait() == 0
    finally:
        terminal.kill()


def test_a_host_on_the_ipv6_loopback_reaches_its_own_table(tmp_path: Path) -> None:
    # Its own seat connected to 127.0.0.1 whatever the table listened on: "cannot reach the table".
    arguments = ["host", "--bind", "::1", "--port", "0", "--seats", "2", "--name", "ann", "--bot-pause", "0"]
    terminal = Terminal(arguments, environment(tmp_path))
    try:
        assert "kalooki join [::1]:" in terminal.read_until(r"start> ")
        terminal.type("quit\n")
        terminal.read_until("The table is closed")
        assert terminal.wait() == 0
    finally:
        terminal.kill()


def test_ctrl_c_at_the_lobby_prompt_closes_the_table_and_says_so(tmp_path: Path) -> None:
    terminal, _uri, _code = open_table(tmp_path)
    try:
        terminal.interrupt()
        terminal.read_until("Interrupted: the table is closed")
        assert terminal.wait() == 130
    finally:
        terminal.kill()


@pytest.mark.parametrize("close", ["quit\n", "\x04"], ids=["quit", "end of input"])
def test_a_host_closing_its_lobby_says_it_closed_and_not_that_the_table_waits(
    tmp_path: Path, close: str
) -> None:
    # "[table] bob dropped out: the table waits for them." followed "The table is closed.", and Ctrl-D
    # said nothing but that.
    terminal, uri, code = open_table(tmp_path, seats=3)
    guest = Player(uri)
    try:
        guest.join(code, name="bob")
        terminal.read_until(r"\[table\] bob joined the table\.\nstart> ")
        terminal.type(close)
        guest.until("closing")
        assert terminal.wait() == 0
    finally:
        terminal.kill()
        guest.close()
    after = terminal.output[terminal.matched :]
    assert "The table is closed." in after or "End of input: the table is closed." in after
    assert "dropped out" not in after


def game_started_by_a_guest(terminal: Terminal, uri: str, code: str) -> Player:
    """bob takes the last seat while the host waits at its lobby prompt; the game starts."""
    guest = Player(uri)
    guest.join(code, name="bob")
    guest.until("state")
    terminal.read_until(r"\[table\] The game starts: press Enter to sit down\.")
    return guest


def host_at_the_play_prompt(terminal: Terminal, uri: str, code: str) -> Player:
    """The game started by a guest, and the host sat down at its play prompt."""
    guest = game_started_by_a_guest(terminal, uri, code)
    terminal.type("\n")
    terminal.read_until(r"(draw|play)> ")
    return guest


def test_a_line_typed_as_the_game_starts_by_itself_goes_to_the_game(tmp_path: Path) -> None:
    # The last seat is taken while the host sits at its lobby prompt: what it types next is for the game.
    terminal, uri, code = open_table(tmp_path)
    try:
        game_started_by_a_guest(terminal, uri, code)
        terminal.type("score\n")
        terminal.read_until(r"hand +ann \(you\) +bob")  # the score sheet: the line was a command of the game
        terminal.type("quit\n")
        terminal.read_until("the table is closed, and the game is saved")
        assert terminal.wait() == 0
    finally:
        terminal.kill()


def test_when_the_host_quits_the_guests_hear_only_that_the_table_closed(tmp_path: Path) -> None:
    terminal, uri, code = open_table(tmp_path)
    try:
        guest = host_at_the_play_prompt(terminal, uri, code)
        heard = len(guest.received)
        terminal.type("help\n")  # quit's row says what it does at the host's own table
        terminal.read_until(r"quit \| q \| exit +close the table; the game stays saved for kalooki")
        terminal.type("quit\n")
        guest.until("closing")
        terminal.read_until("the table is closed, and the game is saved")
        assert terminal.wait() == 0
    finally:
        terminal.kill()
    after_quit = [json.loads(text) for text in guest.received[heard:]]
    assert [message["type"] for message in after_quit if message["type"] != "state"] == ["closing"]
    assert after_quit[-1] == {"type": "closing", "reason": "the host stopped"}


def test_save_at_the_hosts_own_seat_says_where_the_table_is_saved(tmp_path: Path) -> None:
    # It said "the host saves the game after every move" to the host, without a word of where.
    terminal, uri, code = open_table(tmp_path)
    try:
        guest = host_at_the_play_prompt(terminal, uri, code)
        terminal.type("save elsewhere.json\n")
        # The path is as long as pytest's temporary folder (deeper under pytest-xdist): the console
        # may wrap the words after it anywhere, and the path itself mid-name.
        said = terminal.read_until(r"a\s+hosted\s+table's\s+save\s+stays\s+where\s+it\s+is")
        assert re.search(r"thetableissavedaftereverymoveto\S*/saves/", "".join(said.split())), said
        terminal.type("quit\n")
        terminal.read_until(r"the\s+table\s+is\s+closed,\s+and\s+the\s+game\s+is\s+saved")
        assert terminal.wait() == 0
    finally:
        terminal.kill()
    assert not (tmp_path / "elsewhere.json").exists()
    guest.close()


def test_the_hosts_own_seat_never_says_a_table_that_could_not_be_saved_is_saved(tmp_path: Path) -> None:
    # kalooki's folder a file: the seat said "the table is saved after every move to FILE", then "the
    # table is closed, and the game is saved" with a command to reopen a save that was never written.
    # (A home that is a file from the start is refused before the table opens: it is made one after.)
    home = tmp_path / "home"
    terminal, uri, code = open_table(home)
    try:
        guest = host_at_the_play_prompt(terminal, uri, code)
        shutil.rmtree(home)
        home.write_text("not a folder\n")
        terminal.type("ds\n")  # a move: the table is saved after it
        said = terminal.read_until(r"the\s+game\s+goes\s+on")  # after a path: wrapped anywhere
        assert ": Not a directory; the game goes on" in " ".join(said.split())
        terminal.type("save\n")
        said = terminal.read_until(r"the\s+game\s+goes\s+on")
        flowing = " ".join(said.split())
        assert "✗ the table could not be saved to " in flowing
        assert "(Not a directory); the game goes on" in flowing
        terminal.type("quit\n")
        said = terminal.read_until(r"directory\)\.")
        assert "the table is closed; the game could not be saved to" in " ".join(said.split())
        assert terminal.wait() == 1
    finally:
        terminal.kill()
    assert "Reopen it with" not in terminal.output
    assert "the game is saved" not in terminal.output
    guest.close()


def test_the_host_hears_who_joined_and_what_they_said_once(tmp_path: Path) -> None:
    # The lobby's [table] lines told the host who came and what they said; once the game started, its
    # own seat told them all again ("bob joined.", "bob: hi all") as it sat down.
    terminal, uri, code = open_table(tmp_path, seats=3)
    try:
        guest = Player(uri)
        guest.join(code, name="bob")
        # Each lobby line on a line of its own, off the waiting prompt, and the prompt again below it.
        terminal.read_until(r"\[table\] bob joined")
        screen = terminal.output
        told = screen.index("[table] bob joined")
        assert "start> " not in screen[screen.rfind("\n", 0, told) + 1 : told]
        terminal.read_until(r"start> ", timeout=5)
        guest.send({"type": "say", "text": "hi all"})
        terminal.read_until(r"\[table\] bob: hi all")
        # The host talks back from its prompt (it was answered with the prompt's help).
        terminal.type("say hi bob, one more to come\n")
        said = guest.until("said")
        while said["name"] != "ann":  # bob's own line comes back to him first
            said = guest.until("said")
        assert said["text"] == "hi bob, one more to come"
        terminal.read_until(r"\[table\] ann: hi bob, one more to come")
        terminal.type("say\n")  # nothing to say: the prompt's help
        terminal.read_until(
            r"say TEXT to talk to the\s+table, drop NAME to drop a player.s\s+connection\s+\(the table waits"
            r"[^)]*\),\s+remove NAME to\s+remove them\s+for\s+good,\s+or\s+quit to close it"
        )
        terminal.type("start\n")
        terminal.read_until(r"(draw|play)> ")
        screen = terminal.output
        assert screen.count("bob joined") == 1
        assert screen.count("bob: hi all") == 1
        terminal.type("quit\n")
        terminal.read_until("the table is closed, and the game is saved")
        assert terminal.wait() == 0
    finally:
        terminal.kill()


def test_a_host_that_only_watches_is_told_the_game_below_its_prompt(tmp_path: Path) -> None:
    # "[table] The game starts." came on the table> prompt's line, as if typed there, and no prompt followed.
    arguments = ["host", "--bind", "127.0.0.1", "--port", "0", "--seats", "2", "--watch", "--bot-pause", "0"]
    terminal = Terminal(arguments, environment(tmp_path))
    try:
        terminal.read_until(r"table> ")
        terminal.type("start\n")
        over = r"\[table\] The game is over: \w+ won\. Type quit to close the table\.\ntable> "
        told = terminal.read_until(over, timeout=60)
        assert "table> [table]" not in told
        assert "\n[table] The game starts.\ntable> " in told
        terminal.type("quit\n")
        assert terminal.wait() == 0
    finally:
        terminal.kill()
    # A game over leaves nothing to reopen: its table closes without a word of its save.
    after = terminal.output[terminal.matched :]
    assert after.endswith("\nThe table is closed.\n"), after
    assert "saved" not in after


@pytest.mark.parametrize(
    ("close", "said", "status"),
    [
        ("interrupt", "\nInterrupted: the table is closed.\n", 130),
        ("quit", "\nThe table is closed.\n", 0),
    ],
    ids=["ctrl-c", "quit"],
)
def test_closing_a_watching_hosts_table_before_the_game_closes_it_with_its_status(
    tmp_path: Path, close: str, said: str, status: int
) -> None:
    # The lobby prompt exited 130 on Ctrl-C, the watching host's prompt 0 after the same words. Nothing is
    # saved before the game: nothing is said of a save.
    arguments = ["host", "--bind", "127.0.0.1", "--port", "0", "--seats", "2", "--watch", "--bot-pause", "0"]
    terminal = Terminal(arguments, environment(tmp_path))
    try:
        terminal.read_until(r"table> ")
        if close == "interrupt":
            terminal.interrupt()
        else:
            terminal.type("quit\n")
        assert terminal.wait() == status
    finally:
        terminal.kill()
    # Ended so: a line typed early may come twice, echoed by the terminal and by the line editor.
    after = terminal.output[terminal.matched :]
    assert after.endswith(said), after
    assert "saved" not in after


def test_a_host_at_its_own_seat_is_told_the_end_of_the_game_on_its_play_screen_alone(tmp_path: Path) -> None:
    # "[table] The game is over: bob won." came from the table's thread as the last move was made: on the
    # host's screen it stood before that move ("Bob discards ...") and the hand's result, which the play
    # screen told after it, and the end of the game was told twice.
    quick = ["--set", "hand_size=7", "--set", "opening_threshold=0", "--set", "goal_score=1"]
    arguments = ["host", "--bind", "127.0.0.1", "--port", "0", "--seats", "2", "--name", "ann", "--seed", "3"]
    terminal = Terminal([*arguments, "--bot-pause", "0", *quick], environment(tmp_path))
    try:
        found = JOIN_LINE.search(terminal.read_until(r"start> "))
        assert found is not None
        guest = Player(f"ws://127.0.0.1:{found.group(1)}/")
        guest.join(found.group(2), name="bob")
        threading.Thread(target=guest.play_until_over, daemon=True).start()
        terminal.read_until(r"press Enter to sit down\.")
        terminal.type("\n")
        while True:
            terminal.read_until(r"draw> |play> |Game over", timeout=60)
            shown = terminal.output[: terminal.matched]
            if shown.endswith("Game over"):
                break
            if shown.endswith("draw> "):
                terminal.type("ds\n")
            else:  # the card just drawn goes back
                hand = re.findall(r"Your hand \(\d+\): (.*)", shown)[-1]
                terminal.type(f"d {next(card for card in hand.split() if card.endswith('*'))[:-1]}\n")
        terminal.read_until(r"lowest\s+total wins\.")
        assert "[table] The game is over" not in terminal.output
    finally:
        terminal.kill()


def test_the_host_drops_a_guests_connection_from_its_own_seat(tmp_path: Path) -> None:
    # A guest who sat and did nothing held the table up for good: the wait counts only for a seat away.
    terminal, uri, code = open_table(tmp_path)
    try:
        guest = host_at_the_play_prompt(terminal, uri, code)
        terminal.type("drop bob\n")
        terminal.read_until(r"bob's connection is dropped: the table waits \d+ seconds for them, then a bot")
        assert guest.until("error")["code"] == "dropped"
        terminal.type("quit\n")
        terminal.read_until("the table is closed, and the game is saved")
        assert terminal.wait() == 0
    finally:
        terminal.kill()


def test_ctrl_c_at_the_lobby_prompt_once_a_guest_started_the_game_says_it_is_saved(tmp_path: Path) -> None:
    # The game had started and was saved, but the host was told only "Interrupted: the table is
    # closed." and its guest to rejoin "if the host opens the table again": the game seemed lost.
    terminal, uri, code = open_table(tmp_path)
    guest = game_started_by_a_guest(terminal, uri, code)
    try:
        terminal.interrupt()
        said = terminal.read_until(
            r"Reopen it with:\s+kalooki host --resume \S+ --bind 127\.0\.0\.1 --bot-pause 0 --port \d+\n"
        )
        assert terminal.wait() == 130
    finally:
        terminal.kill()
        guest.close()
    assert "Interrupted: the table is closed, and the game is saved." in said
    saved = re.search(r"--resume (\S+) ", said)
    assert saved is not None
    assert Path(saved.group(1)).is_file()


@pytest.mark.parametrize(
    ("close", "why", "status"),
    [("interrupt", "Interrupted", 130), ("quit", "Stopped", 0)],
    ids=["ctrl-c", "quit"],
)
def test_closing_a_watching_hosts_table_during_a_game_says_how_to_reopen_it(
    tmp_path: Path, close: str, why: str, status: int
) -> None:
    # quit said only "The table is closed.", as if the game were gone; the host at its seat is told this.
    arguments = ["host", "--bind", "127.0.0.1", "--port", "0", "--seats", "2", "--watch", "--bot-pause", "0"]
    terminal = Terminal(arguments, environment(tmp_path))
    guests: list[Player] = []
    try:
        found = JOIN_LINE.search(terminal.read_until(r"table> "))
        assert found is not None
        for name in ("ann", "bob"):
            guests.append(Player(f"ws://127.0.0.1:{found.group(1)}/"))
            guests[-1].join(found.group(2), name=name)
        guests[-1].until("state")
        if close == "interrupt":
            terminal.interrupt()
        else:
            terminal.read_until(r"\[table\] The game starts\.\ntable> ")
            terminal.type("quit\n")
        said = terminal.read_until(r"Reopen it with:\s+kalooki host --resume \S+ .*--watch\n")
        assert terminal.wait() == status
    finally:
        terminal.kill()
        for guest in guests:
            guest.close()
    assert f"{why}: the table is closed, and the game is saved." in said


def test_the_hosts_save_path_too_long_for_the_line_has_a_line_of_its_own(tmp_path: Path) -> None:
    # It was printed after "The game is saved after every move to" on the same line, and broken mid-name
    # where the terminal ended; kalooki play gives such a path a line of its own, whole, to be copied.
    terminal, _uri, _code = open_table(tmp_path)
    try:
        said = re.search(r"The game is saved after every move to\n  (\S+)\n", terminal.output)
        assert said is not None, terminal.output
        save = Path(said.group(1))
        assert (save.parent, save.name.endswith(".kalooki-save.json")) == (tmp_path / "saves", True)
        assert len(f"The game is saved after every move to {save}") > 80
        terminal.type("quit\n")
        terminal.read_until("The table is closed")
        assert terminal.wait() == 0
    finally:
        terminal.kill()
