"""The bot protocol and the registry of bots by name."""

from __future__ import annotations

import contextlib
import inspect
import random
import weakref
from collections.abc import Callable, Iterable
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Protocol

from kalooki.errors import KalookiError
from kalooki.suggestions import suggest
from kalooki.text import clipped, clipped_repr, escape_controls, name_key

if TYPE_CHECKING:
    from kalooki.moves import Action
    from kalooki.view import LegalView, PlayerView

ENTRY_POINT_GROUP = "kalooki.bots"


class Bot(Protocol):
    """A computer player: it sees what its seat may see, never the game itself.

    ``name`` is what reports show for a bot passed to :func:`kalooki.driver.play_game` itself; one made
    by name is shown by that name. kalooki runs a bot without one (shown by its class's name), but the
    protocol keeps it: typed programs read ``bot.name``."""

    name: str

    def choose(self, view: PlayerView, legal: LegalView) -> Action:
        """The next action for the player whose ``view`` this is; ``legal`` lists what they may do."""
        ...


BotFactory = Callable[[random.Random], Bot]


class UnknownBotError(KalookiError):
    """A bot name that no registered bot has."""


class BotNameError(KalookiError, ValueError):
    """A name :func:`register` refuses: a built-in bot's, or one no list of bots could choose."""


class BotProtocolError(KalookiError):
    """A registered bot written for the old protocol, ``choose(game)``."""


class BotFailedError(BotProtocolError):
    """A registered bot that cannot be made: its factory (its class's ``__init__``) raised, or gave
    something with no ``choose`` to call.

    A kind of :class:`BotProtocolError`, so that every command refuses it where it refuses that one:
    before any game is played."""


_REGISTRY: dict[str, BotFactory] = {}
_BROKEN: dict[str, str] = {}
"""Plug-ins whose entry point could not be loaded, by name: why, in one line. One broken plug-in
made every other name that is not built in fail with its traceback."""


_BUILT_IN: set[str] = set()
"""The names of kalooki's own bots (filled by :mod:`kalooki.bots`): no plug-in takes them."""


def register(name: str, factory: BotFactory) -> None:
    """Make a bot available by name (built-ins and entry points use this too).

    :class:`BotNameError` (a ``ValueError``) for a built-in bot's name (the built-in keeps it, as it
    does from a plug-in's entry point) and for a name no list of bots could choose: empty, or holding a
    comma, a space or a control character (bots are chosen as ``greedy,random``); :class:`BotFailedError`
    for a factory that cannot be called."""
    if (
        not isinstance(name, str)
        or not name
        or any(c == "," or not c.isprintable() or c.isspace() for c in name)
    ):
        shown = escape_controls(repr(name))
        raise BotNameError(
            f"register: {shown} cannot be a bot's name: bots are chosen by a list such as greedy,random, "
            "so a name is one word of printable characters without commas"
        )
    if name in _BUILT_IN and _REGISTRY.get(name) is not factory:
        raise BotNameError(
            f"register: '{name}' is the name of a built-in bot, which keeps it: give yours another name"
        )
    # Greedy beside greedy: a name a reader takes for the built-in's, and a typo's answer would name both.
    built_in = next((known for known in _BUILT_IN if known.casefold() == name.casefold()), None)
    if built_in is not None and built_in != name:
        raise BotNameError(
            f"register: '{name}' reads as the built-in bot '{built_in}', which keeps it: "
            "give yours another name"
        )
    if not callable(factory):
        # None was taken, and then the name said to be no bot's ("did you mean 'x'?" of 'x' itself).
        shown = escape_controls(clipped_repr(factory))
        raise BotFailedError(
            f"register: the bot '{name}' cannot be made from {shown}: give a bot class, "
            "or a function that makes a bot from a random.Random"
        )
    _REGISTRY[name] = factory


def _load_entry_points() -> None:
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        # A plug-in named as a built-in bot is never loaded: the built-in keeps its name.
        if entry.name not in _REGISTRY and entry.name not in _BROKEN:
            where = f"the plug-in bot '{escape_controls(entry.name)}' ({escape_controls(entry.value)})"
            try:
                loaded = entry.load()
            except Exception as error:  # a plug-in's import may raise anything
                _BROKEN[entry.name] = f"{where} could not be loaded: {said_error(error)}"
                continue
            if callable(loaded):
                _REGISTRY[entry.name] = loaded
            else:  # None was taken, and the name then said to be no bot's ("did you mean" the name itself)
                shown = escape_controls(clipped_repr(loaded))
                _BROKEN[entry.name] = (
                    f"{where} could not be loaded: it names {shown}, no bot class or function"
                )


def said_error(error: BaseException) -> str:
    """What ``error`` says, as a message quotes it: ``ValueError: boom`` on one line (``ValueError``
    where it says nothing)."""
    said = " ".join(str(error).split())
    return escape_controls(f"{type(error).__name__}: {said}" if said else type(error).__name__)


def bot_names() -> list[str]:
    _load_entry_points()
    return sorted(_REGISTRY)


def bot_names_unloaded() -> list[str]:
    """:func:`bot_names` without importing the plug-ins: their entry points' names beside the bots
    registered, for a caller that must not wait on a plug-in's import (shell completion)."""
    plugins = {entry.name for entry in entry_points(group=ENTRY_POINT_GROUP)}
    return sorted(set(_REGISTRY) | plugins - set(_BROKEN))


def is_bot_name(name: str) -> bool:
    """Whether a bot is called ``name``. The installed plug-ins are read only for a name no bot registered
    so far has: reading them took a third of the time ``kalooki saves`` spent on each save it listed."""
    if name not in _REGISTRY:
        _load_entry_points()
    return name in _REGISTRY


def unknown_bot_message(name: str) -> str:
    """Says that no bot is called ``name``, with the closest bot's name and the list of them.

    The one wording for ``--bots`` of every command and for :func:`make_bot`; the name is quoted with its
    control characters spelled out, since option errors reach the terminal as they are.
    """
    names = bot_names()
    if name in _BROKEN:
        return _BROKEN[name]
    close = suggest(name, names)
    hint = f" (did you mean '{close}'?)" if close else ""
    return f"there is no bot called '{escape_controls(name)}'{hint}: the bots are {', '.join(names)}"


def make_bot(name: str, rng: random.Random) -> Bot:
    """A new bot of the named kind, drawing its random choices from ``rng``."""
    if name not in _REGISTRY:
        _load_entry_points()
    factory = _REGISTRY.get(name)
    if factory is None:
        if not isinstance(name, str):  # a number was a bare AttributeError, naming no bot
            shown = escape_controls(repr(name))
            raise UnknownBotError(f"there is no bot called {shown}: a bot is chosen by its name, a string")
        raise UnknownBotError(unknown_bot_message(name))
    if not isinstance(rng, random.Random):  # 1.5 or None: the bot was made, and faulted at its first choice
        shown = clipped(escape_controls(repr(rng)), 60)
        raise BotFailedError(
            f"make_bot: rng must be a random.Random (random.Random(seed) makes one), not {shown}"
        )
    try:
        bot = factory(rng)
    except Exception as error:  # a plug-in's __init__ may raise anything
        raise BotFailedError(
            f"the bot '{escape_controls(name)}' could not be made: {said_error(error)}"
        ) from None
    _check_protocol(name, bot)
    # A bot that cannot be weakly referenced is known by what it calls itself.
    with contextlib.suppress(TypeError):
        _MADE_AS[bot] = name
    return bot


_MADE_AS: weakref.WeakKeyDictionary[object, str] = weakref.WeakKeyDictionary()
"""The name each bot :func:`make_bot` made was asked for by: the one the player chose and the table shows,
which a plug-in's own ``name`` (inherited from another bot's class, say) need not be."""


def made_as(bot: object) -> str | None:
    """The name :func:`make_bot` made ``bot`` under, or None for a bot made otherwise."""
    try:
        return _MADE_AS.get(bot)
    except TypeError:
        return None


SEAT_NAMES = ("bob", "cid", "dee", "eve", "fay", "gus", "hal", "ivy")
"""What bots are called at a table, in seat order, where a player has no such name."""


def names_for_bots(taken: Iterable[str], count: int) -> list[str]:
    """Names for ``count`` bots beside the players called ``taken``: bob, cid, ... then bot1, bot2, ...

    None is a player's name in any case: a player "Bob" and a bot "bob" both read "Bob" at the start
    of a sentence ("Bob melds 5♠ 5♦ 5♣").
    """
    # In any of Unicode's ways of writing the same letters too: 𝚋𝚘𝚋 in monospace letters shows as bob.
    used = {name_key(name) for name in taken}
    numbered = (f"bot{index}" for index in range(1, count + len(used) + 1))
    return [name for name in (*SEAT_NAMES, *numbered) if name not in used][:count]


def check_bot(name: str) -> None:
    """Raise what :func:`make_bot` would for ``name`` (unknown, or a plug-in still written as
    ``choose(game)``), before any game is played: a bot is made once and set aside."""
    make_bot(name, random.Random(0))


def _check_protocol(name: str, bot: Bot) -> None:
    """Refuse a bot with no ``choose`` to call (a factory that returns something else, say), or whose
    ``choose`` takes the game alone (kalooki 0.x): it would fail on its first turn."""
    choose = getattr(bot, "choose", None)
    if not callable(choose):
        raise BotFailedError(
            f"the bot '{escape_controls(name)}' could not be made: its factory gave "
            f"{_described(bot)}, which has no choose(view, legal) to call (see docs/bots.md)"
        )
    # A method's signature is its function's: each function is read once (a simulation makes four
    # bots a game, and reading a signature costs more than a turn).
    function = getattr(bot.choose, "__func__", None)
    if function is not None and function in _FITTING:
        return
    try:
        parameters = inspect.signature(bot.choose).parameters.values()
    except (TypeError, ValueError):
        return  # a callable without a readable signature: let it play
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(positional) < 2 and not any(p.kind is p.VAR_POSITIONAL for p in parameters):
        raise BotProtocolError(
            f"the bot '{name}' has choose(game): bots now get choose(view, legal), "
            "what their seat may see and its legal actions (see docs/bots.md)"
        )
    if function is not None:
        _FITTING.add(function)


def _described(made: object) -> str:
    """What a factory gave, for a message: ``a NoChoose``, ``an int``."""
    kind = type(made).__name__
    return f"{'an' if kind[:1].lower() in 'aeiou' else 'a'} {escape_controls(kind)}"


_FITTING: weakref.WeakSet[Callable[..., object]] = weakref.WeakSet()
"""The ``choose`` functions whose methods :func:`_check_protocol` found to take (view, legal)."""
