"""How many connections the table holds open at once, in all and from one address.

Every connection holds one of the files the host process may open. Without a cap, anyone who can
reach the port could open connections faster than the join timeout closes them, until the
process has no file left: no one could join or rejoin, the save could not be written, and the
host's terminal filled with the event loop's tracebacks. So a connection is counted from the
moment it is accepted, before its request is read, and one over a cap is closed at once.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import Counter, deque
from collections.abc import Callable
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.frames import CloseCode, Frame, Opcode
from websockets.protocol import Event, State

from .forwarded import TrustedProxies, lockout_address
from .seat_connection import BURST, RATE, RateLimit

MAX_PER_ADDRESS = 32
"""Connections one address may hold open: a table seats at most eight, each with a page reload or two."""
MAX_CONNECTIONS = 256
"""Connections open at once in all, at most (fewer when the process may open few files)."""
MAX_WRONG_TRIES = 10
"""Wrong join codes or seat tokens one address may send in :data:`WRONG_TRIES_WINDOW`; then its joins wait."""
MAX_UNREAD_BYTES = 1024 * 1024
"""What a connection may leave unread on the host while it still sends (the pongs to its pings); above it,
the connection is cut off."""
UNSEEN_FRAMES = {
    Opcode.PING: "too many pings",
    Opcode.PONG: "too many pings",
    Opcode.CONT: "too many fragments",
}
"""Frames the table's rate limit never sees, each with why a flood of them closes the connection: pings and
pongs, which the library answers or takes by itself, and the pieces of a message sent in fragments (up to
4,096 of them each, counted as one message). Each costs the host as a message does, so a connection may
send them at the messages' rate (:data:`RATE`, bursts of :data:`BURST`) and is closed (1008) past it."""
WRONG_TRIES_WINDOW = 600.0
"""Seconds a wrong try counts against its address."""


def connection_cap() -> int:
    """:data:`MAX_CONNECTIONS`, or a quarter of the files the process may open if that is fewer.

    The rest is left for the save, the log and the event loop (a Mac's default allows 256 files).
    """
    try:
        import resource  # POSIX only
    except ImportError:
        return MAX_CONNECTIONS
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(MAX_PER_ADDRESS // 2, min(MAX_CONNECTIONS, soft // 4))


class Admission:
    """The connections open, by remote address; :meth:`admit` refuses one over either cap."""

    def __init__(self, per_address: int = MAX_PER_ADDRESS, total: int | None = None) -> None:
        self.per_address = per_address
        self.total = connection_cap() if total is None else total
        self.open: Counter[str] = Counter()
        self.count = 0
        self.clients: Counter[str] = Counter()
        """The connections open through a trusted proxy, by the client each request named."""

    def admit(self, address: str, *, proxy: bool = False) -> bool:
        """Count a connection from ``address``; a trusted ``proxy``'s is held to the cap in all only, and to
        the cap per address by its client (:meth:`admit_client`)."""
        if self.count >= self.total or (not proxy and self.open[address] >= self.per_address):
            return False
        self.open[address] += 1
        self.count += 1
        return True

    def admit_client(self, client: str) -> bool:
        if self.clients[client] >= self.per_address:
            return False
        self.clients[client] += 1
        return True

    def release_client(self, client: str) -> None:
        self.clients[client] -= 1
        if self.clients[client] <= 0:
            del self.clients[client]

    def release(self, address: str) -> None:
        self.count -= 1
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


class WrongTries:
    """Wrong join codes and seat tokens, by remote address: a guesser is held off, a person mistyping is not.

    One guess per connection alone bounds nothing: a guesser opens connection after connection, hundreds
    a second. After :data:`MAX_WRONG_TRIES` wrong tries in :data:`WRONG_TRIES_WINDOW` seconds, that
    address's joins are refused, right or wrong, until its oldest try no longer counts: six letters of
    the code would take a guesser thousands of years, and a player who mistypes tries again in minutes.
    """

    def __init__(
        self,
        limit: int = MAX_WRONG_TRIES,
        window: float = WRONG_TRIES_WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit, self.window, self.clock = limit, window, clock
        self.tries: dict[str, deque[float]] = {}

    def held_off(self, address: str) -> float:
        """Seconds until ``address`` may try to join again (0: now)."""
        now = self.clock()
        tries = self.tries.get(address)
        while tries and tries[0] <= now - self.window:
            tries.popleft()
        if not tries:
            self.tries.pop(address, None)
            return 0.0
        return tries[0] + self.window - now if len(tries) >= self.limit else 0.0

    def wrong(self, address: str) -> str | None:
        """Count a wrong try from ``address``; the line for the host's terminal when this try holds it off.

        The line is given once, by the try that crosses the limit: while the address is held off, the wrong
        codes still counted are those sent with a seat's token, whose player is let in to try.
        """
        was_held_off = self.held_off(address) > 0
        now = self.clock()
        tries = self.tries.pop(address, None) or deque(maxlen=self.limit)
        tries.append(now)
        # Put last, the addresses stay in the order of their latest tries: those whose every try is past
        # the window are then the first ones, forgotten here. A guesser with many addresses (IPv6 gives
        # each host millions) would otherwise leave one entry an address for the life of the table.
        self.tries[address] = tries
        while (first := next(iter(self.tries))) != address:
            if self.tries[first] and self.tries[first][-1] > now - self.window:
                break
            del self.tries[first]
        minutes = self.minutes_held_off(address)
        if minutes <= 0 or was_held_off:
            return None
        return (
            f"{len(tries)} wrong join codes or seat tokens from {address}: its joins are held off for "
            f"{_minutes(minutes)}"
        )

    def refusal(self, address: str) -> str | None:
        """What a join from ``address`` is told while it is held off, else None."""
        minutes = self.minutes_held_off(address)
        if minutes <= 0:
            return None
        return f"too many wrong join codes or seat tokens from your address: try again in {_minutes(minutes)}"

    def minutes_held_off(self, address: str) -> int:
        """:meth:`held_off` in whole minutes, rounded up: what the guesser and the host are told."""
        return math.ceil(self.held_off(address) / 60)


def _minutes(count: int) -> str:
    return f"{count} minute{'s' if count != 1 else ''}"


def address_of(connection: ServerConnection) -> str:
    """The remote address a connection was counted as (its IP address, without the port)."""
    counted = getattr(connection, "counted_as", None)
    if counted is not None:
        return str(counted)
    return peer_address(connection.remote_address)


def peer_address(peer: Any) -> str:
    """A socket's peer name (``(host, port, ...)``, or whatever else the transport gives) as its address."""
    return str(peer[0]) if isinstance(peer, tuple) and peer else str(peer)


def counted_address(address: str, *, proxy: bool = False) -> str:
    """What a connection from ``address`` counts against in :data:`MAX_PER_ADDRESS`: an IPv4 address, an
    IPv6 address's /64 (:func:`~kalooki_net.forwarded.lockout_address`), or a trusted proxy's own address.

    An IPv6 host is given a whole /64 and may send from any address in it: counted address by address,
    one host could hold every connection the table has, and no one could join or take a seat back.
    """
    return address if proxy else lockout_address(address)


def client_address(connection: ServerConnection, trusted: TrustedProxies) -> str:
    """What a connection's wrong tries count against (:func:`~kalooki_net.forwarded.lockout_address`): its
    own address, or the client a trusted proxy names in the request's forwarding headers."""
    peer = address_of(connection)
    request = connection.request
    if request is None or not trusted:
        return lockout_address(peer)
    headers = request.headers
    named = trusted.client_address(peer, headers.get_all("X-Forwarded-For"), headers.get_all("Forwarded"))
    return lockout_address(named)


class CountedConnection(ServerConnection):
    """A connection counted by its server's :class:`Admission` while open, or closed at once.

    Behind a trusted proxy, every connection comes from the proxy: there it is counted in all only when
    made, then by the client its request names (:meth:`admit_client`), so that one client's flood through
    the proxy is not everyone's.
    """

    admission: Admission
    trusted: TrustedProxies
    counted_as: str | None = None
    counted_key: str = ""
    """What the connection is counted against in :class:`Admission` (:func:`counted_address`)."""
    client_as: str | None = None
    """Behind a trusted proxy: the client the connection is counted as, once its request is read."""
    unseen_frames: RateLimit
    """The pings, pongs and fragments it sent (:data:`UNSEEN_FRAMES`): a flood of them, each taken by the
    library without the table's rate limit ever seeing it, held every player's moves and talk up for
    seconds."""

    flood_bytes: int | None = None
    """Closed for a flood of :data:`UNSEEN_FRAMES`: the bytes it has sent since."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.unseen_frames = RateLimit(RATE, BURST, BURST)
        address = peer_address(transport.get_extra_info("peername"))
        proxy = self.trusted.is_proxy(address)
        counted = counted_address(address, proxy=proxy)
        if self.admission.admit(counted, proxy=proxy):
            self.counted_as, self.counted_key = address, counted
        else:
            self.transport.abort()  # before a byte is read: the handshake fails, quietly

    def admit_client(self) -> bool:
        """From a trusted proxy, count the client its request names (:data:`MAX_PER_ADDRESS` each): False
        when that client has as many open already. Any other connection was counted when made."""
        if (
            self.counted_as is None
            or self.client_as is not None
            or not self.trusted.is_proxy(self.counted_as)
        ):
            return True
        client = client_address(self, self.trusted)
        if not self.admission.admit_client(client):
            return False
        self.client_as = client
        return True

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        # A ping is answered at once, and the pong waits here until it is read: pings sent without
        # reading would make the host hold their answers without bound. What the table sends waits for
        # the client instead (send drains), so only such answers pile up this high.
        if self.transport.get_write_buffer_size() > MAX_UNREAD_BYTES:
            self.transport.abort()
        if self.flood_bytes is not None:
            # Closed for a flood, and flooding on: read no more (the library discards it), then cut off.
            self.flood_bytes += len(data)
            if self.flood_bytes > MAX_UNREAD_BYTES:
                self.transport.abort()

    def process_event(self, event: Event) -> None:
        # Taken as always (a frame held back would leave a fragmented message the library cannot finish),
        # then the connection closed: the frames already read with it are the last.
        super().process_event(event)
        if (
            isinstance(event, Frame)
            and event.opcode in UNSEEN_FRAMES
            and not self.unseen_frames.allow(time.monotonic())
            and self.protocol.state is State.OPEN
        ):
            # With the code a flood of messages is closed with. What else it sends is not read, and it is cut
            # off once that passes 1 MiB, or the close timeout: cut off at once, with its frames unread, the
            # close often did not reach it (a socket closed with data unread is reset).
            self.protocol.fail(CloseCode.POLICY_VIOLATION, UNSEEN_FRAMES[event.opcode])
            self.send_data()
            self.flood_bytes = 0
            self.loop.call_later(self.close_timeout or 0.0, self.transport.abort)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.counted_as is not None:
            self.admission.release(self.counted_key)
            self.counted_as = None
        if self.client_as is not None:
            self.admission.release_client(self.client_as)
            self.client_as = None
        super().connection_lost(exc)


def counted_connections(
    admission: Admission, trusted: TrustedProxies | None = None
) -> type[CountedConnection]:
    """The connection class for ``serve``: each counted by ``admission``, ``trusted``'s by their clients."""
    counted: dict[str, Any] = {"admission": admission, "trusted": trusted or TrustedProxies()}
    return type("CountedConnection", (CountedConnection,), counted)
