"""The host's commands to the players at its table, typed at its terminal: ``drop NAME`` lets a
connection go (the seat waits for its token, as after any drop), ``remove NAME`` removes the player for
good (:meth:`~kalooki_net.table.Table.remove`).

Each answers with the line for the host's terminal: what was done, or why nothing was. The
:class:`~kalooki_net.server.TableServer` owns the connections and tells the seats; a
:class:`HostCommands` works through it.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from kalooki.text import escape_controls, name_key

from .protocol import REMOVED_BY_THE_HOST, error
from .seat_connection import Client
from .table import SeatState

if TYPE_CHECKING:
    from .server import TableServer


class HostCommands:
    """``drop`` and ``remove`` for one :class:`~kalooki_net.server.TableServer`."""

    def __init__(self, server: TableServer) -> None:
        self.server = server

    def drop(self, name: str) -> str:
        """The host drops the connection of the player called ``name``: the seat is away, as after any
        drop (a bot plays it after the wait, and its token takes it back). A player who is there but does
        nothing would otherwise hold the table up for good: the wait counts only for a seat away.

        The line for the host's terminal: what was done, or why nothing was.
        """
        found = self._guest_called(name, "it has no connection to drop")
        if isinstance(found, str):
            return found
        seat, state, client = found
        server = self.server
        if client is None:
            return f"{state.name} is not connected: the table waits for them already"
        wait = f"the table waits {server.table.wait_seconds:g} seconds for"
        told = (
            f"the host dropped your connection: {wait} you, then a bot plays your seat until you join again"
        )
        self._let_go(seat, client, error("dropped", told), "dropped by the host")
        server.seating.seat_left(seat)
        return f"{state.name}'s connection is dropped: {wait} them, then a bot plays their seat"

    def remove(self, name: str) -> str:
        """The host removes the player called ``name`` for good: their token takes the seat no more, which is
        free again before the game and played by its bot to the end in it (:meth:`Table.remove`). A player
        dropped who came back at once and did nothing held the table up again, as often as dropped.

        The line for the host's terminal: what was done, or why nothing was.
        """
        found = self._guest_called(name, "there is no player to remove")
        if isinstance(found, str):
            return found
        seat, state, client = found
        server, table = self.server, self.server.table
        playing = table.game is not None
        table.remove(seat)
        if client is not None:
            told = "the host removed you from the table" + (
                ": a bot plays your seat to the end" if playing else ""
            )
            self._let_go(seat, client, error("removed", told), REMOVED_BY_THE_HOST)
        server.telling.presence(seat, "left", state.name, free=True)
        server.send_lobby()
        if playing:
            # The seat is the bot's now (every screen says so), and the deal may have waited for them alone.
            server.telling.broadcast_state(table.deal_if_ready())
        server.changed.set()
        if not playing:
            return f"{state.name} is removed: their seat is free again"
        return f"{state.name} is removed: {state.bot} plays their seat to the end of the game"

    def _guest_called(self, name: str, if_bot: str) -> tuple[int, SeatState, Client | None] | str:
        """The seat of the guest called ``name``, its state and its connection (None while away), or the line
        saying why there is none to act on (``if_bot`` says why a bot's seat is not acted on)."""
        wanted = name_key(name)
        seats = self.server.table.seats
        # The name as written first: a table resumed from before look-alike names collided may seat both
        # ann and аnn (Cyrillic а).
        seat = next((index for index, state in enumerate(seats) if state.name == name), None)
        if seat is None:
            seat = next(
                (index for index, state in enumerate(seats) if name_key(state.name or "") == wanted), None
            )
        if seat is None:
            return f"no one at the table is called {escape_controls(name)}"
        state = seats[seat]
        if state.host:
            return "that is your own seat: quit closes the table"
        if state.kind == "bot":
            return f"{state.name} is a bot: {if_bot}"
        return seat, state, self.server.by_seat.get(seat)

    def _let_go(self, seat: int, client: Client, told: dict[str, Any], reason: str) -> None:
        """Tell ``client`` why it loses ``seat`` (``told``), and close it once that is sent."""
        del self.server.by_seat[seat]
        client.seat = None  # the connection's own end then leaves no seat behind
        client.send(told)
        client.closer = asyncio.get_running_loop().create_task(client.close_when_sent(1000, reason))


__all__ = ["HostCommands"]
