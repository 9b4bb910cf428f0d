"""``kalooki replay FILE.jsonl``: replay a game log through the engine and confirm every state."""

from __future__ import annotations

import re
import sys
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


def read_records(path: Path) -> list[dict[str, Any]]:
    """The records of the log at ``path``; ReplayError for a line that is not one (:class:`CutOffLog`
    when only the last line is cut off)."""
    try:
        data = read_regular_file(path, MAX_LOG_BYTES)
    except FileReadError as error:
        raise ReplayError(f"{path}: {error}") from None
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark, as an editor may add, is not the log's
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise ReplayError(f"{path}:{line}: not UTF-8 text") from None
    records: list[dict[str, Any]] = []
    lines = text.split("\n")
    for number, content in enumerate(lines, start=1):
        if not content.strip():
            continue
        try:
            record = jsonio.loads(content)
        except jsonio.JsonInputError as error:
            # A log is written a whole line at a time: a last line with no line end that does not parse
            # (but opens as a record does) is one the writer was stopped in, not an edit gone wrong.
            if number == len(lines) and content.lstrip().startswith("{"):
                raise CutOffLog(f"{path}:{number}: {_cut_off(len(records))}", records) from None
            where = f"{path}:{number}:{error.column}" if error.column else f"{path}:{number}"
            raise ReplayError(f"{where}: not JSON: {error.reason}") from None
        if not isinstance(record, dict):
            raise ReplayError(f"{path}:{number}:1: each line must be a JSON object")
        records.append(record)
    return records


def _whole_moves(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``records`` up to the end of the last move they hold whole (its last record carries the state)."""
    ends = [index for index, record in enumerate(records) if "state" in record]
    return records[: ends[-1] + 1] if ends else records


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
        from .play import console_reader
        from .replay_show import HandByHand

        table = Console(highlight=False, markup=False, emoji=False)  # the log's names are shown as they are
        interactive = table.is_terminal and sys.stdin.isatty()
        watcher = HandByHand(table, console_reader(table) if interactive else None)
    cut_off: CutOffLog | None = None
    try:
        try:
            logged = read_records(log)
        except CutOffLog as error:
            # The whole records of a game that crashed are still worth seeing and confirming; the
            # exit status stays 1, so whoever checks a log with replay still finds this one wanting.
            cut_off, logged = error, _whole_moves(error.records)
        try:
            summary = replay(logged, on_events=watcher)
        finally:
            if watcher is not None:
                watcher.finish()  # the moves confirmed of a turn the log stops in, or that does not reproduce
    except ReplayError as error:
        message = str(error)
        if cut_off is not None and re.match(rf"record {len(logged) + 1}\b", message):
            message = str(cut_off)  # the whole records end short of a move: the cut is why
        if message.startswith((f"{log}:1:", "record 1:")):
            message = what_it_is(log, "log") or message
        line = message if message.startswith(str(log)) else f"{log}: {message}"
        errors.print(escape_controls(line), markup=False)
        raise typer.Exit(1) from None
    except (StopShowing, EOFError, KeyboardInterrupt):
        raise typer.Exit(0) from None
    totals = ", ".join(f"{name} {total}" for name, total in summary.totals.items())
    ending = "the game is over" if summary.game_over else f"the log stops {summary.ends}"
    records, actions = counted(summary.records, "record"), counted(summary.actions, "action")
    counts = f"{records}, {actions}, {counted(summary.hands, 'hand')} reproduced"
    console.print(escape_controls(f"{log}: ok: {counts}; {ending}; totals: {totals}"), markup=False)
    if cut_off is not None:
        stops = f"; the replay stops at record {len(logged)}, where the last whole move ends"
        said = str(cut_off) + (stops if len(logged) < len(cut_off.records) else "")
        errors.print(escape_controls(said), markup=False)
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("replay", short_help="Replay a game log, checking every event and score.")(replay_command)
