"""End to end: the installed ``kalooki`` console script under a pseudo-terminal, as a person runs it.

It plays legal moves, is stopped with Ctrl-C, and the game is resumed from its save.
Uses only the standard library (``pty``); skipped where there are no pseudo-terminals.
"""

from __future__ import annotations

import os
import platform
import re
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from kalooki_cli.saves import read_save

from kalooki.savegame import SAVE_SUFFIX

pty = pytest.importorskip("pty")

KALOOKI = Path(sys.executable).with_name("kalooki")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
TIMEOUT = 30.0
READ_SYSCALL = {"x86_64": 0, "aarch64": 63}.get(platform.machine())
"""The number of read(2) in /proc/PID/syscall on this machine (None: not known here)."""
SELECT_SYSCALLS = {"x86_64": ("23", "270"), "aarch64": ("72",)}.get(platform.machine(), ())
"""select(2) and pselect6(2): where ``input()`` waits for the keyboard once ``readline`` edits the line."""

pytestmark = pytest.mark.skipif(
    sys.platform == "win32" or not KALOOKI.exists(),
    reason="needs a POSIX pty and the installed console script",
)


class Terminal:
    """A child process on a pseudo-terminal: type into it, wait for what it prints."""

    def __init__(self, arguments: list[str], env: dict[str, str], program: Path = KALOOKI) -> None:
        try:
            pid, fd = pty.fork()
        except OSError as error:  # a sandbox without /dev/ptmx
            pytest.skip(f"no pseudo-terminal: {error}")
        if pid == 0:  # the child: become the kalooki command (or the program that runs it)
            try:
                # As a person's shell would: a test run in the background has SIGINT ignored (and
                # under nohup, SIGHUP), and an ignored signal stays ignored across exec, so Ctrl-C (or
                # a hang-up) would do nothing.
                for each in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                    signal.signal(each, signal.SIG_DFL)
                os.execve(str(program), [str(program), *arguments], env)
            finally:
                os._exit(127)
        self.pid = pid
        self.reader = pid
        """The process that reads the keyboard: the child, or a process it started (make's kalooki)."""
        self.fd = fd
        self.output = ""
        self.matched = 0
        """Where the last wait's pattern ended: the next wait looks from there."""
        self.status: int | None = None

    def read_until(self, pattern: str, timeout: float = TIMEOUT) -> str:
        """Read until ``pattern`` (a regex) appears after what the last wait matched; the text from there.

        From the last match, not from the end of the output read so far: one read may bring both
        what a wait was for and what the next wait is for (a bot that answers at once, a busy
        machine), and the second must still find its text.
        """
        start = self.matched
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)
        while (match := regex.search(self.output, start)) is None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(
                    f"timed out waiting for {pattern!r}; the screen ends:\n{self.output[-2000:]}"
                )
            ready, _, _ = select.select([self.fd], [], [], remaining)
            if not ready:
                continue
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:  # the child closed the terminal
                chunk = b""
            if not chunk:
                raise AssertionError(
                    f"the program ended before {pattern!r}; its screen:\n{self.output[-2000:]}"
                )
            self.output += ANSI.sub("", chunk.decode("utf-8", errors="replace")).replace("\r\n", "\n")
        self.matched = match.end()
        return self.output[start:]

    def type(self, text: str) -> None:
        os.write(self.fd, text.encode("utf-8"))

    def interrupt(self) -> None:
        """Type Ctrl-C at the prompt just printed, once the program waits reading its keyboard.

        CPython's ``input()`` misses a SIGINT that lands after the prompt is printed and before
        it blocks in read(2): it then waits for the next line. A person cannot type that fast,
        a test can (one run in thirty on a busy machine), so the test waits for the read.
        """
        self._wait_for_the_keyboard()
        self.type("\x03")

    def send_signal(self, signum: int) -> None:
        """Send ``signum`` (SIGTERM, SIGHUP) once the program waits reading its keyboard, as :meth:`interrupt`
        types Ctrl-C: a person's ``kill``, or the terminal window closed."""
        self._wait_for_the_keyboard()
        os.kill(self.reader, signum)

    def _wait_for_the_keyboard(self) -> None:
        deadline = time.monotonic() + TIMEOUT
        while not self._reading_keyboard():
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"the program never waited for a line; its screen:\n{self.output[-2000:]}"
                )
            time.sleep(0.002)

    def _reading_keyboard(self) -> bool:
        try:
            # The main thread's system call: its number and first argument (the file descriptor),
            # or "running".
            fields = Path(f"/proc/{self.reader}/syscall").read_text().split()
        except OSError:
            fields = []
        if READ_SYSCALL is None or not fields:
            time.sleep(0.2)  # no /proc here: give the program time to reach its read
            return True
        if fields[0] in SELECT_SYSCALLS:  # its first argument is how many descriptors: 1, the keyboard alone
            return int(fields[1], 16) == 1
        return fields[0] == str(READ_SYSCALL) and int(fields[1], 16) == 0

    def wait(self, timeout: float = TIMEOUT) -> int:
        """Drain the output until the child exits; its exit status (128 + N for signal N)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    chunk = b""
                self.output += ANSI.sub("", chunk.decode("utf-8", errors="replace")).replace("\r\n", "\n")
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
                if self.status < 0:
                    self.status = 128 - self.status
                return self.status
        self.kill()
        raise AssertionError(f"the program did not exit; its screen:\n{self.output[-2000:]}")

    def hang_up(self, timeout: float = TIMEOUT) -> int:
        """Close the terminal, as its window closing does (the program is sent SIGHUP, and the terminal is
        gone for what it writes after); its exit status."""
        os.close(self.fd)
        self.fd = -1
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
                return self.status if self.status >= 0 else 128 - self.status
            time.sleep(0.02)
        self.kill()
        raise AssertionError("the program did not exit when its terminal closed")

    def kill(self) -> None:
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
            self.status = -1
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def environment(home: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "FORCE_COLOR")}
    env.update({"KALOOKI_HOME": str(home), "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "40"})
    env.update({"PYTHONIOENCODING": "utf-8", "LANG": "C.UTF-8"})
    return env


def last_hand(screen: str) -> list[str]:
    """The cards of the last 'Your hand' line on the screen, as typed (the prompt reads ♣♦♥♠ too)."""
    line = re.findall(r"Your hand \(\d+\): (.*)", screen)[-1]
    return [card.rstrip("*") for card in line.split()]


def test_play_ctrl_c_and_resume(tmp_path: Path) -> None:
    env = environment(tmp_path)
    started = time.monotonic()
    terminal = Terminal(["play", "--seed", "31", "--fast"], env)
    try:
        screen = terminal.read_until(r"draw> ")
        first_prompt = time.monotonic() - started
        assert "Seed 31: deal the same cards again with kalooki play --seed 31" in screen
        (save,) = (tmp_path / "saves").glob(f"*{SAVE_SUFFIX}")
        # The path is too long for the line: it has a line of its own, whole.
        assert f"The game is saved after every move to\n  {save}\n" in screen
        assert first_prompt < 10  # generous for slow CI; measured well under a second here

        terminal.type("ds\n")
        screen = terminal.read_until(r"play> ")
        assert "You draw " in screen
        hand = last_hand(screen)
        assert len(hand) == 14
        terminal.type("bogus\n")
        assert "is not a command" in terminal.read_until(r"play> ")
        discard = next(card for card in hand if card != "JK")
        terminal.type(f"d {discard}\n")
        screen = terminal.read_until(r"draw> ")
        assert f"You discard {discard}." in screen
        assert "turn 5" in screen  # the three bots have played

        turn_before = read_save(save).game.to_json()
        terminal.interrupt()  # Ctrl-C at the prompt
        assert terminal.wait() == 130
        assert "Interrupted: the game is saved in" in terminal.output
    finally:
        terminal.kill()

    resumed = Terminal(["resume", "--fast"], env)
    try:
        screen = resumed.read_until(r"draw> ")
        # Wrapped at 80 columns between words.
        assert (
            "Resuming your game against bob (greedy bot), cid (greedy bot), dee (greedy bot) "
            "\n(hand 1, turn 5)." in screen
        )
        saved = read_save(save).game
        assert saved.to_json() == turn_before
        shown = sorted(last_hand(screen))
        assert len(shown) == len(saved.hands[0]) == 13
        resumed.type("ds\n")
        resumed.read_until(r"play> ")
        resumed.type("quit\n")
        assert resumed.wait() == 0
        assert "Stopped: the game is saved in" in resumed.output
        assert read_save(save).game.phase == "play"
    finally:
        resumed.kill()


def test_a_44_column_terminal_gets_every_total_whole(tmp_path: Path) -> None:
    env = environment(tmp_path)
    env["COLUMNS"] = "44"
    terminal = Terminal(["play", "--seed", "31", "--fast", "--name", "ann"], env)
    try:
        screen = terminal.read_until(r"draw> ")
        terminal.type("quit\n")
        assert terminal.wait() == 0
    finally:
        terminal.kill()
    table = screen[screen.index("Hand 1: you play first") :]
    lines = table.splitlines()
    assert max(len(line) for line in lines) <= 44, table
    assert "…" not in table
    assert "classic · hand 1, dealt by dee · turn 1" in table
    for name in ("ann (you)", "bob (greedy bot)", "cid (greedy bot)", "dee (greedy bot)"):
        assert re.search(rf"^. {re.escape(name)} +13 no +0 *$", table, re.MULTILINE), table


def test_a_line_typed_while_the_bots_play_is_dropped_and_said(tmp_path: Path) -> None:
    # Typed ahead during the bots' pauses, a line became the next move, chosen on a table the bots
    # had changed since: "ds" drew a card the player never decided to draw.
    env = environment(tmp_path)
    terminal = Terminal(["play", "--seed", "31"], env)  # not --fast: the bots pause between turns
    try:
        terminal.read_until(r"draw> ")
        (save,) = (tmp_path / "saves").glob(f"*{SAVE_SUFFIX}")
        terminal.type("ds\n")
        hand = last_hand(terminal.read_until(r"play> "))
        terminal.type(f"d {next(card for card in hand if card != 'JK')}\n")
        terminal.read_until(r"You discard")
        terminal.type("ds\n")  # while the bots play
        screen = terminal.read_until(r"draw> ")
        assert "What you typed while the bots played is dropped: type it at your prompt." in screen
        terminal.type("quit\n")
        assert terminal.wait() == 0
        game = read_save(save).game
        assert (game.phase, game.current, game.turn_number) == ("draw", 0, 5)
    finally:
        terminal.kill()


def test_the_prompt_edits_lines_and_brings_back_earlier_ones(tmp_path: Path) -> None:
    # Without readline loaded the arrows were typed into the move: "s", Left, "d" was the command
    # 's\x1b[Dd', and Up could not bring back a long meld to mend one card of it.
    terminal = Terminal(["play", "--seed", "31", "--fast"], environment(tmp_path))
    try:
        terminal.read_until(r"draw> ")
        terminal.type("s\x1b[Dd\n")  # Left: the d goes before the s
        screen = terminal.read_until(r"play> ")
        assert "You draw " in screen
        terminal.type("\x1b[A\n")  # Up: the line before, "ds", again
        assert "you have drawn already this turn" in terminal.read_until(r"play> ")
        terminal.type("quit\n")
        assert terminal.wait() == 0
    finally:
        terminal.kill()


ROOT = Path(__file__).resolve().parent.parent


def _child_of(parent: int, name: str) -> int | None:
    """A process whose parent is ``parent`` and whose command line holds ``name``, if one runs."""
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == parent and name in command:
            return int(entry.name)
    return None


def test_make_play_stopped_with_ctrl_c_is_no_error_of_makes(tmp_path: Path) -> None:
    """Ctrl-C stops the game with its save in place; make added 'make: *** [play] Error 130' under it,
    and the 'kalooki resume' it suggests is not on the PATH until the venv is active: said now."""
    make = shutil.which("make")
    if make is None or not Path("/proc/self/stat").exists():
        pytest.skip("needs make and /proc")
    if subprocess.run([make, "-q", "-C", str(ROOT), ".venv/.installed"], check=False).returncode != 0:
        pytest.skip("the checkout's .venv is not set up by make (make play would install it)")
    env = environment(tmp_path)
    # A PATH without kalooki, as a newcomer's shell is before activating the venv.
    env["PATH"] = os.pathsep.join(
        folder for folder in env["PATH"].split(os.pathsep) if not (Path(folder) / "kalooki").exists()
    )
    terminal = Terminal(["-s", "-C", str(ROOT), "play", "ARGS=--fast --seed 1"], env, program=Path(make))
    try:
        terminal.read_until(r"draw> ")
        shell = _child_of(terminal.pid, "kalooki play")
        assert shell is not None
        reader = _child_of(shell, "kalooki play")
        terminal.reader = shell if reader is None else reader  # sh may exec kalooki in its place
        terminal.interrupt()
        terminal.read_until(r"Continue it with:")
        # Named whole, on a line of its own (a terminal of 80 wrapped it mid-word inside the sentence):
        # `make -C CHECKOUT play` is run from another folder.
        terminal.read_until(
            re.escape("kalooki is in .venv; to have it on your PATH for kalooki resume and the rest:")
            + r"\r?\n"
            + re.escape(f"    . {ROOT}/.venv/bin/activate")
            + r"\r?\n"
        )
        terminal.wait()
        assert "make: ***" not in terminal.output
    finally:
        terminal.kill()
    # A usage error is make's error still, with kalooki's own status, and no word about the PATH.
    refused = subprocess.run(
        [make, "-s", "-C", str(ROOT), "play", "ARGS=--players 9"],
        env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False,
    )  # fmt: skip
    assert "Invalid value for '--players': classic is for 2 to 4 players" in refused.stderr
    assert "play] Error 2" in refused.stderr
    assert "on your PATH" not in refused.stdout + refused.stderr
