"""``kalooki replay FILE.jsonl``: replay a game log through the engine and confirm every state."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from kalooki import jsonio
from kalooki.log import ReplayError, replay
from kalooki.safeio import FileReadError, read_regular_file
from kalooki.text import escape_controls

from .common import counted
from .replay_show import StopShowing
from .wrong_file import what_it_is

MAX_LOG_BYTES = 64 * 1024 * 1024
"""A log of a long game is a few megabytes; a file far bigger is not a log to replay."""


def read_records(path: Path) -> list[dict[str, Any]]:
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
    for number, content in enumerate(text.split("\n"), start=1):
        if not content.strip():
            continue
        try:
            record = jsonio.loads(content)
        except jsonio.JsonInputError as error:
            where = f"{path}:{number}:{error.column}" if error.column else f"{path}:{number}"
            raise ReplayError(f"{where}: not JSON: {error.reason}") from None
        if not isinstance(record, dict):
            raise ReplayError(f"{path}:{number}:1: each line must be a JSON object")
        records.append(record)
    return records


def replay_command(
    log: Annotated[
        Path,
        typer.Argument(
            metavar="LOG",
            help="A game log: written by 'kalooki play --log FILE.jsonl', for an interactive game or a "
            "game script alike.",
        ),
    ],
    show: Annotated[
        bool,
        typer.Option(
            "--show",
            help="Play the game back as the table showed it: hand by hand (Enter for the next) on a "
            "terminal, all at once into a pipe.",
        ),
    ] = False,
) -> None:
    """Replay a game log: confirm every event, state and score, or name the first that differs.

    Logs of interactive games and of game scripts replay alike; --show also shows the game.
    """
    console = Console(highlight=False, soft_wrap=True)
    errors = Console(stderr=True, highlight=False, soft_wrap=True)
    watcher = None
    if show:
        from .play import console_reader
        from .replay_show import HandByHand

        table = Console(highlight=False, markup=False)  # the log's names are shown as they are
        interactive = table.is_terminal and sys.stdin.isatty()
        watcher = HandByHand(table, console_reader(table) if interactive else None)
    try:
        summary = replay(read_records(log), on_events=watcher)
    except ReplayError as error:
        message = str(error)
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


def register(app: typer.Typer) -> None:
    app.command("replay")(replay_command)
