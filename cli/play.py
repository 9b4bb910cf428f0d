"""``kalooki play`` (against bots, or a game script) and ``kalooki resume``."""

from __future__ import annotations

import os
import re
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.text import Text

from kalooki.rules import default_players, may_play, player_counts, seating_note
from kalooki.shell_words import shell_join

from .common import (
    NameOption,
    SetOption,
    check_output_path,
    cli_errors,
    file_name,
    integer,
    load_game_variant,
    named,
    named_bots,
    refuse_bad_name,
    refuse_unknown_bots,
    seed_number,
    typed_words,
)
from .completion import complete_bots, complete_saved_game, complete_variant
from .turn_log import refuse_a_written_log, refuse_one_file

if TYPE_CHECKING:
    from kalooki.engine import Game
    from kalooki.savegame import Session

    from .interactive import InteractiveGame, TurnLogWriter

DEFAULT_BOT = "greedy"
SCRIPT_KEYS = re.compile(r"^(hands|players)\s*:", re.MULTILINE)
"""A game script's top-level ``hands`` or ``players`` key in block style, found even in a script whose
YAML has a mistake (the script's own check then places it); a variant file never has one."""
MAX_SCRIPT_PEEK = 64 * 1024

FastOption = Annotated[bool, typer.Option("--fast", help="No pause between the bots' turns.")]


def is_script(target: str) -> bool:
    """Whether ``target`` names a game script rather than a variant (a name or a variant file).

    A script in flow style (``{players: [...]}``), with quoted keys or written as JSON has no key at a
    line's start: such a file is read as YAML and asked as the variant loader asks it.
    """
    from kalooki.file_kinds import is_script_data
    from kalooki.safeio import peek_regular_file
    from kalooki.yamlio import YamlError, load_yaml_file

    path = Path(target)
    # None too for a name too long for the system (ENAMETOOLONG), and for a file whose read would wait.
    peeked = peek_regular_file(path, MAX_SCRIPT_PEEK)
    if peeked is None:
        return False
    head = peeked.decode("utf-8", errors="replace")
    if SCRIPT_KEYS.search(head) is not None:
        return True
    try:
        return is_script_data(load_yaml_file(path).data)
    except YamlError:
        return False


def make_console() -> Console:
    # highlight=False: rich would otherwise colour every number and quoted word of the table at random.
    # markup=False, emoji=False: players' names (another machine's, at a hosted table) reach the screen in
    # plain strings; "[/]" in one would be read as markup (an error), "[red]x" or ":joker:" as something else.
    return Console(highlight=False, markup=False, emoji=False)


def terminal_pause(console: Console, fast: bool) -> Callable[[float], None] | None:
    """Sleep between bots' turns only for a person watching: never with --fast, into a pipe, or in tests.

    What is typed during a pause is dropped, and the player told so: a move typed ahead was chosen
    on a table the bots have changed since, and an Enter would pass a hot-seat screen unseen.
    """
    from .output import at_terminal

    if fast or not at_terminal(console):
        return None

    def pause(seconds: float) -> None:
        time.sleep(seconds)
        if dropped_typeahead():
            console.print(
                Text("What you typed while the bots played is dropped: type it at your prompt.", style="dim")
            )

    return pause


def dropped_typeahead() -> bool:
    """Drop what waits to be read from the terminal; True when a whole line was waiting."""
    try:
        import select
        import termios
    except ImportError:  # no termios (Windows): the lines stay, as they always did there
        return False
    try:
        descriptor = sys.stdin.fileno()
        waiting = bool(select.select([descriptor], [], [], 0)[0])
        # A line half typed is dropped too, without a word: it was not sent.
        termios.tcflush(descriptor, termios.TCIFLUSH)
    except (OSError, ValueError, termios.error):
        return False
    return waiting


def console_reader(console: Console) -> Callable[[str], str]:
    """Read a line after a prompt, with line editing (arrows, Up for an earlier line) at a terminal."""
    from .line_editing import prompt_reader

    return prompt_reader(console)


def play(
    target: Annotated[
        str | None,
        typer.Argument(
            metavar="VARIANT|PATH|SCRIPT",
            help="A built-in variant (default classic), a variant file, or a game script to play through.",
            show_default=False,
            autocompletion=complete_variant,
        ),
    ] = None,
    set_: SetOption = None,
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            parser=integer,
            metavar="N",
            help=(
                "Players at the table, you included (default 4, or the most the pack seats if fewer; "
                "or you and two or more --bots named)."
            ),
        ),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            metavar="BOT,BOT,...",
            autocompletion=complete_bots,
            help=(
                "The bots' kinds, seat by seat (default greedy); fewer names than bot seats repeat in "
                "turn, so one name fills the table."
            ),
        ),
    ] = None,
    name: NameOption = "you",
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            parser=seed_number,
            metavar="N",
            help="Shuffle seed; a game is reproduced by its seed (default random).",
        ),
    ] = None,
    fast: FastOption = False,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save",
            parser=file_name,
            metavar="FILE",
            help="Save the game to FILE (default: a new file in the saves folder).",
        ),
    ] = None,
    json_output: Annotated[
        bool, typer.Option("--json", help="With a game script: print the result as one JSON object.")
    ] = False,
    log: Annotated[
        Path | None,
        typer.Option(
            "--log",
            parser=file_name,
            metavar="FILE.jsonl",
            help="Write every event of the game, one JSON object a line.",
        ),
    ] = None,
    humans: Annotated[
        str | None,
        typer.Option(
            "--humans",
            metavar="NAME,NAME,...",
            help="Hot-seat: several people at this terminal, in turn.",
            callback=typed_words,
        ),
    ] = None,
) -> None:
    """Play Kalooki in the terminal against bots (or play a game script through).

    You sit first, against greedy bots by default: three, fewer where the pack seats fewer. The game is
    saved after every move; quit, Ctrl-C or the end of input stop it, and 'kalooki resume' continues it.
    """
    if target is not None and is_script(target):
        script_sets = "a game script sets its own players, seed and rules"
        # Each option a script does not take, with why: the script's own keys, or a terminal game's.
        interactive_only = {
            "--set": (bool(set_), script_sets),
            "--players": (players is not None, script_sets),
            "--bots": (bots is not None, script_sets),
            "--name": (name != "you", script_sets),
            "--seed": (seed is not None, script_sets),
            "--save": (
                save is not None,
                "a game script is played through at once and not saved: --log records it",
            ),
            "--fast": (fast, "a game script is played through at once, with no pauses to skip"),
            "--humans": (humans is not None, script_sets),
        }
        for option, (given, why) in interactive_only.items():
            if given:
                raise typer.BadParameter(why, param_hint=f"'{option}'")
        from . import save_lock
        from .script_commands import run_script

        if log is not None:
            check_output_path(log, game_file=True)
        # Held and refused as a game's at the terminal: a script's log may be written again by playing
        # the script again, but the file named may be anything (a save, the log of a game being played).
        with cli_errors(), save_lock.holding():
            if log is not None:
                save_lock.hold_log(log.expanduser())
                refuse_a_written_log(log.expanduser())
            code = run_script(Path(target), json_output=json_output, log_path=log)
        raise typer.Exit(code)
    if json_output:
        if target is not None and os.path.isfile(target):  # a script saved as UTF-16, say: why it is unread
            from kalooki.yamlio import load_yaml_file

            with cli_errors():
                load_yaml_file(Path(target))
        raise typer.BadParameter(
            "--json reports a game script's result: give a script to play", param_hint="'--json'"
        )
    refuse_one_file(log, save)
    for output in (log, save):
        if output is not None:
            check_output_path(output.expanduser(), game_file=True)
    if humans is not None and name != "you":
        raise typer.BadParameter("with --humans, the names are the people's", param_hint="'--name'")
    from . import save_lock
    from .stop_signals import stops_as_ctrl_c

    # The log is held from before it is looked at until the game stops writing it.
    with cli_errors(), stops_as_ctrl_c(), save_lock.holding():
        if log is not None:
            save_lock.hold_log(log.expanduser())
            refuse_a_written_log(log.expanduser())
        if save is not None:
            from .saves import refuse_other_file

            refuse_other_file(save.expanduser())
        if humans is not None:
            from .hotseat import start_hotseat

            code = start_hotseat(
                target, set_ or [], humans=humans, players=players, bots=bots, seed=seed, fast=fast,
                save=save, log=log,
            )  # fmt: skip
        else:
            code = start_game(
                target, set_ or [], players=players, bots=bots, name=name, seed=seed, fast=fast,
                save=save, log=log,
            )  # fmt: skip
    raise typer.Exit(code)


def replay_command(
    target: str | None,
    overrides: list[str],
    *,
    players: int | None,
    bots: list[str] | None,
    name: str,
    seed: int,
    humans: list[str] | None = None,
) -> str:
    """The ``kalooki play`` command line that deals the same game again: what was given, and the seed."""
    words = ["kalooki", "play"]
    if target is not None:
        words.append(target)
    for override in overrides:
        words += ["--set", override]
    if players is not None:
        words += ["--players", str(players)]
    if bots:
        words += ["--bots", ",".join(bots)]
    if name != "you":
        words += ["--name", name]
    if humans:
        words += ["--humans", ",".join(humans)]
    return shell_join([*words, "--seed", str(seed)])


def start_game(
    target: str | None,
    overrides: list[str],
    *,
    players: int | None,
    bots: str | None,
    name: str,
    seed: int | None,
    fast: bool,
    save: Path | None,
    log: Path | None,
) -> int:

    from . import save_lock
    from .interactive import TurnLogWriter, new_game
    from .saves import new_save_path

    variant = load_game_variant(target or "classic", overrides)
    named = named_bots(bots)
    kinds = named or [DEFAULT_BOT]
    refuse_unknown_bots(kinds)
    given_players = players
    if players is None:
        # Unsized, the table is the most the pack seats up to the usual four, as `rules` states; only
        # the bots named can ask for more than that.
        players = len(kinds) + 1 if named and len(kinds) > 1 else default_players(variant)
        players = max(players, variant.min_players)
        if not may_play(variant, players):
            raise typer.BadParameter(
                f"{len(kinds)} bots and you make {players} players, "
                f"but {variant.name} is for {player_counts(variant)} players{seating_note(variant)}",
                param_hint="'--bots'",
            )
    if not may_play(variant, players):
        raise typer.BadParameter(
            f"{variant.name} is for {player_counts(variant)} players{seating_note(variant)}",
            param_hint="'--players'",
        )
    name = name.strip()
    refuse_bad_name(name)
    if len(kinds) > players - 1:
        raise typer.BadParameter(
            f"{len(kinds)} bots for {players - 1} bot seat{'s' if players > 2 else ''} (--players {players})",
            param_hint="'--bots'",
        )
    seat_kinds = [kinds[index % len(kinds)] for index in range(players - 1)]
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    game, session = new_game(variant, name, seat_kinds, seed, variant_source=target or "classic")
    save_path = save.expanduser() if save is not None else new_save_path(seed)
    with save_lock.holding(save_path):
        writer = TurnLogWriter(game, log) if log is not None else None
        command = replay_command(target, overrides, players=given_players, bots=named, name=name, seed=seed)
        return terminal_game(game, session, save_path, fast=fast, log=writer, replay_command=command).run()


def terminal_game(
    game: Game,
    session: Session,
    save_path: Path,
    *,
    fast: bool,
    log: TurnLogWriter | None = None,
    resumed: bool = False,
    replay_command: str | None = None,
) -> InteractiveGame:
    """The interactive loop on this process's terminal (or pipe), saving to ``save_path``."""
    from .interactive import InteractiveGame
    from .saves import move_save, write_save

    console = make_console()
    return InteractiveGame(
        game,
        session,
        console=console,
        read_line=console_reader(console),
        save_path=save_path,
        write_save=write_save,
        pause=terminal_pause(console, fast),
        log=log,
        resumed=resumed,
        replay_command=replay_command,
        move_save=move_save,
    )


def resume(
    game: Annotated[
        str | None,
        typer.Argument(
            parser=named,
            metavar="N|FILE",
            help="A save file, or a game's number in 'kalooki saves' (default: the latest unfinished game).",
            autocompletion=complete_saved_game,
            show_default=False,
        ),
    ] = None,
    fast: FastOption = False,
    log: Annotated[
        Path | None,
        typer.Option(
            "--log",
            parser=file_name,
            metavar="FILE.jsonl",
            help="Go on writing the game's log from this file (by default, the log its save records: "
            "the file given to 'kalooki play --log').",
        ),
    ] = None,
    no_log: Annotated[
        bool, typer.Option("--no-log", help="Play on without writing the game's log (it cannot go on later).")
    ] = False,
) -> None:
    """Continue a saved game exactly where it stopped: same cards, same stock, same scores."""
    from .continue_log import refuse_both
    from .stop_signals import stops_as_ctrl_c

    refuse_both(log, no_log)
    with cli_errors(), stops_as_ctrl_c():
        code = resume_game(game, fast=fast, log=log, no_log=no_log)
    raise typer.Exit(code)


def resume_game(game: str | None, *, fast: bool, log: Path | None = None, no_log: bool = False) -> int:
    from . import save_lock
    from .saves import Latest, find_save, latest_save
    from .saves_commands import passed_over

    latest = Latest(find_save(game)) if game is not None else latest_save()
    with save_lock.holding(latest.path):  # read once it is held: another kalooki may have saved it just now
        # Not the game the player stopped last: said first on its screen, and why.
        return resume_held(latest.path, fast=fast, log=log, no_log=no_log, note=passed_over(latest))


def resume_held(path: Path, *, fast: bool, log: Path | None, no_log: bool, note: str | None = None) -> int:
    from kalooki.savegame import dump_save

    from .continue_log import resumed_log
    from .hotseat import HotSeatGame, saved_humans
    from .saves import move_save, read_save, refuse_hosted_table, write_save
    from .scoresheet import render_game_end

    loaded = read_save(path)
    refuse_hosted_table(path, loaded)
    humans = saved_humans(path, loaded)  # checked before a log is opened or a line is played
    session = loaded.session
    # The save as read, before --log or --no-log changes what it says of its log.
    as_read = dump_save(loaded.game, session)
    writer, session.log, session.log_left, session.log_unnamed = resumed_log(
        loaded.game, session.log, session.log_left, log, no_log=no_log, unnamed=session.log_unnamed, save=path
    )
    loop = terminal_game(loaded.game, loaded.session, path, fast=fast, log=writer, resumed=True)
    if humans is not None:  # a hot-seat game: every person at the keyboard again
        loop = HotSeatGame(
            loaded.game, loaded.session, humans, console=loop.console, read_line=loop.read_line,
            save_path=path, write_save=write_save, pause=loop.pause, log=writer, resumed=True,
            move_save=move_save,
        )  # fmt: skip
    loop.unchanged_save = as_read  # not written again until something in it changes
    loop.resume_note = note
    if loaded.game.game_over:
        render_game_end(loop.console, loaded.game, loop.seating)
        loop.say("That game is over. Start a new one with: kalooki play")
        return 0
    return loop.run()


def register(app: typer.Typer) -> None:
    app.command("play", short_help="Play in the terminal against bots, or play a game script.")(play)
    app.command("resume", short_help="Continue a saved game exactly where it stopped.")(resume)


__all__ = ["is_script", "play", "register", "resume", "resume_game", "start_game"]
