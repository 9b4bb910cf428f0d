"""``kalooki host`` as a real process: killed mid-game, reopened with ``--resume``, its players rejoin."""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import pytest

pytest.importorskip("websockets")

from net_helpers import (
    TIMEOUT,
    Player,
    Terminal,
    ipv6_loopback,
    play_moves,
    play_whole_game,
    says_reopen,
    seat_and_play_a_hand,
)

KALOOKI = Path(sys.executable).with_name("kalooki")
JOIN_LINE = re.compile(r"kalooki join (\S+):(\d+) --code (\w+)")


def start_host(
    home: Path, *args: str, heard: queue.Queue[str] | None = None, files: int | None = None
) -> tuple[subprocess.Popen[str], str, str]:
    """The host and its table's address and code; what it prints after the join line goes to ``heard``.

    ``files``: the most files the host process may open (POSIX), as a system with a low limit has.
    """
    env = {**os.environ, "KALOOKI_HOME": str(home), "COLUMNS": "100"}

    def limit_files() -> None:
        import resource

        assert files is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, (files, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

    process = subprocess.Popen(
        [str(KALOOKI), "host", "--watch", "--bind", "127.0.0.1", "--port", "0", "--bot-pause", "0", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        preexec_fn=limit_files if files is not None else None,
    )
    assert process.stdout is not None
    seen = []
    for line in process.stdout:
        seen.append(line)
        found = JOIN_LINE.search(line)
        if found:
            threading.Thread(target=drain, args=(process.stdout, heard), daemon=True).start()
            return process, f"ws://127.0.0.1:{found.group(2)}/", found.group(3)
    raise AssertionError("the host printed no join line:\n" + "".join(seen))


def drain(stream: IO[str], heard: queue.Queue[str] | None) -> None:
    """Keep the pipe drained (a host blocked on a full pipe stops serving), keeping the lines if asked."""
    for line in stream:
        if heard is not None:
            heard.put(line.rstrip("\n"))


@pytest.mark.parametrize(
    ("overrides", "seats"),
    [
        ([], 4),
        (["max_players=3"], 3),
        (["min_players=5", "max_players=6"], 5),
        (["min_players=6", "max_players=8"], 6),
    ],
)
def test_a_host_without_seats_sets_four_or_what_the_variant_allows(overrides: list[str], seats: int) -> None:
    from kalooki_cli.net_commands import make_table

    table = make_table(None, overrides, seats=None, bots=None, seed=1, wait=60)
    assert len(table.seats) == seats


def test_the_lobby_shows_what_a_player_says_as_one_plain_line(tmp_path: Path) -> None:
    heard: queue.Queue[str] = queue.Queue()
    host, uri, code = start_host(tmp_path, "--seats", "2", heard=heard)
    try:
        player = Player(uri)
        player.join(code, name="p0")
        player.send({"type": "say", "text": "\x1b]0;owned\x07 \x1b[2Jhello\nThe game starts."})
        line = heard.get(timeout=TIMEOUT)
        while "p0:" not in line:
            line = heard.get(timeout=TIMEOUT)
        assert line == r"[table] p0: \x1b]0;owned\x07 \x1b[2Jhello\nThe game starts."
    finally:
        assert host.stdin is not None
        host.stdin.close()
        assert host.wait(TIMEOUT) == 0


def home_become_a_file(home: Path) -> None:
    """``home``, KALOOKI_HOME of a host already open, made a file: no save can be written under it (a home
    that is a file from the start is refused before the table opens)."""
    shutil.rmtree(home, ignore_errors=True)
    home.write_text("not a folder\n")


GAME_TIMEOUT = 6 * TIMEOUT
"""Seconds a whole game may take between two lines the host prints: on a loaded machine, more than one
line's wait."""


def heard_until(heard: queue.Queue[str], text: str, wait: float = TIMEOUT) -> str:
    """The first line the host prints from now on that holds ``text``, each line within ``wait`` seconds."""
    line = heard.get(timeout=wait)
    while text not in line:
        line = heard.get(timeout=wait)
    return line


def test_a_table_that_cannot_be_saved_says_so_and_exits_1(tmp_path: Path) -> None:
    # kalooki's folder is a file: no save can be written. The table said where it saves, played the
    # whole game and exited 0, no save made and nothing said.
    heard: queue.Queue[str] = queue.Queue()
    host, uri, code = start_host(tmp_path / "home", "--seats", "2", heard=heard)
    try:
        home_become_a_file(tmp_path / "home")
        players = two_players_in_a_game(uri, code)
        line = heard_until(heard, "✗")
        assert re.fullmatch(
            r"✗ could not save to \S+\.kalooki-save\.json: Not a directory; the game goes on", line
        )
        for player in players:
            player.close()
    finally:
        assert host.stdin is not None
        host.stdin.close()
        status = host.wait(TIMEOUT)
    assert status == 1
    line = heard_until(heard, "The table could not be saved")
    assert re.fullmatch(r"The table could not be saved to \S+ \(Not a directory\)\.", line)


def test_a_finished_game_whose_table_could_not_be_saved_exits_0_as_a_game_at_the_terminal(
    tmp_path: Path,
) -> None:
    # Over, the game has nothing to reopen: a game at the terminal that ends unsaved exits 0; the table
    # exited 1. It still says the table could not be saved.
    heard: queue.Queue[str] = queue.Queue()
    host, _uri, _code = start_host(tmp_path / "home", "--seats", "2", heard=heard)
    try:
        home_become_a_file(tmp_path / "home")
        assert host.stdin is not None
        host.stdin.write("start\n")
        host.stdin.flush()
        heard_until(heard, "The game is over", GAME_TIMEOUT)
    finally:
        assert host.stdin is not None
        host.stdin.close()
        status = host.wait(TIMEOUT)
    assert status == 0
    heard_until(heard, "The table could not be saved")


def two_players_in_a_game(uri: str, code: str) -> list[Player]:
    """p0 and p1 take a table of two: the game starts, and each has its first state."""
    players = [Player(uri), Player(uri)]
    for index, player in enumerate(players):
        player.join(code, name=f"p{index}")
    for player in players:
        player.until("state")
    return players


def test_a_killed_host_resumes_from_its_save_and_players_rejoin(tmp_path: Path) -> None:
    save = tmp_path / "table.kalooki-save.json"
    host, uri, code = start_host(
        tmp_path, "--seats", "2", "--seed", "21", "--save", str(save), "--set", "goal_score=51"
    )
    try:
        players = two_players_in_a_game(uri, code)
        play_moves(players, 12)
        before: list[dict[str, Any]] = [dict(player.view or {}) for player in players]
        tokens = [player.token for player in players]
    finally:
        host.kill()
        host.wait(TIMEOUT)
    assert save.is_file()
    host, uri, again = start_host(tmp_path, "--resume", str(save))
    try:
        assert again == code  # the same code: players rejoin with the command they used
        rejoined = [Player(uri), Player(uri)]
        for seat, (player, token) in enumerate(zip(rejoined, tokens, strict=True)):
            assert player.join(code, token=token)["seat"] == seat
            view = player.until("state")["view"]
            for key in ("hand", "table", "discard_pile", "totals", "turn_number", "hand_number", "current"):
                assert view[key] == before[seat][key], key
        results = play_whole_game(rejoined)
        assert results[0]["phase"] == "game_over"
        assert results[0]["totals"] == results[1]["totals"]
    finally:
        assert host.stdin is not None
        host.stdin.close()  # end of input: the host closes the table and exits 0
        assert host.wait(TIMEOUT) == 0


def test_a_resumed_table_tells_its_players_to_rejoin_not_new_friends_to_join(tmp_path: Path) -> None:
    # "Friends join with: kalooki join ... --name NAME": a new name is refused once the game has started.
    save = tmp_path / "table.kalooki-save.json"
    # --players, kalooki play's word, as --seats: "No such option: --players" stopped a host before.
    host, uri, code = start_host(tmp_path, "--players", "2", "--seed", "21", "--save", str(save))
    try:
        two_players_in_a_game(uri, code)
    finally:
        host.kill()
        host.wait(TIMEOUT)
    env = {**os.environ, "KALOOKI_HOME": str(tmp_path), "COLUMNS": "100"}
    # Saved outside the saves folder, it is remembered as a game's --save is: `kalooki saves` lists it.
    listed = subprocess.run([str(KALOOKI), "saves"], capture_output=True, text=True, env=env, timeout=TIMEOUT)
    assert "1  hosted table · classic · p0, p1" in listed.stdout, listed.stdout
    arguments = ["host", "--resume", str(save), "--watch", "--bind", "127.0.0.1", "--port", "0"]
    # The game is under way: start is no word of its prompt, and typing it is told so (it was a
    # traceback from the table's loop).
    again = subprocess.run(
        [str(KALOOKI), *arguments], input="start\ndrop\nquit\n", capture_output=True, text=True, env=env,
        timeout=TIMEOUT,
    )  # fmt: skip
    assert again.returncode == 0, again.stdout + again.stderr
    lines = again.stdout.splitlines()
    port = JOIN_LINE.search(lines[1])
    assert port is not None
    assert lines[:2] == [
        "Your table is open again. Everyone rejoins their seat with:",
        f"  kalooki join 127.0.0.1:{port.group(2)} --code {code}",
    ]
    started = (
        "The game has started: type drop NAME to drop a player's connection (the table waits for them, then "
        "a bot plays their seat), remove NAME to remove them for good, or quit to close the table."
    )
    assert " ".join(again.stdout.split()).count(started) == 2, again.stdout
    assert "table> drop whom? (drop NAME drops a player's connection)\n" in again.stdout  # as at a seat
    assert "Type start" not in again.stdout
    # quit said only "The table is closed.": of the game under way, as the host at its seat is told, that
    # it is saved and how to reopen it.
    assert "table> Stopped: the table is closed, and the game is saved.\nReopen it with:" in again.stdout
    reopen = f"kalooki host --resume {save} --bind 127.0.0.1 --port {port.group(2)} --watch"
    assert says_reopen(again.stdout, reopen), again.stdout
    assert again.stdout.endswith(f"{reopen}\n")
    assert again.stderr == ""
    # Reopened by its number in `kalooki saves`, as `kalooki resume N` takes a game, and closed by the end
    # of its input, which it said nothing of before.
    by_number = subprocess.run(
        [str(KALOOKI), "host", "--resume", "1", *arguments[3:]], input="", capture_output=True, text=True,
        env=env, timeout=TIMEOUT,
    )  # fmt: skip
    assert by_number.returncode == 0, by_number.stdout + by_number.stderr
    assert by_number.stdout.splitlines()[0] == "Your table is open again. Everyone rejoins their seat with:"
    closed = "table> \nEnd of input: the table is closed, and the game is saved.\nReopen it with:"
    assert closed in by_number.stdout  # the game under way: how to open it again, as at a seat
    reopened = JOIN_LINE.search(by_number.stdout)
    assert reopened is not None
    port = reopened.group(2)
    assert says_reopen(
        by_number.stdout, f"kalooki host --resume {save} --bind 127.0.0.1 --port {port} --watch"
    )


def test_a_resumed_table_takes_a_new_wait_and_refuses_a_new_name(tmp_path: Path) -> None:
    # With --resume, --name and --wait were passed over in silence, and the reopen command it printed
    # left out --bot-pause, which no save keeps.
    save = tmp_path / "table.kalooki-save.json"
    host, uri, code = start_host(tmp_path, "--players", "2", "--seed", "21", "--save", str(save))
    try:
        tokens = [player.token for player in two_players_in_a_game(uri, code)]
    finally:
        host.kill()
        host.wait(TIMEOUT)
    assert json.loads(save.read_text())["session"]["table"]["wait_seconds"] == 60
    env = {**os.environ, "KALOOKI_HOME": str(tmp_path), "COLUMNS": "200"}
    reopen = [str(KALOOKI), "host", "--resume", str(save), "--watch", "--bind", "127.0.0.1", "--port", "0"]
    named = subprocess.run(
        [*reopen, "--name", "bob"], input="", capture_output=True, text=True, env=env, timeout=TIMEOUT
    )
    assert named.returncode == 2
    said = " ".join(named.stderr.replace("│", " ").split())
    assert "Invalid value for '--name': a resumed table keeps its players' names, its host's too" in said
    heard: queue.Queue[str] = queue.Queue()
    host, uri, _code = start_host(
        tmp_path, "--resume", str(save), "--wait", "5", "--bot-time", "90", heard=heard
    )  # --bot-pause 0
    try:
        rejoined = [Player(uri), Player(uri)]
        for player, token in zip(rejoined, tokens, strict=True):
            player.join(code, token=token)
            player.until("state")
        play_moves(rejoined, 1)  # saved after the move, with the wait now the table's
    finally:
        assert host.stdin is not None
        host.stdin.close()
        assert host.wait(TIMEOUT) == 0
    assert json.loads(save.read_text())["session"]["table"]["wait_seconds"] == 5
    said = "\n".join(heard.queue)
    # Neither the pause nor the time a bot's turn is waited for is saved: both are carried.
    assert f"kalooki host --resume {save} --bind 127.0.0.1 --bot-pause 0 --bot-time 90 --port " in said


def test_a_host_killed_between_hands_resumes_between_hands(tmp_path: Path) -> None:
    # Resumed with nobody back yet, the table dealt the next hand at once (everyone connected was
    # "ready": no one was), and after the wait the bots played the turns of players still rejoining.
    save = tmp_path / "table.kalooki-save.json"
    quick = ["--set", "hand_size=7", "--set", "opening_threshold=0"]
    host, uri, code = start_host(tmp_path, "--seats", "2", "--seed", "3", "--save", str(save), *quick)
    try:
        tokens = [player.token for player in seat_and_play_a_hand(uri, code)]
    finally:
        host.kill()
        host.wait(TIMEOUT)
    host, uri, _code = start_host(tmp_path, "--resume", str(save))
    try:
        time.sleep(1)  # long enough for the table to deal by itself, were it to
        back = Player(uri)
        back.join(code, token=tokens[0])
        view = back.until("state")["view"]
        assert (view["phase"], view["hand_number"]) == ("hand_over", 1)  # the hand's end, as left
        back.send({"type": "ready"})  # the only player back is ready: the next hand is dealt
        view = back.until("state")["view"]
        assert (view["phase"], view["hand_number"]) == ("draw", 2)
    finally:
        assert host.stdin is not None
        host.stdin.close()
        assert host.wait(TIMEOUT) == 0


def test_a_player_whose_host_dies_hears_the_connection_was_lost_not_that_the_table_closed(
    tmp_path: Path,
) -> None:
    # kill -9 of the host (or a laptop that slept past the keepalive) was told as a closed table:
    # "The table is closed: the connection to the table was lost." The table is still there to resume.
    host, uri, code = start_host(tmp_path, "--seats", "2", "--seed", "21")
    address = uri.removeprefix("ws://").rstrip("/")
    try:
        bot = Player(uri)
        bot.join(code, name="p0")
        terminal = Terminal(address, code, tmp_path, "ann")
        deadline = time.monotonic() + TIMEOUT
        while "p0 is playing" not in terminal.text():  # ann sits at the game, her hand on the screen
            assert time.monotonic() < deadline, terminal.text()
            time.sleep(0.05)
    finally:
        host.kill()
        host.wait(TIMEOUT)
    out = terminal.quit()
    assert terminal.process.returncode == 1
    lines = out.splitlines()
    ending = lines.index("The connection to the table was lost.")
    assert lines[ending + 1 :] == [f"Rejoin your seat with: kalooki join {address} --code {code} --name ann"]


def test_the_reopen_command_keeps_the_address_the_table_was_bound_to(tmp_path: Path) -> None:
    # A table opened on the loopback only must not be reopened on every address by its own advice.
    env = {**os.environ, "KALOOKI_HOME": str(tmp_path), "COLUMNS": "200"}
    arguments = ["host", "--bind", "127.0.0.1", "--port", "0", "--bot-pause", "0", "--seats", "2"]
    done = subprocess.run(
        [str(KALOOKI), *arguments, "--save", str(tmp_path / "t.json")],
        input="start\nquit\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=TIMEOUT * 3,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    port = JOIN_LINE.search(done.stdout)
    assert port is not None, done.stdout
    reopen = (
        f"kalooki host --resume {tmp_path / 't.json'} --bind 127.0.0.1 --bot-pause 0 --port {port.group(2)}"
    )
    assert says_reopen(done.stdout, reopen), done.stdout


class Printed:
    """All a process prints, read as it comes (prompts end no line); ``until`` waits for a text in it."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.text = ""
        self.seen = 0
        self.grew = threading.Condition()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: IO[bytes]) -> None:
        while chunk := os.read(stream.fileno(), 65536):
            with self.grew:
                self.text += chunk.decode("utf-8", "replace")
                self.grew.notify_all()

    def until(self, text: str) -> str:
        """What was printed from the last wait's text to this one's."""
        with self.grew:
            assert self.grew.wait_for(lambda: text in self.text[self.seen :], TIMEOUT), self.text[-2000:]
            start, self.seen = self.seen, self.text.index(text, self.seen) + len(text)
            return self.text[start : self.seen]


@contextmanager
def piped_host(home: Path, *options: str) -> Iterator[tuple[IO[bytes], Printed, Player]]:
    """A host on 127.0.0.1 with its keyboard piped, and bob joined at its table: the host's input,
    what it printed after its first ``start>``, and bob. The host must exit 0 once its input ends."""
    env = {**os.environ, "KALOOKI_HOME": str(home), "COLUMNS": "200"}
    host = subprocess.Popen(
        [str(KALOOKI), "host", "--bind", "127.0.0.1", "--port", "0", *options],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
    )
    assert host.stdin is not None
    assert host.stdout is not None
    printed = Printed(host.stdout)
    try:
        found = JOIN_LINE.search(printed.until("start> "))
        assert found is not None
        guest = Player(f"ws://127.0.0.1:{found.group(2)}/")
        guest.join(found.group(3), name="bob")
        yield host.stdin, printed, guest
    finally:
        host.stdin.close()
        assert host.wait(TIMEOUT) == 0


def test_a_piped_host_gives_a_line_typed_as_the_game_starts_to_the_game(tmp_path: Path) -> None:
    with piped_host(tmp_path, "--bot-pause", "0", "--seats", "2") as (keyboard, printed, _):
        printed.until("[table] The game starts: press Enter to sit down.")
        # The line answers the start> prompt that was waiting: it is the game's, as at a terminal.
        keyboard.write(b"score\n")
        keyboard.flush()
        printed.until("draw> ")
        assert re.search(r"hand +host \(you\) +bob", printed.until("draw> "))  # the score sheet
        keyboard.write(b"quit\n")
        keyboard.flush()
        printed.until("the table is closed, and the game is saved")


def test_the_playing_host_drops_a_connection_from_its_lobby_prompt(tmp_path: Path) -> None:
    """A guest who joined and left the keyboard kept the seat from a bot: the host at its own table
    had no drop before the game (the --watch prompt and the game's had)."""
    with piped_host(tmp_path, "--seats", "3", "--wait", "30") as (keyboard, printed, guest):
        printed.until("[table] bob joined the table.")
        opened = " ".join(printed.text.split())
        assert (
            "say TEXT talks to the table, drop NAME drops a player's connection, remove NAME removes them "
            "for good, quit closes the table." in opened
        )
        keyboard.write(b"drop\ndrop bob\nhelp\nquit\n")
        keyboard.flush()
        printed.until("drop whom? (drop NAME drops a player's connection)")
        printed.until(
            "bob's connection is dropped: the table waits 30 seconds for them, then a bot plays their seat"
        )
        assert guest.until("error")["code"] == "dropped"
        helped = " ".join(printed.until("The table is closed.").split())
        assert (
            "say TEXT to talk to the table, drop NAME to drop a player's connection (the table waits"
            in helped
        )


def test_the_playing_host_removes_a_player_from_its_lobby_prompt(tmp_path: Path) -> None:
    """Before the game a removed player's seat is free again: the answer to ``remove`` with no name said
    a bot would play it to the end, as in the game."""
    with piped_host(tmp_path, "--seats", "3") as (keyboard, printed, guest):
        printed.until("[table] bob joined the table.")
        keyboard.write(b"remove\nremove bob\nquit\n")
        keyboard.flush()
        whom = printed.until("bob is removed: their seat is free again")
        assert "remove whom? (remove NAME removes a player for good: their seat is free again)" in whom
        assert "bot" not in whom.partition("remove whom?")[2]
        assert guest.until("error")["code"] == "removed"


def upgrade_from(address: str, port: int) -> socket.socket:
    """A connection from ``address`` (another loopback address) that asks for a WebSocket, then waits."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT, source_address=(address, 0))
    connection.sendall(
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    return connection


def let_in(connection: socket.socket) -> bool:
    """Whether the table answered the connection's upgrade; the others are closed at once (reset)."""
    try:
        return connection.recv(12).startswith(b"HTTP/1.1 101")
    except ConnectionResetError:
        return False


@pytest.mark.skipif(sys.platform != "linux", reason="needs the whole 127.0.0.0/8 on the loopback (Linux)")
def test_a_flood_of_connections_from_one_address_leaves_the_table_open_to_others(tmp_path: Path) -> None:
    # 1,000 connections that never join used up the host's 512 files: the host printed the event
    # loop's tracebacks ("OSError: [Errno 24] Too many open files"), and nobody else could join.
    from kalooki_net.admission import MAX_PER_ADDRESS

    heard: queue.Queue[str] = queue.Queue()
    host, uri, code = start_host(tmp_path, "--seats", "2", heard=heard, files=512)
    port = int(uri.rsplit(":", 1)[1].rstrip("/"))
    flood: list[socket.socket] = []
    try:
        flood = [upgrade_from("127.0.0.2", port) for _ in range(1000)]
        assert sum(map(let_in, flood)) == MAX_PER_ADDRESS
        assert Player(uri).join(code, name="ann")["seat"] == 0
    finally:
        for connection in flood:
            connection.close()
        assert host.stdin is not None
        host.stdin.close()
        assert host.wait(TIMEOUT) == 0
    said = []
    while not heard.empty():
        said.append(heard.get())
    assert not [line for line in said if "Traceback" in line or "Errno" in line], said


@pytest.mark.parametrize("bind", ["::", ""])
def test_a_table_on_every_address_answers_on_both_families(tmp_path: Path, bind: str) -> None:
    # --bind :: listened on IPv6 alone (asyncio sets IPV6_V6ONLY), while the join line printed the
    # machine's IPv4 address: nobody joining by it, or at 127.0.0.1, got an answer.
    host, uri, code = start_host(tmp_path, "--seats", "3", "--bind", bind)
    port = uri.rsplit(":", 1)[1]
    try:
        assert Player(f"ws://127.0.0.1:{port}").join(code, name="ann")["seat"] == 0
        if ipv6_loopback():
            assert Player(f"ws://[::1]:{port}").join(code, name="bob")["seat"] == 1
    finally:
        assert host.stdin is not None
        host.stdin.close()
        assert host.wait(TIMEOUT) == 0


def test_the_playing_hosts_game_says_its_quit_closes_the_table(tmp_path: Path) -> None:
    # It said "quit to leave", as a guest's does: a host who typed quit to step away closed the table on
    # everyone (help, and the lobby's prompt, said it closes the table).
    with piped_host(tmp_path, "--bot-pause", "0", "--seats", "2") as (keyboard, printed, _):
        printed.until("[table] The game starts: press Enter to sit down.")
        keyboard.write(b"\n")
        keyboard.flush()
        opened = " ".join(printed.until("draw> ").split())
        assert (
            "Type help for the commands, hint for a suggestion, say TEXT to talk, quit to close the table "
            "(the game stays saved)." in opened
        )
        assert "quit to leave" not in opened
        keyboard.write(b"quit\n")
        keyboard.flush()
        printed.until("the table is closed, and the game is saved")
