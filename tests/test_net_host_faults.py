"""A bot's fault at a hosted table is told on the host's own screen, whether it watches or sits at the table.

Seated, the host saw none: the table's lines are for the lobby and for watching, and a plug-in that
raised on every move (its moves replaced by safe ones) looked merely weak, where kalooki play says so on
its game screen."""

from __future__ import annotations

import pytest

pytest.importorskip("websockets")

import asyncio
import io
import random

from kalooki_cli.host_thread import HostThread
from kalooki_net.server import TableServer
from kalooki_net.table import Table
from net_helpers import Player
from rich.console import Console

from kalooki.bots import GreedyBot, base, register
from kalooki.loader import load_variant
from kalooki.moves import Action
from kalooki.view import LegalView, PlayerView


class Broken:
    name = "broken"

    def __init__(self, rng: random.Random) -> None:
        pass

    def choose(self, view: PlayerView, legal: LegalView) -> Action:
        raise ValueError("no idea")


@pytest.mark.parametrize("watch", [False, True], ids=["seated", "watching"])
def test_a_bot_s_fault_is_told_on_the_host_s_screen(watch: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))  # the bot is this test's only
    register("broken", Broken)
    table = Table(load_variant("classic"), seats=2, bots=["broken"], seed=5, wait_seconds=30.0)
    screen = io.StringIO()
    host = HostThread(table, "127.0.0.1", 0, 0.0, Console(file=screen, width=200), watch=watch)
    port = host.start()
    ann = Player(f"ws://127.0.0.1:{port}/", timeout=5.0)
    try:
        ann.join(table.code, name="ann")
        assert host.server is not None
        host.loop.call_soon_threadsafe(host.server.start_game)
        ann.until("state")
        while table.require_game().turn_number < 3:  # ann's turn, then the broken bot's
            if ann.my_turn():
                ann.send({"type": "move", "move": ann.next_move()})
            ann.until("state")
    finally:
        ann.close()
        host.stop()
    told = [line for line in screen.getvalue().splitlines() if "[bot broken" in line]
    raised_at = Broken.choose.__code__.co_firstlineno + 1
    assert told == [
        "[table] [bot broken, seat bob] choose raised ValueError: no idea "
        f"(at test_net_host_faults.py:{raised_at}); its moves are replaced by safe ones"
    ]


ASKED = [0]
"""How many times the counting bot was asked for a move."""


class Counting:
    name = "counting"

    def __init__(self, rng: random.Random) -> None:
        self.greedy = GreedyBot(rng)

    def choose(self, view: PlayerView, legal: LegalView) -> Action:
        ASKED[0] += 1
        return self.greedy.choose(view, legal)


def test_a_closed_table_stops_playing(monkeypatch: pytest.MonkeyPatch) -> None:
    # After the host had closed the table (and said the game was saved), its loop went on asking the bots
    # for turns it no longer took, until the process exited: a plug-in's work for nothing, and, in a
    # program that goes on, threads racing its own for the library's caches.
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))
    register("counting", Counting)
    table = Table(load_variant("classic"), seats=2, bots=["counting"], seed=5)

    async def close_mid_game() -> None:
        server = TableServer(table)
        server.start_game()
        driving = asyncio.create_task(server.drive())
        while table.require_game().turn_number < 6:
            await asyncio.sleep(0.01)
        await server.close("the host stopped")
        await asyncio.wait_for(driving, 5)  # the game's pace ends with the table
        asked = ASKED[0]
        await asyncio.sleep(0.5)
        assert ASKED[0] == asked

    asyncio.run(close_mid_game())
    assert not table.require_game().game_over
