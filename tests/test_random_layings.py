"""The random bot lists its draws and layings as the seat's legal view does, asking for swaps only when it
may swap.

The random bot lists a player's melds, builds and swaps (opened, owing nothing) with
``LegalView.layings(releases=False)`` when the hand holds no card a table joker stands for
(:func:`kalooki.bots.greedy.holds_swap_card`): then there is no swap to list. On every such position of
seeded games, under the built-in variants and the knobs a swap's legality depends on, the list
must be ``LegalView.layings()``'s, and a hand holding no such card must have no legal swap. The draws
:meth:`RandomBot.draws` remembers must be ``LegalView.listed()``'s at every draw of those games.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from test_table_plays import _variants

from kalooki.bots import make_bot
from kalooki.bots.greedy import holds_swap_card
from kalooki.bots.random_bot import RandomBot
from kalooki.driver import ask_bot
from kalooki.engine import Game
from kalooki.moves import Swap
from kalooki.variant import Variant
from kalooki.view import LegalView


def random_play(variant: Variant, seeds: int = 12) -> Iterator[Game]:
    """The first hand of ``seeds`` seeded games of random bots, yielded before each action the bots play."""
    for seed in range(seeds):
        count = 4 if variant.min_players <= 4 <= variant.max_players else variant.min_players
        game = Game(variant, [f"P{seat}" for seat in range(count)], seed=seed)
        bots = [make_bot("random", random.Random(seed * 7 + seat)) for seat in range(count)]
        while game.phase in ("draw", "play"):
            yield game
            game.apply(ask_bot(bots[game.current], game))


@pytest.mark.parametrize(("name", "variant"), _variants(), ids=[name for name, _ in _variants()])
def test_the_bots_layings_are_the_views_and_no_swap_card_means_no_swap(name: str, variant: Variant) -> None:
    checked = swapped = 0
    lister = RandomBot(random.Random(0))
    drawn = 0
    for game in random_play(variant):
        seat = game.current
        if game.phase == "draw":
            view = game.view(seat)
            listed = lister.draws(view, LegalView(view))
            assert listed == LegalView(view).listed()
            drawn += 1
        if game.phase == "play" and game.opened[seat] and not game.owed_cards():
            view = game.view(seat)
            legal = LegalView(view)
            holds = holds_swap_card(view)
            if not holds:
                assert legal.swaps() == []
            listed = list(legal.layings(releases=holds))
            assert listed == list(LegalView(view).layings())
            checked += 1
            swapped += any(isinstance(action, Swap) for action in listed)
    assert checked > 0
    assert drawn > 0
    if variant.run_joker_release != "never" or variant.set_joker_release != "never":
        # Somewhere a swap was listed, so the comparison reached the swaps too.
        assert swapped > 0
