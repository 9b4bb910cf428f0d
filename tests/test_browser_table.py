"""The browser table in Chromium (Debian's package, driven by Playwright) on a real table on
127.0.0.1: the game.

Two browsers and ``kalooki join`` (the real program, which sends no ``Origin``) play a hand to
its end; the browsers play through the page alone: Hint, a tap on its first line, Enter in the
move box; the terminal at its prompts. A browser reloads mid-turn and keeps its
seat, and reconnects by itself when the host drops its connection; an illegal meld shows the
engine's reason beside the hand and changes nothing, then a meld tapped together (a joker in
it) and a tapped discard stand; a name with ``<script>`` shows as text. The end of the game, names
at every width and another player's undo in the log. (Who is where, the lobby, reloads of the log and
readiness between hands: ``test_browser_presence``.)
Screenshots of a phone-size and a laptop-size table are saved (the path is printed: run with
``-s`` to see it, or set ``KALOOKI_SCREENSHOTS=DIR``). Short hands (7 cards, nothing to open)
keep the run bounded; every wait has a limit.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import (
    LAPTOP,
    LIMIT,
    LOG_TEXT,
    PHONE,
    QUICK,
    TIMEOUT,
    Seat,
)
from kalooki_cli.web_coach import WebCoach
from kalooki_net.botclient import BotSeat
from net_helpers import Terminal, bot_plays_until_the_hand_ends, hosted, new_table

from kalooki.cards import format_card


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
        assert "ann draws from the stock." in seen or "ann takes " in seen
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
        assert laid == ["ace of diamonds", "ace of clubs", "joker standing for ace of hearts or spades"]
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
        # The log, which told each hand's end, tells the game's too: it stopped at the last hand's scores.
        won = player.page.locator("#game-end-lines p").first.inner_text()
        assert player.js(f"{LOG_TEXT}.slice(-2)")[1] == won
        assert player.js(f"{LOG_TEXT}.slice(-2)")[0].startswith("Hand 1 is over.")
        ending = player.page.locator("#hand-end").inner_text()
        assert ending.count("* went out.") == ending.count("Scoring: ") == 1
        # The sheet's "0*" over the winner's total: each player's digits stand in one column all the same.
        sheet = player.page.evaluate(DIGITS_RIGHT_EDGES, "#hand-end table.scores:not(.hand)")
        assert [text for text, _ in sheet[0]] == ["0*", sheet[0][1][0]]
        assert [right for _, right in sheet[0]] == [right for _, right in sheet[1]], sheet
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
        assert (
            player.js("document.title") == "Game over · Kalooki"
        )  # not "Not connected", nothing to come back to
        # Nothing said now reaches anyone: the Say box is off, and says why (a line sent went nowhere).
        assert player.page.locator("#say-input").is_disabled()
        assert player.page.locator("#say-send").is_disabled()
        assert player.page.get_attribute("#say-input", "placeholder") == "Not connected to the table"


DIGITS_RIGHT_EDGES = """(selector) => {
  // Each score cell's text and where its last digit ends, row by row (the first cell, a hand's
  // number or "total", left out).
  const lastDigitRight = (cell) => {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    let last = null;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.data.length; i++) if (/[0-9]/.test(node.data[i])) last = [node, i];
    }
    const range = document.createRange();
    range.setStart(last[0], last[1]);
    range.setEnd(last[0], last[1] + 1);
    return Math.round(range.getBoundingClientRect().right);
  };
  return [...document.querySelectorAll(`${selector} tbody tr`)].map((row) =>
    [...row.cells].slice(1).map((cell) => [cell.textContent, lastDigitRight(cell)]));
}"""


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


CUT_NAMES = (
    "[...document.querySelectorAll('#players .name')].filter((n) => n.scrollWidth > n.clientWidth).length"
)
OVERRUN_LABELS = (
    "[...document.querySelectorAll('#players td.who')].filter((td) => td.scrollWidth > td.clientWidth)"
    ".map((td) => td.textContent)"
)
"""The players' labels wider than their cells, which ran over the card counts beside them."""


@pytest.mark.parametrize(
    ("width", "names", "shown"),
    [
        # At 390 px both showed as "Maxi…" (whole only in a title, which a tap does not show).
        (390, ["Maximilian_Abcdefghi", "Maximilian_Zyxwvutsr", "bob"], "bob"),
        # At 360 px "cid (greedy)" wrapped at its space, but "(greedy)" alone was wider than the room the
        # numbers left the names, and ran over "13 cards" beside it.
        (360, ["bob", "ann"], "(greedy bot)"),
    ],
)
def test_names_and_labels_are_whole_in_the_players_list_on_a_phone(
    browser: Any, width: int, names: list[str], shown: str
) -> None:
    table = new_table(seats=3, seed=3, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        url = f"http://127.0.0.1:{host.server.port}/?code={table.code}"
        seat = Seat(browser, url, {"width": width, "height": 800})
        seat.sit(names[0])
        others = [BotSeat(host.uri) for _ in names[1:]]
        for other, name in zip(others, names[1:], strict=True):
            other.join(table.code, name=name)
        if len(names) < 3:
            host.call(host.server.start_game)  # as the host's start: a bot (cid) takes the open seat
        seat.page.wait_for_selector("#table:not([hidden])")
        seat.wait(f"document.getElementById('players').textContent.includes({shown!r})")
        assert seat.js(CUT_NAMES) == 0
        assert seat.js(OVERRUN_LABELS) == []
        assert seat.page.locator("#players .name").all_inner_texts() == [*names, "cid"][:3]
        # The numbers stay in columns, the row of whose turn it is too (its bold "13 cards" and "not opened"
        # were wider than their columns, and stood out to the left of the others): each column's cells
        # begin and end at one edge.
        edges = seat.js(
            "[...document.querySelectorAll('#players tr')].map((row) => [...row.cells].slice(1)"
            ".map((cell) => cell.getBoundingClientRect()).map((box) => [box.left, box.right]))"
        )
        assert all(row == edges[0] for row in edges), edges
        assert seat.problems == []
        for other in others:
            other.close()


def test_names_are_fitted_again_when_the_window_narrows(browser: Any) -> None:
    # Fitted to the width at which the table was drawn only: a laptop's window narrowed to a phone's width
    # (or a phone turned upright) showed both names as "Maximilian_…" until the next move redrew the list.
    names = ["Maximilian_Abcdefghi", "Maximilian_Zyxwvutsr"]
    table = new_table(seats=2, seed=3, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        wide = {"width": 1920, "height": 900}
        seat = Seat(browser, f"http://127.0.0.1:{host.server.port}/?code={table.code}", wide)
        seat.sit(names[0])
        other = BotSeat(host.uri)
        other.join(table.code, name=names[1])
        seat.page.wait_for_selector("#table:not([hidden])")
        assert seat.js("document.getElementById('players').className") == ""
        seat.page.set_viewport_size({"width": 390, "height": 800})
        seat.wait(f"({CUT_NAMES}) === 0")
        assert seat.js(OVERRUN_LABELS) == []
        seat.page.set_viewport_size(wide)
        seat.wait("!document.getElementById('players').classList.contains('long-names')")
        assert seat.problems == []
        other.close()


@pytest.mark.parametrize("width", [360, 390])
def test_the_score_sheet_of_four_shows_every_column_on_a_phone(browser: Any, width: int) -> None:
    # A long name and three bots' labels made the sheet wider than its dialog: dee's column and the
    # totals were behind a sideways scroll with no bar to show it.
    table = new_table(seats=4, seed=3, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        seat = Seat(
            browser,
            f"http://127.0.0.1:{host.server.port}/?code={table.code}",
            {"width": width, "height": 800},
        )
        seat.sit("Wolfeschlegelsteinha")  # a name's most: one word of 20 characters
        host.call(host.server.start_game)  # bots take the three open seats
        seat.page.wait_for_selector("#table:not([hidden])")
        seat.page.click("#scores-button")
        seat.page.wait_for_selector("#scores-dialog table")
        assert seat.page.locator("#scores-dialog thead th").count() == 5
        room = seat.js(
            "((dialog) => [dialog.scrollWidth, dialog.clientWidth])(document.getElementById('scores-dialog'))"
        )
        assert room[0] <= room[1], room
        assert seat.problems == []


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
        bob.wait(f"{LOG_TEXT}.some((line) => line.startsWith('ann melds'))")
        ann.send({"type": "undo"})
        taken_back = "ann takes back this turn's melds: the table is as it was after the draw."
        bob.wait(f"{LOG_TEXT}.includes({json.dumps(taken_back)})")
        bob.wait("document.querySelectorAll('#melds li').length === 0")
        assert bob.problems == []
        ann.close()


def test_undo_typed_with_nothing_to_take_back_says_why_as_the_terminal_does(browser: Any) -> None:
    # The page pressed its Undo button, which is off with nothing to take back: nothing happened, and the
    # line beside the hand still showed the refusal before it.
    table = new_table(seats=2, seed=10, **QUICK)  # ann plays first
    with hosted(table, advisor=WebCoach()) as host:
        ann = Seat(browser, f"http://127.0.0.1:{host.server.port}/?code={table.code}", PHONE)
        ann.sit("ann")
        bob = BotSeat(host.uri)
        bob.join(table.code, name="bob")
        ann.wait("document.getElementById('table').dataset.turn === 'mine'")
        # Each once the last is answered: the box sends no move while one waits for the table (it stays
        # in the box), and on a busy machine "undo" was pressed before "d ZZ" was refused.
        for typed, answered in (
            ("ds", "document.getElementById('table').dataset.phase === 'play'"),
            ("d ZZ", "document.getElementById('reason').textContent.includes('ZZ')"),
            ("undo", "document.getElementById('table').dataset.phase === 'play'"),
        ):
            ann.page.fill("#move-input", typed)
            ann.page.press("#move-input", "Enter")
            ann.wait(answered)
        nothing = "✗ there is nothing to take back: undo takes back this turn's melds, builds and swaps"
        ann.wait(f"document.getElementById('reason').textContent === {json.dumps(nothing)}")
        assert ann.attribute("data-phase") == "play"
        assert ann.problems == []
        bob.close()


@pytest.mark.parametrize("width", [1920, 2200, 2560])
def test_a_wide_screen_is_filled_by_the_table_not_left_mostly_empty(browser: Any, width: int) -> None:
    # The table stopped at 1280 px: on a 2560 px screen it sat in the middle half, in 16 px type.
    table = new_table(seats=2, seed=10, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        seat = Seat(
            browser,
            f"http://127.0.0.1:{host.server.port}/?code={table.code}",
            {"width": width, "height": 1200},
        )
        seat.sit("ann")
        other = BotSeat(host.uri)
        other.join(table.code, name="bob")
        seat.page.wait_for_selector("#table:not([hidden])")
        spans = seat.js(
            "[...document.querySelectorAll('.board, .mine, .side')]"
            ".map((part) => part.getBoundingClientRect()).map((box) => [box.left, box.right])"
        )
        left, right = min(box[0] for box in spans), max(box[1] for box in spans)
        assert right - left >= 0.9 * width, (left, right)
        assert seat.js("document.documentElement.scrollWidth") <= width  # nothing past the screen's edge
        # Wider than a laptop's, the type grows with the screen: the hand's cards over 1.2 rem of 16 px.
        if width > 2000:
            assert (
                seat.js("parseFloat(getComputedStyle(document.querySelector('#hand .card')).fontSize)")
                > 1.2 * 16
            )
        assert seat.problems == []
        other.close()


SAY_ROOM = """(() => {
  const box = document.getElementById('say-input');
  const style = getComputedStyle(box);
  const pen = document.createElement('canvas').getContext('2d');
  pen.font = style.font;
  const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return [room, pen.measureText(box.placeholder).width];
})()"""
"""The room for text in the Say box, and the width of its placeholder ("Talk to the table")."""


@pytest.mark.parametrize("width", [375, 900, 1024, 1280])
def test_the_say_box_shows_its_words_whole_in_the_logs_column(browser: Any, width: int) -> None:
    # In the log's column on a laptop the box had about ten letters of room: "Talk to the tal".
    table = new_table(seats=2, seed=10, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        url = f"http://127.0.0.1:{host.server.port}/?code={table.code}"
        seat = Seat(browser, url, {"width": width, "height": 800})
        seat.sit("ann")
        other = BotSeat(host.uri)
        other.join(table.code, name="bob")
        seat.page.wait_for_selector("#table:not([hidden])")
        room, words = seat.js(SAY_ROOM)
        assert room >= words, (room, words)
        seat.page.fill("#say-input", "hello")
        seat.page.press("#say-input", "Enter")
        seat.wait(f"{LOG_TEXT}.includes('you: hello')")
        assert seat.problems == []
        other.close()
