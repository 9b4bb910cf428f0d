"""The solver's shortcuts: runs listed from the ranks that can be in one, the best lay read off part
by part, and plans made without the dataclass's constructor. Each must answer exactly as the long
way round does."""

from __future__ import annotations

import dataclasses
import inspect
import random

import pytest
from solver_reference import ACE_MODES, OBJECTIVES, new_problem, random_table, read_as_melding, variant

from kalooki import solver, solver_candidates, solver_search
from kalooki.cards import JOKER, Card, pack_list, parse_cards
from kalooki.loader import load_variant
from kalooki.loader_refs import builtin_variant_names
from kalooki.solver import Objective
from kalooki.solver_candidates import _Cand
from kalooki.variant import AceInRuns, Variant


def listed(mask: int, jokers: int, rules: solver_candidates._Rules) -> list[tuple[object, ...]]:
    """One suit's runs as ``_suit_runs`` lists them, in order, from exactly ``mask``."""
    out: list[_Cand] = []
    solver_candidates._suit_runs(mask, 2, jokers, rules, out)
    return [(c.naturals, c.jokers, c.points, c.written) for c in out]


def found(mask: int, jokers: int, rules: solver_candidates._Rules) -> list[tuple[object, ...]]:
    """One suit's runs as a hand's candidates find them (from the ranks that can be in one)."""
    out: list[_Cand] = []
    solver_candidates._run_candidates([0, 0, mask, 0], jokers, rules, out)
    return [(c.naturals, c.jokers, c.points, c.written) for c in out]


@pytest.mark.parametrize("mode", ACE_MODES)
@pytest.mark.parametrize("run_minimum", [3, 4])
@pytest.mark.parametrize("set_maximum", [3, 4])
def test_runs_are_listed_alike_from_the_ranks_that_can_be_in_one(
    mode: AceInRuns, run_minimum: int, set_maximum: int
) -> None:
    # Runs are listed and kept by the ranks of a suit that can be in one (all of them in a run
    # without jokers; with jokers, those near another). Listing from those ranks alone must give
    # the very list the whole suit gives, order included: the order is the search's order.
    rules = solver_candidates._rules(variant(run_minimum, mode, set_maximum=set_maximum))
    rng = random.Random(f"{mode} {run_minimum} {set_maximum}")
    masks = [rng.getrandbits(13) & rng.getrandbits(13) for _ in range(150)]
    masks += [0b1_1000_0000_0011, 0b1_0000_0000_0101, 0b0_0101_0101_0101, (1 << 13) - 1]
    reduced = split = 0
    for mask in masks:
        for jokers in range(set_maximum + 1):
            assert found(mask, jokers, rules) == listed(mask, jokers, rules), (bin(mask), jokers)
        part = rules.run_part[mask]
        assert bool(part) == bool(listed(mask, 0, rules)), bin(mask)
        reduced += part != mask
        reduced += any(parts[mask] != (mask,) for parts in rules.stretches.values())
        split += any(len(parts[mask]) > 1 for parts in rules.stretches.values())
    assert reduced > 100
    assert split > 10 or mode == "wrap"


def test_the_ranks_that_can_be_in_a_run() -> None:
    rules = solver_candidates._rules(Variant())  # runs of three, the ace high or low
    ranks = {rank: 1 << (rank - 1) for rank in range(1, 14)}
    # Q K A is a run; 3 4 are too few for one: without jokers, the part is the run's ranks.
    queen_king_ace = ranks[12] | ranks[13] | ranks[1]
    assert rules.run_part[queen_king_ace | ranks[3] | ranks[4]] == queen_king_ace
    # A 2 3 then 5: the ace is low here.
    assert rules.run_part[ranks[1] | ranks[2] | ranks[3] | ranks[5]] == ranks[1] | ranks[2] | ranks[3]
    # With one joker, 5 and 7 may share a run (5 JK 7), 10 alone may not.
    near = solver_candidates._stretch_table(rules.wrap, rules.lowest, rules.highest, 2, 2)
    assert near[ranks[5] | ranks[7] | ranks[10]] == (ranks[5] | ranks[7],)
    # K and A are neighbours above, A and 2 below: two stretches, the ace in both, lowest first.
    assert near[ranks[13] | ranks[1] | ranks[6]] == (ranks[13] | ranks[1],)
    assert near[ranks[13] | ranks[1] | ranks[2] | ranks[9] | ranks[10]] == (
        ranks[1] | ranks[2],
        ranks[9] | ranks[10],
        ranks[13] | ranks[1],
    )
    # A stretch of fewer ranks than a run needs with the jokers holds none.
    assert (
        solver_candidates._stretch_table(rules.wrap, rules.lowest, rules.highest, 2, 3)[ranks[5] | ranks[7]]
        == ()
    )


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def test_a_part_with_one_best_lay_is_read_off() -> None:
    # 7C is in the set of sevens and in the run 5C 6C 7C: the set lays more, and no other lay
    # ties with it, so it is read off without the search.
    problem = new_problem(cards("7C 7D 7H 5C 6C 9S"), solver._rules(Variant()), "value_left")
    best = solver._best_of_each_part(problem, problem.cands, problem.counts)
    assert best is not None
    assert [cand.naturals for cand in best] == [tuple(cards("7C 7D 7H"))]
    assert solver._best_lay(problem, (), 0, (), None) == solver.search(problem, 0, (), None)


def test_a_part_whose_best_lays_tie_is_left_to_the_search() -> None:
    # The four sevens and 4C 5C 6C lay the same cards as 7D 7H 7S and 4C 5C 6C 7C, for the same
    # points: the search keeps the first of them in its own order.
    hand = cards("7C 7D 7H 7S 4C 5C 6C")
    problem = new_problem(hand, solver._rules(Variant()), "value_left")
    assert solver._best_of_each_part(problem, problem.cands, problem.counts) is None
    assert solver._best_lay(problem, (), 0, (), None) == solver.search(problem, 0, (), None)
    # A card held twice in a part is left to the search too.
    twice = new_problem(cards("7C 7D 7H 5C 6C 7C"), solver._rules(Variant()), "value_left")
    assert solver._best_of_each_part(twice, twice.cands, twice.counts) is None


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_the_best_lay_of_each_part_is_the_searchs(objective: Objective) -> None:
    rng = random.Random(objective)
    by_parts = 0
    for _ in range(400):
        rules = variant(
            rng.choice([3, 4]),
            rng.choice(ACE_MODES),
            ace_value=rng.choice([1, 11]),
            set_maximum=rng.choice([3, 4]),
            set_suits=rng.choice(["distinct", "may_repeat"]),
        )
        pack = [card for card in pack_list(2, 0) if card % 13 < 9]  # nine ranks: melds share cards
        hand = rng.sample(pack, rng.randint(6, 14))
        problem = new_problem(hand, solver._rules(rules), objective)
        if not problem.cands:
            continue
        keep = rng.choice([0, 0, 1, 4])
        need = rng.choice([None, None, 0, 30, 51])
        assert solver._best_lay(problem, (), keep, (), need) == solver.search(problem, keep, (), need), (
            hand,
            rules,
            keep,
            need,
        )
        by_parts += solver._best_of_each_part(problem, problem.cands, problem.counts) is not None
    assert by_parts > 40


def test_an_opening_short_of_the_threshold_by_parts_is_left_to_the_search() -> None:
    # AC 2C 3C (the ace low, worth 1 in the run and 11 in hand) leaves the least in hand, but its
    # 6 points do not open at 8; 3C 3D 3H, which shares the 3C, does. The best lay read off by parts
    # is short, so the search answers, and finds the set: not "no opening".
    rules = Variant(opening_threshold=8, ace_low_value=1)
    hand = cards("AC 2C 3C 3D 3H 9S")
    problem = new_problem(hand, solver._rules(rules), "value_left")
    best = solver._best_of_each_part(problem, problem.cands, problem.counts)
    assert best is not None
    assert [cand.naturals for cand in best] == [tuple(cards("AC 2C 3C"))]
    plan = solver.best_opening(hand, rules)
    assert plan is not None
    assert plan.melds == (tuple(cards("3C 3D 3H")),)


def test_a_plan_is_the_frozen_dataclass_its_fields_make() -> None:
    # _plan makes a Plan through _PlanDraft, positionally: its parameters must be the fields.
    parameters = list(inspect.signature(solver._PlanDraft.__init__).parameters)[1:]
    assert parameters == [field.name for field in dataclasses.fields(solver.Plan)]
    plan = solver.solve(cards("7C 7D 7H 4S 5S 6S 9D"), Variant())
    assert type(plan) is solver.Plan
    assert plan == solver.Plan(*(getattr(plan, name) for name in parameters))
    assert hash(plan) == hash(solver.Plan(*(getattr(plan, name) for name in parameters)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.points = 1  # type: ignore[misc]


@pytest.mark.parametrize("mode", ACE_MODES)
def test_the_naturals_of_the_melds_without_jokers_are_read_from_the_suits(mode: AceInRuns) -> None:
    # The search bounds what a state can add once its jokers are spent by the naturals some
    # candidate without jokers holds; without a table, and unless a set may name a card twice,
    # it reads them from the hand's ranks per suit. They must be exactly those of the listed
    # candidates (fewer would cut lays that are there, more would only bound less tightly).
    rng = random.Random(mode)
    seen = 0
    for _ in range(300):
        rules = solver._rules(
            variant(
                rng.choice([3, 4]),
                mode,
                set_maximum=rng.choice([3, 4]),
                set_suits=rng.choice(["distinct", "may_repeat"]),
            )
        )
        hand = rng.sample(pack_list(2, 0), rng.randint(8, 16)) + [JOKER] * rng.randint(1, 2)
        problem = new_problem(hand, rules, "value_left")
        if problem.copies:
            continue  # a set may name a card twice: the search lists these naturals instead
        listed = 0
        for cand in problem.cands:
            if not cand.jokers:
                for code in cand.naturals:
                    listed |= 1 << code
        assert solver_candidates._free_naturals(problem.suit_ranks, rules) == listed, hand
        seen += listed != 0
    assert seen > 50


def test_with_two_jokers_every_natural_held_is_in_a_candidate() -> None:
    # The search lays out its state by the naturals some candidate holds; with two jokers or more
    # it takes every natural held, without reading the candidates.
    rng = random.Random(2)
    for _ in range(300):
        rules = variant(
            rng.choice([3, 4]),
            rng.choice(ACE_MODES),
            set_maximum=rng.choice([3, 4]),
            set_suits=rng.choice(["distinct", "may_repeat"]),
        )
        hand = rng.sample(pack_list(2, 0), rng.randint(1, 14)) + [JOKER] * rng.randint(2, 4)
        problem = new_problem(hand, solver._rules(rules), "value_left")
        listed = sorted({code for cand in problem.cands for code in cand.naturals})
        assert solver_search._codes(problem) == listed == sorted(set(hand) - {JOKER}), hand


# ---------------------------------------------------------------- the hands solve reads itself


def knob_variants(rng: random.Random) -> list[Variant]:
    """Every built-in variant, and variants of random knobs: packs, jokers, the ace in runs, runs of
    three or four, suits that may repeat in a set, sets of three or four, the last card's rule."""
    found = [load_variant(name) for name in builtin_variant_names()]
    for _ in range(24):
        knobs = {
            "decks": rng.randint(1, 4),
            "jokers": rng.choice([0, 0, 1, 2, 4]),
            "ace_in_runs": rng.choice(ACE_MODES),
            "run_minimum": rng.choice([3, 4]),
            "set_suits": rng.choice(["distinct", "may_repeat"]),
            "set_maximum": rng.choice([3, 4]),
            "going_out": rng.choice(["discard_required", "discard_optional", "meld_required"]),
            "ace_value": rng.choice([1, 11]),
        }
        found.append(Variant.model_validate({**Variant().model_dump(), **knobs, "max_players": 2}))
    return found


@pytest.mark.parametrize("seed", range(3))
def test_solve_reads_a_hand_as_the_general_path_does(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # solve reads a hand of distinct naturals itself and answers one without a meld at once: for every
    # built-in variant and random knobs, on hands of distinct cards, copies and jokers, its plan must be
    # the general path's (every hand read as perhaps melding), field for field; and where the quick test
    # says no meld, the candidates list none.
    rng = random.Random(seed)
    quick_answers = 0
    for rules in knob_variants(rng):
        tables = solver._rules(rules)
        pack = pack_list(rules.decks, rules.jokers)
        for _ in range(40):
            hand = rng.sample(pack, rng.choice([1, 2, 3, 5, 8, 10, 10, 13, 14]))
            table = random_table(rng, rules) if rng.random() < 0.2 else []
            asked = {"objective": rng.choice(OBJECTIVES), "opened": rng.random() < 0.7, "table": table}
            quick = solver.solve(hand, rules, **asked)  # type: ignore[arg-type]
            with monkeypatch.context() as general:
                read_as_melding(general)
                expected = solver.solve(hand, rules, **asked)  # type: ignore[arg-type]
            assert type(quick) is solver.Plan, hand
            assert (quick, repr(quick)) == (expected, repr(expected)), (rules, hand, asked)
            if solver_candidates._read_hand(hand, tables)[2]:
                assert not new_problem(hand, tables, "value_left").cands, (rules, hand)
                quick_answers += not table
    assert quick_answers > 100  # the quick answer is met often
