"""``kalooki host --watch``: the host's terminal only serves the table; it starts the game, drops a
player who holds the table up, and closes it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from kalooki.text import escape_controls

from .narrow import print_then
from .play import console_reader
from .stop_signals import stopped_by, stopped_status

if TYPE_CHECKING:
    from kalooki_net.table import Table
    from rich.console import Console

    from .host_thread import HostThread


def watch_table(server: HostThread, console: Console, reopen: str) -> int:
    """The watching host's prompt until it closes the table; ``reopen``: the command that reopens it."""
    read_line = console_reader(console)
    console.print(Text(watch_help(server), style="dim"))
    while True:
        try:
            typed = server.ask(WATCH_PROMPT, read_line).strip()
        except EOFError:  # said, as at the host's own seat: the table closed without a word before
            closed_at_prompt(server, console, "End of input", reopen)
            return 0
        except KeyboardInterrupt as stop:  # Ctrl-C (130), SIGTERM or SIGHUP: as at the lobby and the game
            closed_at_prompt(server, console, stopped_by(stop), reopen)
            return stopped_status(stop)
        line = typed.lower()
        if line in ("quit", "exit", "q"):
            # A game under way stays saved: said with the command that reopens it, as the host's own seat
            # says it on quit (this said only that the table closed, as if nothing were left to reopen).
            if not told_saved(server, console, "Stopped", reopen):
                console.print(Text("The table is closed.", style="bold"))
            return 0
        if line == "start" and server.table.game is None:
            server.call("start_game")  # a start that loses the race to the last seat is told, not raised
        elif game_over(server.table) and seat_command(typed) is not None:
            refused = f"the game is over, so nobody is waited for: {CLOSE_WHEN_READ}"
            console.print(Text(refused, style="dim"), soft_wrap=True)
        elif (command := seat_command(typed)) is not None:  # as the host's own seat answers it
            console.print(Text(server.act_on_seat(*command), style="dim"), soft_wrap=True)
        elif line:
            console.print(Text(watch_help(server), style="dim"))


def closed_at_prompt(
    server: HostThread, console: Console, why: str, reopen: str, *, tell_failure: bool = False
) -> None:
    """That the table closed at a host's prompt (``why``: "End of input", "Interrupted", "Terminated
    (SIGTERM)"); with a game under way, that it is saved and how to reopen it, as the host's seat says on
    leaving a game (a game can start while the host waits at its lobby prompt, the last seat taken).
    ``tell_failure``: say here that the last save failed (a watching host is told it as the command ends)."""
    # On the line after the prompt's, which the key or the signal left unended.
    if not told_saved(server, console, "\n" + why, reopen, tell_failure=tell_failure):
        console.print(Text(f"\n{why}: the table is closed.", style="bold"))


def told_saved(
    server: HostThread, console: Console, why: str, reopen: str, *, tell_failure: bool = False
) -> bool:
    """With a game under way, that the table closed (``why``) and the game is saved, with ``reopen``, the
    command that reopens it (:func:`closed_at_prompt`'s ``tell_failure``: the save that failed). False,
    with nothing said, where there is nothing to reopen: no game yet, a game over, or a failure not told."""
    game, failure = server.table.game, server.table.save_failure
    if game is None or game.game_over or (failure is not None and not tell_failure):
        return False
    said = closed_with_game(why, server.table.save_path, failure)
    console.print(Text(said, style="bold"), soft_wrap=failure is not None)  # a path to copy: whole
    if failure is None:
        print_then(console, "Reopen it with:", reopen, "bold")
    return True


def closed_with_game(why: str, save_path: object, failure: str | None) -> str:
    """What a host is told as its table closes with a game under way, at its prompt or its own seat: that the
    game is saved, or (``failure``) where it could not be saved and why."""
    if failure is None:
        return f"{why}: the table is closed, and the game is saved."
    shown, reason = escape_controls(str(save_path)), escape_controls(failure)
    return f"{why}: the table is closed; the game could not be saved to {shown} ({reason})."


def watch_help(server: HostThread) -> str:
    """What the watching host may type: start only before the game."""
    if server.table.game is None:
        return f"Type start to begin (bots take the empty seats), {DROP_HELP}, quit to close the table."
    if game_over(server.table):
        return GAME_OVER_HELP
    return f"The game has started: type {DROP_HELP}, or quit to close the table."


CLOSE_WHEN_READ = "type quit to close the table (until then it shows the result)"
GAME_OVER_HELP = f"The game is over: {CLOSE_WHEN_READ}."
"""A watching host's table stays open after the game (its keyboard is its own, not a seat's that ends with
the game), serving the final scores to the players' pages until the host closes it."""


def game_over(table: Table) -> bool:
    return bool(table.game is not None and table.game.game_over)


def told_to_watcher(table: Table, line: str) -> str:
    """A line the table tells its watching host: once the game is over, how to close the table. (A player
    whose connection closes then is told as leaving by the table itself: nobody waits for them.)"""
    if game_over(table) and line.startswith("The game is over:"):
        return f"{line} Type quit to close the table."  # short: the line fits a terminal of 80
    return line


DROP_HELP = (
    "drop NAME to drop a player's connection (the table waits for them, then a bot plays their seat), "
    "remove NAME to remove them for good"
)
"""The host's commands for a player who is connected but does nothing: the wait counts only for one away,
and one who comes back at once and does nothing again is removed."""

WHOM = {
    "drop": "drop whom? (drop NAME drops a player's connection)",
    "remove": "remove whom? (remove NAME removes a player for good: a bot plays their seat to the end)",
}
"""What ``drop`` or ``remove`` with no name is answered in the game."""

WHOM_BEFORE_THE_GAME = {
    **WHOM,
    "remove": "remove whom? (remove NAME removes a player for good: their seat is free again)",
}
"""The same before the game, where a removed player's seat is freed rather than played by a bot."""


def seat_command(line: str) -> tuple[str, str] | None:
    """``drop NAME`` or ``remove NAME``: the command and the name (empty where none is given); None for
    any other line."""
    word, _, name = line.strip().partition(" ")
    return (word.lower(), name.strip()) if word.lower() in WHOM else None


WATCH_PROMPT = "table> "
"""The prompt of a host that only serves the table (--watch): start or quit."""
