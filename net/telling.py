"""What every seat of a hosted table is told: each change of the game as a state from the seat's own view
(:mod:`kalooki_net.view`), who came or went, who is ready between hands, and what a seat away missed,
told when its player is back.

The :class:`~kalooki_net.server.TableServer` owns the connections; a :class:`Telling` writes what goes to
each through it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kalooki.engine import Event
from kalooki.events import DealEvent, DrawEvent, ReshuffleEvent, StockOutEvent

from .protocol import presence_line
from .seat_connection import Client
from .view import seat_events, seat_view

if TYPE_CHECKING:
    from .server import TableServer


class Telling:
    """What the seats of one :class:`~kalooki_net.server.TableServer` are told."""

    def __init__(self, server: TableServer) -> None:
        self.server = server
        self.changes = 0
        """The changes of the game so far: each is told to every seat (:meth:`broadcast_state`)."""
        self.told_readiness: tuple[list[int], list[int]] | None = None
        """Between hands, who was ready and whom the deal waited for, as last told to every seat."""
        self.missed: dict[int, list[Event]] = {}
        """Per seat with no connection: this hand's events since it went, told to its player back."""
        self.words_failed = False
        """The advisor failed once: said on the host's terminal the first time only."""

    def presence(
        self,
        seat: int,
        status: str,
        name: str | None = None,
        *,
        free: bool = False,
        also: Client | None = None,
    ) -> None:
        """Tell every seat (and ``also``, a connection that has just left its seat) who came or went."""
        if self.server.closing:
            # Everyone is told the table closes; "ann dropped out: the table waits for them" would say
            # the opposite, on the host's terminal as the connections go.
            return
        table = self.server.table
        name = name or table.seats[seat].name or "?"
        game = table.game
        if status == "left" and game is not None and game.game_over:
            free = True  # the game is over: nobody waits for them, they left (to every page and terminal)
        message: dict[str, Any] = {"type": "presence", "seat": seat, "name": name, "status": status}
        if free:
            message["free"] = True
        self.server.broadcast(message)
        if also is not None:
            also.send(message)
        self.server.on_change(presence_line(name, status, free=free))
        playing = game is not None and game.phase in ("draw", "play") and game.current == seat
        if status in ("left", "back") and playing:
            self.tell_whose_turn(seat)

    def tell_whose_turn(self, seat: int) -> None:
        """The player whose turn it is left or came back: a state (with no events) to every other coach
        connection, whose status line says so in the table's words. The page kept saying "bob is away: the
        table waits for them" while bob, back, played his turn, and "bob is playing." once he had gone. A
        terminal prints the presence line and has no such status standing on its screen."""
        if self.server.advisor is None:
            return  # no words to mend
        for other, client in list(self.server.by_seat.items()):
            if other != seat and client.coach:
                client.send(self.state_message(other, [], coach=True))

    def state_message(self, seat: int, events: Sequence[Event], *, coach: bool = False) -> dict[str, Any]:
        table, advisor = self.server.table, self.server.advisor
        game = table.require_game()
        view = seat_view(game, seat)
        seen = seat_events(events, game, seat)
        message: dict[str, Any] = {
            "type": "state",
            "view": view,
            "events": [event.to_json() for event in seen],
            "stand_ins": {
                str(index): state.bot
                for index, state in enumerate(table.seats)
                if state.kind == "human" and table.stand_in(index)
            },
        }
        readiness = table.readiness()
        if readiness is not None:
            message["ready"], message["waiting_for"] = readiness
        if coach and advisor is not None:
            bots = {index: state.bot for index, state in enumerate(table.seats) if state.kind == "bot"}
            away = {
                index: state.bot if table.stand_in(index) else None
                for index, state in enumerate(table.seats)
                if state.kind == "human" and not state.connected and index != seat
            }
            # The words are an extra: should they fail, the state still goes out, as to a terminal. Any
            # failure: an exception here would stop this broadcast halfway, or the task driving the bots.
            try:
                message["coach"] = advisor.coach(view, seen, table.variant, bots, away)
            except Exception as failure:  # the advisor is the hosting program's own code
                if not self.words_failed:
                    self.words_failed = True
                    self.server.on_change(
                        f"The table's words failed (states go out without them): {failure!r}"
                    )
        return message

    def broadcast_state(self, events: Sequence[Event], *, taken_back: int | None = None) -> None:
        table, by_seat = self.server.table, self.server.by_seat
        self.changes += 1
        self.told_readiness = table.readiness()
        deals = [index for index, event in enumerate(events) if isinstance(event, DealEvent)]
        for seat, state in enumerate(table.seats):
            if state.kind == "human" and seat not in by_seat:
                kept = self.missed.setdefault(seat, [])
                if deals:
                    kept.clear()  # a new hand: the last one's result is told between hands
                kept.extend(events[deals[-1] if deals else 0 :])
        for seat, client in list(by_seat.items()):
            message = self.state_message(seat, events, coach=client.coach)
            if taken_back is not None:
                message["taken_back"] = taken_back
            client.send(message)

    def forget_taken_back(self) -> None:
        """An undo: the turn's melds, builds and swaps (the events since its draw) are gone from what the
        seats away will be told, which would otherwise tell them as played."""
        for kept in self.missed.values():
            draws = [index for index, event in enumerate(kept) if isinstance(event, DrawEvent)]
            # No draw kept: the seat went during this turn, after its draw, so all it missed is taken back.
            start = draws[-1] + 1 if draws else 0
            # The draw's own events stand with it: the stock it emptied was refilled, or ran out.
            while start < len(kept) and isinstance(kept[start], ReshuffleEvent | StockOutEvent):
                start += 1
            del kept[start:]

    def tell_readiness(self, *, skip: int | None = None) -> None:
        """Between hands, a state (with no events) to every seat but ``skip`` when who is ready has changed.

        Only a change is told: a ready sent 30 times a second would otherwise redraw every seat's words
        30 times a second. When the deal waits for no one, its own state follows and says it all.
        """
        table = self.server.table
        if table.game is None:
            return
        readiness = table.readiness()
        if readiness is None or readiness == self.told_readiness or not readiness[1]:
            return
        self.told_readiness = readiness
        for seat, client in list(self.server.by_seat.items()):
            if seat != skip:
                client.send(self.state_message(seat, [], coach=client.coach))
