"""Standard output for the commands' reports and tables.

rich pads every table cell to its column's width, the last column too, and fills a blank line with
spaces as wide as the table. A terminal shows none of it; a file or a pipe keeps it, and a report
saved with ``kalooki simulate ... > report.txt`` then carries trailing spaces on every line (into
diffs, ``grep -x`` and copy-paste). :func:`report_console` writes such output with each line's
trailing spaces dropped, and leaves a terminal's output as rich draws it.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO, cast

from rich.console import Console


class TrimmedLines:
    """A text stream that writes ``target`` line by line, each line's trailing spaces dropped.

    rich writes a whole printout, ending in its newline, and then flushes: what a flush finds
    after the last newline (a print with ``end=""``) is written as it is, spaces and all, since
    the rest of its line may follow.
    """

    def __init__(self, target: TextIO) -> None:
        self.target = target
        self.pending = ""

    def write(self, text: str) -> int:
        lines = (self.pending + text).split("\n")
        self.pending = lines.pop()
        for line in lines:
            self.target.write(line.rstrip(" ") + "\n")
        return len(text)

    def flush(self) -> None:
        if self.pending:
            self.target.write(self.pending)
            self.pending = ""
        self.target.flush()

    def isatty(self) -> bool:
        return False

    @property
    def encoding(self) -> str:
        return getattr(self.target, "encoding", None) or "utf-8"

    def fileno(self) -> int:
        return self.target.fileno()


def report_console(**options: Any) -> Console:
    """A console on standard output (``options`` as rich's): a file or a pipe gets its lines trimmed.

    Emoji codes are left as written (unless ``options`` say otherwise): a report quotes variants' and
    files' names, and rich would show a variant named ``:x:`` as a cross mark.
    """
    options.setdefault("emoji", False)
    console = Console(**options)
    if console.is_terminal:
        return console
    # rich writes, flushes and asks isatty and encoding: all a TextIO it needs.
    return Console(file=cast(TextIO, TrimmedLines(sys.stdout)), **options)


__all__ = ["TrimmedLines", "report_console"]
