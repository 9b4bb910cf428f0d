"""A worker process of ``kalooki simulate`` or ``sweep`` killed (the OOM killer, ``kill -9``): one line
saying so, exit 1, and the cells a sweep finished kept in ``--out``; never the pool's traceback."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from test_simulate_ctrl_c import KALOOKI, STARTUP_LIMIT, STOP_LIMIT, children

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/task").is_dir(), reason="reads child processes from /proc"
)

LOST = "a worker process stopped (killed, or out of memory)"


def started(arguments: list[str], folder: Path) -> tuple[subprocess.Popen[str], list[int]]:
    """``kalooki ARGUMENTS`` in ``folder`` with 2 worker processes, once both have started; and them."""
    command = subprocess.Popen(
        [str(KALOOKI), *arguments, "--workers", "2"],
        cwd=folder,
        env={**os.environ, "KALOOKI_HOME": str(folder / "home")},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + STARTUP_LIMIT
    workers: set[int] = set()
    while len(workers) < 2 and time.monotonic() < deadline and command.poll() is None:
        time.sleep(0.1)
        workers = children(command.pid)
    if len(workers) < 2:
        stopped(command)
        pytest.fail("the workers did not start")
    return command, sorted(workers)


def stopped(command: subprocess.Popen[str]) -> tuple[str, str]:
    try:
        return command.communicate(timeout=STOP_LIMIT)
    finally:
        if command.poll() is None:
            os.killpg(command.pid, signal.SIGKILL)
            command.wait()


def test_a_worker_killed_in_simulate_is_one_line(tmp_path: Path) -> None:
    simulate, workers = started(["simulate", "classic", "-n", "100000"], tmp_path)
    os.kill(workers[0], signal.SIGKILL)
    out, err = stopped(simulate)
    assert (simulate.returncode, out) == (1, "")
    assert err.splitlines() == [f"{LOST}: the games it was playing are lost; run again"]


def test_a_worker_killed_in_sweep_keeps_its_finished_cells(tmp_path: Path) -> None:
    grid = ["sweep", "classic", "--grid", "opening_threshold=0,40,51,60", "-n", "20000", "--out", "lab"]
    sweep, workers = started(grid, tmp_path)
    os.kill(workers[1], signal.SIGKILL)
    out, err = stopped(sweep)
    assert (sweep.returncode, out) == (1, "")
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert re.fullmatch(
        rf"{re.escape(LOST)}: [0-4] of 4 cells saved in lab; run the same command again to resume", lines[0]
    )
