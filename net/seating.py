"""Who sits where at a hosted table: a connection's join checked and seated, and a seat left.

A ``join`` is checked in turn: one per connection, the protocol version, the address's hold-off
after wrong guesses (:class:`~kalooki_net.admission.WrongTries`; a seat's token still comes back,
as it cannot be guessed), then the join code; then a name takes a new seat, or a token its own seat
back. The seated connection is welcomed with its token and the rules, and, during a game, told what
it missed while away.

The :class:`~kalooki_net.server.TableServer` owns the connections and tells the seats; a
:class:`Seating` works through it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kalooki.variant import variant_json

from .protocol import PROTOCOL_VERSION, Join
from .seat_connection import Client
from .table import TableError

if TYPE_CHECKING:
    from .server import TableServer


def shared_source(source: str) -> str:
    """The variant's name as the players are told it: a built-in's name, or a file's name without the
    host's folders (``friday.yaml``, not where the host keeps it)."""
    return source.replace("\\", "/").rsplit("/", 1)[-1]


class Seating:
    """Joins and leavings for one :class:`~kalooki_net.server.TableServer`."""

    def __init__(self, server: TableServer) -> None:
        self.server = server

    def join(self, client: Client, message: Join) -> None:
        server, table = self.server, self.server.table
        if client.seat is not None:
            # Numbered from 1 in words, as every screen numbers the seats (a seat field is the index).
            raise TableError("already_joined", f"this connection already sits at seat {client.seat + 1}")
        if message.protocol != PROTOCOL_VERSION:
            raise TableError(
                "protocol_version", f"this table speaks protocol {PROTOCOL_VERSION}, not {message.protocol}"
            )
        held_off = server.wrong_tries.refusal(client.address)
        # A seat's token cannot be guessed: its player comes back even while their address is held off, as
        # everyone's is behind one proxy or home router when someone there guesses at the code.
        if held_off is not None and (message.token is None or table.seat_of_token(message.token) is None):
            raise TableError("too_many_tries", held_off)
        table.check_code(message.code)
        if message.token is not None:
            # Back only from being away: the host's own seat, made before anyone came, joins a first time.
            away = {index for index, state in enumerate(table.seats) if state.away_since is not None}
            seat = table.rejoin(message.token)
            token = message.token
            status = "back" if seat in away else "joined"
        elif message.name is not None:
            seat, token = table.join(message.name)
            status = "joined"
        else:
            raise TableError("bad_message", "join with a name (a new seat) or your token (rejoining)")
        server.announced.discard(seat)
        client.coach = message.coach
        self.seat_client(client, seat, token)
        server.telling.presence(seat, status)
        if table.game is None and all(state.kind != "open" for state in table.seats):
            server.start_game()

    def seat_client(self, client: Client, seat: int, token: str) -> None:
        server, table = self.server, self.server.table
        client.seat = seat
        server.by_seat[seat] = client
        state = table.seats[seat]
        welcome = {
            "type": "welcome",
            "protocol": PROTOCOL_VERSION,
            "seat": seat,
            "name": state.name or "",
            "token": token,
            "host": state.host,
            # As a save writes the rules: a knob added later is left out at its default, so an older
            # client, whose rules do not know it, still reads the welcome of a table that does not use it.
            "variant": variant_json(table.variant),
            "variant_source": shared_source(table.variant_source),
        }
        # Only for a client without the engine (the page): kalooki join has the list itself, and one from
        # before this field reads host messages strictly and would not read a welcome that holds it.
        if client.coach:
            welcome["commands"] = table.commands()
        client.send(welcome)
        server.send_lobby()
        missed = server.telling.missed.pop(seat, [])
        if table.game is not None:
            # Back during a hand: what happened meanwhile (a bot may have played the seat). Between hands
            # the result is the news, as a seat that comes then is shown it.
            playing = table.game.phase in ("draw", "play")
            client.send(server.telling.state_message(seat, missed if playing else [], coach=client.coach))
            server.telling.tell_readiness(skip=seat)  # between hands, the deal may wait for them again
        server.changed.set()

    def seat_left(self, seat: int, *, for_good: bool = False, leaver: Client | None = None) -> None:
        """A seat's connection is gone, or (``leaver``) said it leaves: that one is told as everyone is, so it
        knows its leave was heard and whether its seat is free."""
        server = self.server
        name = server.table.seats[seat].name  # before the game, leaving for good frees the seat
        free = server.table.leave(seat, for_good=for_good)
        server.telling.presence(seat, "left", name, free=free, also=leaver)
        server.send_lobby()
        server.telling.tell_readiness()  # between hands, the deal no longer waits for them
        server.changed.set()


__all__ = ["Seating", "shared_source"]
