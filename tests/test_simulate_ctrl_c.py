"""Ctrl-C during ``kalooki simulate`` with worker processes: one line saying how far it got, exit 130,
and no process left behind; and Ctrl-C while the command line is still loading: exit 130, quietly.

A terminal sends SIGINT to the whole process group; ``timeout -s INT`` and ``kill -INT`` send it to the
command alone, and then the workers hear nothing: the command must stop them itself.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ctrl_c import takes_ctrl_c

KALOOKI = Path(sys.executable).with_name("kalooki")
STARTUP_LIMIT = 30.0
"""Seconds the command may take to start its workers."""
STOP_LIMIT = 20.0
"""Seconds it may take to stop after Ctrl-C."""


def start_simulate(workers: int) -> subprocess.Popen[str]:
    """``kalooki simulate`` of 2,000 games, taking Ctrl-C as from a shell, in a process group of its own."""
    return subprocess.Popen(
        takes_ctrl_c([str(KALOOKI), "simulate", "classic", "-n", "2000", "--workers", str(workers)]),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def children(pid: int) -> set[int]:
    """The processes ``pid`` started (Linux's /proc lists them per thread)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found.update(int(child) for child in (task / "children").read_text().split())
        except OSError:
            continue
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads child processes from /proc")
@pytest.mark.parametrize("whole_group", [True, False], ids=["terminal", "command-alone"])
def test_ctrl_c_stops_simulate_and_its_workers(whole_group: bool) -> None:
    simulate = start_simulate(workers=2)
    try:
        deadline = time.monotonic() + STARTUP_LIMIT
        workers: set[int] = set()
        while len(workers) < 2 and time.monotonic() < deadline and simulate.poll() is None:
            time.sleep(0.1)
            workers = children(simulate.pid)
        assert len(workers) == 2, "the workers did not start"
        time.sleep(1.0)  # games under way in both
        if whole_group:
            os.killpg(simulate.pid, signal.SIGINT)
        else:
            simulate.send_signal(signal.SIGINT)
        out, err = simulate.communicate(timeout=STOP_LIMIT)
    finally:
        if simulate.poll() is None:
            os.killpg(simulate.pid, signal.SIGKILL)
            simulate.wait()
    assert simulate.returncode == 130, err
    assert out == ""
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("interrupted after ")
    told = " of 2,000 games: nothing is reported, as a simulation's figures need all its games"
    assert lines[0].endswith(told)
    deadline = time.monotonic() + STOP_LIMIT
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in workers), "a worker outlived the command"


@pytest.mark.parametrize("after", [0.1, 0.25])
def test_ctrl_c_while_the_command_loads_ends_it_quietly(after: float) -> None:
    # Loading the command line takes a few tenths of a second: a Ctrl-C then landed in some import and
    # printed its traceback. (Should it land once the command runs, simulate says how far it got.)
    for attempt in range(8):
        simulate = start_simulate(workers=1)
        try:
            time.sleep(after * (attempt + 1))
            simulate.send_signal(signal.SIGINT)
            out, err = simulate.communicate(timeout=STOP_LIMIT)
        except subprocess.TimeoutExpired:
            simulate.kill()
            out, err = simulate.communicate()
        finally:
            if simulate.poll() is None:
                simulate.kill()
                simulate.wait()
        # On a loaded machine the signal can land while Python itself starts, before any of the
        # command's code runs: before it has its own SIGINT handler (killed by the signal, -2), while
        # it reads its site packages ("Fatal Python error: init_import_site"), or while it checks the
        # script's path ("Failed checking if argv[0] is an import path entry": Python prints the
        # KeyboardInterrupt and runs the command, whose games then play on). Not what is tested here:
        # try again, later each time, as the load slows the start (a signal that lands once the
        # command runs is said as the last assertion allows).
        in_python_start = "init_import_site" in err or "import path entry" in err
        if simulate.returncode != -signal.SIGINT and not in_python_start:
            break
    assert simulate.returncode == 130, err
    assert out == ""
    assert "Traceback" not in err
    assert err == "" or err.startswith("interrupted after ")


# A Ctrl-C is a signal that lands between any two steps of Python's. These harnesses land one at
# the moments that went wrong, as deterministically as a test can, and run the command as its
# console script does.
_RUN_KALOOKI = """
import sys
sys.argv = ["kalooki", *sys.argv[1:]]
from kalooki_cli.launch import main
main()
"""

# Pydantic builds a model's validator in compiled code that turns an exception raised inside into its
# own SchemaError naming it: a Ctrl-C landing there came out as that error's traceback. An import hook
# lands one at that point, inside code that wraps whatever is raised as pydantic does: while the
# command line loads (kalooki.variant), and while a command imports what it needs when it runs
# (the network client, for join).
_CTRL_C_INSIDE_A_WRAPPING_IMPORT = """
import signal, sys
from pydantic_core import SchemaError

class CtrlCWhileModelsBuild:
    module = sys.argv.pop(1)

    def find_spec(self, name, path=None, target=None):
        if name == self.module:
            try:
                signal.raise_signal(signal.SIGINT)
            except BaseException as error:
                raise SchemaError(f"Error building a validator: {error!r}")
        return None

sys.meta_path.insert(0, CtrlCWhileModelsBuild())
"""

# Typer builds the command from its function's annotations before the command runs (a tenth of a
# second on each run), outside the part of it that ends a Ctrl-C quietly.
_CTRL_C_WHILE_TYPER_BUILDS = """
import signal, sys
import typer.main

built = typer.main.get_command

def get_command(app):
    signal.raise_signal(signal.SIGINT)
    return built(app)

typer.main.get_command = get_command
"""


# Once loaded, the handler that notes a Ctrl-C is let go, and the command's first lines run before any
# part of it that ends a Ctrl-C quietly.
_CTRL_C_ONCE_LOADED = """
import signal
import kalooki_cli.output

def whole_writes():
    signal.raise_signal(signal.SIGINT)

kalooki_cli.output.whole_writes = whole_writes
"""


@pytest.mark.parametrize(
    ("harness", "arguments"),
    [
        (_CTRL_C_INSIDE_A_WRAPPING_IMPORT, ["kalooki.variant", "variants"]),
        (_CTRL_C_INSIDE_A_WRAPPING_IMPORT, ["kalooki_net.client", "join", "127.0.0.1:1", "--code", "x"]),
        (_CTRL_C_WHILE_TYPER_BUILDS, ["variants"]),
        (_CTRL_C_ONCE_LOADED, ["variants"]),
    ],
    ids=[
        "while-the-command-line-loads",
        "while-join-imports-the-client",
        "while-typer-builds-the-command",
        "once-the-command-line-is-loaded",
    ],
)
def test_ctrl_c_at_a_moment_no_command_handles_ends_quietly(harness: str, arguments: list[str]) -> None:
    interrupted = subprocess.run(
        takes_ctrl_c([sys.executable, "-c", harness + _RUN_KALOOKI, *arguments]),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=STOP_LIMIT,
        check=False,
    )
    assert (interrupted.returncode, interrupted.stdout, interrupted.stderr) == (130, "", "")


def _pid() -> int:
    return os.getpid()


def _pid_after_a_moment() -> int:
    # Two at once, each holding its worker a moment, so that both workers take one (quick tasks, under
    # load, were all taken by the first worker ready).
    time.sleep(0.2)
    return os.getpid()


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads child processes from /proc")
def test_a_worker_idle_between_tasks_leaves_ctrl_c_to_its_parent() -> None:
    # A terminal's Ctrl-C reaches every worker too: one waiting for its next task raised KeyboardInterrupt,
    # printed its traceback under the one-line report, and died, breaking the pool. The parent stops them.
    from kalooki.executors import open_pool

    with open_pool(2, most=2) as pool:
        workers: set[int] = set()
        deadline = time.monotonic() + STARTUP_LIMIT
        while len(workers) < 2 and time.monotonic() < deadline:
            tasks = [pool.executor.submit(_pid_after_a_moment) for _ in range(2)]
            workers |= {task.result(timeout=STARTUP_LIMIT) for task in tasks}
        assert len(workers) == 2, "the second worker took no task"
        for worker in workers:
            os.kill(worker, signal.SIGINT)
        time.sleep(0.5)
        assert all(alive(worker) for worker in workers)
        assert pool.executor.submit(_pid).result(timeout=STARTUP_LIMIT) in workers
