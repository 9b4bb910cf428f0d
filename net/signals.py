"""Ctrl-C, SIGTERM and SIGHUP reach the main thread, whatever threads a table's host and connection start.

POSIX gives a process's signal to any one of its threads that does not block it. Python runs its
handler in the main thread, but a main thread blocked reading the keyboard wakes only when the
signal lands on it: landed on the host's thread or a connection's reader, Ctrl-C at a prompt did
nothing at all (and a SIGTERM meant to close the table cleanly waited for the next line typed). A
thread starts with the signal mask of the thread that starts it, so the threads started inside
:func:`signals_stay_with_main` (kalooki's own and those ``websockets`` and ``asyncio`` start in turn)
block these signals, and every one goes to the main thread.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

MAIN_THREAD_SIGNALS = {signal.SIGINT, signal.SIGTERM} | (
    {signal.SIGHUP} if hasattr(signal, "SIGHUP") else set()
)
"""Ctrl-C, and the signals the command line stops a game on as it stops one on Ctrl-C."""


@contextmanager
def signals_stay_with_main() -> Iterator[None]:
    """Start threads in this block: they and the threads they start never take these signals."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield  # Windows has no signal masks; another thread's mask already stays as it is
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, MAIN_THREAD_SIGNALS)
    try:
        yield
    finally:
        # A signal that came meanwhile was held, and is acted on here, in the main thread.
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
