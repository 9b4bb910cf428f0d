"""The play prompt's commands that are not moves (help, rules, score, hint, undo, save, quit), the pause
between hands that takes some of them, and the refusal of a line that is none of them.

Mixed into :class:`kalooki_cli.interactive.InteractiveGame`, which owns the game, the moves and the screen.
"""

from __future__ import annotations

from collections.abc import Callable
from difflib import get_close_matches
from functools import partial
from typing import TYPE_CHECKING

from rich.console import Console

from kalooki.cards import CardError, parse_card
from kalooki.engine import Game
from kalooki.moves import ALIASES, offered_commands
from kalooki.text import clipped

from . import help_screen, render, scoresheet
from .hints import render_hint
from .prompt_commands import (
    COMMANDS,
    IN_TURN_WORDS,
    pause_commands,
    pause_refusal,
    short_verbs_missed,
    topic_refusal,
    word_with_a_mark,
)
from .render import Seating
from .table_notation import without_drawn_marks

ReadLine = Callable[[str], str]

LOOK_WORDS = ("table", "look", "l", "show")
"""The commands that draw the table again (as does an empty line)."""

LONG_VERBS = ("draw", "meld", "build", "swap", "discard", "end")
"""The move language's verbs in full (``ALIASES`` holds their short forms)."""
MOVE_VERBS = frozenset({*LONG_VERBS, *ALIASES})
TURN_COMMANDS = IN_TURN_WORDS - MOVE_VERBS
"""The commands, not moves, that work only in one's own turn (hint, undo, look): refused elsewhere by name,
never as words there are none of."""
TYPED_WORDS = (*LONG_VERBS, "help", "quit", "score", "rules", "hint", "undo")
"""The move language's words and the commands, written out: a near miss is told which it missed."""


def verb_run_together(word: str) -> list[str]:
    """``d7C`` as ``d 7C``, ``b2`` as ``b 2``: a move's verb typed with no space before its card or meld
    number. Asked first: ``discard10H`` is near enough ``discard`` for a near miss, which drops the card."""
    for verb in ("discard", "meld", "build", "swap", "d", "m", "b", "s"):
        rest = word[len(verb) :]
        if not word.lower().startswith(verb) or not rest:
            continue
        if verb[0] in "bs":
            if rest.isdigit():
                return [f"{verb} {rest}"]
            continue
        try:
            parse_card(without_drawn_marks(rest))
        except CardError:
            continue
        return [f"{verb} {rest}"]
    return []


class Quit(Exception):
    """The player typed ``quit``."""


class PromptCommands:
    """The commands beside the moves, at the play prompt and at the pauses between turns and hands."""

    BETWEEN_HANDS = ("score, save, rules, help, quit", "score, save, rules, help or quit")
    """The commands the prompt between hands names, and those its refusal of another line names."""
    NEXT_HAND = ("Press Enter to deal hand {number}", "press Enter to deal the next hand")
    """What Enter does between hands, in the prompt (with the next hand's number) and in its refusals."""

    game: Game
    console: Console
    human: int
    letters: bool
    seating: Seating
    read_line: ReadLine

    if TYPE_CHECKING:  # provided by the game at the terminal this is mixed into

        def save_command(self, argument: str) -> None: ...

        def undo(self) -> None: ...

        def show(self) -> None: ...

        def error(self, message: str) -> None: ...

        def shared_seating(self) -> Seating: ...

    def between_hands(self) -> None:
        """Let the player read the hand's result before the next deal."""
        offered, refused = self.BETWEEN_HANDS
        enter, next_hand = self.NEXT_HAND
        instead = f"{next_hand}, or type {refused}"
        while True:
            line = self.read_line(f"{enter.format(number=self.game.hand_number + 1)} (or {offered}): ")
            word = line.strip().lower()
            if not word:
                return
            if self.command(line, in_turn=False):
                continue
            if word.split()[0] in MOVE_VERBS:
                # A move read only "press Enter ...", as though mistyped: kalooki join's help here lists the
                # moves, and a player who typed one did not know why it was refused, or when it would be.
                self.error(f"moves wait for the deal: {instead}")
            else:
                self.refuse_at_pause(line, instead)

    def command(self, line: str, *, in_turn: bool) -> bool:
        """Handle a command that is not a move; False when ``line`` is not one."""
        words = line.split()
        word = words[0].lower()
        argument = line.strip()[len(words[0]) :].strip()
        if not in_turn and word in IN_TURN_WORDS:
            return False  # a pause between turns or hands refuses it: its help leaves it out
        if word == "save":
            self.save_command(argument)
            return True
        if word in ("help", "?", "h"):  # help meld: that command's rows
            self.show_help(self.help_commands(in_turn or bool(argument)), argument)
            return True
        run: Callable[[], None]
        if word in ("quit", "exit", "q"):
            run = self.quit
        elif word in ("score", "scores", "totals"):
            run = self.show_totals
        elif word in ("rules", "rulebook"):
            run = partial(self.show_rules, in_turn)
        elif word == "hint":
            run = self.show_hint
        elif word in ("undo", "u"):
            run = self.undo
        elif word in LOOK_WORDS:
            run = self.show
        else:
            return False
        if argument:
            self.error(f"{word} takes no arguments")
        else:
            run()
        return True

    def refuse_at_pause(self, line: str, instead: str) -> None:
        """Refuse ``line`` at a pause (between hands, a pass screen), saying to do ``instead``: a command
        that works only in one's turn (hint, undo) is said to, so that it does not read as a mistyped word."""
        self.error(pause_refusal(line, instead, TURN_COMMANDS))

    def quit(self) -> None:
        raise Quit

    def help_commands(self, in_turn: bool) -> tuple[tuple[str, str], ...]:
        """The commands ``help`` lists: at a pause (a pass screen, between hands) those that work there."""
        return COMMANDS if in_turn else pause_commands()

    def show_help(self, commands: tuple[tuple[str, str], ...], topic: str = "") -> None:
        refusal = topic_refusal(self.game.variant, commands, topic) if topic else None
        if refusal is not None:
            self.error(refusal)
            return
        help_screen.render_help(self.console, self.game.variant, commands, topic=topic)

    def show_totals(self) -> None:
        scoresheet.render_totals(self.console, self.game, self.shared_seating())

    def not_a_command(self, line: str) -> None:
        typed = line.strip()
        word = typed.split()[0]
        # A near miss of a whole word (dra, mled, discrad): the line as meant, the rest as typed.
        close = verb_run_together(word) or word_with_a_mark(word, {*MOVE_VERBS, *TYPED_WORDS})
        if not close and len(word) >= 3:
            close = get_close_matches(word.lower(), TYPED_WORDS, n=1, cutoff=0.75)
        if not close:
            close = short_verbs_missed(word)
        # The word itself is no suggestion: "'hint' is not a command (did you mean 'hint'?)" says nothing.
        close = [verb for verb in close if verb != word.lower()]
        meant = " or ".join(f"'{clipped(verb + typed[len(word) :])}'" for verb in close)
        meant = f" (did you mean {meant}?)" if meant else ""
        keys = " ".join(command.key for command in offered_commands(self.game.variant))
        self.error(f"'{clipped(typed)}' is not a command{meant}: type help for the list (moves: {keys})")

    def show_hint(self) -> None:
        render_hint(self.console, self.game, self.human, self.letters)

    def show_rules(self, in_turn: bool) -> None:
        # In one's turn, where it stands: a bare prompt under the rulebook's last section said nothing.
        status = render.turn_status(self.game, self.seating, letters=self.letters) if in_turn else []
        help_screen.render_rules(self.console, self.game.variant, status)
