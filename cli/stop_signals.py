"""SIGTERM and SIGHUP stop a command as Ctrl-C does, and say which of the three it was.

Left to their default, either signal ended the process on the spot. A game at the keyboard was saved
anyway (after every complete action), but nothing said so; a host's guests heard their connection drop
rather than the table close; a simulation's worker processes lived on. Raised as a :class:`Terminated`,
a kind of KeyboardInterrupt, the signal takes the paths Ctrl-C takes, and only the words and the exit
status tell them apart.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

STOPPING_SIGNALS: tuple[int, ...] = (signal.SIGTERM,) + (
    (signal.SIGHUP,) if hasattr(signal, "SIGHUP") else ()
)
"""SIGTERM (``kill``, ``timeout``, systemd, a CI job cancelled) and SIGHUP (the terminal closed, an ssh
session ended)."""

EXIT_INTERRUPTED = 130
"""Ctrl-C's exit status, the shell's convention (128 + SIGINT)."""


class Terminated(KeyboardInterrupt):
    """SIGTERM (or SIGHUP): the command stops as on Ctrl-C, says so, and exits 128 + the signal's number,
    as the shell reports a process that signal ended (143, or 129)."""

    def __init__(self, signum: int = signal.SIGTERM) -> None:
        super().__init__(signum)
        self.signum = signum


def stopped_by(stop: KeyboardInterrupt) -> str:
    """What stopped the command, as a sentence's start: "Interrupted" (Ctrl-C), "Terminated (SIGTERM)"
    or "Hung up (SIGHUP)"."""
    if not isinstance(stop, Terminated):
        return "Interrupted"
    return "Terminated (SIGTERM)" if stop.signum == signal.SIGTERM else "Hung up (SIGHUP)"


def stopped_status(stop: KeyboardInterrupt) -> int:
    """The exit status for what stopped the command: 130 for Ctrl-C, 128 + the signal's number else."""
    return 128 + stop.signum if isinstance(stop, Terminated) else EXIT_INTERRUPTED


@contextmanager
def stops_as_ctrl_c() -> Iterator[None]:
    """In this block, SIGTERM and SIGHUP raise :class:`Terminated` in the main thread, where Ctrl-C's
    KeyboardInterrupt is raised; one the block does not handle ends the command quietly with its exit
    status, as the signal's default would have (Typer ends any KeyboardInterrupt with 130).

    Once: a second signal while the first is acted on (a table telling its players it closes) is
    ignored, not let cut that short. A signal ignored when the block starts (``nohup`` ignores SIGHUP)
    stays ignored. Threads started meanwhile leave these signals to the main thread where they are
    started inside ``kalooki_net.signals.signals_stay_with_main``."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers belong to the main thread: a caller's own thread keeps the default
        return

    def raise_terminated(signum: int, frame: object) -> None:
        for each in handled:
            signal.signal(each, signal.SIG_IGN)
        raise Terminated(signum)

    handled = [each for each in STOPPING_SIGNALS if signal.getsignal(each) is not signal.SIG_IGN]
    previous = {each: signal.signal(each, raise_terminated) for each in handled}
    try:
        yield
    except Terminated as stop:
        raise SystemExit(stopped_status(stop)) from None
    except OSError as error:
        # Saying so to a terminal that is gone (SIGHUP: its window closed) fails; the table was closed and
        # the game saved all the same, and the signal is what ended the command.
        acted_on = _raised_while_stopping(error)
        if acted_on is None:
            raise
        raise SystemExit(stopped_status(acted_on)) from None
    finally:
        for each, handler in previous.items():
            signal.signal(each, handler)


def _raised_while_stopping(error: BaseException) -> Terminated | None:
    """The :class:`Terminated` that ``error`` was raised while acting on, if any."""
    cause = error.__context__
    while cause is not None and not isinstance(cause, Terminated):
        cause = cause.__context__
    return cause


__all__ = [
    "EXIT_INTERRUPTED",
    "STOPPING_SIGNALS",
    "Terminated",
    "stopped_by",
    "stopped_status",
    "stops_as_ctrl_c",
]
