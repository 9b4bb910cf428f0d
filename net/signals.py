"""Ctrl-C reaches the main thread, whatever threads a table's host and connection start.

POSIX gives a process's SIGINT to any one of its threads that does not block it. Python runs its
handler in the main thread, but a main thread blocked reading the keyboard wakes only when the
signal lands on it: landed on the host's thread or a connection's reader, Ctrl-C at a prompt did
nothing at all. A thread starts with the signal mask of the thread that starts it, so the threads
started inside :func:`sigint_stays_with_main` (kalooki's own and those ``websockets`` and
``asyncio`` start in turn) block SIGINT, and every Ctrl-C goes to the main thread.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def sigint_stays_with_main() -> Iterator[None]:
    """Start threads in this block: they and the threads they start never take a SIGINT."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield  # Windows has no signal masks; another thread's mask already stays as it is
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        # A Ctrl-C typed meanwhile was held, and is raised here, in the main thread.
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
