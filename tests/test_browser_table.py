"""The browser table in Chromium (Debian's package, driven by Playwright) on a real table on 127.0.0.1.

Two browsers and ``kalooki join`` (the real program, which sends no ``Origin``) play a hand to
its end; the browsers play through the page alone: Hint, a tap on its first line, Enter in the
move box; the terminal at its prompts. A browser reloads mid-turn and keeps its
seat, and reconnects by itself when the host drops its connection; an illegal meld shows the
engine's reason beside the hand and changes nothing, then a meld tapped together (a joker in
it) and a tapped discard stand; a name with ``<script>`` shows as text. Two players waiting in the
lobby read each other in its log and say through its Say box, and that talk stays in the game's log;
another player's undo is told in the log.
Screenshots of a phone-size and a laptop-size table are saved (the path is printed: run with
``-s`` to see it, or set ``KALOOKI_SCREENSHOTS=DIR``). Short hands (7 cards, nothing to open)
keep the run bounded; every wait has a limit.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from kalooki_cli.web_coach import WebCoach
from kalooki_net.botclient import BotSeat
from kalooki_net.table import Table
from net_helpers import Terminal, bot_plays_until_the_hand_ends, hosted, new_table
from playwright import sync_api

from kalooki.cards import format_card

KALOOKI = Path(sys.executable).with_name("kalooki")
TIMEOUT = 20.0
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
if BROWSER is None and os.environ.get("CI") != "true":  # pragma: no cover - a machine without Chromium
    pytest.skip("no Chromium here (make test installs Debian's chromium as root)", allow_module_level=True)

PHONE = {"width": 375, "height": 812}
LAPTOP = {"width": 1280, "height": 860}
LIMIT = 120.0
"""Seconds a whole hand may take before the test gives up (it takes a few)."""
QUICK = {"hand_size": 7, "opening_threshold": 0}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=BROWSER, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
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


def test_two_browsers_and_a_terminal_play_a_hand_to_its_end(
    browser: Any, shots: Path, tmp_path: Path
) -> None:
    table = new_table(seats=3, seed=3, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        url = f"http://127.0.0.1:{host.server.port}/?code={table.code}"
        phone, laptop = Seat(browser, url, PHONE), Seat(browser, url, LAPTOP)
        assert phone.page.input_value("#join-code") == table.code  # from the link
        phone.page.screenshot(path=str(shots / "phone-join.png"))
        phone.sit("ann")
        laptop.sit("<script>x</script>")
        laptop.page.screenshot(path=str(shots / "laptop-lobby.png"))
        terminal = Terminal(f"127.0.0.1:{host.server.port}", table.code, tmp_path)
        for seat in (phone, laptop):
            seat.page.wait_for_selector("#table:not([hidden])")
        # The name is text on every screen; no element was made of it.
        assert "<script>x</script>" in phone.page.locator("#players").inner_text()
        assert phone.page.locator("script").count() == 1
        assert laptop.page.locator("body script").count() == 0
        moves, deadline = 0, time.monotonic() + LIMIT
        while not any(seat.attribute("data-phase") in ("hand_over", "game_over") for seat in (phone, laptop)):
            assert time.monotonic() < deadline, "the hand did not end in time"
            mover = next((seat for seat in (phone, laptop) if seat.mine()), None)
            if mover is None:
                time.sleep(0.05)
                continue
            mover.play_by_hint()
            moves += 1
            if moves == 8:
                phone.js("window.scrollTo(0, 0)")
                phone.page.screenshot(path=str(shots / "phone-table.png"))
                laptop.page.screenshot(path=str(shots / "laptop-table.png"))
        for seat in (phone, laptop):
            seat.page.wait_for_selector("#hand-end:not([hidden])")
            assert seat.page.locator("#hand-end-title").inner_text() == "Hand 1 is over"
            assert seat.page.locator("#hand-end-lines p").first.inner_text().endswith("went out.")
            assert seat.page.locator("#hand-end-table tbody tr").count() == 3
        phone.page.screenshot(path=str(shots / "phone-hand-end.png"), full_page=True)
        laptop.page.screenshot(path=str(shots / "laptop-hand-end.png"))
        assert host.call(lambda: host.table.require_game().phase) in ("hand_over", "game_over")
        assert moves >= 4
        assert terminal.moves >= 4
        # The score sheet and the rulebook are one click away.
        laptop.page.click("#scores-button")
        sheet = laptop.page.locator("#scores-dialog table").inner_text()
        assert "total" in sheet
        assert "<script>x</script> (you)" in sheet
        laptop.page.click("#scores-dialog .close")
        laptop.page.click("#rules-button")
        laptop.page.wait_for_selector("#rules-body h3")
        assert (
            "A run is 3 or more consecutive cards of one suit."
            in laptop.page.locator("#rules-body").inner_text()
        )
        laptop.page.screenshot(path=str(shots / "laptop-rules.png"))
        assert phone.problems == []
        assert laptop.problems == []
        seen = terminal.quit()
        # The terminal player saw the browsers' turns told as anyone's, and the end of the hand.
        assert "You sit at seat 3 as cid." in seen
        assert "Ann draws from the stock." in seen or "Ann takes " in seen
        assert "<script>x</script> " in seen
        assert "Hand 1 is over" in seen
        assert "✗" not in seen


def test_a_reload_keeps_the_seat_and_an_illegal_meld_shows_the_reason(browser: Any, shots: Path) -> None:
    table = new_table(seats=2, seed=10, **QUICK)  # ann is dealt AD AC JK, and plays first
    with hosted(table, advisor=WebCoach()) as host:
        url = f"http://127.0.0.1:{host.server.port}/?code={table.code}"
        player = Seat(browser, url, PHONE)
        player.sit("ann")
        terminal = BotSeat(host.uri)
        terminal.join(table.code, name="bob")
        robot = threading.Thread(target=bot_plays_until_the_hand_ends, args=(terminal,), daemon=True)
        robot.start()
        player.wait("document.getElementById('table').dataset.turn === 'mine'")
        # By keyboard alone: focus, Enter on a button, Space on a card.
        player.page.focus("#draw-stock")
        player.page.keyboard.press("Enter")
        player.wait("document.getElementById('table').dataset.phase === 'play'")
        seat = host.call(lambda: host.table.seats[0].name)
        hand = player.page.locator("#hand").inner_text()
        # Mid-turn, the page is reloaded: the seat comes back by its token, the hand as it was.
        player.page.reload()
        player.page.wait_for_selector("#table:not([hidden])")
        player.wait("document.getElementById('table').dataset.phase === 'play'")
        assert player.page.locator("#hand").inner_text() == hand
        assert host.call(lambda: host.table.seats[0].name) == seat == "ann"
        assert "ann (you)" in player.page.locator("#players").inner_text()
        # The connection drops (the host cuts it): the page comes back by itself, to the same seat.
        dropped = host.call(lambda: host.server.by_seat[0])
        host.call(lambda: dropped.websocket.transport.abort())
        deadline = time.monotonic() + 20
        while host.call(lambda: host.server.by_seat.get(0)) in (None, dropped):
            assert time.monotonic() < deadline, "the page did not reconnect"
            time.sleep(0.05)
        player.wait("document.getElementById('banner').hidden")
        assert player.page.locator("#hand").inner_text() == hand
        # A meld of three cards that make no meld: the engine's reason, beside the hand; nothing moves.
        cards = player.js(
            "[...document.querySelectorAll('#hand .card')].map((c) => c.getAttribute('aria-label'))"
        )
        player.page.locator("#hand .card").first.focus()
        player.page.keyboard.press("Space")
        assert player.page.locator("#hand .card").first.get_attribute("aria-pressed") == "true"
        player.page.keyboard.press("Space")
        assert player.page.locator("#hand .card[aria-pressed=true]").count() == 0
        picks = unmeldable(cards)
        for index in picks:
            player.page.locator("#hand .card").nth(index).click()
        player.page.click("#meld-button")
        reason = player.wait("document.getElementById('reason').textContent")
        assert reason.startswith("✗ ")
        assert "not a set" in reason or "not a run" in reason or "meld" in reason
        assert player.page.locator("#hand").inner_text() != ""
        assert player.js("document.getElementById('table').dataset.phase") == "play"
        assert host.call(lambda: len(host.table.require_game().table)) == 0
        player.page.screenshot(path=str(shots / "phone-refused.png"))
        # Then a meld that stands, by taps (the joker among them), and a tapped discard.
        player.page.click("#clear-button")
        for label in ("ace of diamonds", "ace of clubs", "joker"):
            player.page.locator(f'#hand .card[aria-label="{label}"]').first.click()
        player.page.click("#meld-button")
        player.wait("document.querySelectorAll('#melds li').length === 1")
        assert player.page.locator("#reason").text_content() == ""
        laid = player.js(
            "[...document.querySelectorAll('#melds .card')].map((c) => c.getAttribute('aria-label'))"
        )
        assert laid == ["ace of diamonds", "ace of clubs", "joker standing for A♥/♠"]
        melds = host.call(lambda: [meld.cards for meld in host.table.require_game().table])
        assert [[format_card(card) for card in cards] for cards in melds] == [["AD", "AC", "JK"]]
        # Undo takes the meld back, and the log says so (it brings no events to tell).
        player.page.click("#undo-button")
        player.wait("document.querySelectorAll('#melds li').length === 0")
        assert player.page.locator("#log li").last.inner_text() == TAKEN_BACK
        player.page.fill("#move-input", "m AD AC JK")
        player.page.press("#move-input", "Enter")
        player.wait("document.querySelectorAll('#melds li').length === 1")
        player.page.locator("#hand .card").first.click()
        player.page.click("#discard-button")
        # The turn passes (bob may already have played his): the log tells the discard.
        player.wait(
            "[...document.querySelectorAll('#log li')].some((li) => li.textContent.startsWith('You discard'))"
        )
        assert player.page.locator("#reason").text_content() == ""
        assert [problem for problem in player.problems if "WebSocket" not in problem] == []
        terminal.close()


LOG_TEXT = "[...document.querySelectorAll('#log li')].map((li) => li.textContent)"
"""The lines of the page's log, oldest first."""


def test_players_in_the_lobby_talk_through_the_log_that_goes_on_into_the_game(
    browser: Any, shots: Path
) -> None:
    table = new_table(seats=3, seed=3, **QUICK)  # three seats: two players wait in the lobby
    with hosted(table, advisor=WebCoach()) as host:
        url = f"http://127.0.0.1:{host.server.port}/?code={table.code}"
        ann, bob = Seat(browser, url, {"width": 390, "height": 844}), Seat(browser, url, LAPTOP)
        ann.sit("ann")
        bob.sit("bob")
        ann.wait(f"{LOG_TEXT}.includes('bob joined the table.')")
        for seat in (ann, bob):
            assert seat.page.locator("#lobby").is_visible()
            assert seat.page.locator("#log-title").is_visible()
            assert seat.page.locator("#say-input").is_visible()
        # What a player says goes in as text: no element is made of it.
        bob.page.fill("#say-input", "hello <b>ann</b>")
        bob.page.press("#say-input", "Enter")
        ann.wait(f"{LOG_TEXT}.includes('bob: hello <b>ann</b>')")
        assert ann.page.locator("#log b").count() == 0
        assert bob.page.input_value("#say-input") == ""
        ann.page.fill("#say-input", "hi bob, one more to come")
        ann.page.click("#say-form button")
        bob.wait(f"{LOG_TEXT}.includes('ann: hi bob, one more to come')")
        # Her own line comes back to her page by the same broadcast, not necessarily before bob's.
        ann.wait(f"{LOG_TEXT}.includes('you: hi bob, one more to come')")
        ann.page.screenshot(path=str(shots / "phone-lobby-talk.png"), full_page=True)
        bob.page.screenshot(path=str(shots / "laptop-lobby-talk.png"))
        # The third player fills the table and the deal comes: the talk stays in the game's log.
        cid = BotSeat(host.uri)
        cid.join(table.code, name="cid")
        for seat in (ann, bob):
            seat.page.wait_for_selector("#table:not([hidden])", timeout=TIMEOUT * 1000)
            assert seat.page.locator("#log-title").is_visible()
            assert seat.js(f"{LOG_TEXT}.some((line) => line.endsWith(': hi bob, one more to come'))")
        ann.js("window.scrollTo(0, 0)")
        ann.page.screenshot(path=str(shots / "phone-table-talk.png"), full_page=True)
        bob.page.screenshot(path=str(shots / "laptop-table-talk.png"))
        assert ann.problems == []
        assert bob.problems == []
        cid.close()


def test_a_reload_in_the_lobby_and_in_the_game_keeps_the_log(browser: Any) -> None:
    # The log lived on the page only: a reload, in the lobby or mid-game, started it empty, and what
    # had been said and played was gone.
    table = new_table(seats=3, seed=3, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        url = f"http://127.0.0.1:{host.server.port}/?code={table.code}"
        ann, bob = Seat(browser, url, PHONE), Seat(browser, url, LAPTOP)
        ann.sit("ann")
        bob.sit("bob")
        bob.page.fill("#say-input", "hello <b>ann</b>")
        bob.page.press("#say-input", "Enter")
        ann.wait(f"{LOG_TEXT}.includes('bob: hello <b>ann</b>')")
        before = ann.js(LOG_TEXT)
        ann.page.reload()
        ann.page.wait_for_selector("#lobby:not([hidden])")
        ann.wait("document.getElementById('banner').hidden")
        assert ann.js(LOG_TEXT) == before
        assert ann.page.locator("#log b").count() == 0  # kept as text, put back as text
        cid = BotSeat(host.uri)
        cid.join(table.code, name="cid")
        ann.page.wait_for_selector("#table:not([hidden])", timeout=TIMEOUT * 1000)
        ann.wait(f"{LOG_TEXT}.includes('cid joined the table.')")
        before = ann.js(LOG_TEXT)
        ann.page.reload()
        ann.page.wait_for_selector("#table:not([hidden])", timeout=TIMEOUT * 1000)
        assert ann.js(LOG_TEXT)[: len(before)] == before
        # Another browser is another player: it has no log of ann's.
        other = Seat(browser, url, PHONE)
        assert other.js("document.getElementById('log').children.length") == 0
        assert ann.problems == []
        cid.close()


def ann_on_a_phone_beside_bob(browser: Any, host: Any, table: Table) -> tuple[Seat, BotSeat]:
    """ann at the page on a phone, bob a client of the protocol: the two seats taken, the deal on the page."""
    player = Seat(browser, f"http://127.0.0.1:{host.server.port}/?code={table.code}", PHONE)
    player.sit("ann")
    other = BotSeat(host.uri)
    other.join(table.code, name="bob")
    player.page.wait_for_selector("#table:not([hidden])")
    return player, other


def test_a_new_table_at_the_address_sends_the_page_back_to_the_join_form(browser: Any) -> None:
    table = new_table(seats=2, seed=10, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        port = host.server.port
        player, other = ann_on_a_phone_beside_bob(browser, host, table)
        other.close()
    # The host closes that table and opens another on the same port: the page's rejoins are refused
    # (another code), and it says so on the join form instead of trying again for ever.
    with hosted(new_table(seats=2, seed=11, **QUICK), advisor=WebCoach(), port=port) as host:
        player.page.wait_for_selector("#join:not([hidden])", timeout=TIMEOUT * 1000)
        assert player.page.locator("#join-error").inner_text() == (
            "The table you sat at is closed, and another one is open here: ask its host for the join code."
        )
        assert player.js("document.getElementById('banner').hidden")
        assert player.js("document.getElementById('log').children.length") == 0
        assert player.page.locator("#rules-button").is_disabled()  # the old table's rulebook is gone too
        # The new table's code: a seat there, its lobby (nothing of the old table's hand).
        player.page.fill("#join-code", host.table.code)
        player.sit("ann")
        player.page.wait_for_selector("#lobby:not([hidden])")
        assert player.page.locator("#table").is_hidden()
        assert [problem for problem in player.problems if "WebSocket" not in problem] == []


TAKEN_BACK = "Taken back: your hand and the table are as they were after your draw."
"""The terminal's words for an undo."""


def test_the_end_of_the_game_shows_the_last_hand_then_the_sheet_whole_on_a_phone(
    browser: Any, shots: Path
) -> None:
    table = new_table(seats=2, seed=10, goal_score=1, **QUICK)  # any loser's points end the game
    with hosted(table, advisor=WebCoach()) as host:
        url = f"http://127.0.0.1:{host.server.port}/?code={table.code}"
        player = Seat(browser, url, {"width": 375, "height": 667})
        player.sit("Maximiliana")
        other = BotSeat(host.uri)
        other.join(table.code, name="Bartholomew")
        robot = threading.Thread(target=bot_plays_until_the_hand_ends, args=(other,), daemon=True)
        robot.start()
        player.play_until("game_over", "the game")
        player.page.wait_for_selector("#game-end:not([hidden])")
        player.page.screenshot(path=str(shots / "phone-game-end.png"), full_page=True)
        # How the last hand ended (who went out, everyone's cards left), as after every hand...
        assert player.page.locator("#hand-end-title").inner_text() == "Hand 1 is over"
        assert player.page.locator("#hand-end-lines p").first.inner_text().endswith("went out.")
        assert player.page.locator("#hand-end-table tbody tr").count() == 2
        # ... then who won, and the score sheet with its legend once.
        assert player.page.locator("#game-end-lines").inner_text().strip().endswith("the game!")
        ending = player.page.locator("#hand-end").inner_text()
        assert ending.count("* went out.") == ending.count("Scoring: ") == 1
        # Both tables whole at 375 px: the total column is not cut off behind a scroll.
        for width, room in player.js(
            "[...document.querySelectorAll('#hand-end .scroll')].map((n) => [n.scrollWidth, n.clientWidth])"
        ):
            assert width <= room + 1
        assert player.problems == []
        other.close()
        # The host stops: a finished game has nothing to come back to, so the page stops trying.
        asyncio.run_coroutine_threadsafe(host.server.close("the host stopped"), host.loop).result(TIMEOUT)
        over = "The game is over, and the table is closed: the host stopped."
        player.wait(f"document.getElementById('banner').textContent === {over!r}")
        time.sleep(2.5)  # a page still trying would say "(try 3)" by now
        assert player.page.locator("#banner").text_content() == over
        assert player.attribute("data-phase") == "game_over"


def test_a_closed_table_says_so_while_the_page_tries_to_come_back(browser: Any) -> None:
    table = new_table(seats=2, seed=10, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        player, other = ann_on_a_phone_beside_bob(browser, host, table)
        asyncio.run_coroutine_threadsafe(host.server.close("the host stopped"), host.loop).result(TIMEOUT)
        # The page tries again and again (a host restarted with --resume comes back), and keeps saying why.
        said = "document.getElementById('banner').textContent"
        banner = player.wait(f"/try 3/.test({said}) && {said}")
        assert banner == "The table is closed: the host stopped. Trying to reconnect (try 3)…"
        other.close()


def test_a_player_back_at_the_table_is_no_longer_shown_away(browser: Any) -> None:
    # The page kept "bob (away: greedy plays)" after bob was back, until the next move came.
    table = new_table(seats=2, seed=10, **QUICK)  # ann plays first
    table.wait_seconds = 0.0  # a player who drops is played by the bot at once
    with hosted(table, advisor=WebCoach()) as host:
        player, other = ann_on_a_phone_beside_bob(browser, host, table)
        other.until("state")
        other.close()  # bob drops out during ann's turn
        players = "document.getElementById('players').textContent"
        player.wait(f"{players}.includes('bob (away)')")
        player.wait("document.getElementById('table').dataset.turn === 'mine'")
        player.page.click("#draw-stock")
        player.wait("document.getElementById('table').dataset.phase === 'play'")
        player.page.locator("#hand .card").first.click()
        player.page.click("#discard-button")
        # bob's turn, played by the bot; then ann's again, and she thinks.
        player.wait(f"{players}.includes('bob (away: greedy plays)')")
        player.wait("document.getElementById('table').dataset.turn === 'mine'")
        back = BotSeat(host.uri)
        back.join(table.code, token=other.token)
        player.wait("/bob is back/.test(document.getElementById('log').textContent)")
        player.wait(f"!{players}.includes('away')", seconds=5)
        assert "bob" in player.page.locator("#players").inner_text()
        back.close()


def unmeldable(labels: list[str]) -> list[int]:
    """Three cards of the hand that are neither a set nor a run (two ranks, two suits)."""

    def parts(label: str) -> tuple[str, str]:
        rank, _, suit = label.split(",")[0].partition(" of ")
        return rank, suit

    for first in range(len(labels)):
        for second in range(first + 1, len(labels)):
            for third in range(second + 1, len(labels)):
                chosen = [parts(labels[index]) for index in (first, second, third)]
                if "joker" in (rank for rank, _ in chosen):
                    continue
                if len({rank for rank, _ in chosen}) > 1 and len({suit for _, suit in chosen}) > 1:
                    return [first, second, third]
    raise AssertionError(f"no three cards that make no meld in {labels}")


MID_WORD_BREAKS = """(selector) => {
  const broken = [];
  for (const node of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      let top = null;
      for (let i = 0; i < text.length; i += 1) {
        const range = document.createRange();
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        const rect = range.getClientRects()[0];
        if (!rect) continue;
        const inWord = /\\S/.test(text.data[i]) && /\\S/.test(text.data[i - 1] || " ");
        if (top !== null && inWord && rect.top > top + 2) broken.push(node.textContent);
        top = rect.top;
      }
    }
  }
  return broken;
}"""
"""The texts under ``selector`` that a line break splits between two letters of one word."""

CUT_TEXTS = """() => [...document.querySelectorAll('*')]
  .filter((node) => getComputedStyle(node).textOverflow === 'ellipsis')
  .filter((node) => node.getClientRects().length && node.scrollWidth > node.clientWidth)
  .map((node) => [node.textContent, node.title])"""
"""The texts drawn cut with an ellipsis, and their titles."""


@pytest.mark.parametrize("width", [375, 600, 1000, 1280, 1600])
def test_names_break_only_at_spaces_at_every_width(browser: Any, width: int) -> None:
    longest = "Wolfeschlegelsteinha"  # a name is one word of at most 20 characters
    table = new_table(seats=3, seed=3, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        url = f"http://127.0.0.1:{host.server.port}/?code={table.code}"
        seat = Seat(browser, url, {"width": width, "height": 800})
        seat.sit(longest)
        others = [BotSeat(host.uri) for _ in range(2)]
        for other, name in zip(others, ("Bartholomew", "<script>x</script>"), strict=True):
            other.join(table.code, name=name)
        seat.page.wait_for_selector("#table:not([hidden])")
        assert seat.page.evaluate(MID_WORD_BREAKS, "#players .who") == []
        names = seat.page.locator("#players .name")
        assert [names.nth(index).get_attribute("title") for index in range(3)] == [
            longest,
            "Bartholomew",
            "<script>x</script>",
        ]
        seat.page.click("#scores-button")
        seat.page.wait_for_selector("#scores-dialog table")
        assert seat.page.evaluate(MID_WORD_BREAKS, "#scores-dialog .who") == []
        for shown, title in seat.page.evaluate(CUT_TEXTS):
            assert title == shown  # whole in its title
        assert seat.problems == []
        for other in others:
            other.close()


def test_the_log_tells_another_players_undo(browser: Any) -> None:
    """ann melds and takes it back: the page told bob the meld as laid, so its log says it was taken back."""
    table = new_table(seats=2, seed=10, **QUICK)  # ann is dealt AD AC JK, and plays first
    with hosted(table, advisor=WebCoach()) as host:
        ann = BotSeat(host.uri)
        ann.join(table.code, name="ann")
        bob = Seat(browser, f"http://127.0.0.1:{host.server.port}/?code={table.code}", LAPTOP)
        bob.sit("bob")
        assert ann.until("state")["view"]["current"] == ann.seat
        for move in ("ds", "m AD AC JK"):
            ann.send({"type": "move", "move": move})
            ann.until("state")
        bob.wait(f"{LOG_TEXT}.some((line) => line.startsWith('Ann melds'))")
        ann.send({"type": "undo"})
        taken_back = "Ann takes back this turn's melds: the table is as it was after the draw."
        bob.wait(f"{LOG_TEXT}.includes({json.dumps(taken_back)})")
        bob.wait("document.querySelectorAll('#melds li').length === 0")
        assert bob.problems == []
        ann.close()


def test_between_hands_the_page_names_whom_it_waits_for_and_a_reload_keeps_the_seat_ready(
    browser: Any,
) -> None:
    # The page said "Waiting for the others to be ready…" without saying who, and after a reload it offered
    # "Next hand" again to a player who had pressed it.
    table = new_table(seats=3, seed=3, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        url = f"http://127.0.0.1:{host.server.port}/?code={table.code}"
        player = Seat(browser, url, LAPTOP)
        player.sit("ann")
        bob, cid = BotSeat(host.uri), BotSeat(host.uri)
        bob.join(table.code, name="bob")
        cid.join(table.code, name="cid")
        robots = [threading.Thread(target=bot_plays_until_the_hand_ends, args=(seat,)) for seat in (bob, cid)]
        for robot in robots:
            robot.start()
        player.play_until("hand_over", "the hand")
        for robot in robots:
            robot.join(TIMEOUT)
        player.page.wait_for_selector("#ready-button:not([hidden])")
        bob.send({"type": "ready"})
        player.page.click("#ready-button")
        waiting = "document.getElementById('ready-wait')"
        player.wait(f"!{waiting}.hidden && {waiting}.textContent === 'Waiting for cid…'")
        player.page.reload()
        player.page.wait_for_selector("#hand-end:not([hidden])")
        player.wait(f"!{waiting}.hidden && {waiting}.textContent === 'Waiting for cid…'")
        assert player.page.locator("#ready-button").is_hidden()  # this seat is ready already
        cid.send({"type": "ready"})
        player.wait("document.getElementById('table').dataset.phase !== 'hand_over'")
        assert player.page.locator("#ready-wait").is_hidden()
        assert player.problems == []
        bob.close()
        cid.close()
