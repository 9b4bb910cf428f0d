"""A client that plays its seat with a bot, over the protocol alone: for tests, benches and robots.

:class:`BotSeat` connects with ``websockets``' threading client, joins, and plays its seat by
asking a bot for a move on the stand-in game rebuilt from each view it receives
(:func:`~kalooki_net.view.shadow_game`), exactly as a third-party client would. It keeps
every text frame it received in :attr:`BotSeat.received`.
"""

from __future__ import annotations

import json
import random
import time
from contextlib import ExitStack
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from kalooki.bots import GreedyBot
from kalooki.driver import ask_bot, fallback_action
from kalooki.errors import KalookiError
from kalooki.moves import format_move
from kalooki.saved_rules import read_saved_rules
from kalooki.variant import Variant

from .protocol import PROTOCOL_VERSION
from .view import shadow_game

TIMEOUT = 20.0


class BotSeat:
    """A scripted client: raw protocol messages, moves chosen by the greedy bot on its own view."""

    def __init__(self, uri: str, timeout: float = TIMEOUT) -> None:
        self.exits = ExitStack()
        self.websocket: ClientConnection = self.exits.enter_context(
            connect(uri, open_timeout=timeout, compression=None)
        )
        self.received: list[str] = []
        self.seat = -1
        self.token = ""
        self.variant: Variant | None = None
        self.view: dict[str, Any] | None = None
        self.bot = GreedyBot(random.Random(1))
        self.errors: list[dict[str, Any]] = []
        self.timeout = timeout

    def send(self, message: dict[str, Any]) -> None:
        self.websocket.send(json.dumps(message))

    def receive(self) -> dict[str, Any]:
        text = self.websocket.recv(timeout=self.timeout)
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

    def join(
        self, code: str, name: str | None = None, token: str | None = None, *, coach: bool = False
    ) -> dict[str, Any]:
        """Take a seat; ``coach``: as the browser page does, with the table's words in every state."""
        message = {"type": "join", "protocol": PROTOCOL_VERSION, "code": code, "name": name, "token": token}
        self.send({**message, "coach": True} if coach else message)
        welcome = self.until("welcome")
        self.seat, self.token = welcome["seat"], welcome["token"]
        self.variant = read_saved_rules(welcome["variant"], "the table's rules", upgrade="upgrade kalooki")
        return welcome

    def my_turn(self) -> bool:
        view = self.view
        return view is not None and view["phase"] in ("draw", "play") and view["current"] == self.seat

    def next_move(self) -> str:
        assert self.view is not None
        assert self.variant is not None
        game = shadow_game(self.view, self.variant)
        try:
            action = ask_bot(self.bot, game)
            game.check(action)
        except KalookiError:
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
                message = self.receive()
            except ConnectionClosed:
                break
            if message["type"] == "error" and message.get("code") == "rate_limited":
                # The ready (or a move) came too fast and was refused: the deal would wait for it for ever.
                ready_for = -1
                time.sleep(0.2)
        assert self.view is not None
        return self.view

    def close(self) -> None:
        self.exits.close()


__all__ = ["TIMEOUT", "BotSeat"]
