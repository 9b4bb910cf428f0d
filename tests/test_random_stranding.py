"""The random bot's stranding check answers as the full count does, where a bound answers for it.

``_Stranding.strands`` first bounds the places a laying can take from the table (each laid card once
for every meld it is a place of, a joker one, a build its meld's own places) and answers "does not
strand" where the places left over cover the hand; only the others get the table after the laying and
:func:`kalooki.bots.endgame.short_of_places`. On every laying the bot weighs in seeded games, under
the built-in variants and the knobs, the answer must be the full count's, and the bound must have
answered some of them (else this compares nothing).
"""

from __future__ import annotations

import pytest
from test_random_layings import random_play
from test_table_plays import _variants

from kalooki.bots import endgame
from kalooki.bots.greedy import keep_count, rival_hands, table_after
from kalooki.bots.random_bot import _Stranding
from kalooki.moves import Build, Meld, Swap
from kalooki.variant import Variant
from kalooki.view import LegalView, PlayerView


def _full_count(view: PlayerView, action: Meld | Build | Swap, held: int) -> bool:
    """Whether laying ``action`` strands the hand, from the table after it, counted in full."""
    variant = view.variant
    keep = keep_count(variant)
    if isinstance(action, Meld):
        table = table_after(view.table, action.groups, (), variant)
    elif isinstance(action, Build):
        table = table_after(view.table, (), ((action.meld - 1, action.cards, action.end),), variant)
    else:
        table = list(view.table)
    if table is None:
        return False
    others, contested = rival_hands(view, keep)
    gone = endgame.used_up(table, view.discard_pile, variant)
    return endgame.short_of_places(held, table, gone, variant, keep, others, contested)


@pytest.mark.parametrize(("name", "variant"), _variants(), ids=[name for name, _ in _variants()])
def test_the_stranding_bound_answers_as_the_full_count(name: str, variant: Variant) -> None:
    bounded = counted = stranded = 0
    keep = keep_count(variant)
    for game in random_play(variant):
        seat = game.current
        if game.phase == "play" and game.opened[seat] and not game.owed_cards():
            view = game.view(seat)
            stranding = _Stranding(view)
            for action in LegalView(view).layings():
                laid = sum(map(len, action.groups)) if isinstance(action, Meld) else len(action.cards)
                held = view.hand_state.size - laid + (1 if isinstance(action, Swap) else 0) - 1
                if not endgame.too_few_for_a_meld(held, keep):
                    continue
                answer = stranding.strands(action, held)
                assert answer == _full_count(view, action, held), (action, held)
                stranded += answer
                if isinstance(action, Swap) or stranding._places_left(action) >= held:
                    bounded += 1
                else:
                    counted += 1
    assert bounded > 0
    if name == "classic":
        # Classic's games reach all three: layings the bound clears, ones it leaves, ones that strand.
        assert counted > 0
        assert stranded > 0
