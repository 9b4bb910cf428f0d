"""The browser table in Chromium on a real table on 127.0.0.1: runs laid and built by tapping, as the
engine reads them: an ace high or low wherever the jokers tapped make it a run, and jokers built onto
either end of a run. (Sets and runs read from one card and jokers: ``test_browser_taps``.)
"""

from __future__ import annotations

from typing import Any

import pytest
from test_browser_taps import MELD_NAMES, anns_turn, tapped

from kalooki.cards import format_cards

ANSWERED = "window.kalookiTimings.length > 1 || document.getElementById('reason').textContent"
"""The move after the draw answered: the table redrawn, or the refusal shown."""


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
    with anns_turn(browser, "QC JK AC 9D 9S 5H 7H") as (ann, host):
        tapped(ann, *order)
        ann.page.click("#meld-button")
        ann.wait(ANSWERED)
        assert ann.page.locator("#reason").inner_text() == ""
        assert ann.js(MELD_NAMES) == [
            "meld 1, yours: queen of clubs, joker standing for king of clubs, ace of clubs"
        ]
        assert laid(host) == [("run", "QC JK AC")]


@pytest.mark.parametrize(
    ("button", "cards"), [("#build-low-button", "JK 2C 3C 4C"), ("#build-button", "2C 3C 4C JK")]
)
def test_a_joker_built_onto_a_run_goes_at_the_end_the_player_chose(
    browser: Any, button: str, cards: str
) -> None:
    # Tapped, a joker built onto 2♣ 3♣ 4♣ went out as "b 1 JK", always at the top: the hint's
    # "build 1 JK low" could not be played by the buttons.
    with anns_turn(browser, "2C 3C 4C JK 9D 9S 7H") as (ann, host):
        tapped(ann, "2 of clubs", "3 of clubs", "4 of clubs")
        ann.page.click("#meld-button")
        ann.wait(ANSWERED)
        ann.page.locator("#melds button.meld").first.click()
        tapped(ann, "7 of hearts")
        assert ann.js("document.getElementById('build-low-button').hidden")  # a natural has one place
        ann.page.click('#hand .card[aria-label="7 of hearts"]')  # no more
        tapped(ann, "joker")
        ann.wait("!document.getElementById('build-low-button').hidden")
        assert ann.page.locator("#build-button").inner_text() == "Build high on meld 1"
        assert ann.page.locator("#build-low-button").inner_text() == "Build low on meld 1"
        ann.page.click(button)
        ann.wait("window.kalookiTimings.length > 2 || document.getElementById('reason').textContent")
        assert ann.page.locator("#reason").inner_text() == ""
        assert laid(host) == [("run", cards)]
        assert ann.js("document.getElementById('build-low-button').hidden")


def test_a_run_round_the_corner_is_laid_by_tapping_where_the_variant_has_them(browser: Any) -> None:
    # With ace_in_runs: wrap, tapped K♣ A♣ 2♣ went out as "m AC 2C KC": the page knew no run round the corner.
    with anns_turn(browser, "KC AC 2C 9D 9S 5H 7H", ace_in_runs="wrap") as (ann, host):
        tapped(ann, "2 of clubs", "ace of clubs", "king of clubs")
        ann.page.click("#meld-button")
        ann.wait(ANSWERED)
        assert ann.page.locator("#reason").inner_text() == ""
        assert laid(host) == [("run", "KC AC 2C")]


@pytest.mark.parametrize(
    ("hand", "run", "knobs", "built"),
    [
        ("JS QS KS AS JK 9D 7H", ("jack", "queen", "king", "ace"), {}, "JK JS QS KS AS"),
        ("2S 3S 4S JK 9D 9C 7H", ("2", "3", "4"), {"ace_in_runs": "high"}, "2S 3S 4S JK"),
    ],
)
def test_a_joker_is_offered_only_the_end_of_a_run_that_can_take_it(
    browser: Any, hand: str, run: tuple[str, ...], knobs: dict[str, str], built: str
) -> None:
    # Onto J♠ Q♠ K♠ A♠ the page offered "Build high", which the table refused: nothing goes above the ace.
    with anns_turn(browser, hand, **knobs) as (ann, host):
        tapped(ann, *(f"{rank} of spades" for rank in run))
        ann.page.click("#meld-button")
        ann.wait(ANSWERED)
        ann.page.locator("#melds button.meld").first.click()
        tapped(ann, "joker")
        assert ann.page.locator("#build-button").inner_text() == "Build on meld 1"
        assert ann.js("document.getElementById('build-low-button').hidden")
        ann.page.click("#build-button")
        ann.wait("window.kalookiTimings.length > 2 || document.getElementById('reason').textContent")
        assert ann.page.locator("#reason").inner_text() == ""
        assert laid(host) == [("run", built)]
