"""A real table on 127.0.0.1 for the network tests; the scripted players are kalooki_net.botclient.BotSeat.

:func:`hosted` runs a :class:`TableServer` on its own asyncio loop in a thread, on a free
port, and stops it afterwards. :class:`Player` is a scripted client over ``websockets``' own
threading client: it joins, then plays its seat with the greedy bot on the stand-in game
rebuilt from the views it receives, exactly as a third-party client would.
:func:`join_a_table_that_sends` runs a real ``kalooki join`` at a table that is not honest: a
small server on 127.0.0.1 that answers the join with the messages given (a real table's, from
:func:`a_real_welcome_and_state`, changed by the test).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kalooki_net.botclient import TIMEOUT, BotSeat
from kalooki_net.server import TableServer
from kalooki_net.table import Table
from websockets.exceptions import ConnectionClosed
from websockets.sync.server import ServerConnection as SyncConnection
from websockets.sync.server import serve

from kalooki.loader import load_variant
from kalooki.variant import Variant

Player = BotSeat
KALOOKI = Path(sys.executable).with_name("kalooki")


class Host:
    """A table served in a background thread; ``call`` runs a function on its loop and returns its result."""

    def __init__(
        self,
        server: TableServer,
        loop: asyncio.AbstractEventLoop,
        thread: threading.Thread,
        bind: str = "127.0.0.1",
    ) -> None:
        self.server = server
        self.loop = loop
        self.thread = thread
        self.bind = bind

    @property
    def table(self) -> Table:
        return self.server.table

    @property
    def uri(self) -> str:
        where = f"[{self.bind}]" if ":" in self.bind else self.bind
        return f"ws://{where}:{self.server.port}/"

    def call(self, function: Any, *args: Any) -> Any:
        async def run() -> Any:
            return function(*args)

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(TIMEOUT)


@contextmanager
def hosted(
    table: Table,
    server_class: type[TableServer] = TableServer,
    *,
    port: int = 0,
    bind: str = "127.0.0.1",
    **options: Any,
) -> Iterator[Host]:
    """``table`` served on ``bind`` (the loopback: 127.0.0.1 or ::1), on ``port`` (0: a free one)."""
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    holder: dict[str, TableServer] = {}
    stop: asyncio.Future[None] | None = None

    async def serve() -> None:
        nonlocal stop
        server = server_class(table, **options)
        await server.start(bind, port)
        holder["server"] = server
        stop = loop.create_future()
        ready.set()
        driver = asyncio.create_task(server.drive())
        await stop
        driver.cancel()
        await server.close("the test is over")
        with contextlib.suppress(asyncio.CancelledError):
            await driver

    thread = threading.Thread(target=loop.run_until_complete, args=(serve(),), daemon=True)
    thread.start()
    assert ready.wait(TIMEOUT)
    try:
        yield Host(holder["server"], loop, thread, bind)
    finally:
        assert stop is not None
        loop.call_soon_threadsafe(stop.set_result, None)
        thread.join(TIMEOUT)
        if not thread.is_alive():
            loop.close()  # an event loop left open is a ResourceWarning in every test that hosts


def ipv6_loopback() -> bool:
    """Whether this machine has ::1 to listen on."""
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


def new_table(seats: int = 4, seed: int = 5, **knobs: Any) -> Table:
    overrides = [f"{key}={value}" for key, value in knobs.items()]
    variant: Variant = load_variant("classic", overrides)
    return Table(variant, seats=seats, bots=["greedy"], seed=seed, wait_seconds=30.0)


def with_hosts_seat(table: Table) -> Table:
    """``table`` with ann at seat 0 as the host, as kalooki host makes its own seat, its connection yet to
    come (so the table waits for her, and no bot plays her seat)."""
    table.join("ann", host=True)
    table.seats[0].connected, table.seats[0].away_since = False, None
    return table


def seat_and_play_a_hand(uri: str, code: str, seats: int = 2) -> list[BotSeat]:
    """``seats`` players p0, p1, ... join and play until the first hand is over (for short hands)."""
    players = [BotSeat(uri) for _ in range(seats)]
    for index, player in enumerate(players):
        player.join(code, name=f"p{index}")
    for player in players:
        player.until("state")
    for _ in range(500):
        if players[0].view is not None and players[0].view["phase"] == "hand_over":
            return players
        play_moves(players, 1)
    raise AssertionError("the hand did not end in 500 moves")


def bot_plays_until_the_hand_ends(seat: BotSeat) -> None:
    with contextlib.suppress(ConnectionClosed):  # the test closes it when done
        while True:
            view = seat.view
            if view is not None and view["phase"] not in ("draw", "play"):
                return
            if seat.my_turn():
                seat.send({"type": "move", "move": seat.next_move()})
            seat.receive()


def play_moves(players: list[BotSeat], count: int) -> None:
    """``count`` moves, each by the player whose turn it is, every player reading each new state."""
    for _ in range(count):
        mover = next(player for player in players if player.my_turn())
        mover.send({"type": "move", "move": mover.next_move()})
        for player in players:
            player.until("state")


class Terminal:
    """``kalooki join`` as a real process, played by a person who draws from the stock and throws the card
    back: it answers each ``draw>`` with ``ds`` and each ``play>`` with ``d`` and the card marked ``*``;
    with ``ready``, the end of a hand's ``Press Enter`` with Enter. With ``name`` None, it runs with no
    ``--name``."""

    SUITS = str.maketrans({"♣": "C", "♦": "D", "♥": "H", "♠": "S"})
    NEXT_HAND = "(or score, say TEXT, rules, help, quit): "

    def __init__(
        self, address: str, code: str, home: Path, name: str | None = "cid", *, ready: bool = False
    ) -> None:
        env = {**os.environ, "KALOOKI_HOME": str(home), "COLUMNS": "200", "NO_COLOR": "1"}
        env["PYTHONIOENCODING"] = "utf-8"
        self.process = subprocess.Popen(
            [str(KALOOKI), "join", address, "--code", code, *(["--name", name] if name else [])],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
        )
        self.output = bytearray()
        self.moves = 0
        self.ready = ready
        self.stop = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        self.player = threading.Thread(target=self._play, daemon=True)
        self.player.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        while chunk := os.read(self.process.stdout.fileno(), 65536):
            self.output += chunk

    def text(self) -> str:
        return bytes(self.output).decode("utf-8", "replace")

    def _play(self) -> None:
        assert self.process.stdin is not None
        answered = 0
        prompts = ("draw> ", "play> ", self.NEXT_HAND) if self.ready else ("draw> ", "play> ")
        while not self.stop.is_set() and self.process.poll() is None:
            text = self.text()
            if len(text) == answered or not text.endswith(prompts):
                time.sleep(0.05)
                continue
            answered = len(text)
            if text.endswith(self.NEXT_HAND):
                line = ""
            else:
                line = "ds" if text.endswith("draw> ") else f"d {self.drawn(text)}"
                self.moves += 1
            self.process.stdin.write(f"{line}\n".encode())
            self.process.stdin.flush()

    def drawn(self, text: str) -> str:
        hand = [line for line in text.splitlines() if line.startswith("Your hand (")][-1]
        cards = hand.partition(": ")[2].split()
        card = next((card for card in cards if card.endswith("*")), cards[0]).rstrip("*")
        return card.replace("10", "T").translate(self.SUITS)

    def quit(self) -> str:
        self.stop.set()
        self.player.join(10)
        assert self.process.stdin is not None
        self.process.stdin.close()  # end of input: kalooki join leaves the table
        self.process.wait(TIMEOUT)
        return self.text()


def a_real_welcome_and_state() -> list[dict[str, Any]]:
    """What a real table sends the second of two players, up to the first hand's first state."""
    table = new_table(seats=2, seed=3)
    with hosted(table) as host:
        first, second = Player(host.uri), Player(host.uri)
        first.join(table.code, name="ann")
        second.join(table.code, name="bob")
        second.until("state")
        return [json.loads(text) for text in second.received]


def join_a_table_that_sends(
    messages: list[dict[str, Any]], heard: list[dict[str, Any]] | None = None
) -> subprocess.CompletedProcess[str]:
    """``kalooki join`` as a real process at a table on 127.0.0.1 that answers its join with ``messages``;
    what the join sends after them goes into ``heard``, until it closes the connection or is still 2 s."""

    answered = threading.Event()

    def answer(websocket: SyncConnection) -> None:
        try:
            websocket.recv(timeout=TIMEOUT)  # the join
            # The join may refuse a message and leave before the rest are sent; what it sent before
            # closing is still read below, as websockets keeps a closed connection's messages.
            with contextlib.suppress(ConnectionClosed):
                for message in messages:
                    websocket.send(json.dumps(message))
            with contextlib.suppress(ConnectionClosed, TimeoutError):
                while True:
                    text = websocket.recv(timeout=2)
                    if heard is None:
                        return
                    heard.append(json.loads(text))
        finally:
            answered.set()

    with serve(answer, "127.0.0.1", 0) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            address = f"127.0.0.1:{server.socket.getsockname()[1]}"
            return subprocess.run(
                [str(KALOOKI), "join", address, "--code", "ABC123", "--name", "bob"],
                input="quit\n", capture_output=True, text=True, timeout=60, check=False,
                env={**os.environ, "COLUMNS": "100", "NO_COLOR": "1"},
            )  # fmt: skip
        finally:
            answered.wait(TIMEOUT)  # all the join sent is heard
            server.shutdown()


Mutation = Callable[[list[dict[str, Any]]], None]


def welcome_of(messages: list[dict[str, Any]]) -> dict[str, Any]:
    return next(message for message in messages if message["type"] == "welcome")


def view_of(messages: list[dict[str, Any]]) -> dict[str, Any]:
    state: dict[str, Any] = next(message for message in messages if message["type"] == "state")
    return state["view"]


def says_reopen(output: str, command: str) -> bool:
    """Whether ``output`` tells the host to reopen the table with ``command``, whole: after "Reopen it
    with:" on its line when the two fit the console's width, else alone on the next, indented (as the
    play screen's say_then prints a command; a deep temporary folder makes it the next)."""
    return re.search(rf"Reopen it with:(?: |\n  ){re.escape(command)}\n", output) is not None


def play_whole_game(players: list[Player]) -> dict[int, dict[str, Any]]:
    """Each player plays its seat in a thread of its own until the game is over: the last view of each."""
    results: dict[int, dict[str, Any]] = {}

    def run(player: Player) -> None:
        results[player.seat] = player.play_until_over()

    threads = [threading.Thread(target=run, args=(player,)) for player in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return results


def seat_four(host_uri: str, code: str) -> list[Player]:
    """Four players, p0 to p3, seated at the table: the game starts."""
    players = [Player(host_uri) for _ in range(4)]
    for index, player in enumerate(players):
        player.join(code, name=f"p{index}")
    return players
