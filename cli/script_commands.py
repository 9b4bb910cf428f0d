"""``kalooki play SCRIPT.yaml``: play a game script and report it as tables or JSON."""

from __future__ import annotations

import dataclasses
import json
import secrets
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from kalooki import rules
from kalooki.engine import DEFAULT_TURN_LIMIT, Event, Game
from kalooki.events import DealEvent, GameEndEvent, HandEndEvent, events_from_json
from kalooki.log import GameRecorder
from kalooki.script import ScriptError, load_script
from kalooki.script_run import HandReport, RefusedMove, ScriptRun
from kalooki.script_run import run_script as play_script
from kalooki.text import escape_controls
from kalooki.variant import Variant

from .narrate import describe_event
from .narrow import WIDEST
from .output import report_console
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
    # emoji=False: a player named ':x:' is those three characters, not a cross mark (markup is escaped).
    out = console or report_console(highlight=False)  # into a pipe, its lines' trailing spaces dropped
    err = errors or Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)
    try:
        script = load_script(path)
    except ScriptError as error:
        for diagnostic in error.diagnostics:
            err.print(str(diagnostic), markup=False)
        return 1
    for warning in script.warnings:  # as validate and a game's start warn of them
        err.print(escape_controls(str(warning)), markup=False)
    # A script without a seed is given one here, as `kalooki play` gives a game, and the account
    # shows it: a run that fails can then be played again, the same cards dealt.
    chosen = script.seed is None
    if chosen:
        script = dataclasses.replace(script, seed=secrets.randbelow(1_000_000))
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
    for fault in run.faults:
        err.print(str(fault), markup=False)
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
        show_run(run, out, script.variant, chosen_seed=chosen)
    if run.error is not None:
        err.print(escape_controls(str(run.error)), markup=False)
        return 1
    return 0


def show_run(
    run: ScriptRun, console: Console, variant: Variant | None = None, *, chosen_seed: bool = False
) -> None:
    """The move-by-move account, then a table of the hands and the totals, and what its numbers mean;
    ``chosen_seed``: the script gave no seed, and the account says which one shuffled its cards."""
    # Names and events come from the script: escaped, so a '[' in a name is not taken for markup.
    console.print(f"[bold]{escape(run.variant)}[/bold]: {escape(', '.join(run.players))}")
    if chosen_seed:
        console.print(f"Seed {run.seed}: the script gives none (add `seed: {run.seed}` for the same cards).")
    refused = list(run.refused)
    for index, event in enumerate(events_from_json(run.events)):
        while refused and refused[0].after <= index:
            console.print(refused_line(refused.pop(0)), markup=False, highlight=False)
        line = escape(describe_event(event, variant=variant))
        style = "bold" if isinstance(event, DealEvent | HandEndEvent | GameEndEvent) else ""
        console.print(f"[{style}]{line}[/{style}]" if style else line, highlight=False)
    for move in refused:
        console.print(refused_line(move), markup=False, highlight=False)
    table = Table(title="Hands", show_lines=False)
    table.add_column("hand", justify="right")
    table.add_column("dealer")
    table.add_column("winner")
    for name in run.players:
        table.add_column(escape(name), justify="right")
    for hand in run.hands:
        cells: list[Any] = [str(hand.number), escape(hand.dealer or ""), escape(hand_winner(hand))]
        cells += [hand_score(hand, name) for name in run.players]
        table.add_row(*cells)
    table.add_row(
        "", "", "[bold]total[/bold]", *[f"[bold]{run.totals.get(name, 0)}[/bold]" for name in run.players]
    )
    legend = table_legend(run, variant)
    if console.measure(table, options=console.options.update_width(WIDEST)).maximum <= console.width:
        console.print(table)
    else:
        print_hands_narrow(run, console)
        legend = legend.replace("Each cell:", "Each score:").replace("The total row is", "Under total:")
    console.print(legend, highlight=False, markup=False)
    if run.game_over:
        winners = run.game_winner if isinstance(run.game_winner, list) else [run.game_winner]
        console.print(f"[bold]Game over[/bold]: {escape(' and '.join(str(w) for w in winners))} won")
    elif run.error is None and run.hands and run.hands[-1].end == "turn_limit":
        limit = f"the turn limit ({DEFAULT_TURN_LIMIT} turns)"
        console.print(f"The game is stopped: hand {run.hands[-1].number} reached {limit} without a winner.")
    elif run.error is None:
        console.print("The game is not over.")
    if run.eliminated:
        console.print(f"Eliminated: {', '.join(run.eliminated)}", markup=False)


def refused_line(move: RefusedMove) -> str:
    """The account's line for a move refused as the script expects, where it was tried."""
    return escape_controls(
        f"{move.player} tries '{move.command.strip()}': refused, as the script expects: {move.message}"
    )


def hand_winner(hand: HandReport) -> str:
    """The winner column of a hand: who went out, ``(unfinished)`` or ``(turn limit)``, and Kalooki."""
    winner = hand.winner if hand.winner else "-" if hand.finished else "(unfinished)"
    if hand.end == "turn_limit":
        winner = "(turn limit)"
    return winner + (" (Kalooki)" if hand.kalooki else "")


def hand_score(hand: HandReport, name: str) -> str:
    """A player's cell of a hand: ``+105 (80)``, or nothing for a player out of the game."""
    return f"{hand.scores[name]:+d} ({hand.hand_points[name]})" if name in hand.scores else ""


def print_hands_narrow(run: ScriptRun, console: Console) -> None:
    """The hands table as lines, on a terminal too narrow for it: squeezed, it cut the scores ("(11…")."""
    console.print(Text("Hands", style="bold"))
    for hand in run.hands:
        dealt = f", dealt by {hand.dealer}" if hand.dealer else ""
        console.print(Text(f"hand {hand.number}{dealt}: {hand_winner(hand)}"))
        scores = [f"{name} {hand_score(hand, name)}" for name in run.players if name in hand.scores]
        for line in packed(scores, console.width - 2):
            console.print(Padding(Text(line), (0, 0, 0, 2), expand=False))
    console.print(Text("total", style="bold"))
    for line in packed([f"{name} {run.totals.get(name, 0)}" for name in run.players], console.width - 2):
        console.print(Padding(Text(line), (0, 0, 0, 2), expand=False))


def packed(items: list[str], width: int) -> list[str]:
    """``items`` joined by `` · `` into lines of at most ``width``, never breaking an item ("dee +0 (10)")."""
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + 3 + len(item) <= width:
            lines[-1] += f" · {item}"
        else:
            lines.append(item)
    return lines


def table_legend(run: ScriptRun, variant: Variant | None) -> str:
    """What the numbers of the hands table mean, with the first scored cell as the example (of a table
    where none scored, its first cell; of one with no cell, none: a made-up example read as a cell)."""
    cells = [
        (hand.scores[name], hand.hand_points[name], hand.kalooki)
        for hand in run.hands
        for name in run.players
        if name in hand.scores
    ]
    score, points, kalooki = next((cell for cell in cells if cell[0]), cells[0] if cells else (0, 0, False))
    added, left = (f" ({score:+d})", f" ({points})") if cells else ("", "")
    legend = (
        f"Each cell: what the hand added to the player's total{added}, and in brackets the value "
        f"of the cards they were left with{left}"
    )
    penalty = variant is None or variant.scoring == "penalty"
    if not penalty:
        legend += "; the winner collects the others' cards"
    charge = 0 if variant is None else rules.kalooki_charge(variant)
    if kalooki and charge:
        how, direction = ("adds", "to") if charge > 0 else ("takes", "from")
        legend += f"; going Kalooki {how} {abs(charge)} {direction} every other player"
        if penalty and score != points:
            legend += f" ({points} + {charge} = {score})"
    return legend + ". The total row is each player's total at the end."
