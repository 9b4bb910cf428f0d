"""Long text on a terminal through a pager, as git and man page theirs: ``kalooki rules`` on a terminal.

Only where the text is longer than the terminal is high, and only on a terminal (the caller sees to that:
into a pipe or a file the text goes as it was). The pager is ``$KALOOKI_PAGER``, else ``$PAGER``, else
``less``; either set empty or to ``cat`` turns paging off, as ``--no-pager`` does.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Mapping

from rich.console import Console, RenderableType

PAGER_VARIABLES = ("KALOOKI_PAGER", "PAGER")
"""Where the pager's command is read, the first set winning: git reads GIT_PAGER before PAGER so."""

LESS_OPTIONS = "FRX"
"""git's options for less where LESS is unset: quit where the text fits a screen after all (F), pass
colours through (R), and leave the text on the screen after quitting (X), where it can be read on."""


def pager_command(environ: Mapping[str, str]) -> list[str] | None:
    """The command to page with, or None for none: the first of :data:`PAGER_VARIABLES` set (``cat``, an
    empty value or one that is no command turn paging off), else less where it is installed."""
    for name in PAGER_VARIABLES:
        if name in environ:
            try:
                words = shlex.split(environ[name])
            except ValueError:  # an unclosed quote: no command to run
                return None
            return None if not words or words == ["cat"] else words
    return ["less"] if shutil.which("less") else None


def page(console: Console, renderable: RenderableType, environ: Mapping[str, str] | None = None) -> bool:
    """Show ``renderable`` through the pager when it is longer than ``console`` is high; False (nothing
    shown) where it fits, there is no pager, the terminal cannot run one, or the pager cannot start."""
    environ = os.environ if environ is None else environ
    command = pager_command(environ)
    if command is None or environ.get("TERM") == "dumb":
        return False
    with console.capture() as capture:
        console.print(renderable)
    shown = capture.get()
    if shown.count("\n") < console.height:
        return False
    env = dict(environ)
    env.setdefault("LESS", LESS_OPTIONS)
    try:
        pager = subprocess.Popen(command, stdin=subprocess.PIPE, env=env)
    except OSError:  # not found, not runnable: the text is printed as it would be without a pager
        return False
    assert pager.stdin is not None
    # Ctrl-C is the pager's (less keeps on showing the text): neither it nor quitting before the end (a
    # pipe closed) is an error here. As pydoc's pager waits for its pager.
    # As the terminal's stream writes it: in its encoding, with its stand-ins (ASCII's C for a club).
    errors = getattr(console.file, "errors", None)
    encoded = shown.encode(
        console.encoding or "utf-8", errors="replace" if errors in (None, "strict") else errors
    )
    try:
        with pager.stdin as pipe:
            pipe.write(encoded)
    except (KeyboardInterrupt, OSError):
        pass
    while True:
        try:
            pager.wait()
            return True
        except KeyboardInterrupt:
            continue
