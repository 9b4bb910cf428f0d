"""SIGTERM (``timeout``, a cancelled CI job, systemd) stops ``simulate``, ``simulate --compare`` and ``sweep``
with their worker processes, as Ctrl-C does: it ended the command alone, and both workers lived on,
children of PID 1, blocked reading a pipe for ever. Real processes in a session of their own."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

KALOOKI = Path(sys.executable).with_name("kalooki")
pytestmark = [
    pytest.mark.skipif(not KALOOKI.exists(), reason="needs the installed console script"),
    pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from Linux's /proc"),
]
FIGURES = "nothing is reported, as a simulation's figures need all its games"


def processes() -> list[tuple[int, int, int]]:
    """(pid, parent, session) of every live process."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # it ended while being read
            continue
        if fields[0] != "Z":
            found.append((int(entry.name), int(fields[1]), int(fields[3])))
    return found


def wait_until(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["simulate", "-n", "2000", "-w", "2"],
            rf"terminated \(SIGTERM\) after [\d,]+ of 2,000 games: {FIGURES}",
        ),
        (
            ["simulate", "-n", "2000", "-w", "2", "--compare-set", "jokers=4"],
            rf"terminated \(SIGTERM\) after [\d,]+ of 4,000 games \(2,000 a variant\): {FIGURES}",
        ),
        (
            ["sweep", "--grid", "jokers=2,4", "-n", "2000", "-w", "2"],
            re.escape(
                "terminated (SIGTERM): nothing was saved (give --out DIR to keep finished cells and resume)"
            ),
        ),
    ],
)
def test_sigterm_stops_the_workers_and_says_how_far_it_got(
    args: list[str], said: str, tmp_path: Path
) -> None:
    # Files, not pipes: workers left behind would hold a pipe open, and reading it would never end.
    with (tmp_path / "out").open("w") as out, (tmp_path / "err").open("w") as err:
        command = subprocess.Popen([str(KALOOKI), *args], stdout=out, stderr=err, start_new_session=True)
    session = command.pid

    def workers() -> list[int]:
        return [pid for pid, parent, _ in processes() if parent == command.pid]

    def left() -> list[int]:
        return [pid for pid, _, sid in processes() if sid == session]

    try:
        assert wait_until(lambda: len(workers()) == 2, 120), "the two workers never started"
        time.sleep(1)  # playing
        command.send_signal(signal.SIGTERM)
        assert command.wait(timeout=120) == 143
        assert (tmp_path / "out").read_text() == ""
        assert re.fullmatch(said, (tmp_path / "err").read_text().strip())
        assert wait_until(lambda: not left(), 30), f"workers left behind: {left()}"
    finally:
        command.kill()
        for pid in left():  # whatever the command left behind, each by its id
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        command.wait(timeout=30)
