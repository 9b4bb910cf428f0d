"""The random bot's proof that a hand holds no opening never contradicts the solver.

:func:`kalooki.bots.random_bot.surely_no_opening` lets the bot skip ``solver.best_opening`` when
sampling found no opening; the bot then plays as before only if the proof is never wrong. Hands are
drawn dense in melds (a few ranks of a few suits, jokers), under each built-in variant and knob
changes the proof reasons about (books, ace positions, wrapping runs, set sizes, thresholds). The
proof's search (over every candidate, jokers too) must also be complete: it finds an opening exactly
when the solver does, with or without jokers.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from kalooki import solver
from kalooki.bots.random_bot import (
    RandomBot,
    _counts,
    _most_points,
    _natural_points,
    opening_values,
    surely_no_opening,
)
from kalooki.candidates import candidate_melds
from kalooki.cards import JOKER, make_card
from kalooki.cardstate import CardState
from kalooki.loader import builtin_variant_names, builtin_variant_path, load_variant
from kalooki.melds import MeldError, make_meld
from kalooki.rules import keep, most_ace_points, most_joker_points, opening_points
from kalooki.variant import Variant

KNOBS: dict[str, dict[str, object]] = {
    "books": {"set_suits": "may_repeat", "set_maximum": 6, "decks": 3},
    "wrap": {"ace_in_runs": "wrap"},
    "ace-low": {"ace_in_runs": "low", "ace_low_value": 1},
    "three-to-a-set": {"set_maximum": 3, "opening_threshold": 30},
    "long-runs": {"run_minimum": 4, "opening_threshold": 40},
    "discard-optional": {"going_out": "discard_optional"},
    # A joker worth less in a meld than most cards it could stand for.
    "cheap-own-joker": {"opening_joker_value": "penalty", "joker_penalty": 5},
}

HANDS = 1000


def _variants() -> list[tuple[str, Variant]]:
    builtin = [(name, load_variant(builtin_variant_path(name))) for name in builtin_variant_names()]
    classic = load_variant(builtin_variant_path("classic"))
    return builtin + [
        (f"classic+{name}", classic.model_copy(update=update)) for name, update in KNOBS.items()
    ]


def _dense_hand(rng: random.Random, variant: Variant) -> list[int]:
    """A hand of a few ranks in a few suits, so that its melds overlap and often nearly open."""
    ranks = rng.sample(range(1, 14), rng.randint(4, 7))
    suits = rng.sample(range(4), rng.randint(2, 4))
    pool = [make_card(rank, suit) for rank in ranks for suit in suits for _ in range(variant.decks)]
    size = min(variant.hand_size + 1, len(pool))
    jokers = min(variant.jokers, rng.choice([0, 0, 1, 1, 2]))
    return rng.sample(pool, size - jokers) + [JOKER] * jokers


def _dealt_hand(rng: random.Random, variant: Variant) -> list[int]:
    """A hand dealt from the variant's whole pack (copies and all), holding 0, 1 or 2 of its jokers:
    the hands the random bot asks about, most of which hold no opening."""
    jokers = min(variant.jokers, rng.choice([0, 1, 2]))
    pack = [code for code in range(JOKER) for _ in range(variant.decks)]
    return rng.sample(pack, variant.hand_size + 1 - jokers) + [JOKER] * jokers


@pytest.mark.parametrize("deal", [_dense_hand, _dealt_hand], ids=["dense", "dealt"])
@pytest.mark.parametrize(("name", "variant"), _variants(), ids=[name for name, _ in _variants()])
def test_no_opening_is_claimed_where_the_solver_finds_one(
    name: str, variant: Variant, deal: Callable[[random.Random, Variant], list[int]]
) -> None:
    rng = random.Random(name)
    kept = keep(variant)
    worth = _natural_points(most_ace_points(variant), most_joker_points(variant))
    # Hands whose search finished, by jokers held (0, 1, 2), and hands claimed to hold no opening.
    searched = [0, 0, 0]
    claimed = 0
    for _ in range(HANDS):
        hand = deal(rng, variant)
        state = CardState.of(hand)
        values = opening_values(state, variant)
        claim = surely_no_opening(values, _counts(hand), len(hand) - kept, state, variant)
        opening = solver.best_opening(hand, variant, keep=kept)
        if claim:
            assert opening is None, hand
            claimed += 1
        # The search over every candidate, jokers and all, is exact whenever it finishes, and then
        # the proof is complete: it claims every hand the solver finds no opening in.
        found = _most_points(values, _counts(hand), len(hand) - kept, opening_points(variant), worth)
        if found is not None:
            assert found == (opening is not None), hand
            assert claim == (opening is None), hand
            searched[min(state.jokers, 2)] += 1
    # The search finished on many hands with each number of jokers the variant deals.
    assert min(searched[: variant.jokers + 1]) > HANDS // 10, searched
    # Many dealt hands hold no opening, even where no points are needed (no meld at all): claimed.
    if deal is _dealt_hand:
        assert claimed > HANDS // 40, claimed


@pytest.mark.parametrize(("name", "variant"), _variants(), ids=[name for name, _ in _variants()])
def test_opening_values_are_the_candidate_melds_that_are_melds(name: str, variant: Variant) -> None:
    # Each group's option is remembered per variant: the same options, in the same order (the bot
    # shuffles them), as reading every candidate meld afresh.
    rng = random.Random(name)
    for _ in range(HANDS // 2):
        hand = rng.choice([_dense_hand, _dealt_hand])(rng, variant)
        expected = []
        for group in candidate_melds(hand, variant):
            try:
                meld = make_meld(group, variant)
            except MeldError:
                continue
            needs = Counter(group)
            counts = sum(copies << (card * 8) for card, copies in needs.items())
            mask = sum(1 << card for card in needs)
            expected.append((group, meld.worth(variant), counts, len(group), mask))
        assert opening_values(CardState.of(hand), variant) == expected, hand


@pytest.mark.parametrize(("name", "variant"), _variants(), ids=[name for name, _ in _variants()])
def test_a_hand_within_one_proven_to_hold_no_opening_holds_none(name: str, variant: Variant) -> None:
    # A hand claimed to hold no opening, then that hand with a card changed, as the next turn brings:
    # where the bot calls the new hand hopeless from the old one, the solver must find no opening.
    rng = random.Random(name)
    kept = keep(variant)
    pack = [code for code in range(JOKER) for _ in range(variant.decks)] + [JOKER] * variant.jokers
    bot = RandomBot(random.Random(0))
    within = beyond = 0
    for _ in range(HANDS):
        hand = _dealt_hand(rng, variant)
        state = CardState.of(hand)
        if not surely_no_opening(
            opening_values(state, variant), _counts(hand), len(hand) - kept, state, variant
        ):
            continue
        bot._hopeless = (variant, _counts(hand), len(hand) - kept)
        for _ in range(3):
            changed = [*hand]
            changed.remove(rng.choice(changed))
            changed.append(rng.choice([card for card in pack if pack.count(card) > changed.count(card)]))
            values = opening_values(CardState.of(changed), variant)
            if bot._within_hopeless(values, _counts(changed), len(changed) - kept, variant):
                assert solver.best_opening(changed, variant, keep=kept) is None, (hand, changed)
                within += 1
            else:
                beyond += 1
    # Both answers come up: a drawn card that joins no candidate, and one that does.
    assert within > 20, within
    assert beyond > 20, beyond
