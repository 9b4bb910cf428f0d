"""A turn that owes the card it took, laid only after an opening and then a joker swap.

The position (fixtures/swap_debt/open-then-swap.json), met by ``kalooki simulate`` with random bots:
three packs, six jokers, 26-card hands, ``opening_threshold: 100``, ``discard_draw: meld_at_once``,
jokers freed only by a player who has opened. P1 has not opened and takes 2C. No opening lays 2C, but
one that keeps 5C and 5D lets ``swap 1 5C 5D`` free the joker of ``5H 5S JK``, and ``meld 2C JK 4C``
pays the card. The listing's bounded search of openings met none that keeps them, and listed nothing.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from kalooki_cli.hints import Hint, hint_summary, meld_preview, render_hint
from rich.console import Console
from rules_helpers import play

from kalooki.cards import parse_card
from kalooki.engine import Game
from kalooki.moves import DRAW_DISCARD, DRAW_STOCK, Meld, parse_move
from kalooki.view import LegalView

FIXTURE = Path(__file__).parent / "fixtures" / "swap_debt" / "open-then-swap.json"
OPENING = "meld 6C 6D 6H, 9C 9D 9H, QC QH QS, AH 2H 3H 4H 5H"


def taken(**knobs: object) -> Game:
    state = json.loads(FIXTURE.read_text())
    state["variant"].update(knobs)
    game = Game.from_json(state)
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


def test_the_openings_come_swap_card_by_swap_card() -> None:
    # Searched per card that frees a table joker (5C, 5D), each in the hand less 2C and that card: the
    # openings keeping 5C, then the 40 that lay 5C and keep 5D, in the order of that search. Searching
    # for every card held, not only those, found some of the 5D ones early, in the search for a card
    # that frees no joker.
    actions = taken().legal_actions()
    listed = [str(action) for action in actions]
    five = parse_card("5C")
    laying = [
        str(action)
        for action in actions
        if isinstance(action, Meld) and any(five in group for group in action.groups)
    ]
    assert len(listed) == 298
    assert laying == listed[-40:]
    assert laying[:3] == [
        "meld 6D 6H 6S, 9C 9D 9H, QC QH QS, 4C 5C 6C, AH 2H 3H",
        "meld 6D 6H 6S, 9C 9D 9H, QC QH QS, 4C 5C 6C, AH 2H 3H 4H",
        "meld 6D 6H 6S, 9C 9D 9S, QC QH QS, 4C 5C 6C, AH 2H 3H",
    ]


def test_where_a_swap_is_listed_the_openings_that_keep_a_card_for_one_are_not_searched() -> None:
    # A player who has not opened may free jokers here: the swaps that lead to laying 2C are listed, and
    # the listing falls back on the openings that keep 5C or 5D only where it lists nothing at all.
    game = taken(joker_release_requires_opening=False)
    assert [str(action) for action in game.legal_actions()] == ["swap 1 5C 5D", "swap 2 5H 5S"]


def test_the_hint_gives_the_route() -> None:
    game = taken()
    out = io.StringIO()
    render_hint(Console(file=out, width=100, color_system=None, highlight=False), game, 0, letters=True)
    assert out.getvalue().splitlines() == [
        "Hint (what the greedy bot would play):",
        f"  {OPENING}",
        "    100 points",
        "  swap 1 5C 5D",
        "  meld 2C JK(3C) 4C",
        "    9 points",
        "  build 2 5S",
        "  build 8 JC",
        "  build 9 7H 8H",
        "  build 10 6S",
        "  build 11 9S",
        "  discard AD",
        # The bot's own move was refused (it does not see the swap): said, under its heading.
        "That lays 159 points, 109 of them in new melds: enough to open (100 needed). Where the bot's own ",
        "move was refused, the hint takes the first the rules allow, as play does.",
    ]


def test_a_hint_that_lays_nothing_beside_a_preview_that_opens_does_not_say_the_hand_cannot_open() -> None:
    game = taken()
    preview = meld_preview(game, 0)
    assert preview is not None
    assert (preview.points, preview.opens) == (159, True)
    nothing = Hint(actions=(), points=0, opening=False, short=preview)
    assert hint_summary(nothing, game, 0) == (
        "Your best melds make 159 of the 100 points needed, but the greedy bot would not open with them"
        " this turn."
    )
