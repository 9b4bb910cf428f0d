"""``kalooki play SCRIPT.yaml``: play a game script and report it as tables or JSON."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from kalooki.engine import Event, Game
from kalooki.log import GameRecorder
from kalooki.script import ScriptError, ScriptRun, load_script
from kalooki.script import run_script as play_script

from .narrate import describe_event
from .saves import write_atomically


def run_script(
    path: Path,
    *,
    json_output: bool,
    log_path: Path | None,
    console: Console | None = None,
    errors: Console | None = None,
) -> int:
    """Play the script at ``path``; returns the exit code (0 played, 1 malformed script or illegal move)."""
    out = console or Console(highlight=False)
    err = errors or Console(stderr=True, highlight=False, soft_wrap=True)
    try:
        script = load_script(path)
    except ScriptError as error:
        for diagnostic in error.diagnostics:
            err.print(str(diagnostic), markup=False)
        return 1
    recorder: list[GameRecorder] = []

    def record(game: Game, events: list[Event]) -> None:
        if not recorder:
            recorder.append(GameRecorder(game))
            if events is game.opening_events:
                return
        recorder[0].record(game, events)

    try:
        run = play_script(script, on_events=record if log_path is not None else None)
    except ScriptError as error:
        for diagnostic in error.diagnostics:
            err.print(str(diagnostic), markup=False)
        return 1
    if log_path is not None and recorder:
        lines = "".join(json.dumps(item, separators=(",", ":")) + "\n" for item in recorder[0].records)
        try:
            write_atomically(log_path, lines)
        except OSError as error:
            err.print(f"{log_path}: cannot write the log: {error.strerror or error}", markup=False)
            return 1
    if json_output:
        sys.stdout.write(json.dumps(run.to_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        show_run(run, out)
    if run.error is not None:
        err.print(str(run.error), markup=False)
        return 1
    return 0


def show_run(run: ScriptRun, console: Console) -> None:
    """The move-by-move account, then a table of the hands and the totals."""
    console.print(f"[bold]{run.variant}[/bold]: {', '.join(run.players)}")
    for event in run.events:
        line = describe_event(event)
        if line is not None:
            style = "bold" if event["type"] in ("deal", "hand_end", "game_end") else ""
            console.print(f"[{style}]{line}[/{style}]" if style else line, highlight=False)
    table = Table(title="Hands", show_lines=False)
    table.add_column("hand", justify="right")
    table.add_column("dealer")
    table.add_column("winner")
    for name in run.players:
        table.add_column(name, justify="right")
    for hand in run.hands:
        winner = hand.winner or ("-" if hand.finished else "(unfinished)")
        if hand.kalooki:
            winner += " (Kalooki)"
        cells: list[Any] = [str(hand.number), hand.dealer or "", winner]
        for name in run.players:
            if name in hand.scores:
                cells.append(f"{hand.scores[name]:+d} ({hand.hand_points[name]})")
            else:
                cells.append("")
        table.add_row(*cells)
    table.add_row(
        "", "", "[bold]total[/bold]", *[f"[bold]{run.totals.get(name, 0)}[/bold]" for name in run.players]
    )
    console.print(table)
    if run.game_over:
        winners = run.game_winner if isinstance(run.game_winner, list) else [run.game_winner]
        console.print(f"[bold]Game over[/bold]: {' and '.join(str(w) for w in winners)} won")
    elif run.error is None:
        console.print("The game is not over.")
    if run.eliminated:
        console.print(f"Eliminated: {', '.join(run.eliminated)}")
