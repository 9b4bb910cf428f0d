"""``kalooki replay FILE.jsonl``: replay a game log through the engine and confirm every state."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from kalooki.log import ReplayError, replay


def read_records(path: Path) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    try:
        with path.open(encoding="utf-8") as stream:
            for number, line in enumerate(stream, start=1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as error:
                    raise ReplayError(f"{path}:{number}:{error.colno}: not JSON: {error.msg}") from None
                if not isinstance(record, dict):
                    raise ReplayError(f"{path}:{number}:1: each line must be a JSON object")
                records.append(record)
    except FileNotFoundError:
        raise ReplayError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ReplayError(f"{path}: is a folder, not a log file") from None
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise ReplayError(f"{path}: cannot read the log: {reason}") from None
    return records


def replay_command(
    log: Annotated[Path, typer.Argument(help="A log written by `kalooki play SCRIPT --log FILE.jsonl`.")],
) -> None:
    """Replay a game log: confirm every event, state and score, or name the first that differs."""
    console = Console(highlight=False, soft_wrap=True)
    errors = Console(stderr=True, highlight=False, soft_wrap=True)
    try:
        summary = replay(read_records(log))
    except ReplayError as error:
        message = str(error)
        errors.print(message if message.startswith(str(log)) else f"{log}: {message}", markup=False)
        raise typer.Exit(1) from None
    totals = ", ".join(f"{name} {total}" for name, total in summary.totals.items())
    ending = "the game is over" if summary.game_over else f"the log stops {summary.ends}"
    console.print(
        f"{log}: ok: {summary.records} records, {summary.actions} actions, {summary.hands} hands reproduced; "
        f"{ending}; totals: {totals}"
    )


def register(app: typer.Typer) -> None:
    app.command("replay")(replay_command)
