"""The ``kalooki`` console script: the command line is loaded inside a guard for Ctrl-C.

Loading it (Typer, rich and every command) takes a few tenths of a second, and a Ctrl-C in that
time would end in Python's traceback of whichever import it landed in: it ends the command quietly
with the status a shell gives an interrupted command, as a Ctrl-C anywhere later does.

The Ctrl-C is noted while the command line loads, not raised where it lands: pydantic builds its
validators in compiled code that turns an exception raised inside into its own ``SchemaError``, so a
KeyboardInterrupt landing there came out as that error's traceback, past any ``except
KeyboardInterrupt``.
"""

from __future__ import annotations

import codecs
import io
import os
import signal
import sys
from collections.abc import Callable
from types import FrameType


def read_nothing_if_closed() -> None:
    """A closed standard input (``kalooki play <&-``) reads as an empty one, as ``</dev/null`` does; so
    does one open for writing only (``nohup``, "ignoring input", gives it a file it cannot read).

    Python leaves ``sys.stdin`` None when it is closed, and a prompt died in ``RuntimeError: input():
    lost sys.stdin``; unreadable, in ``OSError: [Errno 9] Bad file descriptor``. Descriptor 0 is filled
    too: the next file the command opened would take it.
    """
    if sys.stdin is not None and not _write_only(0):
        return
    empty = os.open(os.devnull, os.O_RDONLY)
    if empty != 0:
        os.dup2(empty, 0)
        os.close(empty)
    sys.stdin = open(0, closefd=False)  # noqa: SIM115 -- standard input, open for the run


def _write_only(descriptor: int) -> bool:
    try:
        import fcntl
    except ImportError:  # Windows: no nohup, and no way to ask
        return False
    try:
        return fcntl.fcntl(descriptor, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY
    except OSError:
        return False


def skip_byte_order_mark() -> None:
    """Moves piped in from a file an editor saved with a byte-order mark read without it, as kalooki's
    file readers read theirs: the mark, invisible, made the first move 'ds' not a command."""
    stdin = sys.stdin
    if (
        isinstance(stdin, io.TextIOWrapper)
        and codecs.lookup(stdin.encoding).name == "utf-8"
        and not stdin.isatty()
    ):
        stdin.reconfigure(encoding="utf-8-sig", errors=stdin.errors)


def load_command_line() -> Callable[[], None]:
    """The command line, loaded; a Ctrl-C while it loads ends the run with status 130 once it has."""
    interrupted = False

    def note_ctrl_c(_signal: int, _frame: FrameType | None) -> None:
        nonlocal interrupted
        interrupted = True

    # Only where Ctrl-C would raise: a SIGINT the shell had ignored (``nohup``, ``&``) stays ignored.
    noting = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if noting:
        signal.signal(signal.SIGINT, note_ctrl_c)
    try:
        from .plain_text import write_plainly

        # Before anything is written: an error about the command line needs it as much as a report.
        write_plainly()
        from .app import main as run
    finally:
        if noting:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    if interrupted:
        raise SystemExit(130)
    return run


def interrupted_while_built(error: Exception) -> bool:
    """Whether ``error`` is a Ctrl-C that landed while pydantic built a model's validator.

    Modules a command imports when it runs (the network table's protocol, game scripts) build their
    models then, in compiled code that turns what is raised inside into a SchemaError carrying the
    KeyboardInterrupt's name alone: the Ctrl-C it was, not a fault of the program's.
    """
    from pydantic_core import SchemaError  # loaded by then: the variant model is built at start

    return isinstance(error, SchemaError) and "KeyboardInterrupt" in str(error)


def main() -> None:
    # Each Ctrl-C no command handles ends the run with 130, quietly: before the handler that notes one
    # is in place, once it is let go (Python code runs on after it is restored), while Typer builds the
    # command from its annotations (before the part of Typer that ends a command's Ctrl-C with 130),
    # and in a module a command imports when it runs.
    try:
        read_nothing_if_closed()
        skip_byte_order_mark()
        load_command_line()()
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    except Exception as error:
        if not interrupted_while_built(error):
            raise
        raise SystemExit(130) from None
