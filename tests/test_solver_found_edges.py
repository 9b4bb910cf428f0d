"""Solver edges the mutation run found unpinned: each test fails for a mutant that once survived.

A mutant that survives the suite is a change of the solver no test notices; each test here pins
one such change, on a literal hand where it can, with the brute-force reference where it cannot.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from solver_reference import (
    ACE_MODES,
    OBJECTIVES,
    agree,
    cards,
    check_plan,
    plan_key,
    random_table,
    ref_best_key,
    variant,
)

from kalooki import solver
from kalooki.cards import JOKER, make_card
from kalooki.melds import make_meld
from kalooki.solver import Objective, solve
from kalooki.variant import AceInRuns, SetSuits, Variant


def test_an_opening_worth_nothing_loses_to_laying_nothing() -> None:
    # Aces and jokers worth nothing: A-A-JK opens with no points and no value laid, so for points
    # and value_left laying nothing (no joker laid) is the better plan; for cards the opening is.
    rules = variant(3, "high_or_low", threshold=0, ace_value=0, joker_penalty=0)
    hand = cards("AH AS JK")
    for objective in OBJECTIVES:
        agree(hand, rules, objective, opened=False)
    assert solve(hand, rules, opened=False).empty
    assert solve(hand, rules, objective="cards", opened=False).cards_laid == 3
    opening = solver.best_opening(hand, rules)
    assert opening is not None
    assert opening.melds == (tuple(cards("AH AS JK")),)


def test_best_opening_may_lay_the_whole_hand() -> None:
    # keep defaults to 0: the three sevens open and nothing stays.
    rules = variant(3, "high_or_low", threshold=21)
    hand = cards("7H 7S 7D")
    opening = solver.best_opening(hand, rules)
    assert opening is not None
    assert opening.remaining == ()
    assert plan_key(opening, "value_left") == ref_best_key(
        hand, rules, "value_left", opened=False, opening_only=True
    )


def test_an_empty_hand_lays_nothing() -> None:
    assert solve([], Variant()).empty
    assert solver.best_opening([], Variant()) is None
    with pytest.raises(solver.Unsolvable, match="cannot keep 1"):
        solve([], Variant(), keep=1)


@pytest.mark.parametrize(("hand", "bad"), [([0, 53], 53), ([JOKER, -1], -1), ([-1, 0], -1)])
def test_the_card_refused_is_the_one_out_of_range(hand: list[int], bad: int) -> None:
    # Codes 0 (AC) and 52 (the joker) are the ends of the range: only the other code is named.
    with pytest.raises(solver.SolverError, match=f"^{bad} is not a card code"):
        solve(hand, Variant())


@pytest.mark.parametrize(
    ("ace_value", "table", "points"), [(11, "5H 6H 7H", 8), (11, "JH QH KH", 11), (1, "TH JH QH", 10)]
)
@pytest.mark.parametrize("objective", OBJECTIVES)
def test_a_joker_worth_nothing_in_hand_is_not_built(
    objective: Objective, ace_value: int, table: str, points: int
) -> None:
    # Jokers cost nothing in hand: built onto the run the joker lays a card and its points (as
    # the dearest card it can stand for), but leaves no less value, so for value_left it stays
    # (fewer jokers laid), however many points it would bring.
    rules = variant(3, "high_or_low", threshold=0, ace_value=ace_value, joker_penalty=0)
    melds = [make_meld(cards(table), rules)]
    agree(cards("JK"), rules, objective, melds)
    plan = solve(cards("JK"), rules, objective=objective, table=melds)
    assert plan.points == (0 if objective == "value_left" else points)


def test_a_card_more_outweighs_every_joker_and_point() -> None:
    # Keeping four, the only five-card lay is the joker with 2-3-4-5 of hearts (25 points), one
    # card more than the four kings (40 points, no joker), so it wins on cards.
    rules = Variant(opening_threshold=0)
    hand = cards("2H 3H 4H 5H JK KS KD KC KH")
    agree(hand, rules, "cards", keep=4)
    assert solve(hand, rules, objective="cards", keep=4).melds == (tuple(cards("JK 2H 3H 4H 5H")),)


@pytest.mark.parametrize(
    ("hand", "table", "set_maximum", "set_suits", "points"),
    [
        ("9S", "9C 9D 9H", 4, "distinct", 9),
        ("9S JK", "9C 9D 9H", 5, "may_repeat", 18),
        # A new run 9-10-J laid as "9S JK JK run" (29) beats the build (27).
        ("9S JK JK", "9C 9D 9H", 6, "may_repeat", 29),
        ("9S 9D", "9C JK 9H", 5, "may_repeat", 18),
        # Where suits may repeat, a build may add a suit the set holds, and two copies of a card.
        ("9C", "9C 9D 9H", 4, "may_repeat", 9),
        ("9C 9C", "9D 9H 9S", 5, "may_repeat", 18),
        ("9C 9C 9H", "9C 9D 9S", 6, "may_repeat", 27),
        ("AS AS", "AS AH AD", 5, "may_repeat", 22),
    ],
)
def test_builds_onto_a_set_by_suit(
    hand: str, table: str, set_maximum: int, set_suits: SetSuits, points: int
) -> None:
    # The missing suits join the set, and jokers with them up to set_maximum (a set of more than
    # four repeats a suit, so those variants let suits repeat).
    rules = Variant(opening_threshold=0, set_maximum=set_maximum, set_suits=set_suits)
    melds = [make_meld(cards(table), rules)]
    for objective in OBJECTIVES:
        for keep in (0, 1):
            agree(cards(hand), rules, objective, melds, keep=keep)
    assert solve(cards(hand), rules, objective="points", table=melds).points == points


def test_a_run_with_a_joker_keeps_the_first_of_equal_frames() -> None:
    # With aces worth 10 the joker is worth as much as the ace above the king as the ten below
    # the jack: the first frame listed (jokers above the naturals) is kept.
    rules = variant(3, "high_or_low", ace_value=10)
    hand = cards("JH QH KH JK")
    plan = solve(hand, rules, objective="points")
    assert plan.points == 40 == ref_best_key(hand, rules, "points")[0]  # type: ignore[index]
    assert plan.melds == (tuple(cards("JH QH KH JK")),)


@pytest.mark.parametrize("mode", ACE_MODES)
def test_a_run_of_twelve_takes_one_joker_at_most(mode: AceInRuns) -> None:
    # 2 to K on the table: one joker makes 13 cards, as the ace at whichever end the variant has;
    # a second joker would make 14.
    rules = variant(3, mode, threshold=0)
    table = [make_meld(cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"), rules)]
    for objective in OBJECTIVES:
        agree(cards("JK JK"), rules, objective, table)
    assert solve(cards("JK JK"), rules, objective="cards", table=table).cards_laid == 1


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_an_opening_short_of_its_points_is_not_one_that_kept_a_card(objective: Objective) -> None:
    # Keeping one card and opening on 23: states of the search that hold the same cards differ in
    # the points the opening still misses and the cards kept so far; the memo key must keep both
    # counters apart, or one state answers for the other (this hand meets such a pair).
    rules = variant(3, "low", threshold=23)
    hand = cards("2C 4C 5C JC QC KC JK")
    agree(hand, rules, objective, opened=False, keep=1)
    if objective == "points":
        assert solve(hand, rules, objective=objective, opened=False, keep=1).points == 45


def test_an_opening_of_an_ace_and_two_jokers_is_found_keeping_a_card() -> None:
    # Keeping one card and opening on 30 with runs of five: AC JK JK (45) is the only opening.
    # The points the opening still misses sit above the cards kept in the memo key: written over
    # them, a state that kept a card reads as one that still misses points, and no opening is found.
    rules = variant(5, "high_or_low", threshold=30, ace_value=15)
    hand = cards("5D 4C AC 3C JK JK")
    agree(hand, rules, "cards", opened=False, keep=1)
    assert solve(hand, rules, objective="cards", opened=False, keep=1).melds == ((0, JOKER, JOKER),)


def test_of_two_lays_of_equal_points_with_both_jokers_the_longer_is_found() -> None:
    # Aces worth 10: AC JK JK and 6C 7C JK JK (the jokers as 8 and 9) are both worth 30, and the
    # run lays a card more. No natural is in a meld without jokers here, so the search's bound
    # once it lays jokers is the most each joker adds: one point too low there loses the run.
    rules = variant(3, "high_or_low", ace_value=10)
    hand = cards("7C 7C AC 6C JK JK")
    agree(hand, rules, "points")
    assert solve(hand, rules, objective="points").melds == ((5, 6, JOKER, JOKER),)


def test_a_joker_that_costs_nothing_in_hand_is_bounded_at_nothing() -> None:
    # Jokers and aces worth nothing, keeping one card: JD QD JK AD and JC JD JK both leave 10 in
    # hand with one joker laid for 30 points, and the run lays a card more. A joker left in hand
    # adds nothing, so the search's bound counts a joker at 0 at least: at -1, the run is cut.
    rules = variant(3, "high_or_low", ace_value=0, joker_penalty=0)
    hand = cards("QD JC AD JD JK JK")
    agree(hand, rules, "value_left", keep=1)
    assert solve(hand, rules, keep=1).melds == ((23, 24, JOKER, 13),)


def test_a_joker_built_alone_keeps_the_first_of_equal_ends() -> None:
    # With aces worth 10 a joker onto J-Q-K is worth 10 as the ace above or the ten below: the
    # first end listed (high) is kept.
    rules = variant(3, "high_or_low", ace_value=10)
    table = [make_meld(cards("JH QH KH"), rules)]
    agree(cards("JK"), rules, "points", table)
    assert solve(cards("JK"), rules, objective="points", table=table).builds == ((0, (JOKER,), "high"),)


def test_a_joker_built_alone_in_place_of_a_card_held_keeps_the_first_of_equal_ends() -> None:
    # Keeping one card, 10H stays (JK costs more in hand) and the joker goes onto J-Q-K, worth 10
    # as the ace above or in the ten's place below: the first end listed (high) is kept, though
    # the ten below is an extension of a card held with the card left out.
    rules = variant(3, "high_or_low", ace_value=10)
    table = [make_meld(cards("JH QH KH"), rules)]
    agree(cards("10H JK"), rules, "value_left", table, keep=1)
    assert solve(cards("10H JK"), rules, table=table, keep=1).builds == ((0, (JOKER,), "high"),)


def test_a_thirteen_card_run_of_jokers_keeps_the_first_of_equal_frames() -> None:
    # Runs of 13 only: AH 2H and eleven jokers are the whole suit with the ace low (A to K) or
    # high (2 to A), 95 points either way; the frame met first, the ace low, is kept.
    rules = variant(13, "high_or_low")
    hand = cards("AH 2H") + [JOKER] * 11
    plan = solve(hand, rules, objective="cards")
    check_plan(plan, hand, rules)
    assert plan.points == 11 + sum(range(2, 10)) + 4 * 10
    assert plan.melds == (tuple(cards("AH 2H") + [JOKER] * 11),)


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_a_joker_may_stand_for_a_ten_point_card_toward_an_opening(objective: Objective) -> None:
    # Aces worth 1: Q-K and a joker standing for the jack (10) make exactly 30, the threshold.
    rules = variant(3, "high_or_low", threshold=30, ace_value=1)
    agree(cards("QH KH JK"), rules, objective, opened=False)
    assert not solve(cards("QH KH JK"), rules, objective=objective, opened=False).empty


@pytest.mark.parametrize("threshold", [21, 22])
@pytest.mark.parametrize("objective", OBJECTIVES)
def test_a_build_neither_counts_toward_an_opening_nor_holds_it_back(
    objective: Objective, threshold: int
) -> None:
    # Three sevens (21) open on 21 with 8C built onto 5-6-7 of clubs as well; on 22 they do not
    # open, however many points the build brings.
    rules = variant(3, "high_or_low", threshold=threshold)
    table = [make_meld(cards("5C 6C 7C"), rules)]
    agree(cards("7H 7S 7D 8C"), rules, objective, table, opened=False)
    plan = solve(cards("7H 7S 7D 8C"), rules, objective=objective, table=table, opened=False)
    assert plan.cards_laid == (4 if threshold == 21 else 0)


def test_a_build_onto_the_third_table_meld_keeps_its_own_bit() -> None:
    # Keeping one card of one, 8S cannot be built onto 5-6-7 of spades: each table meld's
    # "built on" bit sits above the jokers' count and must not read as a joker to keep.
    rules = variant(3, "high_or_low", threshold=0)
    table = [make_meld(cards(text), rules) for text in ("5H 6H 7H", "5D 6D 7D", "5S 6S 7S")]
    for objective in OBJECTIVES:
        agree(cards("8S"), rules, objective, table, keep=1)
    assert solve(cards("8S"), rules, table=table, keep=1).empty


def test_a_joker_built_alone_goes_to_the_first_of_equal_melds() -> None:
    # The joker is worth 8 onto either run (as the eight above): the first meld on the table takes it.
    rules = variant(3, "high_or_low")
    table = [make_meld(cards(text), rules) for text in ("5H 6H 7H", "5S 6S 7S")]
    agree(cards("JK"), rules, "points", table)
    assert solve(cards("JK"), rules, objective="points", table=table).builds == ((0, (JOKER,), "high"),)


def test_of_equal_lays_once_the_jokers_are_spent_the_best_build_is_tried_first() -> None:
    # After KC KD JK, 2H 3H onto 4-5-6 of hearts, or 2H onto 3-4-5 and 3H onto 4-5-6: the same
    # cards and points either way. Once its jokers are spent the search still tries each card's
    # candidates best first (the build of two cards), not in the order they were listed (by meld).
    rules = variant(3, "high_or_low")
    table = [make_meld(cards(text), rules) for text in ("3H 4H 5H", "4H 5H 6H")]
    hand = cards("2H 3H KC KD JK")
    agree(hand, rules, "value_left", table)
    assert solve(hand, rules, table=table).builds == ((1, tuple(cards("2H 3H")), "low"),)


def test_builds_are_listed_by_table_meld() -> None:
    # 8H is decided before 8S (lower card code), but the builds come in the table's order.
    rules = variant(3, "high_or_low")
    table = [make_meld(cards(text), rules) for text in ("5S 6S 7S", "5H 6H 7H")]
    agree(cards("8H 8S"), rules, "points", table)
    plan = solve(cards("8H 8S"), rules, objective="points", table=table)
    assert plan.builds == ((0, tuple(cards("8S")), "high"), (1, tuple(cards("8H")), "high"))


def test_an_ace_low_worth_more_than_in_hand_opens() -> None:
    # A-2-3-4-5 of clubs with the low ace worth 20 is 34 points, enough to open on 27.
    rules = variant(3, "low", threshold=27, ace_value=1, ace_low_value=20)
    hand = cards("AC 2C 3C 4C 5C QC KC")
    agree(hand, rules, "points", opened=False)


def test_a_lay_holding_an_ace_low_with_a_joker_is_bounded_at_the_ace_low_worth() -> None:
    # Seven cards and both jokers either way: 5C 5H 5S JK with AS JK 3S (20 + 35 points, the low ace
    # worth 30) or AC JK JK 4C with 5C 5H 5S (39 + 15). The search bounds what a joker adds beyond
    # the plain melds' cards by its candidates with jokers, each natural at the most it may add to a
    # meld; with the aces at their value in hand (1), that bound falls below what AS JK 3S adds, and
    # the 55-point lay is cut once the 54-point one is found.
    rules = variant(3, "low", threshold=0, ace_value=1, ace_low_value=30)
    hand = cards("AS 3S 5S 5C AC 4C 5H JK JK")
    agree(hand, rules, "cards")
    plan = solve(hand, rules, objective="cards")
    assert plan.melds == (tuple(cards("5C 5H 5S JK")), tuple(cards("AS JK 3S")))
    assert plan.points == 55


def test_a_state_that_only_ties_its_floor_is_not_remembered_as_exact() -> None:
    # Keeping two cards, the most cards laid is 8C 9C TC JK with AH JK 3H (seven). On the way the
    # search meets states whose best only ties the floor the nodes above set, which says no more
    # than that they are worth at most that: remembered as exact, with the choice made there, they
    # answer later visits under a lower floor, and the lay read back was 9C TC JK alone.
    rules = variant(threshold=0)
    hand = cards("3D 3H AH 9C TC 8C AH JK JK")
    agree(hand, rules, "cards", keep=2)
    plan = solve(hand, rules, objective="cards", keep=2)
    assert plan.melds == (tuple(cards("8C 9C TC JK")), tuple(cards("AH JK 3H")))
    assert plan.remaining == tuple(sorted(cards("3D AH")))


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_an_opening_reach_counts_each_natural_outside_the_plain_melds(objective: Objective) -> None:
    # AC AD JK JK (44) with 2C 2D 2H 2S (8) opens on 51. AC AD are in no meld without a joker, so
    # the reach counts them in the jokers' share; asked of the bit of the card above each ace
    # instead (the two of its suit, which the plain set holds), the aces counted nowhere and the
    # reach (8 + 2 × 11) fell short of 51.
    rules = variant(threshold=51)
    hand = cards("2S AC AD 2D 2C 2H JK JK")
    agree(hand, rules, objective, opened=False)
    opening = solver.best_opening(hand, rules, objective=objective)
    assert opening is not None
    assert opening.melds == (tuple(cards("AC AD JK JK")), tuple(cards("2C 2D 2H 2S")))
    assert solve(hand, rules, objective=objective, opened=False).points == 52


def test_best_opening_reads_the_tables_of_its_own_variant(monkeypatch: pytest.MonkeyPatch) -> None:
    # 9C 9C 9D is a set only where suits may repeat. The solver keeps the tables it used last; a call
    # for another variant, or the first call of a process (none kept yet), looks its own up.
    hand = cards("9C 9C 9D 4H")
    distinct = variant(threshold=0)
    repeating = variant(threshold=0, set_suits="may_repeat")
    assert solve(hand, distinct).empty
    opening = solver.best_opening(hand, repeating)
    assert opening is not None
    assert opening.melds == (tuple(cards("9C 9C 9D")),)
    assert solver.best_opening(hand, distinct) is None
    monkeypatch.setattr(solver, "_LAST_RULES", [None])
    opening = solver.best_opening(hand, repeating)
    assert opening is not None
    assert opening.melds == (tuple(cards("9C 9C 9D")),)
    assert solve(hand, repeating).melds == (tuple(cards("9C 9C 9D")),)


def test_an_opening_is_searched_for_where_the_best_lay_falls_short() -> None:
    # Most cards: the twos and threes as sets (seven cards, 17 points), short of 27. Read off part
    # by part, the hand's one best lay does not open, but another lay does: AC 2C 3C with AD 2D 3D
    # (six cards, 32 points) is the opening with the most cards.
    rules = variant(threshold=27)
    hand = cards("2D 2H 2S 3D AD AC 3H 3C 2C")
    agree(hand, rules, "cards", opened=False)
    assert solve(hand, rules, objective="cards").cards_laid == 7
    opening = solver.best_opening(hand, rules, objective="cards")
    assert opening is not None
    assert opening.melds == (tuple(cards("AC 2C 3C")), tuple(cards("AD 2D 3D")))


ACE_RICH_RANKS = (1, 2, 3, 4, 5, 6, 12, 13)


@pytest.mark.parametrize("worth", ["below", "equal", "above"])
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.usefixtures("shortcuts")
def test_random_hands_agree_whatever_an_ace_low_is_worth(worth: str, seed: int) -> None:
    # Aces and low cards, where an ace low worth apart from its value in hand (ace_low_value below,
    # equal to or above ace_value) moves a run's points, the opening and the bounds of the search.
    rng = random.Random(f"{worth} {seed}")
    for _ in range(25):
        ace_value = rng.choice([1, 5, 11])
        low = {"below": rng.randint(0, ace_value - 1) if ace_value else 0, "equal": ace_value}.get(
            worth, ace_value + rng.choice([1, 9, 19])
        )
        rules = variant(
            rng.choice([3, 4]),
            rng.choice(["high_or_low", "low"]),
            threshold=rng.choice([0, 15, 27, 40]),
            ace_value=ace_value,
            joker_penalty=rng.choice([15, 25]),
            ace_low_value=low,
        )
        deck = [make_card(rank, suit) for suit in range(rng.randint(1, 3)) for rank in ACE_RICH_RANKS]
        # Half the hands hold a run from the ace up, the other half what the deck deals.
        suit = rng.randrange(4)
        start = [make_card(rank, suit) for rank in range(1, rng.randint(3, 5) + 1)] * rng.randint(0, 1)
        jokers = rng.randint(0, 2)
        counts = Counter(start + [rng.choice(deck) for _ in range(rng.randint(4, 7) - len(start) - jokers)])
        hand = [c for c, n in counts.items() for _ in range(min(n, 2))] + [JOKER] * jokers
        table = random_table(rng, rules) if rng.random() < 0.3 else []
        objective = rng.choice(OBJECTIVES)
        agree(hand, rules, objective, table, rng.random() < 0.4, rng.randint(0, 1))


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_an_ace_low_worth_little_bounds_no_other_card(objective: Objective) -> None:
    # An ace low worth 2, above its 0 in hand: a natural adds to a meld the ace's most only when it
    # is an ace. Bounding every natural, or every one but the aces, by the ace's 2 put J-Q-K of
    # hearts (the joker as the jack) at 6 points, under the threshold of 30 it opens on.
    rules = variant(3, "low", threshold=30, ace_value=0, ace_low_value=2)
    hand = cards("QH KH JK AS")
    opening = solver.best_opening(hand, rules, objective=objective)
    assert opening is not None
    assert opening.melds == ((JOKER, *cards("QH KH")),)
    assert opening.points == 30
    agree(hand, rules, objective, opened=False)


def test_sixteen_copies_of_one_card_are_counted_at_their_value() -> None:
    # The solver takes any multiset of cards. A hand's value is read from the sum of its cards' keys,
    # where sixteen kings of spades carry out of the cards' bits into the value's: from sixteen cards
    # on the value is summed card by card instead (160, where the carry read 161).
    hand = cards("KS") * 16
    assert solve(hand, Variant()).value_left == 160
    assert solve([*hand, *cards("QS")], Variant()).value_left == 170


def test_fifteen_copies_of_one_card_stay_below_the_value() -> None:
    # Below sixteen cards the value is read from the sum of keys: eight or fifteen kings of spades carry
    # through the bits above the cards' own (1 << 54 from eight) and must stop short of the value's.
    assert solve(cards("KS") * 8, Variant()).value_left == 80
    assert solve(cards("KS") * 15, Variant()).value_left == 150


def test_naturals_no_joker_free_meld_holds_are_left_where_the_search_left_them() -> None:
    # With its joker spent, the search leaves 3C, 3D, 4D... (in no meld without a joker) all at once; the
    # plan is read back by the same steps. Read back one state apart (left > keep), the kings were lost.
    hand = [*cards("3C QC KC 3D 4D 6D 8D QD JH KH AS 4S KS"), JOKER]
    plan = solve(hand, Variant())
    assert plan.melds == ((*cards("QC QD"), JOKER), tuple(cards("KC KH KS")))
    assert (plan.points, plan.value_left) == (60, 49)
    agree(hand, Variant(), "value_left", opened=True)


def test_a_joker_no_meld_takes_bounds_nothing_below_the_naturals_left() -> None:
    # With no table a joker that no meld takes adds nothing, and from 9H on no candidate starts (9H's
    # one meld, 9D 9H JK, starts at 9D): there the search can lay nothing more, and the free shares
    # left (9H has none) bound it. With aces and jokers worth nothing and sets of three, AC AD AH,
    # tried first, lays nine cards; AC AD AS with A-2-3-4 of hearts lays ten, of the same value and
    # points, a card more. per_joker started at -1 in place of 0 counted the joker still held at 9H
    # as -1: the bound there fell to the nine cards' score, and the ten were cut for them (AS kept).
    rules = variant(set_maximum=3, ace_value=0, joker_penalty=0)
    hand = cards("AC AD AH AS 7D 8D 9D 2H 3H 4H 9H JK")
    plan = solve(hand, rules)
    assert plan.melds == (tuple(cards("AC AD AS")), tuple(cards("7D 8D 9D")), tuple(cards("AH 2H 3H 4H")))
    assert (plan.cards_laid, plan.value_left, plan.remaining) == (10, 9, (*cards("9H"), JOKER))
    agree(hand, rules, "value_left")
