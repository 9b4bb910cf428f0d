"""The solver where a set may name a suit twice (``set_suits: may_repeat``), on literal hands
and against the brute-force reference.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from solver_reference import (
    ACE_MODES,
    OBJECTIVES,
    SMALL_RANKS,
    agree,
    cards,
    check_plan,
    listed,
    random_table,
    variant,
)

from kalooki.cards import JOKER, make_card
from kalooki.melds import TableMeld, make_meld
from kalooki.solver import Objective, best_opening, solve
from kalooki.variant import Variant


def repeating_variant(rng: random.Random, set_maximum: int) -> Variant:
    """A random variant whose sets may repeat a suit, up to ``set_maximum`` cards."""
    return variant(
        rng.choice([3, 4]),
        rng.choice(ACE_MODES),
        threshold=rng.choice([0, 15, 30]),
        set_suits="may_repeat",
        set_maximum=set_maximum,
    )


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.usefixtures("shortcuts")
def test_builds_agree_with_the_reference_where_suits_may_repeat(seed: int) -> None:
    rng = random.Random(f"may repeat {seed}")
    checked = 0
    while checked < 30:
        set_maximum = rng.choice([4, 5, 6])
        rules = repeating_variant(rng, set_maximum)
        table: list[TableMeld] = []
        for _ in range(rng.randint(1, 2)):
            rank = rng.choice(SMALL_RANKS)
            written = [make_card(rank, rng.randrange(4)) for _ in range(rng.randint(2, 3))]
            written += [JOKER] * rng.randint(3 - len(written), set_maximum - len(written) - 1)
            table.append(make_meld(written, rules))
        table += random_table(rng, rules) if rng.random() < 0.3 else []
        ranks = {meld.rank for meld in table if meld.kind == "set"}
        deck = [make_card(rank, suit) for suit in range(4) for rank in (*ranks, *rng.sample(SMALL_RANKS, 2))]
        jokers = rng.randint(0, 2)
        counts = Counter(rng.choice(deck) for _ in range(rng.randint(2, 6) - jokers))
        hand = [c for c, n in counts.items() for _ in range(min(n, 2))] + [JOKER] * jokers
        agree(hand, rules, rng.choice(OBJECTIVES), table, rng.random() < 0.7, rng.randint(0, 1))
        checked += 1


@pytest.mark.parametrize(
    ("hand_text", "set_maximum", "objective", "melds"),
    [
        ("9C 9C 9D 4H", 4, "points", ["9C 9C 9D"]),
        ("9C 9C 9C", 4, "points", ["9C 9C 9C"]),
        ("9C 9C JK", 4, "points", ["9C 9C JK"]),
        ("9C 9C 9D 9D", 3, "points", ["9C 9C 9D"]),
        ("9C 9C 9D 9D", 4, "points", ["9C 9C 9D 9D"]),
        ("9C 9C 9D 9D 9H 9H", 6, "cards", ["9C 9C 9D 9D 9H 9H"]),
        ("9C 9C 9D 9D 9H 9H", 3, "cards", ["9C 9C 9D", "9D 9H 9H"]),
        # Ties break by the first card's candidates best first: four naturals before a joker.
        ("9C 9C 9D 9D 9H 9H JK", 4, "cards", ["9C 9C 9D 9D", "9H 9H JK"]),
        # The copies of 7H make a set with 7S (21 points), or one goes to the run 5H 6H 7H (18).
        ("5H 6H 7H 7H 7S", 4, "points", ["7H 7H 7S"]),
        ("5H 6H 7H 7H 7S 7S", 4, "cards", ["5H 6H 7H", "7H 7S 7S"]),
    ],
)
@pytest.mark.usefixtures("shortcuts")
def test_a_new_set_may_name_a_card_twice_where_suits_may_repeat(
    hand_text: str, set_maximum: int, objective: Objective, melds: list[str]
) -> None:
    rules = variant(threshold=0, set_suits="may_repeat", set_maximum=set_maximum)
    agree(cards(hand_text), rules, objective)
    plan = solve(cards(hand_text), rules, objective=objective)
    assert sorted(plan.melds) == sorted(tuple(cards(text)) for text in melds)


def test_a_set_names_a_card_twice_only_where_suits_may_repeat() -> None:
    hand = cards("9C 9C 9D 4H")
    assert solve(hand, variant(threshold=0), objective="points").empty
    assert listed(hand, variant(threshold=0)) == []
    nine_c, nine_d = cards("9C 9D")
    assert listed(hand, variant(threshold=0, set_suits="may_repeat")) == [
        ((nine_c, nine_c, nine_d), 0, 27, (nine_c, nine_c, nine_d))
    ]


def test_each_set_of_copies_is_listed_once() -> None:
    # The sets of a hand holding a copy are listed by each suit's copies, and only so.
    hand = cards("9C 9C 9D 9H JK")
    found = listed(hand, variant(threshold=0, set_suits="may_repeat", set_maximum=5))
    assert len(found) == len(set(found))
    nine_sets = [naturals for naturals, _, _, _ in found]
    # Of 9C 9C 9D 9H: four pairs (with the joker), three threes, one four.
    assert len(set(nine_sets)) == 4 + 3 + 1
    assert tuple(cards("9C 9C 9D 9H")) in nine_sets


def test_a_set_naming_a_card_twice_is_laid_once_per_its_copies() -> None:
    # 9C 9C 9D and 9C 9D 9D share no card by code bits, each card held twice: laid as often as
    # each card's copies allow they would lay six nines from four. The other ten cards hold no meld
    # and make the hand long enough for that.
    hand = cards("9C 9C 9D 9D 2H 4S 6C 8D TH QS KC 3D 5H 7S")
    rules = variant(threshold=0, set_suits="may_repeat", set_maximum=3)
    plan = solve(hand, rules, objective="points")
    check_plan(plan, hand, rules)
    assert plan.melds == (tuple(cards("9C 9C 9D")),)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.usefixtures("shortcuts")
def test_new_sets_agree_with_the_reference_where_suits_may_repeat(seed: int) -> None:
    # Two packs of a few ranks, so most hands hold a card twice; set_maximum from the least to more
    # than four suits hold.
    rng = random.Random(f"repeated sets {seed}")
    for _ in range(25):
        set_maximum = rng.choice([3, 4, 5, 6])
        rules = repeating_variant(rng, set_maximum)
        ranks = rng.sample(SMALL_RANKS, rng.randint(1, 3))
        deck = [make_card(rank, suit) for suit in range(4) for rank in ranks] * 2
        jokers = rng.randint(0, 2)
        hand = rng.sample(deck, rng.randint(3, 7) - jokers) + [JOKER] * jokers
        table = random_table(rng, rules) if rng.random() < 0.3 else []
        agree(hand, rules, rng.choice(OBJECTIVES), table, rng.random() < 0.7, rng.randint(0, 1))


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_between_equal_lays_the_search_keeps_the_candidate_worth_most_at_the_first_card(
    objective: Objective,
) -> None:
    # 6C 6D 6H 6S with 3H 4H 5H, or 6C 6D 6S with 3H 4H 5H 6H: the same cards, points and jokers.
    # The search decides 6C first and tries its candidates best first, so the set of four comes
    # before the three sixes that only tie with it.
    plan = solve(cards("3H 4H 5H 6H 6C 6D 6S"), Variant(opening_threshold=0), objective=objective)
    assert plan.melds == (tuple(cards("6C 6D 6H 6S")), tuple(cards("3H 4H 5H")))


def test_between_equal_lays_a_joker_stands_where_its_candidate_scores_most() -> None:
    # TC TD TS with 9S JK JS, or TC TD JK with 9S TS JS: 59 points and one joker either way. The
    # candidates of TC are tried by their score, not by what a joker could at most add: the set of
    # three naturals comes first.
    plan = solve(cards("JK 9S 3D TD TC 5S JS 9S TS"), Variant(opening_threshold=0), objective="points")
    assert plan.melds == (tuple(cards("TC TD TS")), tuple(cards("9S JK JS")))


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_an_opening_of_a_set_and_a_joker_meld_is_in_reach_with_copies(objective: Objective) -> None:
    # With a copy (2C 2C) and suits that may repeat, the opening's reach is read from the
    # candidates: KC KD KH (30, no joker) counts whole, and the joker adds at most what QD QS JK
    # adds (30), so the reach is 60 and the search finds KC KD KH with QD QS JK (60 of 51). Read
    # as if no plain meld held a card, the reach is one joker candidate's (KC KD KH JK, 40) and the
    # hand looks unable to open.
    rules = variant(threshold=51, set_suits="may_repeat")
    hand = cards("KC KD KH QS QD JK 2C 2C")
    agree(hand, rules, objective, opened=False)
    opening = best_opening(hand, rules, objective=objective)
    assert opening is not None
    assert opening.melds == (tuple(cards("KC KD KH")), tuple(cards("QD QS JK")))
    assert solve(hand, rules, objective=objective, opened=False).melds == opening.melds
