"""``kalooki replay FILE.jsonl``: replay a game log through the engine and confirm every state."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from kalooki.errors import KalookiError
from kalooki.log import ReplayError, replay

from .replay_show import StopShowing


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


def what_it_is(path: Path) -> str | None:
    """For a file that is not a log: what it is, and the command that uses it (None if unknown)."""
    from .play import is_script

    try:
        head = path.read_bytes()[:4096]
    except OSError:
        return None
    if b'"kalooki-save"' in head:
        return f"this is a saved game, not a log: continue it with: kalooki resume {path}"
    if is_script(str(path)):
        return (
            f"this is a game script, not a log: run it with: kalooki play {path} "
            f"(add --log FILE.jsonl to write its log)"
        )
    try:
        from kalooki.loader import load_variant

        load_variant(path)
    except KalookiError:
        return None
    return f"this is a variant file, not a log: play it with: kalooki play {path}"


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

        table = Console(highlight=False)
        interactive = table.is_terminal and sys.stdin.isatty()
        watcher = HandByHand(table, console_reader(table) if interactive else None)
    try:
        summary = replay(read_records(log), on_events=watcher)
    except ReplayError as error:
        message = str(error)
        if message.startswith((f"{log}:1:", "record 1:")):
            message = what_it_is(log) or message
        errors.print(message if message.startswith(str(log)) else f"{log}: {message}", markup=False)
        raise typer.Exit(1) from None
    except (StopShowing, EOFError, KeyboardInterrupt):
        raise typer.Exit(0) from None
    totals = ", ".join(f"{name} {total}" for name, total in summary.totals.items())
    ending = "the game is over" if summary.game_over else f"the log stops {summary.ends}"
    console.print(
        f"{log}: ok: {summary.records} records, {summary.actions} actions, {summary.hands} hands reproduced; "
        f"{ending}; totals: {totals}"
    )


def register(app: typer.Typer) -> None:
    app.command("replay")(replay_command)
