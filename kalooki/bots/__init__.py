"""Computer players, chosen by name from a registry that other packages can extend.

A bot answers one question: given the game, which action does the current player
take next? It reads only what that player may see (``game.view(seat)``, the
variant, the legal actions); :func:`kalooki.driver.play_turn` asks it again until
its turn is over. Third-party bots register under the entry-point group
``kalooki.bots``::

    [project.entry-points."kalooki.bots"]
    cautious = "my_package.bots:CautiousBot"

A bot class is called with a ``random.Random`` and must provide ``choose(game)``.
"""

from kalooki.bots.base import (
    ENTRY_POINT_GROUP,
    Bot,
    BotFactory,
    UnknownBotError,
    bot_names,
    make_bot,
    register,
)
from kalooki.bots.expert import ExpertBot
from kalooki.bots.greedy import GreedyBot
from kalooki.bots.random_bot import RandomBot

BUILTIN_BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot, "expert": ExpertBot}
"""The bots that come with kalooki (plug-ins add theirs through entry points)."""
for _name, _factory in BUILTIN_BOTS.items():
    register(_name, _factory)

__all__ = [
    "BUILTIN_BOTS",
    "ENTRY_POINT_GROUP",
    "Bot",
    "BotFactory",
    "ExpertBot",
    "GreedyBot",
    "RandomBot",
    "UnknownBotError",
    "bot_names",
    "make_bot",
    "register",
]
