"""The solver's edges on literal hands, and a fixed sample checked against the brute-force reference.

These run in a few seconds, so a broken line of the solver fails here long before the slow
property tests of ``tests/test_solver.py`` get to it.
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
    new_problem,
    random_table,
    read_as_melding,
    variant,
)

from kalooki import rules, solver, solver_candidates
from kalooki.cards import JOKER, Card, make_card, pack_list
from kalooki.melds import TableMeld, make_meld
from kalooki.solver import Objective, solve
from kalooki.variant import AceInRuns, SetSuits, Variant


def situation(
    rng: random.Random,
) -> tuple[list[Card], Variant, Objective, list[TableMeld], bool, int, list[Card]]:
    mode = rng.choice(ACE_MODES)
    rules = variant(
        rng.choice([3, 4, 5]),
        mode,
        threshold=rng.choice([0, 15, 30, 51]),
        ace_value=rng.choice([1, 11, 15]),
        joker_penalty=rng.choice([15, 25, 50]),
        # An ace below the two may count apart (ace_low_value) where the variant has one.
        ace_low_value=rng.choice([None, 1, 20]) if mode in ("high_or_low", "low") else None,
    )
    deck = [make_card(rank, suit) for suit in range(rng.randint(1, 4)) for rank in SMALL_RANKS]
    size = rng.randint(3, 7)
    jokers = rng.randint(0, min(3, size))
    counts = Counter(rng.choice(deck) for _ in range(size - jokers))
    hand = [c for c, n in counts.items() for _ in range(min(n, 2))] + [JOKER] * jokers
    table = random_table(rng, rules) if rng.random() < 0.5 else []
    must = [
        c for c, n in Counter(rng.sample(hand, rng.randint(0, min(2, len(hand))))).items() for _ in range(n)
    ]
    return hand, rules, rng.choice(OBJECTIVES), table, rng.random() < 0.5, rng.randint(0, 2), must


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.usefixtures("shortcuts")
def test_a_fixed_sample_agrees_with_the_reference(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        hand, rules, objective, table, opened, keep, must = situation(rng)
        agree(hand, rules, objective, table, opened, keep, must)


# ---------------------------------------------------------------- literal situations, checked both ways

SET_OF_FOUR_AND_A_JOKER = "7H 7S 7D 7C 9H TH JK 3C 4C"

LITERAL: list[tuple[str, AceInRuns, int, list[str]]] = [
    # (hand, ace rule, run minimum, table)
    ("AH 2H 3H 9C", "wrap", 3, []),
    ("AH 2H 3H 9C", "high_or_low", 3, []),
    (SET_OF_FOUR_AND_A_JOKER, "high_or_low", 3, []),
    ("7H 7H 7S 7D 7C JK", "high_or_low", 3, []),
    ("7H 7S JK JK 8H 9H", "high_or_low", 3, []),
    ("QH KH AH 2H 3H", "wrap", 3, []),
    ("QH KH AH 2H 3H", "high_or_low", 3, []),
    ("KH AH 2H JK", "high", 3, []),
    ("KH AH 2H JK", "low", 3, []),
    ("JK AH 2H 3H", "high_or_low", 3, []),
    ("JK AH 2H 3H", "low", 4, []),
    ("QH KH JK", "high_or_low", 3, []),
    ("QH KH JK", "low", 3, []),
    ("AH 3H 5H JK JK", "high_or_low", 3, []),
    ("AH 3H 5H JK JK", "wrap", 5, []),
    ("AH", "high_or_low", 3, ["JH QH KH"]),
    ("AH", "low", 3, ["JH QH KH"]),
    ("KH", "wrap", 3, ["AH 2H 3H"]),
    ("KH", "high_or_low", 3, ["AH 2H 3H"]),
    ("JK JK", "high_or_low", 3, ["AH 2H 3H"]),
    ("JK JK", "low", 3, ["AH 2H 3H"]),
    ("JK JK", "high", 3, ["QH KH AH"]),
    ("JK JK", "wrap", 3, ["QH KH AH"]),
    ("9H 9C", "high_or_low", 3, ["9D 9H 9S"]),
    ("9H 9C JK", "high_or_low", 3, ["9D 9H JK"]),
    ("9C JK", "high_or_low", 3, ["9D 9H 9S 9C"]),
    ("8C TC JK", "high_or_low", 3, ["9D 9H 9S"]),
    ("2H 3H 9H TH JK", "high_or_low", 3, ["4H 5H 6H 7H 8H"]),
    ("2H JK TH JK", "high_or_low", 4, ["4H 5H 6H 7H 8H"]),
    ("AC JK QC", "high_or_low", 3, ["2C 3C 4C 5C 6C 7C 8C 9C TC JC"]),
    ("AC JK KC", "wrap", 3, ["2C 3C 4C 5C 6C 7C 8C 9C TC JC"]),
    ("3S 4S JK", "high_or_low", 3, ["5S 6S 7S", "5S 6S 7S"]),
    ("4C 4D AS JK JK", "high_or_low", 3, ["JK 3S 4S", "JK 3S 4S"]),
]


@pytest.mark.parametrize(("hand", "mode", "run_minimum", "table"), LITERAL)
@pytest.mark.usefixtures("shortcuts")
def test_literal_situations_agree_with_the_reference(
    hand: str, mode: AceInRuns, run_minimum: int, table: list[str]
) -> None:
    for threshold in (0, 30):
        rules = variant(run_minimum, mode, threshold=threshold)
        melds = [make_meld(cards(text), rules) for text in table]
        for objective in OBJECTIVES:
            for opened in (True, False):
                for keep in (0, 1):
                    agree(cards(hand), rules, objective, melds, opened, keep)


def test_a_set_of_four_lays_no_joker_it_does_not_hold() -> None:
    plan = solve(cards(SET_OF_FOUR_AND_A_JOKER), Variant())
    assert sorted(map(sorted, plan.melds)) == sorted(map(sorted, [cards("7H 7S 7D 7C"), cards("9H TH JK")]))
    assert plan.remaining == tuple(cards("3C 4C"))
    assert plan.value_left == 7
    assert not plan.empty
    assert solve(cards("2C 9H"), Variant()).empty


def test_keep_follows_going_out() -> None:
    assert rules.keep(Variant()) == 1
    assert rules.keep(Variant(going_out="discard_optional")) == 0


@pytest.mark.parametrize("mode", ACE_MODES)
@pytest.mark.parametrize("extra", ["AH", "JK"])
def test_a_run_holds_thirteen_cards_and_no_more(mode: AceInRuns, extra: str) -> None:
    # Runs of at least 13: the whole suit is one run, and neither a second ace nor a joker joins it.
    rules = variant(13, mode)
    hand = cards(f"AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH {extra}")
    plan = solve(hand, rules, objective="cards")
    assert plan.cards_laid == 13
    assert plan.remaining == tuple(cards(extra))
    check_plan(plan, hand, rules)


@pytest.mark.parametrize(("mode", "points"), [("high_or_low", 95), ("high", 95), ("low", 85), ("wrap", 95)])
def test_the_frame_of_a_thirteen_card_run(mode: AceInRuns, points: int) -> None:
    # An ace low is worth 1 where the variant has it low; the best frame puts it high where it may.
    rules = variant(3, mode, ace_low_value=None if mode in ("high", "wrap") else 1)
    hand_text = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    hand = cards(hand_text)
    plan = solve(hand, rules, objective="points")
    assert plan.points == points
    check_plan(plan, hand, rules)
    # One meld, in the frame worth the most; between frames worth the same, the first listed.
    frame = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH" if mode in ("high_or_low", "high") else hand_text
    assert plan.melds == (tuple(cards(frame)),)
    same = solve(hand, variant(3, mode), objective="points")
    first = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH" if mode == "high" else hand_text
    assert same.melds == (tuple(cards(first)),)


def test_the_set_candidates_of_one_rank() -> None:
    tables = solver._rules(Variant())
    found: list[solver._Cand] = []
    sevens = [1 << 6, 1 << 6, 1 << 6, 0]  # 7C 7D 7H
    solver._set_candidates(sevens, 1, tables, found)
    listed = [(cand.naturals, cand.jokers, cand.points) for cand in found]
    seven_c, seven_d, seven_h = cards("7C 7D 7H")
    assert listed == [
        ((seven_c, seven_d), 1, 21),
        ((seven_c, seven_h), 1, 21),
        ((seven_d, seven_h), 1, 21),
        ((seven_c, seven_d, seven_h), 0, 21),
        ((seven_c, seven_d, seven_h), 1, 28),
    ]


@pytest.mark.parametrize(
    ("mode", "ranks", "positions"),
    [
        ("high_or_low", "A 2 3 Q K", {1, 2, 3, 12, 13, 14}),
        ("high", "A 2 3 Q K", {2, 3, 12, 13, 14}),
        ("low", "A 2 3 Q K", {1, 2, 3, 12, 13}),
        ("wrap", "A 2 3 Q K", {1, 2, 3, 12, 13, 14, 15, 16, 25, 26, 27, 28, 29, 38, 39}),
        ("high_or_low", "2 3 Q K", {2, 3, 12, 13}),
        ("high", "2 3 Q K", {2, 3, 12, 13}),
        ("low", "2 3 Q K", {2, 3, 12, 13}),
    ],
)
def test_the_positions_a_suit_may_take(mode: AceInRuns, ranks: str, positions: set[int]) -> None:
    # Position 1 is an ace below the two, 14 an ace above the king; wrap unrolls the line three times.
    mask = 0
    for card in cards(" ".join(f"{rank}H" for rank in ranks.split())):
        mask |= 1 << (card % 13)
    line = solver_candidates._run_line(mask, solver._rules(variant(3, mode)))
    assert {p for p in range(64) if line >> p & 1} == positions


@pytest.mark.parametrize(
    ("mode", "jokers", "runs"),
    [
        ("high_or_low", 0, [("QH KH AH", 31)]),
        ("high", 0, [("QH KH AH", 31)]),
        ("low", 0, []),
        ("wrap", 0, [("QH KH AH", 31), ("QH KH AH 2H", 33), ("KH AH 2H", 23)]),
        (
            "wrap",
            1,
            [
                ("JK AH 2H", 23),
                ("QH KH JK", 31),
                ("QH KH AH", 31),
                ("JK QH KH AH", 41),
                ("QH JK AH", 31),
                ("QH KH AH 2H", 33),
                ("JK QH KH AH 2H", 43),
                ("QH JK AH 2H", 33),
                ("QH KH JK 2H", 33),
                ("JK KH AH", 31),
                ("KH AH 2H", 23),
                ("JK KH AH 2H", 33),
                ("KH JK 2H", 23),
            ],
        ),
        ("low", 1, [("AH 2H JK", 16), ("JK QH KH", 30)]),
        (
            "high",
            1,
            [("QH KH JK", 31), ("QH KH AH", 31), ("JK QH KH AH", 41), ("QH JK AH", 31), ("JK KH AH", 31)],
        ),
    ],
)
def test_the_runs_listed_for_one_suit(mode: AceInRuns, jokers: int, runs: list[tuple[str, int]]) -> None:
    """Q K A 2 of hearts: every run listed, in its best frame, with its points."""
    suit_ranks = [0, 0, 0, 0]
    for card in cards("QH KH AH 2H"):
        suit_ranks[card // 13] |= 1 << (card % 13)
    found: list[solver._Cand] = []
    solver._run_candidates(suit_ranks, jokers, solver._rules(variant(3, mode)), found)
    assert [(cand.written, cand.points) for cand in found] == [
        (tuple(cards(text)), points) for text, points in runs
    ]
    assert all(cand.table == -1 for cand in found)


@pytest.mark.parametrize("mode", ["high_or_low", "high", "wrap"])
def test_a_tie_goes_to_the_first_run_in_the_search_order(mode: AceInRuns) -> None:
    # Keeping one card, QH JK AH and JK KH AH both leave 10 with the same points and jokers:
    # the tie goes to the run listed first, the one whose first natural sits lower (the queen).
    plan = solve(cards("QH KH AH JK"), variant(3, mode), keep=1)
    assert plan.melds == (tuple(cards("QH JK AH")),)
    assert plan.remaining == tuple(cards("KH"))


def test_one_natural_and_two_jokers_is_laid_as_a_run_where_that_is_worth_more() -> None:
    plan = solve(cards("7H JK JK"), Variant(), objective="points")
    # As written, 7H JK JK is a set of sevens (21); the move "meld 7H JK JK run" lays 7-8-9 (24).
    assert make_meld(plan.melds[0], Variant()).kind == "set"
    assert plan.kinds == ("run",)
    assert plan.points == 24 == make_meld(plan.melds[0], Variant(), kind="run").worth(Variant())
    # Where the set is worth as much or more, the plan lays the set and says nothing (K-K-K 30, J-Q-K 30).
    kings = solve(cards("KH JK JK"), Variant(ace_value=10), objective="points")
    assert (kings.points, kings.kinds) == (30, ())


def test_one_natural_and_four_jokers_is_a_run() -> None:
    plan = solve(cards("9H JK JK JK JK"), Variant(), objective="points")
    assert make_meld(plan.melds[0], Variant()).kind == "run"
    assert plan.points == 9 + 10 + 10 + 10 + 10  # 9-10-J-Q-K, the best frame holding the nine


def test_one_natural_with_four_jokers_lists_runs_holding_it_once() -> None:
    nines = [0, 0, 1 << 8, 0]  # 9H alone
    found: list[solver._Cand] = []
    solver._run_candidates(nines, 4, solver._rules(Variant()), found)
    assert found
    for cand in found:
        assert cand.naturals == tuple(cards("9H"))
        assert cand.written.count(JOKER) == cand.jokers == len(cand.written) - 1 >= 4


def test_must_include_names_each_copy_it_needs() -> None:
    # Two copies named, one held: a bad argument, not a hand that cannot be laid.
    with pytest.raises(solver.SolverError, match=r"^must_include names 5H, a card the hand does not hold$"):
        solve(cards("5H 6H 7H"), Variant(), must_include=cards("5H 5H"))
    assert solve(cards("5H 5H 6H 7H 6H 7H"), Variant(), must_include=cards("5H 5H")).cards_laid == 6


# ---------------------------------------------------------------- shortcuts: the meldless test, kept lists


def holds_no_meld(hand: list[Card], tables: solver_candidates._Rules) -> bool:
    """Whether :func:`_read_hand` finds no meld; the mask and value it gives are always the hand's."""
    held, value, meldless = solver_candidates._read_hand(hand, tables)
    assert held == sum(1 << card for card in set(hand) if card != JOKER), hand
    assert value == sum(tables.hand_value[card] for card in hand), hand
    return meldless


@pytest.mark.parametrize("set_suits", ["distinct", "may_repeat"])
@pytest.mark.parametrize("mode", ACE_MODES)
@pytest.mark.parametrize("run_minimum", [3, 4])
def test_a_hand_is_meldless_exactly_when_nothing_is_listed(
    mode: AceInRuns, run_minimum: int, set_suits: SetSuits
) -> None:
    rng = random.Random(run_minimum)
    rules = variant(run_minimum, mode, set_suits=set_suits)
    tables = solver._rules(rules)
    seen = {True: 0, False: 0}
    for _ in range(400):
        # One pack or two: a second copy of a card must not read as another card.
        pack = range(52) if rng.random() < 0.5 else pack_list(2, 0)
        hand = rng.sample(pack, rng.randint(4, 12)) + [JOKER] * (rng.random() < 0.1)
        meldless = holds_no_meld(hand, tables)
        assert meldless == (not listed(hand, rules) and JOKER not in hand), hand
        seen[meldless] += 1
    assert min(seen.values()) > 20  # both answers met often
    # Three of a rank in three suits, or a run from the ace at either end where the variant has it.
    assert not holds_no_meld(cards("7C 7D 7S 2H"), tables)
    assert holds_no_meld(cards("7C 7D 2H 2S"), tables)
    assert not holds_no_meld(cards("7C 7D 7D 2H 2S JK"), tables)
    assert not holds_no_meld(cards("7D 7D 7H 7S"), tables)  # two 7D are not an 8D
    # Two copies of a card and a third of its rank are a set only where suits may repeat.
    assert holds_no_meld(cards("7D 7D 7H 2S"), tables) == (set_suits == "distinct")
    assert holds_no_meld(cards("7D 7D 2H 2S"), tables)
    ace_low = cards("AH 2H 3H 4H")[: max(run_minimum, 3)]
    assert holds_no_meld(ace_low, tables) == (mode == "high")
    ace_high = cards("JH QH KH AH")[-run_minimum:]
    assert holds_no_meld(ace_high, tables) == (mode == "low")


@pytest.mark.parametrize("joker_penalty", [25, 1000])
def test_a_hand_is_read_whole_when_its_copies_carry_or_it_is_large(joker_penalty: int) -> None:
    # The hand is read as one sum of per-card keys, its value above the natural cards' bits. Copies
    # of the top codes carry past the 52 bits; a hand of 16 cards or more may carry into the value;
    # a hand worth 256 or more no longer fits a machine word. Each must still read as its cards.
    tables = solver._rules(Variant(joker_penalty=joker_penalty))
    top = cards("KS KS QS QS JS JS")
    for hand in (top, top + cards("KS"), top * 3, top * 6 + cards("JK JK"), cards("JK") * 20, [51] * 40):
        holds_no_meld(hand, tables)
    rng = random.Random(8)
    pack = pack_list(4, 6)
    for size in range(14, 60):
        holds_no_meld(rng.sample(pack, size), tables)


@pytest.mark.parametrize(
    ("set_suits", "set_maximum"), [("distinct", 4), ("may_repeat", 3), ("may_repeat", 6)]
)
def test_kept_lists_answer_as_fresh_ones(set_suits: SetSuits, set_maximum: int) -> None:
    # One variant solves many hands, its lists kept by suit's ranks and rank's suits (or copies,
    # where suits may repeat) with the jokers; each hand must list what a variant never used lists.
    # The shared tables are held here, not looked up again: the module's cache of tables starts
    # afresh after 256 variants (each fresh one below adds one), which would drop the kept lists.
    rng = random.Random(5)
    shared = solver._rules(variant(3, "high_or_low", set_suits=set_suits, set_maximum=set_maximum))
    pack = pack_list(2, 2)
    for _ in range(300):
        hand = rng.sample(pack, rng.randint(6, 14))
        fresh = variant(3, "high_or_low", set_suits=set_suits, set_maximum=set_maximum)
        kept, new = listed(hand, shared), listed(hand, fresh)
        assert kept == new, (hand, kept, new)
    assert shared.run_cache
    assert shared.set_cache


def test_an_empty_plan_is_the_plan_the_dataclass_builds() -> None:
    hand = cards("KS 2C 9H")
    plan = solve(hand, Variant())
    expected = solver.Plan((), (), 0, 0, 10 + 2 + 9, tuple(sorted(hand)))
    assert plan == expected
    assert hash(plan) == hash(expected)
    assert repr(plan) == repr(expected)
    assert solver.best_opening(hand, Variant()) is None
    with pytest.raises(solver.Unsolvable, match="cannot lay anything"):
        solve(hand, Variant(), must_include=cards("9H"))


def test_a_keep_beyond_the_hand_is_said_before_the_variant_or_the_cards_are_read() -> None:
    # The check of keep comes first, as before solve read the hand itself.
    with pytest.raises(solver.Unsolvable, match="the hand holds 2 cards and cannot keep 3"):
        solve([5, 18], "classic", keep=3)  # type: ignore[arg-type]
    with pytest.raises(solver.Unsolvable, match="the hand holds 1 card and cannot keep 2"):
        solve([3.5], Variant(), keep=2)  # type: ignore[list-item]


@pytest.mark.parametrize("going_out", ["any", "meld_required"])
def test_a_hand_with_nothing_to_lay_gets_the_plan_the_general_path_makes(
    going_out: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # solve answers a hand that holds no meld, with no table, keep or must_include, without setting a
    # problem up: its plan must be the general path's, field for field and of the same class, a lone
    # card under meld_required among them. The general path is the one solve takes when the hand is
    # read as perhaps melding.
    rng = random.Random(len(going_out))
    quick_answers = 0
    for _ in range(400):
        rules = variant(rng.choice([3, 4]), rng.choice(ACE_MODES)).model_copy(update={"going_out": going_out})
        pack = range(52) if rng.random() < 0.5 else pack_list(2, 0)
        hand = rng.sample(pack, rng.choice([1, 1, 2, 3, 5, 8, 10, 13]))
        objective = rng.choice(OBJECTIVES)
        opened = rng.random() < 0.5
        quick = solve(hand, rules, objective=objective, opened=opened)
        with monkeypatch.context() as general:
            read_as_melding(general)
            expected = solve(hand, rules, objective=objective, opened=opened)
        assert type(quick) is solver.Plan, hand
        assert (quick, hash(quick), repr(quick)) == (expected, hash(expected), repr(expected)), hand
        if holds_no_meld(hand, solver._rules(rules)):
            quick_answers += 1
    assert quick_answers > 100  # the quick answer is met often


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_candidates_sharing_no_card_are_all_laid_as_the_search_lays_them(objective: Objective) -> None:
    # The shortcut for candidates that share no card must answer exactly as the search: the same
    # melds in the same order, the same score, and None where the search finds no lay.
    rng = random.Random(len(objective))
    pack = [card for card in pack_list(2, 0) if card % 13 < 8]  # eight ranks: melds come often
    rules = Variant()
    tables = solver._rules(rules)
    read_off = 0
    for _ in range(600):
        hand = rng.sample(pack, rng.randint(3, 14))
        problem = new_problem(hand, tables, objective)
        if not problem.cands:
            continue
        keep = rng.choice([0, 1, 2, 5])
        need = rng.choice([None, 0, 15, 30, 51])
        expected = solver.search(problem, keep, (), need)
        got = solver._best_lay(problem, (), keep, (), need)
        assert got == expected, (hand, keep, need)
        codes = [code for cand in problem.cands for code in cand.naturals]
        read_off += len(codes) == len(set(codes))
    assert read_off > 150


@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize("mode", ACE_MODES)
def test_candidates_inside_another_are_laid_as_the_search_lays_them(
    objective: Objective, mode: AceInRuns
) -> None:
    # Runs inside a longer run and sets inside a set of four: the shortcut lays the outer one, as
    # the search does (it tries the candidates of a card most cards first and keeps the first of
    # equal lays), and leaves to the search whatever shares cards any other way.
    rng = random.Random(f"{objective} {mode}")
    read_off = searched = 0
    for _ in range(200):
        rules = variant(
            rng.choice([3, 4]),
            mode,
            ace_value=rng.choice([0, 1, 11]),
            ace_low_value=rng.choice([None, 0, 20]) if mode in ("high_or_low", "low") else None,
            set_maximum=rng.choice([3, 4]),
        )
        # A run of three to six, two to four cards of a rank, and a few cards more.
        suit, low, rank = rng.randrange(4), rng.randint(1, 13), rng.randint(1, 13)
        hand = [make_card((r - 1) % 13 + 1, suit) for r in range(low, low + rng.randint(3, 6))]
        hand += [make_card(rank, s) for s in rng.sample(range(4), rng.randint(2, 4))]
        hand += rng.sample(pack_list(1, 0), rng.randint(0, 4))
        problem = new_problem(hand, solver._rules(rules), objective)
        if not problem.cands:
            continue
        keep = rng.choice([0, 0, 1, 5])
        need = rng.choice([None, 0, 15, 30, 51])
        assert solver._best_lay(problem, (), keep, (), need) == solver.search(problem, keep, (), need), (
            hand,
            rules,
            keep,
            need,
        )
        codes = [code for cand in problem.cands for code in cand.naturals]
        if len(codes) != len(set(codes)):
            outer = solver._outermost(problem.cands, problem.counts)
            read_off += outer is not None
            searched += outer is None
    assert read_off > 25
    assert searched > 60


def test_the_outer_candidates_are_those_no_other_holds() -> None:
    rules = solver._rules(Variant())
    run = new_problem(cards("3H 4H 5H 6H 9C"), rules, "value_left")
    outer = solver._outermost(run.cands, run.counts)
    assert outer is not None
    assert [cand.naturals for cand in outer] == [tuple(cards("3H 4H 5H 6H"))]
    # Two copies of a card outside every candidate do not matter.
    aces = new_problem(cards("AC AC 3H 4H 5H 6H"), rules, "value_left")
    outer = solver._outermost(aces.cands, aces.counts)
    assert outer is not None
    assert [cand.naturals for cand in outer] == [tuple(cards("3H 4H 5H 6H"))]
    # A card in two outer candidates, or held twice inside one, leaves the hand to the search.
    for hand in ("3H 4H 5H 6H 6C 6D", "3H 4H 5H 6H 3H", "QH KH AH 2H 3H"):
        problem = new_problem(cards(hand), rules, "value_left")
        assert solver._outermost(problem.cands, problem.counts) is None, hand
    # Two copies of the cards of an outer candidate with none inside it: laid twice, as before.
    twice = new_problem(cards("3H 4H 5H 3H 4H 5H 9C 9D 9H 9S"), rules, "value_left")
    outer = solver._outermost(twice.cands, twice.counts)
    assert outer is not None
    assert [cand.naturals for cand in outer] == [tuple(cards("9C 9D 9H 9S")), tuple(cards("3H 4H 5H"))]
    plan = solve(cards("3H 4H 5H 3H 4H 5H 9C 9D 9H 9S"), Variant())
    assert plan.melds == (tuple(cards("9C 9D 9H 9S")), tuple(cards("3H 4H 5H")), tuple(cards("3H 4H 5H")))


def test_a_candidate_is_laid_as_often_as_the_copies_allow() -> None:
    hand = cards("7C 7D 7H 7C 7D 7H 4S 5S 6S 2D")
    plan = solve(hand, Variant())
    sevens = tuple(cards("7C 7D 7H"))
    assert plan.melds == (sevens, sevens, tuple(cards("4S 5S 6S")))
    assert plan.remaining == tuple(cards("2D"))
    problem = new_problem(hand, solver._rules(Variant()), "value_left")
    assert solver._best_lay(problem, (), 0, (), None) == solver.search(problem, 0, (), None)


@pytest.mark.parametrize("hand", [[-1, 5], [5, 53], [53], [-1]])
def test_a_card_code_out_of_range_is_refused(hand: list[int]) -> None:
    with pytest.raises(solver.SolverError, match="is not a card code"):
        solve(hand, Variant())
    with pytest.raises(solver.SolverError, match="is not a card code"):
        solver.best_opening(hand, Variant())


def test_bad_arguments_are_refused_before_any_work() -> None:
    with pytest.raises(solver.SolverError, match="unknown objective"):
        solve(cards("5H"), Variant(), objective="nonsense")  # type: ignore[arg-type]
    with pytest.raises(solver.SolverError, match="keep must be 0 or more"):
        solve(cards("5H"), Variant(), keep=-1)
    with pytest.raises(solver.Unsolvable, match="cannot keep 2"):
        solve(cards("5H"), Variant(), keep=2)
    assert solver.best_opening(cards("5H"), Variant(), keep=2) is None
    # best_opening checks its arguments as solve does, each on its own.
    hand = cards("5H 6H 7H 8H")
    with pytest.raises(solver.SolverError, match="unknown objective"):
        solver.best_opening(hand, Variant(), objective="nonsense")  # type: ignore[arg-type]
    with pytest.raises(solver.SolverError, match="keep must be 0 or more"):
        solver.best_opening(hand, Variant(), keep=-1)
    with pytest.raises(solver.SolverError, match=r"^must_include names 9H, a card the hand does not hold$"):
        solver.best_opening(hand, Variant(), must_include=cards("9H"))


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_between_equal_lays_the_one_with_fewer_jokers_wins(objective: Objective) -> None:
    # Keeping one card: T-J-Q-K of hearts keeping the joker, or the joker standing in for one of
    # them and that card kept. Each leaves 10 (the joker's penalty here), lays 40 points and four
    # cards; the lay without the joker wins.
    rules = Variant(ace_in_runs="low", joker_penalty=10)
    plan = solve(cards("TH JH QH KH JK"), rules, objective=objective, keep=1)
    assert plan.melds == (tuple(cards("TH JH QH KH")),)
    assert plan.remaining == (JOKER,)
