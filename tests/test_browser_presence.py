"""The browser table in Chromium on a real table on 127.0.0.1: who is where.

Two players waiting in the lobby read each other in its log and say through its Say box, and that
talk stays in the game's log; a reload in the lobby or the game keeps the log; a new table at the
same address sends the page back to the join form; a closed table says so while the page tries to
come back; a page whose connection the host dropped says so and stays away until reloaded; a player
back is no longer shown away; between hands the page names whom the deal waits
for. (Playing the game in the page: ``test_browser_table``.)
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from browser_helpers import (
    LAPTOP,
    LOG_TEXT,
    PHONE,
    QUICK,
    TIMEOUT,
    Seat,
    ann_on_a_phone_beside_bob,
    taking_seat_back,
)
from kalooki_cli.web_coach import WebCoach
from kalooki_net.botclient import BotSeat
from kalooki_net.table import Table
from net_helpers import bot_plays_until_the_hand_ends, hosted, new_table


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
        # Which rules the table plays, before the deal (the lobby said nothing of them), as it has them.
        game = (
            "The game: classic: 7 cards each, nothing to open, runs of 3 or more, 2 jokers. "
            "Rules, at the top, has the whole rulebook."
        )
        for seat in (ann, bob):
            assert seat.page.locator("#lobby-game").inner_text() == game
            assert seat.page.locator("#lobby").is_visible()
            assert seat.page.locator("#log-title").is_visible()
            assert seat.page.locator("#say-input").is_visible()
        # What a player says goes in as text: no element is made of it.
        say(bob, "hello <b>ann</b>")
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


def say(seat: Seat, text: str) -> None:
    """``text`` said through the Say box."""
    seat.page.fill("#say-input", text)
    seat.page.press("#say-input", "Enter")


def ann_and_bob_in_the_lobby(browser: Any, host: Any, table: Table) -> tuple[Seat, Seat, str]:
    """ann on a phone and bob on a laptop, seated at ``table`` in its lobby, and the page's address."""
    url = f"http://127.0.0.1:{host.server.port}/?code={table.code}"
    ann, bob = Seat(browser, url, PHONE), Seat(browser, url, LAPTOP)
    ann.sit("ann")
    bob.sit("bob")
    return ann, bob, url


def test_what_a_player_says_shows_its_control_characters_spelled_out_on_every_page(browser: Any) -> None:
    # The terminals spelled them out, but the pages showed boxes, and the right-to-left override turned
    # the rest round: "A▯[2J▯[31mRED▯ live" on the page of the one who said it.
    table = new_table(seats=3, seed=3, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob, _ = ann_and_bob_in_the_lobby(browser, host, table)
        say(bob, "A\x1b[2J\x1b[31mRED\x07 \u202eevil\u202c")
        spelled = "A\\x1b[2J\\x1b[31mRED\\x07 \\u202eevil\\u202c"
        for seat, who in ((ann, "bob"), (bob, "you")):
            seat.wait(f"{LOG_TEXT}.some((line) => line.startsWith('{who}: A'))")
            assert f"{who}: {spelled}" in seat.js(LOG_TEXT)
        assert ann.problems == []
        assert bob.problems == []


def test_a_reload_in_the_lobby_and_in_the_game_keeps_the_log(browser: Any) -> None:
    # The log lived on the page only: a reload, in the lobby or mid-game, started it empty, and what
    # had been said and played was gone.
    table = new_table(seats=3, seed=3, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob, url = ann_and_bob_in_the_lobby(browser, host, table)
        say(bob, "hello <b>ann</b>")
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


AT_THE_NEWEST = (
    "((log) => log.scrollHeight > log.clientHeight"
    " && log.scrollTop + log.clientHeight >= log.scrollHeight - 1)(document.getElementById('log'))"
)
"""The log overflows its box, and is scrolled to its newest line."""


def bob_fills_anns_log(ann: Seat, bob: BotSeat) -> None:
    """bob says forty lines: ann's log overflows its box, and shows the newest."""
    for number in range(40):
        bob.send({"type": "say", "text": f"line {number}"})
    ann.wait(f"{LOG_TEXT}.includes('bob: line 39')")
    assert ann.js(AT_THE_NEWEST)


def test_a_reloaded_page_shows_the_newest_lines_of_its_log(browser: Any) -> None:
    # The log restored after a reload was scrolled to the top (0 of 3281): its lines were put back while
    # the table was hidden, where scrolling does nothing.
    table = new_table(seats=2, seed=10, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob = ann_on_a_phone_beside_bob(browser, host, table)
        bob_fills_anns_log(ann, bob)
        ann.page.reload()
        ann.page.wait_for_selector("#table:not([hidden])", timeout=TIMEOUT * 1000)
        ann.wait("document.getElementById('banner').hidden")
        assert ann.js(f"{LOG_TEXT}.includes('bob: line 39')")
        assert ann.js(AT_THE_NEWEST)
        assert ann.problems == []
        bob.close()


LOG_TOP = "document.getElementById('log').scrollTop"


def test_the_log_stays_where_its_reader_scrolled_up_and_follows_again_from_the_bottom(browser: Any) -> None:
    # Each new line (a bot's move every second) pulled a reader of older lines back to the bottom.
    table = new_table(seats=2, seed=10, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob = ann_on_a_phone_beside_bob(browser, host, table)
        bob_fills_anns_log(ann, bob)
        ann.page.locator("#log li").nth(3).scroll_into_view_if_needed()  # as a finger scrolls it up
        ann.page.wait_for_timeout(200)
        reading = ann.js(LOG_TOP)
        bob.send({"type": "say", "text": "while ann reads"})
        ann.wait(f"{LOG_TEXT}.includes('bob: while ann reads')")
        ann.page.wait_for_timeout(200)
        assert ann.js(LOG_TOP) == reading
        ann.js("document.getElementById('log').lastElementChild.scrollIntoView()")
        ann.page.wait_for_timeout(200)
        bob.send({"type": "say", "text": "back at the bottom"})
        ann.wait(f"{LOG_TEXT}.includes('bob: back at the bottom')")
        ann.wait(AT_THE_NEWEST)
        # The phone turned and back: the lines wrap anew, and the log still shows its newest.
        for width in (320, 700, 375):
            ann.page.set_viewport_size({"width": width, "height": PHONE["height"]})
            ann.wait(AT_THE_NEWEST, seconds=2)
        assert ann.problems == []
        bob.close()


def test_a_new_table_at_the_address_sends_the_page_back_to_the_join_form(browser: Any) -> None:
    table = new_table(seats=2, seed=10, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        port = host.server.port
        player, other = ann_on_a_phone_beside_bob(browser, host, table)
        other.close()
    saved = table.save_text().encode()
    old_link = f"http://127.0.0.1:{port}/?code={table.code}"
    # The host closes that table and opens another on the same port: the page's rejoins are refused
    # (another code), and it says so on the join form instead of trying again for ever.
    with hosted(new_table(seats=2, seed=11, **QUICK), advisor=WebCoach(), port=port) as host:
        player.page.wait_for_selector("#join:not([hidden])", timeout=TIMEOUT * 1000)
        assert player.page.locator("#join-error").inner_text() == (
            "The table you sat at is closed, and another one is open here: ask its host for the join code. "
            "Your seat at the closed table is kept in this browser: "
            "when its host reopens it, open its link again."
        )
        assert player.js("document.getElementById('banner').hidden")
        assert player.js("document.getElementById('log').children.length") == 0
        assert player.page.locator("#rules-button").is_disabled()  # the old table's rulebook is gone too
        # The new table's code: a seat there, its lobby (nothing of the old table's hand).
        player.page.fill("#join-code", host.table.code)
        player.sit("ann")
        player.page.wait_for_selector("#lobby:not([hidden])")
        assert player.page.locator("#table").is_hidden()
    # The first table reopened (kalooki host --resume): its link takes ann's seat back. The refusals
    # had thrown her token away, and her seat was the table's to give a bot for the rest of the game.
    with hosted(Table.resume(saved), advisor=WebCoach(), port=port):
        player.page.goto(old_link)
        player.page.wait_for_selector("#table:not([hidden])", timeout=TIMEOUT * 1000)
        assert player.page.locator("#lobby-you").inner_text() == "You sit at seat 1 as ann."
        player.wait("document.getElementById('banner').hidden")
        assert [problem for problem in player.problems if "WebSocket" not in problem] == []


def test_the_name_typed_on_the_join_form_says_whose_seat_is_taken(browser: Any) -> None:
    # The form sent the seat token this browser kept whatever name was typed: "bob" sat down as zed again.
    table = new_table(seats=3, seed=3, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        player = Seat(browser, f"http://127.0.0.1:{host.server.port}/?code={table.code}", LAPTOP)
        player.sit("zed")
        you = "document.getElementById('lobby-you').textContent"
        player.wait(f"{you} === 'You sit at seat 1 as zed.'")
        # Another name sits anew, as kalooki join --name does; the same name, in any case, takes its seat
        # back.
        for name in ("bob", "BOB"):
            player.page.goto(f"http://127.0.0.1:{host.server.port}/")
            player.page.fill("#join-code", table.code)
            player.sit(name)
            player.wait(f"{you} === 'You sit at seat 2 as bob.'")
        assert host.call(lambda: [seat.name for seat in host.table.seats]) == ["zed", "bob", None]
        assert player.problems == []


MOVE_BUTTONS = "[...document.querySelectorAll('#actions button')].filter((button) => !button.hidden)"
"""The move buttons shown."""
REASON = "document.getElementById('reason').textContent"


def test_a_closed_table_says_so_while_the_page_tries_to_come_back(browser: Any) -> None:
    table = new_table(seats=2, seed=10, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        port = host.server.port
        player, other = ann_on_a_phone_beside_bob(browser, host, table)
        player.wait("document.getElementById('table').dataset.turn === 'mine'")
        assert player.js(f"{MOVE_BUTTONS}.some((button) => !button.disabled)")
        assert player.js("document.title") == "Your turn · Kalooki"
        asyncio.run_coroutine_threadsafe(host.server.close("the host stopped"), host.loop).result(TIMEOUT)
        # The page tries again and again (a host restarted with --resume comes back), and keeps saying why.
        said = "document.getElementById('banner').textContent"
        banner = player.wait(f"/try 3/.test({said}) && {said}")
        assert banner == (
            "The table is closed: the host stopped. When the host reopens the game (kalooki host --resume), "
            "this page takes your seat back by itself. Trying to reconnect (try 3)…"
        )
        # Nothing can be played meanwhile, and the tab's title does not call anyone to play.
        assert (
            player.js(f"{MOVE_BUTTONS}.filter((button) => !button.disabled).map((button) => button.id)") == []
        )
        assert player.js("document.title") == "Not connected · Kalooki"
        # On a phone scrolled down to its hand, the banner is still in sight.
        player.js("document.querySelector('.mine').scrollIntoView()")
        assert player.js("document.getElementById('banner').getBoundingClientRect().top") >= 0
        # A move typed meanwhile is refused on the page itself.
        player.page.fill("#move-input", "ds")
        player.page.press("#move-input", "Enter")
        assert player.js(REASON) == "✗ not connected to the table: reconnecting…"
        other.close()
    # The host reopens the game: the seat is back, and so are the buttons, with that refusal gone.
    with hosted(Table.resume(table.save_text().encode()), advisor=WebCoach(), port=port):
        player.wait("document.getElementById('banner').hidden")
        assert player.js(REASON) == ""
        assert player.js(f"{MOVE_BUTTONS}.some((button) => !button.disabled)")
        assert player.js("document.title") == "Your turn · Kalooki"


def test_a_page_the_host_dropped_says_so_and_comes_back_only_when_reloaded(browser: Any) -> None:
    # Coming back by itself, the page would hold the table up again: the host drops a player who does nothing.
    table = new_table(seats=2, seed=10, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        player, other = ann_on_a_phone_beside_bob(browser, host, table)
        host.call(host.server.drop, "ann")
        said = "document.getElementById('banner').textContent"
        assert player.wait(f"/Reload/.test({said}) && {said}") == (
            "The host dropped your connection: the table waits 30 seconds for you, then a bot plays your "
            "seat until you join again. Reload the page to take your seat back."
        )
        player.page.wait_for_timeout(1500)  # past the page's first tries to reconnect after a drop
        assert not host.call(lambda: host.table.seats[0].connected)
        player.page.reload()
        player.page.wait_for_selector("#table:not([hidden])")
        player.wait("document.getElementById('banner').hidden")
        assert host.call(lambda: host.table.seats[0].connected)
        other.close()


def test_a_page_the_host_removed_says_so_forgets_the_seat_and_stays_away(browser: Any) -> None:
    # Dropped, a player came back at once and held the table up again: removed, the seat is a bot's for good.
    table = new_table(seats=2, seed=10, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        player, other = ann_on_a_phone_beside_bob(browser, host, table)
        host.call(host.server.remove, "ann")
        said = "document.getElementById('banner').textContent"
        assert player.wait(f"/removed/.test({said}) && {said}") == (
            "The host removed you from the table: a bot plays your seat to the end."
        )
        player.page.wait_for_timeout(1500)  # past the page's first tries to reconnect after a drop
        assert host.call(lambda: (host.table.seats[0].kind, host.table.seats[0].connected)) == ("bot", False)
        assert player.js("document.getElementById('say-send').disabled")
        player.page.reload()  # its token forgotten: the join form, not the seat
        player.page.wait_for_selector("#join:not([hidden])")
        assert host.call(lambda: host.table.seats[0].connected) is False
        other.close()


def test_a_page_removed_while_away_is_told_so_by_the_reopened_table(browser: Any) -> None:
    # The save kept no removed token: the reopened table answered it bad_token, and the page said "Your seat
    # here is no longer known" on the join form; only a join by name then said the host had removed ann.
    table = new_table(seats=2, seed=10, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        port = host.server.port
        ann, bob = BotSeat(host.uri), BotSeat(host.uri)
        ann.join(table.code, name="ann")
        bob.join(table.code, name="bob")
        bob.until("state")
        ann.close()  # her page closed: she is away
        assert host.call(host.server.remove, "ann").startswith("ann is removed: ")
        saved = host.call(table.save_text).encode()
        bob.close()
    with hosted(Table.resume(saved), advisor=WebCoach(), port=port):
        player = Seat(browser, f"http://127.0.0.1:{port}/?code={table.code}", PHONE)
        key = json.dumps(f"kalooki:127.0.0.1:{port}:{table.code}")
        player.js(f"localStorage.setItem({key}, {json.dumps(ann.token)})")
        player.page.reload()  # the page takes its seat back with the token it kept
        said = "document.getElementById('banner').textContent"
        assert player.wait(f"/removed/.test({said}) && {said}") == (
            "The host removed you from this table: a bot plays your seat to the end of this game, and no one "
            "new can sit down or watch it; ask the host if you want to play at their next table."
        )
        assert player.js("document.getElementById('join-error').textContent") == ""
        assert player.js(f"localStorage.getItem({key})") is None  # forgotten, as at the table not reopened


def test_the_status_says_when_the_player_whose_turn_it_is_goes_and_comes_back(browser: Any) -> None:
    # It went on saying "bob is playing." once bob had gone, and "bob is away: the table waits for them"
    # while he was back and playing, until his next move.
    table = new_table(seats=2, seed=10, **QUICK)  # ann plays first
    with hosted(table, advisor=WebCoach()) as host:
        player, bob = ann_on_a_phone_beside_bob(browser, host, table)
        status = "document.getElementById('status').textContent"
        while player.mine():  # her turn, to its discard: then bob's
            player.play_by_hint()
        player.wait(f"{status} === 'bob is playing.'")
        bob.close()
        player.wait(f"{status} === 'bob is away: the table waits for them, then a bot plays for them.'")
        back = BotSeat(host.uri)
        back.join(table.code, token=bob.token)
        player.wait(f"{status} === 'bob is playing.'")
        assert player.problems == []
        back.close()


@contextmanager
def played_at_once_when_away(browser: Any) -> Iterator[tuple[Any, Table, Seat, BotSeat]]:
    """ann at the page on a phone, first to play, beside bob, at a table whose bot plays at once for a
    player who drops out (no wait); the host and the table too."""
    table = new_table(seats=2, seed=10, **QUICK)  # ann plays first
    table.wait_seconds = 0.0
    with hosted(table, advisor=WebCoach()) as host:
        player, other = ann_on_a_phone_beside_bob(browser, host, table)
        yield host, table, player, other


def test_a_player_back_at_the_table_is_no_longer_shown_away(browser: Any) -> None:
    # The page kept "bob (away: greedy bot plays)" after bob was back, until the next move came.
    with played_at_once_when_away(browser) as (host, table, player, other):
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
        player.wait(f"{players}.includes('bob (away: greedy bot plays)')")
        player.wait("document.getElementById('table').dataset.turn === 'mine'")
        back = BotSeat(host.uri)
        back.join(table.code, token=other.token)
        player.wait("/bob is back/.test(document.getElementById('log').textContent)")
        player.wait(f"!{players}.includes('away')", seconds=5)
        assert "bob" in player.page.locator("#players").inner_text()
        back.close()


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


AWAY = "While you were away a bot played for you: its moves are told below as yours."
BACK = "You are back: your own moves from here."


def test_a_player_back_after_a_bot_played_for_them_is_told_whose_moves_those_were(browser: Any) -> None:
    # Back after the table's wait, ann's log read "You draw ..." as if she had played her turn herself.
    with played_at_once_when_away(browser) as (host, table, player, other):
        player.wait("document.getElementById('table').dataset.turn === 'mine'")
        key = json.dumps(f"kalooki:127.0.0.1:{host.server.port}:{table.code}")
        token = player.js(f"localStorage.getItem({key})")
        player.page.close()  # ann's turn goes to the bot
        while other.until("state")["view"]["current"] != other.seat:
            pass
        back = taking_seat_back(browser, host.server.port, table.code, token)
        lines = back.wait(f"{LOG_TEXT}.some((line) => line.startsWith('You draw')) && {LOG_TEXT}")
        assert AWAY in lines
        assert lines.index(AWAY) < next(index for index, line in enumerate(lines) if line.startswith("You "))
        # The bot's moves for her end where her own begin: the log ran on from one to the other unmarked.
        assert lines[-1] == BACK
        while other.my_turn():
            other.send({"type": "move", "move": other.next_move()})
            other.until("state")
        back.wait("document.getElementById('table').dataset.turn === 'mine'")
        while back.mine():
            back.play_by_hint()
        lines = back.wait(f"{LOG_TEXT}.at(-1).startsWith('You ') && {LOG_TEXT}")
        assert lines.count(BACK) == 1
        own = lines[lines.index(BACK) + 1 :]
        assert own[0].startswith("bob "), own  # bob's turn, then her own
        assert own[-1].startswith("You "), own
        assert back.problems == []
        other.close()


BANNERS = """window.banners = [];
new MutationObserver(() => {
  const banner = document.getElementById('banner');
  const shown = banner && !banner.hidden ? banner.textContent : null;
  if (shown !== null && window.banners.at(-1) !== shown) window.banners.push(shown);
}).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });"""
"""Every text the banner shows, kept in ``window.banners`` from the page's first moment."""
IN_USE = "Your seat is in use in another window or tab: close it, then reload this page."


def test_a_second_tab_at_a_seat_is_told_at_once_that_the_seat_is_in_use(browser: Any) -> None:
    # The second tab said "The connection to the table was lost: reconnecting (try 3)…" for seconds first.
    table = new_table(seats=2, seed=10, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        player, other = ann_on_a_phone_beside_bob(browser, host, table)
        key = json.dumps(f"kalooki:127.0.0.1:{host.server.port}:{table.code}")
        second = Seat(browser, f"http://127.0.0.1:{host.server.port}/?code={table.code}", PHONE)
        second.js(f"localStorage.setItem({key}, {json.dumps(player.js(f'localStorage.getItem({key})'))})")
        second.page.add_init_script(BANNERS)
        second.page.reload()
        second.wait(f"window.banners.includes({IN_USE!r})", seconds=1.5)
        assert second.js("window.banners") == ["Taking your seat back…", IN_USE]
        second.page.wait_for_timeout(1500)  # the page's tries, in case the seat was its own old connection
        assert second.js("window.banners") == ["Taking your seat back…", IN_USE]
        assert player.attribute("data-turn") == "mine"
        other.close()


def test_next_hand_is_off_on_a_page_the_host_dropped_between_hands(browser: Any) -> None:
    # "Next hand" still looked ready to press after the host dropped the page, and a press did nothing.
    table = new_table(seats=2, seed=3, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        player = Seat(browser, f"http://127.0.0.1:{host.server.port}/?code={table.code}", LAPTOP)
        player.sit("ann")
        bob = BotSeat(host.uri)
        bob.join(table.code, name="bob")
        robot = threading.Thread(target=bot_plays_until_the_hand_ends, args=(bob,))
        robot.start()
        player.play_until("hand_over", "the hand")
        robot.join(TIMEOUT)
        player.page.wait_for_selector("#ready-button:not([hidden])")
        assert player.page.locator("#ready-button").is_enabled()
        host.call(host.server.drop, "ann")
        player.wait("/Reload/.test(document.getElementById('banner').textContent)")
        assert player.page.locator("#ready-button").is_disabled()
        player.page.reload()
        player.page.wait_for_selector("#ready-button:not([hidden])")
        player.wait("!document.getElementById('ready-button').disabled")
        bob.close()


def test_a_seat_dropped_in_the_lobby_and_freed_after_the_wait_is_told_in_the_log(browser: Any) -> None:
    # The seat went back to open in the lobby's list, and the log still said bob's seat waited for him.
    table = new_table(seats=3, seed=3, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        ann = Seat(browser, f"http://127.0.0.1:{host.server.port}/?code={table.code}", PHONE)
        ann.sit("ann")
        bob = BotSeat(host.uri)
        bob.join(table.code, name="bob")
        ann.wait(f"{LOG_TEXT}.includes('bob joined the table.')")
        host.call(lambda: setattr(table, "wait_seconds", 0.0))
        bob.close()
        ann.wait(f"{LOG_TEXT}.includes('bob left the table.')")
        assert ann.js(LOG_TEXT)[-2:] == ["bob dropped out: the table waits for them.", "bob left the table."]
        assert ann.problems == []
