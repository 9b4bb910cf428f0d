"""The browser table in Chromium on a real table on 127.0.0.1: the page's words.

Cards are read one way on the page: a refusal and a hint name them as the hand draws them (``3♦``,
``J♥``), not in the move language's codes the host words them in, and a move typed in codes still
plays. The log tells the end of a hand, as ``kalooki join`` does: who went out and the scores.
(Playing the game in the page: ``test_browser_table``; who is where: ``test_browser_presence``.)
"""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from browser_helpers import LOG_TEXT, PHONE, QUICK, TIMEOUT, Seat, ann_on_a_phone_beside_bob
from kalooki_cli.render import card_label
from kalooki_cli.web_coach import WebCoach
from kalooki_net.admission import WrongTries
from kalooki_net.botclient import BotSeat
from kalooki_net.table import Table
from net_helpers import Host, bot_plays_until_the_hand_ends, hosted, new_table

from kalooki.cards import format_card

HINT_LINES = "[...document.querySelectorAll('.hint-move')].map((b) => b.textContent)"


def ann_first_beside_bob(browser: Any, host: Host, table: Table) -> tuple[Seat, BotSeat]:
    """ann at the page on a phone, bob a client of the protocol; once it is ann's turn (she plays first)."""
    ann, bob = ann_on_a_phone_beside_bob(browser, host, table)
    ann.wait("document.getElementById('table').dataset.turn === 'mine'")
    return ann, bob


def typed(seat: Seat, move: str, then: str | None = None) -> None:
    """``move`` typed in the move box and played with Enter; ``then``: what the table shows once done."""
    seat.page.fill("#move-input", move)
    seat.page.press("#move-input", "Enter")
    if then is not None:
        seat.wait(f"document.getElementById('table').dataset.{then}")


def test_a_refusal_and_a_hint_name_cards_as_the_hand_draws_them(browser: Any) -> None:
    # The refusal read "you have no 3D in your hand to play" and the hint "meld AC AD JK", "discard JH",
    # beside a hand of A♣ A♦ and a log of "You discard J♥."
    table = new_table(seats=2, seed=10, **QUICK)  # ann is dealt AD AC JK and JH, holds no 3D, and plays first
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob = ann_first_beside_bob(browser, host, table)
        typed(ann, "ds", "phase === 'play'")  # typed in codes, as ever
        typed(ann, "m 3D 4D 5D")
        refused = "✗ you have no 3♦ in your hand to play"
        ann.wait(f"document.getElementById('reason').textContent === {json.dumps(refused)}")
        ann.page.click("#hint-button")
        ann.page.wait_for_selector("#hint:not([hidden])")
        assert ann.js(HINT_LINES) == ["meld A♣ A♦ JK", "discard J♥"]
        # Tapped, the line goes into the move box as it reads, and plays as the hint said.
        ann.page.locator(".hint-move").first.click()
        assert ann.page.input_value("#move-input") == "meld A♣ A♦ JK"
        ann.page.press("#move-input", "Enter")
        ann.wait("document.querySelectorAll('#melds li').length === 1")
        melds = host.call(lambda: [meld.cards for meld in host.table.require_game().table])
        assert [[format_card(card) for card in cards] for cards in melds] == [["AC", "AD", "JK"]]
        assert ann.page.locator("#reason").text_content() == ""
        # The discard pile's card is read by its name: a label on a plain span, screen readers pass over.
        label = ann.page.locator("#discard .card").get_attribute("aria-label")
        assert ann.page.locator("#piles").get_by_role("img", name=label, exact=True).count() == 1
        assert ann.problems == []
        bob.close()


def test_the_log_tells_who_went_out_and_the_hands_scores(browser: Any) -> None:
    # The log stopped at the last discard: the end of the hand and its scores were only in the panel
    # that the next hand's deal takes away.
    table = new_table(seats=2, seed=10, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob = ann_first_beside_bob(browser, host, table)
        robot = threading.Thread(target=bot_plays_until_the_hand_ends, args=(bob,), daemon=True)
        robot.start()
        ann.play_until("hand_over", "the hand")
        result, totals = host.call(
            lambda: (host.table.require_game().results[0], host.table.require_game().totals)
        )
        assert result.winner == 0  # ann went out, by the hint
        ended = (
            "Hand 1 is over. You went out. "
            f"This hand: you 0, bob +{result.scores[1]}. Totals: you {totals[0]}, bob {totals[1]}."
        )
        ann.wait(f"{LOG_TEXT}.at(-1) === {json.dumps(ended)}")
        assert ann.js(LOG_TEXT).count(ended) == 1
        # Reloaded, the page keeps its log and tells the end once.
        ann.page.reload()
        ann.page.wait_for_selector("#hand-end:not([hidden])")
        assert ann.js(LOG_TEXT).count(ended) == 1
        assert ann.problems == []
        bob.close()


def test_the_log_tells_the_game_starting_and_each_hand_dealt_as_the_terminal_does(browser: Any) -> None:
    # The log began with the first move and went from one hand's end to the next hand's moves: no
    # "The game starts.", no "Hand 2: bob plays first".
    table = new_table(seats=2, seed=10, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob = ann_first_beside_bob(browser, host, table)
        assert ann.js(LOG_TEXT)[-2:] == ["The game starts.", "Hand 1: you play first"]
        robot = threading.Thread(target=bot_plays_until_the_hand_ends, args=(bob,), daemon=True)
        robot.start()
        ann.play_until("hand_over", "the hand")
        robot.join(TIMEOUT)
        ann.page.click("#ready-button")
        bob.send({"type": "ready"})
        ann.wait("document.getElementById('table').dataset.phase === 'draw'")
        first = host.call(lambda: host.table.require_game().players[host.table.require_game().first_seat])
        dealt = "Hand 2: you play first" if first == "ann" else f"Hand 2: {first} plays first"
        ann.wait(f"{LOG_TEXT}.includes({json.dumps(dealt)})")
        assert ann.js(LOG_TEXT).count("The game starts.") == 1
        assert ann.problems == []
        bob.close()


def test_a_player_away_is_not_said_to_be_playing(browser: Any) -> None:
    # bob had dropped out, and his turn read "bob is playing." while the table waited for him.
    table = new_table(seats=2, seed=10, **QUICK)  # ann plays first
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob = ann_first_beside_bob(browser, host, table)
        bob.close()
        ann.wait(f"{LOG_TEXT}.includes('bob dropped out: the table waits for them.')")
        typed(ann, "ds", "phase === 'play'")
        typed(ann, "d JH", "turn === 'theirs'")
        waits = "bob is away: the table waits for them, then a bot plays for them."
        ann.wait(f"document.getElementById('status').textContent === {json.dumps(waits)}")
        assert "(away)" in ann.page.locator("#players").inner_text()
        assert ann.problems == []


def test_a_seat_a_bot_plays_is_said_to_be_a_bots(browser: Any) -> None:
    # The players' list and the lobby said "bob (greedy)": a player new to kalooki read no bot in it.
    table = new_table(seats=2, seed=3, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        ann = Seat(browser, f"http://127.0.0.1:{host.server.port}/?code={table.code}", PHONE)
        ann.sit("ann")
        host.call(host.server.start_game)  # as the host's start: a bot takes the open seat
        ann.page.wait_for_selector("#table:not([hidden])")
        bot = host.call(lambda: host.table.seats[1].name)
        ann.wait(f"document.getElementById('players').textContent.includes('{bot} (greedy bot)')")
        assert ann.page.locator("#seats li").all_text_contents()[1] == f"Seat 2: {bot} (greedy bot)"
        assert ann.problems == []


def test_a_page_held_off_after_wrong_codes_says_why_on_the_join_form(browser: Any) -> None:
    table = new_table(seats=2, seed=10, **QUICK)
    with hosted(table, advisor=WebCoach(), wrong_tries=WrongTries(limit=1)) as host:
        ann = Seat(browser, f"http://127.0.0.1:{host.server.port}/?code=WRONG1", PHONE)
        ann.page.fill("#join-name", "ann")
        ann.page.press("#join-name", "Enter")
        ann.wait(
            "document.getElementById('join-error').textContent === \"that is not this table's join code\""
        )
        ann.page.fill("#join-code", table.code)
        ann.page.press("#join-name", "Enter")
        held_off = "too many wrong join codes or seat tokens from your address: try again in 10 minutes"
        ann.wait(f"document.getElementById('join-error').textContent === {json.dumps(held_off)}")
        assert ann.page.locator("#join").is_visible()
        assert host.call(lambda: [seat.kind for seat in table.seats]) == ["open", "open"]
        assert [problem for problem in ann.problems if "WebSocket" not in problem] == []


TURN_LINE = "document.querySelector('#status .turn-line').textContent"


@pytest.mark.parametrize("turn_discard", ["required", "optional"])
def test_the_turn_line_names_the_buttons_not_the_terminals_codes(browser: Any, turn_discard: str) -> None:
    # The page said "Your turn: draw a card: ds (draw stock) or dd (draw discard: 9♣)" and "then discard a
    # card (d CARD).": codes to type at a terminal, which a player tapping the page's buttons never met.
    table = new_table(seats=2, seed=10, turn_discard=turn_discard, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob = ann_first_beside_bob(browser, host, table)
        top = host.call(lambda: host.table.require_game().discard_pile[-1])
        assert ann.js(TURN_LINE) == (
            f"Your turn: draw a card: tap Draw stock, or Draw discard to take {card_label(top, False)}."
        )
        ann.page.click("#draw-stock")
        ann.wait("document.getElementById('table').dataset.phase === 'play'")
        then = ", or tap End turn to end it without one." if turn_discard == "optional" else "."
        assert ann.js(TURN_LINE) == (
            f"Your turn: meld, build or swap if you can, then discard a card (tap it, then Discard){then}"
        )
        assert ann.problems == []
        bob.close()


def test_the_log_names_a_new_meld_by_its_number_on_the_table_in_words(browser: Any) -> None:
    # The log read "You meld A♣ A♦ JK [1] (…)": the terminal's bracket, a stray number to a player at the
    # page, where the melds are numbered without brackets and a build's line says "onto meld 1".
    table = new_table(seats=2, seed=10, **QUICK)  # ann is dealt AD AC JK, and plays first
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob = ann_first_beside_bob(browser, host, table)
        typed(ann, "ds", "phase === 'play'")
        typed(ann, "m AC AD JK")
        ann.wait(f"{LOG_TEXT}.some((line) => line.startsWith('You meld '))")
        laid = next(line for line in ann.js(LOG_TEXT) if line.startswith("You meld "))
        assert laid == "You meld A♣ A♦ JK(A♥/♠) as meld 1 (33 points).", laid
        assert "[" not in laid
        assert ann.problems == []
        bob.close()
