"""A turn that owes the card it took, where only a chain of joker swaps lets the hand lay it.

The position (fixtures/swap_debt/chained-swaps.json): four packs, eight jokers, 26-card hands, eight
players, ``discard_draw: meld_at_once``, freed jokers must be melded and may be freed before opening.
Seat 2 has not opened; the discard is TH, and eight melds on the table hold jokers. TH can be laid only
once three jokers are freed (JC or JH, 9C or 9H, then AD), so every swap's check searches for the swaps
after it, and each asks the solver whether the hand could then open with TH.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from kalooki_cli.hints import suggest_turn

import kalooki.driver as driver
from kalooki import laying
from kalooki.bots import make_bot
from kalooki.engine import Game, IllegalMoveError
from kalooki.moves import DRAW_DISCARD, DRAW_STOCK, Action, Discard, Draw, Swap, parse_move
from kalooki.simulate import simulate
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


def bounded(monkeypatch: pytest.MonkeyPatch, positions: int) -> Game:
    """The position before the draw, each laying's check working out at most ``positions`` positions."""
    monkeypatch.setattr(laying, "MAX_SWAP_POSITIONS", positions)
    monkeypatch.setattr(laying, "_VERDICTS", PerVariant(lambda variant: {}))
    return position(taken=False)


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
    game = bounded(monkeypatch, 1)
    assert game.legal_actions() == [DRAW_STOCK]
    with pytest.raises(
        IllegalMoveError, match=r"^you may take TH only to lay it this turn, and you could not: draw stock$"
    ):
        game.apply(DRAW_DISCARD)


def test_at_two_positions_the_swap_of_the_ad_is_weighed_and_the_draw_allowed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The swap's own position and one after it: swap 7 AD leads on within them, the others need more.
    game = bounded(monkeypatch, 2)
    assert game.legal_actions() == [DRAW_STOCK, DRAW_DISCARD]
    game.apply(DRAW_DISCARD)
    assert [action for action in game.legal_actions() if isinstance(action, Swap)] == [Swap(7, (13,))]


HINT = [
    "swap 4 JC",
    "swap 5 9C",
    "swap 7 AD",
    "meld 2C 2S 2S 2S, 8C JK TC, 5D 5H 5H, JK KH AH, 6H 6H 6S 6S, 9H TH JH JK KH",
    "build 6 QS",
    "build 3 4D",
    "discard 8S",
]
"""What greedy plays there, and so what ``hint`` suggests."""


class _Illegal:
    """A bot that always discards the ace of clubs, which seat 2 does not hold."""

    def choose(self, view: object, legal: object) -> Action:
        return Discard(0)


def test_the_driver_lists_the_legal_actions_once_after_an_illegal_choice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = position()
    # The debt paid: the turn may be taken back and may end with a discard, so the driver keeps it.
    for move in HINT[:4]:
        game.apply(parse_move(move))
    listings: list[list[Action]] = []
    original = Game.legal_actions

    def counting(self: Game) -> list[Action]:
        listings.append(original(self))
        return listings[-1]

    monkeypatch.setattr(Game, "legal_actions", counting)
    with pytest.warns(driver.BotFaultWarning, match="you have no AC in your hand to discard"):
        events = driver.play_turn(game, _Illegal())  # type: ignore[arg-type]
    assert len(listings) == 1
    assert [event.to_json() for event in events] == [{"type": "discard", "player": "p2", "card": "QS"}]


@pytest.mark.parametrize("bot", ["random", "greedy", "expert"])
def test_the_bots_pay_the_debt_with_swaps(bot: str) -> None:
    game = position()
    chooser = make_bot(bot, random.Random(1))
    played: list[str] = []
    while game.current == 2 and game.phase == "play":
        view = game.view(2)
        action = chooser.choose(view, LegalView(view))
        assert action in game.legal_actions(), f"{bot} chose {action!s}"
        game.apply(action)
        played.append(str(action))
    assert (
        played[:3]
        == {
            "random": ["swap 4 JH", "swap 5 9H", "swap 7 AD"],
            "greedy": ["swap 4 JC", "swap 5 9C", "swap 7 AD"],
            "expert": ["swap 4 JC", "swap 5 9C", "swap 7 AD"],
        }[bot]
    )
    assert played[3].startswith("meld ")
    assert played[-1].startswith("discard ")
    assert game.opened[2]


def test_the_hint_suggests_the_swaps_and_the_opening() -> None:
    hint = suggest_turn(position())
    assert [str(action) for action in hint.actions] == HINT
    assert hint.opening


def test_seed_one_plays_to_its_end() -> None:
    # Before, seat 2 reached the position above on turn 3 and the game did not end in 300 s.
    variant = position(taken=False).variant
    result = simulate(variant, ["random"] * 8, games=1, seed=1, workers=1)
    assert result.ends == {"went_out": 1}
    assert (result.hands, result.turns_per_hand.mean, result.score_spread.mean) == (1, 3.0, 235.0)
