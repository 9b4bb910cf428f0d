"""The count checks' table look-ups give what walking the cards one by one gives.

:func:`kalooki.bots.quick._in_runs` reads each suit's run coverage from a list by the suit's ranks
held, and :func:`kalooki.bots.quick.bound_with` sums an opening's bound a byte of the mask at a time and
adds the copies past the first. On random hands under rules that change the run frame, the pack and
the copies a hand may hold (four packs, eight jokers), both must equal the plain walk they replace,
on the first look-up (the TypeError path that works a suit's part out) and on every later one.
"""

from __future__ import annotations

import random

import pytest

from kalooki.bots import make_bot, quick
from kalooki.cards import JOKER, full_pack, rank_points
from kalooki.cardstate import KEY_BITS, RUN_BITS, CardState
from kalooki.driver import play_turn
from kalooki.engine import Game
from kalooki.loader import builtin_variant_names, builtin_variant_path, load_variant
from kalooki.melds import TableMeld
from kalooki.rules import most_ace_points, run_frame
from kalooki.variant import Variant


def _walked_runs(state: CardState, variant: Variant) -> int:
    """The run part of ``meldable`` suit by suit, each suit's window coverage worked out afresh."""
    found = 0
    for suit in range(4):
        mask = (state.runs >> (suit * RUN_BITS)) & ((1 << RUN_BITS) - 1)
        if mask:
            found |= quick._covered(mask, state.jokers, run_frame(variant)) << (suit * 13)
    return found


def _walked_bound(state: CardState, can_meld: int, variant: Variant) -> int:
    """Every meldable natural card's points times its copies, and each joker at its most."""
    ace = most_ace_points(variant)
    total = state.jokers * max(ace, 10)
    for card in range(JOKER):
        if can_meld >> card & 1:
            total += rank_points(card % 13 + 1, ace) * ((state.key >> (card * KEY_BITS)) & 15)
    return total


@pytest.mark.parametrize("ace_in_runs", ["low", "high_or_low", "wrap"])
@pytest.mark.parametrize(("decks", "jokers", "run_minimum"), [(1, 0, 3), (2, 2, 3), (2, 4, 4), (4, 8, 3)])
def test_run_coverage_and_bound_by_table_equal_the_walk(
    ace_in_runs: str, decks: int, jokers: int, run_minimum: int
) -> None:
    variant = Variant(
        max_players=2,
        hand_size=10,
        decks=decks,
        jokers=jokers,
        ace_in_runs=ace_in_runs,
        run_minimum=run_minimum,
        ace_value=11 if ace_in_runs != "low" else 1,
    )
    entry = quick.tables_of(variant)
    pack = list(full_pack(decks, jokers).elements())
    rng = random.Random(f"{ace_in_runs}{decks}{jokers}{run_minimum}")
    twice = 0
    for _ in range(400):
        state = CardState.of(rng.sample(pack, rng.randint(1, 22)))
        runs = quick._in_runs(state.runs, state.jokers, entry)
        assert runs == _walked_runs(state, variant), state
        can_meld = quick.meldable_with(state, entry)
        # Any mask of held naturals, not only the meldable one: the bound reads whatever it is given.
        for mask in (can_meld, state.held & ~(1 << JOKER), runs):
            assert quick.bound_with(state, mask, entry) == _walked_bound(state, mask, variant), state
        twice += any(state.count(card) > 1 for card in range(JOKER) if can_meld >> card & 1)
    # The copies past the first were counted somewhere (where the pack holds them).
    assert twice > 0 or decks == 1


@pytest.mark.parametrize("name", builtin_variant_names())
def test_lay_or_release_is_may_lay_and_the_swap_mask(name: str) -> None:
    # Read together with the last table's masks from their memos: the same answers as asked one by
    # one, on the hands and tables of seeded random games, and again with each other table in between.
    variant = load_variant(builtin_variant_path(name))
    game = Game(variant, ["P1", "P2", "P3", "P4"][: variant.max_players], seed=3)
    bots = [make_bot("random", random.Random(seat)) for seat in range(len(game.players))]
    asked: list[tuple[CardState, tuple[TableMeld, ...]]] = []
    lays = released = 0
    while len(asked) < 5000 and not (lays > 20 and released > 20):
        if game.game_over:
            game = Game(variant, game.players, seed=len(asked))
        if game.phase == "hand_over":
            game.next_hand()
        view = game.view(game.current)
        asked.append((view.hand_state, view.table))
        lays += quick.may_lay(view.hand_state, view.table, variant)
        released += bool(view.hand_state.held & quick.swap_mask(view.table, variant))
        play_turn(game, bots[game.current])
    assert lays > 20
    assert released > 20
    for state, table in asked + asked[::-1]:
        expected = (quick.may_lay(state, table, variant), bool(state.held & quick.swap_mask(table, variant)))
        assert quick.lay_or_release(state, table, variant) == expected
