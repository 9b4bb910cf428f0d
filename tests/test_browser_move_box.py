"""The browser table's Move box, in Chromium on a real table on 127.0.0.1: a refusal stays under the
hand only until the next move or command, and a text that is neither is told what the box takes,
which ``help`` lists. (The moves' list follows the table's rules: ``test_browser_end_turn``.)
"""

from __future__ import annotations

import json
from typing import Any

from browser_helpers import LOG_TEXT, QUICK, Seat, ann_on_a_phone_beside_bob
from kalooki_cli.web_coach import WebCoach
from net_helpers import hosted, new_table

REASON = "document.getElementById('reason').textContent"


def typed(seat: Seat, text: str) -> None:
    seat.page.fill("#move-input", text)
    seat.page.press("#move-input", "Enter")


def refused(seat: Seat, text: str) -> None:
    """``text`` typed in the move box, and its refusal shown under the hand."""
    typed(seat, text)
    seat.wait(f"{REASON} !== ''")


def test_a_refusal_goes_once_a_later_command_is_answered(browser: Any) -> None:
    # The red line still said "'xx' is not a move: ..." beside the hint's answer, and a refused discard
    # stayed up after "say hello" was said at the table.
    table = new_table(seats=2, seed=10, **QUICK)  # ann plays first
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob = ann_on_a_phone_beside_bob(browser, host, table)
        ann.wait("document.getElementById('table').dataset.turn === 'mine'")
        refused(ann, "xx")
        typed(ann, "hint")
        ann.page.wait_for_selector("#hint:not([hidden])")
        assert ann.js(REASON) == ""
        refused(ann, "d 3D")
        typed(ann, "say hello")
        ann.wait(f"{LOG_TEXT}.includes('you: hello')")
        assert ann.js(REASON) == ""
        # The buttons and the Say box, as the commands typed.
        for press in ("#hint-button", "#rules-button", "#say-input"):
            refused(ann, "xx")
            if press == "#say-input":
                ann.page.fill("#say-input", "again")
                ann.page.press("#say-input", "Enter")
                ann.wait(f"{LOG_TEXT}.includes('you: again')")
            else:
                ann.page.click(press)
            assert ann.js(REASON) == ""
            ann.page.keyboard.press("Escape")  # the rulebook's dialog
        # A command the host refuses says why in its place.
        typed(ann, "undo")
        ann.wait(f"{REASON}.startsWith('✗ there is nothing to take back')")
        assert ann.problems == []
        bob.close()


BOX = ["undo", "hint", "look", "score", "rules", "say TEXT", "help"]


def test_a_text_that_is_no_move_is_told_what_the_box_takes_and_help_lists_it(browser: Any) -> None:
    # The refusal listed the moves alone, and 'help' and 'look' were refused as no move.
    table = new_table(seats=2, seed=10, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob = ann_on_a_phone_beside_bob(browser, host, table)
        ann.wait("document.getElementById('table').dataset.turn === 'mine'")
        refused(ann, "quit")  # the terminal's, not the page's: the page is left by closing it
        moves = (
            "draw stock | draw discard | meld CARDS[, CARDS ...] | build N CARDS [low|high] | swap N CARDS"
        )
        told = f"✗ 'quit' is not a move: commands: {moves} | discard CARD | {' | '.join(BOX)}"
        assert ann.js(REASON) == told
        typed(ann, "help")
        ann.page.wait_for_selector("#box-help:not([hidden])")
        assert ann.js(REASON) == ""
        listed = ann.js("[...document.querySelectorAll('#box-help-list li')].map((li) => li.textContent)")
        assert listed[:2] == ["draw stock | ds", "draw discard | dd"]
        assert listed[5] == "discard CARD | d"
        assert [line.split(" — ")[0] for line in listed[6:]] == [
            "undo | u",
            "hint",
            "look | l | table | show",
            "score | scores | totals",
            "rules | rulebook",
            "say TEXT",
            "help | h | ?",
        ]
        assert listed[-1] == "help | h | ? — this list"
        # Each word of the list does what it says: look draws the table (never refused), u is undo.
        typed(ann, "look")
        ann.wait("document.getElementById('box-help').hidden")
        assert ann.js(REASON) == ""
        typed(ann, "u")
        ann.wait(f"{REASON}.startsWith('✗ there is nothing to take back')")
        typed(ann, "?")
        ann.page.wait_for_selector("#box-help:not([hidden])")
        typed(ann, "ds")  # a move: the list goes with the help's other answers
        ann.wait("document.getElementById('table').dataset.phase === 'play'")
        assert ann.js("document.getElementById('box-help').hidden") is True
        assert json.dumps(ann.problems) == "[]"
        bob.close()


def test_the_boxs_commands_work_on_the_others_turns(browser: Any) -> None:
    # The box's Play button was disabled off turn, and a disabled submit stops Enter: "say hi", "help"
    # and "score" typed while bob played did nothing, the text left in the box.
    table = new_table(seats=2, seed=10, **QUICK)  # ann plays first
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob = ann_on_a_phone_beside_bob(browser, host, table)
        ann.wait("document.getElementById('table').dataset.turn === 'mine'")
        while ann.attribute("data-turn") == "mine":
            ann.play_by_hint()
        typed(ann, "say hi")
        ann.wait(f"{LOG_TEXT}.includes('you: hi')")
        assert ann.page.input_value("#move-input") == ""
        typed(ann, "help")
        ann.page.wait_for_selector("#box-help:not([hidden])")
        typed(ann, "score")
        ann.page.wait_for_selector("#scores-dialog[open]")
        ann.page.keyboard.press("Escape")
        # A move is the current player's: the table says whose turn it is.
        refused(ann, "ds")
        assert ann.js(REASON) == "✗ it is not your turn: bob is playing"
        # Text that is no move is said so at any time: it was told whose turn it is, as if it would do then.
        refused(ann, "quit")
        assert ann.js(REASON).startswith("✗ 'quit' is not a move: commands: draw stock | ")
        assert json.dumps(ann.problems) == "[]"
        bob.close()


PLACEHOLDER_FITS = """() => {
  const input = document.getElementById('move-input');
  const style = getComputedStyle(input);
  const context = document.createElement('canvas').getContext('2d');
  context.font = style.font;
  const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return context.measureText(input.placeholder).width <= room;
}"""
"""Whether the Move box's example text shows whole."""


def test_the_move_boxs_example_shows_whole_on_a_phone(browser: Any) -> None:
    # At 390 px it read "ds · m 7H 8H 9H · b 2 TH · s", cut mid-move.
    table = new_table(seats=2, seed=10, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob = ann_on_a_phone_beside_bob(browser, host, table)
        for width in (375, 390):
            ann.page.set_viewport_size({"width": width, "height": 812})
            assert ann.page.evaluate(PLACEHOLDER_FITS), width
        bob.close()


def refused_after_a_draw(browser: Any, move: str) -> str:
    """Ann, on a phone, draws and types ``move``: the refusal under her hand."""
    table = new_table(seats=2, seed=10, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob = ann_on_a_phone_beside_bob(browser, host, table)
        ann.wait("document.getElementById('table').dataset.turn === 'mine'")
        typed(ann, "ds")
        ann.wait("document.getElementById('table').dataset.phase === 'play'")
        refused(ann, move)
        assert ann.problems == []
        bob.close()
        return str(ann.js(REASON))


def test_a_refusal_quoting_10c_draws_it_as_the_page_draws_cards(browser: Any) -> None:
    # The refusal quoted the move typed with its other cards drawn and 10C as typed ("'m 10C 10H, 6♦ ...'"):
    # the page's pattern for card codes knew T only.
    assert refused_after_a_draw(browser, "m 10C 10H 10S, 6D 6H 6S, 3C") == (
        "✗ 'm 10♣ 10♥ 10♠, 6♦ 6♥ 6♠, 3♣': meld group 3 of 3 holds one card: a comma starts a new meld, "
        "so write one meld's cards with spaces (meld Q♣ Q♥ Q♠)"
    )


def test_a_mistyped_card_is_told_how_cards_are_written_as_the_terminal_tells_it(browser: Any) -> None:
    # The page drew the notation's examples too: "a suit (C D H S), e.g. 7♥, 10♣, 10♣, Q♠", TC and 10C
    # made one card twice, where the terminal says "e.g. 7H, TC, 10C, QS".
    assert refused_after_a_draw(browser, "m 7H 8H ZZ") == (
        "✗ 'm 7♥ 8♥ ZZ': 'ZZ' is not a card: write a rank (A 2-9 T J Q K, or 10) and a suit (C D H S), "
        "e.g. 7H, TC, 10C, QS, or JK for a joker"
    )


def test_a_refused_move_stays_in_the_box_to_be_mended(browser: Any) -> None:
    # The box emptied at Enter: a long meld refused for one card mistyped was to be typed again whole.
    table = new_table(seats=2, seed=10, **QUICK)  # ann plays first, and holds JH
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob = ann_on_a_phone_beside_bob(browser, host, table)
        ann.wait("document.getElementById('table').dataset.turn === 'mine'")
        typed(ann, "ds")
        ann.wait("document.getElementById('table').dataset.phase === 'play'")
        assert ann.page.input_value("#move-input") == ""  # taken: gone from the box
        refused(ann, "m 7H 8H ZZ")
        assert ann.page.input_value("#move-input") == "m 7H 8H ZZ"
        typed(ann, "d JH")
        ann.wait("document.getElementById('table').dataset.turn === 'theirs'")
        assert ann.page.input_value("#move-input") == ""
        assert ann.js(REASON) == ""
        # Out of turn, refused: there still, to play when the turn comes.
        refused(ann, "ds")
        assert ann.page.input_value("#move-input") == "ds"
        assert ann.problems == []
        bob.close()


BOX_TIP = "ds draws from the stock, m 7H 8H 9H lays a run, d KD discards; help lists the rest."


def test_the_move_box_says_its_codes_in_words_until_the_first_move(browser: Any, shots: Any) -> None:
    # Its placeholder alone ("ds · m 7H 8H 9H · help") was all a newcomer had to go on: what ds was, or
    # that 7H is the seven of hearts, was nowhere on the screen.
    table = new_table(seats=2, seed=10, **QUICK)  # ann plays first
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob = ann_on_a_phone_beside_bob(browser, host, table)
        tip = ann.page.locator("#box-tip")
        assert tip.is_visible()
        assert tip.inner_text() == BOX_TIP
        ann.page.screenshot(path=str(shots / "move-box-tip.png"))
        # Heard by a screen reader as the box's description, shown or not.
        assert ann.page.get_attribute("#move-input", "aria-describedby") == "box-tip"
        # It stays put while the box is used: shown on focus alone, it went under a tap on Hint.
        ann.page.focus("#move-input")
        ann.page.focus("#say-input")
        assert tip.is_visible()
        refused(ann, "zz")  # a move refused is no move made
        assert tip.is_visible()
        ann.page.click("#draw-stock")  # the first move, by a button or typed: told once is enough
        ann.wait("document.getElementById('table').dataset.phase === 'play'")
        assert tip.is_hidden()
        assert ann.problems == []
        bob.close()
