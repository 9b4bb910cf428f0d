"""discard_draw: meld_at_once lets the top discard be taken wherever a joker swap leads to laying it.

kalooki-40's rule: the discard may be taken only to lay it "in a meld, on a meld, or in a table joker's
place". A player who has not opened may open first and then swap it in; one who has may free a joker
with another card and meld the discard with it. A draw stays refused where no such way ends the turn.
"""

from __future__ import annotations

from typing import Any

import pytest
from rules_helpers import assert_illegal, hand_text, new_game, play, table_text

from kalooki import legal
from kalooki.engine import Game
from kalooki.loader import builtin_variant_path, load_variant
from kalooki.moves import DRAW_DISCARD, DRAW_STOCK
from kalooki.variant import Variant
from kalooki.view import LegalView

ANN = "5H JK 7H KH KS KD QH QS QC 2C 4D 6H 8D"
ANN_MELDS = "meld 5H JK 7H, KH KS KD, QH QS QC"


def _variant(name: str, **knobs: Any) -> Variant:
    return load_variant(builtin_variant_path(name)).model_copy(update=knobs)


VARIANTS = {
    "kalooki-40": _variant("kalooki-40"),
    "kalooki-40, freed jokers kept": _variant("kalooki-40", released_joker_must_be_melded=False),
    "classic, meld_at_once": _variant("classic", discard_draw="meld_at_once"),
}


def _may_take(game: Game, taken: bool) -> None:
    """The engine, its legal actions and a seat's view agree whether the top discard may be taken."""
    draws = [DRAW_STOCK, DRAW_DISCARD] if taken else [DRAW_STOCK]
    assert game.legal_actions() == draws
    assert LegalView(game.view(game.current)).listed() == draws


def _6h_discarded(variant: Variant, bob: str) -> Game:
    """ann opens with 5H JK 7H and two sets, then discards 6H; bob, who has not opened, is to draw."""
    game = new_game(variant, [ANN, bob], discard=None, stock="2D 7C 6C 8H")
    play(game, "draw stock", ANN_MELDS, "discard 6H")
    return game


@pytest.mark.parametrize("name", list(VARIANTS))
def test_a_player_may_take_the_discard_to_open_then_swap_it_for_a_table_joker(name: str) -> None:
    game = _6h_discarded(VARIANTS[name], "AS AC AH 4S 9D TH TS TD 8C 3S QD 5D 9C")
    _may_take(game, True)
    play(game, "draw discard", "meld AS AC AH, TH TS TD", "swap 1 6H", "meld 8C 9C JK", "discard 5D")
    assert table_text(game) == ["5H 6H 7H", "KH KS KD", "QH QS QC", "AS AC AH", "TH TS TD", "8C 9C JK"]
    assert hand_text(game, 1) == ["3S", "4S", "9D", "QD"]


def test_the_discard_a_swap_would_lay_is_refused_where_the_freed_joker_could_not_be_melded() -> None:
    # bob could open and swap 6H in, but kalooki-40's freed joker must go into a new meld, and nothing
    # in his hand melds with it: that turn could not end, so the draw is refused.
    bob = "AS AC AH TH TS TD 2C 6C JC 4D 9D 7S KS"
    game = _6h_discarded(VARIANTS["kalooki-40"], bob)
    _may_take(game, False)
    assert_illegal(
        game, "draw discard", "you may take 6H only to lay it this turn, and you could not: draw stock"
    )
    # Where a freed joker may stay in hand, the same turn ends with a discard.
    game = _6h_discarded(VARIANTS["kalooki-40, freed jokers kept"], bob)
    _may_take(game, True)
    play(game, "draw discard", "meld AS AC AH, TH TS TD", "swap 1 6H", "discard KS")
    assert hand_text(game, 1) == ["2C", "4D", "6C", "7S", "9D", "JC", "JK"]


def test_the_discard_only_a_swap_would_lay_is_refused_where_no_joker_is_ever_freed() -> None:
    # The hand that opens and swaps 6H in above, where neither sets nor runs give up their jokers.
    variant = _variant(
        "classic", discard_draw="meld_at_once", set_joker_release="never", run_joker_release="never"
    )
    game = _6h_discarded(variant, "AS AC AH 4S 9D TH TS TD 8C 3S QD 5D 9C")
    _may_take(game, False)
    assert_illegal(
        game, "draw discard", "you may take 6H only to lay it this turn, and you could not: draw stock"
    )


def test_a_discard_nothing_could_lay_is_still_refused_before_opening() -> None:
    # bob holds the cards to swap 6H in and to meld the joker, but cannot open: no swap before that.
    game = _6h_discarded(VARIANTS["kalooki-40"], "AS AC 4H 4S 9D TH TS 2D 8C 3S QD 5D 9C")
    _may_take(game, False)
    assert_illegal(
        game, "draw discard", "you may take 6H only to lay it this turn, and you could not: draw stock"
    )


@pytest.mark.parametrize("name", list(VARIANTS))
def test_an_opened_player_may_take_the_discard_to_meld_it_with_a_joker_another_card_frees(name: str) -> None:
    game = new_game(
        VARIANTS[name],
        ["5H JK 7H KH KS KD QH QS QC 2C 4D 9C 8D", "AS AC AH 4S 6H TH TS TD 8C 3S QD 5D 2H"],
        discard=None,
        stock="2D 7D 6C 8H 2H",
    )
    play(game, "draw stock", ANN_MELDS, "discard 2C")
    play(game, "draw stock", "meld AS AC AH, TH TS TD", "discard 3S")
    play(game, "draw stock", "discard 9C")
    _may_take(game, True)
    play(game, "draw discard", "swap 1 6H", "meld 8C 9C JK", "discard 5D")
    assert table_text(game) == ["5H 6H 7H", "KH KS KD", "QH QS QC", "AS AC AH", "TH TS TD", "8C 9C JK"]
    assert hand_text(game, 1) == ["2H", "4S", "7D", "QD"]


def test_a_laying_that_leaves_the_card_taken_and_the_freed_joker_unpayable_together_is_refused() -> None:
    """Each debt payable alone is not enough: in this seeded game of four random bots a bot took a
    discard, freed a joker, and was let lay what left no way to pay both (the one joker that could
    build the card was the one that could meld the freed joker), so its turn had no legal action
    ("b has no legal action"). The laying is refused now, and every turn of the game ends."""
    import random

    from kalooki.bots import make_bot
    from kalooki.driver import play_turn

    game = Game(load_variant("kalooki-40"), ["a", "b", "c", "d"], seed=13)
    bots = {seat: make_bot("random", random.Random(f"13/{seat}")) for seat in range(4)}
    for _ in range(3000):
        if game.game_over:
            break
        if game.phase == "hand_over":
            game.next_hand()
        else:
            play_turn(game, bots[game.current])
    assert game.game_over


# ---------------------------------------------------------------- the openings that keep a swap card


def _jh_discarded(bob: str, **knobs: Any) -> Game:
    """ann opens with TH JK QH KH and discards JH, the card her joker stands for; bob, with six cards and
    not yet opened, is to draw. A freed joker may stay in hand, so swapping JH in is all it lays."""
    variant = _variant("kalooki-40", released_joker_must_be_melded=False, hand_size=6, **knobs)
    game = new_game(variant, ["TH JK QH KH JH 2C", bob], discard=None, stock="3D 7C 6C 8H")
    play(game, "draw stock", "meld TH JK QH KH", "discard JH")
    return game


def test_the_discard_may_be_taken_to_open_with_every_other_card_then_swap_it() -> None:
    # Only all six of bob's cards open (aces 33, tens 30: 40 to open): the opening keeps JH and lays
    # everything else, and no card but JH frees a joker.
    game = _jh_discarded("AS AC AH TS TD TC")
    _may_take(game, True)
    play(game, "draw discard", "meld AS AC AH, TS TD TC", "swap 1 JH")
    assert table_text(game) == ["TH JH QH KH", "AS AC AH", "TS TD TC"]
    assert hand_text(game, 1) == ["JK"]


def test_the_discard_may_be_taken_to_open_with_a_run_of_one_card_and_jokers() -> None:
    # QD JK JK opens only as the run Q-K-A (31), not as a set of queens (30).
    game = _jh_discarded("QD JK JK 2C 4S 8D", jokers=4, opening_threshold=31)
    _may_take(game, True)
    play(game, "draw discard", "meld QD JK JK run", "swap 1 JH")
    assert table_text(game) == ["TH JH QH KH", "QD JK JK"]
    assert hand_text(game, 1) == ["2C", "4S", "8D", "JK"]


def test_past_the_search_bound_the_solvers_opening_keeping_the_swap_card_is_tried(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # With no combination and no opening in the bound, the search still had one to give: the solver's
    # opening of the hand less JH (every card, none kept) is the one tried, and it leads on.
    monkeypatch.setattr(legal, "MAX_OPENING_STEPS", 0)
    game = _jh_discarded("AS AC AH TS TD TC")
    _may_take(game, True)
