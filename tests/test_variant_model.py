"""The variant model: classic defaults, strictness, and the cross-field rules."""

from __future__ import annotations

import typing

import pytest
from pydantic import ValidationError

from kalooki.variant import CLASSIC, DEFER_CROSS_FIELD, KNOB_NAMES, Variant
from kalooki.variant_checks import (
    CROSS_FIELD_INVOLVES,
    MELD_ROOM_INVOLVES,
    SET_ROOM_INVOLVES,
    cross_field_problems,
)

# The issue's table: key -> classic default. Users and other tools rely on these names.
ISSUE_DEFAULTS: dict[str, object] = {
    "decks": 2,
    "jokers": 2,
    "hand_size": 13,
    "min_players": 2,
    "max_players": 4,
    "ace_value": 11,
    "joker_penalty": 25,
    "run_minimum": 3,
    "ace_in_runs": "high_or_low",
    "opening_threshold": 51,
    "discard_draw": "always",
    # The issue named all_missing_suits, read then to free a joker for every missing suit past four
    # cards; the online room's text frees one from a three-card set only ("Except in the cases ...
    # described above, melds ... can never be rearranged"): classic follows it, under a new value, and
    # all_missing_suits plays as it always has (saves and logs that name it replay unchanged).
    "set_joker_release": "three_card_set",
    "run_joker_release": "exact_card",
    "joker_release_requires_opening": True,
    "released_joker_must_be_melded": False,
    "going_out": "discard_required",
    "kalooki_bonus": 25,
    "kalooki_allows_building": False,
    "scoring": "penalty",
    "goal_score": 150,
    "elimination": False,
    "stock_exhausted": "reshuffle_all",
}

ISSUE_ENUMS: dict[str, set[str]] = {
    "ace_in_runs": {"high_or_low", "high", "low", "wrap"},
    "discard_draw": {"always", "never", "after_opening", "meld_at_once"},
    "set_joker_release": {"all_missing_suits", "any_missing_suit", "never"},
    "run_joker_release": {"exact_card", "never"},
    "going_out": {"discard_required", "discard_optional"},
    "scoring": {"penalty", "winner_collects"},
    "stock_exhausted": {"reshuffle_all", "reshuffle_keep_top", "end_hand"},
}


def test_classic_defaults_match_the_issue() -> None:
    for key, value in ISSUE_DEFAULTS.items():
        assert getattr(CLASSIC, key) == value, key
    assert Variant() == CLASSIC
    assert set(ISSUE_DEFAULTS) <= set(KNOB_NAMES)
    assert "name" not in KNOB_NAMES
    assert "extends" not in KNOB_NAMES


def test_enum_values_include_the_issue_names() -> None:
    for key, values in ISSUE_ENUMS.items():
        annotation = Variant.model_fields[key].annotation
        assert values <= set(typing.get_args(annotation)), key


def test_every_field_has_a_description() -> None:
    for name, info in Variant.model_fields.items():
        assert info.description, name


def test_frozen_and_closed() -> None:
    with pytest.raises(ValidationError):
        CLASSIC.decks = 3  # type: ignore[misc]
    with pytest.raises(ValidationError, match="extra"):
        Variant.model_validate({"opening_treshold": 40})


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("decks", True),
        ("decks", "2"),
        ("decks", 2.5),
        ("elimination", "yes"),
        ("elimination", 1),
        ("name", 5),
        ("scoring", "Penalty"),
        ("extends", ""),
        ("extends", ["classic", ""]),
    ],
)
def test_strict_types(key: str, value: object) -> None:
    with pytest.raises(ValidationError):
        Variant.model_validate({key: value})


def test_a_whole_number_float_is_that_integer() -> None:
    # As in JSON Schema (and so in editors): 2.0 is the integer 2.
    decks = Variant.model_validate({"decks": 2.0}).decks
    assert decks == 2
    assert type(decks) is int


@pytest.mark.parametrize(
    ("key", "low", "high"),
    [
        ("decks", 1, 4),
        ("jokers", 0, 8),
        ("hand_size", 1, 26),
        ("min_players", 2, 8),
        ("max_players", 2, 8),
        ("ace_value", 0, 1000),
        ("joker_penalty", 0, 1000),
        ("run_minimum", 3, 13),
        ("opening_threshold", 0, 1000),
        ("kalooki_bonus", 0, 1000),
        ("goal_score", 1, 1_000_000),
    ],
)
def test_ranges(key: str, low: int, high: int | None) -> None:
    # Every integer knob is bounded above too: goal_score: 99999999999999999999999999 is a typo.
    context = {DEFER_CROSS_FIELD: True}
    Variant.model_validate({key: low}, context=context)
    with pytest.raises(ValidationError):
        Variant.model_validate({key: low - 1}, context=context)
    if high is not None:
        Variant.model_validate({key: high}, context=context)
        with pytest.raises(ValidationError):
            Variant.model_validate({key: high + 1}, context=context)


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ({"min_players": 5, "max_players": 3}, "min_players", ["min_players (5)", "max_players (3)"]),
        ({"decks": 1, "jokers": 0}, "hand_size", ["4 * 13 + 1 = 53", "1 * 52 + 0 = 52"]),
        ({"max_players": 8, "jokers": 0}, "hand_size", ["105", "104"]),
        ({"scoring": "winner_collects", "elimination": True}, "elimination", ["scoring: penalty"]),
        ({"hand_size": 7, "opening_threshold": 100}, "opening_threshold", ["7 cards", "11 each"]),
        # No meld fits: the hand and the card drawn, less the card kept to discard, are fewer than 3.
        ({"hand_size": 2, "opening_threshold": 0}, "hand_size", ["holds 3 cards", "kept to discard"]),
        # Where no meld fits, whether the opening can be reached is not said as well.
        ({"hand_size": 1}, "hand_size", ["hand_size (1) leaves no meld to lay"]),
        (
            {"hand_size": 1, "going_out": "discard_optional", "opening_threshold": 0},
            "hand_size",
            ["holds 2 cards, and a meld needs at least 3"],
        ),
        # meld_required may not leave the one card it could not discard: a meld must take all 4.
        (
            {"hand_size": 3, "going_out": "meld_required", "set_maximum": 3, "run_minimum": 5},
            "hand_size",
            ["must hold all 4", "at most 3 (set_maximum)", "at least 5 (run_minimum)"],
        ),
        # Where a set's jokers are freed only past set_maximum, a maximum no set can pass frees none.
        (
            {"set_suits": "may_repeat", "set_maximum": 11},
            "set_maximum",
            [
                "set_maximum (11) can never be reached: with set_suits: may_repeat, 2 decks and 2 jokers "
                "a set holds at most 10 cards"
            ],
        ),
    ],
)
def test_cross_field_rules(data: dict[str, object], field: str, words: list[str]) -> None:
    variant = Variant.model_validate(data, context={DEFER_CROSS_FIELD: True})
    problems = cross_field_problems(variant)
    assert [problem.field for problem in problems] == [field]
    for word in words:
        assert word in problems[0].message
    assert field in CROSS_FIELD_INVOLVES
    assert problems[0].involves[0] == field
    # Without the loader's context the model refuses the combination itself.
    with pytest.raises(ValidationError, match=field):
        Variant.model_validate(data)


def test_cross_field_boundaries() -> None:
    # Exactly fits: 8 * 13 + 1 = 105 <= 2 * 52 + 1 (eight would have no stock: seven play at most).
    assert not cross_field_problems(Variant(max_players=8, jokers=1))
    assert cross_field_problems(
        Variant.model_validate(
            {"min_players": 8, "max_players": 8, "jokers": 1}, context={DEFER_CROSS_FIELD: True}
        )
    )
    assert not cross_field_problems(Variant(min_players=4, max_players=4))
    # 13 cards: ten aces (eight and both jokers) in sets of 3, 3 and 4 and three kings are 140; not 13
    # cards at 11 (143), as the bound once read. discard_optional allows one more card: four kings, 150.
    assert not cross_field_problems(Variant(opening_threshold=140))
    assert cross_field_problems(
        Variant.model_validate({"opening_threshold": 141}, context={DEFER_CROSS_FIELD: True})
    )
    assert not cross_field_problems(Variant(opening_threshold=150, going_out="discard_optional"))
    # meld_required lays the whole hand too: the same one card more.
    assert not cross_field_problems(Variant(opening_threshold=150, going_out="meld_required"))
    assert cross_field_problems(
        Variant.model_validate(
            {"opening_threshold": 151, "going_out": "meld_required"}, context={DEFER_CROSS_FIELD: True}
        )
    )


def test_a_set_may_hold_every_card_of_its_rank_and_every_joker() -> None:
    assert not cross_field_problems(Variant(set_suits="may_repeat", set_maximum=10))
    assert not cross_field_problems(Variant(set_suits="may_repeat", set_maximum=20, decks=4, jokers=4))
    (problem,) = cross_field_problems(
        Variant.model_validate(
            {"set_suits": "may_repeat", "set_maximum": 6, "decks": 1, "jokers": 1, "max_players": 3},
            context={DEFER_CROSS_FIELD: True},
        )
    )
    assert (
        problem.message
        == "set_maximum (6) can never be reached: with set_suits: may_repeat, 1 deck and 1 joker a set holds "
        "at most 5 cards"
    )
    assert problem.involves == ("set_maximum", "set_suits", "decks", "jokers")


def test_an_opening_under_turn_discard_optional_may_take_a_hand_grown_to_the_whole_pack() -> None:
    # A turn may end without a discard: the hand keeps every card drawn, so 13 cards are no bound; the
    # whole pack is, 2 * 380 + 2 jokers at 11.
    assert not cross_field_problems(Variant(opening_threshold=782, turn_discard="optional"))
    # One pack and no jokers: every card of it laid is 4 * (11 + 2 + ... + 9 + 4 * 10) = 380 points, not
    # 52 cards at an ace's 11 (572), as the bound once read.
    small = {"decks": 1, "jokers": 0, "max_players": 2, "turn_discard": "optional"}
    assert not cross_field_problems(Variant(opening_threshold=380, **small))
    (problem,) = cross_field_problems(
        Variant.model_validate({"opening_threshold": 381, **small}, context={DEFER_CROSS_FIELD: True})
    )
    assert problem.field == "opening_threshold"
    assert problem.message == (
        "opening_threshold (381) can never be reached: first melds of at most 52 cards (the whole "
        "pack: under turn_discard: optional a hand keeps what it draws) are worth at most 380, in sets "
        "of at most 4 cards and runs of at least 3 (an ace at either end), an ace worth 11"
    )
    (loose,) = cross_field_problems(
        Variant.model_validate({"opening_threshold": 573, **small}, context={DEFER_CROSS_FIELD: True})
    )
    assert loose.message == (
        "opening_threshold (573) can never be reached: a first meld holds at most 52 cards (the whole "
        "pack: under turn_discard: optional a hand keeps what it draws) worth at most 11 each"
    )
    assert "turn_discard" in problem.involves


def _meld_fits(**knobs: object) -> bool:
    variant = Variant.model_validate({"opening_threshold": 0, **knobs}, context={DEFER_CROSS_FIELD: True})
    return not cross_field_problems(variant)


def test_a_meld_fits_at_the_boundaries() -> None:
    # 3 cards after the draw: laid whole where the last card may be melded, not where it is discarded.
    assert not _meld_fits(hand_size=2)
    assert _meld_fits(hand_size=3)
    assert _meld_fits(hand_size=2, going_out="discard_optional")
    assert _meld_fits(hand_size=2, going_out="meld_required")
    assert not _meld_fits(hand_size=1, going_out="meld_required")
    # A turn that may end without a discard keeps its card: the hand grows until a meld fits.
    assert _meld_fits(hand_size=1, turn_discard="optional")
    # meld_required with 4 cards after the draw: a meld of four, a set's or a run's, or none.
    meld_required: dict[str, object] = {"hand_size": 3, "going_out": "meld_required"}
    assert not _meld_fits(**meld_required, set_maximum=3, run_minimum=5)
    assert _meld_fits(**meld_required, set_maximum=3, run_minimum=4)
    assert _meld_fits(**meld_required, set_maximum=4, run_minimum=5)
    assert _meld_fits(hand_size=4, going_out="meld_required", set_maximum=3, run_minimum=5)


def test_involved_fields_are_fields() -> None:
    for fields in (*CROSS_FIELD_INVOLVES.values(), MELD_ROOM_INVOLVES, SET_ROOM_INVOLVES):
        assert set(fields) <= set(KNOB_NAMES)


def test_pack_size() -> None:
    assert CLASSIC.pack_size == 106
