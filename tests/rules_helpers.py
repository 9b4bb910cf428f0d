"""Shared helpers for the rules-engine scenario tests: fixed deals, moves as text, exact rejections."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from kalooki.cards import full_pack, parse_card, parse_cards
from kalooki.engine import FixedDeal, Game, IllegalMoveError
from kalooki.log import GameRecorder
from kalooki.moves import parse_move
from kalooki.script import LoadedScript
from kalooki.script_run import ScriptRun, run_script
from kalooki.variant import Variant

NAMES = ("ann", "bob", "cid", "dee", "eve", "fay")


def variant(**knobs: Any) -> Variant:
    return Variant(**knobs)


def fixed_deal(
    hands: Sequence[str] | dict[int, str], discard: str | None = "2D", stock: str = ""
) -> FixedDeal:
    """A deal from text: cards per seat (a list from seat 0, or a dict), the face-up card (None: no upcard),
    the stock's top."""
    by_seat = hands if isinstance(hands, dict) else dict(enumerate(hands))
    return FixedDeal(
        hands={seat: parse_cards(cards) for seat, cards in by_seat.items()},
        discard=None if discard is None else parse_card(discard),
        stock_top=parse_cards(stock),
    )


def new_game(
    knobs: dict[str, Any] | Variant,
    hands: Sequence[str] | dict[int, str],
    discard: str | None = "2D",
    stock: str = "",
    seed: int = 7,
    players: int | None = None,
) -> Game:
    """A game whose first hand is dealt as written; ``knobs`` is a Variant or its keyword arguments."""
    rules = knobs if isinstance(knobs, Variant) else Variant(**knobs)
    count = players if players is not None else len(hands)
    return Game(rules, list(NAMES[:count]), seed=seed, deal=fixed_deal(hands, discard, stock))


def play(game: Game, *moves: str) -> list[dict[str, Any]]:
    """Apply moves written in the move language, for whoever's turn it is; return all their events."""
    events: list[dict[str, Any]] = []
    for move in moves:
        events += game.apply(parse_move(move))
    return events


def assert_illegal(game: Game, move: str, message: str) -> None:
    """The move is rejected with exactly ``message``, and the game state is exactly as before."""
    before = json.dumps(game.to_json(), sort_keys=True)
    with pytest.raises(IllegalMoveError) as caught:
        game.apply(parse_move(move))
    actual = str(caught.value)
    assert actual == message, f"the message was\n  {actual!r}\nnot\n  {message!r}"
    assert json.dumps(game.to_json(), sort_keys=True) == before, "a rejected move changed the game"
    assert game.cards_everywhere() == full_pack(game.variant.decks, game.variant.jokers)


def hand_text(game: Game, seat: int) -> list[str]:
    """A seat's hand as sorted card strings (order of play does not matter for the assertions)."""
    from kalooki.cards import format_card

    return sorted(format_card(card) for card in game.hands[seat])


def table_text(game: Game) -> list[str]:
    from kalooki.cards import format_cards

    return [format_cards(meld.cards) for meld in game.table]


def pack_intact(game: Game) -> bool:
    return game.cards_everywhere() == full_pack(game.variant.decks, game.variant.jokers)


def recorded_run(script: LoadedScript) -> tuple[ScriptRun, list[dict[str, Any]]]:
    """Play ``script`` and return its run with the log's records, as a log file would hold them."""
    recorder: list[GameRecorder] = []

    def on_events(game, events):  # type: ignore[no-untyped-def]
        if not recorder:
            recorder.append(GameRecorder(game))
            if events is game.opening_events:
                return
        recorder[0].record(game, events)

    run = run_script(script, on_events=on_events)
    return run, json.loads(json.dumps(recorder[0].records))
