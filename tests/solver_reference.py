"""A slow brute-force reference for the meld solver, built only on ``kalooki.melds``.

The reference enumerates every way to split the hand into cards left, new melds (every
permutation tried through ``make_meld``, as written and as a run: ``JK 6H JK run``) and builds
(every permutation and low/high split tried through ``build``), so it knows nothing of the
solver's candidate lists or its search.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import pytest

from kalooki import solver, solver_candidates
from kalooki.cards import JOKER, Card, card_points, make_card, parse_cards, rank_of, suit_of
from kalooki.melds import MeldError, TableMeld, build, make_meld
from kalooki.solver import Objective, Plan, Unsolvable, best_opening, solve
from kalooki.solver_candidates import _read_hand, _Rules
from kalooki.variant import AceInRuns, OpeningJokerValue, SetSuits, Variant

ACE_MODES: tuple[AceInRuns, ...] = ("high_or_low", "high", "low", "wrap")
OBJECTIVES: tuple[Objective, ...] = ("points", "cards", "value_left")


def read_as_melding(patch: pytest.MonkeyPatch) -> None:
    """Every hand read as one that may hold a meld, so that the candidates decide: the solver's general
    path, which a hand holding no meld otherwise skips (solve reads its common hands itself)."""
    for module in (solver, solver_candidates):
        patch.setattr(module, "_holds_no_meld", lambda held, rules: False)


def variant(
    run_minimum: int = 3,
    ace_in_runs: AceInRuns = "high_or_low",
    threshold: int = 51,
    ace_value: int = 11,
    joker_penalty: int = 25,
    ace_low_value: int | None = None,
    set_suits: SetSuits = "distinct",
    set_maximum: int = 4,
    opening_joker_value: OpeningJokerValue = "represented",
) -> Variant:
    return Variant(
        run_minimum=run_minimum,
        ace_in_runs=ace_in_runs,
        opening_threshold=threshold,
        ace_value=ace_value,
        joker_penalty=joker_penalty,
        ace_low_value=ace_low_value,
        set_suits=set_suits,
        set_maximum=set_maximum,
        opening_joker_value=opening_joker_value,
    )


# ---------------------------------------------------------------- the reference


def _could_meld(cards: tuple[Card, ...]) -> bool:
    # make_meld's reading depends only on the multiset when the naturals share neither a rank nor a
    # suit (it raises whatever the order), so those need no permutations.
    naturals = [c for c in cards if c != JOKER]
    return bool(naturals) and (
        len({rank_of(c) for c in naturals}) == 1 or len({suit_of(c) for c in naturals}) == 1
    )


def meld_rules(rules: Variant) -> Variant:
    """The variant with only the knobs melds depend on, so the reference caches serve many variants."""
    return _meld_rules(
        rules.run_minimum,
        rules.ace_in_runs,
        rules.ace_value,
        rules.ace_low_value,
        rules.set_maximum,
        rules.set_suits,
        rules.opening_joker_value,
        # A joker's own worth matters only where it has one: the other variants share their melds.
        rules.joker_penalty if rules.opening_joker_value == "penalty" else 25,
    )


@functools.cache
def _meld_rules(
    run_minimum: int,
    ace_in_runs: AceInRuns,
    ace_value: int,
    ace_low_value: int | None,
    set_maximum: int,
    set_suits: SetSuits,
    opening_joker_value: OpeningJokerValue,
    joker_penalty: int,
) -> Variant:
    return Variant(
        run_minimum=run_minimum,
        ace_in_runs=ace_in_runs,
        ace_value=ace_value,
        ace_low_value=ace_low_value,
        set_maximum=set_maximum,
        set_suits=set_suits,
        opening_joker_value=opening_joker_value,
        joker_penalty=joker_penalty,
    )


def ref_meld_points(cards: tuple[Card, ...], rules: Variant) -> int | None:
    """The most points any order of ``cards`` is worth as a new meld, or None if no order is a meld."""
    if len(cards) < 3 or not _could_meld(cards):
        return None
    return _ref_meld_points(cards, meld_rules(rules))


@functools.cache
def _ref_meld_points(cards: tuple[Card, ...], rules: Variant) -> int | None:
    best: int | None = None
    for order in set(itertools.permutations(cards)):
        # A move may say how a group reads: one natural and jokers is a set, or with "run" a run.
        for kind in (None, "run"):
            try:
                meld = make_meld(order, rules, kind=kind)
            except MeldError:
                continue
            points = meld.worth(rules)
            best = points if best is None else max(best, points)
    return best


def ref_build_gain(meld: TableMeld, cards: tuple[Card, ...], rules: Variant) -> int | None:
    """The most points ``cards`` add to ``meld`` by any builds (a run: a low part then a high part)."""
    return _ref_build_gain(meld, cards, meld_rules(rules))


@functools.cache
def _ref_build_gain(meld: TableMeld, cards: tuple[Card, ...], rules: Variant) -> int | None:
    before = meld.worth(rules)
    if meld.kind == "set":
        try:
            return build(meld, cards, rules).worth(rules) - before
        except MeldError:
            return None
    # build rejects a card of another suit, or a run longer than 13, whatever the order.
    if any(c != JOKER and suit_of(c) != meld.suit for c in cards) or len(meld.cards) + len(cards) > 13:
        return None
    best: int | None = None
    for order in set(itertools.permutations(cards)):
        for cut in range(len(order) + 1):
            try:
                grown = meld
                if order[:cut]:
                    grown = build(grown, order[:cut], rules, "low")
                if order[cut:]:
                    grown = build(grown, order[cut:], rules, "high")
            except MeldError:
                continue
            gain = grown.worth(rules) - before
            best = gain if best is None else max(best, gain)
    return best


@dataclass(frozen=True)
class RefPlan:
    new_points: int
    build_points: int
    new_melds: int
    builds: int
    laid: tuple[Card, ...]


def ref_plans(hand: Sequence[Card], rules: Variant, table: Sequence[TableMeld]) -> Iterator[RefPlan]:
    """Every way to lay the hand: each card left, in a new meld, or in the one group built on a table meld."""

    def rec(
        rest: tuple[Card, ...],
        free: frozenset[int],
        new: int,
        built: int,
        melds: int,
        builds: int,
        laid: tuple[Card, ...],
    ) -> Iterator[RefPlan]:
        if not rest:
            yield RefPlan(new, built, melds, builds, laid)
            return
        first, others = rest[0], rest[1:]
        yield from rec(others, free, new, built, melds, builds, laid)
        seen: set[tuple[Card, ...]] = set()
        for size in range(len(others) + 1):
            for picked in itertools.combinations(range(len(others)), size):
                group = tuple(sorted((first, *(others[i] for i in picked))))
                if group in seen:
                    continue
                seen.add(group)
                left = tuple(card for i, card in enumerate(others) if i not in picked)
                points = ref_meld_points(group, rules)
                if points is not None:
                    yield from rec(left, free, new + points, built, melds + 1, builds, laid + group)
                for index in sorted(free):
                    gain = ref_build_gain(table[index], group, rules)
                    if gain is not None:
                        yield from rec(
                            left, free - {index}, new, built + gain, melds, builds + 1, laid + group
                        )

    yield from rec(tuple(sorted(hand)), frozenset(range(len(table))), 0, 0, 0, 0, ())


def ref_value(
    plan_points: int, laid: Sequence[Card], hand: Sequence[Card], rules: Variant, objective: Objective
) -> int:
    """The objective as a number to maximise."""
    if objective == "points":
        return plan_points
    if objective == "cards":
        return len(laid)
    left = Counter(hand)
    left.subtract(laid)
    return -sum(card_points(c, rules.ace_value, rules.joker_penalty) * n for c, n in left.items())


def ref_best(
    hand: Sequence[Card],
    rules: Variant,
    objective: Objective,
    table: Sequence[TableMeld] = (),
    opened: bool = True,
    keep: int = 0,
    must_include: Sequence[Card] = (),
    opening_only: bool = False,
) -> int | None:
    """The best objective value over every legal plan, or None when none satisfies the constraints."""
    key = ref_best_key(hand, rules, objective, table, opened, keep, must_include, opening_only)
    return None if key is None else key[0]


Key = tuple[int, int, int, int]
"""A lay as the solver orders them: the objective, fewer jokers laid, more points, more cards."""


def ref_best_key(
    hand: Sequence[Card],
    rules: Variant,
    objective: Objective,
    table: Sequence[TableMeld] = (),
    opened: bool = True,
    keep: int = 0,
    must_include: Sequence[Card] = (),
    opening_only: bool = False,
) -> Key | None:
    """The best :data:`Key` over every legal plan, or None when none satisfies the constraints."""
    best: Key | None = None
    must = Counter(must_include)
    for plan in ref_plans(hand, rules, table):
        if len(hand) - len(plan.laid) < keep:
            continue
        if must - Counter(plan.laid):
            continue
        is_empty = not plan.new_melds and not plan.builds
        opening_needed = not opened and not (is_empty and not opening_only)
        if opening_needed and (plan.new_melds == 0 or plan.new_points < rules.opening_threshold):
            continue
        points = plan.new_points + plan.build_points
        key = (
            ref_value(points, plan.laid, hand, rules, objective),
            -plan.laid.count(JOKER),
            points,
            len(plan.laid),
        )
        best = key if best is None else max(best, key)
    return best


# ---------------------------------------------------------------- checking a plan


def check_plan(
    plan: Plan,
    hand: Sequence[Card],
    rules: Variant,
    table: Sequence[TableMeld] = (),
    opened: bool = True,
    keep: int = 0,
    must_include: Sequence[Card] = (),
) -> None:
    """The plan is legal through ``make_meld``/``build``, conserves the cards and says true numbers."""
    laid: list[Card] = []
    new_points = 0
    for index, cards in enumerate(plan.melds):
        meld = make_meld(cards, rules, kind=plan.kinds[index] if plan.kinds else None)
        assert meld.cards == tuple(cards)
        new_points += meld.worth(rules)
        laid += cards
    build_points = 0
    grown = list(table)
    for index, cards, end in plan.builds:
        before = grown[index]
        assert (end is None) == (before.kind == "set")
        grown[index] = build(before, cards, rules, end)
        build_points += grown[index].worth(rules) - before.worth(rules)
        laid += cards
    assert Counter(laid) + Counter(plan.remaining) == Counter(hand)
    assert plan.cards_laid == len(laid)
    assert plan.points == new_points + build_points
    assert plan.value_left == sum(
        card_points(c, rules.ace_value, rules.joker_penalty) for c in plan.remaining
    )
    assert len(plan.remaining) >= keep
    assert not Counter(must_include) - Counter(laid)
    if not opened and not plan.empty:
        assert plan.melds
        assert new_points >= rules.opening_threshold


def plan_value(plan: Plan, objective: Objective) -> int:
    if objective == "points":
        return plan.points
    if objective == "cards":
        return plan.cards_laid
    return -plan.value_left


def plan_key(plan: Plan, objective: Objective) -> Key:
    jokers = sum(cards.count(JOKER) for cards in plan.melds) + sum(
        cards.count(JOKER) for _, cards, _ in plan.builds
    )
    return plan_value(plan, objective), -jokers, plan.points, plan.cards_laid


def agree(
    hand: Sequence[Card],
    rules: Variant,
    objective: Objective,
    table: Sequence[TableMeld] = (),
    opened: bool = True,
    keep: int = 0,
    must_include: Sequence[Card] = (),
) -> None:
    """solve and best_opening give legal plans that are the reference's best: worth exactly as
    much for the objective, and between equal lays, with as few jokers, then as many points, then
    as many cards as the best."""
    expected = ref_best_key(hand, rules, objective, table, opened, keep, must_include)
    try:
        plan = solve(
            hand, rules, objective=objective, table=table, opened=opened, keep=keep, must_include=must_include
        )
    except Unsolvable:
        assert expected is None, (hand, expected)
    else:
        check_plan(plan, hand, rules, table, opened, keep, must_include)
        assert plan_key(plan, objective) == expected, (hand, plan)
    if not opened:
        expected = ref_best_key(hand, rules, objective, table, False, keep, must_include, opening_only=True)
        opening = best_opening(
            hand, rules, table=table, keep=keep, must_include=must_include, objective=objective
        )
        if opening is None:
            assert expected is None, hand
        else:
            check_plan(opening, hand, rules, table, False, keep, must_include)
            assert opening.melds
            assert plan_key(opening, objective) == expected, (hand, opening)


def new_problem(hand: Sequence[Card], rules: _Rules, objective: Objective) -> solver._Problem:
    """The solver's problem for ``hand`` with no table, its cards read as :func:`solver.solve` reads them."""
    held, value, _ = _read_hand(hand, rules)
    return solver._Problem(hand, rules, objective, (), held, value)


# ---------------------------------------------------------------- random situations for the edge tests

SMALL_RANKS = (1, 2, 3, 4, 5, 11, 12, 13)


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def random_table(rng: random.Random, rules: Variant) -> list[TableMeld]:
    table: list[TableMeld] = []
    for _ in range(rng.randint(1, 2)):
        if rng.random() < 0.4:
            rank = rng.choice(SMALL_RANKS)
            suits = rng.sample(range(4), rng.randint(2, 3))
            written = [make_card(rank, s) for s in suits] + [JOKER] * rng.randint(0, 1)
        else:
            low, suit = rng.randint(1, 13), rng.randrange(4)
            length = rng.randint(rules.run_minimum, rules.run_minimum + 2)
            joker_at = rng.randint(-1, 4)
            written = [
                JOKER if i == joker_at else make_card((low + i - 1) % 13 + 1, suit) for i in range(length)
            ]
        try:
            table.append(make_meld(written, rules))
        except MeldError:
            continue
    return table


def listed(
    hand: list[Card], rules: Variant | _Rules
) -> list[tuple[tuple[Card, ...], int, int, tuple[Card, ...]]]:
    """The new melds the solver lists for ``hand``, as plain tuples (``rules`` a variant, or its
    tables with the lists they keep)."""
    tables = solver._rules(rules) if isinstance(rules, Variant) else rules
    problem = new_problem(hand, tables, "value_left")
    return [(cand.naturals, cand.jokers, cand.points, cand.written) for cand in problem.cands]
