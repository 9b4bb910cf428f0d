"""The keyboard at a hosted table's seat (``kalooki join``, the host's own seat): lines typed while the
host's messages arrive, read from one inbox, so that say, look, score, help and quit work during the others'
turns too."""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING, Any

from kalooki_net.client import TableConnection
from kalooki_net.signals import signals_stay_with_main
from kalooki_net.table_state import TableStateError
from rich.text import Text

from .interactive import LOOK_WORDS, TURN_COMMANDS
from .lobby import TableClosed

if TYPE_CHECKING:
    from .remote import RemoteGame


class HandBegan(Exception):
    """The next hand was dealt while a player out of the game was asked whether to watch it."""


def read_keyboard(connection: TableConnection) -> None:
    """Read the keyboard all the time, so say, look, score, help and quit work during others' turns too.

    Only at a terminal: piped input is read when a prompt asks for it, as in ``kalooki play``.
    Lines go into the connection's inbox beside the host's messages, as ``_line`` items (no
    host message type starts with an underscore), and the end of input as ``_eof``.
    """
    inbox = connection.inbox

    def read() -> None:
        while True:
            line = sys.stdin.readline()
            if not line:
                inbox.put({"type": "_eof"})
                return
            inbox.put({"type": "_line", "text": line.rstrip("\n")})

    with signals_stay_with_main():  # Ctrl-C (and SIGTERM) are the main thread's, waiting on the inbox
        threading.Thread(target=read, daemon=True, name="kalooki-keyboard").start()


class TableKeyboard:
    """The prompts of a seat whose keyboard is read all the time (:func:`read_keyboard`): a line typed is
    the prompt's answer, a message from the host is told (or taken, a new state) while the prompt waits."""

    def __init__(self, screen: RemoteGame) -> None:
        self.screen = screen

    def line(self, prompt: str) -> str:
        """The next line typed at ``prompt``, telling the host's messages that come meanwhile."""
        screen = self.screen
        screen.console.print(Text(prompt, style="bold"), end="")
        while True:
            if screen.typed:
                message: dict[str, Any] | None = screen.typed.popleft()
            else:
                try:
                    arrived = screen.next_message()
                except TableClosed:
                    screen.console.print()  # the connection lost, said off the prompt's line
                    raise
                kind, seat_of = arrived.get("type"), arrived.get("seat")
                told = kind in ("said", "presence", "closing", "_skipped") and seat_of != screen.seat
                if told:
                    screen.console.print()  # off the prompt's line, which would read as typed there
                message = screen.handle(arrived)
                if told:
                    # The prompt again below the line told, where the next line is typed.
                    screen.console.print(Text(prompt, style="bold"), end="")
            if message is None:
                continue
            if message["type"] == "_line":
                return str(message["text"])
            if message["type"] == "_eof":
                raise EOFError
            if message["type"] == "state":
                view = message.get("view")
                begun = screen.asking and isinstance(view, dict) and view.get("phase") != "hand_over"
                if begun:
                    screen.console.print()  # the new hand's screen below the question, not on its line
                try:
                    screen.take_state(message)
                except TableStateError:
                    screen.console.print()  # the one line that ends the join, off the prompt's line
                    raise
                if begun:
                    raise HandBegan
            else:
                # No answer to a line typed (those are read by the command that sent them): the host dropped
                # or removed this seat. Off the prompt's line, which read "draw> ✗ the host removed you".
                screen.console.print()
                screen.error(str(message["message"]))
                screen.removed = screen.removed or message.get("code") == "removed"
                screen.console.print(Text(prompt, style="bold"), end="")


def typed_while_waiting(screen: RemoteGame, message: dict[str, Any]) -> None:
    """A line typed during another player's turn: a command runs, a move waits for your turn."""
    if message["type"] == "_eof":
        raise EOFError
    line = str(message["text"])
    if line.strip().lower() in ("", *LOOK_WORDS):
        # Only this seat's view is here, so the table may be drawn whoever is playing.
        screen.show()
        return
    if screen.command(line, in_turn=False):
        return
    word = line.split()[0].lower()
    in_turn_command = word in TURN_COMMANDS  # hint, undo: refused for now, never as words there are none of
    if not in_turn_command and screen.not_written_as_move(line):  # said now, not after waiting for a turn
        return
    if screen.game.eliminated[screen.seat]:
        screen.error("you are out of the game: type skip to go to the result (say TEXT talks to the table)")
        return
    wait = f"{word} works on your turn" if in_turn_command else "wait for your turn"
    # Ready between hands, no one is playing: the deal waits for the others.
    now = (
        f"{screen.game.player} is playing"
        if screen.game.phase in ("draw", "play")
        else "the next hand is not dealt yet"
    )
    screen.error(f"{wait}: {now} (say TEXT talks to the table)")
