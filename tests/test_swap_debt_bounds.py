"""A turn that owes the card it took, where only a chain of joker swaps lets the hand lay it.

The position (fixtures/swap_debt/chained-swaps.json): four packs, eight jokers, 26-card hands, eight
players, ``discard_draw: meld_at_once``, freed jokers must be melded and may be freed before opening.
Seat 2 has not opened; the discard is TH, and eight melds on the table hold jokers. TH can be laid only
once three jokers are freed (JC or JH, 9C or 9H, then AD), so every swap's check searches for the swaps
after it, and each asks the solver whether the hand could then open with TH.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kalooki import laying
from kalooki.engine import Game, IllegalMoveError
from kalooki.moves import DRAW_DISCARD, DRAW_STOCK, Draw, Swap
from kalooki.variant_memo import PerVariant
from kalooki.view import LegalView

FIXTURE = Path(__file__).parent / "fixtures" / "swap_debt" / "chained-swaps.json"
SWAPS = [Swap(4, (10,)), Swap(4, (36,)), Swap(5, (8,)), Swap(5, (34,)), Swap(7, (13,))]
"""swap 4 JC, swap 4 JH, swap 5 9C, swap 5 9H, swap 7 AD: not swap 7 AH, after which no chain lays TH."""


def position(taken: bool = True) -> Game:
    game = Game.from_json(json.loads(FIXTURE.read_text()))
    if taken:
        game.apply(Draw("discard"))
    return game


def test_the_legal_actions_are_the_swaps_that_lead_on() -> None:
    game = position()
    assert game.legal_actions() == SWAPS
    assert game.legal_actions() == SWAPS  # the second listing reads what the first worked out
    assert [str(action) for action in LegalView(game.view(2)).swaps()] == [
        "swap 4 JC",
        "swap 4 JH",
        "swap 5 9C",
        "swap 5 9H",
        "swap 7 AD",
    ]


def test_past_the_bound_a_chain_is_not_weighed_and_the_draw_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One position per laying's check, the swap's own: TH needs two jokers freed at least.
    monkeypatch.setattr(laying, "MAX_SWAP_POSITIONS", 1)
    monkeypatch.setattr(laying, "_VERDICTS", PerVariant(lambda variant: {}))
    game = position(taken=False)
    assert game.legal_actions() == [DRAW_STOCK]
    with pytest.raises(
        IllegalMoveError, match=r"^you may take TH only to lay it this turn, and you could not: draw stock$"
    ):
        game.apply(DRAW_DISCARD)
