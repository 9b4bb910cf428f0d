"""One connection at the table, as the host sees it: its rate limit, its seat once joined, and the
queue of what it has still to be sent, drained by its own task so that a client that reads slowly
only fills its own queue (the network client's side is :mod:`kalooki_net.client`)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from .protocol import encode

RATE = 30.0
"""Messages a second a client may send, on average (a person sends a few a minute)."""
BURST = 60.0
"""Messages a client may send at once before the rate applies."""
OUTBOX = 256
"""Messages waiting for a slow client before it is disconnected."""
VOLUME = 16_384.0
"""Characters of messages a second a client may send, on average: a person's longest line of chat is 300."""
VOLUME_BURST = 65_536.0
"""Characters a client may send at once before :data:`VOLUME` applies: one message of the largest size."""
SEND_TIMEOUT = 10.0
JOIN_TIMEOUT = 30.0
"""Seconds a new connection has to join before it is closed."""


@dataclass(slots=True)
class RateLimit:
    """A token bucket: ``rate`` messages a second, ``burst`` at once."""

    rate: float = RATE
    burst: float = BURST
    tokens: float = BURST
    last: float = field(default_factory=time.monotonic)

    def allow(self, now: float, cost: float = 1.0) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < cost:
            return False
        self.tokens -= cost
        return True


class Client:
    """One connection: its seat once joined, and the queue of what it has still to be sent."""

    def __init__(
        self,
        websocket: ServerConnection,
        limit: RateLimit,
        outbox: int = OUTBOX,
        send_timeout: float = SEND_TIMEOUT,
        *,
        address: str,
        volume: float = VOLUME,
    ) -> None:
        self.websocket = websocket
        self.address = address  # what its wrong codes and tokens count against (client_address)
        self.seat: int | None = None
        self.coach = False
        """Joined with ``coach``: each state carries the table's own words (the browser page)."""
        self.outbox: asyncio.Queue[str] = asyncio.Queue(maxsize=outbox)
        self.send_timeout = send_timeout
        self.limit = limit
        self.volume = RateLimit(volume, VOLUME_BURST, VOLUME_BURST)
        """The characters it sent: each message costs the host's loop by its length, 10 ms for the largest,
        and 30 of those a second from one connection held every player up."""
        self.flooded = 0
        self.sender = asyncio.create_task(self._send_all())
        self.closer: asyncio.Task[None] | None = None
        """Closing the connection once its outbox is sent (:meth:`close_when_sent`): the host dropped it."""

    def send(self, message: dict[str, Any]) -> None:
        try:
            self.outbox.put_nowait(encode(message))
        except asyncio.QueueFull:
            # A client this far behind does not read: cut it off rather than hold its messages forever.
            self.websocket.transport.abort()

    async def _send_all(self) -> None:
        try:
            while True:
                text = await self.outbox.get()
                await asyncio.wait_for(self.websocket.send(text), self.send_timeout)
                self.outbox.task_done()
        except TimeoutError:
            self.websocket.transport.abort()
        except ConnectionClosed:
            pass

    async def close_when_sent(self, code: int, reason: str) -> None:
        """Close the connection once what waits in its outbox is sent (the last of it says why); a client
        that does not read it within the send timeout is cut off."""
        try:
            await asyncio.wait_for(self.outbox.join(), self.send_timeout)
        except TimeoutError:
            self.websocket.transport.abort()
            return
        await self.websocket.close(code, reason)
