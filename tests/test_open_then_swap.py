"""A turn that owes the card it took, laid only after an opening and then a joker swap.

The position (fixtures/swap_debt/open-then-swap.json), met by ``kalooki simulate`` with random bots:
three packs, six jokers, 26-card hands, ``opening_threshold: 100``, ``discard_draw: meld_at_once``,
jokers freed only by a player who has opened. P1 has not opened and takes 2C. No opening lays 2C, but
one that keeps 5C and 5D lets ``swap 1 5C 5D`` free the joker of ``5H 5S JK``, and ``meld 2C JK 4C``
pays the card. The listing's bounded search of openings met none that keeps them, and listed nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

from rules_helpers import play

from kalooki.engine import Game
from kalooki.moves import DRAW_DISCARD, DRAW_STOCK, Meld, parse_move
from kalooki.view import LegalView

FIXTURE = Path(__file__).parent / "fixtures" / "swap_debt" / "open-then-swap.json"
OPENING = "meld 6C 6D 6H, 9C 9D 9H, QC QH QS, AH 2H 3H 4H 5H"


def taken() -> Game:
    game = Game.from_json(json.loads(FIXTURE.read_text()))
    assert game.legal_actions() == [DRAW_STOCK, DRAW_DISCARD]
    play(game, "draw discard")
    return game


def test_the_listing_gives_an_opening_that_keeps_the_cards_for_the_swap() -> None:
    game = taken()
    listed = game.legal_actions()
    # Every opening listed is one the engine accepts; none lays 2C, so each keeps it for after the swap.
    assert listed[0] == parse_move(OPENING)
    assert all(
        isinstance(action, Meld) and all(1 not in group for group in action.groups) for action in listed
    )
    assert LegalView(game.view(game.current)).listed() == listed
    for move in (OPENING, "swap 1 5C 5D", "meld 2C JK 4C", "discard KS"):
        assert parse_move(move) in game.legal_actions(), move
        play(game, move)
    assert game.turn_number == 4
    assert game.opened[0]
