"""The browser table in Chromium on a real table on 127.0.0.1: who laid a joker, and what the jokers'
notes mean.

Under ``joker_taker: anyone_but_layer`` (kaluki-51) a joker may be taken by anyone but the player who
laid it, so a joker built onto another player's meld is named with who laid it, as the terminal does
(``JK(9H, laid by bob)``): on the card, and in the meld's name a screen reader reads. Under the melds
a line says what the notes mean, and how a joker is won where the rules free one.
(Playing the game in the page: ``test_browser_table``; its words: ``test_browser_words``.)
"""

from __future__ import annotations

from typing import Any

from browser_helpers import Seat, table_of, taking_seat_back
from kalooki_cli.web_coach import WebCoach
from kalooki_net.table import Table
from net_helpers import hosted
from rules_helpers import new_game, play
from test_joker_layers import built_onto_anns_run, kaluki

JOKER_NOTES = "[...document.querySelectorAll('#melds .stands')].map((node) => node.textContent)"
MELD_NAMES = "[...document.querySelectorAll('#melds button.meld')].map((b) => b.getAttribute('aria-label'))"


def resumed_with_bobs_joker_on_anns_run() -> tuple[Table, dict[str, str]]:
    """A hosted table's save, resumed: ann's run 5H 6H 7H 8H with bob's joker built onto it, and bob's
    own run; each player's token to take their seat back."""
    return table_of(built_onto_anns_run(kaluki()), "kaluki-51")


def seated(browser: Any, port: int, code: str, token: str) -> Seat:
    """A phone's page at the table, its seat taken back, once it shows the joker."""
    page = taking_seat_back(browser, port, code, token)
    page.wait("document.querySelectorAll('#melds .stands').length === 1")
    return page


def test_a_joker_laid_by_another_player_than_the_melds_owner_names_who_laid_it(browser: Any) -> None:
    table, tokens = resumed_with_bobs_joker_on_anns_run()
    with hosted(table, advisor=WebCoach()) as host:
        ann = seated(browser, host.server.port, table.code, tokens["ann"])
        bob = seated(browser, host.server.port, table.code, tokens["bob"])
        # ann may take it (bob laid it); bob may not take back his own.
        assert ann.js(JOKER_NOTES) == ["(9♥, laid by bob)"]
        assert bob.js(JOKER_NOTES) == ["(9♥, laid by you)"]
        # The meld's name, all a screen reader says of the button, names the joker's note too; the
        # seat's own meld is "yours" (it read "you's").
        ann_melds, bob_melds = ann.js(MELD_NAMES), bob.js(MELD_NAMES)
        assert ann_melds[0] == (
            "meld 1, yours: 5 of hearts, 6 of hearts, 7 of hearts, 8 of hearts, "
            "joker standing for 9 of hearts, laid by bob"
        )
        assert bob_melds[0] == (
            "meld 1, ann's: 5 of hearts, 6 of hearts, 7 of hearts, 8 of hearts, "
            "joker standing for 9 of hearts, laid by you"
        )
        assert ann_melds[1] == "meld 2, bob's: 2 of clubs, 3 of clubs, 4 of clubs, 5 of clubs"
        # Under the melds, what the notes mean and what a player may do with the joker: the page left a
        # player new to the game with "JK (9♥, laid by bob)" alone.
        legend = ann.page.locator("#joker-legend")
        assert legend.is_visible()
        assert legend.inner_text() == (
            "JK (9♥): a joker, and the card it stands for. Swap wins a joker from the table: tap its "
            "meld, then the cards that free it (Rules: Jokers on the table). "
            "laid by bob: anyone but bob may take it."
        )
        assert (
            bob.page.locator("#joker-legend")
            .inner_text()
            .endswith("laid by you: anyone but you may take it.")
        )
        assert ann.problems == []
        assert bob.problems == []


def test_a_joker_kept_for_good_is_told_closed_and_no_swap_where_none_is_freed(browser: Any) -> None:
    # czech-500 frees no joker: its four-card set's joker reads "(9♣, closed)", and the legend offers no Swap.
    rules = {
        "hand_size": 7,
        "opening_threshold": 0,
        "set_joker_release": "never",
        "run_joker_release": "never",
    }
    game = new_game(rules, ["9H 9S 9D JK 2C 5D 7S", "2S 3S 8H TD TC QH KH"], discard=None, stock="AS AD")
    play(game, "draw stock", "meld 9H 9S 9D JK", "discard AS")
    table, tokens = table_of(game, "classic")
    with hosted(table, advisor=WebCoach()) as host:
        ann = seated(browser, host.server.port, table.code, tokens["ann"])
        assert ann.js(JOKER_NOTES) == ["(9♣, closed)"]
        assert ann.page.locator("#joker-legend").inner_text() == (
            "JK (9♣): a joker, and the card it stands for. closed: that joker stays on the table for good."
        )
        assert ann.problems == []
