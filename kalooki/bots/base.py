"""The bot protocol and the registry of bots by name."""

from __future__ import annotations

import random
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Protocol

from kalooki.errors import KalookiError

if TYPE_CHECKING:
    from kalooki.engine import Game
    from kalooki.moves import Action

ENTRY_POINT_GROUP = "kalooki.bots"


class Bot(Protocol):
    """A computer player."""

    name: str

    def choose(self, game: Game) -> Action:
        """The next action for ``game``'s current player."""
        ...


BotFactory = Callable[[random.Random], Bot]


class UnknownBotError(KalookiError):
    """A bot name that no registered bot has."""


_REGISTRY: dict[str, BotFactory] = {}


def register(name: str, factory: BotFactory) -> None:
    """Make a bot available by name (built-ins and entry points use this too)."""
    _REGISTRY[name] = factory


def _load_entry_points() -> None:
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        if entry.name not in _REGISTRY:
            _REGISTRY[entry.name] = entry.load()


def bot_names() -> list[str]:
    _load_entry_points()
    return sorted(_REGISTRY)


def make_bot(name: str, rng: random.Random) -> Bot:
    """A new bot of the named kind, drawing its random choices from ``rng``."""
    if name not in _REGISTRY:
        _load_entry_points()
    factory = _REGISTRY.get(name)
    if factory is None:
        raise UnknownBotError(f"there is no bot called '{name}': the bots are {', '.join(bot_names())}")
    return factory(rng)
