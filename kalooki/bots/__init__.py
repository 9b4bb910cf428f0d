"""Computer players, chosen by name from a registry that other packages can extend.

A bot answers one question: given what the current player may see, which action do
they take next? It is called as ``choose(view, legal)`` with that player's
:class:`~kalooki.view.PlayerView` (own hand, table, discard pile, counts, the variant)
and their :class:`~kalooki.view.LegalView`, worked out from the view alone: no bot
can reach another hand, the stock's order or the random state.
:func:`kalooki.driver.play_turn` asks it again until its turn is over. Third-party
bots register under the entry-point group ``kalooki.bots``::

    [project.entry-points."kalooki.bots"]
    cautious = "my_package.bots:CautiousBot"

A bot class is called with a ``random.Random`` and must provide ``choose(view, legal)``;
a plug-in still written as ``choose(game)`` is refused with :class:`BotProtocolError`.
"""

from kalooki.bots import base
from kalooki.bots.base import (
    ENTRY_POINT_GROUP,
    Bot,
    BotFactory,
    BotFailedError,
    BotNameError,
    BotProtocolError,
    UnknownBotError,
    bot_names,
    check_bot,
    is_bot_name,
    make_bot,
    names_for_bots,
    register,
    unknown_bot_message,
)
from kalooki.bots.expert import ExpertBot
from kalooki.bots.greedy import GreedyBot
from kalooki.bots.random_bot import RandomBot

BUILTIN_BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot, "expert": ExpertBot}
"""The bots that come with kalooki (plug-ins add theirs through entry points)."""
for _name, _factory in BUILTIN_BOTS.items():
    register(_name, _factory)
base._BUILT_IN.update(BUILTIN_BOTS)

__all__ = [
    "BUILTIN_BOTS",
    "ENTRY_POINT_GROUP",
    "Bot",
    "BotFactory",
    "BotFailedError",
    "BotNameError",
    "BotProtocolError",
    "ExpertBot",
    "GreedyBot",
    "RandomBot",
    "UnknownBotError",
    "bot_names",
    "check_bot",
    "is_bot_name",
    "make_bot",
    "names_for_bots",
    "register",
    "unknown_bot_message",
]
