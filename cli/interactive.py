"""The interactive game: a person against bots, one prompt at a time.

:class:`InteractiveGame` owns the loop. Its input is a ``read_line(prompt) -> str``
callable (``Console.input`` at a terminal, :func:`scripted_input` in tests) that raises
``EOFError`` at the end of input and ``KeyboardInterrupt`` on Ctrl-C; its output is a
rich :class:`~rich.console.Console`. Nothing here touches ``sys.stdin`` or ``sys.stdout``
directly, so tests drive whole games with scripted keystrokes and read the screens.

The game is saved after every action and every bot turn (atomically), so stopping at
any moment, with ``quit``, Ctrl-C or the end of input, loses nothing. Ctrl-C exits with
status 130 (the shell's convention for an interrupt), ``quit`` and end of input with 0.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from difflib import get_close_matches
from functools import partial
from pathlib import Path

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from kalooki.bots import Bot, make_bot, names_for_bots
from kalooki.cards import Card, CardError, parse_card
from kalooki.driver import BotFaults, play_turn
from kalooki.engine import Event, Game, IllegalMoveError
from kalooki.errors import KalookiError
from kalooki.events import EliminatedEvent
from kalooki.moves import ALIASES, Discard, Draw, EndTurn, offered_commands, parse_move
from kalooki.savegame import Session, restore_rngs, seat_rng
from kalooki.text import clipped, escape_controls, escape_unseen
from kalooki.variant import Variant

from . import help_screen, render, scoresheet
from .autosave import Autosave
from .going_out import laid_since_draw
from .hints import Hint, meld_points, meld_preview, render_hint, suggest_turn, without_needless_end
from .narrate import table_lines
from .narrow import long_words_whole, print_then
from .prompt_commands import (
    COMMANDS,
    IN_TURN_WORDS,
    draw_once_drawn,
    pause_commands,
    pause_refusal,
    short_verbs_missed,
    topic_refusal,
    word_with_a_mark,
)
from .render import Seating
from .saves_commands import where_it_stands
from .shell_words import shell_join
from .stop_signals import EXIT_INTERRUPTED, stopped_by, stopped_status
from .table_notation import melds_run_together, table_sentence, without_drawn_marks
from .turn_log import TurnLogWriter, recorded_place

ReadLine = Callable[[str], str]
Pause = Callable[[float], None]

EXIT_OK = 0
EXIT_FAILURE = 1
LOOK_WORDS = ("table", "look", "l", "show")
"""The commands that draw the table again (as does an empty line)."""
TAKEN_BACK = "Taken back: your hand and the table are as they were after your draw."
"""What undo says done, at the terminal and at a hosted table's seat."""
BOT_PAUSE = 0.7
"""Seconds between bots' turns at a terminal, long enough to read a line (``--fast`` makes it 0)."""

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


def scripted_input(lines: Iterable[str], console: Console | None = None) -> ReadLine:
    """A ``read_line`` that answers with ``lines`` in turn, then raises ``EOFError``.

    With ``console``, the prompt and the answer are echoed there, so a test's transcript
    reads like the terminal would.
    """
    answers = iter(lines)

    def read_line(prompt: str) -> str:
        try:
            answer = next(answers)
        except StopIteration:
            raise EOFError from None
        if console is not None:
            console.print(Text(prompt + answer))
        return answer

    return read_line


def seat_names(human: str, count: int) -> list[str]:
    """The human in seat 0, then bots named bob, cid, ... (skipping the human's own name, in any case)."""
    return [human, *names_for_bots([human], count - 1)]


def new_game(
    variant: Variant,
    human: str,
    bots: Sequence[str],
    seed: int | None,
    variant_source: str = "classic",
) -> tuple[Game, Session]:
    """A new game with the human in the first seat and one bot of each named kind after."""
    players = seat_names(human, len(bots) + 1)
    game = Game(variant, players, seed=seed)
    session = Session(
        human_seat=0,
        bots=dict(enumerate(bots, start=1)),
        bot_rngs={seat: seat_rng(seed, seat).getstate() for seat in range(1, len(bots) + 1)},
        variant_source=variant_source,
    )
    return game, session


# ---------------------------------------------------------------- the loop


class Quit(Exception):
    """The player typed ``quit``."""


class InteractiveGame(Autosave):
    """One person against bots at the terminal, saved after every move."""

    BETWEEN_HANDS = ("score, save, rules, help, quit", "score, save, rules, help or quit")
    """The commands the prompt between hands names, and those its refusal of another line names."""
    resume_note: str | None = None
    """Said first in the welcome: why ``kalooki resume`` took a game that is not the latest. Part of the
    welcome, so that a hot-seat game's pass screen, which erases the screen, writes it again."""

    def __init__(
        self,
        game: Game,
        session: Session,
        *,
        console: Console,
        read_line: ReadLine,
        save_path: Path | None,
        write_save: Callable[[Path, str], None] | None = None,
        pause: Pause | None = None,
        log: TurnLogWriter | None = None,
        resumed: bool = False,
        replay_command: str | None = None,
        move_save: Callable[[Path, Path, str], None] | None = None,
    ) -> None:
        """``replay_command``: for a new game, the command line that deals it again (shown with the seed).

        ``move_save(old, new, text)``: makes ``new`` the game's one save when ``save FILE`` moves it
        (without it, the old file is left behind).
        """
        self.game = game
        self.session = session
        self.console = console
        self.read_line = read_line
        self.save_path = save_path
        self._write_save = write_save
        self._move_save = move_save
        self.pause = pause or (lambda seconds: None)
        self.log = log
        if log is not None:  # remembered by the save, so that kalooki resume goes on writing it
            session.log, session.log_left = recorded_place(log.path), ""
            session.log_unnamed = not session.log
        self.resumed = resumed
        self.replay_command = replay_command
        self.save_failure: str | None = None
        """Why the last save failed (None when it worked): said once, until a save works again."""
        self.human = session.human_seat
        self.rngs = restore_rngs(session.bot_rngs, sorted(session.bots))
        self.bots: dict[int, Bot] = {
            seat: make_bot(name, self.rngs[seat]) for seat, name in session.bots.items()
        }
        self.faults = BotFaults(tell=lambda fault: self.say(str(fault), style="bold"))
        """The bots that raised or chose what is no action: said on the game screen once each."""
        self.seating = Seating(tuple(game.players), self.human, dict(session.bots))
        self.letters = render.plain_cards(console)
        # Resumed or rejoined after a draw: the card drawn is marked as it was before.
        mid_turn = game.phase == "play" and game.current == self.human
        self.drawn: Card | None = None
        # Copies of the drawn card in the hand just after the draw: with two packs the hand may hold its
        # twin, and once one of them is laid the mark could point at either, so it goes (see show).
        self.drawn_held = 0
        self.mark_drawn(game.turn.drawn_card if mid_turn else None)
        self.laid = False
        """Whether the player on turn has melded, built or swapped since drawing (for the end of a hand)."""
        self.asked_to_watch = False

    # ------------------------------------------------------------ running

    def run(self) -> int:
        """Play until the game ends or the player stops; the exit status."""
        try:
            self.introduce()
            self.check_log()  # a log that could not even be started
            self.save()
            self.loop()
        except Quit:
            self.save()
            self.stopped("Stopped")
            return self.stopped_status()
        except EOFError:
            self.stopped("\nEnd of input")
            return self.stopped_status()
        except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM or SIGHUP (stops_as_ctrl_c)
            # The last save was made after the last complete action: nothing to write now, and
            # writing mid-action could capture a half-played bot turn.
            self.stopped("\n" + stopped_by(stop))
            return stopped_status(stop)
        return EXIT_OK

    def loop(self) -> None:
        game = self.game
        while True:
            if game.phase == "game_over":
                scoresheet.render_game_end(self.console, game, self.shared_seating())
                if self.save() and self.save_path is not None:
                    self.say_then("The finished game stays in", str(self.save_path), style="dim")
                return
            if game.phase == "hand_over":
                if self.out_of_the_game():
                    continue
                self.between_hands()
                events = game.next_hand()
                self.record(events)
                self.save()
                self.announce_hand()
                continue
            if game.current == self.human:
                self.human_turn()
            else:
                self.bot_turn()

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

    def out_of_the_game(self) -> bool:
        """Once the player is eliminated, ask (once) whether to watch; True when the rest was skipped."""
        if not self.game.eliminated[self.human] or self.asked_to_watch:
            return False
        from . import spectate

        self.asked_to_watch = True
        if not spectate.ask(self):
            return False
        spectate.play_to_the_end(self)
        return True

    def between_hands(self) -> None:
        """Let the player read the hand's result before the next deal."""
        offered, refused = self.BETWEEN_HANDS
        while True:
            line = self.read_line(f"Press Enter to deal hand {self.game.hand_number + 1} (or {offered}): ")
            word = line.strip().lower()
            if not word:
                return
            if not self.command(line, in_turn=False):
                self.refuse_at_pause(line, f"press Enter to deal the next hand, or type {refused}")

    # ------------------------------------------------------------ the human's turn

    def human_turn(self) -> None:
        self.show()
        while self.game.phase in ("draw", "play") and self.game.current == self.human:
            prompt = "draw> " if self.game.phase == "draw" else "play> "
            line = self.read_line(prompt)
            if not line.strip():
                self.show()  # Enter on an empty line draws the table again
                continue
            if self.command(line, in_turn=True):
                continue
            if self.move(line) and self.game.phase in ("draw", "play") and self.game.current == self.human:
                self.show()

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

    def move(self, line: str) -> bool:
        """Play a move typed in the move language; False (and one line saying why) if it is not legal."""
        verb = line.split()[0].lower()
        if verb not in MOVE_VERBS:
            self.not_a_command(line)  # as typed, marks and all
            return False
        line = without_drawn_marks(line)
        try:
            action = parse_move(draw_once_drawn(line, self.game.phase))
            events = self.game.apply(action, self.human)
        except KalookiError as error:
            message = str(error)
            if isinstance(error, IllegalMoveError):  # a refusal of the game, not of how the move is written
                message = table_sentence(error.to_player, self.game.variant, self.letters)
                message += melds_run_together(action, error.to_player, self.game, self.letters)
            self.error(message)
            return False
        if isinstance(action, Draw):
            self.mark_drawn(self.game.turn.drawn_card)
            if self.log is not None:
                self.log.write(self.game, events)
        else:
            if isinstance(action, Discard | EndTurn):
                self.drawn = None
            if self.log is not None:
                self.log.hold(self.game, events)
        self.check_log()
        self.narrate(events)
        self.save()
        self.after_events(events)
        return True

    def undo(self) -> None:
        try:
            self.game.undo_turn()
        except IllegalMoveError as error:
            self.error(str(error))
            return
        self.laid = False
        if self.log is not None:
            self.log.undo()
        self.save()
        self.say(TAKEN_BACK)
        self.show()

    def mark_drawn(self, card: Card | None) -> None:
        """Mark ``card`` in the hand as the one just drawn (None: no mark)."""
        self.drawn = card
        self.drawn_held = self.game.hands[self.human].count(card) if card is not None else 0

    def show(self) -> None:
        preview = meld_preview(self.game, self.human) if self.game.current == self.human else None
        drawn = self.drawn
        if drawn is not None and self.game.hands[self.human].count(drawn) < self.drawn_held:
            drawn = None  # the drawn card, or its twin, was laid: the one left may be either
        render.render_screen(self.console, self.game, self.seating, preview=preview, drawn=drawn)

    def show_hint(self) -> None:
        render_hint(self.console, self.game, self.human, self.letters)

    def show_rules(self, in_turn: bool) -> None:
        # In one's turn, where it stands: a bare prompt under the rulebook's last section said nothing.
        status = render.turn_status(self.game, self.seating, letters=self.letters) if in_turn else []
        help_screen.render_rules(self.console, self.game.variant, status)

    # ------------------------------------------------------------ the bots' turns

    def bot_turn(self) -> None:
        seat = self.game.current
        events = play_turn(self.game, self.bots[seat], self.faults)
        self.record(events)
        self.narrate(events)
        self.save()
        self.after_events(events)
        self.pause(BOT_PAUSE)

    # ------------------------------------------------------------ shared

    def after_events(self, events: Sequence[Event]) -> None:
        self.laid = laid_since_draw(events, self.laid)
        end = scoresheet.hand_end_event(events)
        if end is not None:
            self.drawn = None
            out = [event.player for event in events if isinstance(event, EliminatedEvent)]
            scoresheet.render_hand_end(self.console, self.game, self.shared_seating(), end, out, self.laid)

    def shared_seating(self) -> Seating:
        """How the screens everyone at this terminal reads name the players (a hand's end, the totals)."""
        return self.seating

    def narrate(self, events: Sequence[Event]) -> None:
        for line in table_lines(events, self.game, self.seating, letters=self.letters):
            self.console.print(line)

    def record(self, events: Sequence[Event]) -> None:
        if self.log is not None:
            self.log.write(self.game, events)
        self.check_log()

    def flush_log(self) -> None:
        if self.log is not None:
            self.log.flush()
        self.check_log()

    def check_log(self) -> None:
        """A log that could not be written is said once, and the game goes on without it.

        The save records it as a log the game went on without (as ``--no-log`` does), so that a
        resume neither looks for it nor refuses it as another game's.
        """
        if self.log is None or self.log.failure is None:
            return
        self.error(f"{self.log.failure}; the game goes on, no longer logged")
        self.session.log_left = self.session.log or self.session.log_left
        self.session.log, self.session.log_unnamed = "", False
        self.log = None

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


__all__ = [
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "TAKEN_BACK",
    "Hint",
    "InteractiveGame",
    "TurnLogWriter",
    "meld_points",
    "meld_preview",
    "new_game",
    "scripted_input",
    "seat_names",
    "suggest_turn",
    "without_needless_end",
]
