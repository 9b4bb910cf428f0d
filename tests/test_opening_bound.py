"""The most a first meld of so many cards can be worth, which ``validate`` holds ``opening_threshold`` to.

The bound must never be below what a hand can lay (a threshold a hand reaches refused would be a rule
the tool forbids wrongly), and where the best melds do not contend for one card it is exact: a hand
laying it is shown for each case below."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kalooki.cards import JOKER, Card, make_card, parse_cards
from kalooki.opening_bound import most_opening_points
from kalooki.solver import solve
from kalooki.variant import DEFER_CROSS_FIELD, Variant
from kalooki.variant_checks import cross_field_problems


def variant(**knobs: object) -> Variant:
    return Variant.model_validate({"opening_threshold": 0, **knobs}, context={DEFER_CROSS_FIELD: True})


def most_laid(hand: list[Card], rules: Variant) -> int:
    return solve(hand, rules, objective="points", opened=True).points


@pytest.mark.parametrize(
    ("knobs", "hand", "most"),
    [
        # Seven cards, sets of at most three: A-A-A and J-Q-K-A, not seven cards at 11 (77).
        ({"hand_size": 7, "set_maximum": 3}, "AS AH AD JC QC KC AC", 74),
        # Four cards, sets of three, runs of four: the best is one run.
        ({"hand_size": 4, "set_maximum": 3, "run_minimum": 4}, "JH QH KH AH", 41),
        # The same with a low ace worth 1: the ace above the king still counts 11.
        ({"hand_size": 4, "set_maximum": 3, "run_minimum": 4, "ace_low_value": 1}, "JH QH KH AH", 41),
        # Classic's thirteen: ten aces (eight and both jokers) in sets, and three kings.
        ({}, "AS AH AD AC AS AH AD AC JK JK KS KH KD", 140),
        # Aces low and worth 1: tens and faces win.
        ({"ace_value": 1, "ace_in_runs": "low", "hand_size": 6}, "TS TH TD KC KH KD", 60),
        # One pack, no jokers: four aces at most, then a run to the ace.
        ({"decks": 1, "jokers": 0, "hand_size": 8}, "AS AH AD AC TC JC QC KC", 84),
        # One pack, no jokers, sets of three: A-A-A takes three of the four aces, J-Q-K-A the fourth.
        ({"decks": 1, "jokers": 0, "hand_size": 7, "set_maximum": 3}, "AS AH AD JC QC KC AC", 74),
        # One pack, no jokers, runs of five: A-A-A-A with K-K-K (74), and with 9-T-J-Q-K (93), not
        # T-J-Q-K-A, which would take a fifth ace.
        ({"decks": 1, "jokers": 0, "hand_size": 7, "run_minimum": 5}, "AS AH AD AC KS KH KD", 74),
        ({"decks": 1, "jokers": 0, "hand_size": 9, "run_minimum": 5}, "AS AH AD AC 9C TC JC QC KC", 93),
        # A low ace worth 30: A-2-3 (35) beats K-K-K.
        ({"ace_value": 1, "ace_low_value": 30, "ace_in_runs": "low", "hand_size": 3}, "AC 2C 3C", 35),
        # Aces worth 1, runs of five (9-T-J-Q-K is 49): the four sets of tens and faces, kings too.
        (
            {
                "decks": 1,
                "jokers": 0,
                "ace_value": 1,
                "ace_in_runs": "low",
                "run_minimum": 5,
                "hand_size": 16,
                "max_players": 2,
            },
            "TS TH TD TC JS JH JD JC QS QH QD QC KS KH KD KC",
            160,
        ),
        # A joker at its own 25: classic's thirteen with both jokers at 25, not as aces (11).
        ({"opening_joker_value": "penalty"}, "AS AH AD AC AS AH AD AC JK JK KS KH KD", 168),
        # Three cards: an ace and both jokers, a set at 11 + 50.
        ({"opening_joker_value": "penalty", "hand_size": 3}, "AS JK JK", 61),
        # A joker worth 1: the best laid holds none (one pack: four aces and a run to the king).
        (
            {"opening_joker_value": "penalty", "joker_penalty": 1, "decks": 1, "hand_size": 8},
            "AS AH AD AC TC JC QC KC",
            84,
        ),
        # A joker worth 5, one pack: four aces need none (44), where a set of more than the pack's four of a
        # rank must hold one.
        (
            {"opening_joker_value": "penalty", "joker_penalty": 5, "decks": 1, "hand_size": 4},
            "AS AH AD AC",
            44,
        ),
        (
            {
                "opening_joker_value": "penalty",
                "joker_penalty": 5,
                "decks": 1,
                "set_maximum": 5,
                "set_suits": "may_repeat",
                "hand_size": 5,
            },
            "TC JC QC KC AC",
            51,
        ),
        # Sets of three, runs of five: A-A-A and K-K-K hold no joker worth 5.
        (
            {
                "opening_joker_value": "penalty",
                "joker_penalty": 5,
                "decks": 1,
                "set_maximum": 3,
                "run_minimum": 5,
                "hand_size": 6,
            },
            "AS AH AD KS KH KD",
            63,
        ),
        # Runs: a joker worth 5 in none of them; one worth 25 in the two cheapest places, not all four.
        (
            {
                "opening_joker_value": "penalty",
                "joker_penalty": 5,
                "hand_size": 4,
                "set_maximum": 3,
                "run_minimum": 4,
            },
            "JH QH KH AH",
            41,
        ),
        (
            {"opening_joker_value": "penalty", "hand_size": 4, "set_maximum": 3, "run_minimum": 4},
            "JK JK KH AH",
            71,
        ),
        # Three jokers at 25 are no meld: a set keeps a natural.
        ({"opening_joker_value": "penalty", "hand_size": 3, "jokers": 3}, "AS JK JK", 61),
        # Runs turning the corner (K-A-2) are worth no more than those up to the ace.
        (
            {"ace_in_runs": "wrap", "decks": 1, "jokers": 0, "set_maximum": 3, "hand_size": 4},
            "JC QC KC AC",
            41,
        ),
        (
            {
                "ace_in_runs": "wrap",
                "decks": 1,
                "jokers": 0,
                "set_maximum": 3,
                "run_minimum": 4,
                "hand_size": 9,
                "max_players": 2,
            },
            "AS AH AD KS KH KD QS QH QD",
            93,
        ),
        (
            {
                "ace_in_runs": "wrap",
                "decks": 1,
                "set_maximum": 3,
                "opening_joker_value": "penalty",
                "hand_size": 4,
            },
            "JK JK KC AC",
            71,
        ),
        # One pack, sets of three: A-A-A and two runs, one with the fourth ace (Q-K-A and J-Q-K), 94.
        ({"decks": 1, "jokers": 0, "set_maximum": 3, "hand_size": 9}, "AS AH AD QC KC AC JD QD KD", 94),
        # Aces worth 50 only below the two: A-A-A, A-2-3 with the fourth ace, and K-K-K. An ace low in a run
        # is one of the pack's four.
        (
            {
                "decks": 1,
                "jokers": 0,
                "set_maximum": 3,
                "ace_value": 50,
                "ace_in_runs": "low",
                "hand_size": 9,
            },
            "AS AH AD AC 2C 3C KS KH KD",
            235,
        ),
        # Aces only low: a run to the king holds no ace, so A-A-A and two of T-J-Q-K fit one pack (113).
        (
            {"decks": 1, "jokers": 0, "set_maximum": 3, "ace_in_runs": "low", "hand_size": 11},
            "AS AH AD TC JC QC KC TD JD QD KD",
            113,
        ),
        # Runs of thirteen, aces worth 50 and only high: A-A-A and the run from the two to the ace, which
        # holds one ace (its two is no ace), beat five sets (270); under wrap no run turning the corner is
        # worth more than A to K.
        (
            {
                "decks": 1,
                "jokers": 0,
                "set_maximum": 3,
                "run_minimum": 13,
                "ace_value": 50,
                "ace_in_runs": "high",
                "hand_size": 16,
                "max_players": 2,
            },
            "AS AH AD 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
            284,
        ),
        (
            {
                "decks": 1,
                "jokers": 0,
                "set_maximum": 3,
                "run_minimum": 13,
                "ace_value": 50,
                "ace_in_runs": "wrap",
                "hand_size": 16,
                "max_players": 2,
            },
            "AS AH AD AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
            284,
        ),
        # Two packs, sets of three, runs of four, an ace worth 35 below the two: three of A-2-3-4 (44 each)
        # and A-A-A hold six of the eight aces (six aces in sets would leave two for runs), with K-K-K (195).
        (
            {
                "decks": 2,
                "jokers": 0,
                "set_maximum": 3,
                "run_minimum": 4,
                "ace_in_runs": "low",
                "ace_low_value": 35,
                "hand_size": 18,
            },
            "AC 2C 3C 4C AD 2D 3D 4D AH 2H 3H 4H AS AH AD KS KH KD",
            195,
        ),
    ],
)
def test_the_bound_is_laid_by_a_hand(knobs: dict[str, object], hand: str, most: int) -> None:
    rules = variant(**knobs)
    cards = parse_cards(hand)
    assert most_opening_points(rules, len(cards)) == most
    assert most_laid(cards, rules) == most


def test_validate_refuses_a_threshold_over_the_bound_and_names_the_melds_that_bound_it() -> None:
    # validate took 75 to 77 here: seven cards at 11 each bounded it.
    reached = variant(hand_size=7, set_maximum=3, opening_threshold=74)
    assert cross_field_problems(reached) == []
    (problem,) = cross_field_problems(variant(hand_size=7, set_maximum=3, opening_threshold=75))
    assert problem.field == "opening_threshold"
    assert problem.message == (
        "opening_threshold (75) can never be reached: first melds of at most 7 cards (hand_size 7) are "
        "worth at most 74, in sets of at most 3 cards and runs of at least 3 (an ace at either end), an "
        "ace worth 11"
    )
    assert {"set_maximum", "run_minimum", "ace_in_runs", "decks", "jokers"} <= set(problem.involves)
    # A low ace's own worth bounds it too, and is named.
    low = variant(ace_value=1, ace_low_value=20, ace_in_runs="low", hand_size=3, going_out="discard_optional")
    assert most_opening_points(low, 4) == 40
    (problem,) = cross_field_problems(variant(**{**low.model_dump(), "opening_threshold": 41}))
    assert problem.message.endswith("(an ace only below the two), an ace worth 1 (20 below the two)")


def test_validate_counts_a_card_at_a_ten_at_most_where_aces_are_worth_1() -> None:
    # A ten or a face is then the dearest card, and a joker stands for one: three cards reach K-K-K's 30.
    assert (
        cross_field_problems(variant(ace_value=1, ace_in_runs="low", hand_size=3, opening_threshold=30)) == []
    )
    (problem,) = cross_field_problems(
        variant(ace_value=1, ace_in_runs="low", hand_size=3, opening_threshold=31)
    )
    assert problem.message == (
        "opening_threshold (31) can never be reached: a first meld holds at most 3 cards (hand_size 3) worth "
        "at most 10 each"
    )


def test_a_hand_grown_to_the_whole_pack_is_bounded_by_the_pack_a_joker_as_its_dearest_card() -> None:
    # Aces worth 1: the dearest card is a ten, and each joker stands for one. Two packs' naturals are 680.
    rules = variant(ace_value=1, ace_in_runs="low", turn_discard="optional", opening_threshold=700)
    assert cross_field_problems(rules) == []
    (problem,) = cross_field_problems(variant(**{**rules.model_dump(), "opening_threshold": 701}))
    assert problem.message.startswith(
        "opening_threshold (701) can never be reached: first melds of at most 106 cards (the whole pack: "
        "under turn_discard: optional a hand keeps what it draws) are worth at most 700,"
    )
    # Aces worth 0 add nothing: the two packs' other naturals (672) and the jokers as tens.
    worthless = variant(ace_value=0, turn_discard="optional")
    assert most_opening_points(worthless, worthless.pack_size) == 692


def test_the_whole_pack_laid_in_sets_of_three_and_a_run_holds_a_set_of_twos() -> None:
    # One pack, sets of three, runs of thirteen, aces worth 50 and 1 below the two: a set of three of
    # every rank (402, twos among them) and A to K of the fourth suit (85) lay all 52 cards.
    pack = {"decks": 1, "jokers": 0, "turn_discard": "optional", "max_players": 2}
    melds = {"set_maximum": 3, "run_minimum": 13, "ace_in_runs": "low", "ace_value": 50, "ace_low_value": 1}
    assert cross_field_problems(variant(**pack, **melds, opening_threshold=487)) == []
    (problem,) = cross_field_problems(variant(**pack, **melds, opening_threshold=488))
    assert "are worth at most 487," in problem.message


HIGH = [make_card(rank, suit) for rank in (1, 9, 10, 11, 12, 13) for suit in range(4)]
"""Aces, nines, tens and faces: the cards a hand near the bound holds."""


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([1, 2]),
    st.integers(0, 3),
    st.sampled_from([3, 4, 5, 6]),
    st.sampled_from([3, 4, 5]),
    st.sampled_from(["high", "low", "high_or_low", "wrap"]),
    st.sampled_from([(11, None), (1, None), (15, 1), (11, 1)]),
    st.sampled_from([None, 5, 25]),
    st.data(),
)
def test_no_hand_lays_more_than_the_bound(
    decks: int,
    jokers: int,
    set_maximum: int,
    run_minimum: int,
    ace_in_runs: str,
    aces: tuple[int, int | None],
    joker_value: int | None,
    data: st.DataObject,
) -> None:
    """``joker_value``: a joker counted as the card it stands for (None), or at its own points."""
    ace_value, ace_low_value = aces
    if ace_low_value is not None and ace_in_runs not in ("high_or_low", "low"):
        ace_low_value = None
    rules = variant(
        decks=decks,
        jokers=jokers,
        set_maximum=set_maximum,
        set_suits="may_repeat" if set_maximum > 4 else "distinct",
        run_minimum=run_minimum,
        ace_in_runs=ace_in_runs,
        ace_value=ace_value,
        ace_low_value=ace_low_value,
        max_players=2,
        opening_joker_value="represented" if joker_value is None else "penalty",
        joker_penalty=25 if joker_value is None else joker_value,
    )
    pool = sorted(HIGH * decks) + [JOKER] * jokers
    picked = data.draw(st.lists(st.integers(0, len(pool) - 1), min_size=3, max_size=9, unique=True))
    hand = [pool[index] for index in picked]
    assert most_laid(hand, rules) <= most_opening_points(rules, len(hand))
