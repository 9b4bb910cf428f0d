"""What the browser table's tests share: Chromium (Debian's package, driven by Playwright), one
browser page at the table (:class:`Seat`), and the table's usual shapes.

Importing this module skips the importing test module where websockets, Playwright or Chromium is
missing (outside CI, where ``make test`` installs them).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from kalooki_net.botclient import BotSeat
from kalooki_net.table import Table
from playwright import sync_api
from rules_helpers import new_game, play

from kalooki.engine import Game

TIMEOUT = 20.0
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
if BROWSER is None and os.environ.get("CI") != "true":  # pragma: no cover - a machine without Chromium
    pytest.skip("no Chromium here (make test installs Debian's chromium as root)", allow_module_level=True)

PHONE = {"width": 375, "height": 812}
LAPTOP = {"width": 1280, "height": 860}
LIMIT = 120.0
"""Seconds a whole hand may take before the test gives up (it takes a few)."""
QUICK = {"hand_size": 7, "opening_threshold": 0}


def launched_chromium() -> Iterator[Any]:
    """Chromium, launched for a module of tests and closed after it (the ``browser`` fixture)."""
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=BROWSER, args=["--no-sandbox"])
        yield launched
        launched.close()


def screenshot_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go (the ``shots`` fixture): ``KALOOKI_SCREENSHOTS``, else a new folder, printed."""
    chosen = os.environ.get("KALOOKI_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nbrowser table screenshots: {folder}")
    return folder


class Seat:
    """One browser at the table, with every console error and failed request it saw."""

    def __init__(self, browser: Any, url: str, viewport: dict[str, int]) -> None:
        self.page = browser.new_page(viewport=viewport)
        self.problems: list[str] = []
        self.page.on("console", lambda m: self.problems.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda error: self.problems.append(str(error)))
        self.page.on("requestfailed", lambda request: self.problems.append(f"failed: {request.url}"))
        self.page.goto(url)

    def sit(self, name: str) -> None:
        self.page.fill("#join-name", name)
        self.page.press("#join-name", "Enter")
        self.page.wait_for_selector("#lobby:not([hidden]), #table:not([hidden])")

    def attribute(self, name: str) -> str | None:
        return self.page.locator("#table").get_attribute(name)

    def js(self, expression: str) -> Any:
        # evaluate, not wait_for_function: the page's CSP rightly forbids the eval that one needs.
        return self.page.evaluate(expression)

    def wait(self, expression: str, seconds: float = 20.0) -> Any:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            value = self.js(expression)
            if value:
                return value
            time.sleep(0.05)
        raise AssertionError(f"the page never showed {expression}")

    def mine(self) -> bool:
        return self.attribute("data-turn") == "mine" and not self.page.locator("#hint-button").is_disabled()

    def play_by_hint(self) -> None:
        """One move, as a player who trusts the hint: Hint, tap its first line, Enter."""
        self.page.click("#hint-button")
        self.page.wait_for_selector("#hint:not([hidden])")
        self.page.locator(".hint-move").first.click()
        before = self.js("window.kalookiTimings.length")
        self.page.press("#move-input", "Enter")
        self.wait(f"window.kalookiTimings.length > {before} || document.getElementById('reason').textContent")
        assert self.page.locator("#reason").text_content() == ""

    def play_until(self, phase: str, what: str) -> None:
        """Play this seat by the hint until the page's phase is ``phase`` (``what``: what ends, in words)."""
        deadline = time.monotonic() + LIMIT
        while self.attribute("data-phase") != phase:
            assert time.monotonic() < deadline, f"{what} did not end in time"
            if self.mine():
                self.play_by_hint()
            else:
                time.sleep(0.05)


LOG_TEXT = "[...document.querySelectorAll('#log li')].map((li) => li.textContent)"
"""The lines of the page's log, oldest first."""


def ann_on_a_phone_beside_bob(browser: Any, host: Any, table: Table) -> tuple[Seat, BotSeat]:
    """ann at the page on a phone, bob a client of the protocol: the two seats taken, the deal on the page."""
    player = Seat(browser, f"http://127.0.0.1:{host.server.port}/?code={table.code}", PHONE)
    player.sit("ann")
    other = BotSeat(host.uri)
    other.join(table.code, name="bob")
    player.page.wait_for_selector("#table:not([hidden])")
    return player, other


def table_of(game: Game, variant_source: str) -> tuple[Table, dict[str, str]]:
    """A hosted table's save holding ``game`` as it is, resumed (as ``kalooki host --resume`` does), and
    each player's token to take their seat back."""
    seats = len(game.players)
    table = Table(game.variant, seats=seats, bots=["greedy"], seed=1, variant_source=variant_source)
    tokens = {name: table.join(name)[1] for name in game.players}
    table.game = game
    return Table.resume(table.save_text().encode()), tokens


def ann_about_to_go_out(**knobs: object) -> Game:
    """Three players, seven cards each, any meld opening, and ``knobs`` on top: ann laid a run in her first
    turn, and goes out in her second by laying 9C 9D 9S (not Kalooki: she had melded before); bob is left
    his court cards, cid 19 points."""
    hands = ["5H 6H 7H 8H 9C 9D KC", "KD QD JD TD KS QS 8S", "2C 3C 2D 3D 2H 3H 4S"]
    game = new_game(
        {"hand_size": 7, "opening_threshold": 0, **knobs}, hands, discard=None, stock="9S 8C 8D 2S 3S 4C"
    )
    play(game, "draw stock", "meld 5H 6H 7H 8H", "discard KC")
    play(game, "draw stock", "discard 8C", "draw stock", "discard 8D")
    return game


def taking_seat_back(
    browser: Any, port: int, code: str, token: str, viewport: dict[str, int] = PHONE
) -> Seat:
    """A page (a phone's, unless ``viewport`` says) at the table, taking back the seat whose token the
    browser keeps (as after a reload): the page keeps it under the table's address and code."""
    page = Seat(browser, f"http://127.0.0.1:{port}/?code={code}", viewport)
    key = json.dumps(f"kalooki:127.0.0.1:{port}:{code}")
    page.js(f"localStorage.setItem({key}, {json.dumps(token)})")
    page.page.reload()
    page.page.wait_for_selector("#table:not([hidden])")
    return page
