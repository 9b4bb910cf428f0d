"""Each knob's one interpreter (kalooki.rules) and its one wording table (kalooki.rulebook), knob by knob."""

from __future__ import annotations

import pytest

from kalooki import rules
from kalooki.candidates import candidate_melds
from kalooki.cards import format_cards, parse_card, parse_cards
from kalooki.rulebook import ACE, DRAW, GOING_OUT, ace_words, key_rules, render_rulebook
from kalooki.variant import Variant


@pytest.mark.parametrize(
    ("rule", "unopened", "opened"),
    [
        ("always", True, True),
        ("never", False, False),
        ("after_opening", False, True),
        ("before_opening", True, False),
        ("meld_at_once", True, True),
    ],
)
def test_who_may_take_the_discard(rule: str, unopened: bool, opened: bool) -> None:
    variant = Variant(discard_draw=rule)
    assert rules.may_take_discard(variant, opened=False) is unopened
    assert rules.may_take_discard(variant, opened=True) is opened
    assert rules.discard_must_be_laid(variant) is (rule == "meld_at_once")


def test_the_refusal_names_the_rule_and_the_way_out() -> None:
    top = parse_card("7H")
    assert rules.discard_refusal(Variant(discard_draw="never"), False, top).endswith(": draw stock")
    assert rules.discard_refusal(Variant(discard_draw="meld_at_once"), True, top) == (
        "you may take 7H only to lay it this turn, and you could not: draw stock"
    )


@pytest.mark.parametrize(
    ("rule", "opened", "refusal"),
    [
        ("never", False, "this variant never lets a player take the discard: draw stock"),
        ("never", True, "this variant never lets a player take the discard: draw stock"),
        ("after_opening", False, "only a player who has opened may take the discard: draw stock"),
        ("after_opening", True, "the discard pile is empty: draw stock"),
        ("before_opening", True, "a player who has opened may not take the discard: draw stock"),
        ("always", False, "the discard pile is empty: draw stock"),
        ("meld_at_once", False, "the discard pile is empty: draw stock"),
    ],
)
def test_an_empty_pile_is_named_only_where_the_rule_would_let_the_player_take_it(
    rule: str, opened: bool, refusal: str
) -> None:
    assert rules.discard_refusal(Variant(discard_draw=rule), opened, None) == refusal


@pytest.mark.parametrize(
    ("going_out", "keep"), [("discard_required", 1), ("discard_optional", 0), ("meld_required", 0)]
)
def test_a_card_is_kept_to_discard_only_where_the_last_card_must_be_discarded(
    going_out: str, keep: int
) -> None:
    assert rules.keep(Variant(going_out=going_out)) == keep


@pytest.mark.parametrize(
    ("ace_in_runs", "lowest", "highest", "line"),
    [
        ("high_or_low", 1, 14, [0, *range(1, 13), 0]),
        ("high", 2, 14, [*range(1, 13), 0]),
        ("low", 1, 13, [0, *range(1, 13)]),
        ("wrap", 1, 13, list(range(13))),
    ],
)
def test_the_run_frame_of_each_ace_rule(ace_in_runs: str, lowest: int, highest: int, line: list[int]) -> None:
    frame = rules.run_frame(Variant(ace_in_runs=ace_in_runs, run_minimum=4))
    assert (frame.lowest, frame.highest, frame.minimum, frame.line()) == (lowest, highest, 4, line)
    assert frame.wrap is (ace_in_runs == "wrap")
    if frame.wrap:
        assert frame.window_starts() == tuple(range(1, 14))
        assert frame.span_ok(12, 5)  # Q-K-A-2-3
    else:
        assert frame.window_starts() == tuple(range(lowest, highest - 4 + 2))
        longest = min(highest - lowest + 1, rules.RUN_MAX)
        assert frame.span_ok(highest - longest + 1, longest)
        assert not frame.span_ok(highest - longest + 2, longest)  # one past the highest position
        assert frame.span_ok(1, 3) is (lowest == 1)


# Where an ace may sit in a run, and where a run may start, read from each rule's wording: "high or
# low" puts the ace below the two (1) or above the king (14); "high" only above the king; "low" only
# below the two; "wrap" lets a run turn the corner (K-A-2), the ace read as the one after the king.
ACE_POSITIONS = {"high_or_low": (1, 14), "high": (14,), "low": (1,), "wrap": (1,)}
# A run of three cards starts at most at the queen (Q-K-A) without wrapping; it may start at any of
# the 13 ranks when runs wrap (K-A-2 starts at the king).
LOWS = {"high_or_low": range(1, 13), "high": range(1, 13), "low": range(1, 13), "wrap": range(1, 14)}
# The ranks (0 = ace ... 12 = king) a run walks through, low to high.
LINES = {
    "high_or_low": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0],
    "high": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0],
    "low": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
    "wrap": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
}
# Where a run of exactly the minimum length may start: from the lowest position up to the one whose
# run ends on the highest (14 with the ace above the king, else 13); any rank when runs wrap.
WINDOW_STARTS = {
    ("high_or_low", 3): tuple(range(1, 13)),
    ("high", 3): tuple(range(2, 13)),
    ("low", 3): tuple(range(1, 12)),
    ("wrap", 3): tuple(range(1, 14)),
    ("high_or_low", 5): tuple(range(1, 11)),
    ("high", 5): tuple(range(2, 11)),
    ("low", 5): tuple(range(1, 10)),
    ("wrap", 5): tuple(range(1, 14)),
    ("high_or_low", 13): (1, 2),
    ("high", 13): (2,),
    ("low", 13): (1,),
    ("wrap", 13): tuple(range(1, 14)),
}


@pytest.mark.parametrize(("ace_in_runs", "run_minimum"), sorted(WINDOW_STARTS))
def test_the_run_frame_literally(ace_in_runs: str, run_minimum: int) -> None:
    frame = rules.run_frame(Variant(ace_in_runs=ace_in_runs, run_minimum=run_minimum))
    assert frame.ace_positions == ACE_POSITIONS[ace_in_runs]
    assert frame.minimum == run_minimum
    assert frame.wrap is (ace_in_runs == "wrap")
    assert frame.lows == LOWS[ace_in_runs]
    assert frame.line() == LINES[ace_in_runs]
    assert frame.window_starts() == WINDOW_STARTS[ace_in_runs, run_minimum]


@pytest.mark.parametrize(
    ("ace_in_runs", "offered"),
    [
        ("high_or_low", {"AH 2H 3H", "QH KH AH"}),
        ("high", {"QH KH AH"}),
        ("low", {"AH 2H 3H"}),
        ("wrap", {"AH 2H 3H", "QH KH AH", "KH AH 2H"}),
    ],
)
def test_the_three_card_runs_with_an_ace_that_a_hand_is_offered(ace_in_runs: str, offered: set[str]) -> None:
    runs = {
        format_cards(meld)
        for meld in candidate_melds(parse_cards("QH KH AH 2H 3H"), Variant(ace_in_runs=ace_in_runs))
        if len(meld) == 3 and parse_card("AH") in meld
    }
    assert runs == offered


def test_going_kalooki() -> None:
    strict, lenient = Variant(kalooki_allows_building=False), Variant(kalooki_allows_building=True)
    assert rules.not_kalooki(strict, opened_before=True, built=False) == "opened_before"
    assert rules.not_kalooki(strict, opened_before=False, built=True) == "built"
    assert rules.not_kalooki(lenient, opened_before=False, built=True) is None
    assert rules.not_kalooki(strict, opened_before=False, built=False) is None


def test_jokers_on_the_table_and_the_aces_worth() -> None:
    assert not rules.may_release_jokers(Variant(joker_release_requires_opening=True), opened=False)
    assert rules.may_release_jokers(Variant(joker_release_requires_opening=False), opened=False)
    assert rules.most_ace_points(Variant(ace_value=11, ace_low_value=1)) == 11
    assert rules.most_ace_points(Variant(ace_value=1, ace_low_value=15)) == 15


def test_the_rulebook_and_the_table_word_each_rule_from_one_table() -> None:
    for rule, words in DRAW.items():
        variant = Variant(discard_draw=rule)
        assert words.rulebook in render_rulebook(variant)
        assert words.at_the_table in key_rules(variant)
    for rule in ACE:
        variant = Variant(ace_in_runs=rule)
        words = ace_words(variant)
        assert words.rulebook in render_rulebook(variant)
        assert any(words.at_the_table in line for line in key_rules(variant))
    for rule, words in GOING_OUT.items():
        variant = Variant(going_out=rule)
        assert words.rulebook in " ".join(render_rulebook(variant).split())
        assert words.at_the_table in key_rules(variant)


def test_the_table_says_a_set_may_repeat_suits_where_the_rulebook_does() -> None:
    books = Variant(set_suits="may_repeat", set_maximum=6)
    assert "its suits may repeat" in render_rulebook(books)
    assert any(line.startswith("Sets: 3-6 cards of one rank, suits may repeat.") for line in key_rules(books))
    assert any(
        line.startswith("Sets: 3-4 cards of one rank, all suits different.") for line in key_rules(Variant())
    )


def test_a_set_of_three_with_repeated_suits_is_three_cards_not_3_to_3() -> None:
    threes = Variant(set_suits="may_repeat", set_maximum=3)
    assert "A set is three cards of one rank; its suits may repeat" in render_rulebook(threes)
    assert any(line.startswith("Sets: 3 cards of one rank, suits may repeat.") for line in key_rules(threes))
    assert "3 to 3" not in render_rulebook(threes)


def test_a_sets_suits_differ_unless_they_may_repeat() -> None:
    assert rules.suits_must_differ(Variant(set_suits="distinct"))
    assert not rules.suits_must_differ(Variant(set_suits="may_repeat", set_maximum=6))
