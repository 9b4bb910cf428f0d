"""Playing a loaded game script through the engine: every move in order, the first illegal one reported.

:mod:`kalooki.script` reads and checks a script; this module plays it. A move the engine refuses
is reported as ``FILE:LINE:COL: hand H, move K (player: command): reason``, at the move's place in
the script, and the run stops there. Seats a bot plays take their turns between the scripted
moves; a hand the script ends early is left where it stands.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kalooki.bots import Bot, make_bot
from kalooki.driver import BotFault, BotFaults, play_turn
from kalooki.engine import DealError, Event, Game, IllegalMoveError, SetupError
from kalooki.errors import KalookiError
from kalooki.script import MAX_BOT_HANDS, LoadedScript, ScriptError, ScriptMove, not_given
from kalooki.text import clipped, clipped_repr
from kalooki.yamlio import Location


@dataclass(frozen=True)
class MoveFailure:
    """The first move that could not be played; ``move`` 0 and ``command`` ``"deal"``: a hand's deal."""

    hand: int
    move: int
    player: str
    command: str
    message: str
    where: Location | None = None
    """Where the script writes the move: its file, line and column open the line, as a problem's do."""

    def __str__(self) -> str:
        if self.move == 0:  # not a move: the hand's deal (a hand written after the game ended)
            told = f"hand {self.hand}, its {self.command}: {self.message}"
        else:
            told = (
                f"hand {self.hand}, move {self.move} ({self.player}: {clipped(self.command)}): {self.message}"
            )
        if self.where is None or self.where.line <= 0:
            return told
        return f"{self.where.source}:{self.where.line}:{self.where.column}: {told}"

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "move": self.move,
            "player": self.player,
            "command": self.command,
            "message": self.message,
        }


@dataclass(frozen=True)
class RefusedMove(MoveFailure):
    """A move the script expects refused (``refused:`` beside it), and refused: it changed nothing and
    the run went on. ``after``: how many of the run's events came before it, where an account tells it."""

    after: int = 0


@dataclass
class HandReport:
    number: int
    finished: bool
    winner: str | None
    kalooki: bool
    hand_points: dict[str, int]
    scores: dict[str, int]
    end: str | None = None
    dealer: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "number": self.number,
            "dealer": self.dealer,
            "finished": self.finished,
            "winner": self.winner,
            "kalooki": self.kalooki,
            "hand_points": self.hand_points,
            "scores": self.scores,
        }
        # Why a hand ended without a winner: "stock_exhausted", "blocked", "turn_limit"...
        if self.end is not None and self.end != "went_out":
            data["end"] = self.end
        return data


@dataclass
class ScriptRun:
    """What playing a script did: the hands, the totals, and the first illegal move if any."""

    variant: str
    players: list[str]
    hands: list[HandReport] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    game_over: bool = False
    game_winner: str | list[str] | None = None
    eliminated: list[str] = field(default_factory=list)
    error: MoveFailure | None = None
    events: list[Event] = field(default_factory=list)
    seed: int | None = None
    """The script's seed (None: the cards it does not place were shuffled at random)."""
    faults: list[BotFault] = field(default_factory=list)
    """The bots that raised or chose what is no action (their moves replaced by safe ones), once each."""
    refused: list[RefusedMove] = field(default_factory=list)
    """The moves refused as the script expects, in order."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "variant": self.variant,
            "players": self.players,
            "seed": self.seed,
            "hands": [hand.to_json() for hand in self.hands],
            "totals": self.totals,
            "game_over": self.game_over,
            "game_winner": self.game_winner,
            "eliminated": self.eliminated,
        }
        # Only where the script expects a refusal: the JSON of every other script is as it was.
        if self.refused:
            data["refused"] = [move.to_json() for move in self.refused]
        if self.error is not None:
            data["error"] = self.error.to_json()
        return data


EventSink = Callable[[Game, list[Event]], None]


def run_script(script: LoadedScript, on_events: EventSink | None = None) -> ScriptRun:
    """Play a checked script to its end (or its first illegal move); pure, no I/O.

    Bots play their own turns between the script's moves. When a hand's moves run out
    before it ends, the bots play on while it is a bot's turn; at a scripted player's
    turn the run stops and reports the hand unfinished. With every seat a bot, the game
    is played to its end beyond the hands the script lists.
    """
    # None or the script's text was an AttributeError ('NoneType' object has no attribute 'variant'); an
    # on_events of 5 a TypeError once the first events came.
    if not isinstance(script, LoadedScript):
        said = f"run_script plays a LoadedScript (load_script gives one), not {clipped_repr(script)}"
        raise not_given("", said)
    if on_events is not None and not callable(on_events):
        raise not_given("", f"on_events must be a function of (game, events), not {clipped_repr(on_events)}")
    run = ScriptRun(variant=script.variant.name, players=list(script.players), seed=script.seed)

    def emit(game: Game, events: list[Event]) -> None:
        run.events.extend(events)
        if on_events is not None and events:
            on_events(game, events)

    def note_refusal(move: ScriptMove, message: str) -> None:
        where = move.where
        run.refused.append(
            RefusedMove(move.hand, move.number, move.player, move.command, message, where, len(run.events))
        )

    bots: dict[int, Bot] = {
        seat: make_bot(name, random.Random(f"{script.seed}/{seat}")) for seat, name in script.bots.items()
    }
    all_bots = len(bots) == len(script.players)
    faults = BotFaults(found=run.faults)
    try:
        game = Game(
            script.variant, script.players, seed=script.seed, deal=script.deals[0] if script.deals else None
        )
    except SetupError as error:
        where = script.players_place or Location(script.source, key="players")
        raise ScriptError([where.error(str(error))]) from None
    except (DealError, IllegalMoveError) as error:
        raise _deal_refused(script, 0, error) from None
    emit(game, game.opening_events)
    hand_index = 0
    while True:
        moves = script.moves[hand_index] if hand_index < len(script.moves) else ()
        failure = _play_hand(game, moves, bots, emit, note_refusal, faults)
        if failure is not None:
            run.error = failure
            break
        if game.phase in ("draw", "play"):
            break  # a scripted player's turn with no move left
        hand_index += 1
        if game.game_over:
            run.error = _after_the_game(script, hand_index, game.results[-1].number, note_refusal)
            break
        if hand_index >= len(script.deals) and not all_bots:
            break
        if hand_index >= len(script.deals) and game.results[-1].end == "turn_limit":
            break  # bots alone that cannot finish a hand would not finish the next one either
        if hand_index >= MAX_BOT_HANDS:
            break
        deal = script.deals[hand_index] if hand_index < len(script.deals) else None
        try:
            emit(game, game.next_hand(deal))
        except (DealError, IllegalMoveError) as error:
            raise _deal_refused(script, hand_index, error) from None
    _report(game, run)
    return run


def _after_the_game(
    script: LoadedScript, hand_index: int, last: int, note_refusal: Callable[[ScriptMove, str], None]
) -> MoveFailure | None:
    """The first hand the script writes, from ``hand_index`` on, after the game ended with hand ``last``:
    it is never played, which said nothing before (a goal reached sooner than the writer thought). Told
    at its first move (a move the script expects refused so is noted, and the next looked at), or at its
    deal where it has no moves; an empty hand (``- {}``) is passed over."""
    told = f"the game is already over: it ended with hand {last}"
    for index in range(hand_index, max(len(script.moves), len(script.deals))):
        moves = script.moves[index] if index < len(script.moves) else ()
        for move in moves:  # each refused, as a scenario may expect
            failure = _unless_expected(move, told, note_refusal)
            if failure is not None:
                return failure
        if moves:
            continue
        if index < len(script.deals) and script.deals[index] is not None:
            where = script.deal_places[index] if index < len(script.deal_places) else None
            return MoveFailure(index + 1, 0, "", "deal", f"{told}, so this deal is never dealt", where)
    return None


def _deal_refused(script: LoadedScript, hand_index: int, error: KalookiError) -> ScriptError:
    """The engine's refusal of a hand's deal, at the place the script writes that deal."""
    if hand_index < len(script.deal_places):
        where = script.deal_places[hand_index]
    else:
        where = Location(script.source, key=f"hands[{hand_index}].deal")
    return ScriptError([where.error(str(error))])


def _play_hand(
    game: Game,
    moves: Sequence[ScriptMove],
    bots: dict[int, Bot],
    emit: Callable[[Game, list[Event]], None],
    note_refusal: Callable[[ScriptMove, str], None],
    faults: BotFaults,
) -> MoveFailure | None:
    for move in moves:
        if game.seat_of(move.player) in bots:
            return _failure(move, _a_bots_seat(game, move.player, bots))
        while game.phase in ("draw", "play") and game.current in bots:
            emit(game, play_turn(game, bots[game.current], faults))
        if game.phase not in ("draw", "play"):
            # No move once the hand has ended: a refusal a scenario may expect, as the engine's.
            failure = _unless_expected(move, f"hand {game.hand_number} is already over", note_refusal)
            if failure is not None:
                return failure
            continue
        try:
            events = game.apply(move.action, game.seat_of(move.player))
        except KalookiError as error:
            failure = _unless_expected(move, str(error), note_refusal)
            if failure is not None:
                return failure
            continue  # as expected: the move changed nothing, and the script goes on
        emit(game, events)
        if move.refused is not None:
            expected = f" ('{clipped(move.refused)}')" if move.refused else ""
            return _failure(move, f"the script expects this move refused{expected}, but it was played")
    while game.phase in ("draw", "play") and game.current in bots:
        emit(game, play_turn(game, bots[game.current], faults))
    return None


def _unless_expected(
    move: ScriptMove, message: str, note_refusal: Callable[[ScriptMove, str], None]
) -> MoveFailure | None:
    """A move refused with ``message``: None where the script expects that refusal (noted), else the
    failure that stops the run."""
    if move.refused is None:
        return _failure(move, message)
    if not _holds(message, move.refused):
        words = clipped(move.refused)
        return _failure(move, f"refused, but not as the script expects ('{words}' is not in it): {message}")
    note_refusal(move, message)
    return None


def _holds(message: str, words: str) -> bool:
    """Whether a refusal's ``message`` holds ``words``, in any case and however spaced (a script's
    words are often copied from a refusal that wrapped on the screen)."""
    return " ".join(words.casefold().split()) in " ".join(message.casefold().split())


def _a_bots_seat(game: Game, player: str, bots: dict[int, Bot]) -> str:
    """A move given to a seat a bot plays: it was tried at whoever's turn it was after the bot's and
    refused as "it is ann's turn, not bob's", which does not say why."""
    scripted = [name for seat, name in enumerate(game.players) if seat not in bots]
    players = (
        f"the players it plays ({', '.join(scripted)})" if scripted else "no one (every seat is a bot's)"
    )
    return (
        f"{player}'s seat is played by a bot, which takes its own turns: the script gives moves to {players}"
    )


def _failure(move: ScriptMove, message: str) -> MoveFailure:
    return MoveFailure(move.hand, move.number, move.player, move.command, message, move.where)


def _report(game: Game, run: ScriptRun) -> None:
    names = game.players
    for result in game.results:
        run.hands.append(
            HandReport(
                number=result.number,
                finished=result.end not in ("abandoned", "turn_limit"),
                winner=None if result.winner is None else names[result.winner],
                kalooki=result.kalooki,
                hand_points={names[seat]: result.hand_points[seat] for seat in result.seats},
                scores={names[seat]: result.scores[seat] for seat in result.seats},
                end=result.end,
                dealer=None if result.dealer is None else names[result.dealer],
            )
        )
    if game.phase in ("draw", "play"):
        seats = game.seats
        run.hands.append(
            HandReport(
                number=game.hand_number,
                finished=False,
                winner=None,
                kalooki=False,
                hand_points={names[seat]: game.hand_value(seat) for seat in seats},
                scores={names[seat]: 0 for seat in seats},
                dealer=names[game.dealer],
            )
        )
    run.totals = dict(zip(names, game.totals, strict=True))
    run.game_over = game.game_over
    if game.game_over:
        winners = [names[seat] for seat in game.winners]
        run.game_winner = winners[0] if len(winners) == 1 else winners
    run.eliminated = [names[seat] for seat in range(len(names)) if game.eliminated[seat]]
