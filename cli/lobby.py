"""The ``kalooki join`` screen before its game, and the table's seats as the host tells them.

Until the game's first state arrives, :class:`Lobby` shows who comes and goes and what is said;
at a terminal a guest has a ``waiting>`` prompt where ``say TEXT`` and ``quit`` work already.
Once the game is on, :class:`~kalooki_cli.remote.RemoteGame` keeps the host's later ``lobby``
messages here, to know which seats bots play and which players are away. Between hands the
table waits again, for its seats to be ready: :class:`Readiness` keeps whom the deal waits for.
The lines and exceptions the lobby and the game both use (a line said, a presence, a closed
table) are here too.
"""

from __future__ import annotations

import queue
from dataclasses import dataclass
from typing import Any

from kalooki_net.client import LOST, Closed, Skipped, TableConnection
from kalooki_net.protocol import MAX_SAY, REMOVED_BY_THE_HOST, presence_line
from rich.console import Console
from rich.text import Text

from kalooki.bots import is_bot_name
from kalooki.text import escape_controls, shows_nothing


def said_line(message: dict[str, Any]) -> Text:
    """What another player said, as one line of plain characters.

    The words come from another machine: an escape sequence in them would clear this screen or
    retitle the window, and a newline would let them print a line that looks like the table's own.
    """
    return Text(escape_controls(f"{message['name']}: {message['text']}"), style="magenta")


class TableClosed(Exception):
    """The host closed the table, or (``lost``) the connection to it was lost, or (``removed``) the host
    removed this player: their token takes no seat there again."""

    def __init__(self, reason: str, *, lost: bool = False, skipped: str | None = None) -> None:
        super().__init__(reason)
        self.removed = lost and reason == REMOVED_BY_THE_HOST
        lost = lost and not self.removed
        self.lost = lost
        self.skipped = skipped
        """A message the table sent last that the join could not read (:class:`Skipped`), if any."""

    def sentence(self) -> str:
        """One line for the player: a lost connection (a network, a laptop asleep) is not a closed table."""
        reason = escape_controls(str(self))  # the table's words: an escape sequence is spelled out
        if self.removed:
            return "The host removed you from the table."
        if not self.lost:
            return f"The table is closed: {reason}."
        lost = "The connection to the table was lost" + ("." if reason == LOST else f": {reason}.")
        if self.skipped is None:
            return lost
        return f"{lost} Before that it sent a message kalooki cannot read: {escape_controls(self.skipped)}."


class LeftLobby(Exception):
    """The player left the table before the game started."""


WAITING_HELP = "The game has not started: say TEXT talks to the table, quit leaves it."
WAITING_PROMPT = "waiting> "
"""A guest's prompt at a terminal while the table waits for the game: say and quit work there."""


def said_in_lobby(line: str) -> str:
    """What ``say TEXT`` typed while the table waits for the game says; empty for any other line
    (the host's start> prompt and a guest's waiting> prompt both read it so)."""
    word, _, text = line.strip().partition(" ")
    return text.strip() if word.lower() == "say" else ""


def presence_of(message: dict[str, Any]) -> str:
    """A ``presence`` message as the sentence the table's screens show (an escape sequence spelled out)."""
    line = presence_line(str(message["name"]), str(message["status"]), free=message.get("free") is True)
    return escape_controls(line)


SKIPPED_PATIENCE = 10.0
"""Seconds the join waits after a message it could not read before it says so: a table that sent
nothing else since may have sent what the join waits for in a form it cannot read."""


def receive(connection: TableConnection) -> dict[str, Any]:
    """The next message from the host, or a typed line from the inbox; a lost connection raises.

    A message skipped (:class:`Skipped`) and then nothing from the table for :data:`SKIPPED_PATIENCE`
    seconds comes as ``{"type": "_skipped", "problem": ...}``, once: a hostile table that sent its first
    state as ``{"view": NaN}`` left the join waiting in silence.
    """
    skipped: str | None = None
    while True:
        try:
            message = connection.receive(SKIPPED_PATIENCE if skipped else None)
        except queue.Empty:
            return {"type": "_skipped", "problem": skipped}
        if isinstance(message, Closed):
            raise TableClosed(message.reason, lost=True, skipped=skipped)
        if isinstance(message, Skipped):
            skipped = message.problem
            continue
        return dict(message)


def skipped_line(message: dict[str, Any]) -> Text:
    """A message the table sent that the join cannot read, and nothing since: said, as the join waits on."""
    problem = escape_controls(str(message["problem"]))
    return Text(
        f"✗ the table sent a message kalooki cannot read, and nothing since: {problem}", style="bold red"
    )


def say_refusal(text: str) -> Text | None:
    """The refusal of a line the table would not take, said before it is sent: one longer than the table
    takes (cut to fit, it would say what was not meant), or one that shows nothing (shown as "you:" and
    nothing, then refused by the table)."""
    if shows_nothing(text):
        return Text("✗ say what? that line shows nothing: nothing was sent", style="bold red")
    if len(text) <= MAX_SAY:
        return None
    return Text(
        f"✗ say takes at most {MAX_SAY} characters, and this is {len(text)}: nothing was sent",
        style="bold red",
    )


def say_to_table(connection: TableConnection, text: str) -> Text:
    """Send ``text`` to the table; the line that shows it said by "you", or why it was not sent."""
    if (refused := say_refusal(text)) is not None:
        return refused
    connection.send({"type": "say", "text": text})
    return said_line({"name": "you", "text": text})


class Lobby:
    """The table's seats, as the host last told them, and the wait for its game."""

    def __init__(
        self, connection: TableConnection, console: Console, *, seat: int, is_host: bool, prompt: bool
    ) -> None:
        self.connection = connection
        self.console = console
        self.seat = seat
        self.is_host = is_host
        self.prompt = prompt
        """At a terminal, a guest waiting for the game has a prompt (the keyboard is read already)."""
        self.at_prompt = False
        """The lobby's prompt is on the screen, the cursor after it: a line told goes below it."""
        self.message: dict[str, Any] = {}
        """The host's last ``lobby`` message: the seats, who sits there, who is connected."""
        self.came_back = False
        """Seated at a game under way (the first lobby says it has started): its first events were missed."""

    def wait_for_state(self) -> dict[str, Any]:
        """Before the game: show who comes and goes; the host may type start. The first state."""
        console = self.console
        while True:
            message = receive(self.connection)
            kind = message.get("type")
            if kind == "state":
                if self.at_prompt:
                    console.print()  # the game's screen starts off the prompt's line
                return dict(message)
            if kind == "lobby":
                if not self.message:
                    self.came_back = bool(message["started"])
                if not self.message and not message["started"] and not self.is_host:
                    self.message = message
                    console.print(Text("Waiting for the game...", style="bold"))  # not when rejoining
                    if self.prompt:
                        self.tell(Text(self.who_starts(), style="dim"))
                self.message = message
            elif self.is_host and kind in ("presence", "said"):
                continue  # the host's lobby told them already, as [table] lines
            elif kind == "presence" and message.get("seat") != self.seat:
                self.tell(Text(presence_of(message), style="dim"))
            elif kind == "said" and message.get("seat") != self.seat:
                self.tell(said_line(message))
            elif kind == "error" and message.get("code") == "removed":
                continue  # the close that follows says it: 'The host removed you from the table.'
            elif kind == "error":
                refusal = escape_controls(str(message["message"]))
                self.tell(Text(f"✗ {refusal}", style="bold red"))
            elif kind == "_skipped":
                self.tell(skipped_line(message))
            elif kind == "closing":
                if self.at_prompt:
                    console.print()
                raise TableClosed(str(message["reason"]))
            elif kind == "_line":
                self.at_prompt = False  # Enter took the cursor to a new line
                self.typed(str(message["text"]))
            elif kind == "_eof":
                raise LeftLobby

    def starter(self, host: str = "the host") -> str:
        """Who may start the game: the host, by name (as written) where the host has a seat, else ``host``."""
        hosts = [escape_controls(str(seat["name"])) for seat in self.message.get("seats", []) if seat["host"]]
        return f"{hosts[0]} (the host)" if hosts else host

    def who_starts(self) -> str:
        """Who starts the game, and what the keyboard does meanwhile."""
        return (
            f"{self.starter('The host')} starts it, or it starts when every seat is taken. Meanwhile say "
            "TEXT talks to the table, quit leaves it."
        )

    def tell(self, line: Text) -> None:
        """A line while the table waits for the game; at a terminal, below its prompt, then the prompt."""
        if self.at_prompt:
            self.console.print()  # off the prompt's line
        self.console.print(line)
        self.prompt_again()

    def prompt_again(self) -> None:
        if self.prompt:
            self.console.print(Text(WAITING_PROMPT, style="bold"), end="")
            self.at_prompt = True

    def typed(self, line: str) -> None:
        """A line typed at a terminal while the table waits for the game: say and quit work already."""
        word = line.strip().partition(" ")[0]
        if word.lower() in ("quit", "exit", "q"):
            raise LeftLobby
        if said := said_in_lobby(line):
            self.tell(say_to_table(self.connection, said))
        elif word.lower() == "start":
            # Only the host's own prompt takes start: a guest who typed it (told to, or guessing) read only
            # that the game had not started, and waited for it to.
            only = f"Only {self.starter()} can start the game, or it starts when every seat is taken"
            self.tell(Text(f"{only}: say TEXT asks them to, quit leaves the table.", style="dim"))
        elif word:
            self.tell(Text(WAITING_HELP, style="dim"))
        else:  # an empty line: the prompt again
            self.prompt_again()

    # ------------------------------------------------------------ the seats, during the game too

    def bot_seats(self) -> dict[int, str]:
        """The seats bots play, by the bot's name (one this kalooki does not know is left out)."""
        return {
            int(seat["seat"]): str(seat["bot"])
            for seat in self.message.get("seats", [])
            if seat["kind"] == "bot" and isinstance(seat["bot"], str) and is_bot_name(seat["bot"])
        }

    def away(self) -> dict[int, str | None]:
        """The other players whose connection dropped, the table waiting for them (no bot named yet)."""
        return {
            int(seat["seat"]): None
            for seat in self.message.get("seats", [])
            if seat["kind"] == "human" and not seat["connected"] and seat["seat"] != self.seat
        }


@dataclass
class Readiness:
    """Between hands: whom the deal waits for, and whether this seat said it is ready."""

    seat: int
    said: bool = False
    """This seat said it is ready for the next hand (sent ``ready``, or had before a drop)."""
    waiting_for: list[int] | None = None
    """The seats the deal waits for, from a host that says so (None: it does not)."""
    told: list[int] | None = None
    """The seats last named in "Waiting for ...": they are named again only when that changes."""

    def take(self, message: dict[str, Any], *, hand_over: bool) -> None:
        """Whom a state says the deal waits for, and whether this seat is among the ready."""
        waiting = message.get("waiting_for")
        self.waiting_for = None
        if isinstance(waiting, list):
            self.waiting_for = [seat for seat in waiting if isinstance(seat, int)]
        ready = message.get("ready")
        if hand_over and isinstance(ready, list) and self.seat in ready:
            # Said before this connection (a player back after a drop stays ready): not asked again.
            self.said = True

    def to_tell(self, players: int) -> list[int]:
        """Ready: the other seats the deal still waits for, when they are not the ones named last."""
        if not self.said or self.waiting_for is None:
            return []
        others = [seat for seat in self.waiting_for if seat != self.seat and 0 <= seat < players]
        if not others or others == self.told:
            return []
        self.told = others
        return others


__all__ = [
    "WAITING_HELP",
    "WAITING_PROMPT",
    "LeftLobby",
    "Lobby",
    "Readiness",
    "TableClosed",
    "presence_of",
    "receive",
    "said_in_lobby",
    "said_line",
    "say_refusal",
    "say_to_table",
    "skipped_line",
]
