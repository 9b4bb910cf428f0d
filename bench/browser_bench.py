"""The browser table on loopback, in Chromium (Debian's package, driven by Playwright).

``browser_table``: the page's weight (every file, as served); the time from navigation to the
table painted (``performance`` mark ``kalooki-table-painted``, the frame after the one that
draws the table) for a returning player whose seat token is kept (a reload, which joins by
itself); for a new player, the page ready (``DOMContentLoaded``) and the time from the join
sent to the table painted; and the move round trip as the page sees it: ``performance.now()`` from the
move sent (the click's own task) to the table redrawn with the host's answer
(``window.kalookiTimings``), for a player who plays every move by Hint against a bot client.
"""

from __future__ import annotations

import shutil
import statistics
import threading
import time
from typing import Any

from bench import BenchResult, Options, register
from bench.net_bench import serve_table
from kalooki.loader import load_variant

try:
    from kalooki_cli.web_coach import WebCoach
    from kalooki_net.botclient import BotSeat
    from kalooki_net.table import Table
    from kalooki_net.web import page_weight
    from playwright.sync_api import sync_playwright
except ImportError:  # the net extra or playwright is not installed
    BotSeat = None  # type: ignore[assignment,misc]

JOIN_SENT = "performance.getEntriesByName('kalooki-join-sent')[0].startTime"
PAGE_READY = "performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd"
PAINTED = "performance.getEntriesByName('kalooki-table-painted').map((mark) => mark.startTime)[0] || 0"


def _wait(page: Any, expression: str, seconds: float = 30.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = page.evaluate(expression)
        if value:
            return value
        time.sleep(0.02)
    raise TimeoutError(expression)


def _bot(seat: Any) -> None:
    ready_for = -1
    try:
        while True:
            view = seat.view
            if seat.my_turn():
                seat.send({"type": "move", "move": seat.next_move()})
            elif view is not None and view["phase"] == "hand_over" and ready_for != view["hand_number"]:
                ready_for = view["hand_number"]
                seat.send({"type": "ready"})
            seat.receive()
    except Exception:  # the bench is over and closed it
        return


@register("browser_table")
def browser_table(options: Options) -> BenchResult:
    browser_path = shutil.which("chromium") or shutil.which("chromium-browser")
    if BotSeat is None or browser_path is None:
        return {"skipped": "needs the net extra, playwright and Debian's chromium"}
    moves = 10 if options.quick else 60
    reloads = 3 if options.quick else 10
    variant = load_variant("classic", ["hand_size=7", "opening_threshold=0", "goal_score=1000"])
    table = Table(variant, seats=2, bots=["greedy"], seed=options.seed, wait_seconds=60)
    server, _loop = serve_table(table, advisor=WebCoach())
    url = f"http://127.0.0.1:{server.port}/?code={table.code}"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        # The opponent sits first, so the game starts the moment the page takes the last seat.
        opponent = BotSeat(f"ws://127.0.0.1:{server.port}/")
        opponent.join(table.code, name="bob")
        threading.Thread(target=_bot, args=(opponent,), daemon=True).start()
        page = browser.new_page(viewport={"width": 375, "height": 812})
        page.goto(url)
        page.fill("#join-name", "ann")
        page.press("#join-name", "Enter")
        first_join = _wait(page, PAINTED) - page.evaluate(JOIN_SENT)
        ready = page.evaluate(PAGE_READY)
        rejoin = []
        for _ in range(reloads):
            page.reload()
            rejoin.append(_wait(page, PAINTED))
        while len(page.evaluate("window.kalookiTimings")) < moves:
            phase = page.evaluate("document.getElementById('table').dataset.phase")
            if phase == "hand_over" and page.locator("#ready-button").is_visible():
                page.click("#ready-button")
            if page.evaluate("document.getElementById('table').dataset.turn") != "mine":
                time.sleep(0.01)
                continue
            if page.locator("#hint-button").is_disabled():
                time.sleep(0.01)
                continue
            page.click("#hint-button")
            page.wait_for_selector("#hint:not([hidden])")
            page.locator(".hint-move").first.click()
            before = len(page.evaluate("window.kalookiTimings"))
            page.press("#move-input", "Enter")
            _wait(
                page,
                f"window.kalookiTimings.length > {before} || document.getElementById('reason').textContent",
            )
        timings = page.evaluate("window.kalookiTimings")[:moves]
        browser.close()
    opponent.close()
    return {
        "page_bytes": page_weight(),
        "page_ready_ms": round(ready, 1),
        "join_to_table_painted_ms": round(first_join, 1),
        "first_paint_rejoin_ms_median": round(statistics.median(rejoin), 1),
        "first_paint_rejoin_ms_max": round(max(rejoin), 1),
        "reloads": reloads,
        "move_round_trip_ms_median": round(statistics.median(timings), 1),
        "move_round_trip_ms_p90": round(statistics.quantiles(timings, n=10)[-1], 1),
        "move_round_trip_ms_max": round(max(timings), 1),
        "moves": len(timings),
    }
