"""The ``random`` bot: a uniform choice among legal actions, weighted so that games end."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from kalooki.moves import Action, Build, Discard, Draw, Meld, Swap

if TYPE_CHECKING:
    from kalooki.engine import Game


class RandomBot:
    """Draws at random, lays something whenever it can, and otherwise discards at random.

    Always laying when it can (rather than sometimes discarding instead) is the weight
    that makes its games end: a player who never melds never goes out.
    """

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, game: Game) -> Action:
        actions = game.legal_actions()
        if game.phase == "draw":
            draws = [action for action in actions if isinstance(action, Draw)]
            return self.rng.choice(draws)
        layings = [action for action in actions if isinstance(action, (Meld, Build, Swap))]
        if layings:
            return self.rng.choice(layings)
        discards = [action for action in actions if isinstance(action, Discard)]
        return self.rng.choice(discards or actions)
