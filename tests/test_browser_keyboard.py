"""The browser table in Chromium on a real table on 127.0.0.1: a turn played by keyboard alone.

A move button is off from the move sent to its answer, and a focused button turned off dropped the
focus to the page's top: a keyboard or screen-reader player lost their place at every move, and
Tab started again from the top bar and every meld on the table. The focus now lands where the turn
goes on. (Playing the game in the page: ``test_browser_table``; the move box: ``test_browser_move_box``.)
"""

from __future__ import annotations

from typing import Any

from browser_helpers import QUICK, ann_about_to_go_out, ann_on_a_phone_beside_bob, table_of, taking_seat_back
from kalooki_cli.web_coach import WebCoach
from net_helpers import hosted, new_table

FOCUSED = (
    "((node) => (node === document.body ? 'the page' : node.getAttribute('aria-label') || node.id))"
    "(document.activeElement)"
)
"""What has the focus: a card by its name, a button by its id, or the page itself (the focus lost)."""


def test_the_focus_stays_in_the_turn_after_each_move_made_with_the_keyboard(browser: Any) -> None:
    table = new_table(seats=2, seed=10, **QUICK)  # ann plays first
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob = ann_on_a_phone_beside_bob(browser, host, table)
        ann.wait("document.getElementById('table').dataset.turn === 'mine'")
        # Draw stock, then on the card drawn: a screen reader says which it is.
        ann.page.focus("#draw-stock")
        ann.page.keyboard.press("Enter")
        ann.wait("document.getElementById('table').dataset.phase === 'play'")
        assert ann.js(FOCUSED).endswith(", just drawn")
        # That card alone, as a meld: refused, and the focus back on Meld, on again, to try again from.
        ann.page.keyboard.press("Space")
        ann.page.focus("#meld-button")
        ann.page.keyboard.press("Enter")
        ann.wait("document.getElementById('reason').textContent")
        assert ann.js(FOCUSED) == "meld-button"
        # Discarded (still tapped after the refusal): the turn is over, and the focus is in the hand.
        ann.page.focus("#discard-button")
        ann.page.keyboard.press("Enter")
        ann.wait("document.getElementById('table').dataset.turn === 'theirs'")
        assert ann.js("document.activeElement.closest('#hand') !== null"), ann.js(FOCUSED)
        # bob draws: the page draws the hand anew, and the focus stays on the card it was on.
        card = ann.js(FOCUSED)
        bob.send({"type": "move", "move": "ds"})
        ann.wait("document.getElementById('table').dataset.phase === 'play'")
        assert ann.js(FOCUSED) == card
        assert ann.problems == []
        bob.close()


def test_the_focus_goes_to_next_hand_when_a_keyboard_players_discard_ends_the_hand(browser: Any) -> None:
    # The discard's button and the Move box go with the end of the hand, and the focus went to the page's
    # top: Tab went through the top bar and every meld on the table to reach Next hand.
    table, tokens = table_of(ann_about_to_go_out(), "classic")
    with hosted(table, advisor=WebCoach()) as host:
        ann = taking_seat_back(browser, host.server.port, table.code, tokens["ann"])
        ann.page.focus("#draw-stock")
        ann.page.keyboard.press("Enter")
        ann.wait("document.getElementById('table').dataset.phase === 'play'")
        ann.page.focus("#move-input")
        ann.page.keyboard.type("m 9C 9D 9S")
        ann.page.keyboard.press("Enter")
        ann.wait("document.querySelectorAll('#hand .card').length === 1")
        ann.page.focus("#hand .card")
        ann.page.keyboard.press("Space")
        ann.page.focus("#discard-button")
        ann.page.keyboard.press("Enter")
        ann.wait("document.getElementById('table').dataset.phase === 'hand_over'")
        assert ann.js(FOCUSED) == "ready-button"
        ann.page.keyboard.press("Enter")  # ready: bob and cid are away, and the next hand is dealt
        ann.wait("document.getElementById('table').dataset.phase !== 'hand_over'")
        assert ann.problems == []
