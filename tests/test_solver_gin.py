"""Under gin rummy's rules, the solver's least deadwood is OpenSpiel's ``min_deadwood``.

Gin rummy melds like Kalooki with one pack, no jokers, runs of three or more with the ace low
only, and the ace worth 1: so the value left by the best lay of a 10-card hand is the hand's
minimum deadwood. OpenSpiel's gin rummy (``pip install open-spiel``, the ``bench`` extra) computes
it independently; without it these tests skip. ``bench/solver_bench.py`` runs the same
comparison on 20,000 hands and times both.
"""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest

from kalooki.cards import Card, parse_cards
from kalooki.solver import solve
from kalooki.variant import Variant

pyspiel = pytest.importorskip("pyspiel")

GIN_RULES = Variant(
    decks=1, jokers=0, ace_in_runs="low", run_minimum=3, ace_value=1, max_players=2, hand_size=10
)
"""Kalooki's knobs set to gin rummy's melds and card values."""


@functools.cache
def gin_utils() -> Any:
    """OpenSpiel's gin rummy helpers for 13 ranks, 4 suits and 10 cards (built once: it tabulates melds)."""
    return pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)


def openspiel_deadwood(hand: list[Card]) -> int:
    # OpenSpiel numbers a card suit * 13 + rank - 1 (ace 0), as kalooki does; the suits' order differs,
    # which deadwood does not see.
    return int(gin_utils().min_deadwood(hand))


@pytest.mark.parametrize(
    ("hand", "deadwood"),
    [
        ("AH 2H 3H 4H 5S 5C 5D KS KC KD", 0),
        ("QH KH AH 2C 3C 4C 9S 9C 9D 7H", 10 + 10 + 1 + 7),  # no Q-K-A: the ace is low only
        ("AS 2S 3S AC AD 4H 5H 6H 7H 8H", 2),  # A-2-3 and 4-8 beat the three aces
        ("2H 4H 6H 8H TH 2S 4S 6S 8S TS", 60),
    ],
)
def test_literal_gin_hands(hand: str, deadwood: int) -> None:
    cards = parse_cards(hand)
    assert solve(cards, GIN_RULES).value_left == deadwood == openspiel_deadwood(cards)


def test_random_gin_hands_agree_with_openspiel() -> None:
    rng = random.Random(13)
    for _ in range(500):
        hand = rng.sample(range(52), 10)
        assert solve(hand, GIN_RULES).value_left == openspiel_deadwood(hand), hand
