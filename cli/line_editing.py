"""Line editing at the game's prompts: the arrows, Home and End, and Up for an earlier line.

Python's ``input()`` edits lines only once the standard ``readline`` module is loaded; without it the
arrows are typed into the move as escape codes (``hint^[[D``). A styled prompt is handed to
``readline`` itself, its escape codes marked as taking no room, so the line's start is where the
prompt ends when Up brings back a long move.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rich.console import Console
from rich.text import Text

from .output import at_terminal

_STYLE_CODE = re.compile(r"(\x1b\[[0-9;]*m)")


def _editing(console: Console) -> bool:
    """Whether lines are read from a person's terminal, with ``readline`` there to edit them."""
    try:
        interactive = at_terminal(console)
    except (AttributeError, ValueError):  # a closed or replaced standard input
        return False
    if not interactive:
        return False
    try:
        import readline  # noqa: F401  (loaded, it gives input() its editing)
    except ImportError:  # Windows, or a Python built without it
        return False
    return True


def prompt_reader(console: Console) -> Callable[[str], str]:
    """Read one line after a bold ``prompt``, with line editing at a terminal."""
    if not _editing(console):
        return lambda prompt: console.input(Text(prompt, style="bold"))

    def read_line(prompt: str) -> str:
        with console.capture() as captured:
            console.print(Text(prompt, style="bold"), end="")
        # \001 and \002 tell readline where a run of characters that take no room starts and ends.
        return input(_STYLE_CODE.sub("\x01\\1\x02", captured.get()))

    return read_line
