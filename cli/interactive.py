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

import json
import random
import shlex
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from kalooki import solver
from kalooki.bots import Bot, GreedyBot, make_bot
from kalooki.cards import Card
from kalooki.driver import ask_bot, play_turn
from kalooki.engine import Event, Game, IllegalMoveError
from kalooki.errors import KalookiError
from kalooki.melds import MeldError, build, make_meld
from kalooki.moves import ALIASES, Action, Build, Discard, Draw, Meld, parse_move
from kalooki.savegame import Session, dump_save, restore_rngs, rng_states, seat_rng
from kalooki.text import escape_controls
from kalooki.variant import Variant

from . import render
from .going_out import laid_since_draw
from .render import MeldPreview, Seating
from .table_notation import move_text, table_sentence

ReadLine = Callable[[str], str]
Pause = Callable[[float], None]

EXIT_OK = 0
EXIT_INTERRUPTED = 130
BOT_PAUSE = 0.7
"""Seconds between bots' turns at a terminal, long enough to read a line (``--fast`` makes it 0)."""

BOT_NAMES = ("bob", "cid", "dee", "eve", "fay", "gus", "hal", "ivy")
MOVE_VERBS = frozenset({"draw", "meld", "build", "swap", "discard", *ALIASES})
INDENT = "  "


def in_second_person(message: str, name: str) -> str:
    """The engine names the player ("ann must draw first"); at the keyboard that player is "you"."""
    for said, meant in ((f"{name} has ", "you have "), (f"{name} must ", "you must ")):
        if message.startswith(said):
            return meant + message[len(said) :]
    return message


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
    """The human in seat 0, then bots named bob, cid, ... (skipping the human's own name)."""
    others = [name for name in BOT_NAMES if name != human]
    extra = [f"bot{index}" for index in range(1, count + 1) if f"bot{index}" != human]
    return [human, *(others + extra)[: count - 1]]


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


# ---------------------------------------------------------------- suggestions


def meld_preview(game: Game, seat: int) -> MeldPreview | None:
    """The melds and builds the solver would lay from this hand now (None when nothing fits).

    Before opening, this is the best opening; when the hand cannot open, the most points
    it could lay all the same, so the player sees how far off the threshold they are.
    """
    variant = game.variant
    hand = game.hands[seat]
    keep = solver.keep_for(variant) if game.phase == "play" else 0
    threshold = variant.opening_threshold
    try:
        if game.opened[seat]:
            plan = solver.solve(hand, variant, table=game.table, opened=True, keep=keep)
            opens, needed = True, 0
        else:
            opening = solver.best_opening(hand, variant, table=game.table, keep=keep)
            opens, needed = opening is not None, threshold
            plan = opening or solver.solve(hand, variant, opened=True, keep=keep, objective="points")
    except solver.SolverError:
        return None
    if plan.empty:
        return None
    return MeldPreview(melds=plan.melds, builds=plan.builds, points=plan.points, opens=opens, needed=needed)


@dataclass(frozen=True, slots=True)
class Hint:
    """What the greedy bot would do with the human's cards for the rest of this turn."""

    actions: tuple[Action, ...]
    points: int
    """Points laid on the table by ``actions`` (jokers as the card they stand for)."""
    opening: bool
    """Whether ``actions`` open the player (first melds reaching the threshold)."""
    short: MeldPreview | None
    """When the player has not opened and cannot: the most they could lay, to compare with the threshold."""


def suggest_turn(game: Game) -> Hint:
    """Play the current player's turn on a copy of the game with the greedy bot's logic."""
    copy = Game.from_json(game.to_json())
    seat = copy.current
    bot = GreedyBot(random.Random(0))
    if copy.phase == "draw":
        return Hint(actions=(ask_bot(bot, copy),), points=0, opening=False, short=None)
    before = sum(meld.worth(copy.variant) for meld in copy.table)
    opened_before = copy.opened[seat]
    actions: list[Action] = []
    hand, turn = copy.hand_number, copy.turn_number
    while copy.phase == "play" and (copy.hand_number, copy.turn_number) == (hand, turn) and len(actions) < 60:
        action = without_needless_end(ask_bot(bot, copy), copy)
        try:
            copy.apply(action)
        except IllegalMoveError:
            break
        actions.append(action)
    laid = sum(meld.worth(copy.variant) for meld in copy.table) - before
    opening = not opened_before and copy.opened[seat]
    short = None
    if not opened_before and not opening:
        short = meld_preview(game, seat)
    return Hint(actions=tuple(actions), points=laid, opening=opening, short=short)


def without_needless_end(action: Action, game: Game) -> Action:
    """A build as a person would type it: ``low``/``high`` only when the cards would fit either end.

    Without an end the engine tries the high end first, then the low end; the end is kept only
    when leaving it out would lay the cards elsewhere (a joker that fits at both ends).
    """
    if not isinstance(action, Build) or action.end is None or not 1 <= action.meld <= len(game.table):
        return action
    meld = game.table[action.meld - 1]
    try:
        chosen = build(meld, action.cards, game.variant, action.end)
        default = build(meld, action.cards, game.variant)
    except MeldError:
        return action
    if (default.cards, default.rank) != (chosen.cards, chosen.rank):
        return action
    return replace(action, end=None)


def meld_points(action: Meld, variant: Variant) -> int:
    return sum(make_meld(group, variant).worth(variant) for group in action.groups)


# ---------------------------------------------------------------- the game log


class TurnLogWriter:
    """Writes ``--log`` records as JSON lines, holding back a turn's melds until they can no longer be undone.

    Records are made as a script's log makes them: one :meth:`GameRecorder.record` call for
    each call into the engine (a bot's whole turn counts as one), so the last event of each
    carries the digest of the state it led to, and lines are compact JSON. A replay must see
    only what stood, so the records of melds, builds and swaps wait in ``pending`` until the
    turn's discard (or the end of the hand); ``undo`` drops them.
    """

    def __init__(self, game: Game, path: Path) -> None:
        from kalooki.log import GameRecorder

        self.path = path
        self.recorder = GameRecorder(game)
        self.pending: list[dict[str, Any]] = []
        path.parent.mkdir(parents=True, exist_ok=True)
        self._write(self.recorder.records, mode="w")

    def _write(self, records: Sequence[dict[str, Any]], mode: str = "a") -> None:
        with self.path.open(mode, encoding="utf-8") as stream:
            for record in records:
                stream.write(self.line(record))

    @staticmethod
    def line(record: dict[str, Any]) -> str:
        return json.dumps(record, separators=(",", ":")) + "\n"

    def hold(self, game: Game, events: Sequence[Event]) -> None:
        """A human's action, recorded now (with this state's digest), written once it cannot be undone."""
        self.pending.extend(self.recorder.record(game, events))
        if game.phase != "play":
            self.flush()

    def write(self, game: Game, events: Sequence[Event]) -> None:
        """Events that stand at once: a draw, a bot's whole turn, a deal."""
        self.flush()
        self._write(self.recorder.record(game, events))

    def undo(self) -> None:
        if self.pending:
            del self.recorder.records[-len(self.pending) :]
            self.pending = []

    def flush(self) -> None:
        if self.pending:
            self._write(self.pending)
            self.pending = []


# ---------------------------------------------------------------- the loop


class Quit(Exception):
    """The player typed ``quit``."""


class InteractiveGame:
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
        self.resumed = resumed
        self.replay_command = replay_command
        self.save_failure: str | None = None
        """Why the last save failed (None when it worked): said once, until a save works again."""
        self.human = session.human_seat
        self.rngs = restore_rngs(session.bot_rngs, sorted(session.bots))
        self.bots: dict[int, Bot] = {
            seat: make_bot(name, self.rngs[seat]) for seat, name in session.bots.items()
        }
        self.seating = Seating(tuple(game.players), self.human, dict(session.bots))
        self.letters = render.plain_cards(console)
        self.drawn: Card | None = None
        self.laid = False
        """Whether the player on turn has melded, built or swapped since drawing (for the end of a hand)."""
        self.asked_to_watch = False

    # ------------------------------------------------------------ running

    def run(self) -> int:
        """Play until the game ends or the player stops; the exit status."""
        try:
            self.introduce()
            self.save()
            self.loop()
        except Quit:
            self.save()
            self.stopped("Stopped")
            return EXIT_OK
        except EOFError:
            self.stopped("\nEnd of input")
            return EXIT_OK
        except KeyboardInterrupt:
            # The last save was made after the last complete action: nothing to write now, and
            # writing mid-action could capture a half-played bot turn.
            self.stopped("\nInterrupted")
            return EXIT_INTERRUPTED
        return EXIT_OK

    def loop(self) -> None:
        game = self.game
        while True:
            if game.phase == "game_over":
                render.render_game_end(self.console, game, self.seating)
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
        game = self.game
        others = ", ".join(
            self.seating.label(seat) for seat in range(len(game.players)) if seat != self.human
        )
        self.console.print(Rule(render.glyphs(f"Kalooki · {game.variant.name}", self.letters), style="cyan"))
        if self.resumed:
            where = f"hand {game.hand_number}, turn {game.turn_number}"
            self.say(f"Resuming your game against {others} ({where}).")
        else:
            self.say(f"You against {others}.")
            if self.replay_command is not None:
                self.say_then(
                    f"Seed {game.seed}: deal the same cards again with",
                    self.replay_command,
                    style="dim",
                )
        if self.save_path is not None:
            self.say_then("The game is saved after every move to", str(self.save_path), style="dim")
        self.say("Type help for the commands, hint for a suggestion, quit to stop.", style="dim")
        if not self.resumed:
            self.announce_hand()

    def announce_hand(self) -> None:
        game = self.game
        first = self.seating.subject(game.players[game.first_seat])
        verb = "play" if first == "you" else "plays"
        self.console.print(Rule(f"Hand {game.hand_number}: {first} {verb} first", style="cyan"))

    def stopped(self, why: str) -> None:
        self.flush_log()
        if self.save_path is None:
            self.say(f"{why}.")
            return
        if self.save_failure is not None:
            self.say(f"{why}: the game could not be saved to {self.save_path} ({self.save_failure}).")
            return
        self.say_then(f"{why}: the game is saved in", str(self.save_path))
        command = f"kalooki resume {shlex.quote(str(self.save_path))}"
        if self.log is not None:
            command += f" --log {shlex.quote(str(self.log.path))}"
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
        while True:
            line = self.read_line(
                f"Press Enter to deal hand {self.game.hand_number + 1} (or score, save, quit): "
            )
            word = line.strip().lower()
            if not word:
                return
            if not self.command(line, in_turn=False):
                self.error("press Enter to deal the next hand, or type score, save, rules, help or quit")

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
        if word == "save":
            self.save_command(argument)
            return True
        run: Callable[[], None]
        if word in ("help", "?", "h"):
            run = self.show_help
        elif word in ("quit", "exit", "q"):
            run = self.quit
        elif word in ("score", "scores", "totals"):
            run = self.show_totals
        elif word in ("rules", "rulebook"):
            run = self.show_rules
        elif word == "hint" and in_turn:
            run = self.show_hint
        elif word in ("undo", "u") and in_turn:
            run = self.undo
        elif word in ("table", "look", "l", "show") and in_turn:
            run = self.show
        else:
            return False
        if argument:
            self.error(f"{word} takes no arguments")
        else:
            run()
        return True

    def quit(self) -> None:
        raise Quit

    def show_help(self) -> None:
        render.render_help(self.console, self.game.variant)

    def show_totals(self) -> None:
        render.render_totals(self.console, self.game, self.seating)

    def move(self, line: str) -> bool:
        """Play a move typed in the move language; False (and one line saying why) if it is not legal."""
        verb = line.split()[0].lower()
        if verb not in MOVE_VERBS:
            self.error(f"'{line.strip()}' is not a command: type help for the list (moves: ds dd m b s d)")
            return False
        try:
            action = parse_move(line)
            events = self.game.apply(action, self.human)
        except KalookiError as error:
            message = in_second_person(str(error), self.game.players[self.human])
            if isinstance(error, IllegalMoveError):  # a refusal of the game, not of how the move is written
                message = table_sentence(message, self.game.variant, self.letters)
            self.error(message)
            return False
        if isinstance(action, Draw):
            self.drawn = self.game.turn.drawn_card
            if self.log is not None:
                self.log.write(self.game, events)
        else:
            if isinstance(action, Discard):
                self.drawn = None
            if self.log is not None:
                self.log.hold(self.game, events)
        self.narrate(events)
        self.save()
        self.after_events(events)
        return True

    def undo(self) -> None:
        if not self.game.can_undo():
            self.error("there is nothing to take back: undo takes back this turn's melds, builds and swaps")
            return
        self.game.undo_turn()
        self.laid = False
        if self.log is not None:
            self.log.undo()
        self.save()
        self.say("Taken back: your hand and the table are as they were after your draw.")
        self.show()

    def show(self) -> None:
        preview = meld_preview(self.game, self.human) if self.game.current == self.human else None
        render.render_screen(self.console, self.game, self.seating, preview=preview, drawn=self.drawn)

    def show_hint(self) -> None:
        hint = suggest_turn(self.game)
        variant = self.game.variant
        self.console.print(Text("Hint (what the greedy bot would play):", style="bold"))
        for action in hint.actions:
            # The command alone on its line, never broken by rich, so it can be copied and typed back.
            command = Text(INDENT) + move_text(action, self.game, self.letters, style="bold cyan")
            self.console.print(command, soft_wrap=True)
            note = ""
            if isinstance(action, Meld) and not self.game.opened[self.human]:
                note = f"{meld_points(action, variant)} points"
            if isinstance(action, Draw) and action.source == "discard" and self.game.discard_pile:
                note = f"{render.card_label(self.game.discard_pile[-1], self.letters)} fits your hand"
            if note:
                self.console.print(Text(INDENT * 2 + note, style="dim"))
        lines: list[Text] = []
        if hint.points:
            summary = f"That lays {hint.points} points"
            if hint.opening:
                summary += f": enough to open ({variant.opening_threshold} needed)"
            lines.append(Text(summary + ".", style="green"))
        elif self.game.phase == "play" and not self.game.opened[self.human] and variant.opening_threshold:
            needed = variant.opening_threshold
            if hint.short is not None and hint.short.points:
                why = f"your best melds make {hint.short.points} of the {needed} points needed"
            else:
                why = f"no meld in your hand yet ({needed} points needed)"
            lines.append(Text(f"You cannot open yet: {why}.", style="yellow"))
        for line in lines:
            self.console.print(line)

    def show_rules(self) -> None:
        try:
            from kalooki.rulebook import render_rulebook
        except ImportError:  # the rulebook is optional: the key rules are always at hand
            render.render_help(self.console, self.game.variant)
            return
        from rich.markdown import Markdown  # only here: it is slow to import, and rules are rarely asked for

        self.console.print(Markdown(render_rulebook(self.game.variant)))

    def save_command(self, argument: str) -> None:
        """Save now; to a new file, the autosaves go there too, but only once it has been written."""
        path = Path(argument).expanduser() if argument else self.save_path
        if path is None or self._write_save is None:
            self.error("this game is not being saved: give a file, e.g. save mygame.kalooki-save.json")
            return
        try:
            if path != self.save_path and self.save_path is not None and self._move_save is not None:
                self._move_save(self.save_path, path, self.save_text())
            else:
                self.write_save(path)
        except (KalookiError, OSError) as error:
            still = ""
            if self.save_path is not None and path != self.save_path:
                still = f"; the game is still saved to {self.save_path}"
            self.error(f"{error}{still}")
            return
        moved = path != self.save_path
        self.save_path = path
        self.save_failure = None
        if moved:
            self.say_then("Saved; from now on the game is saved after every move to", str(path))
        else:
            self.say_then("Saved to", str(path))

    # ------------------------------------------------------------ the bots' turns

    def bot_turn(self) -> None:
        seat = self.game.current
        events = play_turn(self.game, self.bots[seat])
        self.record(events)
        self.narrate(events)
        self.save()
        self.after_events(events)
        self.pause(BOT_PAUSE)

    # ------------------------------------------------------------ shared

    def after_events(self, events: Sequence[Event]) -> None:
        self.laid = laid_since_draw(events, self.laid)
        end = render.hand_end_event(events)
        if end is not None:
            self.drawn = None
            out = [str(event["player"]) for event in events if event["type"] == "eliminated"]
            render.render_hand_end(self.console, self.game, self.seating, end, out, self.laid)

    def narrate(self, events: Sequence[Event]) -> None:
        for line in render.narrate(events, self.game, self.seating, letters=self.letters):
            self.console.print(line)

    def record(self, events: Sequence[Event]) -> None:
        if self.log is not None:
            self.log.write(self.game, events)

    def flush_log(self) -> None:
        if self.log is not None:
            self.log.flush()

    def save(self) -> bool:
        """Save after a move; False if that failed, which is said (once) but never stops the game."""
        if self.save_path is None or self._write_save is None:
            return True
        try:
            self.write_save(self.save_path)
        except (KalookiError, OSError) as error:
            reason = getattr(error, "reason", None) or getattr(error, "strerror", None) or str(error)
            if reason != self.save_failure:
                self.error(f"could not save to {self.save_path}: {reason}; the game goes on")
            self.save_failure = reason
            return False
        self.save_failure = None
        return True

    def write_save(self, path: Path) -> None:
        assert self._write_save is not None
        self._write_save(path, self.save_text())

    def save_text(self) -> str:
        self.session.bot_rngs = rng_states(self.rngs)
        self.session.saved_at = datetime.now(UTC).isoformat(timespec="seconds")
        return dump_save(self.game, self.session)

    def say(self, message: str, style: str = "") -> None:
        # Wrapped at word boundaries, like the bots' lines and the help.
        self.console.print(Text(message, style=style))

    def say_then(self, lead: str, tail: str, style: str = "") -> None:
        """``lead tail`` on one line if it fits; else ``tail`` (a path, a command) alone on the next.

        A path or a command is never broken by rich, so it can be copied whole.
        """
        tail = escape_controls(tail)
        if len(lead) + 1 + len(tail) <= self.console.width:
            self.say(f"{lead} {tail}", style)
            return
        self.say(lead, style)
        self.console.print(Text(INDENT + tail, style=style), soft_wrap=True)

    def error(self, message: str) -> None:
        # One logical line, whatever the message (a diagnostic of several lines is joined),
        # wrapped at word boundaries on a narrow terminal. It may quote what was typed: an escape
        # sequence typed (or pasted) at the prompt is shown spelled out, never sent back to the terminal.
        line = escape_controls(" ".join(message.split()))
        self.console.print(Text(render.glyphs("✗ ", self.letters) + line, style="bold red"))


__all__ = [
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "Hint",
    "InteractiveGame",
    "TurnLogWriter",
    "meld_preview",
    "new_game",
    "scripted_input",
    "seat_names",
    "suggest_turn",
]
