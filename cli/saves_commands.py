"""``kalooki saves``: the saved games, unfinished first, ``--clean`` to remove the finished ones (and
the lock files games killed outright left), and ``--remove N`` to remove one."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from kalooki.engine import Game
from kalooki.savegame import SAVE_SUFFIX
from kalooki.text import escape_controls

from . import save_lock
from .common import cli_errors
from .completion import complete_saved_game
from .output import report_console
from .save_lock import Holder, lock_place, open_elsewhere, remove_if_stale
from .saves import (
    Latest,
    SaveEntry,
    SaveFileError,
    all_saves,
    find_save,
    forget_save,
    remove_stale_temporaries,
    saves_dir,
    temporaries,
)
from .stop_signals import EXIT_INTERRUPTED


def last_played(entry: SaveEntry) -> str:
    """When the game was last saved, in local time, to the minute."""
    moment = datetime.fromtimestamp(entry.modified)
    if entry.save is not None and entry.save.session.saved_at:
        with contextlib.suppress(ValueError):
            moment = datetime.fromisoformat(entry.save.session.saved_at).astimezone()
    return moment.strftime("%Y-%m-%d %H:%M")


def shown_path(path: Path, folder: Path) -> str:
    """A save in the saves folder by its name; one elsewhere by its whole path."""
    return escape_controls(path.name if path.parent == folder else str(path))


def where_it_stands(game: Game) -> str:
    """Where an unfinished game stopped: ``hand 2, turn 7``, or ``hand 1 is over`` between hands."""
    if game.phase == "hand_over":
        return f"hand {game.hand_number} is over"
    return f"hand {game.hand_number}, turn {game.turn_number}"


def describe(entry: SaveEntry) -> str:
    """variant · players · where the game stands · last played."""
    return f"{game_summary(entry)} · last played {last_played(entry)}"


def game_summary(entry: SaveEntry) -> str:
    """variant · players · where the game stands (or why it cannot be resumed)."""
    if entry.save is None:
        return f"cannot be resumed: {entry.problem}"
    game = entry.save.game
    table = "hosted table · " if entry.hosted else ""
    players = ", ".join(game.players)
    if game.game_over:
        winners = " and ".join(game.players[seat] for seat in game.winners) or "nobody"
        where = f"over after hand {game.hand_number}, {winners} won"
    else:
        where = where_it_stands(game)
        if open_elsewhere(entry.path):
            where += " · open in another kalooki now"
    return f"{table}{game.variant.name} · {players} · {where}"


def passed_over(latest: Latest) -> str | None:
    """What ``kalooki resume`` with no argument says before it resumes a game that is not the latest: the
    newer ones are open in another kalooki, named by their numbers in ``kalooki saves`` (as ``kalooki
    resume N`` takes them) and their processes, or cannot be resumed, named by their files with why. None
    when it resumes the latest."""
    if not latest.open_elsewhere and not latest.damaged:
        return None
    folder = saves_dir()
    entries = all_saves()
    numbers = {entry.path: number for number, entry in enumerate(entries, start=1)}
    # A hosted table or a finished game is never the one resume picks, open elsewhere or not.
    never = {entry.path for entry in entries if entry.hosted or entry.finished}
    open_elsewhere = [(path, holder) for path, holder in latest.open_elsewhere if path not in never]
    if not open_elsewhere and not latest.damaged:
        return None
    number = numbers.get(latest.path)
    resumed = f"game {number}" if number is not None else f"the game in {shown_path(latest.path, folder)}"
    said = [_in_use(open_elsewhere, numbers, folder)] if open_elsewhere else []
    if latest.damaged:
        said.append(_cannot_be_resumed(latest.damaged, folder, first=not said))
    latest_left = "the latest not in use" if not latest.damaged else "the latest that can be"
    return f"{', and '.join(said)}: resuming {resumed}, {latest_left}."


def _in_use(open_elsewhere: list[tuple[Path, Holder]], numbers: dict[Path, int], folder: Path) -> str:
    """``Game 2 (the latest) is open in another kalooki now (process 41)``."""
    passed = [path for path, _ in open_elsewhere]
    if all(path in numbers for path in passed):
        games = "Game" if len(passed) == 1 else "Games"
        games += " " + _and([str(numbers[path]) for path in passed])
    else:  # one not listed (gone since it was looked at): named by its file
        games = _and([f"the game in {shown_path(path, folder)}" for path in passed])
        games = games[0].upper() + games[1:]
    pids = [holder.pid for _, holder in open_elsewhere]
    processes = ""
    if all(pid is not None for pid in pids):
        processes = f" (process{'es' if len(pids) > 1 else ''} {_and([str(pid) for pid in pids])})"
    verb = "is" if len(passed) == 1 else "are"
    return f"{games} (the latest) {verb} open in another kalooki now{processes}"


def _cannot_be_resumed(damaged: tuple[tuple[Path, str], ...], folder: Path, *, first: bool) -> str:
    """``The latest save, x.kalooki-save.json, cannot be resumed (the save is damaged: ...)`` (``first``: said
    first; else ``a newer save, ...``); several by their names, their reasons left to ``kalooki saves``."""
    # After a game open elsewhere, said first as the latest, these are only newer than the one resumed.
    if len(damaged) == 1:
        ((path, why),) = damaged
        which = "The latest save" if first else "a newer save"
        return f"{which}, {shown_path(path, folder)}, cannot be resumed ({escape_controls(why)})"
    names = _and([shown_path(path, folder) for path, _ in damaged])
    which = "The latest saves" if first else "newer saves"
    return f"{which}, {names}, cannot be resumed ('kalooki saves' says why)"


def _and(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def print_saves(console: Console, entries: list[SaveEntry], folder: Path, first: int = 1) -> None:
    """Two lines a game: its number (from ``first``) and what it is, then its file (whole, so it can be
    copied)."""
    width = len(str(first + len(entries) - 1))
    for number, entry in enumerate(entries, start=first):
        # The number stands alone in its column: a description wrapped on a narrow terminal goes on
        # under the description, not under the number.
        line = Table.grid(padding=(0, 2))
        line.add_column(width=width, justify="right", style="bold cyan", no_wrap=True)
        line.add_column()
        line.add_row(str(number), _date_kept_whole(entry, console.width - width - 2))
        console.print(line)
        console.print(Text(" " * (width + 2) + shown_path(entry.path, folder), style="dim"), soft_wrap=True)


def _date_kept_whole(entry: SaveEntry, width: int) -> Text:
    """The game's description in lines of ``width`` cells, broken at its spaces as rich breaks them but
    never inside ``last played 2026-12-07 23:45`` while a line holds it whole, and never between the
    date and its time: rich's own wrapping split "2026-12-07" from "23:45" at some widths."""
    date_time = last_played(entry)
    when = f"last played {date_time}"
    units = [*game_summary(entry).split(" "), "·"]
    units += [when] if cell_len(when) <= width else ["last", "played", date_time]
    lines = [units[0]]
    for unit in units[1:]:
        if cell_len(lines[-1]) + 1 + cell_len(unit) <= width:
            lines[-1] += " " + unit
        else:
            lines.append(unit)
    return Text("\n".join(lines))


def saves(
    clean: Annotated[
        bool,
        typer.Option(
            "--clean",
            help="Remove the saves of finished games in the saves folder (asks first), and the lock files"
            " and half-written copies of killed games.",
        ),
    ] = False,
    remove: Annotated[
        str | None,
        typer.Option(
            "--remove",
            metavar="N",
            help="Remove one saved game, finished or not (asks first): N as listed, or its file.",
            autocompletion=complete_saved_game,
        ),
    ] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="With --clean or --remove: do not ask.")] = False,
) -> None:
    """List the saved games, unfinished first; 'kalooki resume N' continues game N.

    Saves live in the saves folder ($KALOOKI_HOME/saves, or the platform's place for user
    data); games saved elsewhere with --save or 'save FILE' are listed too.
    """
    if yes and not clean and remove is None:
        # Alone, --yes did nothing, and `kalooki saves -y` read as if it had removed the finished games.
        raise typer.BadParameter(
            "--yes goes with --clean or --remove N: kalooki saves --clean --yes", param_hint="'--yes'"
        )
    if clean and remove is not None:
        raise typer.BadParameter(
            "--remove N removes one game, --clean the finished ones: give one", param_hint="'--remove'"
        )
    console = report_console(highlight=False)
    folder = saves_dir()
    with cli_errors():
        entries = all_saves()
        if remove is not None:
            _remove_one(console, entries, folder, remove, ask=not yes)
            return
    if not clean:
        if not entries:
            console.print(
                f"No saved games in {escape_controls(str(folder))}: start one with 'kalooki play'.",
                markup=False,
                soft_wrap=True,
            )
            return
        console.print(
            f"Saved games in {escape_controls(str(folder))}, unfinished first:", markup=False, soft_wrap=True
        )
        print_saves(console, entries, folder)
        # Each line names a command that takes one of the games listed: resume refuses a hosted table's.
        hosted = any(entry.hosted and not entry.finished for entry in entries)
        if any(entry.save is not None and not entry.finished and not entry.hosted for entry in entries):
            console.print("Continue one with: kalooki resume N (or kalooki resume FILE)", markup=False)
        elif not hosted:  # nothing to continue: the line named a command that could only refuse
            console.print(
                "None of them can be continued: start a new game with 'kalooki play'; "
                "'kalooki saves --clean' removes the finished ones.",
                markup=False,
            )
        if hosted:
            console.print("Reopen a hosted table with: kalooki host --resume N", markup=False)
        return
    freed = _remove_stale_locks(entries, folder)
    _say_removed(
        console,
        freed,
        folder,
        "the lock file a game killed outright left beside its save",
        "lock files games killed outright left beside their saves",
    )
    # A save killed mid-write (kill -9, a power cut) leaves its half-written copy beside it; the next
    # save of that game removes it, but a game never saved again kept it for good.
    halves = remove_stale_temporaries(_beside_saves(entries, folder, temporaries, f".*{SAVE_SUFFIX}.*.tmp"))
    _say_removed(
        console,
        halves,
        folder,
        "the half-written copy a save killed outright left",
        "half-written copies saves killed outright left",
    )
    freed += halves
    # A finished game saved where its player chose (--save, 'save FILE') is a record they meant to keep:
    # --clean tidies the saves folder, and --remove N takes such a game when asked for by name.
    finished = [entry for entry in entries if entry.finished and entry.path.parent == folder]
    _say_kept_elsewhere(console, entries, folder)
    if not finished:
        console.print("No finished games to remove.")
        return
    print_saves(console, finished, folder)
    count = f"{len(finished)} finished game{'s' if len(finished) != 1 else ''}"
    which = "the save of this finished game" if len(finished) == 1 else f"the saves of these {count}"
    if not yes:
        _agreed(console, f"Remove {which}?", "No save removed." if freed else "Nothing removed.")
    for entry in finished:
        entry.path.unlink(missing_ok=True)
    forget_save(*(entry.path for entry in finished))
    console.print(f"Removed {count}.")


def _say_kept_elsewhere(console: Console, entries: list[SaveEntry], folder: Path) -> None:
    """``--clean``: the finished games it keeps because they are saved outside the saves folder."""
    kept = [
        number for number, entry in enumerate(entries, 1) if entry.finished and entry.path.parent != folder
    ]
    if kept:
        games = f"game {kept[0]}" if len(kept) == 1 else f"games {_and([str(number) for number in kept])}"
        it = "it is" if len(kept) == 1 else "they are"
        console.print(
            f"Kept finished {games}: {it} saved outside the saves folder, where chosen; "
            "remove one with: kalooki saves --remove N",
            markup=False,
        )


def _remove_one(console: Console, entries: list[SaveEntry], folder: Path, choice: str, *, ask: bool) -> None:
    """``--remove N``: the save ``kalooki saves`` lists as N (or names), after asking; never one that
    another kalooki plays now, nor a file that is not a listed save."""
    path = find_save(choice, entries)
    real = Path(os.path.realpath(path))
    listed = [number for number, entry in enumerate(entries, 1) if Path(os.path.realpath(entry.path)) == real]
    if not listed:
        raise SaveFileError(f"{escape_controls(str(path))}: not a saved game that 'kalooki saves' lists")
    number = listed[0]
    entry = entries[number - 1]
    print_saves(console, [entry], folder, first=number)
    lost = "" if entry.finished or entry.save is None else " It cannot be continued after."
    with save_lock.holding(entry.path):  # a game open in another kalooki now is refused (SaveInUse)
        if ask:
            _agreed(console, f"Remove the save of game {number}?{lost}", "Nothing removed.")
        entry.path.unlink(missing_ok=True)
    forget_save(entry.path)
    console.print(f"Removed the save of game {number}.")


def _say_removed(console: Console, removed: list[Path], folder: Path, one: str, many: str) -> None:
    if removed:
        names = ", ".join(shown_path(place, folder) for place in removed)  # spelled by shown_path
        what = one if len(removed) == 1 else f"{len(removed)} {many}"
        # Paths whole, never broken by rich (the terminal wraps them), so each can be copied.
        console.print(f"Removed {what}: {names}", markup=False, soft_wrap=True)


def _remove_stale_locks(entries: list[SaveEntry], folder: Path) -> list[Path]:
    """Remove the lock files (:mod:`.save_lock`) that no live game holds, beside the saves listed and in
    the saves folder; the ones removed. They hold no game, so nothing is asked."""
    places = _beside_saves(entries, folder, lambda save: [lock_place(save)], f".*{SAVE_SUFFIX}.lock")
    return [place for place in places if remove_if_stale(place)]


def _beside_saves(
    entries: list[SaveEntry], folder: Path, companions: Callable[[Path], list[Path]], pattern: str
) -> list[Path]:
    """The files a save has beside it (``companions`` of each save listed), and those in the saves
    ``folder`` named by ``pattern``, whose save may be gone since: each once, by its real place."""
    places = {Path(os.path.realpath(place)) for entry in entries for place in companions(entry.path)}
    if folder.is_dir():
        real = Path(os.path.realpath(folder))
        places.update(real / path.name for path in folder.glob(pattern))
    return sorted(places)


def _agreed(console: Console, question: str, nothing: str) -> None:
    """Ask ``question``; a no says ``nothing`` (what was left as it was) and exits 1, and Ctrl-C says it
    interrupted and exits 130."""
    try:
        agreed = _confirm(question)
    except KeyboardInterrupt:
        # Off the question's line, as Ctrl-C is told at the game's prompts.
        console.print(f"\nInterrupted: {nothing[0].lower()}{nothing[1:]}")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    if not agreed:
        console.print(nothing)
        raise typer.Exit(1)


def _confirm(question: str) -> bool:
    """Ask yes or no; Enter, or no answer (the end of input), is no. Anything else asks again, saying
    what to type (click's own confirm said only "Error: invalid input"). Ctrl-C raises
    KeyboardInterrupt (click's prompt made it the same Abort as the end of input)."""
    while True:
        typer.echo(f"{question} [y/N]: ", nl=False)
        try:
            answer = input()
        except EOFError:
            typer.echo()
            return False
        if not _at_a_terminal():
            typer.echo(answer)  # as a terminal shows what was typed: what follows starts a line of its own
        word = answer.strip().lower()
        if word in ("y", "yes"):
            return True
        if word in ("", "n", "no"):
            return False
        typer.echo("Answer y to remove, or n (or Enter) to keep.", err=True)


def _at_a_terminal() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):  # a closed or replaced standard input
        return False


def register(app: typer.Typer) -> None:
    app.command("saves", short_help="List the saved games; 'kalooki resume N' continues one.")(saves)
