"""One game in one kalooki at a time: a second process that opens a save being played is refused.

Two ``kalooki resume`` of one save wrote over each other's save, and both appended to its log,
which then never replayed again ("record 12: does not reproduce: you must draw first"). These run
real processes, as two terminals do, each bounded in time.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="no advisory locks on Windows")

KALOOKI = Path(sys.executable).with_name("kalooki")
TIMEOUT = 30


class Terminal:
    """A kalooki process typed into through a pipe, its output gathered as it comes."""

    def __init__(self, folder: Path, *arguments: str) -> None:
        self.process = subprocess.Popen(
            [str(KALOOKI), *arguments],
            cwd=folder,
            env=environment(folder),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.output = ""
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for chunk in iter(lambda: self.process.stdout.read(1) if self.process.stdout else "", ""):
            self.output += chunk

    def until(self, text: str) -> None:
        deadline = time.monotonic() + TIMEOUT
        while text not in self.output:
            assert self.process.poll() is None or text in self.output, f"{text!r} never came:\n{self.output}"
            assert time.monotonic() < deadline, f"{text!r} never came:\n{self.output}"
            time.sleep(0.05)

    def type(self, lines: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(lines)
        self.process.stdin.flush()

    def finish(self, lines: str = "quit\n") -> int:
        assert self.process.stdin is not None
        self.type(lines)
        self.process.stdin.close()
        code = self.process.wait(TIMEOUT)
        self.reader.join(TIMEOUT)
        return code


def environment(folder: Path) -> dict[str, str]:
    return {**os.environ, "KALOOKI_HOME": str(folder / "home"), "COLUMNS": "200"}


def kalooki(folder: Path, *arguments: str, typed: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(KALOOKI), *arguments],
        cwd=folder,
        env=environment(folder),
        input=typed,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


@pytest.fixture
def logged_game(tmp_path: Path) -> Path:
    """The brief's game: seed 3, the stock drawn from, saved to s.json and logged to game.jsonl."""
    played = kalooki(
        tmp_path,
        "play",
        "--seed",
        "3",
        "--fast",
        "--log",
        "game.jsonl",
        "--save",
        "s.json",
        typed="draw stock\nquit\n",
    )
    assert played.returncode == 0, played.stdout + played.stderr
    return tmp_path


def files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in folder.iterdir() if path.is_file()}


def test_a_save_open_in_one_kalooki_is_refused_to_another(logged_game: Path) -> None:
    first = Terminal(logged_game, "resume", "s.json", "--fast")
    try:
        first.until("play> ")
        before = files(logged_game)
        second = kalooki(logged_game, "resume", "s.json", "--fast", typed="d 2S\nquit\n")
        assert second.returncode == 1
        assert second.stderr.splitlines() == [
            f"s.json: this game is open in another kalooki (process {first.process.pid}); "
            "finish or quit it there first"
        ]
        assert files(logged_game) == before  # nothing written: not the save, not the log
    finally:
        assert first.finish("d 9C\nquit\n") == 0
    replayed = kalooki(logged_game, "replay", "game.jsonl")
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    # Once the first has stopped, the game is free again, and its log goes on.
    again = kalooki(logged_game, "resume", "s.json", "--fast", typed="quit\n")
    assert again.returncode == 0, again.stderr
    assert "Its log goes on, as before, in game.jsonl" in again.stdout
    assert sorted(path.name for path in logged_game.iterdir()) == ["game.jsonl", "home", "s.json"]


def test_a_killed_game_leaves_its_save_free(logged_game: Path) -> None:
    first = Terminal(logged_game, "resume", "s.json", "--fast")
    first.until("play> ")
    assert kalooki(logged_game, "resume", "s.json", "--fast", typed="quit\n").returncode == 1
    first.process.send_signal(signal.SIGKILL)  # the system lets its lock go: the game is not left locked
    first.process.wait(TIMEOUT)
    again = kalooki(logged_game, "resume", "s.json", "--fast", typed="quit\n")
    assert again.returncode == 0, again.stderr


def test_save_file_takes_the_game_along_and_frees_its_old_place(logged_game: Path) -> None:
    first = Terminal(logged_game, "resume", "s.json", "--fast")
    try:
        first.until("play> ")
        first.type("save t.json\n")
        first.until("Saved; from now on")
        moved = kalooki(logged_game, "resume", "t.json", "--fast", typed="quit\n")
        assert moved.returncode == 1
        assert "t.json: this game is open in another kalooki" in moved.stderr
        listed = kalooki(logged_game, "saves")
        assert ".lock" not in listed.stdout
    finally:
        assert first.finish() == 0
    assert kalooki(logged_game, "resume", "t.json", "--fast", typed="quit\n").returncode == 0


def test_a_hot_seat_game_is_open_in_one_kalooki(tmp_path: Path) -> None:
    first = Terminal(tmp_path, "play", "--humans", "ann,bob", "--seed", "3", "--save", "h.json", "--fast")
    try:
        first.until("saved after every move")
        second = kalooki(tmp_path, "resume", "h.json", "--fast", typed="quit\n")
        assert second.returncode == 1
        assert "h.json: this game is open in another kalooki" in second.stderr
    finally:
        first.finish("quit\nquit\n")


def test_a_hosted_table_is_open_in_one_kalooki(tmp_path: Path) -> None:
    pytest.importorskip("websockets")
    host = ["host", "--watch", "--bind", "127.0.0.1", "--port", "0"]
    first = Terminal(tmp_path, *host, "--seats", "2", "--save", "t.json")
    try:
        first.until("kalooki join")
        second = kalooki(tmp_path, *host[:-2], "--port", "0", "--resume", "t.json")
        assert second.returncode == 1
        assert "t.json: this game is open in another kalooki" in second.stderr
    finally:
        assert first.finish() == 0


def test_saves_clean_removes_the_lock_a_killed_game_left_and_no_other(logged_game: Path) -> None:
    other = kalooki(logged_game, "play", "--seed", "4", "--fast", "--save", "t.json", typed="quit\n")
    assert other.returncode == 0, other.stdout + other.stderr
    killed = Terminal(logged_game, "resume", "t.json", "--fast")
    # At its prompt: a kill just after the welcome (on a busy machine) could land in the save written
    # after it, and leave that write's temporary file beside the save.
    killed.until("draw> ")
    killed.process.send_signal(signal.SIGKILL)
    killed.process.wait(TIMEOUT)
    assert (logged_game / ".t.json.lock").is_file()  # no process holds it, and nothing removed it
    playing = Terminal(logged_game, "resume", "s.json", "--fast")
    try:
        playing.until("play> ")
        cleaned = kalooki(logged_game, "saves", "--clean", "--yes")
        assert cleaned.returncode == 0, cleaned.stderr
        removed = "Removed the lock file a game killed outright left beside its save"
        assert cleaned.stdout.splitlines() == [
            f"{removed}: {os.path.realpath(logged_game / '.t.json.lock')}",
            "No finished games to remove.",
        ]
        assert not (logged_game / ".t.json.lock").exists()
        # The game still playing keeps its lock: a second kalooki is still refused it.
        assert (logged_game / ".s.json.lock").is_file()
        second = kalooki(logged_game, "resume", "s.json", "--fast", typed="quit\n")
        assert "s.json: this game is open in another kalooki" in second.stderr
    finally:
        assert playing.finish() == 0
    assert sorted(path.name for path in logged_game.iterdir()) == ["game.jsonl", "home", "s.json", "t.json"]


def test_a_link_where_the_lock_goes_is_refused_and_what_it_names_is_left_alone(logged_game: Path) -> None:
    # The lock file is cut and written with the process id: through a link, that wiped the file named.
    victim = logged_game / "victim.txt"
    victim.write_text("precious\n")
    (logged_game / ".s.json.lock").symlink_to(victim)
    before = files(logged_game)
    resumed = kalooki(logged_game, "resume", "s.json", "--fast", typed="d 2S\nquit\n")
    assert resumed.returncode == 1
    assert resumed.stderr.splitlines() == [
        ".s.json.lock: is a symbolic link, where kalooki keeps the lock of s.json while it is played; "
        "remove it, then try again"
    ]
    assert files(logged_game) == before
    assert os.readlink(logged_game / ".s.json.lock") == str(victim)


@pytest.mark.parametrize(
    ("make", "what"),
    [
        (os.mkdir, "a folder"),
        (os.mkfifo, "not a regular file"),
        (
            lambda place: os.link(place.with_name("game.jsonl"), place),
            "a second name of another file (a hard link)",
        ),
    ],
    ids=["folder", "fifo", "hard-link"],
)
def test_anything_but_a_lock_file_where_the_lock_goes_is_refused(
    logged_game: Path, make: Callable[[Path], None], what: str
) -> None:
    # A folder there was passed over without a lock: two kalooki then played the same save at once.
    make(logged_game / ".s.json.lock")
    before = files(logged_game)
    for _ in range(2):
        resumed = kalooki(logged_game, "resume", "s.json", "--fast", typed="d 2S\nquit\n")
        assert resumed.returncode == 1
        assert resumed.stderr.splitlines() == [
            f".s.json.lock: is {what}, where kalooki keeps the lock of s.json while it is played; "
            "remove it, then try again"
        ]
    assert files(logged_game) == before
    assert (logged_game / ".s.json.lock").exists()


def test_a_lock_swapped_for_a_link_while_held_is_not_removed(tmp_path: Path) -> None:
    from kalooki_cli import save_lock

    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    save = tmp_path / "s.json"
    place = tmp_path / ".s.json.lock"
    with save_lock.holding(save):
        place.unlink()
        place.symlink_to(victim)  # another process's file now: the game that stops leaves it be
    assert place.is_symlink()
    assert victim.read_text() == "precious\n"


def log_in_use(log: str, pid: int) -> list[str]:
    return [
        f"{log}: this log is being written by another kalooki (process {pid}); finish or quit that game first"
    ]


@pytest.mark.parametrize(
    ("first", "ready", "stop"),
    [
        (["resume", "s.json"], "play> ", "d 9C\nquit\n"),
        (["play", "--seed", "3", "--save", "s.json", "--log", "t.jsonl"], "draw> ", "quit\n"),
        (
            ["play", "--humans", "ann,bob", "--seed", "3", "--save", "s.json", "--log", "t.jsonl"],
            "press Enter",
            "quit\nquit\n",
        ),
    ],
    ids=["resume", "bots", "hot-seat"],
)
def test_two_copies_of_one_save_do_not_both_write_its_log(
    tmp_path: Path, first: list[str], ready: str, stop: str
) -> None:
    # The lock covered the save, not the log it names: a copy resumed at once appended to the same
    # log, which forked ("record 11: does not reproduce"), and neither save could continue it again.
    log = "t.jsonl"
    if first[0] == "resume":  # a game saved and logged, resumed
        started = ["play", "--seed", "3", "--fast", "--log", log, "--save", "s.json"]
        assert kalooki(tmp_path, *started, typed="draw stock\nquit\n").returncode == 0
    game = Terminal(tmp_path, *first, "--fast")
    try:
        game.until(ready)
        shutil.copy(tmp_path / "s.json", tmp_path / "s2.json")
        before = files(tmp_path)
        second = kalooki(tmp_path, "resume", "s2.json", "--fast", typed="d 2S\nquit\n")
        assert (second.returncode, second.stderr.splitlines()) == (1, log_in_use(log, game.process.pid))
        assert files(tmp_path) == before
    finally:
        assert game.finish(stop) == 0
    replayed = kalooki(tmp_path, "replay", log)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert not [path.name for path in tmp_path.iterdir() if path.name.endswith(".lock")]


def test_a_script_never_writes_over_a_log_being_written_nor_a_file_that_holds_something(
    tmp_path: Path,
) -> None:
    # A script's --log replaced any file: the log of a game being played (which then could never be
    # resumed with it), a save, anything.
    script = Path(__file__).parent / "golden" / "scripts" / "kalooki-opening.yaml"
    game = Terminal(tmp_path, "play", "--seed", "3", "--save", "s.json", "--log", "t.jsonl", "--fast")
    try:
        game.until("draw> ")
        before = files(tmp_path)
        second = kalooki(tmp_path, "play", str(script), "--log", "t.jsonl")
        assert (second.returncode, second.stderr.splitlines()) == (1, log_in_use("t.jsonl", game.process.pid))
        assert files(tmp_path) == before
    finally:
        assert game.finish("quit\n") == 0
    before = files(tmp_path)
    over_save = kalooki(tmp_path, "play", str(script), "--log", "s.json")
    assert (over_save.returncode, over_save.stderr) == (
        1,
        "s.json: already exists, and the log would write over it; give a new file\n",
    )
    assert files(tmp_path) == before
    assert kalooki(tmp_path, "play", str(script), "--log", "new.jsonl").returncode == 0
    assert kalooki(tmp_path, "replay", "new.jsonl").returncode == 0


def test_a_hosted_tables_log_is_held_before_it_deals(tmp_path: Path) -> None:
    # The table writes its log once it deals: a game started meanwhile with the same --log wrote it
    # first, and the table then wrote over it.
    pytest.importorskip("websockets")
    host = ["host", "--watch", "--bind", "127.0.0.1", "--port", "0", "--seats", "2", "--log", "t.jsonl"]
    first = Terminal(tmp_path, *host)
    try:
        first.until("kalooki join")
        second = kalooki(
            tmp_path, "play", "--seed", "4", "--fast", "--log", "t.jsonl", "--save", "o.json", typed="quit\n"
        )
        assert (second.returncode, second.stderr.splitlines()) == (
            1,
            log_in_use("t.jsonl", first.process.pid),
        )
        assert not (tmp_path / "t.jsonl").exists()
        assert not (tmp_path / "o.json").exists()
    finally:
        assert first.finish() == 0


def test_a_new_game_passes_over_the_name_another_new_game_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two games started in the same second with the same seed took one name, and the second was refused
    # as "open in another kalooki" (a file the player never named). The second takes the next name.
    from datetime import datetime

    from kalooki_cli import save_lock
    from kalooki_cli.saves import new_save_path

    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path / "home"))
    started = datetime(2026, 12, 5, 20, 18, 27)
    first = tmp_path / "home" / "saves" / "20261205-201827-seed7.kalooki-save.json"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_AND_WAIT, str(first)],
        env=environment(tmp_path),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline() == "held\n"
        with save_lock.holding():
            second = new_save_path(7, now=started)
            assert second.name == "20261205-201827-seed7-2.kalooki-save.json"
            assert save_lock.open_elsewhere(first)
    finally:
        holder.communicate("", timeout=TIMEOUT)
    with save_lock.holding():  # the first game gone without writing: its name is free again
        assert new_save_path(7, now=started) == first


HOLD_AND_WAIT = """
import sys
from pathlib import Path
from kalooki_cli import save_lock
save_lock.hold(Path(sys.argv[1]))
print("held", flush=True)
sys.stdin.read()
"""


def test_saving_onto_a_game_open_in_another_kalooki_says_so(logged_game: Path) -> None:
    # "s.json: already holds a saved game (continue it with kalooki resume s.json)" named a command that,
    # with the game open in the other terminal, is refused as well.
    first = Terminal(logged_game, "resume", "s.json", "--fast", "--no-log")
    try:
        first.until("play> ")
        second = kalooki(logged_game, "play", "--seed", "5", "--fast", typed="save s.json\nquit\n")
        assert second.returncode == 0, second.stderr
        assert "s.json: holds a game open in another kalooki now; give a new file" in second.stdout
        # A new table is no "this game" either: said as play says it, before the table opens.
        host = kalooki(logged_game, "host", "--save", "s.json", "--bind", "127.0.0.1", "--port", "0")
        assert (host.returncode, host.stderr.strip()) == (
            1,
            "s.json: holds a game open in another kalooki now; give a new file",
        )
    finally:
        assert first.finish("quit\n") == 0
    # Once it is not open, the file is named as a game to continue.
    third = kalooki(logged_game, "play", "--seed", "5", "--fast", typed="save s.json\nquit\n")
    assert "s.json: already holds a saved game (continue it with `kalooki resume s.json`)" in third.stdout
