"""The large hands' search (kalooki.solver_big) answers as the one search in the suit order does.

Each hand here is one that search finishes quickly; the answers are compared plan for plan
(melds, builds, their order and every tie-break), under every objective and constraint the
solver takes. The budget of nodes is set both ways: so large that the rank order always
finishes first and the plan is read off by the walk, and so small that the two orders take
many turns.
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


def _hands() -> list[tuple[Variant, list[Card]]]:
    """Seeded hands of 30 to 36 cards, with none to four jokers, from two packs and from four."""
    rng = random.Random(20)
    found: list[tuple[Variant, list[Card]]] = []
    for variant, decks in ((CLASSIC, 2), (FOUR_PACKS, 4)):
        naturals = pack_list(decks, 0)
        for size in (30, 33, 36):
            for jokers in (0, 1, 2, 4):
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
    # A budget so large that every plan is the walk's, and so small that the two orders take many turns;
    # the one search's answers, the slowest part, made once for both.
    found: dict[str, list[Plan | str | None]] = {}
    for name, budget in (("walk", 10**9), ("turns", 1)):
        monkeypatch.setattr(solver_big, "FIRST_BUDGET", budget)
        found[name] = _answers(variant, hand)
    monkeypatch.setattr(solver_search, "BIG_HAND", 10**9)
    expected = _answers(variant, hand)
    assert found == {"walk": expected, "turns": expected}


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
