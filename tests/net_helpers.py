"""A real table on 127.0.0.1 for the network tests, and scripted players that connect to it.

:func:`hosted` runs a :class:`TableServer` on its own asyncio loop in a thread, on a free
port, and stops it afterwards. :class:`Player` is a scripted client over ``websockets``' own
threading client: it joins, then plays its seat with the greedy bot on the stand-in game
rebuilt from the views it receives, exactly as a third-party client would.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from kalooki_net.protocol import PROTOCOL_VERSION
from kalooki_net.server import TableServer
from kalooki_net.table import Table
from kalooki_net.view import shadow_game
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from kalooki.bots import GreedyBot
from kalooki.driver import fallback_action
from kalooki.loader import load_variant
from kalooki.moves import format_move
from kalooki.variant import Variant

TIMEOUT = 20.0


class Host:
    """A table served in a background thread; ``call`` runs a function on its loop and returns its result."""

    def __init__(
        self, server: TableServer, loop: asyncio.AbstractEventLoop, thread: threading.Thread
    ) -> None:
        self.server = server
        self.loop = loop
        self.thread = thread

    @property
    def table(self) -> Table:
        return self.server.table

    @property
    def uri(self) -> str:
        return f"ws://127.0.0.1:{self.server.port}/"

    def call(self, function: Any, *args: Any) -> Any:
        async def run() -> Any:
            return function(*args)

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(TIMEOUT)


@contextmanager
def hosted(table: Table, server_class: type[TableServer] = TableServer, **options: Any) -> Iterator[Host]:
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    holder: dict[str, TableServer] = {}
    stop: asyncio.Future[None] | None = None

    async def serve() -> None:
        nonlocal stop
        server = server_class(table, **options)
        await server.start("127.0.0.1", 0)
        holder["server"] = server
        stop = loop.create_future()
        ready.set()
        driver = asyncio.create_task(server.drive())
        await stop
        driver.cancel()
        await server.close("the test is over")

    thread = threading.Thread(target=loop.run_until_complete, args=(serve(),), daemon=True)
    thread.start()
    assert ready.wait(TIMEOUT)
    try:
        yield Host(holder["server"], loop, thread)
    finally:
        assert stop is not None
        loop.call_soon_threadsafe(stop.set_result, None)
        thread.join(TIMEOUT)


def new_table(seats: int = 4, seed: int = 5, **knobs: Any) -> Table:
    overrides = [f"{key}={value}" for key, value in knobs.items()]
    variant: Variant = load_variant("classic", overrides)
    return Table(variant, seats=seats, bots=["greedy"], seed=seed, wait_seconds=30.0)


class Player:
    """A scripted client: raw protocol messages, moves chosen by the greedy bot on its own view."""

    def __init__(self, uri: str) -> None:
        self.exits = ExitStack()
        self.websocket: ClientConnection = self.exits.enter_context(
            connect(uri, open_timeout=TIMEOUT, compression=None)
        )
        self.received: list[str] = []
        self.seat = -1
        self.token = ""
        self.variant: Variant | None = None
        self.view: dict[str, Any] | None = None
        self.bot = GreedyBot(random.Random(1))
        self.errors: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.websocket.send(json.dumps(message))

    def receive(self) -> dict[str, Any]:
        text = self.websocket.recv(timeout=TIMEOUT)
        assert isinstance(text, str)
        self.received.append(text)
        message: dict[str, Any] = json.loads(text)
        if message["type"] == "state":
            self.view = message["view"]
        if message["type"] == "error":
            self.errors.append(message)
        return message

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            message = self.receive()
            if message["type"] == kind:
                return message

    def join(self, code: str, name: str | None = None, token: str | None = None) -> dict[str, Any]:
        self.send({"type": "join", "protocol": PROTOCOL_VERSION, "code": code, "name": name, "token": token})
        welcome = self.until("welcome")
        self.seat, self.token = welcome["seat"], welcome["token"]
        self.variant = Variant.model_validate(welcome["variant"], strict=False)
        return welcome

    def my_turn(self) -> bool:
        view = self.view
        return view is not None and view["phase"] in ("draw", "play") and view["current"] == self.seat

    def next_move(self) -> str:
        assert self.view is not None
        assert self.variant is not None
        game = shadow_game(self.view, self.variant)
        try:
            action = self.bot.choose(game)
            game.check(action)
        except Exception:
            action = fallback_action(game)
        return format_move(action)

    def play_until_over(self, max_messages: int = 100_000) -> dict[str, Any]:
        """Play this seat until the game is over (or the connection closes); the last view."""
        ready_for = -1
        for _ in range(max_messages):
            view = self.view
            if view is not None and view["phase"] == "game_over":
                return view
            if self.my_turn():
                move = self.next_move()
                self.send({"type": "move", "move": move})
                reply = self.receive()
                while reply["type"] not in ("state", "error"):
                    reply = self.receive()
                if reply["type"] == "error" and reply["code"] == "rate_limited":
                    time.sleep(0.2)
                    continue
                assert reply["type"] == "state", (move, reply)
                continue
            if view is not None and view["phase"] == "hand_over" and ready_for != view["hand_number"]:
                ready_for = view["hand_number"]
                self.send({"type": "ready"})
            try:
                self.receive()
            except ConnectionClosed:
                break
        assert self.view is not None
        return self.view

    def close(self) -> None:
        self.exits.close()
