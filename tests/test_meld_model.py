"""A table meld as a value: what each position stands for, what it is worth, how it is saved,
and when its jokers are held for good."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from kalooki.cards import JOKER, parse_card, parse_cards
from kalooki.melds import (
    MeldError,
    TableMeld,
    _read_meld,
    build,
    jokers_held_for_good,
    make_meld,
    run_span_ok,
    swap,
)
from kalooki.variant import Variant


def meld(text: str, **knobs: Any) -> TableMeld:
    return make_meld(parse_cards(text), Variant(**knobs))


def test_a_set_saves_with_no_suit() -> None:
    nines = meld("9D 9H JK")
    assert nines.to_json() == {"kind": "set", "cards": [21, 34, 52], "owner": 0, "rank": 9, "suit": -1}
    assert TableMeld.from_json(nines.to_json()) == nines
    assert TableMeld(kind="set", cards=nines.cards, owner=0, rank=9).suit == -1


def test_a_run_saves_its_first_rank_and_suit() -> None:
    run = make_meld(parse_cards("JK 5S 6S"), Variant(), owner=2)
    assert run.to_json() == {"kind": "run", "cards": [52, 43, 44], "owner": 2, "rank": 4, "suit": 3}
    assert TableMeld.from_json(run.to_json()) == run


@pytest.mark.parametrize(
    "damage",
    [{"kind": "pair"}, {"owner": "0"}, {"rank": "9"}, {"suit": None}, {"cards": "9D 9H JK"}],
)
def test_a_damaged_meld_is_not_read(damage: dict[str, object]) -> None:
    data = {**meld("9D 9H JK").to_json(), **damage}
    with pytest.raises(AssertionError):
        TableMeld.from_json(data)


def test_every_position_of_a_set_is_the_sets_rank() -> None:
    kings = meld("KC KD JK")
    assert [kings.position_rank(i) for i in range(3)] == [13, 13, 13]
    assert kings.high_rank() == 13
    assert kings.stands_for(2) == JOKER
    assert kings.stands_for(0) == parse_card("KC")
    assert kings.points(11) == 30
    assert meld("AC AD JK").points(11) == 33
    assert meld("AC AD JK").points(1) == 3


def test_run_positions_and_points() -> None:
    run = meld("JK 2H 3H JK")
    assert [run.position_rank(i) for i in range(4)] == [1, 2, 3, 4]
    assert [run.stands_for(i) for i in (0, 3)] == parse_cards("AH 4H")
    assert (run.high_rank(), run.points(11), run.points(1)) == (4, 11 + 2 + 3 + 4, 1 + 2 + 3 + 4)
    wrapped = meld("QH KH AH 2H", ace_in_runs="wrap")
    assert [wrapped.position_rank(i) for i in range(4)] == [12, 13, 14, 2]
    assert wrapped.high_rank() == 2
    assert wrapped.points(11) == 10 + 10 + 11 + 2


def test_missing_suits_of_a_set() -> None:
    assert meld("9D 9H JK").missing_suits() == [0, 3]
    assert meld("9C 9D 9H 9S").missing_suits() == []


@pytest.mark.parametrize(
    ("cards", "knobs", "held"),
    [
        ("9D 9H 9S", {}, False),
        ("9D 9H 9S JK", {}, True),
        ("9D 9H JK", {}, False),
        ("9D 9H JK", {"set_joker_release": "never"}, True),
        ("9D 9H JK", {"set_joker_release": "any_missing_suit"}, False),
        ("9D 9H 9S JK", {"set_joker_release": "any_missing_suit"}, True),
        ("9D JK JK", {}, False),
        ("7H JK 9H", {}, False),
        ("7H JK 9H", {"run_joker_release": "never"}, True),
        ("7H 8H 9H", {"run_joker_release": "never"}, False),
    ],
)
def test_jokers_held_for_good(cards: str, knobs: dict[str, Any], held: bool) -> None:
    assert jokers_held_for_good(meld(cards, **knobs), Variant(**knobs)) is held


@pytest.mark.parametrize(
    ("cards", "knobs", "why"),
    [
        ("9H 9S 9C JK", {}, "three suits"),
        # Books: four cards fill the set although only two suits are there.
        ("9H 9H 9S JK", {"set_suits": "may_repeat"}, "full"),
        # Three cards fill the set although a suit is missing.
        ("9H 9S JK", {"set_maximum": 3}, "full"),
    ],
)
def test_a_closed_sets_refusal_says_why_it_is_closed(cards: str, knobs: dict[str, Any], why: str) -> None:
    variant = Variant(**knobs)
    with pytest.raises(MeldError) as refused:
        swap(meld(cards, **knobs), parse_cards("9D"), variant)
    assert str(refused.value) == f"the set {cards} is closed: {why} and a joker, its joker can never be taken"


@pytest.mark.parametrize(
    ("ace_in_runs", "frames"),
    [
        (
            "high_or_low",
            {(1, 13): True, (2, 13): True, (1, 14): False, (0, 3): False, (12, 3): True, (13, 3): False},
        ),
        ("high", {(1, 3): False, (2, 3): True, (2, 13): True, (12, 3): True, (13, 2): True, (13, 3): False}),
        ("low", {(1, 3): True, (1, 13): True, (2, 13): False, (11, 3): True, (12, 3): False}),
        (
            "wrap",
            {(1, 13): True, (13, 3): True, (13, 13): True, (1, 14): False, (14, 3): False, (0, 3): False},
        ),
    ],
)
def test_run_frames(ace_in_runs: str, frames: dict[tuple[int, int], bool]) -> None:
    """Which positions ``low .. low+length-1`` may hold a run: 1 is the ace below the two, 14 above K."""
    variant = Variant(ace_in_runs=ace_in_runs)
    assert {frame: run_span_ok(*frame, variant) for frame in frames} == frames
    # A frame of one position is a frame; of none, not.
    assert (run_span_ok(5, 1, variant), run_span_ok(5, 0, variant)) == (True, False)


T = TypeVar("T")


def verdict(function: Callable[..., T], *args: Any, **kwargs: Any) -> T | str:
    """What ``function(*args, **kwargs)`` returns, or its refusal's text: a verdict to compare."""
    try:
        return function(*args, **kwargs)
    except MeldError as error:
        return str(error)


@pytest.mark.parametrize(
    "text",
    [
        "7H 7S 7D",
        "7H 7S JK",
        "5S 6S 7S 8S",
        "JK 5S 6S",
        "QH KH AH",
        "KH AH 2H",
        "7H 7H 7S",
        "7H 8S 9D",
        "7H 7S",
    ],
)
def test_a_remembered_verdict_is_the_reading_itself(text: str) -> None:
    # make_meld remembers its verdict per variant: a second reading, by another seat or under other
    # knobs, must be what reading afresh gives.
    cards = parse_cards(text)
    for knobs in ({}, {"set_suits": "may_repeat"}, {"ace_in_runs": "wrap"}, {"set_maximum": 3}):
        variant = Variant(**knobs)
        readings = [verdict(make_meld, cards, variant, owner=owner) for owner in (0, 2, 0)]
        fresh = verdict(_read_meld, tuple(cards), variant, None)
        if isinstance(fresh, str):
            assert readings == [fresh] * 3
        else:
            assert readings == [fresh, dataclasses.replace(fresh, owner=2), fresh]


BUILDS = [
    ("5S 6S 7S", "8S", None),
    ("5S 6S 7S", "4S", None),
    ("5S 6S 7S", "3S 4S", "low"),
    ("5S 6S 7S", "8S", "low"),
    ("5S 6S 7S", "8H", None),
    ("QH KH AH", "JH", None),
    ("QH KH AH", "2H", "high"),
    ("JK 5S 6S", "JK", "high"),
    ("7H 7S 7D", "7C", None),
    ("7H 7S 7D", "7H", None),
    ("7H 7S 7D", "8C", None),
    ("7H 7S JK", "7C", None),
    ("7H 7S JK", "7D 7C", None),
    ("7H 7S 7D", "7C", "high"),
]


@pytest.mark.parametrize(("laid", "added", "end"), BUILDS)
def test_a_remembered_build_is_the_build_itself(laid: str, added: str, end: Any) -> None:
    # build remembers its verdict per variant: asked again for a meld of the same cards (another
    # owner), the answer is a fresh variant's first answer, with the asking meld's owner.
    cards = parse_cards(added)
    for knobs in ({}, {"set_suits": "may_repeat"}, {"ace_in_runs": "wrap"}, {"set_maximum": 3}):
        remembered = Variant(**knobs)
        laid_meld = make_meld(parse_cards(laid), remembered)
        answers = [
            verdict(build, dataclasses.replace(laid_meld, owner=owner), cards, remembered, end)
            for owner in (0, 2, 0)
        ]
        fresh = verdict(build, laid_meld, cards, Variant(**knobs), end)
        if isinstance(fresh, str):
            assert answers == [fresh] * 3
        else:
            assert answers == [fresh, dataclasses.replace(fresh, owner=2), fresh]


def test_an_ace_below_the_two_is_worth_the_low_value_and_every_other_ace_the_ace_value() -> None:
    variant = Variant(ace_value=15, ace_low_value=1)
    worth = {
        text: make_meld(parse_cards(text), variant).worth(variant)
        for text in ("AC 2C 3C", "AC JK 3C", "QC KC AC", "AC AD AH")
    }
    assert worth == {"AC 2C 3C": 6, "AC JK 3C": 6, "QC KC AC": 35, "AC AD AH": 45}


@pytest.mark.parametrize(
    "knobs", [{}, {"ace_value": 1}, {"ace_value": 15, "ace_low_value": 1}, {"ace_in_runs": "wrap"}]
)
def test_a_remembered_worth_is_the_points(knobs: dict[str, Any]) -> None:
    # worth remembers a meld's points by kind, first rank and length: every meld of those is worth them.
    variant = Variant(**knobs)
    melds = [TableMeld("set", (JOKER,) * length, 0, rank) for rank in range(1, 14) for length in (3, 4)]
    melds += [
        TableMeld("run", (JOKER,) * length, 0, rank, 0) for rank in range(1, 15) for length in range(3, 14)
    ]
    for table_meld in melds * 2:
        assert table_meld.worth(variant) == table_meld.points(variant.ace_value, variant.low_ace_value)


SWAPS = [
    ("5S JK 7S", "6S"),
    ("5S JK 7S", "6H"),
    ("5S JK JK 8S", "6S 7S"),
    ("5S JK JK 8S", "7S"),
    ("7H 7S JK", "7D"),
    ("7H 7S JK", "7C"),
    ("7H 7S JK", "7H"),
    ("7H 7S JK JK", "7D 7C"),
    ("7H 7S 7D JK", "7C"),
    ("7H 7S 7D", "7C"),
    ("5S JK 7S", "JK"),
]


@pytest.mark.parametrize(("laid", "put_in"), SWAPS)
def test_a_remembered_swap_is_the_swap_itself(laid: str, put_in: str) -> None:
    # swap remembers its verdict per variant, as build does: the same answer for a meld of the same
    # cards, with the asking meld's owner.
    cards = parse_cards(put_in)
    for knobs in ({}, {"set_suits": "may_repeat"}, {"set_joker_release": "all_missing_suits"}):
        remembered = Variant(**knobs)
        laid_meld = make_meld(parse_cards(laid), remembered)
        answers = [
            verdict(swap, dataclasses.replace(laid_meld, owner=owner), cards, remembered)
            for owner in (0, 2, 0)
        ]
        fresh = verdict(swap, laid_meld, cards, Variant(**knobs))
        if isinstance(fresh, str):
            assert answers == [fresh] * 3
        else:
            moved = (dataclasses.replace(fresh[0], owner=2), fresh[1])
            assert answers == [fresh, moved, fresh]
