"""The browser table in Chromium on a real table on 127.0.0.1: melds laid by tapping cards.

One natural card and jokers (JK 6H JK) could be a set of sixes or a run, 5-6-7: typed, the move says
which with a last word (``m JK 6H JK run``). Tapped, the page asks which, and sends the word.
(Playing the game in the page: ``test_browser_table``; the move box: ``test_browser_move_box``.)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import Seat, table_of, taking_seat_back
from kalooki_cli.web_coach import WebCoach
from net_helpers import hosted
from rules_helpers import new_game

from kalooki.cards import format_cards

MELD_NAMES = "[...document.querySelectorAll('#melds button.meld')].map((b) => b.getAttribute('aria-label'))"
READING = "document.getElementById('reading')"


def tapped(seat: Seat, *labels: str) -> None:
    """The hand's cards named (as a screen reader names them) tapped in this order; a name twice, the
    next card of that name."""
    for label in labels:
        cards = seat.page.locator(f'#hand .card[aria-label="{label}"][aria-pressed="false"]')
        cards.first.click()


@contextmanager
def anns_turn(browser: Any, hand: str, **knobs: Any) -> Iterator[tuple[Seat, Any]]:
    """ann at the page on a phone, dealt ``hand`` (``knobs``: the variant's, besides a hand of 7 and no
    opening threshold), after her draw from the stock; and the host."""
    rules = {"hand_size": 7, "opening_threshold": 0, **knobs}
    game = new_game(rules, [hand, "2D 3D 4D 5S 7S 8S QH"], discard=None, stock="2S 3S")
    table, tokens = table_of(game, "classic")
    with hosted(table, advisor=WebCoach()) as host:
        ann = taking_seat_back(browser, host.server.port, table.code, tokens["ann"])
        ann.page.click("#draw-stock")
        ann.wait("document.getElementById('table').dataset.phase === 'play'")
        yield ann, host
        assert ann.problems == []


@pytest.mark.parametrize(
    ("reading", "kind", "laid"),
    [
        ("run", "run", "joker standing for 5 of hearts, 6 of hearts, joker standing for 7 of hearts"),
        (
            "set",
            "set",
            "joker standing for 6 of clubs, diamonds or spades, 6 of hearts, "
            "joker standing for 6 of clubs, diamonds or spades",
        ),
    ],
)
def test_one_card_and_jokers_tapped_are_laid_as_the_set_or_the_run_the_player_chose(
    browser: Any, shots: Path, reading: str, kind: str, laid: str
) -> None:
    # Tapped, JK 6H JK went out as "m JK 6H JK", always a set of sixes: the page had no way to say run.
    with anns_turn(browser, "JK 6H JK 9C 9D 9S KC") as (ann, host):
        tapped(ann, "joker", "6 of hearts")
        assert ann.js(f"{READING}.hidden")  # two cards are no meld to read
        tapped(ann, "joker")
        ann.wait(f"!{READING}.hidden")
        assert ann.page.locator("#reading-cards").inner_text() == "JK 6♥ JK"
        ann.page.click(f"#as-{reading}")
        assert ann.page.locator(f"#as-{reading}").get_attribute("aria-pressed") == "true"
        ann.page.screenshot(path=str(shots / f"phone-lone-{reading}.png"), full_page=True)
        # Kept as one of the melds to lay together, with its reading; the line goes with the cards.
        ann.page.click("#group-button")
        assert ann.page.locator("#staged").inner_text() == f"Melds so far: JK 6♥ JK {reading}"
        assert ann.js(f"{READING}.hidden")
        tapped(ann, "9 of clubs", "9 of diamonds", "9 of spades")
        assert ann.js(f"{READING}.hidden")  # naturals of one rank: a set, nothing to say
        ann.page.click("#meld-button")
        ann.wait("document.querySelectorAll('#melds li').length === 2")
        assert ann.js(MELD_NAMES) == [
            f"meld 1, yours: {laid}",
            "meld 2, yours: 9 of clubs, 9 of diamonds, 9 of spades",
        ]
        melds = host.call(
            lambda: [(meld.kind, format_cards(meld.cards)) for meld in host.table.require_game().table]
        )
        assert melds == [(kind, "JK 6H JK"), ("set", "9C 9D 9S")]
        assert ann.page.locator("#reason").inner_text() == ""
        # Laid, the melds kept so far are gone with their cards: their line, and Meld and Clear with them
        # (they stayed, and Meld again was refused: "you have no JK in your hand to play").
        assert ann.js("document.getElementById('staged').hidden")
        assert ann.page.locator("#meld-button").is_disabled()
        assert ann.page.locator("#clear-button").is_disabled()
        assert ann.problems == []


BY_TAPPING = (
    "By tapping: tap one meld's cards, New group, the next meld's cards, then Meld lays them all together."
)


def test_the_words_for_laying_melds_together_say_how_the_buttons_do_it(browser: Any) -> None:
    # "Not opened yet: ... in one meld command." and the refusal's "(lay them all in one meld command:
    # meld A, B, C)", as it read then, spoke only of the typed move, never of the New group button a
    # tapping player uses.
    with anns_turn(browser, "2C 3C 4C 9D 9S 9H KC", opening_threshold=51) as (ann, _):
        status = ann.js("[...document.querySelectorAll('#status p')].map((p) => p.textContent)")
        said = "Not opened yet: your first melds must make 51 together, in one meld command."
        assert status[status.index(said) + 1] == BY_TAPPING
        tapped(ann, "2 of clubs", "3 of clubs", "4 of clubs")
        ann.page.click("#meld-button")
        ann.wait("document.getElementById('reason').textContent")
        # One sentence, ended, and not the status's "By tapping: ..." again (they ran together, unstopped).
        assert ann.page.locator("#reason").inner_text() == (
            "✗ your first meld is worth 9 points; this variant needs 51 "
            "(lay them all in one meld command, melds parted by commas: meld 7♥ 8♥ 9♥, Q♠ Q♦ Q♣)."
        )
        status = ann.js("[...document.querySelectorAll('#status p')].map((p) => p.textContent)")
        assert status.count(BY_TAPPING) == 1
        assert ann.problems == []


COVERED = """() => {
  const mark = document.querySelector('#hand .new-mark').getBoundingClientRect();
  const over = (box) => box.left < mark.right && mark.left < box.right
    && box.top < mark.bottom && mark.top < box.bottom;
  return [...document.querySelectorAll('#hand .card[aria-pressed="true"], #hand .order')]
    .filter((node) => over(node.getBoundingClientRect())).map((node) => node.textContent);
}"""
"""The cards tapped, and their order numbers, drawn over the drawn card's *new* tag."""


def test_cards_tapped_on_a_phone_leave_the_new_tag_of_the_row_above_in_sight(browser: Any) -> None:
    # A tapped card lifts: on a phone its number covered the "new" tag of the card above it.
    with anns_turn(browser, "3S 4S 6S 9S TS JS JK") as (ann, _):  # draws 2S: first in the hand
        assert ann.page.locator("#hand .new-mark").count() == 1
        rows = ann.js("new Set([...document.querySelectorAll('#hand .card')].map((c) => c.offsetTop)).size")
        assert rows == 2
        for card in ann.page.locator("#hand .card:not(.new)").all():
            card.click()
        assert ann.page.locator('#hand .card[aria-pressed="true"]').count() == 7
        assert ann.page.evaluate(COVERED) == []


def test_the_new_tag_goes_once_the_drawn_card_or_its_twin_is_laid(browser: Any) -> None:
    # Holding 2♠ and drawing the other pack's 2♠, then laying one: the tag stayed on the one left,
    # which may as well be the card held before the draw (the terminal's * goes too).
    with anns_turn(browser, "2S 2H 2D 9D 9S 9H KC") as (ann, _):  # draws 2S
        assert ann.page.locator("#hand .new-mark").count() == 1
        tapped(ann, "2 of spades", "2 of hearts", "2 of diamonds")
        ann.page.click("#meld-button")
        ann.wait("document.querySelectorAll('#melds button.meld').length === 1")
        assert ann.page.locator('#hand .card[aria-label="2 of spades"]').count() == 1
        assert ann.page.locator("#hand .new-mark").count() == 0


SWAP_OFF = "document.getElementById('swap-button').disabled"


def test_swap_is_on_only_for_a_meld_with_a_joker(browser: Any) -> None:
    # Swap was on for 3♥ 4♥ 5♥, a card tapped: the table refused, "the meld 3♥ 4♥ 5♥ has no joker to take".
    with anns_turn(browser, "3H 4H 5H 6C JK 8C 9S") as (ann, host):
        tapped(ann, "3 of hearts", "4 of hearts", "5 of hearts")
        ann.page.click("#group-button")
        tapped(ann, "6 of clubs", "joker", "8 of clubs")
        ann.page.click("#meld-button")
        ann.wait("document.querySelectorAll('#melds button.meld').length === 2")
        melds = ann.page.locator("#melds button.meld")
        tapped(ann, "9 of spades")
        melds.nth(0).click()
        assert ann.page.locator("#swap-button").inner_text() == "Swap on meld 1"
        assert ann.js(SWAP_OFF)
        melds.nth(1).click()
        assert ann.page.locator("#swap-button").inner_text() == "Swap on meld 2"
        assert not ann.js(SWAP_OFF)
        assert host.call(lambda: len(host.table.require_game().table)) == 2


GROUPED = (
    "[...document.querySelectorAll('#hand .grouped')].map((c) => [c.getAttribute('aria-label'), c.disabled])"
)


def test_cards_in_a_meld_kept_so_far_are_marked_and_not_tapped_again(browser: Any) -> None:
    # Kept with New group, J♦ showed as in the hand still, and tapped into the next meld too the table
    # refused it: "you have only 1 J♦ in your hand to play 2 times".
    with anns_turn(browser, "JD QD KD JS JH JC 7H") as (ann, host):
        tapped(ann, "jack of diamonds", "queen of diamonds", "king of diamonds")
        ann.page.click("#group-button")
        assert ann.js(GROUPED) == [
            [f"{rank} of diamonds, in the melds so far", True] for rank in ("jack", "queen", "king")
        ]
        ann.page.locator('#hand .card[aria-label="jack of diamonds, in the melds so far"]').click(force=True)
        tapped(ann, "jack of spades", "jack of hearts", "jack of clubs")
        assert ann.page.locator('#hand .card[aria-pressed="true"]').count() == 3
        ann.page.click("#meld-button")
        ann.wait("window.kalookiTimings.length > 1 || document.getElementById('reason').textContent")
        assert ann.page.locator("#reason").inner_text() == ""
        assert host.call(lambda: [format_cards(meld.cards) for meld in host.table.require_game().table]) == [
            "JD QD KD",
            "JS JH JC",
        ]


PRESSED = (
    "[...document.querySelectorAll('#hand .card[aria-pressed=\"true\"]')]"
    ".map((c) => c.getAttribute('aria-label'))"
)
"""The hand's cards tapped, by their names."""


def test_cards_tapped_before_the_draw_stay_tapped_after_it(browser: Any) -> None:
    # A player tapped the three cards of a meld, was told "Meld: draw a card first.", drew, and found the
    # three untapped, to be tapped again.
    game = new_game(
        {"hand_size": 7, "opening_threshold": 0},
        ["9C 9D 9H 3S 5S KC QD", "2D 3D 4D 5H 7S 8S QH"],
        discard=None,
        stock="2S 3C",
    )
    table, tokens = table_of(game, "classic")
    with hosted(table, advisor=WebCoach()) as host:
        ann = taking_seat_back(browser, host.server.port, table.code, tokens["ann"])
        ann.wait("document.getElementById('table').dataset.turn === 'mine'")
        tapped(ann, "9 of hearts", "9 of clubs", "9 of diamonds")
        ann.page.click("#draw-stock")
        ann.wait("document.getElementById('table').dataset.phase === 'play'")
        assert ann.js(PRESSED) == ["9 of clubs", "9 of diamonds", "9 of hearts"]
        orders = ann.page.locator('#hand .card[aria-pressed="true"] .order').all_inner_texts()
        assert orders == ["2", "3", "1"]  # numbered in the order tapped, as before the draw
        ann.page.click("#meld-button")
        ann.wait("document.querySelectorAll('#melds button.meld').length === 1")
        assert ann.js(PRESSED) == []  # laid: nothing of it stays tapped
        assert ann.problems == []
