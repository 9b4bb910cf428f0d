"""A message that stops a command under its progress bar starts a line of its own: written under the
live bar, it ran on from the bar's last column (``…ETA 0:30:14interrupted after 150 …``)."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ctrl_c import takes_ctrl_c

pty = pytest.importorskip("pty")

KALOOKI = Path(sys.executable).with_name("kalooki")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
TIMEOUT = 30.0


def screen_lines(raw: str) -> list[str]:
    """The lines a terminal shows of ``raw``, as far as a bar and a message need: text, carriage
    returns, new lines, a line up and a line erased; colours and the cursor's showing are dropped."""
    lines = [""]
    row = column = 0
    for piece in re.split(r"(\r|\n|\x1b\[[0-9;?]*[A-Za-z])", raw):
        if piece == "\r":
            column = 0
        elif piece == "\n":
            row += 1
            lines += [""] * (row + 1 - len(lines))
        elif piece == "\x1b[1A":
            row = max(row - 1, 0)
        elif piece == "\x1b[2K":
            lines[row] = ""
        elif not ANSI.fullmatch(piece):
            line = lines[row].ljust(column)
            lines[row] = line[:column] + piece + line[column + len(piece) :]
            column += len(piece)
    return [line for line in lines if line]


def stopped_under_the_bar(arguments: list[str], until: str) -> list[str]:
    """Run ``kalooki arguments`` with stderr on a pseudo-terminal, Ctrl-C it once ``until`` is shown."""
    try:
        leader, follower = pty.openpty()
    except OSError as error:  # a sandbox without /dev/ptmx
        pytest.skip(f"no pseudo-terminal: {error}")
    environment = {key: value for key, value in os.environ.items() if key not in ("FORCE_COLOR", "NO_COLOR")}
    environment.update(COLUMNS="100", TERM="xterm")
    command = subprocess.Popen(
        takes_ctrl_c([str(KALOOKI), *arguments]),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=follower,
        env=environment,
        start_new_session=True,
    )
    os.close(follower)
    raw = b""
    deadline = time.monotonic() + TIMEOUT
    interrupted = False
    try:
        while time.monotonic() < deadline:
            if not interrupted and until.encode() in raw:
                time.sleep(0.5)
                os.killpg(command.pid, signal.SIGINT)
                interrupted = True
            ready, _, _ = select.select([leader], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:  # the command closed its end
                    break
                if not chunk:
                    break
                raw += chunk
            elif command.poll() is not None:
                break
    finally:
        if command.poll() is None:
            os.killpg(command.pid, signal.SIGKILL)
        command.wait()
        os.close(leader)
    assert command.returncode == 130, raw
    return screen_lines(raw.decode(errors="replace"))


def test_ctrl_c_in_simulate_is_told_on_a_line_of_its_own() -> None:
    lines = stopped_under_the_bar(["simulate", "classic", "-n", "200000", "--workers", "1"], "simulating")
    told = [line for line in lines if "interrupted after" in line]
    assert len(told) == 1, lines
    assert told[0].startswith("interrupted after"), lines
    assert "simulating" not in "".join(lines), lines


def test_ctrl_c_in_sweep_is_told_on_a_line_of_its_own() -> None:
    arguments = ["sweep", "--grid", "opening_threshold=40,51", "-n", "100000", "--workers", "1"]
    lines = stopped_under_the_bar(arguments, "sweeping")
    told = [line for line in lines if "interrupted: nothing was saved" in line]
    assert len(told) == 1, lines
    assert told[0].startswith("interrupted: nothing was saved"), lines
    assert "sweeping" not in "".join(lines), lines
