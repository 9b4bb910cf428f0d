"""After a player is out of the game: watch the rest, or skip to the result.

With ``elimination``, a player who reaches the goal is out while the others play on. Left
alone, they would sit through every remaining turn; instead they are asked once, and
skipping plays the rest of the game at once (saved and logged as ever) and shows the result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kalooki.driver import play_turn

if TYPE_CHECKING:
    from .interactive import InteractiveGame

QUESTION = "You are out of the game. Press Enter to watch the rest, or type skip to go to the result: "
SKIP_WORDS = frozenset({"skip", "s", "result"})


def wants_to_skip(answer: str) -> bool:
    return answer.strip().lower() in SKIP_WORDS


def ask(loop: InteractiveGame) -> bool:
    """Ask once; True to skip to the result."""
    while True:
        answer = loop.read_line(QUESTION)
        word = answer.strip().lower()
        if not word or word in ("watch", "w"):
            return False
        if wants_to_skip(word):
            return True
        if not loop.command(answer, in_turn=False):
            loop.error("press Enter to watch the rest, or type skip to go straight to the result")


def play_to_the_end(loop: InteractiveGame) -> None:
    """The bots play every remaining hand without telling each turn; saved and logged as they go."""
    game = loop.game
    loop.say("The others play on...", style="dim")
    while not game.game_over:
        if game.phase == "hand_over":
            loop.record(game.next_hand())
            continue
        loop.record(play_turn(game, loop.bots[game.current], loop.faults))
    loop.save()


__all__ = ["QUESTION", "ask", "play_to_the_end", "wants_to_skip"]
