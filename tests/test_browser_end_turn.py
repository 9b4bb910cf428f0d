"""The browser table's End turn button (turn_discard: optional), in Chromium on a real table on
127.0.0.1: shown beside Discard only while the seat may end its turn without a discard, and never
where the variant requires the discard; nor is ``end`` among the commands a mistyped move is told
there."""

from __future__ import annotations

from typing import Any

from browser_helpers import LOG_TEXT, QUICK, Seat, ann_on_a_phone_beside_bob
from kalooki_cli.web_coach import WebCoach
from kalooki_net.table import Table
from net_helpers import hosted, new_table

from kalooki.loader import load_variant

HIDDEN = "document.getElementById('end-button').hidden"


def drawn(ann: Seat) -> None:
    """ann, first to play, draws from the stock."""
    ann.wait("document.getElementById('table').dataset.turn === 'mine'")
    assert ann.js(HIDDEN) is True  # before the draw no turn may end
    ann.page.click("#draw-stock")
    ann.wait("document.getElementById('table').dataset.phase === 'play'")


def test_end_turn_is_offered_after_the_draw_and_ends_the_turn(browser: Any) -> None:
    table = new_table(seats=2, seed=10, turn_discard="optional", **QUICK)  # ann plays first
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob = ann_on_a_phone_beside_bob(browser, host, table)
        drawn(ann)
        ann.wait(f"!{HIDDEN}")
        assert ann.page.locator("#end-button").inner_text() == "End turn"
        ann.page.click("#end-button")
        ann.wait(f"{LOG_TEXT}.includes('You end the turn without a discard.')")
        ann.wait(HIDDEN)
        assert host.call(lambda: len(host.table.require_game().hands[0])) == 8
        assert host.call(lambda: host.table.require_game().current) == 1
        assert ann.page.locator("#reason").text_content() == ""
        assert ann.problems == []
        bob.close()


def test_no_end_turn_where_the_discard_is_required(browser: Any) -> None:
    table = new_table(seats=2, seed=10, **QUICK)
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob = ann_on_a_phone_beside_bob(browser, host, table)
        drawn(ann)
        assert ann.js(HIDDEN) is True
        assert ann.problems == []
        bob.close()


SHOWN = "['draw-discard', 'swap-button'].map((id) => !document.getElementById(id).hidden)"


def test_no_draw_discard_or_swap_button_where_the_variant_has_no_such_move(browser: Any) -> None:
    # czech-500 never lets a player take the discard nor frees a joker: Draw discard stayed (disabled)
    # and Swap stayed, looking enabled, though the move box's list left both out.
    czech = Table(load_variant("czech-500", ["hand_size=7"]), seats=2, bots=["greedy"], seed=10)
    for table, shown in ((new_table(seats=2, seed=10, **QUICK), [True, True]), (czech, [False, False])):
        with hosted(table, advisor=WebCoach()) as host:
            ann, bob = ann_on_a_phone_beside_bob(browser, host, table)
            ann.wait("document.getElementById('table').dataset.turn === 'mine'")
            assert ann.js(SHOWN) == shown
            drawn(ann)
            assert ann.js(SHOWN) == shown
            assert ann.problems == []
            bob.close()


def told_for(browser: Any, table: Table, typed: str) -> str:
    """What the page says under ann's hand when she types ``typed`` in the move box on her first turn."""
    with hosted(table, advisor=WebCoach()) as host:
        ann, bob = ann_on_a_phone_beside_bob(browser, host, table)
        ann.wait("document.getElementById('table').dataset.turn === 'mine'")
        ann.page.fill("#move-input", typed)
        ann.page.press("#move-input", "Enter")
        ann.wait("document.getElementById('reason').textContent !== ''")
        reason = ann.page.locator("#reason").text_content()
        assert ann.problems == []
        bob.close()
    assert isinstance(reason, str)
    return reason


MOVES = "meld CARDS[, CARDS ...] | build N CARDS [low|high] | swap N CARDS | discard CARD"
BOX = " | undo | hint | look | score | rules | say TEXT | help"
"""The move box's own commands, which the page adds to the host's list of moves."""


def test_a_mistyped_move_is_told_the_commands_of_the_tables_rules(browser: Any) -> None:
    # classic refuses end: the list ended in '| end' all the same.
    told = told_for(browser, new_table(seats=2, seed=10, **QUICK), "zz")
    assert told == f"✗ 'zz' is not a move: commands: draw stock | draw discard | {MOVES}{BOX}"
    # czech-500 never lets a player take the discard, frees no joker, and lets a turn end without one.
    czech = Table(load_variant("czech-500", ["hand_size=7"]), seats=2, bots=["greedy"], seed=10)
    told = told_for(browser, czech, "zz")
    laying = MOVES.replace(" | swap N CARDS", "")
    assert told == f"✗ 'zz' is not a move: commands: draw stock | {laying} | end{BOX}"


UNDO_ROW = (
    "[...document.querySelectorAll('#box-help-list li')].find((li) => li.textContent.startsWith('undo'))"
)


def test_help_says_what_undo_takes_back_under_the_tables_rules(browser: Any) -> None:
    # The list said "take back this turn's melds, builds and swaps (before you discard)" in czech-500 too,
    # which frees no joker and lets a turn end without a discard; the terminal's help says it per variant.
    czech = Table(load_variant("czech-500", ["hand_size=7"]), seats=2, bots=["greedy"], seed=10)
    for table, meaning in (
        (new_table(seats=2, seed=10, **QUICK), "melds, builds and swaps (before you discard)"),
        (czech, "melds and builds (before you discard or end your turn)"),
    ):
        with hosted(table, advisor=WebCoach()) as host:
            ann, bob = ann_on_a_phone_beside_bob(browser, host, table)
            ann.wait("document.getElementById('table').dataset.turn === 'mine'")
            ann.page.fill("#move-input", "help")
            ann.page.press("#move-input", "Enter")
            ann.page.wait_for_selector("#box-help:not([hidden])")
            assert ann.js(f"{UNDO_ROW}.textContent") == f"undo | u — take back this turn's {meaning}"
            assert ann.problems == []
            bob.close()
