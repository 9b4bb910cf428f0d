"""A hosted table on loopback: how fast a move reaches every screen, and what the host holds after 100 hands.

``net_round_trip``: four clients at a table served in this process (its own asyncio thread).
For each move: ``network`` is the time from the mover sending it to the last of the four
clients having read the new state; then each client redraws its screen as ``kalooki join``
does (the stand-in game rebuilt from the view, the play screen rendered into memory), timed
alone as ``redraw``. ``screen`` = network + the slowest redraw: the move-to-every-screen
time when each client has its own machine. (The clients share this process, so reads are
sequential: upper bounds.)

``net_host_memory``: ``kalooki host --watch`` as its own process, four bot clients playing
100 hands (goal score at its maximum so the game does not end first); the host's resident
memory (``VmRSS``, Linux) when the table opens and after the hands.
"""

from __future__ import annotations

import asyncio
import io
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from kalooki_cli.render import Seating, render_screen
from rich.console import Console

from bench import BenchResult, Options, register
from kalooki.loader import load_variant
from kalooki.variant import MAX_GOAL_SCORE

try:
    from kalooki_net.botclient import BotSeat
    from kalooki_net.server import TableServer
    from kalooki_net.table import Table
    from kalooki_net.view import shadow_game
except ImportError:  # the net extra is not installed
    BotSeat = None  # type: ignore[assignment,misc]

JOIN_LINE = re.compile(r"kalooki join \S+:(\d+) --code (\w+)")


def serve_table(table: Table, **options: Any) -> tuple[TableServer, asyncio.AbstractEventLoop]:
    """A table served on loopback from its own asyncio thread, without a rate limit (benches send fast)."""
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    holder: dict[str, TableServer] = {}

    async def serve() -> None:
        server = TableServer(table, rate=10_000.0, burst=10_000.0, **options)
        await server.start("127.0.0.1", 0)
        holder["server"] = server
        ready.set()
        await server.drive()
        await asyncio.sleep(3600)

    threading.Thread(target=loop.run_until_complete, args=(serve(),), daemon=True).start()
    ready.wait(30)
    return holder["server"], loop


def _seat_four(uri: str, code: str) -> list[Any]:
    clients = [BotSeat(uri) for _ in range(4)]
    for index, client in enumerate(clients):
        client.join(code, name=f"p{index}")
    for client in clients:
        client.until("state")
    return clients


@register("net_round_trip")
def round_trip(options: Options) -> BenchResult:
    if BotSeat is None:
        return {"skipped": "the net extra (websockets) is not installed"}
    moves = 100 if options.quick else 1000
    variant = load_variant("classic", [f"goal_score={MAX_GOAL_SCORE}"])
    table = Table(variant, seats=4, bots=["greedy"], seed=options.seed, wait_seconds=60)
    server, _loop = serve_table(table)
    clients = _seat_four(f"ws://127.0.0.1:{server.port}/", table.code)
    network: list[float] = []
    redraws: list[float] = []
    screens: list[float] = []
    while len(network) < moves:
        view = clients[0].view
        if view["phase"] == "hand_over":
            for client in clients:
                client.send({"type": "ready"})
            for client in clients:
                client.until("state")
            continue
        mover = next(client for client in clients if client.my_turn())
        move = mover.next_move()
        started = time.perf_counter()
        mover.send({"type": "move", "move": move})
        for client in clients:
            client.until("state")
        network.append(time.perf_counter() - started)
        slowest = 0.0
        for client in clients:
            began = time.perf_counter()
            _redraw(client)
            redraws.append(time.perf_counter() - began)
            slowest = max(slowest, redraws[-1])
        screens.append(network[-1] + slowest)
    return {
        "moves": len(network),
        "clients": 4,
        **_figures("network", network),
        **_figures("redraw", redraws),
        **_figures("screen", screens),
        "p99_target_ms": 50,
    }


def _figures(name: str, seconds: list[float]) -> dict[str, float]:
    ordered = sorted(seconds)
    return {
        f"{name}_median_ms": round(statistics.median(ordered) * 1000, 2),
        f"{name}_p99_ms": round(ordered[max(0, int(len(ordered) * 0.99) - 1)] * 1000, 2),
    }


def _redraw(client: Any) -> None:
    """What ``kalooki join`` does with a new state: rebuild the game from the view, draw the screen."""
    game = shadow_game(client.view, client.variant)
    console = Console(file=io.StringIO(), width=80, height=24, color_system=None)
    render_screen(console, game, Seating(tuple(game.players), client.seat, {}))


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


@register("net_host_memory")
def host_memory(options: Options) -> BenchResult:
    if BotSeat is None:
        return {"skipped": "the net extra (websockets) is not installed"}
    if not Path("/proc/self/status").exists():
        return {"skipped": "resident memory is read from /proc (Linux)"}
    hands = 10 if options.quick else 100
    kalooki = Path(sys.executable).with_name("kalooki")
    command = [str(kalooki), "host", "--watch", "--bind", "127.0.0.1", "--port", "0", "--bot-pause", "0"]
    command += ["--seats", "4", "--seed", str(options.seed), "--set", f"goal_score={MAX_GOAL_SCORE}"]
    command += ["--save", str(Path("/tmp") / f"kalooki-bench-{time.time_ns()}.kalooki-save.json")]
    host = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert host.stdout is not None
        found = None
        while found is None:
            found = JOIN_LINE.search(host.stdout.readline())
        threading.Thread(target=host.stdout.read, daemon=True).start()
        at_open = _rss_kib(host.pid)
        clients = _seat_four(f"ws://127.0.0.1:{found.group(1)}/", found.group(2))
        started = time.perf_counter()

        def play(client: Any) -> None:
            ready_for = 0
            while client.view["hand_number"] <= hands:
                view = client.view
                if view["phase"] == "hand_over" and ready_for != view["hand_number"]:
                    if view["hand_number"] == hands:
                        return
                    ready_for = view["hand_number"]
                    client.send({"type": "ready"})
                if client.my_turn():
                    client.send({"type": "move", "move": client.next_move()})
                client.until("state")

        threads = [threading.Thread(target=play, args=(client,)) for client in clients]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        after = _rss_kib(host.pid)
        return {
            "hands": hands,
            "seconds_playing": round(time.perf_counter() - started, 1),
            "host_rss_at_open_mib": round(at_open / 1024, 1),
            "host_rss_after_mib": round(after / 1024, 1),
        }
    finally:
        host.kill()
        host.wait()
