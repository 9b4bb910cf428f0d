"""The meld solver against a slow brute-force reference built only on ``kalooki.melds``
(``tests/solver_reference.py``).

The default run is sized for everyone's test suite (about half a minute). Set
``KALOOKI_SOLVER_THOROUGH=1`` for the long run: every hand of up to 7 cards of the reduced deck
under every ace rule and run minimum, and tens of thousands of random situations.
"""

from __future__ import annotations

import itertools
import os
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from solver_reference import (
    ACE_MODES,
    OBJECTIVES,
    agree,
    check_plan,
    plan_value,
    ref_best,
    variant,
)

from kalooki import solver
from kalooki.cards import JOKER, Card, card_points, make_card, pack_list, parse_cards
from kalooki.melds import MeldError, TableMeld, build, make_meld
from kalooki.solver import Objective, Unsolvable, best_opening, solve
from kalooki.variant import AceInRuns, SetSuits, Variant

THOROUGH = os.environ.get("KALOOKI_SOLVER_THOROUGH") == "1"


# ---------------------------------------------------------------- scenarios from the rule texts


CLASSIC = Variant()
KALUKI_51 = variant(run_minimum=4, threshold=51)


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def test_opening_of_71_points() -> None:
    hand = cards("2H 3H 4H 5H 9S 9D 9C KH KS KD 7C")
    plan = best_opening(hand, KALUKI_51, objective="points")
    assert plan is not None
    assert plan.points == 14 + 27 + 30
    assert sorted(map(sorted, plan.melds)) == sorted(
        map(sorted, [cards("2H 3H 4H 5H"), cards("9S 9D 9C"), cards("KH KS KD")])
    )
    assert plan.remaining == (make_card(7, 0),)
    assert plan.value_left == 7


def test_below_the_threshold_there_is_no_opening() -> None:
    hand = cards("2H 3H 4H 5H 9S 9D 9C 7C")  # 14 + 27 = 41 < 51
    assert best_opening(hand, KALUKI_51) is None
    plan = solve(hand, KALUKI_51, opened=False)
    assert plan.empty
    assert plan.value_left == sum(card_points(c, 11, 25) for c in hand)
    opened = solve(hand, KALUKI_51, opened=True)
    assert opened.cards_laid == 7


def test_a_joker_opening_exactly_at_the_threshold_is_found() -> None:
    # 6C 6D 6H (18) and AC AD JK (33) make 51 exactly: the bound that rules out hands which cannot
    # open (every joker at the dearest card) must let this one through to the search.
    hand = cards("6C 6D 6H AC AD JK")
    plan = best_opening(hand, CLASSIC)
    assert plan is not None
    assert plan.points == 51
    assert plan.remaining == ()
    assert solve(hand, CLASSIC, opened=False).cards_laid == 6


def test_the_bound_counts_each_natural_of_the_joker_free_melds_at_its_own_value() -> None:
    # Without a joker meld the hand holds 39 (KC KD KH, 2S 3S 4S); with 6C 6D JK it opens at 57.
    # Counting the naturals at the wrong values (every one at a four, say) would put it at 47.
    hand = cards("KC KD KH 2S 3S 4S 6C 6D JK")
    plan = best_opening(hand, CLASSIC)
    assert plan is not None
    assert plan.points == 57


def test_a_joker_hand_one_point_short_does_not_open() -> None:
    # The fives (20) and KC KD JK (30) make 50. Counting the joker at an ace, 51 looks possible,
    # so the search has to show it is not.
    hand = cards("5C 5D 5H 5S KC KD JK")
    assert best_opening(hand, CLASSIC) is None
    assert solve(hand, CLASSIC, opened=False).empty
    assert solve(hand, CLASSIC, opened=True).cards_laid == 7


def test_builds_do_not_count_toward_the_threshold() -> None:
    table = [make_meld(cards("TS JS QS"), CLASSIC)]
    hand = cards("9S KS AS 2H 3H 4H 5H 9D 9C 9H")
    # 2H-5H (14) + 9D 9C 9H (27) = 41: short of 51, so the builds worth 9 + 10 + 11 may not open.
    assert best_opening(hand, CLASSIC, table=table) is None
    assert solve(hand, CLASSIC, table=table, opened=False).empty
    plan = solve(hand, CLASSIC, table=table, opened=True, objective="points")
    assert plan.points == 41 + 9 + 10 + 11
    check_plan(plan, hand, CLASSIC, table)


def test_jokers_go_where_they_are_worth_most() -> None:
    # AH JK JK (33) + QH KH JK (31) beats QH KH AH with the jokers below it (9-A: 60).
    hand = cards("QH KH AH JK JK JK")
    plan = solve(hand, CLASSIC, objective="points")
    assert plan.points == 64 == ref_best(hand, CLASSIC, "points")
    check_plan(plan, hand, CLASSIC)


def test_ace_positions_per_variant() -> None:
    hand = cards("KH AH 2H")
    assert solve(hand, variant(ace_in_runs="wrap")).cards_laid == 3
    for mode in ("high_or_low", "high", "low"):
        assert solve(hand, variant(ace_in_runs=mode)).cards_laid == 0
    assert solve(cards("QH KH AH"), variant(ace_in_runs="low")).cards_laid == 0
    assert solve(cards("QH KH AH"), variant(ace_in_runs="high")).points == 31
    assert solve(cards("AH 2H 3H"), variant(ace_in_runs="high")).cards_laid == 0
    assert solve(cards("AH 2H 3H"), variant(ace_in_runs="low")).points == 16


def test_keep_leaves_the_cheapest_card() -> None:
    hand = cards("5H 6H 7H 8H")
    plan = solve(hand, CLASSIC, keep=1)
    assert plan.remaining == (make_card(5, 2),)
    plan = solve(cards("5H 6H 7H"), CLASSIC, keep=1)
    assert plan.empty


def test_must_include_that_cannot_be_laid() -> None:
    hand = cards("5H 6H 7H 9C")
    with pytest.raises(Unsolvable):
        solve(hand, CLASSIC, must_include=cards("9C"))
    assert best_opening(hand, variant(threshold=0), must_include=cards("9C")) is None
    plan = solve(hand, CLASSIC, must_include=cards("6H"))
    assert plan.cards_laid == 3


def test_builds_at_both_ends_of_a_run() -> None:
    table = [make_meld(cards("5H 6H 7H"), CLASSIC), make_meld(cards("9S 9D JK"), CLASSIC)]
    hand = cards("3H 4H 8H JK 9C 2C")
    plan = solve(hand, CLASSIC, table=table, objective="cards")
    check_plan(plan, hand, CLASSIC, table)
    assert plan.remaining == (make_card(2, 0),)


def test_jokers_on_the_table_or_in_a_set_tie() -> None:
    # A joker built as the ace with AH JK JK as a set, or AH JK JK JK as a set: 44 either way,
    # more than the ace on the run with the jokers below it (8-9-T: 11 + 27).
    table = [make_meld(cards("JH QH KH"), CLASSIC)]
    hand = cards("AH JK JK JK")
    plan = solve(hand, CLASSIC, table=table, objective="points")
    check_plan(plan, hand, CLASSIC, table)
    assert plan.points == 44 == ref_best(hand, CLASSIC, "points", table)


def test_a_joker_may_be_built_as_a_card_the_hand_holds() -> None:
    # Found by the reference: the ace goes below one run and a joker, as the same ace, below the
    # other (11 + 11), with 4C 4D JK as the opening (12): 34, against AS JK JK alone (33).
    rules = variant(threshold=0)
    table = [make_meld(cards("JK 3S 4S"), rules)] * 2
    hand = cards("4C 4D AS JK JK")
    plan = solve(hand, rules, table=table, objective="points", opened=False)
    check_plan(plan, hand, rules, table, opened=False)
    assert plan.points == 34 == ref_best(hand, rules, "points", table, opened=False)


def test_joker_builds_lower_the_value_left() -> None:
    table = [make_meld(cards("QH KH AH"), CLASSIC)]
    plan = solve(cards("JK 4C"), CLASSIC, table=table)
    assert plan.builds == ((0, (JOKER,), "low"),)
    assert plan.value_left == 4


def test_wrap_builds_go_round_the_corner() -> None:
    rules = variant(ace_in_runs="wrap")
    table = [make_meld(cards("JH QH KH"), rules)]
    hand = cards("AH 2H 3H TH")
    plan = solve(hand, rules, table=table)
    check_plan(plan, hand, rules, table)
    assert plan.cards_laid == 4


def test_many_copies_of_a_card() -> None:
    """Four packs (four copies of a card) and more jokers than fit the usual fields."""
    hand = cards("7H 7H 7H 7H 8H 8H 8H 8H 9H 9H 9H 9H")
    plan = solve(hand, CLASSIC)
    check_plan(plan, hand, CLASSIC)
    assert plan.cards_laid == 12
    hand = cards("7H 7S JK JK JK JK JK JK JK JK")
    for objective in OBJECTIVES:
        plan = solve(hand, CLASSIC, objective=objective)
        check_plan(plan, hand, CLASSIC)
        # Each seven with four jokers is a run of five: everything goes down.
        assert plan.cards_laid == 10
    hand = cards("7H 7S JK JK JK JK JK")
    for objective in OBJECTIVES:
        plan = solve(hand, CLASSIC, objective=objective, keep=1)
        check_plan(plan, hand, CLASSIC, keep=1)
        assert plan_value(plan, objective) == ref_best(hand, CLASSIC, objective, keep=1)


def test_solution_does_not_depend_on_hand_order() -> None:
    rng = random.Random(5)
    pack = pack_list(2, 2)
    for _ in range(50):
        hand = rng.sample(pack, 14)
        shuffled = list(hand)
        rng.shuffle(shuffled)
        assert solve(hand, CLASSIC) == solve(shuffled, CLASSIC)
        assert best_opening(hand, CLASSIC) == best_opening(shuffled, CLASSIC)


def test_bad_arguments() -> None:
    with pytest.raises(solver.SolverError):
        solve([53], CLASSIC)
    with pytest.raises(solver.SolverError):
        solve(cards("5H"), CLASSIC, objective="nonsense")  # type: ignore[arg-type]
    with pytest.raises(solver.SolverError):
        solve(cards("5H"), CLASSIC, must_include=cards("6H"))
    with pytest.raises(Unsolvable):
        solve(cards("5H"), CLASSIC, keep=2)


def test_every_candidate_reads_as_the_kind_it_was_made_as() -> None:
    """With every card and jokers available, each listed meld reads as made and is worth as much."""
    rng = random.Random(7)
    for mode in ACE_MODES:
        for run_minimum in (3, 4, 5):
            rules = variant(run_minimum, mode)
            tables = solver._rules(rules)
            for jokers in (2, 4):
                sets: list[solver._Cand] = []
                runs: list[solver._Cand] = []
                solver._set_candidates([(1 << 13) - 1] * 4, jokers, tables, sets)
                solver._run_candidates([(1 << 13) - 1] * 4, jokers, tables, runs)
                assert sets
                assert runs
                # Four jokers over full suits list tens of thousands of runs: a sample does by default.
                if jokers == 4 and not THOROUGH:
                    runs = rng.sample(runs, 500)
                for kind, found in (("set", sets), ("run", runs)):
                    for cand in found:
                        meld = make_meld(cand.written, rules)
                        assert meld.kind == kind, cand
                        assert meld.worth(rules) == cand.points, cand
                        assert sorted(c for c in cand.written if c != JOKER) == list(cand.naturals)
                        assert cand.written.count(JOKER) == cand.jokers


@pytest.mark.parametrize(("set_suits", "set_maximum", "copies"), [("distinct", 4, 1), ("may_repeat", 6, 2)])
def test_every_build_candidate_is_legal(set_suits: SetSuits, set_maximum: int, copies: int) -> None:
    for mode in ACE_MODES:
        rules = variant(3, mode, set_suits=set_suits, set_maximum=set_maximum)
        tables = solver._rules(rules)
        table = [
            make_meld(cards(text), rules)
            for text in ("AH 2H 3H", "JS QS KS", "4D 5D JK 7D", "9C 9D JK", "TS TH TD", "KC KD KH KS")
            if mode != "high" or "AH" not in text
        ]
        counts = [copies] * 52 + [3]
        for index, meld in enumerate(table):
            found: list[solver._Cand] = []
            slots: list[solver._Cand | None] = [None] * 4
            maker = solver._set_builds if meld.kind == "set" else solver._run_builds
            maker(index, meld, counts, 3, tables, found, slots)
            for cand in found + [c for c in slots if c is not None]:
                grown = meld
                if cand.run_build:
                    if cand.written:
                        grown = build(grown, cand.written, rules, "low")
                    if cand.high:
                        grown = build(grown, cand.high, rules, "high")
                else:
                    grown = build(grown, cand.written, rules)
                assert grown.points(rules.ace_value) - meld.worth(rules) == cand.points, cand


# ---------------------------------------------------------------- agreement with the reference

SMALL_RANKS = (1, 2, 3, 4, 5, 11, 12, 13)


def small_deck(suits: int, ranks: Sequence[int] = SMALL_RANKS, copies: int = 1) -> list[Card]:
    return [make_card(rank, suit) for suit in range(suits) for rank in ranks for _ in range(copies)]


@pytest.mark.parametrize("mode", ACE_MODES)
@pytest.mark.parametrize(
    ("run_minimum", "joker_value"),
    [(3, None), (4, None), (3, 25), (4, 5)],
    ids=["3", "4", "3-joker-25", "4-joker-5"],
)
def test_exhaustive_small_hands(mode: AceInRuns, run_minimum: int, joker_value: int | None) -> None:
    """Every hand of A 2 3 4 Q K in three suits with up to two jokers: up to 4 cards (7 when thorough);
    a joker counted as the card it stands for, or at its own points (``opening_joker_value: penalty``),
    more than any card or less than most."""
    if joker_value is None:
        rules = variant(run_minimum, mode, threshold=20)
    else:
        rules = variant(
            run_minimum, mode, threshold=20, joker_penalty=joker_value, opening_joker_value="penalty"
        )
    deck = small_deck(3, (1, 2, 3, 4, 12, 13))
    largest = 7 if THOROUGH else 4
    checked = 0
    for size in range(3, largest + 1):
        for jokers in range(3):
            for naturals in itertools.combinations(deck, size - jokers):
                hand = [*naturals] + [JOKER] * jokers
                objective = OBJECTIVES[checked % 3]
                agree(hand, rules, objective, opened=checked % 2 == 0, keep=int(checked % 5 == 0))
                checked += 1
    assert checked > (100_000 if THOROUGH else 4000)


def table_melds(rules: Variant) -> st.SearchStrategy[list[TableMeld]]:
    """Small tables of legal melds (built through make_meld) from the same reduced deck."""

    def as_meld(cards: list[Card]) -> TableMeld | None:
        try:
            return make_meld(cards, rules)
        except MeldError:
            return None

    sets = st.builds(
        lambda rank, suits, joker: [make_card(rank, s) for s in suits] + [JOKER] * joker,
        st.sampled_from(SMALL_RANKS),
        st.lists(st.integers(0, 3), min_size=2, max_size=3, unique=True),
        st.integers(0, 1),
    )
    runs = st.builds(
        lambda low, length, suit, joker_at: [
            JOKER if i == joker_at else make_card((low + i - 1) % 13 + 1, suit) for i in range(length)
        ],
        st.integers(1, 13),
        st.integers(rules.run_minimum, rules.run_minimum + 2),
        st.integers(0, 3),
        st.integers(-1, 4),
    )
    melds = st.one_of(sets, runs).map(as_meld).filter(lambda m: m is not None)
    return st.lists(melds, max_size=2).map(lambda ms: [m for m in ms if m is not None])


@st.composite
def situations(
    draw: st.DrawFn,
) -> tuple[list[Card], Variant, Objective, list[TableMeld], bool, int, list[Card]]:
    mode = draw(st.sampled_from(ACE_MODES))
    run_minimum = draw(st.sampled_from([3, 4, 5]))
    ace_value = draw(st.sampled_from([1, 11, 15]))
    # An ace below the two may count apart (ace_low_value): less, as much or more than in hand.
    ace_low_value = (
        draw(st.sampled_from([None, 0, ace_value, ace_value + 9])) if mode in ("high_or_low", "low") else None
    )
    rules = variant(
        run_minimum,
        mode,
        threshold=draw(st.sampled_from([0, 15, 30, 51])),
        ace_value=ace_value,
        joker_penalty=draw(st.sampled_from([15, 25, 50])),
        ace_low_value=ace_low_value,
        # A joker counted as the card it stands for, or at joker_penalty whatever it stands for.
        opening_joker_value=draw(st.sampled_from(["represented", "penalty"])),
    )
    deck = small_deck(4, SMALL_RANKS, copies=2)
    size = draw(st.integers(1, 8))
    jokers = draw(st.integers(0, min(3, size)))
    naturals = draw(st.lists(st.sampled_from(deck), min_size=size - jokers, max_size=size - jokers))
    counts = Counter(naturals)
    hand = [c for c, n in counts.items() for _ in range(min(n, 2))] + [JOKER] * jokers
    table = draw(table_melds(rules)) if draw(st.booleans()) else []
    opened = draw(st.booleans())
    keep = draw(st.integers(0, 2))
    must = draw(st.lists(st.sampled_from(hand), max_size=2)) if hand else []
    must = [c for c, n in Counter(must).items() for _ in range(min(n, hand.count(c)))]
    return hand, rules, draw(st.sampled_from(OBJECTIVES)), table, opened, keep, must


@settings(
    max_examples=30_000 if THOROUGH else 3000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(situations())
def test_agrees_with_the_reference(
    situation: tuple[list[Card], Variant, Objective, list[TableMeld], bool, int, list[Card]],
) -> None:
    hand, rules, objective, table, opened, keep, must = situation
    agree(hand, rules, objective, table, opened, keep, must)


@settings(
    max_examples=10_000 if THOROUGH else 1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    st.sampled_from(ACE_MODES),
    st.sampled_from([3, 4, 5]),
    st.lists(st.sampled_from(small_deck(2, (1, 2, 3, 4, 5, 6, 10, 11, 12, 13))), min_size=3, max_size=7),
    st.integers(0, 4),
    st.sampled_from(OBJECTIVES),
    st.sampled_from([None, 5, 25]),
)
def test_agrees_on_one_and_two_suit_hands_with_many_jokers(
    mode: AceInRuns,
    run_minimum: int,
    naturals: list[Card],
    jokers: int,
    objective: Objective,
    joker_value: int | None,
) -> None:
    """Runs and jokers dominate: long runs, jokers inside and outside them, at the aces; a joker counted
    as the card it stands for (None) or at its own points."""
    hand = [c for c, n in Counter(naturals).items() for _ in range(min(n, 2))][: 8 - jokers] + [
        JOKER
    ] * jokers
    if joker_value is None:
        rules = variant(run_minimum, mode, threshold=30)
    else:
        rules = variant(
            run_minimum, mode, threshold=30, joker_penalty=joker_value, opening_joker_value="penalty"
        )
    agree(hand, rules, objective, opened=jokers % 2 == 0)


# ---------------------------------------------------------------- big hands


@pytest.mark.parametrize("mode", ACE_MODES)
def test_twenty_cards_with_four_jokers_are_solved_legally(mode: AceInRuns) -> None:
    rng = random.Random(20)
    pack = pack_list(2, 0)
    for run_minimum in (3, 4, 5):
        rules = variant(run_minimum, mode)
        for _ in range(4):
            hand = rng.sample(pack, 16) + [JOKER] * 4
            table = [make_meld(cards("4D 5D 6D 7D 8D"), rules), make_meld(cards("8S 8C JK"), rules)]
            for objective in OBJECTIVES:
                plan = solve(hand, rules, objective=objective, table=table, keep=1)
                check_plan(plan, hand, rules, table, keep=1)
                opening = best_opening(hand, rules, table=table, keep=1, objective=objective)
                assert opening is not None
                check_plan(opening, hand, rules, table, False, keep=1)
