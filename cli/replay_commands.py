"""``kalooki replay FILE.jsonl``: replay a game log through the engine and confirm every state."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from kalooki import jsonio
from kalooki.log import ReplayError, replay
from kalooki.safeio import FileReadError, read_regular_file
from kalooki.text import escape_controls

MAX_LOG_BYTES = 64 * 1024 * 1024
"""A log of a long game is a few megabytes; a file far bigger is not a log to replay."""


def _read_records(path: Path) -> list[dict[str, Any]]:
    try:
        data = read_regular_file(path, MAX_LOG_BYTES)
    except FileReadError as error:
        raise ReplayError(f"{path}: {error}") from None
    try:
        text = data.decode("utf-8")
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
    log: Annotated[Path, typer.Argument(help="A log written by `kalooki play SCRIPT --log FILE.jsonl`.")],
) -> None:
    """Replay a game log: confirm every event, state and score, or name the first that differs."""
    console = Console(highlight=False, soft_wrap=True)
    errors = Console(stderr=True, highlight=False, soft_wrap=True)
    try:
        summary = replay(_read_records(log))
    except ReplayError as error:
        message = str(error)
        line = message if message.startswith(str(log)) else f"{log}: {message}"
        errors.print(escape_controls(line), markup=False)
        raise typer.Exit(1) from None
    totals = ", ".join(f"{name} {total}" for name, total in summary.totals.items())
    ending = "the game is over" if summary.game_over else f"the log stops {summary.ends}"
    counts = f"{summary.records} records, {summary.actions} actions, {summary.hands} hands reproduced"
    console.print(escape_controls(f"{log}: ok: {counts}; {ending}; totals: {totals}"), markup=False)


def register(app: typer.Typer) -> None:
    app.command("replay")(replay_command)
