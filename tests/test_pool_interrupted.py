"""A signal that lands inside the process pool's own start (``simulate`` or ``sweep`` with ``--workers``)
stops the games as anywhere else: the KeyboardInterrupt (or SIGTERM/SIGHUP's) comes out of the pool, no
worker is left behind, and the process ends.

The moments are made deterministic here by raising the interrupt from the pool's own steps, as a
signal's handler raises it between any two of Python's: just after a worker is forked and before the
pool lists it, and while the pool's manager thread starts (never started, or started a moment late).
Each script runs in a process of its own, whose exit the test waits for: a worker left waiting made
that exit wait for ever. And a signal whose handler ran where Python swallows what is raised (a fork's
hooks) still stops the command.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from ctrl_c import takes_ctrl_c
from test_simulate_ctrl_c import STOP_LIMIT, alive


def run_python(script: str, timeout: float = STOP_LIMIT) -> subprocess.CompletedProcess[str]:
    """``script`` run by this Python in a process of its own, its output captured."""
    return subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


PLAY = """
import concurrent.futures.process as pool_module
import threading
from kalooki.executors import open_pool, run_tasks

{patch}
try:
    with open_pool(2) as pool:
        run_tasks(pool, [(0, abs, (-1,))], lambda key, result: None)
except KeyboardInterrupt:
    print("stopped", flush=True)
"""

UNLISTED_WORKER = """
def spawn(self):
    process = self._mp_context.Process(
        target=pool_module._process_worker,
        args=(self._call_queue, self._result_queue, self._initializer, self._initargs,
              self._max_tasks_per_child),
    )
    process.start()
    print(process.pid, flush=True)
    raise KeyboardInterrupt  # forked, not yet on the pool's list

pool_module.ProcessPoolExecutor._spawn_process = spawn
"""

MANAGER_NEVER_STARTED = """
def start(self):
    raise KeyboardInterrupt  # before the thread is asked for

pool_module._ExecutorManagerThread.start = start
"""

MANAGER_STARTED_LATE = """
real_start = pool_module._ExecutorManagerThread.start

def start(self):
    threading.Timer(0.3, real_start, (self,)).start()
    raise KeyboardInterrupt  # asked for, not yet running

pool_module._ExecutorManagerThread.start = start
"""


@pytest.mark.parametrize(
    "patch",
    [UNLISTED_WORKER, MANAGER_NEVER_STARTED, MANAGER_STARTED_LATE],
    ids=["worker-not-listed", "manager-never-started", "manager-started-late"],
)
def test_an_interrupt_inside_the_pools_start_stops_it_cleanly(patch: str) -> None:
    script = PLAY.format(patch=textwrap.dedent(patch))
    try:
        ran = run_python(script)
    except subprocess.TimeoutExpired:
        pytest.fail("the process did not end: it waited for a worker, or for its pool, for ever")
    lines = ran.stdout.split()
    assert (ran.returncode, lines[-1:], ran.stderr) == (0, ["stopped"], "")
    workers = [int(pid) for pid in lines[:-1]]
    assert not [pid for pid in workers if alive(pid)], "a worker outlived the process"


@pytest.mark.parametrize("method", ["fork", "spawn", "forkserver"])
def test_the_pool_plays_under_each_start_method(method: str) -> None:
    # Spawn and forkserver pickle each worker's process object (Python 3.14 starts with forkserver).
    script = f"""
import multiprocessing
from kalooki.executors import open_pool, run_tasks

if __name__ == "__main__":
    multiprocessing.set_start_method({method!r})
    results = {{}}
    with open_pool(2) as pool:
        run_tasks(pool, [(n, abs, (-n,)) for n in range(8)], results.__setitem__)
    print(sorted(results.items()) == [(n, n) for n in range(8)])
"""
    ran = run_python(script, timeout=60)
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, "True\n", "")


SIGNAL_AS_WORKER_STARTS = """
import multiprocessing.util
import os
import signal
from kalooki.executors import open_pool, run_tasks


def stop(signum, frame):  # the command line's own handler, which a forked worker inherits
    raise KeyboardInterrupt


def close_stdin(close=multiprocessing.util._close_stdin):  # the first step of a worker's start
    os.kill(os.getpid(), signal.{name})  # the terminal's whole group, or a stray SIGTERM
    close()


if __name__ == "__main__":
    signal.signal(signal.{name}, stop)
    multiprocessing.util._close_stdin = close_stdin
    results = {{}}
    with open_pool(2) as pool:
        run_tasks(pool, [(n, abs, (-n,)) for n in range(4)], results.__setitem__)
    print(sorted(results.items()))
"""


@pytest.mark.parametrize("name", ["SIGINT", "SIGHUP"])
def test_a_signal_as_a_worker_starts_is_its_parents_to_act_on(name: str) -> None:
    # The worker ran its parent's handler until its initializer ran, and printed the KeyboardInterrupt.
    ran = run_python(SIGNAL_AS_WORKER_STARTS.format(name=name), timeout=60)
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, "[(0, 0), (1, 1), (2, 2), (3, 3)]\n", "")


# Python prints what some steps raise as "Exception ignored" and goes on: a fork's hooks (the pool forks
# its workers as the first games are sent), an object's finalizer. A stop whose handler ran there was
# lost, and the games played on. These harnesses land the signal at such a step (the command's first
# fork; a finalizer as the games start) and run the command as its console script does.
_SIGNAL_INSIDE_A_FORK_HOOK = """
import os, signal, sys
signum = getattr(signal, sys.argv.pop(1))
forks = []

def after_fork_in_parent():
    forks.append(1)
    if len(forks) == 1:
        signal.raise_signal(signum)

os.register_at_fork(after_in_parent=after_fork_in_parent)
"""

_SIGNAL_INSIDE_A_FINALIZER = """
import signal, sys
import kalooki.simulate
signum = getattr(signal, sys.argv.pop(1))
run_tasks = kalooki.simulate.run_tasks

class SignalledWhenCollected:
    def __del__(self):
        signal.raise_signal(signum)

def run_tasks_after_a_finalizer(*args, **kwargs):
    SignalledWhenCollected()
    return run_tasks(*args, **kwargs)

kalooki.simulate.run_tasks = run_tasks_after_a_finalizer
"""

_RUN_KALOOKI = """
sys.argv = ["kalooki", *sys.argv[1:]]
from kalooki_cli.launch import main
main()
"""

SIMULATE = ["simulate", "classic", "-n", "400"]
SWEEP = ["sweep", "classic", "--grid", "opening_threshold=40,51", "-n", "200"]


@pytest.mark.parametrize(
    ("command", "name", "status", "said"),
    [
        (SIMULATE, "SIGHUP", 129, "hung up (SIGHUP)"),
        (SIMULATE, "SIGTERM", 143, "terminated (SIGTERM)"),
        (SIMULATE, "SIGINT", 130, "interrupted"),
        (SWEEP, "SIGHUP", 129, "hung up (SIGHUP)"),
    ],
    ids=["simulate-SIGHUP", "simulate-SIGTERM", "simulate-SIGINT", "sweep-SIGHUP"],
)
@pytest.mark.parametrize(
    "harness", [_SIGNAL_INSIDE_A_FORK_HOOK, _SIGNAL_INSIDE_A_FINALIZER], ids=["fork-hook", "finalizer"]
)
def test_a_signal_python_swallows_still_stops_the_games(
    harness: str, command: list[str], name: str, status: int, said: str, tmp_path: Path
) -> None:
    ran = subprocess.run(
        takes_ctrl_c([sys.executable, "-c", harness + _RUN_KALOOKI, name, *command, "--workers", "2"]),
        cwd=tmp_path,
        env={**os.environ, "KALOOKI_HOME": str(tmp_path / "home")},
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert (ran.returncode, ran.stdout) == (status, ""), ran.stderr
    assert ran.stderr.startswith(said), ran.stderr
    assert len(ran.stderr.splitlines()) == 1, ran.stderr


# The command line's handler, which a forked worker inherits, stops once and then ignores the signal: a
# SIGTERM that reached a worker before it took its own handlers (its parent stopping it as it starts)
# was taken by that handler, and the worker lived on, waiting for work, and its parent waited for it at
# exit for ever. A fork hook registered before kalooki's sends the signal at the worker's first moment.
SIGTERM_AS_A_WORKER_IS_FORKED = """
import os
import signal


def stop(signum, frame):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise KeyboardInterrupt


def sent_as_it_is_forked():
    os.kill(os.getpid(), signal.SIGTERM)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, stop)
    os.register_at_fork(after_in_child=sent_as_it_is_forked)
    from kalooki.executors import ExecutorError, open_pool, run_tasks

    try:
        with open_pool(2) as pool:
            run_tasks(pool, [(n, abs, (-n,)) for n in range(4)], lambda key, result: None)
        print("played on")
    except ExecutorError:
        print("ended")
"""


def test_a_worker_sent_sigterm_as_it_is_forked_ends() -> None:
    ran = run_python(SIGTERM_AS_A_WORKER_IS_FORKED)
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, "ended\n", "")


# A signal's handler runs just after a call returns: landed just after the call that blocks the stopping
# signals for a worker's fork, its KeyboardInterrupt left them blocked for good in this thread (and in
# every process forked from it), and a later Ctrl-C was lost. The first call that blocks raises here.
BLOCKED_THEN_INTERRUPTED = """
import signal
from kalooki.executors import open_pool, run_tasks

block = signal.pthread_sigmask
calls = []

def pthread_sigmask(how, signals):
    before = block(how, signals)
    if how == signal.SIG_BLOCK and signals and not calls:
        calls.append(how)
        raise KeyboardInterrupt
    return before

signal.pthread_sigmask = pthread_sigmask
try:
    with open_pool(2) as pool:
        run_tasks(pool, [(0, abs, (-1,))], lambda key, result: None)
except KeyboardInterrupt:
    print(sorted(signal.Signals(each).name for each in block(signal.SIG_BLOCK, ())))
"""


def test_a_signal_as_the_fork_blocks_signals_leaves_none_blocked() -> None:
    ran = run_python(BLOCKED_THEN_INTERRUPTED)
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, "[]\n", "")
