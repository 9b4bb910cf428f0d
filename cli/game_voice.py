"""What the game at the terminal says that is not the table: the welcome, a hand's heading, how to go on
after a stop, and the one-line shape of every message and refusal (:meth:`GameVoice.say`, ``error``).

Mixed into :class:`kalooki_cli.interactive.InteractiveGame`, which owns the game and the console.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from kalooki.engine import Event, Game
from kalooki.savegame import Session
from kalooki.shell_words import shell_join
from kalooki.text import escape_controls, escape_unseen

from . import render, scoresheet
from .narrate import table_lines
from .narrow import long_words_whole, print_then
from .render import Seating
from .saves_commands import where_it_stands
from .turn_log import TurnLogWriter

EXIT_OK = 0
EXIT_FAILURE = 1
"""A game stopped that could not be saved exits 1, so that a script running it sees it failed."""


class GameVoice:
    """The game's words at the terminal, apart from the table's screen and the commands."""

    resume_note: str | None = None
    """Said first in the welcome: why ``kalooki resume`` took a game that is not the latest. Part of the
    welcome, so that a hot-seat game's pass screen, which erases the screen, writes it again."""

    game: Game
    session: Session
    console: Console
    seating: Seating
    human: int
    letters: bool
    resumed: bool
    replay_command: str | None
    save_path: Path | None
    save_failure: str | None
    log: TurnLogWriter | None

    if TYPE_CHECKING:  # provided by the game at the terminal this is mixed into

        def shared_seating(self) -> Seating: ...

        def flush_log(self) -> None: ...

    def introduce(self) -> None:
        self.welcome()
        if not self.resumed:
            self.announce_hand()
        elif self.game.phase == "hand_over":
            # Stopped at "Press Enter to deal": the result read then is shown again, or the
            # prompt would come with nothing to say how the hand went.
            scoresheet.render_last_hand_end(self.console, self.game, self.shared_seating())

    def welcome(self) -> None:
        """Who plays, the seed, where the game is saved, and the commands to know."""
        game = self.game
        if self.resume_note is not None:
            self.say(self.resume_note, style="bold")
        self.console.print(Rule(render.glyphs(f"Kalooki · {game.variant.name}", self.letters), style="cyan"))
        self.say(self.who_plays(), style=self.who_plays_style)
        if not self.resumed and self.replay_command is not None:
            self.say_then(
                f"Seed {game.seed}: deal the same cards again with",
                self.replay_command,
                style="dim",
            )
        if self.save_path is not None:
            self.say_then("The game is saved after every move to", str(self.save_path), style="dim")
        if self.resumed and self.log is not None:
            self.say_then("Its log goes on, as before, in", str(self.log.path), style="dim")
            if self.log.note:
                self.say(escape_controls(self.log.note), style="bold")
        self.say("Type help for the commands, hint for a suggestion, quit to stop.", style="dim")

    who_plays_style = ""

    def who_plays(self) -> str:
        """The welcome's first line: whom the player is up against (and where a resumed game stands)."""
        game = self.game
        others = ", ".join(
            self.seating.label(seat) for seat in range(len(game.players)) if seat != self.human
        )
        if self.resumed:
            return f"Resuming your game against {others} ({where_it_stands(game)})."
        return f"You against {others}."

    def announce_hand(self) -> None:
        game = self.game
        first = self.seating.subject(game.players[game.first_seat])
        verb = "play" if first == "you" else "plays"
        self.console.print(Rule(f"Hand {game.hand_number}: {first} {verb} first", style="cyan"))

    def stopped_status(self) -> int:
        """A game stopped that could not be saved is lost: 1, so a script running it sees it failed."""
        return EXIT_FAILURE if self.save_path is not None and self.save_failure is not None else EXIT_OK

    def stopped(self, why: str) -> None:
        self.flush_log()
        if self.save_path is None:
            self.say(f"{why}.")
            return
        if self.save_failure is not None:
            self.say(f"{why}: the game could not be saved to {self.save_path} ({self.save_failure}).")
            return
        self.say_then(f"{why}: the game is saved in", str(self.save_path))
        words = ["kalooki", "resume", str(self.save_path)]
        if self.log is not None and not self.session.log:
            # Only a log whose name the save could not hold is given: a save names its log whole, and the
            # resume goes on writing it from any folder, where `--log game.jsonl` as typed would not be found.
            words += [
                "--log",
                str(self.log.path.absolute() if self.save_path.is_absolute() else self.log.path),
            ]
        command = shell_join(words)
        self.say_then("Continue it with:", command)

    def narrate(self, events: Sequence[Event]) -> None:
        for line in table_lines(events, self.game, self.seating, letters=self.letters):
            self.console.print(line)

    def say(self, message: str, style: str = "") -> None:
        # Wrapped at word boundaries, like the bots' lines and the help; a word wider than the
        # console (a path in a deep folder) is kept whole, for the terminal to wrap and the user to copy.
        whole = long_words_whole(message, self.console.width)
        if whole is None:
            self.console.print(Text(message, style=style))
        else:
            self.console.print(Text(whole, style=style), soft_wrap=True)

    def say_then(self, lead: str, tail: str, style: str = "") -> None:
        """``lead tail`` on one line if it fits; else ``tail`` (a path, a command) alone on the next."""
        print_then(self.console, lead, tail, style)

    def error(self, message: str) -> None:
        # One logical line, whatever the message (a diagnostic of several lines is joined),
        # wrapped at word boundaries on a narrow terminal. It may quote what was typed: an escape
        # sequence typed (or pasted) at the prompt is shown spelled out, never sent back to the terminal;
        # so is a character that shows nothing, or 'd<zero-width space>s' would read as 'ds'.
        line = escape_unseen(" ".join(message.split()))
        self.say(render.glyphs("✗ ", self.letters) + line, "bold red")
