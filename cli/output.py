"""Standard output for the commands' reports and tables.

rich pads every table cell to its column's width, the last column too, and fills a blank line with
spaces as wide as the table. A terminal shows none of it; a file or a pipe keeps it, and a report
saved with ``kalooki simulate ... > report.txt`` then carries trailing spaces on every line (into
diffs, ``grep -x`` and copy-paste). :func:`report_console` writes such output with each line's
trailing spaces dropped, and leaves a terminal's output as rich draws it.
"""

from __future__ import annotations

import errno
import io
import os
import stat
import sys
from pathlib import Path
from typing import Any, TextIO, cast

from rich.console import Console

from kalooki.safeio import kind_problem

from .common import check_output_path, fail


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


class WholeWrites(io.BufferedIOBase):
    """An unbuffered file's writes made whole: each ``write`` writes every byte, or raises.

    With ``PYTHONUNBUFFERED`` (Docker, CI), standard output's binary layer is the raw file itself, and
    the text layer above it takes a short write (a disk nearly full, a file at its size limit) for the
    whole: the rest was dropped, and the command ended with status 0 and its output cut short. Here the
    rest is written again, so the next write meets the error (ENOSPC, EFBIG) and it is said. Nothing is
    held back: a prompt still shows at once.
    """

    def __init__(self, raw: io.FileIO) -> None:
        super().__init__()
        self.raw = raw

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        total = len(view)
        while view:
            written = self.raw.write(view)
            if written is None:  # a non-blocking file that is full for now: wait for room
                select_writable(self.raw.fileno())
                continue
            if written == 0:
                raise OSError(errno.EIO, "the output took no more bytes")
            view = view[written:]
        return total

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.raw.fileno()

    def isatty(self) -> bool:
        return self.raw.isatty()

    def flush(self) -> None:
        return None  # every write went through

    def close(self) -> None:
        # The standard stream's file stays open: it is Python's, which closes it (or not) at exit.
        super().close()


def select_writable(descriptor: int) -> None:
    import select

    select.select([], [descriptor], [])


def whole_writes() -> None:
    """Make standard output's and standard error's writes whole where their binary layer is unbuffered."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        raw = getattr(stream, "buffer", None)
        if not isinstance(stream, io.TextIOWrapper) or not isinstance(raw, io.FileIO):
            continue  # buffered (its flush writes every byte, or raises), or not a file at all
        setattr(
            sys,
            name,
            io.TextIOWrapper(
                WholeWrites(raw),
                encoding=stream.encoding,
                errors=stream.errors,
                line_buffering=stream.line_buffering,
                write_through=True,
            ),
        )


def writes_to_terminal(console: Console) -> bool:
    """Whether ``console`` writes to a terminal indeed.

    rich's ``is_terminal`` is true too where FORCE_COLOR (or TTY_COMPATIBLE) asks for colour into a pipe
    or a file, which still wants what a file gets: Markdown, no live bar, no pause, no clearing.
    """
    isatty = getattr(console.file, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed file
        return False


def at_terminal(console: Console) -> bool:
    """Whether a person types at a terminal (the keyboard is then read during others' turns too)."""
    return writes_to_terminal(console) and sys.stdin.isatty()


def report_console(**options: Any) -> Console:
    """A console on standard output (``options`` as rich's): a file or a pipe gets its lines trimmed.

    Emoji codes are left as written (unless ``options`` say otherwise): a report quotes variants' and
    files' names, and rich would show a variant named ``:x:`` as a cross mark.
    """
    options.setdefault("emoji", False)
    console = Console(**options)
    if writes_to_terminal(console):
        return console
    # rich writes, flushes and asks isatty and encoding: all a TextIO it needs.
    return Console(file=cast(TextIO, TrimmedLines(sys.stdout)), **options)


def output_problem(path: Path | str, *, folder: bool = False) -> str | None:
    """Why an existing ``path`` is no place for the file (the folder, with ``folder``) a command writes, or
    None: it does not exist yet, or is a regular file (a folder).

    A FIFO would hold the command for ever once every game was played (its reader may never come), and
    a device takes the output to nowhere or fails (/dev/full): neither is a file to write a run's
    results in. A symbolic link to a missing file would be written at its target, wherever that is.
    """
    target = Path(path)
    try:
        mode = os.stat(target).st_mode
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "is a symbolic link that leads round in a loop"
        if error.errno == errno.ENOENT and target.is_symlink():
            return f"is a symbolic link to {os.readlink(target)}, which does not exist: give a new name"
        return None  # nothing there, or a name the system refuses: the checks after this one say so
    if folder:
        if stat.S_ISDIR(mode):
            return None
        if stat.S_ISREG(mode):
            return "is a file; --out needs a folder"
        return f"{_kind(mode)}, not a folder"
    if stat.S_ISDIR(mode) or stat.S_ISREG(mode):
        return None  # a folder is refused by check_output_path, in the words it always had
    if given_stream(target, mode):
        return None
    return f"{_kind(mode)}, not a regular file"


_GIVEN = ("/dev/stdout", "/dev/stderr", "/dev/fd/", "/proc/self/fd/")
"""Names of the streams a process was given: its standard output, or a shell's ``>(command)``."""


def given_stream(target: Path, mode: int) -> bool:
    """Whether ``target`` is somewhere to write a command's output to though it is no file: ``/dev/null``
    (the output thrown away), or a pipe this process was given (``--csv >(wc -l)``, ``/dev/stdout``),
    whose reader the shell started. A FIFO made with mkfifo may have no reader ever: it is refused."""
    if stat.S_ISCHR(mode):
        return os.path.samefile(target, os.devnull)
    return stat.S_ISFIFO(mode) and str(target).startswith(_GIVEN)


def _kind(mode: int) -> str:
    """What is there, in the words the commands use for a file they will not read ("is a pipe (FIFO)")."""
    return (kind_problem(mode) or "").split(",")[0]


def check_output_file(path: Path | str, option: str, *, variant_file: bool = False) -> None:
    """Refuse, before any game is played, a file to write that is not a regular file or a new one (a FIFO, a
    device, a link to nothing), then what :func:`check_output_path` refuses: one line, exit 1."""
    if str(path) != "-" and (problem := output_problem(path)) is not None:
        # /dev/stdout is a FIFO or a terminal: say how standard output is asked for.
        fail(f"{path}: {problem}" + ("; --csv - writes to standard output" if option == "--csv" else ""))
    check_output_path(path, option, variant_file=variant_file)


def check_output_folder(path: Path | str) -> None:
    """Refuse, before any game is played, an ``--out`` that is neither a folder nor a new name, or a new
    one in a folder that does not exist, as ``--csv`` refuses one: a mistyped folder (``lab/typo/run``)
    was made, with every folder above it, and the sweep saved where nobody would look: one line, exit 1."""
    if (problem := output_problem(path, folder=True)) is not None:
        fail(f"{path}: {problem}")
    target = Path(path)
    try:
        missing = not target.exists() and not target.parent.is_dir()
    except OSError:  # a name too long for the system (ENAMETOOLONG): the --out folder's store says so
        return
    if missing:
        fail(f"{path}: the folder {target.parent} does not exist")


__all__ = [
    "TrimmedLines",
    "check_output_file",
    "check_output_folder",
    "output_problem",
    "report_console",
]
