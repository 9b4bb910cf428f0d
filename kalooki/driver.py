"""Playing turns and whole games with bots: the loop shared by scripts, simulation and the terminal."""

from __future__ import annotations

import inspect
import os
import traceback
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from kalooki.bots import Bot, ExpertBot, GreedyBot, RandomBot
from kalooki.bots.base import _described, made_as, said_error
from kalooki.cards import JOKER, card_points
from kalooki.engine import Event, Game, IllegalMoveError, SetupError
from kalooki.errors import KalookiError
from kalooki.moves import END_TURN, Action, Build, Discard, Draw, EndTurn, Meld, Swap
from kalooki.simulation_stats import DEFAULT_MAX_HANDS
from kalooki.text import clipped, escape_controls, safe_repr
from kalooki.view import LegalView

MAX_ACTIONS_PER_TURN = 200
"""A bot that has not ended its turn after this many actions is stuck; the driver ends the turn for it."""


def fallback_action(game: Game, actions: Sequence[Action] | None = None) -> Action:
    """A safe legal action: draw from the stock, else discard the costliest card, else end the turn
    (where the variant allows it), else anything legal. ``actions``: ``game.legal_actions()``, where the
    caller has them already (a listing may cost seconds where swaps chain)."""
    if actions is None:
        actions = game.legal_actions()
    if game.phase == "draw":
        return Draw("stock") if Draw("stock") in actions else actions[0]
    discards = [action for action in actions if isinstance(action, Discard)]
    if discards:
        variant = game.variant

        def cost(action: Discard) -> int:
            # A joker is worth keeping whatever its penalty: discard it last.
            if action.card == JOKER:
                return -1
            return card_points(action.card, variant.ace_value, variant.joker_penalty)

        return max(discards, key=cost)
    if END_TURN in actions:
        return END_TURN
    if actions:
        return actions[0]
    raise IllegalMoveError(f"{game.player} has no legal action")


@dataclass(frozen=True, slots=True)
class BotFault:
    """A bot whose ``choose`` raised, or gave something that is no action or an action the rules refuse,
    in one seat."""

    bot: str
    """The bot's name."""
    player: str
    """The name of the player in the seat it plays."""
    problem: str
    """What went wrong: ``choose raised ValueError: boom``, ``choose returned None, not an action``,
    ``choose returned Discard(card=999), an illegal move: 999 is not a card code (0 to 52)``."""

    def __str__(self) -> str:
        return f"[bot {self.bot}, seat {self.player}] {self.problem}; its moves are replaced by safe ones"


@dataclass
class BotFaults:
    """The faults of a game's bots, the first of each bot in each seat only: a faulty bot is told once,
    not on every action it is asked for. ``tell`` hears each as it is recorded; the driver never prints."""

    tell: Callable[[BotFault], None] | None = None
    found: list[BotFault] = field(default_factory=list)

    def record(self, fault: BotFault) -> None:
        if any(seen.bot == fault.bot and seen.player == fault.player for seen in self.found):
            return
        self.found.append(fault)
        if self.tell is not None:
            self.tell(fault)


class BotFaultWarning(UserWarning):
    """A bot's fault (:class:`BotFault`, its text the warning's) where the caller gave no :class:`BotFaults`
    to record it in: :func:`play_game`, :func:`play_hand` and :func:`play_turn` called without one, and
    :func:`kalooki.simulate.simulate`. A bot that raised on every call was replaced on every one in silence,
    and looked merely weak. Pass a ``BotFaults`` (or filter this warning) to hear them another way."""


def warn_fault(fault: BotFault) -> None:
    """Tell ``fault`` as a :class:`BotFaultWarning` (Python shows it on stderr once, by default), from the
    line that called into the library: a warning located in the driver named no line of the caller's."""
    level = 2
    frame = inspect.currentframe()
    caller = frame.f_back if frame is not None else None
    while caller is not None and caller.f_code.co_filename.startswith(_KALOOKI_DIR):
        caller = caller.f_back
        level += 1
    warnings.warn(str(fault), BotFaultWarning, stacklevel=level)


_ACTIONS = (Draw, Meld, Build, Swap, Discard, EndTurn)


def bot_name(bot: Bot) -> str:
    """The name ``bot`` was made under (the player's choice, which the table shows), else what it calls
    itself (its class's name where its ``name`` is missing or no string)."""
    name = made_as(bot) or getattr(bot, "name", None)
    return name if isinstance(name, str) else type(bot).__name__


def bot_fault(bot: Bot, game: Game, seat: int, problem: str) -> BotFault:
    """``bot``'s fault in ``seat`` of ``game``: its name and ``problem`` made safe to show."""
    return BotFault(
        escape_controls(bot_name(bot)), game.players[seat], clipped(escape_controls(problem), 200)
    )


def _bot_raised(faults: BotFaults, bot: Bot, game: Game, seat: int, error: BaseException) -> None:
    # What it raised is cut short, not where: the line is what the bot's author looks for.
    said = f"choose raised {clipped(said_error(error), 150)}"
    at = raised_at(error, bot)
    faults.record(bot_fault(bot, game, seat, f"{said} (at {at})" if at else said))


_KALOOKI_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "")
"""The library's own folder: its frames are never where a bot went wrong. (Its parent is site-packages
once installed, which holds a bot installed as a plug-in too.)"""


def raised_at(error: BaseException, bot: object) -> str | None:
    """Where ``error`` left the bot's code, as ``planner.py:42``: the innermost line in the file of the bot's
    class, else the innermost outside kalooki (a bot's bad call of the solver is the bot's line, not the
    solver's), else None. The fault is one line with no traceback: without this, a bot that raised
    ``KeyError: 3`` somewhere in its few hundred lines left its author nothing to go on."""
    try:
        own: str | None = inspect.getfile(type(bot))
    except (OSError, TypeError):  # a class made in __main__ of python -c, or in C
        own = None
    found: tuple[str, int] | None = None
    outside: tuple[str, int] | None = None
    for frame, line in traceback.walk_tb(error.__traceback__):
        filename = frame.f_code.co_filename
        if filename == own:
            found = (filename, line)
        elif not filename.startswith(_KALOOKI_DIR):
            outside = (filename, line)
    where = found or outside
    return None if where is None else f"{os.path.basename(where[0])}:{where[1]}"


_OWN_BOTS = (ExpertBot, GreedyBot, RandomBot)
"""kalooki's own bots, which never write to their view: given the engine's hand state, not a copy. A
subclass a plug-in makes may, so it is not among them (the test is the exact type)."""


def ask_bot(bot: Bot, game: Game) -> Action:
    """What ``bot`` plays next for the current player, shown only that player's view of ``game``."""
    view = game.view(game.current, own_bot=type(bot) in _OWN_BOTS)
    return bot.choose(view, LegalView(view))


def play_turn(game: Game, bot: Bot, faults: BotFaults | None = None) -> list[Event]:
    """Let ``bot`` play the current player's whole turn; returns the turn's events.

    A bot's illegal choice is replaced by :func:`fallback_action`, so a faulty bot
    slows a game down but never stops it. So is what a bot raises (any ``Exception``) and a choice
    that is no action at all: each is recorded in ``faults`` (the first of each bot and seat), where
    the caller tells it; without ``faults``, it is a :class:`BotFaultWarning`. When the turn
    has to be taken back to get out of a dead end, the events of what was taken back are dropped too.
    """
    if faults is None:
        faults = BotFaults(tell=warn_fault)
    elif faults.__class__ is not BotFaults:  # 5 was an AttributeError at the bot's first fault
        _check_faults("play_turn", faults)
    try:
        seat, hand, turn = game.current, game.hand_number, game.turn_number
    except AttributeError:  # None for the game: checked only once it has failed, as every turn is played here
        _check_setup("play_turn", game, None)
        raise
    own_bot = type(bot) in _OWN_BOTS
    random_bot = bot if type(bot) is RandomBot else None
    events: list[Event] = []
    after_draw = 0
    for _ in range(MAX_ACTIONS_PER_TURN):
        # _same_turn() and ask_bot() written out, and no closure made: this runs for every action of
        # every simulated game.
        phase = game.phase
        if (
            game.turn_number != turn
            or game.current != seat
            or game.hand_number != hand
            or phase not in _IN_PLAY
        ):
            return events
        drawing = phase == "draw"
        choice: object = _UNCHOSEN
        try:
            # kalooki's random bot draws from the draws it remembers where it can, and discards where it
            # lays nothing: no view is made for it.
            known: Action | None = None
            if random_bot is not None:
                if drawing:
                    known = random_bot.known_draw(
                        game.variant, bool(game.stock), bool(game.discard_pile), game.opened[seat]
                    )
                elif game.turn.must_use_card is None and not game.turn.jokers_owed:
                    known = random_bot.known_discard(
                        game.variant,
                        game.hands[seat],
                        game.hand_states[seat],
                        tuple(game.table),
                        game.opened[seat],
                    )
            if known is None:
                view = game.view(seat, own_bot=own_bot)
                choice = bot.choose(view, LegalView(view))
            else:
                choice = known
            events += game.apply(choice)  # what is no action (None from a plug-in) is refused
        # A plug-in may raise anything, sys.exit() included, an IllegalMoveError of its own too: the game
        # goes on with a safe move, and the fault is recorded. (Ctrl-C, KeyboardInterrupt, is the player's:
        # it stops the game, saved.)
        except (Exception, SystemExit) as error:
            if choice is _UNCHOSEN:
                # None or a bot's name for the bot faulted on every move, each replaced: refused at the
                # first, before anything is played (looked for only once choose has failed).
                not_a_bot = _not_a_bot(bot)
                if not_a_bot is not None:
                    raise BotSeatError(f"play_turn: {_seat_named(game, seat)} {not_a_bot}") from None
                _bot_raised(faults, bot, game, seat, error)
            elif not isinstance(error, IllegalMoveError):
                raise  # the engine's own failure, not the bot's: choose had returned
            elif not isinstance(choice, _ACTIONS):
                faults.record(
                    bot_fault(bot, game, seat, f"choose returned {safe_repr(choice)}, not an action")
                )
            elif not isinstance(bot, _OWN_BOTS):
                # A well-formed action the rules refuse is a fault too: a bot that never made a legal move
                # was replaced on every one with no sign. kalooki's own bots (and what inherits their
                # play) hand a debt no plan pays to the fallback with a discard the rules refuse, by design.
                said = f"choose returned {safe_repr(choice)}, an illegal move: {error}"
                faults.record(bot_fault(bot, game, seat, said))
            # Listed once: whether to take the turn back, and, where it stays, the fallback's choice.
            actions = game.legal_actions() if game.can_undo() else None
            if actions is not None and not any(isinstance(a, Discard | EndTurn) for a in actions):
                _take_back(game, events, after_draw)
                actions = None
            events += game.apply(fallback_action(game, actions))
        if drawing:
            after_draw = len(events)
    # Still the same turn after all those actions: the bot is going round in circles; end the turn for it.
    # What it laid is taken back once, not before each fallback: a turn that owes the discard it took
    # may need several layings (open, swap, meld), and taking each back again went round for ever.
    if _same_turn(game, seat, hand, turn) and game.can_undo():
        _take_back(game, events, after_draw)
    while _same_turn(game, seat, hand, turn):
        events += game.apply(fallback_action(game))
        if game.phase == "play" and not after_draw:
            after_draw = len(events)
    return events


def safe_turn(game: Game) -> list[Event]:
    """The current player's whole turn by :func:`fallback_action` alone (draw from the stock, discard the
    costliest card): what a hosted table plays for a bot that has not answered in time."""
    seat, hand, turn = game.current, game.hand_number, game.turn_number
    events: list[Event] = []
    while _same_turn(game, seat, hand, turn):
        events += game.apply(fallback_action(game))
    return events


_IN_PLAY = ("draw", "play")
_UNCHOSEN = object()
"""What a bot's choice is until its ``choose`` returns: raising, it chose nothing (None is a choice)."""


def _same_turn(game: Game, seat: int, hand: int, turn: int) -> bool:
    """Whether ``game`` is still in turn ``turn`` of hand ``hand``, ``seat`` to play."""
    return (
        game.turn_number == turn
        and game.current == seat
        and game.hand_number == hand
        and game.phase in _IN_PLAY
    )


def _take_back(game: Game, events: list[Event], after_draw: int) -> None:
    """Take back the turn's melds, builds and swaps, and drop their events (those after the draw's)."""
    game.undo_turn()
    del events[after_draw:]


def play_hand(
    game: Game,
    bots: Sequence[Bot] | Mapping[int, Bot],
    max_turns: int | None = None,
    faults: BotFaults | None = None,
) -> list[Event]:
    """Play the current hand to its end with bots in every seat (a list, one a seat, or by seat).

    The game's own turn limit ends a hand that goes on too long; ``max_turns`` abandons it sooner.
    Without ``faults``, each bot's first fault in each seat is a :class:`BotFaultWarning`. A seat without a
    bot, or a limit that is no whole number of at least 1, is refused before anything is played, as
    :func:`play_game` refuses them (a seat without a bot was a bare KeyError at its turn).
    """
    _check_setup("play_hand", game, max_turns)
    _check_faults("play_hand", faults)
    seats = _seats("play_hand", bots)
    _check_seats(game, seats, "play_hand")
    return _play_hand(game, seats, max_turns, faults)


def _play_hand(
    game: Game, bots: Mapping[int, Bot], max_turns: int | None, faults: BotFaults | None
) -> list[Event]:
    """:func:`play_hand`, its arguments checked."""
    if faults is None:
        faults = BotFaults(tell=warn_fault)
    events: list[Event] = []
    while game.phase in ("draw", "play"):
        if max_turns is not None and game.turn_number > max_turns:
            events += game.abandon_hand()
            break
        events += play_turn(game, bots[game.current], faults)
    return events


def play_game(
    game: Game,
    bots: Sequence[Bot] | Mapping[int, Bot],
    max_turns: int | None = None,
    faults: BotFaults | None = None,
    *,
    max_hands: int | None = DEFAULT_MAX_HANDS,
) -> list[Event]:
    """Play hands until the game is over; every seat must have a bot.

    A seat still playing with no bot, or given what is no bot (the class rather than one made from it), is
    refused before anything is played: :class:`BotSeatError`; so is a limit that is no whole number of at
    least 1 (:class:`~kalooki.engine.SetupError`). Without ``faults``, each bot's first fault in each seat
    in the game is a :class:`BotFaultWarning`.

    Bots that never win a hand (each ended by the turn limit) would play for ever: after ``max_hands``
    hands played here (None: no limit) the game is stopped as a simulation stops it, between hands.
    The caller then gets it with ``game.game_over`` false and ``game.phase`` ``"hand_over"``, its
    totals as they stand; another call plays on.
    """
    _check_setup("play_game", game, max_turns, max_hands)
    _check_faults("play_game", faults)
    seats = _seats("play_game", bots)
    _check_seats(game, seats, "play_game")
    if faults is None:
        faults = BotFaults(tell=warn_fault)
    events: list[Event] = []
    played = 0
    while not game.game_over and (max_hands is None or played < max_hands):
        if game.phase == "hand_over":
            events += game.next_hand()
        events += _play_hand(game, seats, max_turns, faults)
        played += 1
    return events


class BotSeatError(KalookiError, TypeError):
    """:func:`play_game` or :func:`play_hand` was given too few bots, or in some seat what is no bot (a bot's
    class, a name)."""


def _check_setup(caller: str, game: object, max_turns: object, max_hands: object = None) -> None:
    """Refuse, as :class:`~kalooki.engine.SetupError` naming ``caller``, what is no game (None was a bare
    AttributeError) and a limit that is no whole number of at least 1 ("2" was a bare TypeError; 0 or -1
    played nothing, or abandoned every hand at its first turn)."""
    if not isinstance(game, Game):
        raise SetupError(
            f"{caller}: {clipped(safe_repr(game), 60)} is not a game: kalooki.engine.Game makes one"
        )
    for name, limit in (("max_turns", max_turns), ("max_hands", max_hands)):
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 1):
            shown = clipped(safe_repr(limit), 60)
            raise SetupError(f"{caller}: {name} must be a whole number, at least 1, or None, not {shown}")


def _seats(caller: str, bots: Sequence[Bot] | Mapping[int, Bot]) -> dict[int, Bot]:
    """``bots`` by seat; what is no list and no mapping of seats is refused (None was a bare TypeError, a
    bot's name was read letter by letter, a bot alone was a KeyError)."""
    if isinstance(bots, Mapping):
        return dict(bots)
    if isinstance(bots, Sequence) and not isinstance(bots, str | bytes):
        return dict(enumerate(bots))
    shown = clipped(safe_repr(bots), 60)
    raise BotSeatError(f"{caller}: give the bots as a list, one a seat, or a mapping of seats, not {shown}")


def _check_seats(game: Game, seats: Mapping[int, object], caller: str) -> None:
    """Refuse a seat still playing that has no bot, or what has no ``choose`` to call, naming the seat.

    Without a bot the game stopped at that seat's first turn with ``KeyError: 2``; a bot's class, whose
    ``choose`` wants the bot as well, raised on every call, and every move of the game was a fallback."""
    for seat in range(len(game.players)):
        if game.eliminated[seat]:
            continue
        where = f"{caller}: {_seat_named(game, seat)}"
        if seat not in seats:
            counts = f"{len(game.players)} seats, {len(seats)} bots given"
            raise BotSeatError(f"{where} has no bot: give one bot a seat ({counts})")
        not_a_bot = _not_a_bot(seats[seat])
        if not_a_bot is not None:
            raise BotSeatError(f"{where} {not_a_bot}")


def _not_a_bot(bot: object) -> str | None:
    """What ``bot`` is given as where it is no bot (a class, a name, what has no ``choose``), or None."""
    if bot is None:
        return "is given None, not a bot: kalooki.bots.make_bot(name, random.Random(seed)) makes one"
    if isinstance(bot, type):
        kind = escape_controls(bot.__name__)
        return f"is given the class {kind}, not a bot: make one first, {kind}(random.Random(seed))"
    if isinstance(bot, str):
        name = escape_controls(repr(bot))
        made = f"kalooki.bots.make_bot({name}, random.Random(seed))"
        return f"is given the name {name}, not a bot: {made} makes one"
    if not callable(getattr(bot, "choose", None)):
        return f"is given {_described(bot)}, which has no choose(view, legal) to call"
    return None


def _seat_named(game: Game, seat: int) -> str:
    return f"seat {seat} ({escape_controls(game.players[seat])})"


def _check_faults(caller: str, faults: object) -> None:
    """Refuse, naming ``caller``, ``faults`` that are no :class:`BotFaults` (None is: one is made)."""
    if faults is not None and not isinstance(faults, BotFaults):
        shown = clipped(safe_repr(faults), 60)
        raise SetupError(f"{caller}: faults must be a BotFaults (kalooki.driver.BotFaults()), not {shown}")
