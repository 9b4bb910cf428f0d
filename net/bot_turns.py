"""A bot's turn at a hosted table, played off the server's loop.

A bot's ``choose`` may take its time: a plug-in's long search, or one that waits on something. Played
on the server's asyncio loop, that time held up everything the loop does, the pings of every connection
among them, and the players' own programs let go of a table that answers no ping (``kalooki join``
after 20 seconds). So the turn is played on a copy of the game, in a thread of its own, and the table
takes it only if its game has not moved meanwhile and the seat is still a bot's to play: its player,
back during the bot's turn, may have played it themselves.

A bot that never answers would hold the game for ever, so a turn is waited for a while only
(:data:`BOT_TURN_SECONDS`, ``kalooki host --bot-time``): then safe moves play it (draw from the stock,
discard the costliest card), as they replace a move a bot gets wrong, and the bot's fault is told. Until
that bot answers, its seat's turns are played so; its late answer is not taken (the game has moved on).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from kalooki.bots import Bot
from kalooki.driver import BotFaults, bot_fault, play_turn, safe_turn
from kalooki.engine import Event, Game

from .table import Table


@dataclass
class BotTurn:
    """The current seat's turn by its bot (or stand-in), played on a copy of the table's game."""

    seat: int
    before: dict[str, Any]
    """The game as it stood when the turn began (:meth:`Game.to_json`)."""
    game: Game
    """The copy the bot plays on."""
    bot: Bot
    rng_state: Any
    """The bot's random state before the turn: a turn the table does not take leaves it as it was."""
    faults: BotFaults = field(default_factory=BotFaults)
    events: list[Event] = field(default_factory=list)

    @classmethod
    def begin(cls, table: Table) -> BotTurn:
        game = table.require_game()
        before = game.to_json()
        seat = game.current
        return cls(seat, before, Game.from_json(before), table.bots[seat], table.rngs[seat].getstate())

    def play(self) -> None:
        """The turn, on the copy (in the bot's thread: nothing here touches the table)."""
        self.events = play_turn(self.game, self.bot, self.faults)

    def stands(self, table: Table) -> bool:
        """Whether the table takes the turn: its game is as it was, and the seat still a bot's to play."""
        game = table.game
        return (
            game is not None
            and game.current == self.seat
            and table.stand_in(self.seat)
            and game.to_json() == self.before
        )

    async def play_off_loop(self) -> None:
        """Play the turn in a thread of its own, the loop free meanwhile."""
        await in_a_thread(self.play)

    def finish(self, table: Table, *, wanted: bool = True) -> list[Event] | None:
        """Give the turn played to ``table``: its events, or None where it does not stand or is not
        ``wanted`` (the table is closing, its save told the host already): then nothing of it is kept, the
        bot's random state neither. The bot's faults are told either way."""
        for fault in self.faults.found:
            table.bot_faults.record(fault)
        if not (wanted and self.stands(table)):
            table.rngs[self.seat].setstate(self.rng_state)
            return None
        table.take_turn(self.game, self.events)
        return self.events


BOT_TURN_SECONDS = 60.0
"""How long a bot's turn at a hosted table is waited for before safe moves play it (--bot-time)."""


class BotTurns:
    """A table's bot turns, each played off the loop and waited for ``limit`` seconds at most."""

    def __init__(self, limit: float = BOT_TURN_SECONDS) -> None:
        self.limit = limit
        self.late: dict[int, asyncio.Future[None]] = {}
        """Per seat whose bot has not answered a turn the table stopped waiting for: that turn's thread."""

    async def play(self, table: Table, *, closing: Callable[[], bool]) -> list[Event] | None:
        """The current seat's turn by its bot, or by safe moves where the bot is late: its events, or None
        where the turn played does not stand (see :meth:`BotTurn.finish`)."""
        if closing():  # the host has said the game is saved: no turn is played behind its back
            return None
        seat = table.require_game().current
        if seat in self.late:  # its bot has not answered an earlier turn yet: it is not asked again
            return self._safe_turn(table)
        turn = BotTurn.begin(table)
        playing = asyncio.ensure_future(turn.play_off_loop())
        try:
            done, _ = await asyncio.wait({playing}, timeout=self.limit)
        except asyncio.CancelledError:  # the table is closing: its turn is not waited for either
            playing.cancel()
            raise
        if not done:
            game = table.require_game()
            late = f"took more than {self.limit:g} s over a turn (kalooki host --bot-time)"
            table.bot_faults.record(bot_fault(turn.bot, game, seat, late))
            self.late[seat] = playing
            playing.add_done_callback(partial(self._answered, table, turn))
            # Not where the game moved meanwhile: the seat's player, back, may be halfway through the turn.
            return None if closing() or not turn.stands(table) else self._safe_turn(table)
        playing.result()  # the engine's own failure, raised here
        return turn.finish(table, wanted=not closing())

    def stop(self) -> None:
        """The table closes: no late bot's answer is waited for any more (its thread ends with the host)."""
        for playing in list(self.late.values()):
            playing.cancel()

    def _safe_turn(self, table: Table) -> list[Event]:
        game = table.require_game()
        events = safe_turn(game)
        table.take_turn(game, events)
        return events

    def _answered(self, table: Table, turn: BotTurn, playing: asyncio.Future[None]) -> None:
        """A late bot has answered: its turn is not taken (the game has moved on), and it plays again."""
        del self.late[turn.seat]
        if not playing.cancelled():
            playing.exception()  # taken: the engine's failure on a copy no one takes is no one's to hear
        turn.finish(table, wanted=False)


async def in_a_thread(work: Callable[[], None]) -> None:
    """Run ``work`` in a thread of its own and wait for it without holding up the loop. A daemon thread: a
    bot still thinking when the table closes does not hold up the host's exit."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()

    def settle(failure: BaseException | None) -> None:
        if done.done():  # the wait was cancelled: the table is closing
            return
        if failure is None:
            done.set_result(None)
        else:
            done.set_exception(failure)

    def run() -> None:
        failure: BaseException | None = None
        try:
            work()
        except BaseException as error:  # the engine's own failure: raised where the turn was awaited
            failure = error
        with contextlib.suppress(RuntimeError):  # the loop is closed: the table is gone
            loop.call_soon_threadsafe(settle, failure)

    threading.Thread(target=run, daemon=True, name="kalooki-bot-turn").start()
    await done


__all__ = ["BOT_TURN_SECONDS", "BotTurn", "BotTurns", "in_a_thread"]
