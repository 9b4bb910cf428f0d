"""The ``kalooki join`` screen: the play screen, at a table whose game lives on the host.

:class:`RemoteGame` is :class:`~kalooki_cli.interactive.InteractiveGame` with its moves sent
to the host instead of applied here: the same screen, move language, ``hint``, ``help``,
``rules``, ``score`` and refusals. Its game is a stand-in rebuilt from each view the host
sends (:func:`kalooki_net.view.shadow_game`), so the screens and the hints work unchanged
while the other hands and the stock stay on the host. Other players' turns are told as bots'
turns are; ``say TEXT`` talks to the table. The wait for the game, before its first state,
and the table's seats are :class:`~kalooki_cli.lobby.Lobby`'s.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from kalooki_net.client import TableConnection, TableConnectionError
from kalooki_net.table_state import TableEventError, TableStateError, events_problem, state_problem
from kalooki_net.view import shadow_game
from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from kalooki.engine import Event, Game
from kalooki.events import DealEvent, events_from_json
from kalooki.moves import MoveSyntaxError, parse_move
from kalooki.saved_rules import SavedRulesError, read_saved_rules
from kalooki.savegame import Session
from kalooki.text import escape_controls

from . import render, scoresheet, spectate
from .host_watch import WHOM, closed_with_game, seat_command
from .interactive import MOVE_VERBS, TAKEN_BACK, InteractiveGame, ReadLine
from .lobby import (
    LeftLobby,
    Lobby,
    Readiness,
    TableClosed,
    presence_of,
    receive,
    said_line,
    say_to_table,
    skipped_line,
)
from .narrate import join_and, table_lines
from .prompt_commands import COMMANDS, draw_once_drawn
from .remote_keyboard import HandBegan, TableKeyboard, read_keyboard, typed_while_waiting
from .render import Seating
from .table_notation import table_sentence, without_drawn_marks

EXIT_LOST = 1
WATCHING = "You watch the rest of the game: type skip to go to the result."
SKIPPED = "The others play on; the result comes when the game is over."


LEAVING = {
    False: "leave the table: it waits for you, then a bot plays your seat until you join again",
    True: "close the table; the game stays saved for kalooki host --resume",
}
"""What quit does at a hosted table, for a guest and for the host's own seat."""


def table_commands(*, host: bool) -> tuple[tuple[str, str], ...]:
    """The play screen's commands as they work at a hosted table.

    The host saves the game after every move, so ``save`` gives its row to ``say``, and ``quit``
    leaves the table (the host's own seat closes it) rather than stopping a game saved here.
    """
    rows: list[tuple[str, str]] = []
    for command, meaning in COMMANDS:
        if command.startswith("save"):
            rows.append(("say TEXT", "talk to the table, during the others' turns too"))
        elif command.startswith("quit"):
            if host:
                rows.append(
                    ("drop NAME", "drop a player's connection: the table waits for them, then a bot plays")
                )
                rows.append(("remove NAME", "remove a player for good: a bot plays their seat to the end"))
            rows.append((command, LEAVING[host]))
        else:
            rows.append((command, meaning))
    return tuple(rows)


class RemoteGame(InteractiveGame):
    """One seat of a hosted table, played at this terminal."""

    BETWEEN_HANDS = ("score, say TEXT, rules, help, quit", "score, say TEXT, rules, help or quit")
    """The host saves the game: between hands, as during them, ``say`` has ``save``'s place."""
    NEXT_HAND = (
        "Press Enter when you are ready for hand {number}",
        "press Enter when you are ready for the next hand",
    )
    """Enter says this player is ready: the next hand is dealt once every player is ("Press Enter to deal
    hand 2" read as though this player dealt it, and then it waited for the others)."""

    def __init__(
        self,
        connection: TableConnection,
        welcome: dict[str, Any],
        *,
        console: Console,
        read_line: ReadLine,
        rejoin_command: str = "",
        resume_command: str = "",
        close_table: Callable[[], None] | None = None,
        act_on_seat: Callable[[str, str], str] | None = None,
        prompt_in_lobby: bool = False,
        saved_to: Path | None = None,
        table_save_failure: Callable[[], str | None] | None = None,
    ) -> None:
        self.connection = connection
        self.saved_to = saved_to
        """For the host's own seat: the file the table saves to after every move."""
        self.table_save_failure = table_save_failure
        """For the host's own seat: why the table's last save failed, None where it worked."""
        self.close_table = close_table
        """For the host's own seat: tells the others the table closes, before this seat leaves it."""
        self.removed = False
        """The host removed this player (said by the table's error, or its close): their seat's token is
        thrown away (it takes no seat again)."""
        self.act_on_seat = act_on_seat
        """For the host's own seat: ``drop NAME`` drops a player's connection, ``remove NAME`` removes them
        for good (the line saying so)."""
        self.seat = int(welcome["seat"])
        self.is_host = bool(welcome["host"])
        try:
            self.variant = read_saved_rules(
                welcome["variant"],
                "the table's rules",
                upgrade="upgrade kalooki to join it",
                invalid="cannot be played",
            )
        except SavedRulesError as error:
            raise TableConnectionError(str(error)) from None
        self.rejoin_command = rejoin_command
        self.resume_command = resume_command
        """For the host's own seat: leaving closes the table, which this command reopens."""
        self.lobby = Lobby(connection, console, seat=self.seat, is_host=self.is_host, prompt=prompt_in_lobby)
        self.ready = Readiness(self.seat)
        self.skipping = False
        """Out of the game and not watching: the turns are not told, only the result."""
        self.asking = False
        """The question to a player out of the game waits for an answer: a new hand's state drops it."""
        self.turn_told: tuple[int, int] | None = None
        """The hand and turn whose player was last named on the screen ("bob is playing.")."""
        self.typed: deque[dict[str, Any]] = deque()
        """Lines typed ahead (as a move waited for the host's answer, or as the game started): read before
        the host's next message."""
        first = self.lobby.wait_for_state()
        game = self.shadow(first)
        bots = {seat: kind for seat, kind in self.lobby.bot_seats().items() if seat != self.seat}
        session = Session(human_seat=self.seat, bots=bots, variant_source=str(welcome["variant_source"]))
        super().__init__(game, session, console=console, read_line=read_line, save_path=None)
        self.seating = Seating(tuple(game.players), self.seat, bots)
        self.pending_events: list[Event] = events_from_json(first["events"])
        self.stand_ins: dict[str, str] = dict(first.get("stand_ins", {}))
        self.see_who_is_away()
        self.ready.take(first, hand_over=game.phase == "hand_over")

    # ------------------------------------------------------------ the keyboard, at a terminal

    def start_keyboard(self, *, reading: bool = False) -> None:
        """Prompts take the lines typed from the inbox (``reading``: :func:`read_keyboard` runs already)."""
        if not reading:
            read_keyboard(self.connection)
        self.read_line = TableKeyboard(self).line

    # ------------------------------------------------------------ messages from the host

    def next_message(self) -> dict[str, Any]:
        return receive(self.connection)

    def handle(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """Show a message that needs no answer; the message back if it is a state or an error."""
        kind = message.get("type")
        mine = message.get("seat") == self.seat
        if kind == "said" and not mine:
            self.console.print(said_line(message))
        elif kind == "presence" and not mine:
            self.say(presence_of(message), style="dim")
        elif kind == "lobby":
            self.lobby.message = message
            self.see_who_is_away()
        elif kind == "closing":
            raise TableClosed(str(message["reason"]))
        elif kind == "_skipped":
            self.console.print(skipped_line(message))
        elif kind in ("state", "error", "_line", "_eof"):
            return message
        return None

    def shadow(self, message: dict[str, Any]) -> Game:
        """The game a state from the table shows (a stand-in: see :func:`shadow_game`).

        A state that does not add up, or whose events do not, ends the join in one line
        (:class:`TableStateError`): the table is not honest, or not kalooki's, and no screen drawn from
        it could be trusted.
        """
        game: Game = shadow_game(message["view"], self.variant)
        if not 0 <= self.seat < len(game.players):
            raise TableConnectionError(
                f"the table seated you at seat {self.seat + 1}, which its game does not have"
            )
        problem = state_problem(message, self.seat)
        if problem is not None:
            raise TableStateError(problem)
        # The narration, the hand's end and the log read the events as the engine's: they are checked here.
        problem = events_problem(message["events"], message["view"], self.variant)
        if problem is not None:
            raise TableEventError(problem)
        return game

    def take_state(self, message: dict[str, Any]) -> None:
        self.game = self.shadow(message)
        self.stand_ins = dict(message.get("stand_ins", {}))
        self.see_who_is_away()
        self.ready.take(message, hand_over=self.game.phase == "hand_over")
        events = events_from_json(message["events"])
        self.narrate(events)
        taken = message.get("taken_back")
        players = self.game.players
        if isinstance(taken, int) and taken != self.seat and 0 <= taken < len(players) and not self.skipping:
            # The melds were told as laid; no event takes them back (the one who took them back says so).
            name = players[taken]  # as written, as narrated, though it opens the sentence
            self.say(f"{name} takes back this turn's melds: the table is as it was after the draw.")
        if not self.skipping:
            self.after_events(events)
            if any(isinstance(event, DealEvent) for event in events) and self.game.current != self.seat:
                # A new hand another player starts: its cards are seen now, not at this seat's turn.
                self.show()
            self.tell_whose_turn()
        if self.game.phase == "draw" and self.game.current == self.seat:
            self.drawn = None
        if self.game.phase == "play" and self.game.current == self.seat and self.drawn is None:
            self.mark_drawn(self.game.turn.drawn_card)  # once, at the draw: see InteractiveGame.show

    def show(self) -> None:
        super().show()
        self.turn_told = (self.game.hand_number, self.game.turn_number)  # the screen names whose turn it is

    def tell_whose_turn(self) -> None:
        """Another person's turn has begun: name them, as the table's screen does (they may take a while,
        and the last line would otherwise tell the turn before). A bot's turn is over in a moment."""
        game = self.game
        turn = (game.hand_number, game.turn_number)
        if game.phase not in ("draw", "play") or game.current == self.seat or turn == self.turn_told:
            return
        self.turn_told = turn
        if game.current not in self.lobby.bot_seats() and str(game.current) not in self.stand_ins:
            self.console.print(*render.turn_status(game, self.seating))

    def see_who_is_away(self) -> None:
        """The players away, from the lobby's seats and the state's stand-ins: the screen says that a bot
        plays for them (or that the table waits for them), not that they are playing. A player the host
        removed is a bot's seat from then on, and named so."""
        away = self.lobby.away()
        away.update({int(seat): str(bot) for seat, bot in self.stand_ins.items()})
        bots = {seat: kind for seat, kind in self.lobby.bot_seats().items() if seat != self.seat}
        self.seating = replace(self.seating, bots=bots, away=away)

    def narrate(self, events: Sequence[Event]) -> None:
        if self.skipping:
            return
        # Another player's draw from the stock comes without its card: a typed draw with no card.
        super().narrate(events)

    def wait_reply(self) -> dict[str, Any]:
        while True:
            reply = self.handle(self.next_message())
            if reply is not None and reply["type"] in ("_line", "_eof"):
                self.typed.append(reply)  # typed ahead: read at the next prompt
            elif reply is not None:
                return reply

    # ------------------------------------------------------------ the loop

    def run(self) -> int:
        try:
            return super().run()
        except TableClosed as closed:
            # A removal the host's error already told in its own words ('✗ the host removed you from the
            # table: a bot plays your seat ...') is not told again in fewer.
            if not (closed.removed and self.removed):
                self.say(closed.sentence(), style="bold")
            self.removed = closed.removed
            if self.rejoin_command and not closed.removed:
                # A closed table comes back only when its host opens it again (host --resume).
                again = (
                    "Rejoin your seat with:"
                    if closed.lost
                    else "If the host opens the table again, rejoin with:"
                )
                self.say_then(again, self.rejoin_command)
            return EXIT_LOST

    def introduce(self) -> None:
        game = self.game
        others = ", ".join(self.seating.label(seat) for seat in range(len(game.players)) if seat != self.seat)
        self.console.print(Rule(render.glyphs(f"Kalooki · {game.variant.name}", self.letters), style="cyan"))
        self.say(f"You sit at seat {self.seat + 1} with {others}.")
        # The host's quit closes the table for everyone: told "quit to leave", a host stepping away closed it.
        quitting = "quit to close the table (the game stays saved)" if self.is_host else "quit to leave"
        self.say(
            f"Type help for the commands, hint for a suggestion, say TEXT to talk, {quitting}.", style="dim"
        )
        if self.rejoin_command:
            # A window closed or a machine that stopped says nothing after: the way back is said while it can.
            self.say_then("If you drop out, your seat comes back with:", self.rejoin_command, style="dim")
        # Only what has a line of its own: back after a new hand's deal alone, a heading would head nothing.
        told = table_lines(self.pending_events, self.game, self.seating, letters=self.letters)
        if told and not self.skipping:
            if self.lobby.came_back:  # the turns played meanwhile
                own = self.game.players[self.seat]
                played = any(getattr(event, "player", None) == own for event in self.pending_events)
                self.say(f"While you were away{' (a bot played your turns)' if played else ''}:", style="dim")
            for line in told:
                self.console.print(line)
        if self.game.phase in ("draw", "play") and self.game.current != self.seat:
            self.show()  # seated during another player's turn: the hand is seen before they finish
        if self.game.phase == "hand_over" and not self.pending_events:
            # Back between hands: the end-of-hand screen (who went out, Not Kalooki and why, the cards
            # left), rebuilt from the state as a resumed game and the browser page rebuild it.
            scoresheet.render_last_hand_end(self.console, self.game, self.shared_seating())
        self.say_waiting()  # ready already: whom the deal waits for

    def loop(self) -> None:
        while True:
            game = self.game
            if game.phase == "game_over":
                scoresheet.render_game_end(self.console, game, self.seating)
                return
            if game.phase == "hand_over" and game.eliminated[self.seat]:
                # The deal does not wait for a player who is out: no ready, no "Press Enter to deal".
                if not self.asked_to_watch:
                    self.asked_to_watch = True
                    self.ask_to_watch()
                    continue  # the next hand may have begun as the question waited
            elif game.phase == "hand_over" and not self.ready.said:
                self.between_hands()
                self.connection.send({"type": "ready"})
                self.ready.said = True
                self.ready.told = None
                if self.ready.waiting_for is None:
                    # A host that does not say whom the deal waits for.
                    self.say("Waiting for the others to be ready...", style="dim")
                self.say_waiting()
            elif game.phase in ("draw", "play") and game.current == self.seat:
                self.ready.said = False
                self.human_turn()
                continue
            message = self.typed.popleft() if self.typed else self.handle(self.next_message())
            if message is not None and message["type"] in ("_line", "_eof"):
                typed_while_waiting(self, message)
            elif message is not None and message["type"] == "state":
                self.take_state(message)
                if self.game.phase != "hand_over":
                    self.ready.said = False
                self.say_waiting()
            elif message is not None:
                self.error(str(message["message"]))

    def ask_to_watch(self) -> None:
        """Out of the game: watch the rest or skip to the result, asked once; the question is dropped when
        the next hand begins before it is answered (``skip`` still works then, as while watching)."""
        self.asking = True
        try:
            self.skipping = spectate.ask(self)
        except HandBegan:
            self.say(f"The next hand has begun without you. {WATCHING}", style="dim")
            return
        finally:
            self.asking = False
        self.say(SKIPPED if self.skipping else WATCHING, style="dim")

    def say_waiting(self) -> None:
        """Ready between hands: whom the deal still waits for, each time that changes."""
        if self.skipping or self.game.phase != "hand_over":
            return
        players = self.game.players
        if not (others := self.ready.to_tell(len(players))):
            return  # no one else (the deal comes), or the seats named last time
        names = join_and([Text(players[seat]) for seat in others])
        self.say(f"Waiting for {names} to be ready...", style="dim")

    def command(self, line: str, *, in_turn: bool) -> bool:
        word = line.split()[0].lower()
        if word == "say":
            text = line.strip()[len(line.split()[0]) :].strip()
            if not text:
                self.error("say what? (say TEXT sends a line to the table)")
            else:
                self.console.print(say_to_table(self.connection, text))
            return True
        if self.game.eliminated[self.seat] and (spectate.wants_to_skip(word) or word in ("watch", "w")):
            if spectate.wants_to_skip(word) and not self.skipping:
                self.skipping = True
                self.say(SKIPPED, style="dim")
            elif not self.skipping:
                self.say(WATCHING, style="dim")
            else:
                self.error("you skipped to the result: it comes when the game is over")
            return True
        if self.act_on_seat is not None and (command := seat_command(line)) is not None:
            if command[1]:
                self.say(self.act_on_seat(*command), style="dim")
            else:
                self.error(WHOM[command[0]])
            return True
        return super().command(line, in_turn=in_turn)

    def not_written_as_move(self, line: str) -> bool:
        """Whether ``line`` is no move as written, said so in kalooki play's words: checked here, at any
        turn, as the host does."""
        verb = line.split()[0].lower()
        if verb not in MOVE_VERBS:
            self.not_a_command(line)  # as typed, marks and all
            return True
        try:
            parse_move(without_drawn_marks(line))
        except MoveSyntaxError as error:
            self.error(str(error))
            return True
        return False

    def move(self, line: str) -> bool:
        line = draw_once_drawn(line, self.game.phase, self.game.variant)
        if self.not_written_as_move(line):
            return False
        line = without_drawn_marks(line)
        self.connection.send({"type": "move", "move": line.strip()[:400]})
        reply = self.wait_reply()
        if reply["type"] == "error":
            message = str(reply["message"])
            if reply.get("code") == "illegal_move":  # the game's refusal: its cards as the table writes them
                message = table_sentence(message, self.game.variant, self.letters)
            self.error(message)
            return False
        self.take_state(reply)
        return True

    def undo(self) -> None:
        self.connection.send({"type": "undo"})
        reply = self.wait_reply()
        if reply["type"] == "error":
            self.error(str(reply["message"]))
            return
        self.take_state(reply)
        self.say(TAKEN_BACK)
        self.show()

    def help_commands(self, in_turn: bool) -> tuple[tuple[str, str], ...]:
        # At a table a move typed in another's turn waits for yours: every command is worth listing.
        return table_commands(host=self.is_host)

    def save_command(self, argument: str) -> None:
        if self.saved_to is None:
            self.error("the host saves the game after every move")
            return
        # The host's own seat: the one at the keyboard of the table that saves, asking where it goes.
        shown = escape_controls(str(self.saved_to))
        failure = self.table_failure()
        if failure is not None:
            self.error(
                f"the table could not be saved to {shown} ({escape_controls(failure)}); the game goes on"
            )
            return
        self.error(f"the table is saved after every move to {shown}; a hosted table's save stays where it is")

    def save(self) -> bool:
        return True

    def table_failure(self) -> str | None:
        """For the host's own seat: why the table's last save failed; None where it worked, or elsewhere."""
        return self.table_save_failure() if self.table_save_failure is not None else None

    def stopped(self, why: str) -> None:
        if self.close_table is not None:
            # Were this seat to leave first, the others would hear it drop out, then the table close.
            self.close_table()
        self.connection.close()
        if self.resume_command:
            failure = self.table_failure()
            self.say(closed_with_game(why, self.saved_to, failure))
            if failure is None:  # else no save to reopen: the table is gone with this process
                self.say_then("Reopen it with:", self.resume_command)
            return
        self.say(
            f"{why}: you left the table. It waits for you a while, then a bot plays your seat until you are "
            "back."
        )
        if self.rejoin_command:
            self.say_then("Rejoin with:", self.rejoin_command)


# LeftLobby and TableClosed are the lobby's: importable from here too, as they were.
__all__ = ["LeftLobby", "RemoteGame", "TableClosed", "read_keyboard"]
