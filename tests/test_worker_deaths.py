"""A worker process of ``kalooki simulate`` or ``sweep`` killed (the OOM killer, ``kill -9``): one line
saying so, exit 1, and the cells a sweep finished kept in ``--out``; never the pool's traceback. And the
command itself killed (``kill -9``, SIGHUP): its workers do not live on."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_simulate_ctrl_c import KALOOKI, STARTUP_LIMIT, STOP_LIMIT, alive, children

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


SWEEP = ["sweep", "classic", "--grid", "opening_threshold=0,40,51,60", "-n", "20000", "--out", "lab"]


def test_a_worker_killed_in_sweep_keeps_its_finished_cells(tmp_path: Path) -> None:
    sweep, workers = started(SWEEP, tmp_path)
    os.kill(workers[1], signal.SIGKILL)
    out, err = stopped(sweep)
    assert (sweep.returncode, out) == (1, "")
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert re.fullmatch(
        rf"{re.escape(LOST)}: [0-4] of 4 cells saved in lab; run the same command again to resume", lines[0]
    )


def gone(workers: list[int]) -> bool:
    """Whether the workers end within :data:`STOP_LIMIT` seconds (a zombie no one reaps has ended)."""
    deadline = time.monotonic() + STOP_LIMIT
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not any(alive(pid) for pid in workers)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
def test_workers_end_with_a_simulate_killed_outright(tmp_path: Path) -> None:
    # Killed without a chance to stop them, the command left its workers to PID 1, asleep for good.
    simulate, workers = started(["simulate", "classic", "-n", "100000"], tmp_path)
    try:
        os.kill(simulate.pid, signal.SIGKILL)
        simulate.wait()
        assert gone(workers), "a worker outlived the command"
    finally:
        end_leftovers(workers)


def end_leftovers(workers: list[int]) -> None:
    """Kill the workers a failed test left behind (by their ids: they are this test's)."""
    for pid in workers:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize(
    "command", [["simulate", "classic", "-n", "100000"], SWEEP], ids=["simulate", "sweep"]
)
def test_sighup_stops_the_games_and_their_workers(command: list[str], tmp_path: Path) -> None:
    # A terminal closed, a session ended: the command ended alone (exit 129), its workers played on.
    running, workers = started(command, tmp_path)
    try:
        running.send_signal(signal.SIGHUP)
        out, err = stopped(running)
        assert (running.returncode, out) == (129, ""), err
        assert err.startswith("hung up (SIGHUP)")
        assert len(err.splitlines()) == 1, err
        assert gone(workers), "a worker outlived the command"
    finally:
        end_leftovers(workers)
