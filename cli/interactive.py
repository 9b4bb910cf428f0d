"""The interactive game: a person against bots, one prompt at a time.

:class:`InteractiveGame` owns the loop. Its input is a ``read_line(prompt) -> str``
callable (``Console.input`` at a terminal, :func:`scripted_input` in tests) that raises
``EOFError`` at the end of input and ``KeyboardInterrupt`` on Ctrl-C; its output is a
rich :class:`~rich.console.Console`. Nothing here touches ``sys.stdin`` or ``sys.stdout``
directly, so tests drive whole games with scripted keystrokes and read the screens.

The game is saved after every action and every bot turn (atomically), so stopping at
any moment, with ``quit``, Ctrl-C or the end of input, loses nothing. Ctrl-C exits with
status 130 (the shell's convention for an interrupt), ``quit`` and end of input with 0.

The loop, the moves and the screen are here; the commands beside the moves and the pause between hands
are :class:`~kalooki_cli.prompt_dispatch.PromptCommands`, the welcome and what a stop says
:class:`~kalooki_cli.game_voice.GameVoice`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from rich.console import Console
from rich.text import Text

from kalooki.bots import Bot, make_bot, names_for_bots
from kalooki.cards import Card
from kalooki.driver import BotFaults, play_turn
from kalooki.engine import Event, Game, IllegalMoveError
from kalooki.errors import KalookiError
from kalooki.events import EliminatedEvent
from kalooki.moves import Discard, Draw, EndTurn, parse_move
from kalooki.savegame import Session, restore_rngs, seat_rng
from kalooki.variant import Variant

from . import render, scoresheet
from .autosave import Autosave
from .game_voice import EXIT_OK, GameVoice
from .going_out import laid_since_draw
from .hints import Hint, meld_points, meld_preview, suggest_turn, without_needless_end
from .prompt_commands import draw_once_drawn
from .prompt_dispatch import (
    LOOK_WORDS,
    MOVE_VERBS,
    TURN_COMMANDS,
    TYPED_WORDS,
    PromptCommands,
    Quit,
    ReadLine,
    verb_run_together,
)
from .render import Seating
from .stop_signals import EXIT_INTERRUPTED, stopped_by, stopped_status
from .table_notation import melds_run_together, table_sentence, without_drawn_marks
from .turn_log import TurnLogWriter, recorded_place

Pause = Callable[[float], None]

TAKEN_BACK = "Taken back: your hand and the table are as they were after your draw."
"""What undo says done, at the terminal and at a hosted table's seat."""
BOT_PAUSE = 0.7
"""Seconds between bots' turns at a terminal, long enough to read a line (``--fast`` makes it 0)."""


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


class InteractiveGame(PromptCommands, GameVoice, Autosave):
    """One person against bots at the terminal, saved after every move."""

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

    def move(self, line: str) -> bool:
        """Play a move typed in the move language; False (and one line saying why) if it is not legal."""
        verb = line.split()[0].lower()
        if verb not in MOVE_VERBS:
            self.not_a_command(line)  # as typed, marks and all
            return False
        line = without_drawn_marks(line)
        try:
            action = parse_move(draw_once_drawn(line, self.game.phase, self.game.variant))
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


__all__ = [
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "LOOK_WORDS",
    "MOVE_VERBS",
    "TAKEN_BACK",
    "TURN_COMMANDS",
    "TYPED_WORDS",
    "Hint",
    "InteractiveGame",
    "Quit",
    "ReadLine",
    "TurnLogWriter",
    "meld_points",
    "meld_preview",
    "new_game",
    "scripted_input",
    "seat_names",
    "suggest_turn",
    "verb_run_together",
    "without_needless_end",
]
