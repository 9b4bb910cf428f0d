"""The browser table in Chromium on a real table on 127.0.0.1: runs laid and built by tapping, as the
engine reads them: an ace high or low wherever the jokers tapped make it a run, and jokers built onto
either end of a run. (Sets and runs read from one card and jokers: ``test_browser_taps``.)
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import Seat, table_of, taking_seat_back
from kalooki_cli.web_coach import WebCoach
from net_helpers import hosted
from rules_helpers import new_game
from test_browser_taps import MELD_NAMES, tapped

from kalooki.cards import format_cards

QUICK = {"hand_size": 7, "opening_threshold": 0}
ANSWERED = "window.kalookiTimings.length > 1 || document.getElementById('reason').textContent"
"""The move after the draw answered: the table redrawn, or the refusal shown."""


def drawn(ann: Seat) -> None:
    ann.page.click("#draw-stock")
    ann.wait("document.getElementById('table').dataset.phase === 'play'")


def laid(host: Any) -> list[tuple[str, str]]:
    return host.call(
        lambda: [(meld.kind, format_cards(meld.cards)) for meld in host.table.require_game().table]
    )


@pytest.mark.parametrize(
    "order", [("queen of clubs", "joker", "ace of clubs"), ("ace of clubs", "joker", "queen of clubs")]
)
def test_an_ace_high_run_with_a_joker_for_the_king_is_laid_by_tapping(
    browser: Any, order: tuple[str, ...]
) -> None:
    # Tapped Q♣ JK A♣ went out as "m AC JK QC": the ace was put low unless a king was among the cards.
    game = new_game(QUICK, ["QC JK AC 9D 9S 5H 7H", "2C 3C 4D 5D 7S 8S QH"], discard=None, stock="2S 3S")
    table, tokens = table_of(game, "classic")
    with hosted(table, advisor=WebCoach()) as host:
        ann = taking_seat_back(browser, host.server.port, table.code, tokens["ann"])
        drawn(ann)
        tapped(ann, *order)
        ann.page.click("#meld-button")
        ann.wait(ANSWERED)
        assert ann.page.locator("#reason").inner_text() == ""
        assert ann.js(MELD_NAMES) == ["meld 1, yours: queen of clubs, joker standing for K♣, ace of clubs"]
        assert laid(host) == [("run", "QC JK AC")]
        assert ann.problems == []
