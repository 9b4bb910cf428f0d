"""The host's network side: one WebSocket server (``websockets``, asyncio) in front of a :class:`Table`.

Each connection has its own outbox and sender task (:mod:`kalooki_net.seat_connection`), so a
client that reads slowly (or never) only fills its own queue: when that queue is full, or one send
has waited ``SEND_TIMEOUT`` seconds, that connection is closed and everyone else plays on. Every
message is read under :data:`~kalooki_net.protocol.MAX_MESSAGE_BYTES` (``websockets`` closes
the connection with code 1009 above it) and a rate limit (``RateLimit``); a message that
cannot be read, or is not allowed for that connection, gets an ``error`` message back and
changes nothing.

HTTP: every request goes through :class:`~kalooki_net.http_gate.HttpGate` first: the browser page,
or a refusal (another site's upgrade, a name the table does not go by).

A ``join`` is checked and seated, and a seat left, by :class:`~kalooki_net.seating.Seating`; what each
seat is told of the game, by :class:`~kalooki_net.telling.Telling`; the host's ``drop`` and ``remove``
by :class:`~kalooki_net.host_commands.HostCommands`.

A connection that joins with ``coach`` (the page) also gets the table's own words with each
state, and answers to ``hint`` and ``rules``, from the :class:`~kalooki_net.advice.Advisor`
the host program gives; each is computed from the seat's own view only.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from kalooki.text import escape_controls

from .admission import Admission, WrongTries, client_address, counted_connections
from .advice import Advisor
from .bot_turns import BOT_TURN_SECONDS, BotTurns
from .forwarded import TrustedProxies
from .host_commands import HostCommands
from .host_names import AllowedHosts
from .http_gate import HttpGate
from .listening import EVERY_ADDRESS, every_address_socket, everywhere_v4
from .protocol import (
    MAX_MESSAGE_BYTES,
    AskHint,
    AskRules,
    ClientMessages,
    Join,
    Leave,
    Move,
    ProtocolError,
    Say,
    Start,
    Undo,
    error,
    parse_client_message,
)
from .seat_connection import BURST, JOIN_TIMEOUT, OUTBOX, RATE, SEND_TIMEOUT, VOLUME, Client, RateLimit
from .seating import Seating
from .table import Table, TableError, game_over_said
from .telling import Telling
from .view import seat_view

MAX_REFUSED_FLOOD = 100
"""Messages refused for flooding before the connection is closed."""
PING_SECONDS = 10.0
"""Between the pings the host sends each connection, and how long it waits for the answer: a connection
that stopped answering (its computer asleep, its process stopped) is let go within two of these."""


class TableServer:
    """Serves one table: joins, moves, chat; drives the bots; tells every seat what it may see."""

    def __init__(
        self,
        table: Table,
        *,
        bot_pause: float = 0.0,
        bot_seconds: float = BOT_TURN_SECONDS,
        on_change: Callable[[str], None] | None = None,
        on_bot_fault: Callable[[str], None] | None = None,
        rate: float = RATE,
        volume: float = VOLUME,
        burst: float = BURST,
        outbox: int = OUTBOX,
        send_timeout: float = SEND_TIMEOUT,
        join_timeout: float = JOIN_TIMEOUT,
        ping_seconds: float = PING_SECONDS,
        advisor: Advisor | None = None,
        admission: Admission | None = None,
        wrong_tries: WrongTries | None = None,
        trusted_proxies: TrustedProxies | None = None,
        allowed_hosts: AllowedHosts | None = None,
    ) -> None:
        self.table = table
        self.ping_seconds = ping_seconds
        self.admission = admission or Admission()
        """The connections open by address: a flood of them is closed before it uses up the host's files."""
        self.wrong_tries = wrong_tries or WrongTries()
        """The wrong codes and tokens by address: a guesser's joins are refused for a while."""
        self.trusted_proxies = trusted_proxies or TrustedProxies()
        """The proxies whose forwarding headers name the client a connection counts as (none by default)."""
        self.gate = HttpGate(allowed_hosts or AllowedHosts(), lambda line: self.on_change(line))
        """What the port answers over plain HTTP: the page, or why not."""
        self.advisor = advisor
        self.rate, self.burst = rate, burst
        self.volume = volume
        """Characters of messages a second a connection may send (:data:`VOLUME`)."""
        self.outbox, self.send_timeout = outbox, send_timeout
        self.join_timeout = join_timeout
        self.bot_pause = bot_pause
        self.bot_turns = BotTurns(bot_seconds)
        self.on_change = on_change or (lambda line: None)
        self.on_bot_fault = on_bot_fault or self.on_change
        """Hears a bot's fault (else ``on_change`` does): a host seated at its own table is told it too."""
        self.clients: set[Client] = set()
        self.by_seat: dict[int, Client] = {}
        self.changed = asyncio.Event()
        self.server: Server | None = None
        self.finished = asyncio.Event()
        self.announced: set[int] = set()
        """Seats whose player is away and played by a bot, once that has been said."""
        self.last_hint: tuple[tuple[int, int], dict[str, Any]] | None = None
        """The last hint given, for which seat after how many changes."""
        self.hint_failed = False
        """A hint failed once: said on the host's terminal the first time only."""
        self.closing = False
        """The table is closing (:meth:`close`): the connections it closes are no players dropping out."""
        self.seating = Seating(self)
        """Joins (checked, then seated and welcomed) and leavings."""
        self.telling = Telling(self)
        """What every seat is told of the game, who came or went and who is ready; what a seat away missed."""
        self.host_commands = HostCommands(self)
        """The host's drop and remove, typed at its terminal."""

    # ------------------------------------------------------------ serving

    async def start(self, host: str, port: int) -> Server:
        listener = every_address_socket(port) if host in EVERY_ADDRESS else None
        where: dict[str, Any] = (
            {"sock": listener} if listener else {"host": everywhere_v4(host), "port": port}
        )
        self.server = await serve(
            self.handle,
            **where,
            max_size=MAX_MESSAGE_BYTES,
            max_queue=16,
            process_request=self.gate.process_request,
            ping_interval=self.ping_seconds,
            ping_timeout=self.ping_seconds,
            close_timeout=2,
            compression=None,
            create_connection=counted_connections(self.admission, self.trusted_proxies),
        )
        return self.server

    @property
    def port(self) -> int:
        assert self.server is not None
        return int(self.server.sockets[0].getsockname()[1])

    async def handle(self, websocket: ServerConnection) -> None:
        limit = RateLimit(self.rate, self.burst, self.burst)
        address = client_address(websocket, self.trusted_proxies)
        client = Client(websocket, limit, self.outbox, self.send_timeout, address=address, volume=self.volume)
        self.clients.add(client)
        try:
            # A connection with no seat, new or after a leave, is held to the join timeout each time: one
            # that left and stayed open was held to nothing, a connection of the host's for good.
            while True:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self.join_timeout):
                        while client.seat is None:
                            if not await self.receive(client):
                                return
                if client.seat is None:
                    await websocket.close(1008, f"join within {self.join_timeout:g} seconds")
                    return
                while client.seat is not None:
                    if not await self.receive(client):
                        return
        finally:
            self.clients.discard(client)
            client.sender.cancel()
            if client.seat is not None and self.by_seat.get(client.seat) is client:
                del self.by_seat[client.seat]
                self.seating.seat_left(client.seat)

    async def receive(self, client: Client) -> bool:
        """Read and handle one message; False once the connection has closed."""
        try:
            text = await client.websocket.recv()
        except ConnectionClosed:
            return False
        now = time.monotonic()
        refusal = None
        if not client.limit.allow(now):
            refusal = f"too many messages: at most {self.rate:g} a second"
        elif not client.volume.allow(now, len(text)):
            # Read first, each message costs by its length: long ones are held to their own rate.
            refusal = f"too much sent: at most {self.volume:,.0f} characters of messages a second"
        if refusal is not None:
            client.flooded += 1
            client.send(error("rate_limited", refusal))
            if client.flooded >= MAX_REFUSED_FLOOD:
                # Once the replies waiting for it are sent: closed at once, the close went out ahead of them,
                # and a flood of 300 was told nothing of why.
                await client.close_when_sent(1008, "too many messages")
                return False
            return True
        try:
            message = parse_client_message(text)
            self.dispatch(client, message)
        except ProtocolError as problem:
            client.send(error(problem.code, problem.message))
        except TableError as problem:
            client.send(error(problem.code, str(problem), problem.commands))
            if problem.code in ("bad_code", "bad_token", "too_many_tries") and client.seat is None:
                if problem.code != "too_many_tries" and (held_off := self.wrong_tries.wrong(client.address)):
                    self.on_change(held_off)
                # One guess per connection: guessing a code or a token costs a new connection each time.
                await asyncio.sleep(0.5)
                await client.websocket.close(1008, problem.code)
                return False
        return True

    # ------------------------------------------------------------ messages

    def dispatch(self, client: Client, message: ClientMessages) -> None:
        if isinstance(message, Join):
            self.seating.join(client, message)
            return
        seat = client.seat
        if seat is None:
            raise TableError("not_joined", "join the table first (a join message with the code)")
        if isinstance(message, Leave):
            # As a dropped connection, but for good: before the game the seat is free again at once.
            del self.by_seat[seat]
            client.seat = None
            self.seating.seat_left(seat, for_good=True, leaver=client)
            return
        if isinstance(message, Say):
            name = self.table.seats[seat].name or "?"
            # Spelled out here, once for every client: a page shows a control character as a box, and a
            # right-to-left override turned the rest of the line round ("evil" read "live"), where the
            # terminals showed them spelled out.
            text = escape_controls(message.text)
            self.broadcast({"type": "said", "seat": seat, "name": name, "text": text})
            self.on_change(f"{name}: {text}")
            return
        if isinstance(message, Start):
            if not self.table.seats[seat].host:
                raise TableError("not_host", "only the host starts the game")
            self.start_game()
            return
        if isinstance(message, AskRules):
            client.send(self.require_advisor().rulebook(self.table.variant))
            return
        if message.seat is not None and message.seat != seat:
            # Numbered from 1 in words, as every screen numbers the seats (the seat field is the index).
            mine, asked = seat + 1, message.seat + 1
            raise TableError("wrong_seat", f"you sit at seat {mine}: you cannot act for seat {asked}")
        if isinstance(message, AskHint):
            self.hint(client, seat)
            return
        taken_back: int | None = None
        if isinstance(message, Move):
            events = self.table.move(seat, message.move)
        elif isinstance(message, Undo):
            self.table.undo(seat)
            self.telling.forget_taken_back()
            # No event undoes the melds the others were told of: the state says whose they were.
            events, taken_back = [], seat
            self.on_change(f"{self.table.seats[seat].name or '?'} took back this turn's melds")
        else:
            events = self.table.ready(seat)
            if not events:
                # Not everyone is ready: the others hear who is, once (tell_readiness).
                self.telling.tell_readiness()
                return
        self.telling.broadcast_state(events, taken_back=taken_back)
        self.changed.set()

    def require_advisor(self) -> Advisor:
        if self.advisor is None:
            raise TableError("not_offered", "this table does not give hints or the rulebook")
        return self.advisor

    def hint(self, client: Client, seat: int) -> None:
        advisor = self.require_advisor()
        game = self.table.require_turn(seat, "a hint is for your own turn")
        told = (seat, self.telling.changes)
        if self.last_hint is None or self.last_hint[0] != told:
            # The search is the bot's, up to a tenth of a second on the largest tables: asked again and
            # again in one position (30 times a second at most), it is worked out once.
            try:
                self.last_hint = (told, advisor.suggestion(seat_view(game, seat), self.table.variant))
            except Exception as failure:  # the advisor is the hosting program's own code, as the words are
                # Told once to the host; the player is refused, their connection and the game go on.
                if not self.hint_failed:
                    self.hint_failed = True
                    self.on_change(f"A hint failed (hints are refused where they fail): {failure!r}")
                raise TableError(
                    "not_offered", "no hint could be worked out here; play on without one"
                ) from None
        client.send(self.last_hint[1])

    def start_game(self) -> None:
        events = self.table.start()
        self.on_change("The game starts.")
        self.send_lobby()
        self.telling.broadcast_state(events)
        self.changed.set()

    def drop(self, name: str) -> str:
        """The host's ``drop NAME``: the line for the host's terminal (:meth:`HostCommands.drop`)."""
        return self.host_commands.drop(name)

    def remove(self, name: str) -> str:
        """The host's ``remove NAME``: the line for the host's terminal (:meth:`HostCommands.remove`)."""
        return self.host_commands.remove(name)

    # ------------------------------------------------------------ telling the seats

    def broadcast(self, message: dict[str, Any]) -> None:
        for client in list(self.by_seat.values()):
            client.send(message)

    def send_lobby(self) -> None:
        self.broadcast(self.table.lobby())

    # ------------------------------------------------------------ the game's own pace

    async def drive(self) -> None:
        """Play the bots' turns (and the absent players' after the wait) until the game is over, or the
        table closes: its save, said to be the game's, is not changed after that."""
        while not self.closing:
            game = self.table.game
            if game is not None and game.game_over:
                over = game_over_said(game)
                self.on_change(f"{over[0].upper()}{over[1:]}.")
                self.finished.set()
                return
            delay = self.next_wait()
            if delay is None:
                self.changed.clear()
                await self.changed.wait()
                continue
            if delay > 0:
                self.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), delay)
                continue
            await self.step()
            await asyncio.sleep(self.bot_pause)

    def next_wait(self) -> float | None:
        """Seconds until the table has something to do by itself (0: now; None: only when told)."""
        table, game = self.table, self.table.game
        if game is None:
            return table.lobby_seat_free_in()
        if game.phase == "hand_over":
            return None if table.waiting_for_ready() else 0.0
        seat = table.seats[game.current]
        if table.stand_in(game.current):
            return 0.0
        if seat.connected or seat.away_since is None:
            return None
        return max(0.0, seat.away_since + table.wait_seconds - table.clock())

    async def step(self) -> None:
        if self.table.game is None:
            # A seat dropped before the game, not taken back within the wait: open for someone else, and
            # every seat told so as of a seat left on purpose (the lobby alone showed it, and no log said it).
            for seat, name in self.table.free_lobby_seats():
                self.telling.presence(seat, "left", name, free=True)
            self.send_lobby()
            return
        game = self.table.require_game()
        if game.phase == "hand_over":
            self.telling.broadcast_state(self.table.deal_if_ready())
            return
        seat = game.current
        state = self.table.seats[seat]
        if state.kind == "human" and seat not in self.announced:
            self.telling.presence(seat, "bot_playing")
            self.announced.add(seat)
        told = len(self.table.bot_faults.found)
        # Off the loop: a bot that takes its time holds up no one's pings, moves or talk meanwhile.
        events = await self.bot_turns.play(self.table, closing=lambda: self.closing)
        if events is not None:  # else the game moved meanwhile (the seat's player back): nothing of it stands
            self.telling.broadcast_state(events)
        for fault in self.table.bot_faults.found[told:]:
            self.on_bot_fault(str(fault))

    async def close(self, reason: str) -> None:
        self.closing = True
        self.bot_turns.stop()
        self.changed.set()  # the game's pace waits on it: it ends now
        for client in list(self.clients):
            client.send({"type": "closing", "reason": reason})
        await asyncio.sleep(0.05)
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


__all__ = ["BURST", "OUTBOX", "RATE", "SEND_TIMEOUT", "Client", "RateLimit", "TableServer"]
