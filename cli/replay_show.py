"""``kalooki replay LOG --show``: a logged game told again as the table told it, hand by hand.

Each hand opens with who plays first, then every player's turn is told in one line, as the
bots' turns are at the table (a card drawn from the stock stays hidden), and it ends with the
hand's result screen: who went out, the cards left, the points and the totals. On a terminal
Enter shows the next hand (``q`` stops), asked only when the log has one; into a pipe the whole
game is written at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console
from rich.rule import Rule

from kalooki.engine import Event, Game
from kalooki.events import DealEvent, DiscardEvent, EliminatedEvent, EndTurnEvent

from . import render, scoresheet
from .going_out import laid_since_draw
from .narrate import table_lines
from .render import Seating


class Watching(Seating):
    """Watching a game back nobody at the table is "you": every player is named."""

    def name(self, seat: int) -> str:
        return self.players[seat]

    def subject(self, name: str) -> str:
        return name

    def sees_draws(self, name: str) -> bool:
        return False  # the log holds every card, but the replay shows what the table showed everyone


class StopShowing(Exception):
    """The watcher typed q."""


class HandByHand:
    """The ``on_events`` of :func:`kalooki.log.replay` that draws what the table showed."""

    def __init__(self, console: Console, wait: Callable[[str], str] | None) -> None:
        self.console = console
        self.wait = wait
        self.letters = render.plain_cards(console)
        self.seating: Seating | None = None
        self.laid = False
        self.between_hands = False  # a hand's result is shown and the game goes on: the next hand waits
        # The replay confirms one action at a time; a turn's actions wait here to be told in one line.
        self.turn: list[Event] = []
        self.game: Game | None = None

    def __call__(self, game: Game, events: Sequence[Event]) -> None:
        if self.seating is None:
            self.seating = Watching(tuple(game.players), -1, {})
        if self.between_hands:
            # Asked only once the log has a next hand to show: after its last hand the replay just ends.
            self.between_hands = False
            if self.wait is not None and self.asked("Enter: the next hand, q: stop ") in ("q", "quit"):
                raise StopShowing
        for event in events:
            if isinstance(event, DealEvent):
                first = event.first
                verb = "play" if first == "you" else "plays"  # a person who kept the default name
                self.console.print(Rule(f"Hand {event.hand}: {first} {verb} first", style="cyan"))
        self.game = game
        self.turn.extend(events)
        self.laid = laid_since_draw(events, self.laid)
        end = scoresheet.hand_end_event(events)
        if end is None:
            if any(isinstance(event, DiscardEvent | EndTurnEvent) for event in events):
                self.finish()
            return
        self.finish()
        out = [event.player for event in events if isinstance(event, EliminatedEvent)]
        scoresheet.render_hand_end(self.console, game, self.seating, end, out, self.laid)
        if game.game_over:
            scoresheet.render_game_end(self.console, game, self.seating)
        else:
            self.between_hands = True

    def asked(self, prompt: str) -> str:
        """The answer to ``prompt``, lower case; Ctrl-D or Ctrl-C end its line first, so that the
        shell's prompt does not land after it."""
        assert self.wait is not None
        try:
            return self.wait(prompt).strip().lower()
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            raise

    def finish(self) -> None:
        """Tell the turn told so far: at its discard, at the end of a hand, and where the log stops."""
        if self.turn and self.game is not None and self.seating is not None:
            for line in table_lines(self.turn, self.game, self.seating, letters=self.letters):
                self.console.print(line)
        self.turn = []
