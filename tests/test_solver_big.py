"""The large hands' search (kalooki.solver_big) answers as the one search in the suit order does.

Each hand here is one that search finishes quickly; the answers are compared plan for plan
(melds, builds, their order and every tie-break), under every objective and constraint the
solver takes. The budget of nodes is set both ways: so large that the first rank order always
finishes first and the plan is read off by the walk (each rank order taking its turn first),
and so small that the orders take many turns.
"""

from __future__ import annotations

import random

import pytest

from kalooki import solver_big, solver_search
from kalooki.cards import JOKER, Card, pack_list
from kalooki.melds import TableMeld, make_meld
from kalooki.solver import Plan, Unsolvable, best_opening, solve
from kalooki.variant import Variant

CLASSIC = Variant()
FOUR_PACKS = Variant(decks=4, jokers=8)
WRAP = Variant(ace_in_runs="wrap")
"""Runs that turn the corner (K-A-2): filed under the king searched from the king down."""
THREE_PACKS_REPEAT = Variant(decks=3, jokers=6, set_suits="may_repeat", set_maximum=6)
"""Sets that name a card twice (9C 9C 9D)."""


def _hands() -> list[tuple[Variant, list[Card]]]:
    """Seeded hands of 30 to 36 cards, with none to four jokers, from two packs and from four; and
    of 30 and 33 with runs that turn the corner, and from three packs with sets that repeat a suit."""
    rng = random.Random(20)
    found: list[tuple[Variant, list[Card]]] = []
    for variant, decks in ((CLASSIC, 2), (FOUR_PACKS, 4)):
        naturals = pack_list(decks, 0)
        for size in (30, 33, 36):
            for jokers in (0, 1, 2, 4):
                found.append((variant, rng.sample(naturals, size - jokers) + [JOKER] * jokers))
    for variant, decks in ((WRAP, 2), (THREE_PACKS_REPEAT, 3)):
        naturals = pack_list(decks, 0)
        for size, jokers in ((30, 0), (33, 1), (33, 2)):
            found.append((variant, rng.sample(naturals, size - jokers) + [JOKER] * jokers))
    return found


HANDS = _hands()


def _table(variant: Variant) -> tuple[TableMeld, ...]:
    return (
        make_meld([4, 5, 6], variant),
        make_meld([20, 33, 46], variant),
        make_meld([JOKER, 27, 28], variant),
    )


def _answers(variant: Variant, hand: list[Card]) -> list[Plan | str | None]:
    """The plans for every objective, opened or not, alone or facing a table, keeping cards or laying some."""
    answers: list[Plan | str | None] = []
    for objective in ("value_left", "points", "cards"):
        for table in ((), _table(variant)):
            answers.append(solve(hand, variant, objective=objective, table=table))  # type: ignore[arg-type]
            answers.append(solve(hand, variant, objective=objective, table=table, opened=False))  # type: ignore[arg-type]
            answers.append(best_opening(hand, variant, objective=objective, table=table, keep=3))  # type: ignore[arg-type]
    for must in ([hand[0]], [hand[0], hand[-1]]):
        try:
            answers.append(solve(hand, variant, must_include=must, keep=2))
        except Unsolvable:
            answers.append("unsolvable")
    return answers


@pytest.mark.parametrize(("variant", "hand"), HANDS)
def test_large_hand_answers_as_one_search(
    monkeypatch: pytest.MonkeyPatch, variant: Variant, hand: list[Card]
) -> None:
    assert len(hand) >= solver_search.BIG_HAND
    # A budget so large that every plan is the walk's, with each rank order first, and so small that
    # the orders take many turns; and the suit order alone (with the rank orders first, it finished
    # first on none of these hands). The one search's answers, the slowest part, made once for all.
    found: dict[str, list[Plan | str | None]] = {}
    orders = solver_big.RANK_ORDERS
    for name, budget, first in (
        ("walk", 10**9, orders),
        ("walk_other", 10**9, orders[::-1]),
        ("turns", 1, orders),
        ("suits", 10**9, ()),  # the suit order alone, finishing first: its own plan, read back
    ):
        monkeypatch.setattr(solver_big, "FIRST_BUDGET", budget)
        monkeypatch.setattr(solver_big, "RANK_ORDERS", first)
        found[name] = _answers(variant, hand)
    monkeypatch.setattr(solver_search, "BIG_HAND", 10**9)
    expected = _answers(variant, hand)
    assert found == {"walk": expected, "walk_other": expected, "turns": expected, "suits": expected}


def test_the_walk_reads_a_plan_the_rank_order_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a budget no search meets, the rank order finishes first: the plan is the walk's."""
    walked: list[int] = []
    walk = solver_big._walk

    def counted(*args: object) -> object:
        walked.append(1)
        return walk(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(solver_big, "FIRST_BUDGET", 10**9)
    monkeypatch.setattr(solver_big, "_walk", counted)
    variant, hand = HANDS[0]
    plan = solve(hand, variant)
    assert walked
    monkeypatch.setattr(solver_search, "BIG_HAND", 10**9)
    assert plan == solve(hand, variant)


def test_a_60_card_hand_is_searched_in_few_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 60-card hand of classic's pack, where a turn need not end with a discard: searched rank by
    rank from the ace only, it met 23 million nodes (most of a minute); from the king down, 200,000."""
    met: list[int] = []
    bounded = solver_big._BoundedSearch.bounded

    def counted(search: solver_big._BoundedSearch, *args: int) -> int:
        before = search.nodes_left
        try:
            return bounded(search, *args)
        finally:
            met.append(before - search.nodes_left)

    monkeypatch.setattr(solver_big._BoundedSearch, "bounded", counted)
    hand = random.Random(61).sample(pack_list(2, 2), 60)
    plan = solve(hand, CLASSIC)
    assert plan.cards_laid > 40
    assert sum(met) < 1_000_000


def test_a_node_meets_only_the_entries_its_jokers_can_lay(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each field's entries by jokers left: those laying no more jokers, in the order of them all (the
    suit order's ties break by it). Searched from the king down, a node of a 40-card hand with two
    jokers met 46 entries, against 5 from the ace up, and cost twice as much."""
    searched: list[solver_big._BoundedSearch] = []
    bounded = solver_big._BoundedSearch.bounded

    def recorded(search: solver_big._BoundedSearch, *args: int) -> int:
        searched.append(search)
        return bounded(search, *args)

    monkeypatch.setattr(solver_big._BoundedSearch, "bounded", recorded)
    variant, hand = next((variant, hand) for variant, hand in HANDS if hand.count(JOKER) == 2)
    solve(hand, variant)
    assert searched
    for search in searched:
        assert len(search.by_jokers) == hand.count(JOKER) + 1
        for jokers, fields in enumerate(search.by_jokers):
            assert fields == [
                [entry for entry in group if entry[0] >> search.joker_shift <= jokers]
                for group in search.by_field
            ]
