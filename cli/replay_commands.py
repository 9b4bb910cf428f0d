"""``kalooki replay FILE.jsonl``: replay a game log through the engine and confirm every state."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from kalooki import jsonio
from kalooki.log import ReplayError, replay
from kalooki.safeio import FileReadError, read_regular_file
from kalooki.text import escape_controls

from .common import counted, file_name
from .replay_show import StopShowing
from .wrong_file import what_it_is

MAX_LOG_BYTES = 64 * 1024 * 1024
"""A log of a long game is a few megabytes; a file far bigger is not a log to replay."""


class CutOffLog(ReplayError):
    """A log whose last line is a record cut off mid-way: what a game stopped while writing leaves.

    ``records`` are the whole records before it, which a replay can still play back and confirm.
    """

    def __init__(self, message: str, records: list[dict[str, Any]]) -> None:
        super().__init__(message)
        self.records = records


class LogFile:
    """A log file's records, each read from its line only when it is asked for: a replay checks a record
    as it comes, so the first bad one stops the read (a file of millions of lines is never parsed whole).

    The file is read and decoded at once (it is at most :data:`MAX_LOG_BYTES`), and its last line looked
    at: ``cut_off`` says whether the game was stopped while writing it.
    """

    def __init__(self, path: Path) -> None:
        try:
            data = read_regular_file(path, MAX_LOG_BYTES)
        except FileReadError as error:
            raise ReplayError(f"{path}: {error}") from None
        try:
            self.text = data.decode("utf-8-sig")  # a byte-order mark, as an editor may add, is not the log's
        except UnicodeDecodeError as error:
            line = data.count(b"\n", 0, error.start) + 1
            raise ReplayError(f"{path}:{line}: not UTF-8 text") from None
        self.path = path
        last = self.text[self.text.rfind("\n") + 1 :]
        # A log is written a whole line at a time: a last line with no line end that does not parse (but
        # opens as a record does) is one the writer was stopped in, not an edit gone wrong.
        self.cut_off = last.lstrip().startswith("{") and _parses(last) is _NOT_JSON
        self.last_line = self.text.count("\n") + 1
        self.given = 0
        """How many records :meth:`moves` has given so far."""
        self.record_lines: list[int] = []
        """The line of each record given: a blank line is passed over, so record N may be on a later line."""

    def _lines(self) -> Iterator[tuple[int, str]]:
        """Each line's number (from 1) and text, as ``text.split("\\n")`` has them, without a list of them."""
        text, start, number = self.text, 0, 1
        while start <= len(text):
            end = text.find("\n", start)
            end = len(text) if end < 0 else end
            yield number, text[start:end]
            start, number = end + 1, number + 1

    def _numbered(self) -> Iterator[tuple[int, dict[str, Any]]]:
        """Each whole record and its line, in order; ReplayError for a line that is not one."""
        for number, content in self._lines():
            if not content.strip():
                continue
            if self.cut_off and number == self.last_line:
                return
            try:
                record = jsonio.loads(content)
            except jsonio.JsonInputError as error:
                where = f"{self.path}:{number}:{error.column}" if error.column else f"{self.path}:{number}"
                raise ReplayError(f"{where}: {jsonio.kind_of_fault(error)}: {error.reason}") from None
            if not isinstance(record, dict):
                raise ReplayError(f"{self.path}:{number}:1: each line must be a JSON object")
            yield number, record

    def records(self) -> Iterator[dict[str, Any]]:
        """Every whole record, in order (not the cut-off line)."""
        for _, record in self._numbered():
            yield record

    def moves(self) -> Iterator[dict[str, Any]]:
        """The records of the moves the log holds whole: of a cut-off log, up to the last record that
        carries a state (where a whole move ends), as far as the replay asks for them."""
        last: int | None = None
        ended_a_move = False
        for number, record in self._numbered():
            # Up to the first record that ends a move, every record is in a whole move (and of a log with
            # none, every whole record is replayed); past it, only up to the last, looked for once.
            if self.cut_off and ended_a_move:
                last = self._last_move_end() if last is None else last
                if number > last:
                    return
            self.given += 1
            self.record_lines.append(number)
            yield record
            ended_a_move = ended_a_move or "state" in record

    def _last_move_end(self) -> int:
        """The line of the last record before the cut that carries a state, read from the end (where a
        move the game was stopped in is a line or two); or of the last line there that is no record,
        as the read in order stops at it (or before), saying so, as it did when every line was read first."""
        cut = len(self.text)
        while (end := self.text.rfind("\n", 0, cut)) >= 0:
            content = self.text[self.text.rfind("\n", 0, end) + 1 : end]
            cut = end
            if not content.strip():
                continue
            record = _parses(content)
            if not isinstance(record, dict) or "state" in record:
                return self.text.count("\n", 0, end) + 1
        return 0

    def whole(self) -> int:
        """How many records the file holds whole (the cut-off line is not one)."""
        count = sum(1 for _, content in self._lines() if content.strip())
        return count - 1 if self.cut_off else count

    def placed(self, message: str) -> str:
        """A message about record N, led by its line where that is not line N (blank lines before it), so
        an editor opened at the line the message names shows that record, not the one a blank line later."""
        said = re.match(r"record (\d+)\b", message)
        if said is None or not 0 < int(said[1]) <= len(self.record_lines):
            return message
        line = self.record_lines[int(said[1]) - 1]
        return message if line == int(said[1]) else f"{self.path}:{line}: {message}"

    def cut_off_message(self) -> str:
        return f"{self.path}:{self.last_line}: {_cut_off(self.whole())}"


_NOT_JSON = object()


def _parses(content: str) -> object:
    """The JSON value of a line, or :data:`_NOT_JSON`."""
    try:
        return jsonio.loads(content)
    except jsonio.JsonInputError:
        return _NOT_JSON


def read_records(path: Path) -> list[dict[str, Any]]:
    """The records of the log at ``path``; ReplayError for a line that is not one (:class:`CutOffLog`
    when only the last line is cut off)."""
    log = LogFile(path)
    records = list(log.records())
    if log.cut_off:
        raise CutOffLog(log.cut_off_message(), records)
    return records


def _cut_off(whole: int) -> str:
    said = "the last record is cut off (the game was stopped while writing it)"
    if whole == 0:
        return f"{said}; there is no whole record before it"
    before = "the record before it is whole" if whole == 1 else f"the {whole:,} records before it are whole"
    return f"{said}; {before}"


def replay_command(
    log: Annotated[
        Path,
        typer.Argument(
            parser=file_name,
            metavar="LOG",
            help="A game log: written by 'kalooki play --log FILE.jsonl', for an interactive game or a "
            "game script alike.",
        ),
    ],
    show: Annotated[
        bool,
        typer.Option(
            "--show",
            help="Tell the game again, one line a turn as at the table: hand by hand (Enter for the next) "
            "on a terminal, all at once into a pipe.",
        ),
    ] = False,
) -> None:
    """Replay a game log: confirm every event, state and score, or name the first that differs.

    Logs of interactive games and of game scripts replay alike; --show also shows the game.
    """
    # emoji=False: the log's names and the file's are shown as written, ':x:' not as a cross mark.
    console = Console(highlight=False, soft_wrap=True, emoji=False)
    errors = Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)
    watcher = None
    if show:
        from .output import at_terminal
        from .play import console_reader
        from .replay_show import HandByHand

        table = Console(highlight=False, markup=False, emoji=False)  # the log's names are shown as they are
        interactive = at_terminal(table)
        watcher = HandByHand(table, console_reader(table) if interactive else None)
    logged: LogFile | None = None
    try:
        logged = LogFile(log)
        try:
            # The whole moves of a game that crashed are still worth seeing and confirming; the exit
            # status stays 1, so whoever checks a log with replay still finds a cut-off one wanting.
            summary = replay(logged.moves(), on_events=watcher)
        finally:
            if watcher is not None:
                watcher.finish()  # the moves confirmed of a turn the log stops in, or that does not reproduce
    except ReplayError as error:
        message = str(error)
        # The whole records end short of a move, or there is none (a log cut off in its first line was
        # said to be "empty"): the cut is why.
        if (
            logged is not None
            and logged.cut_off
            and re.match(rf"record {logged.given + 1}\b|the log is empty", message)
        ):
            message = logged.cut_off_message()
        if message.startswith((f"{log}:1:", "record 1:")):
            message = what_it_is(log, "log") or message
        elif logged is not None:
            message = logged.placed(message)
        line = message if message.startswith(str(log)) else f"{log}: {message}"
        errors.print(escape_controls(line), markup=False)
        raise typer.Exit(1) from None
    except (StopShowing, EOFError):
        raise typer.Exit(0) from None
    except KeyboardInterrupt:
        from .interactive import EXIT_INTERRUPTED

        raise typer.Exit(EXIT_INTERRUPTED) from None  # as a Ctrl-C in a game ends: the shell's status for it
    totals = ", ".join(f"{name} {total}" for name, total in summary.totals.items())
    ending = "the game is over" if summary.game_over else f"the log stops {summary.ends}"
    records, actions = counted(summary.records, "record"), counted(summary.actions, "action")
    counts = f"{records}, {actions}, {counted(summary.hands, 'hand')} reproduced"
    # A cut-off log fails (exit 1): its whole moves are told as reproduced, but not as "ok".
    verdict = "partial, its last record cut off" if logged.cut_off else "ok"
    console.print(escape_controls(f"{log}: {verdict}: {counts}; {ending}; totals: {totals}"), markup=False)
    if logged.cut_off:
        stops = f"; the replay stops at record {logged.given}, where the last whole move ends"
        said = logged.cut_off_message() + (stops if logged.given < logged.whole() else "")
        errors.print(escape_controls(said), markup=False)
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("replay", short_help="Replay a game log, checking every event and score.")(replay_command)
