"""Joker release, knob by knob: set_joker_release, run_joker_release, joker_release_requires_opening,
released_joker_must_be_melded. The scenarios are the seed texts' own examples:

- 000/003: "10-10-10-Joker ... from which the Joker can never be taken" once one missing suit is built;
  both missing suits free the joker; two missing suits added to a two-joker set free one joker.
- 001: a set's joker goes to any card of a missing suit, but not from "3 cards of different suits, plus a
  Joker"; "5h-6h-J-8h needs a 7h to steal the Joker".
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest
from rules_helpers import assert_illegal, hand_text, new_game, play, table_text

from kalooki.cards import JOKER, parse_cards
from kalooki.engine import Game, IllegalMoveError
from kalooki.moves import Discard, Swap

NEVER_SET = "in this variant a joker in a set stays there for good"
NEVER_RUN = "in this variant a joker in a run stays there for good"
CLOSED = "the set TH TC JK TD is closed: three suits and a joker, its joker can never be taken"
BOTH = (
    "TD does not free a joker of TH TC JK: this variant needs two of the missing suits added together "
    "(one card added to a three-card set closes it for good: use build for that)"
)
BOTH_THREE = (
    "TD does not free a joker of TH TC JK: this variant frees a joker of a three-card set only for two of "
    "the missing suits added together (one card added to a three-card set closes it for good: use build "
    "for that)"
)


def table_position(knobs: dict[str, Any], bob_meld: str, ann_extra: str, ann_opens: bool = True) -> Game:
    """bob has laid ``bob_meld`` (table meld 2 when ann opened with 5S 6S 7S, else 1); ann has just drawn KH.

    ann holds ``ann_extra`` (three cards) and KH; hands are six cards, the opening threshold 0.
    """
    bob_cards = bob_meld.split()
    bob_hand = " ".join([*bob_cards, *["3D", "9C", "8D", "4H", "2S"][: 6 - len(bob_cards)]])
    game = new_game(
        {"hand_size": 6, "opening_threshold": 0, **knobs},
        [f"5S 6S 7S {ann_extra}", bob_hand],
        discard="2D",
        stock="AC 4C KH",
    )
    if ann_opens:
        play(game, "draw stock", "meld 5S 6S 7S", "discard AC")
    else:
        play(game, "draw stock", "discard AC")
    play(game, "draw stock", f"meld {bob_meld}", "discard 4C")
    play(game, "draw stock")
    return game


# ---------------------------------------------------------------- set_joker_release


@pytest.mark.parametrize(
    ("rule", "outcome"),
    [
        ("three_card_set", ("TH TC TD TS", ["JK", "KH", "QS"])),
        ("all_missing_suits", ("TH TC TD TS", ["JK", "KH", "QS"])),
        ("any_missing_suit", "TD TS is more than the set TH TC JK needs to give up its jokers"),
        ("never", NEVER_SET),
    ],
)
def test_set_joker_freed_by_both_missing_suits(rule: str, outcome: Any) -> None:
    game = table_position({"set_joker_release": rule}, "TH TC JK", "TD TS QS")
    if isinstance(outcome, str):
        assert_illegal(game, "swap 2 TD TS", outcome)
        return
    events = play(game, "swap 2 TD TS")
    assert events == [
        {"type": "release", "player": "ann", "meld": 2, "cards": "TD TS", "jokers": 1, "result": outcome[0]}
    ]
    assert table_text(game) == ["5S 6S 7S", outcome[0]]
    assert hand_text(game, 0) == outcome[1]


@pytest.mark.parametrize(
    ("rule", "outcome"),
    [
        ("three_card_set", BOTH_THREE),
        ("all_missing_suits", BOTH),
        ("any_missing_suit", ("TH TC TD", ["JK", "KH", "QS", "TS"])),
        ("never", NEVER_SET),
    ],
)
def test_set_joker_freed_by_one_missing_suit(rule: str, outcome: Any) -> None:
    game = table_position({"set_joker_release": rule}, "TH TC JK", "TD TS QS")
    assert (Swap(2, tuple(parse_cards("TD"))) in game.legal_actions()) == (not isinstance(outcome, str))
    if isinstance(outcome, str):
        assert_illegal(game, "swap 2 TD", outcome)
        return
    play(game, "swap 2 TD")
    assert table_text(game) == ["5S 6S 7S", outcome[0]]
    assert hand_text(game, 0) == outcome[1]


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ("three_card_set", CLOSED),
        ("all_missing_suits", CLOSED),
        ("any_missing_suit", CLOSED),
        ("never", NEVER_SET),
    ],
)
def test_ten_ten_ten_joker_is_closed_for_good(rule: str, message: str) -> None:
    # Seed 000: building just one of the two missing tens forms 10-10-10-Joker, "from which the Joker can
    # never be taken"; seed 001: a set of "3 cards of different suits, plus a Joker ... may not be taken".
    game = table_position({"set_joker_release": rule}, "TH TC JK", "TD TS QS")
    play(game, "build 2 TD")
    assert table_text(game) == ["5S 6S 7S", "TH TC JK TD"]
    assert_illegal(game, "swap 2 TS", message)
    assert_illegal(game, "build 2 TS", "TS does not fit the set TH TC JK TD: a set holds at most 4 cards")
    assert not any(isinstance(action, Swap) for action in game.legal_actions())
    # Still closed on a later turn.
    play(game, "discard KH")
    play(game, "draw stock", "discard 9C")
    play(game, "draw stock")
    assert_illegal(game, "swap 2 TS", message)


@pytest.mark.parametrize(
    ("rule", "outcome"),
    [
        ("three_card_set", ("TH TC TD JK", ["JK", "KH", "TS"])),
        ("all_missing_suits", ("TH TC TD JK", ["JK", "KH", "TS"])),
        ("any_missing_suit", ("TH TC TD", ["JK", "JK", "KH", "TS"])),
        ("never", NEVER_SET),
    ],
)
def test_two_joker_set_gives_up_one_joker_for_two_missing_suits(rule: str, outcome: Any) -> None:
    # Seed 000/003: "add any two of the missing suits to a three-card set with two Jokers, releasing one of
    # the Jokers and forming a closed four-card set".
    game = table_position({"set_joker_release": rule}, "TH JK JK", "TC TD TS")
    if isinstance(outcome, str):
        assert_illegal(game, "swap 2 TC TD", outcome)
        return
    events = play(game, "swap 2 TC TD")
    assert events[0]["jokers"] == len(outcome[1]) - 2
    assert table_text(game) == ["5S 6S 7S", outcome[0]]
    assert hand_text(game, 0) == outcome[1]
    if rule in ("three_card_set", "all_missing_suits"):
        assert_illegal(
            game,
            "swap 2 TS",
            "the set TH TC TD JK is closed: three suits and a joker, its joker can never be taken",
        )
    else:
        assert_illegal(game, "swap 2 TS", "the meld TH TC TD has no joker to take")


def test_two_joker_set_one_card_frees_nothing_when_both_missing_suits_are_needed() -> None:
    game = table_position({"set_joker_release": "all_missing_suits"}, "TH JK JK", "TC TD TS")
    assert_illegal(
        game,
        "swap 2 TC",
        "TC does not free a joker of TH JK JK: this variant needs two of the missing suits added together "
        "(one card alone goes on with build, and its jokers stay there to be freed later)",
    )
    play(game, "build 2 TC")
    assert table_text(game) == ["5S 6S 7S", "TH JK JK TC"]
    # As the refusal said: the two suits still missing free both jokers.
    play(game, "swap 2 TD TS")
    assert table_text(game) == ["5S 6S 7S", "TH TC TD TS"]
    assert hand_text(game, 0).count("JK") == 2


def test_only_a_three_card_set_gives_up_a_joker_under_the_online_rooms_rule() -> None:
    # Seed 000: a three-card set's joker goes for both missing suits, one of two jokers for two missing
    # suits; "Except in the cases where a Joker can be reused as described above, melds ... can never be
    # rearranged". All three missing suits put in a two-joker set are not such a case: two go in, one
    # joker comes out, and the set is closed.
    game = table_position({"set_joker_release": "three_card_set"}, "TH JK JK", "TC TD TS")
    assert_illegal(
        game,
        "swap 2 TC TD TS",
        "TC TD TS does not free a joker of TH JK JK: this variant frees a joker of a three-card set only for "
        "two of the missing suits added together (put in two: they free one)",
    )
    events = play(game, "swap 2 TC TD")
    assert (events[0]["jokers"], events[0]["result"]) == (1, "TH TC TD JK")


@pytest.mark.parametrize("laid", ["TH TC JK JK", "TH JK JK"])
def test_a_four_card_set_keeps_its_jokers_under_the_online_rooms_rule(laid: str) -> None:
    # A four-card set with two jokers, laid so or built up from TH JK JK with one card, is no three-card
    # set: its missing suits free nothing, where all_missing_suits gives up both jokers for them.
    game = table_position({"set_joker_release": "three_card_set"}, laid, "TC TD TS")
    if laid == "TH JK JK":
        play(game, "build 2 TC")
    shown = table_text(game)[1]
    assert sorted(shown.split()) == ["JK", "JK", "TC", "TH"]
    message = (
        f"the set {shown} keeps its jokers for good: in this variant only a three-card set gives up a joker"
    )
    assert_illegal(game, "swap 2 TD TS", message)
    assert_illegal(game, "swap 2 TD", message)
    assert not any(isinstance(action, Swap) for action in game.legal_actions())
    assert_illegal(game, "build 2 TD", f"TD does not fit the set {shown}: a set holds at most 4 cards")
    every = table_position({"set_joker_release": "all_missing_suits"}, "TH TC JK JK", "TD TS QS")
    assert play(every, "swap 2 TD TS")[0]["jokers"] == 2


def test_a_set_of_six_asks_for_as_many_cards_as_take_it_past_six_not_two_missing_suits() -> None:
    # Under set_maximum 6 with suits that may repeat, TD TS were refused for wanting "two of the
    # missing suits added together": two were given; four take TH TC JK past its six.
    knobs = {"set_joker_release": "all_missing_suits", "set_suits": "may_repeat", "set_maximum": 6}
    game = table_position(knobs, "TH TC JK", "TD TS QS")
    assert_illegal(
        game,
        "swap 2 TD TS",
        "TD TS does not free a joker of TH TC JK: this variant frees a set's jokers only for cards added "
        "together that take it past 6 cards: 4 here (fewer go on with build, and its jokers stay there to "
        "be freed later)",
    )
    play(game, "build 2 TD TS")
    assert table_text(game) == ["5S 6S 7S", "TH TC JK TD TS"]


def test_a_full_two_joker_set_sends_one_card_neither_to_swap_nor_to_build() -> None:
    # TH TC JK JK is full: build refuses TD and names swap, so swap must not name build back.
    game = table_position({"set_joker_release": "all_missing_suits"}, "TH TC JK JK", "TD TS QS")
    assert_illegal(
        game,
        "swap 2 TD",
        "TD does not free a joker of TH TC JK JK: this variant needs two of the missing suits added together "
        "(the set is full, so one card alone cannot go on with build either)",
    )
    assert_illegal(
        game,
        "build 2 TD",
        "TD does not fit the set TH TC JK JK: a set holds at most 4 cards (to take its joker, use swap)",
    )
    # Its two missing suits together free both jokers, which ann melds before going out on her discard.
    play(game, "swap 2 TD TS")
    assert table_text(game) == ["5S 6S 7S", "TH TC TD TS"]
    assert hand_text(game, 0) == ["JK", "JK", "KH", "QS"]
    events = play(game, "meld KH JK JK", "discard QS")
    assert events[-1]["type"] == "hand_end"
    assert (events[-1]["kalooki"], events[-1]["hand_points"], events[-1]["scores"]) == (
        False,
        {"ann": 0, "bob": 12},
        {"ann": 0, "bob": 12},
    )


def test_suits_that_may_repeat_ask_a_set_of_four_for_cards_past_four_not_two_missing_suits() -> None:
    # With suits that may repeat there are no "missing suits" to name: one card onto a set of four (or of
    # three) is asked for the two that take it past four, and those two free both jokers.
    knobs = {"set_joker_release": "all_missing_suits", "set_suits": "may_repeat"}
    game = table_position(knobs, "TH TC JK JK", "TD TS QS")
    assert_illegal(
        game,
        "swap 2 TD",
        "TD does not free a joker of TH TC JK JK: this variant frees a set's jokers only for cards added "
        "together that take it past 4 cards: 2 here (the set is full, so one card alone cannot go on with "
        "build either)",
    )
    assert play(game, "swap 2 TD TS")[0]["jokers"] == 2
    assert table_text(game) == ["5S 6S 7S", "TH TC TD TS"]


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("swap 2 TH", "TH does not free a joker from the set TH TC JK: each card must be of a missing suit"),
        ("swap 2 QS", "QS does not free a joker from the set TH TC JK: the ranks differ"),
        ("swap 2 JK", "you have no JK in your hand to play"),
        ("swap 1 TD", "the meld 5S 6S 7S has no joker to take"),
        ("swap 3 TD", "there is no table meld 3: the melds are numbered 1 to 2"),
        ("swap 2 TD TD", "you have only 1 TD in your hand to play 2 times"),
    ],
)
def test_swap_rejections(move: str, message: str) -> None:
    game = table_position({"set_joker_release": "any_missing_suit"}, "TH TC JK", "TD TH QS")
    assert_illegal(game, move, message)


@pytest.mark.parametrize(
    ("rule", "hint"),
    [("three_card_set", True), ("all_missing_suits", True), ("any_missing_suit", True), ("never", False)],
)
def test_building_past_four_hints_at_swap_only_where_a_swap_could_work(rule: str, hint: bool) -> None:
    game = table_position({"set_joker_release": rule}, "TH TC JK", "TD TS QS")
    message = "TD TS does not fit the set TH TC JK: a set holds at most 4 cards"
    assert_illegal(game, "build 2 TD TS", message + (" (to take its joker, use swap)" if hint else ""))


def test_sets_of_three_at_most_keep_their_jokers_under_the_online_rooms_rule() -> None:
    # three_card_set frees a joker only by making the set four cards, which set_maximum 3 never allows:
    # the swap is refused, and a full set's build refusal does not send the player to swap.
    game = table_position({"set_joker_release": "three_card_set", "set_maximum": 3}, "TH JK JK", "TC TD QS")
    assert_illegal(game, "build 2 TC", "TC does not fit the set TH JK JK: a set holds at most 3 cards")
    assert_illegal(game, "swap 2 TC TD", "TC TD is more than the set TH JK JK can hold")
    assert not any(isinstance(action, Swap) for action in game.legal_actions())
    assert table_text(game) == ["5S 6S 7S", "TH JK JK"]


# ---------------------------------------------------------------- run_joker_release


@pytest.mark.parametrize(
    ("rule", "move", "outcome"),
    [
        ("exact_card", "swap 2 7H", ("5H 6H 7H 8H", ["9H", "JK", "KH", "QS"])),
        (
            "exact_card",
            "swap 2 9H",
            "9H does not free a joker from the run 5H 6H JK 8H: "
            "only the exact card a joker stands for does (7H)",
        ),
        ("never", "swap 2 7H", NEVER_RUN),
        ("never", "swap 2 9H", NEVER_RUN),
    ],
)
def test_run_joker_needs_the_exact_card(rule: str, move: str, outcome: Any) -> None:
    # Seed 001: "5h-6h-J-8h needs a 7h to steal the Joker".
    game = table_position({"run_joker_release": rule}, "5H 6H JK 8H", "7H 9H QS")
    if isinstance(outcome, str):
        assert_illegal(game, move, outcome)
        return
    play(game, move)
    assert table_text(game) == ["5S 6S 7S", outcome[0]]
    assert hand_text(game, 0) == outcome[1]


@pytest.mark.parametrize("rule", ["exact_card", "never"])
def test_run_joker_release_does_not_stop_building(rule: str) -> None:
    game = table_position({"run_joker_release": rule}, "5H 6H JK 8H", "7H 9H QS")
    play(game, "build 2 9H")
    assert table_text(game) == ["5S 6S 7S", "5H 6H JK 8H 9H"]


@pytest.mark.parametrize(("rule", "legal"), [("exact_card", True), ("never", False)])
def test_run_joker_at_the_end_stands_for_the_next_card(rule: str, legal: bool) -> None:
    game = table_position({"run_joker_release": rule}, "6H 7H JK", "8H 5H QS")
    assert (Swap(2, tuple(parse_cards("8H"))) in game.legal_actions()) == legal
    if not legal:
        assert_illegal(game, "swap 2 8H", NEVER_RUN)
        return
    assert_illegal(
        game,
        "swap 2 5H",
        "5H does not free a joker from the run 6H 7H JK: only the exact card a joker stands for does (8H)",
    )
    play(game, "swap 2 8H")
    assert table_text(game) == ["5S 6S 7S", "6H 7H 8H"]


# ---------------------------------------------------------------- joker_release_requires_opening


@pytest.mark.parametrize("requires", [True, False])
def test_joker_release_requires_opening(requires: bool) -> None:
    game = table_position(
        {"joker_release_requires_opening": requires}, "5H 6H JK 8H", "7H 9H QS", ann_opens=False
    )
    assert game.opened == [False, True]
    swap = Swap(1, tuple(parse_cards("7H")))
    assert (swap in game.legal_actions()) == (not requires)
    if requires:
        assert_illegal(game, "swap 1 7H", "you may take a joker from the table only after you have opened")
        return
    play(game, "swap 1 7H")
    assert table_text(game) == ["5H 6H 7H 8H"]
    assert hand_text(game, 0).count("JK") == 1
    assert game.opened == [False, True]  # taking a joker is not opening


# ---------------------------------------------------------------- released_joker_must_be_melded

STUCK = "a freed joker must go into a new meld this turn, and your hand could not meld it"
OWED = "the joker you freed must go into a new meld before you discard"


@pytest.mark.parametrize("must_meld", [True, False])
def test_released_joker_must_be_melded_refuses_a_release_the_hand_cannot_meld(must_meld: bool) -> None:
    game = table_position({"released_joker_must_be_melded": must_meld}, "5H 6H JK 8H", "7H 2C QS")
    if must_meld:
        assert_illegal(game, "swap 2 7H", STUCK)
        assert not any(isinstance(action, Swap) for action in game.legal_actions())
        return
    play(game, "swap 2 7H", "discard 2C")
    assert hand_text(game, 0) == ["JK", "KH", "QS"]
    assert game.current == 1


@pytest.mark.parametrize("must_meld", [True, False])
def test_released_joker_must_be_melded_before_the_discard(must_meld: bool) -> None:
    game = table_position(
        {"released_joker_must_be_melded": must_meld, "kalooki_bonus": 0}, "5H 6H JK 8H", "7H QS QD"
    )
    play(game, "swap 2 7H")
    assert hand_text(game, 0) == ["JK", "KH", "QD", "QS"]
    if not must_meld:
        play(game, "discard KH")
        assert game.current == 1
        return
    assert_illegal(game, "discard KH", OWED)
    assert not any(isinstance(action, Discard) for action in game.legal_actions())
    play(game, "meld QS QD JK", "discard KH")
    assert game.results[-1].winner == 0


def test_released_joker_must_be_melded_counts_only_the_freed_joker() -> None:
    # ann already held a joker: she owes only the one she freed, and may keep her own.
    game = new_game(
        {"hand_size": 7, "opening_threshold": 0, "released_joker_must_be_melded": True},
        ["5S 6S 7S 7H JK QS QD", "5H 6H JK 8H 3D 9C 8D"],
        stock="AC 4C KH",
    )
    play(game, "draw stock", "meld 5S 6S 7S", "discard AC")
    play(game, "draw stock", "meld 5H 6H JK 8H", "discard 4C")
    play(game, "draw stock", "swap 2 7H")
    assert hand_text(game, 0) == ["JK", "JK", "KH", "QD", "QS"]
    assert_illegal(game, "discard KH", OWED)
    play(game, "meld QS QD JK", "discard KH")
    assert hand_text(game, 0) == ["JK"]
    assert game.current == 1


@pytest.mark.parametrize(("ann_extra", "legal"), [("JH QS QD", True), ("JH 2C QS", False)])
def test_released_joker_must_be_melded_before_opening(ann_extra: str, legal: bool) -> None:
    # Not opened yet: the freed joker must go into an opening worth the threshold (40), laid this turn.
    knobs = {
        "released_joker_must_be_melded": True,
        "joker_release_requires_opening": False,
        "opening_threshold": 40,
    }
    game = table_position(knobs, "9H TH JK QH KH", ann_extra, ann_opens=False)
    if not legal:
        # 5S 6S 7S JK is worth 26 at most: not an opening.
        assert_illegal(game, "swap 1 JH", STUCK)
        return
    play(game, "swap 1 JH")
    assert_illegal(game, "discard KH", OWED)
    play(game, "meld 5S 6S 7S, QS QD JK")
    assert game.opened == [True, True]
    assert JOKER not in game.hands[0]
    play(game, "discard KH")
    assert game.results[-1].winner == 0


def test_legal_actions_with_a_legal_swap_list_only_the_hands_own_discards() -> None:
    game = table_position({}, "5H 6H JK 8H", "7H 9H QS")
    hand = game.hands[0]
    held = list(hand)
    actions = game.legal_actions()
    assert Swap(2, tuple(parse_cards("7H"))) in actions
    discards = sorted(action.card for action in actions if isinstance(action, Discard))
    assert discards == sorted(parse_cards("7H 9H QS KH"))
    assert hand == held  # checking the swap did not touch the hand the caller holds
    game.check(Swap(2, tuple(parse_cards("7H"))))
    assert hand == held
    assert hand_text(game, 0) == ["7H", "9H", "KH", "QS"]


# ---------------------------------------------------------------- every set shape, every swap, every rule


def set_release_model(shape: str, offered: str, rule: str) -> tuple[str, int] | None:
    """The seeds' set-release rules, written out independently: the set left on the table and the jokers
    freed, or None when the swap is refused.

    A set of three suits and a joker is closed under every rule (000, 001). three_card_set (000/003, as
    written): only a three-card set gives a joker up, one for two missing suits added together (both
    missing suits free the one joker of a three-card set, two of three missing suits free one of two
    jokers), and "except in the cases ... described above" no set is rearranged. all_missing_suits (a
    wider reading): two or more missing suits added together free the jokers that no longer fit in a
    four-card set (two missing suits free both jokers of TH TC JK JK); one card frees nothing.
    any_missing_suit (001): each card of a missing suit takes one joker's place.
    """
    cards = shape.split()
    naturals = [card for card in cards if card != "JK"]
    jokers = len(cards) - len(naturals)
    added = offered.split()
    if rule == "never" or (len(cards) == 4 and len(naturals) == 3):
        return None
    if rule == "three_card_set":
        if len(cards) != 3 or len(added) != 2:
            return None
        freed = 1
    elif rule == "all_missing_suits":
        if len(added) < 2:
            return None
        freed = len(cards) + len(added) - 4
    else:
        freed = len(added)
    if not 1 <= freed <= jokers:
        return None
    return " ".join([*naturals, *added, *["JK"] * (jokers - freed)]), freed


SET_SHAPES = ["TH TC JK", "TH JK JK", "TH TC TD JK", "TH TC JK JK", "TH JK JK JK"]
SET_CASES = [
    (shape, " ".join(offered), rule)
    for shape in SET_SHAPES
    for size in (1, 2, 3)
    for offered in combinations([suit for suit in ("TC", "TD", "TS") if suit not in shape.split()], size)
    for rule in ("three_card_set", "all_missing_suits", "any_missing_suit", "never")
]


@pytest.mark.parametrize(("shape", "offered", "rule"), SET_CASES)
def test_every_set_release(shape: str, offered: str, rule: str) -> None:
    fillers = ["QS", "2C", "4D"][: 3 - len(offered.split())]
    game = table_position({"set_joker_release": rule, "jokers": 4}, shape, " ".join([offered, *fillers]))
    expected = set_release_model(shape, offered, rule)
    action = Swap(2, tuple(parse_cards(offered)))
    assert (action in game.legal_actions()) == (expected is not None)
    if expected is None:
        before = game.to_json()
        with pytest.raises(IllegalMoveError):
            game.apply(action)
        assert game.to_json() == before
        return
    result, freed = expected
    jokers_before = game.hands[0].count(JOKER)
    events = play(game, f"swap 2 {offered}")
    assert events[0]["jokers"] == freed
    assert table_text(game)[1] == result
    assert game.hands[0].count(JOKER) == jokers_before + freed


@pytest.mark.parametrize("requires_opening", [True, False])
def test_the_swaps_listed_follow_the_phase_and_the_opening(requires_opening: bool) -> None:
    knobs = {"joker_release_requires_opening": requires_opening}
    free_6h = Swap(2, tuple(parse_cards("6H")))
    game = table_position(knobs, "5H JK 7H", "6H QS 2C")
    assert game.legal_swaps() == [free_6h]
    play(game, "discard QS", "draw stock", "discard 3D")
    # ann's draw: nothing may be laid before it.
    assert game.phase == "draw"
    assert game.legal_swaps() == []
    unopened = table_position(knobs, "5H JK 7H", "6H QS 2C", ann_opens=False)
    assert unopened.legal_swaps() == ([] if requires_opening else [Swap(1, free_6h.cards)])
