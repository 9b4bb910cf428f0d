"""Child processes that take Ctrl-C as they would from a person's shell.

A test run started in the background by a shell without job control (``nohup pytest &``, some CI
runners) has SIGINT ignored, and an ignored signal stays ignored across exec: a child sent SIGINT
would never stop, and a test of Ctrl-C would fail, or pass without stopping anything.
"""

from __future__ import annotations

import sys

_DEFAULT_AND_EXEC = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)


def takes_ctrl_c(command: list[str]) -> list[str]:
    """``command`` (its first item a path) run with SIGINT at its default, whatever the tests inherited."""
    return [sys.executable, "-c", _DEFAULT_AND_EXEC, *command]
