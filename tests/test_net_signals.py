"""Ctrl-C goes to the main thread: every thread a host or a connection starts blocks SIGINT (and SIGTERM
and SIGHUP, which stop a game as Ctrl-C does).

A SIGINT that landed on the host's thread or a connection's reader left the main thread blocked at
its prompt, so Ctrl-C at the host's ``start>`` prompt sometimes did nothing. Linux shows each
thread's blocked signals in ``/proc/self/task/TID/status``.
"""

from __future__ import annotations

import io
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from ctrl_c import takes_ctrl_c
from kalooki_cli.host_thread import HostThread
from kalooki_net.client import CONNECT_TIMEOUT, TableConnection
from net_helpers import new_table
from rich.console import Console

TASKS = Path("/proc/self/task")
KALOOKI = Path(sys.executable).with_name("kalooki")

pytestmark = pytest.mark.skipif(not TASKS.is_dir(), reason="reads each thread's signal mask from /proc")


def blocks_sigint(thread: threading.Thread) -> bool:
    """Whether ``thread`` blocks SIGINT, and SIGTERM and SIGHUP with it (each stops a game as Ctrl-C does,
    in the main thread); a thread that blocks some of them and not the others fails the test."""
    status = (TASKS / str(thread.native_id) / "status").read_text()
    blocked = int(next(line for line in status.splitlines() if line.startswith("SigBlk:")).split()[1], 16)
    each = {bool(blocked >> (signum - 1) & 1) for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    assert len(each) == 1, f"{thread.name} blocks some of SIGINT, SIGTERM and SIGHUP, not all"
    return each.pop()


def test_the_host_and_a_connection_leave_ctrl_c_to_the_main_thread() -> None:
    before = set(threading.enumerate())
    server = HostThread(new_table(), "127.0.0.1", 0, 0.0, Console(file=io.StringIO()), watch=True)
    port = server.start()
    connection = TableConnection(f"ws://127.0.0.1:{port}/")
    try:
        started = [thread for thread in threading.enumerate() if thread not in before]
        names = {thread.name for thread in started}
        assert {"kalooki-host", "kalooki-table-reader"} <= names
        assert len(started) > len(names & {"kalooki-host", "kalooki-table-reader"})  # websockets' own too
        assert [thread.name for thread in started if not blocks_sigint(thread)] == []
        assert not blocks_sigint(threading.main_thread())
        assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())
    finally:
        connection.close()
        server.stop()


def test_ctrl_c_while_a_table_does_not_answer_stops_join_at_once() -> None:
    # A listener that takes the connection and never answers the handshake: join waits on it.
    with socket.create_server(("127.0.0.1", 0)) as silent:
        port = silent.getsockname()[1]
        join = subprocess.Popen(
            takes_ctrl_c([str(KALOOKI), "join", f"127.0.0.1:{port}", "--code", "ABCDE", "--name", "zed"]),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        silent.settimeout(CONNECT_TIMEOUT)
        taken, _ = silent.accept()
        with taken:
            join.send_signal(signal.SIGINT)
            try:
                # Held until the connection's threads had started, it came only with the timeout.
                _, err = join.communicate(timeout=CONNECT_TIMEOUT / 2)
            finally:
                join.kill()
    assert join.returncode == 130
    assert "Traceback" not in err
