"""The browser table in Chromium on a real table on 127.0.0.1: the turn's start on a phone, where the
table's melds push the hand and the move buttons below the fold, the piles' counts, a pile tapped to
draw from it, and why a move's button is off.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from browser_helpers import QUICK, TIMEOUT, Seat, ann_on_a_phone_beside_bob, table_of, taking_seat_back
from kalooki_cli.web_coach import WebCoach
from kalooki_net.botclient import BotSeat
from net_helpers import Host, hosted, new_table
from rules_helpers import new_game, play

from kalooki.cards import format_card
from kalooki.engine import Game
from kalooki.variant import Variant

IN_SIGHT = """(() => {
  const hand = document.getElementById('hand').getBoundingClientRect();
  const moves = document.getElementById('actions').getBoundingClientRect();
  return hand.top >= 0 && moves.bottom <= innerHeight;
})()"""
"""The hand and the move buttons in sight."""
MOVES_IN_SIGHT = "document.getElementById('actions').getBoundingClientRect().bottom <= innerHeight"


@contextmanager
def ann_beside_bob_and_three_melds(
    browser: Any, viewport: dict[str, int]
) -> Iterator[tuple[Seat, BotSeat, Host]]:
    """ann's page (``viewport``) back at a table with three melds of hers on it, bob a client of the
    protocol, whose turn it is; 13 cards each."""
    rules = {"hand_size": 13, "opening_threshold": 0}
    hands = ["2H 3H 4H 5C 6C 7C 9S 9D 9H KC QC JC 8D", "2S 3S 4S 5D 6D 7D TS TD TC QH KH JH 8C"]
    game = new_game(rules, hands, discard=None, stock="AS AD AC AH 2D 3D")
    play(game, "draw stock", "meld 2H 3H 4H, 5C 6C 7C, 9S 9D 9H", "discard AS")
    table, tokens = table_of(game, "classic")
    with hosted(table, advisor=WebCoach()) as host:
        ann = taking_seat_back(browser, host.server.port, table.code, tokens["ann"], viewport)
        bob = BotSeat(host.uri)
        bob.join(table.code, token=tokens["bob"])
        yield ann, bob, host


def bob_lays_three_more(bob: BotSeat) -> None:
    """bob's turn: three melds of his (six on the table), then his discard: ann's turn begins."""
    for move in ("ds", "m 2S 3S 4S, 5D 6D 7D, TS TD TC", "d QH"):
        bob.send({"type": "move", "move": move})


@pytest.mark.parametrize("typing", [False, True])
def test_a_phone_brings_the_hand_into_sight_when_the_turn_begins(browser: Any, typing: bool) -> None:
    # With six melds on the table the hand and the buttons were below the fold on a phone, and nothing
    # brought them up when the player's turn began; a player typing in the Say box is left there.
    # 760 px tall: at 844 the buttons under three melds came into sight once the players list's row of whose
    # turn it is had plain numbers (in bold they took lines of their own).
    with ann_beside_bob_and_three_melds(browser, {"width": 390, "height": 760}) as (ann, bob, _):
        if typing:
            ann.page.click("#say-input")
        ann.js("window.scrollTo(0, 0)")
        assert not ann.js(IN_SIGHT)
        bob_lays_three_more(bob)
        ann.wait("document.getElementById('table').dataset.turn === 'mine'")
        ann.wait("document.querySelectorAll('#melds button.meld').length === 6")
        if typing:
            assert not ann.js(IN_SIGHT)
            assert ann.js("document.activeElement.id") == "say-input"
        else:
            ann.wait(IN_SIGHT, seconds=2)
            # The draw answered: its card and the lines it brings pushed the buttons below the fold.
            ann.page.click("#draw-stock")
            ann.wait("document.getElementById('table').dataset.phase === 'play'")
            ann.wait(MOVES_IN_SIGHT, seconds=2)
        bob.close()


BARS_BOTTOM = "document.querySelector('.bars').getBoundingClientRect().bottom"
"""Where the page's top bar (and a banner under it) ends: at or above 0 once scrolled out of sight."""


def test_on_a_phone_the_top_bar_leaves_the_hand_in_sight_and_a_closed_tables_banner_stays(
    browser: Any,
) -> None:
    # On a 360 px phone the title ("Kalooki · classic · hand 1, dealt by bob · turn 3", three lines) stayed
    # stuck over the page while the player scrolled to their hand, hiding its first row of cards, as
    # the turn's start scrolled the hand up under it: on a phone the bar stays in sight only with a banner
    # to read.
    with ann_beside_bob_and_three_melds(browser, {"width": 360, "height": 780}) as (ann, bob, host):
        ann.js("window.scrollTo(0, 0)")
        bob_lays_three_more(bob)
        ann.wait("document.getElementById('table').dataset.turn === 'mine'")
        ann.wait(MOVES_IN_SIGHT, seconds=2)
        hand = ann.js("document.getElementById('hand').getBoundingClientRect().top")
        assert hand >= max(0, ann.js(BARS_BOTTOM))  # the cards' first row is not under the bar
        assert ann.js(BARS_BOTTOM) <= 0
        bob.close()
        asyncio.run_coroutine_threadsafe(host.server.close("the host stopped"), host.loop).result(TIMEOUT)
        ann.wait("!document.getElementById('banner').hidden")
        assert ann.js(BARS_BOTTOM) > 0  # scrolled to the hand, the player still reads that the table closed


def test_a_stock_of_one_card_says_one_card(browser: Any) -> None:
    # "1 cards", where the discard pile beside it already said "1 card" and the terminal does too: one
    # pack between two hands of 25 leaves one card to the stock.
    rules = Variant(decks=1, jokers=0, hand_size=25, max_players=2, opening_threshold=0)
    game = Game(rules, ["ann", "bob"], seed=1)
    assert len(game.stock) == 1
    assert len(game.discard_pile) == 1
    table, tokens = table_of(game, "classic")
    with hosted(table) as host:
        ann = taking_seat_back(browser, host.server.port, table.code, tokens["ann"])
        ann.wait("document.getElementById('table').dataset.turn === 'mine'")
        assert ann.js("document.getElementById('stock').textContent") == "1 card"
        assert ann.js("document.getElementById('discard').textContent").endswith("(1 card)")


WHY_OFF = """Object.fromEntries([...document.querySelectorAll('#actions button:not([hidden])')]
  .map((b) => [b.id.replace('-button', ''), b.disabled ? b.title : 'on']))"""
"""Each move button shown: "on", or off with its title, which says why."""


def test_a_move_button_that_is_off_says_why(browser: Any) -> None:
    # Meld, Build, Discard, Undo were greyed out with nothing to say what they waited for: a player new
    # to the page pressed Discard before tapping a card, and Meld before drawing, and nothing happened.
    table = new_table(seats=2, seed=10, **QUICK)  # ann plays first
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob = ann_on_a_phone_beside_bob(browser, host, table)
        ann.wait("document.getElementById('table').dataset.turn === 'mine'")
        first = ann.js(WHY_OFF)
        assert (first["draw-stock"], first["draw-discard"], first["hint"]) == ("on", "on", "on")
        assert first["meld"] == first["discard"] == first["group"] == "Draw a card first"
        assert first["undo"] == "Nothing laid this turn to take back"
        ann.page.click("#draw-stock")
        ann.wait("document.getElementById('table').dataset.phase === 'play'")
        drawn = ann.js(WHY_OFF)
        assert drawn["draw-stock"] == drawn["draw-discard"] == "You have drawn this turn"
        assert drawn["discard"] == "Tap the card to discard first"
        assert drawn["meld"] == "Tap the cards of a meld in your hand first"
        assert drawn["build"] == "Tap cards in your hand and a meld on the table first"
        assert drawn["clear"] == "Nothing tapped to clear"
        ann.page.locator("#hand .card").first.click()
        tapped = ann.js(WHY_OFF)
        assert (tapped["discard"], tapped["meld"], tapped["clear"]) == ("on", "on", "on")
        # On again, a button says what it does, as it did before it was off.
        assert (
            ann.page.get_attribute("#group-button", "title")
            == "Keep these cards as one meld and choose the next"
        )
        ann.page.click("#discard-button")
        ann.wait("document.getElementById('table').dataset.turn === 'theirs'")
        theirs = ann.js(WHY_OFF)
        assert theirs["hint"] == theirs["draw-stock"] == theirs["undo"] == "It is bob's turn"
        assert ann.problems == []
        bob.close()


def test_a_tap_on_a_button_that_is_off_says_why_on_a_phone(browser: Any) -> None:
    # A title shows under a pointer held still: a phone shows none, and a tap on Discard before a card was
    # chosen did nothing at all.
    table = new_table(seats=2, seed=10, **QUICK)  # ann plays first
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob = ann_on_a_phone_beside_bob(browser, host, table)
        ann.wait("document.getElementById('table').dataset.turn === 'mine'")
        why = "document.getElementById('why-off').textContent"
        assert ann.js(why) == ""
        ann.page.click("#discard-button", force=True)  # force: as a finger, which no button's state stops
        assert ann.js(why) == "Discard: draw a card first."
        ann.page.click("#draw-stock")
        ann.wait("document.getElementById('table').dataset.phase === 'play'")
        assert ann.js(why) == ""  # said of the buttons as they were
        ann.page.click("#discard-button", force=True)
        assert ann.js(why) == "Discard: tap the card to discard first."
        ann.page.locator("#hand .card").first.click()
        assert ann.js(why) == ""
        assert ann.problems == []
        bob.close()


def test_a_tap_on_a_pile_draws_from_it_or_says_why_not(browser: Any) -> None:
    # A player new to the page tapped the discard pile's top card to take it, and then the stock: nothing
    # happened either time, and nothing said why.
    table = new_table(seats=2, seed=10, **QUICK)  # ann plays first
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob = ann_on_a_phone_beside_bob(browser, host, table)
        ann.wait("document.getElementById('table').dataset.turn === 'mine'")
        top = host.call(lambda: host.table.require_game().discard_pile[-1])
        ann.page.click("#discard .card")
        ann.wait("document.getElementById('table').dataset.phase === 'play'")
        assert host.call(lambda: host.table.require_game().hands[0]).count(top) >= 1
        ann.page.click("#stock")
        assert (
            ann.js("document.getElementById('why-off').textContent")
            == "Draw stock: you have drawn this turn."
        )
        ann.page.locator("#hand .card").first.click()
        ann.page.click("#discard-button")
        ann.wait("document.getElementById('table').dataset.turn === 'theirs'")
        ann.page.click("#stock")
        assert ann.js("document.getElementById('why-off').textContent") == "Draw stock: it is bob's turn."
        bob.send({"type": "move", "move": "ds"})
        hand = host.call(lambda: host.table.require_game().hands[1])
        bob.send({"type": "move", "move": f"d {format_card(hand[0])}"})
        ann.wait("document.getElementById('table').dataset.turn === 'mine'")
        stock = host.call(lambda: len(host.table.require_game().stock))
        ann.page.click("#stock")
        ann.wait("document.getElementById('table').dataset.phase === 'play'")
        assert host.call(lambda: len(host.table.require_game().stock)) == stock - 1
        assert ann.problems == []
        bob.close()
