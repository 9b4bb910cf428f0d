"""The browser table in Chromium on a real table on 127.0.0.1: the end-of-hand screen after a reload.

A page back between hands (a reload, a dropped connection, a host restarted with ``--resume``) is
shown the end-of-hand screen rebuilt from the state, as ``kalooki resume`` rebuilds it: with the
lines a page that stayed saw live, who is out of the game and why going out was not Kalooki.
(Readiness between hands: ``test_browser_presence``.)
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import Seat, ann_about_to_go_out, table_of, taking_seat_back
from kalooki_cli.web_coach import WebCoach
from net_helpers import hosted
from rules_helpers import fixed_deal, play

from kalooki.engine import Game
from kalooki.variant import Variant

LINES = "[...document.querySelectorAll('#hand-end-lines p')].map((p) => p.textContent)"
NOT_KALOOKI = (
    "had melded in an earlier turn; Kalooki is the whole hand laid in one turn, nothing laid before."
)
ANN_SAW = ["You went out.", f"Not Kalooki: you {NOT_KALOOKI}", "bob is out with 68 (out at 20)."]
BOB_SAW = ["ann went out.", f"Not Kalooki: ann {NOT_KALOOKI}", "You are out with 68 (out at 20)."]
ANNS_LAST_TURN = ("draw stock", "meld 9C 9D 9S", "discard 2S")


def shown_hand_end(seat: Seat) -> list[str]:
    seat.page.wait_for_selector("#hand-end:not([hidden])")
    seat.wait(f"{LINES}.length > 0")
    return list(seat.js(LINES))


def test_a_page_reloaded_between_hands_shows_the_lines_it_showed_live(browser: Any) -> None:
    # After the reload the screen said "You went out." and "Not Kalooki: ..." but no more that bob is out.
    table, tokens = table_of(ann_about_to_go_out(elimination=True, goal_score=20), "classic")
    with hosted(table, advisor=WebCoach()) as host:
        port = host.server.port
        ann, bob = (taking_seat_back(browser, port, table.code, tokens[name]) for name in ("ann", "bob"))
        for move in ANNS_LAST_TURN:
            before = ann.js("window.kalookiTimings.length")
            ann.page.fill("#move-input", move)
            ann.page.press("#move-input", "Enter")
            ann.wait(f"window.kalookiTimings.length > {before}")
        assert (shown_hand_end(ann), shown_hand_end(bob)) == (ANN_SAW, BOB_SAW)
        assert host.call(lambda: host.table.require_game().phase) == "hand_over"
        for page in (ann, bob):
            page.page.reload()
        assert (shown_hand_end(ann), shown_hand_end(bob)) == (ANN_SAW, BOB_SAW)
        assert ann.problems == bob.problems == []


def test_a_host_resumed_between_hands_shows_who_is_out_and_why_it_was_not_kalooki(browser: Any) -> None:
    # A table saved between hands and hosted again: the page said "You went out." and nothing else.
    game = ann_about_to_go_out(elimination=True, goal_score=20)
    play(game, *ANNS_LAST_TURN)
    table, tokens = table_of(game, "classic")
    with hosted(table, advisor=WebCoach()) as host:
        ann = taking_seat_back(browser, host.server.port, table.code, tokens["ann"])
        bob = taking_seat_back(browser, host.server.port, table.code, tokens["bob"])
        assert (shown_hand_end(ann), shown_hand_end(bob)) == (ANN_SAW, BOB_SAW)
        assert ann.problems == bob.problems == []


LONGEST = "Wolfeschlegelsteinha"
"""A name of 20 characters, the longest a player may have, and one word."""
CUT_TABLES = """[...document.querySelectorAll('#hand-end .scroll')]
  .filter((box) => box.scrollWidth > box.clientWidth + 1).map((box) => box.id)"""
"""The score tables at the end of a hand and of the game that are wider than their room (cut off)."""


@pytest.mark.parametrize("viewport", [{"width": 1024, "height": 700}, {"width": 390, "height": 844}])
def test_the_hands_and_the_games_score_tables_show_every_column_beside_a_long_name(
    browser: Any, viewport: dict[str, int]
) -> None:
    # At 1024 px the hand's table needed 449 px and the sheet 418 in a middle column of 368: the total
    # column was cut off, behind a scroll that showed no bar.
    rules = Variant(hand_size=7, opening_threshold=0, goal_score=20)
    hands = ["5H 6H 7H 8H 9C 9D KC", "KD QD JD TD KS QS 8S", "2C 3C 2D 3D 2H 3H 4S"]
    deal = fixed_deal(hands, None, "9S 8C 8D 2S 3S 4C")
    game = Game(rules, [LONGEST, "bob", "cid"], seed=7, deal=deal)
    play(game, "draw stock", "meld 5H 6H 7H 8H", "discard KC", "draw stock", "discard 8C")
    play(game, "draw stock", "discard 8D", *ANNS_LAST_TURN)
    assert game.phase == "game_over"
    table, tokens = table_of(game, "classic")
    with hosted(table, advisor=WebCoach()) as host:
        page = taking_seat_back(browser, host.server.port, table.code, tokens[LONGEST], viewport)
        page.page.wait_for_selector("#game-end:not([hidden])")
        assert page.js(CUT_TABLES) == []
        assert page.page.locator("#hand-end-table thead th").all_inner_texts()[-1] == "total"
        assert page.problems == []


def test_a_player_out_of_the_game_is_told_so_not_shown_an_empty_hand(browser: Any) -> None:
    # The page said "Your hand (0)" to bob, out of the game and watching, as if he had just gone out.
    game = ann_about_to_go_out(elimination=True, goal_score=20)
    play(game, *ANNS_LAST_TURN)
    game.next_hand()
    assert game.eliminated == [False, True, False]
    table, tokens = table_of(game, "classic")
    with hosted(table, advisor=WebCoach()) as host:
        bob = taking_seat_back(browser, host.server.port, table.code, tokens["bob"])
        bob.wait("document.querySelector('#hand-title').textContent.length > 0")
        assert bob.js("document.querySelector('#hand-title').textContent") == (
            "You are out of the game: watching the others play on."
        )
        assert bob.js("document.querySelectorAll('#hand button').length") == 0
        assert bob.problems == []


HAND_TITLE = "document.querySelector('#hand-title').textContent"


@pytest.mark.parametrize(
    ("goal_score", "headings"),
    [
        # Between hands: bob is out and cid plays on, holding the seven cards counted against him.
        (
            20,
            {
                "ann": "You went out: no cards left in your hand.",
                "bob": "You are out of the game: watching the others play on.",
                "cid": "Cards left in your hand (7)",
            },
        ),
        # The game over: nobody is left to watch play on.
        (19, {"ann": "You went out: no cards left in your hand.", "bob": "You are out of the game."}),
    ],
)
def test_the_hands_heading_says_who_went_out_and_what_is_left_at_the_end(
    browser: Any, goal_score: int, headings: dict[str, str]
) -> None:
    # ann, who had just gone out, read "Your hand (0)" over the end of the hand, as if her cards had gone
    # missing; bob, out of the game when it was over, read that he was watching the others play on.
    game = ann_about_to_go_out(elimination=True, goal_score=goal_score)
    play(game, *ANNS_LAST_TURN)
    table, tokens = table_of(game, "classic")
    with hosted(table, advisor=WebCoach()) as host:
        for name, heading in headings.items():
            page = taking_seat_back(browser, host.server.port, table.code, tokens[name])
            page.page.wait_for_selector("#hand-end:not([hidden])")
            assert page.js(HAND_TITLE) == heading
            assert page.problems == []
            page.page.close()


def test_the_end_of_the_game_comes_into_sight_headed_game_over(browser: Any) -> None:
    # bob, on a phone and reading the table's top, saw nothing happen when ann ended the game: the end was
    # below the fold, headed "Hand 1 is over", its "Game over" further down, under a title bar still
    # saying "hand 1, dealt by cid · turn 4".
    game = ann_about_to_go_out(goal_score=1)
    table, tokens = table_of(game, "classic")
    with hosted(table, advisor=WebCoach()) as host:
        port = host.server.port
        ann = taking_seat_back(browser, port, table.code, tokens["ann"])
        bob = taking_seat_back(browser, port, table.code, tokens["bob"], {"width": 360, "height": 640})
        bob.js("window.scrollTo(0, 0)")
        for move in ANNS_LAST_TURN:
            before = ann.js("window.kalookiTimings.length")
            ann.page.fill("#move-input", move)
            ann.page.press("#move-input", "Enter")
            ann.wait(f"window.kalookiTimings.length > {before}")
        bob.page.wait_for_selector("#game-end:not([hidden])")
        assert bob.js("document.querySelector('#hand-end h2:not([hidden] *)').textContent") == "Game over"
        assert bob.page.locator("#game-end-lines p").first.inner_text() == "ann wins the game!"
        top = bob.js("document.getElementById('game-end-title').getBoundingClientRect().top")
        assert 0 <= top < bob.js("innerHeight") / 2, top
        assert bob.page.locator("#title").inner_text() == "Kalooki · classic · game over after 1 hand"
        assert ann.problems == bob.problems == []


CARD_LINES = """[...document.querySelectorAll('#hand-end-table td.left')].map((cell) => new Set(
  [...cell.querySelectorAll('.card')].map((card) => Math.round(card.getBoundingClientRect().top))).size)"""
"""For each player's cards left at the end of the hand: on how many lines they stand."""


@pytest.mark.parametrize("width", [320, 360, 390])
def test_the_cards_left_on_a_phone_stand_on_a_line_or_two_not_one_a_line(browser: Any, width: int) -> None:
    # The cards left had a column a card wide beside the name: bob's seven stood seven lines tall (a hand
    # of 13 left, 13), and the table was a few screens long on a phone.
    game = ann_about_to_go_out(goal_score=200)
    play(game, *ANNS_LAST_TURN)
    table, tokens = table_of(game, "classic")
    with hosted(table, advisor=WebCoach()) as host:
        ann = taking_seat_back(
            browser, host.server.port, table.code, tokens["ann"], {"width": width, "height": 740}
        )
        ann.page.wait_for_selector("#hand-end:not([hidden])")
        lines = ann.js(CARD_LINES)
        assert lines[0] == 0, lines  # ann went out: no card left
        assert all(0 < count <= 2 for count in lines[1:]), lines
        assert ann.js(CUT_TABLES) == []
        # The numbers stay in columns under their headings: each column's right edge is one in every row.
        edges = ann.js(
            "[...document.querySelectorAll('#hand-end-table tr')].map((row) => [...row.cells].slice(2)"
            ".map((cell) => Math.round(cell.getBoundingClientRect().right)))"
        )
        assert all(row == edges[0] for row in edges), edges
        assert ann.problems == []


@pytest.mark.parametrize("width", [360, 390])
def test_the_games_score_sheet_of_four_shows_every_column_on_a_phone(browser: Any, width: int) -> None:
    # At the end of a game of four the sheet (a long name, three more columns) was 373 px wide in 321 at
    # 360 px: the last player's column and the totals were behind a sideways scroll with no bar.
    rules = Variant(hand_size=7, opening_threshold=0, goal_score=1)
    hands = ["5H 6H 7H 8H 9C 9D KC", "KD QD JD TD KS QS 8S", "2C 3C 2D 3D 2H 3H 4S", "4C 5C 6D 7D 8H 5S 6S"]
    deal = fixed_deal(hands, None, "9S 8C 8D 2S 3S 4C")
    game = Game(rules, [LONGEST, "bob", "cid", "dee"], seed=7, deal=deal)
    play(game, "draw stock", "meld 5H 6H 7H 8H", "discard KC", "draw stock", "discard 8C")
    play(game, "draw stock", "discard 8D", "draw stock", "discard 2S")
    play(game, "draw stock", "meld 9C 9D 9S", "discard 3S")
    assert game.phase == "game_over"
    table, tokens = table_of(game, "classic")
    with hosted(table, advisor=WebCoach()) as host:
        page = taking_seat_back(
            browser, host.server.port, table.code, tokens[LONGEST], {"width": width, "height": 800}
        )
        page.page.wait_for_selector("#game-end:not([hidden])")
        assert page.page.locator("#game-end-table thead th").count() == 5
        assert page.js(CUT_TABLES) == []
        assert page.problems == []
