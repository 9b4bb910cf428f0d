"""One scenario per knob value: the same position under two values of a knob has a different, exact outcome.

The pack and the table (decks, jokers, hand_size, players, play_direction), card values (ace_value,
joker_penalty) and what makes a meld (run_minimum, ace_in_runs, opening_threshold). Drawing, going
out, the end of the stock and the turn itself are in test_rules_turn_knobs.py; joker release in
test_rules_jokers.py; Kalooki, scoring and the end of the game in test_scoring.py.
"""

from __future__ import annotations

import pytest
from rules_helpers import assert_illegal, hand_text, new_game, play, table_text

from kalooki.cards import JOKER, format_card, full_pack, parse_card
from kalooki.engine import DealError, Game, IllegalMoveError, SetupError
from kalooki.moves import Build, Draw
from kalooki.rulebook import render_rulebook
from kalooki.variant import Variant

OPENING = "(lay them all in one meld command, melds parted by commas: meld 7H 8H 9H, QS QD QC)"


# ---------------------------------------------------------------- the pack: decks, jokers, hand_size


@pytest.mark.parametrize(
    ("decks", "error"),
    [
        (1, "the deal uses 7H 2 times; the pack holds 1"),
        (2, None),
        (3, None),
    ],
)
def test_decks_bound_how_many_copies_of_a_card_a_deal_may_use(decks: int, error: str | None) -> None:
    knobs = {"decks": decks, "hand_size": 7}
    hands = ["7H 7H 8H 9H TH JH QH", "2C 3C 4C 5C 6C 7C 8C"]
    if error is not None:
        with pytest.raises(DealError) as caught:
            new_game(knobs, hands)
        assert str(caught.value) == error
        return
    game = new_game(knobs, hands)
    assert hand_text(game, 0) == ["7H", "7H", "8H", "9H", "JH", "QH", "TH"]
    assert len(game.stock) == decks * 52 + 2 - 14 - 1
    assert game.cards_everywhere() == full_pack(decks, 2)
    assert game.cards_everywhere()[parse_card("7H")] == decks


@pytest.mark.parametrize(
    ("jokers", "error"),
    [
        (0, "the deal uses JK 3 times; the pack holds 0"),
        (2, "the deal uses JK 3 times; the pack holds 2"),
        (4, None),
    ],
)
def test_jokers_bound_how_many_jokers_a_deal_may_use(jokers: int, error: str | None) -> None:
    knobs = {"jokers": jokers, "hand_size": 7}
    hands = ["JK JK JK 8H 9H TH JH", "2C 3C 4C 5C 6C 7C 8C"]
    if error is not None:
        with pytest.raises(DealError) as caught:
            new_game(knobs, hands)
        assert str(caught.value) == error
        return
    game = new_game(knobs, hands)
    assert game.hands[0].count(JOKER) == 3
    assert len(game.stock) == 104 + jokers - 15
    assert game.cards_everywhere()[JOKER] == jokers


@pytest.mark.parametrize("jokers", [0, 2, 4])
def test_jokers_in_a_shuffled_pack(jokers: int) -> None:
    game = Game(Variant(jokers=jokers), ["ann", "bob", "cid", "dee"], seed=3)
    assert game.cards_everywhere() == full_pack(2, jokers)
    assert sum(game.cards_everywhere().values()) == 104 + jokers
    assert len(game.stock) == 104 + jokers - 4 * 13 - 1


@pytest.mark.parametrize(
    ("hand_size", "error"),
    [(7, None), (8, "ann is dealt 7 cards: this variant deals 8")],
)
def test_hand_size_is_what_a_fixed_deal_must_give_each_player(hand_size: int, error: str | None) -> None:
    hands = ["7H 8H 9H TH JH QH KH", "2C 3C 4C 5C 6C 7C 8C"]
    if error is not None:
        with pytest.raises(DealError) as caught:
            new_game({"hand_size": hand_size}, hands)
        assert str(caught.value) == error
        return
    game = new_game({"hand_size": hand_size}, hands)
    assert [len(hand) for hand in game.hands] == [7, 7]


@pytest.mark.parametrize(("hand_size", "stock"), [(13, 106 - 3 * 13 - 1), (9, 106 - 3 * 9 - 1), (1, 102)])
def test_hand_size_deals_that_many_cards(hand_size: int, stock: int) -> None:
    # A hand of one leaves room for a meld only where a turn may end without a discard: the hand grows.
    turn_discard = "optional" if hand_size == 1 else "required"
    rules = Variant(hand_size=hand_size, opening_threshold=0, turn_discard=turn_discard)
    game = Game(rules, ["ann", "bob", "cid"], seed=11)
    assert [len(hand) for hand in game.hands] == [hand_size] * 3
    assert len(game.stock) == stock
    assert len(game.discard_pile) == 1


# ---------------------------------------------------------------- players and the direction of play


@pytest.mark.parametrize(
    ("min_players", "max_players", "count", "error"),
    [
        (2, 4, 2, None),
        (3, 4, 2, "2 players: this variant is for 3 to 4"),
        (2, 4, 4, None),
        (2, 4, 5, "5 players: this variant is for 2 to 4"),
        (2, 5, 5, None),
        (4, 4, 4, None),
        (4, 4, 3, "3 players: this variant is for exactly 4"),
        (2, 4, 1, "1 player: this variant is for 2 to 4"),
    ],
)
def test_min_and_max_players(min_players: int, max_players: int, count: int, error: str | None) -> None:
    rules = Variant(min_players=min_players, max_players=max_players)
    names = ["ann", "bob", "cid", "dee", "eve"][:count]
    if error is not None:
        with pytest.raises(SetupError) as caught:
            Game(rules, names, seed=1)
        assert str(caught.value) == error
        assert not isinstance(caught.value, IllegalMoveError)
        return
    game = Game(rules, names, seed=1)
    assert [len(hand) for hand in game.hands] == [13] * count


THREE = ["7H 8H 9H", "2C 5D 9S", "3C 6D TS"]


@pytest.mark.parametrize(
    ("direction", "order"), [("clockwise", [0, 1, 2, 0]), ("counter_clockwise", [0, 2, 1, 0])]
)
def test_play_direction_passes_the_turn(direction: str, order: list[int]) -> None:
    game = new_game(
        {"hand_size": 3, "play_direction": direction, "opening_threshold": 0}, THREE, stock="KS QS JS"
    )
    seen = [game.current]
    for _ in range(3):
        drawn = game.stock[-1]
        game.apply(Draw("stock"))
        play(game, f"discard {format_card(drawn)}")
        seen.append(game.current)
    assert seen == order


@pytest.mark.parametrize(("direction", "second_first"), [("clockwise", 1), ("counter_clockwise", 2)])
def test_play_direction_moves_the_first_player_each_hand(direction: str, second_first: int) -> None:
    game = new_game({"hand_size": 3, "play_direction": direction, "opening_threshold": 0}, THREE, stock="KS")
    play(game, "draw stock", "meld 7H 8H 9H", "discard KS")
    assert game.phase == "hand_over"
    assert game.results[-1].winner == 0
    game.next_hand()
    assert game.current == second_first
    assert game.first_seat == second_first
    assert game.hand_number == 2


# ---------------------------------------------------------------- card values: ace_value, joker_penalty


@pytest.mark.parametrize(("ace_value", "bob_points"), [(11, 27), (1, 7), (15, 35)])
def test_ace_value_in_a_losers_hand(ace_value: int, bob_points: int) -> None:
    knobs = {"hand_size": 3, "ace_value": ace_value, "opening_threshold": 0, "kalooki_bonus": 0}
    game = new_game(knobs, ["7H 8H 9H", "AC AD 5S"], stock="KS")
    play(game, "draw stock", "meld 7H 8H 9H", "discard KS")
    result = game.results[-1]
    assert result.hand_points == (0, bob_points)
    assert result.scores == (0, bob_points)
    assert game.totals == [0, bob_points]


@pytest.mark.parametrize(
    ("ace_value", "error"),
    [(11, None), (10, None), (1, f"your first meld is worth 3 points; this variant needs 30 {OPENING}")],
)
def test_ace_value_counts_toward_the_opening(ace_value: int, error: str | None) -> None:
    game = new_game(
        {"hand_size": 4, "ace_value": ace_value, "opening_threshold": 30}, ["AH AC AD 5S", "2C 3D 4S 6C"]
    )
    play(game, "draw stock")
    if error is not None:
        assert_illegal(game, "meld AH AC AD", error)
        return
    events = play(game, "meld AH AC AD")
    assert events[0]["points"] == 3 * ace_value
    assert game.opened == [True, False]


@pytest.mark.parametrize(("joker_penalty", "bob_points"), [(25, 36), (15, 26), (50, 61), (0, 11)])
def test_joker_penalty_for_a_joker_left_in_hand(joker_penalty: int, bob_points: int) -> None:
    knobs = {"hand_size": 3, "joker_penalty": joker_penalty, "opening_threshold": 0, "kalooki_bonus": 0}
    game = new_game(knobs, ["7H 8H 9H", "JK 5S 6S"], stock="KS")
    play(game, "draw stock", "meld 7H 8H 9H", "discard KS")
    assert game.results[-1].hand_points == (0, bob_points)
    assert game.totals == [0, bob_points]


def test_a_joker_in_a_meld_counts_as_the_card_it_stands_for_not_its_penalty() -> None:
    game = new_game(
        {"hand_size": 4, "joker_penalty": 50, "opening_threshold": 30}, ["9H JK JH 2C", "2D 3D 4S 6C"]
    )
    play(game, "draw stock")
    assert_illegal(
        game, "meld 9H JK JH", f"your first meld is worth 29 points; this variant needs 30 {OPENING}"
    )


# ---------------------------------------------------------------- melds: run_minimum, ace_in_runs


@pytest.mark.parametrize(
    ("run_minimum", "meld", "error"),
    [
        (3, "5H 6H 7H", None),
        (4, "5H 6H 7H", "5H 6H 7H is not a run: this variant's runs need at least 4 cards"),
        (4, "5H 6H 7H 8H", None),
        (4, "5H JK 7H 8H", None),
        (5, "5H 6H 7H 8H", "5H 6H 7H 8H is not a run: this variant's runs need at least 5 cards"),
        (5, "5H 6H 7H 8H 9H", None),
    ],
)
def test_run_minimum(run_minimum: int, meld: str, error: str | None) -> None:
    knobs = {"hand_size": 6, "run_minimum": run_minimum, "opening_threshold": 0}
    game = new_game(knobs, ["5H 6H 7H 8H 9H JK", "2C 3D 4S 6C 7C 8D"], stock="KS")
    play(game, "draw stock")
    if error is not None:
        assert_illegal(game, f"meld {meld}", error)
        return
    play(game, f"meld {meld}")
    assert table_text(game) == [meld]


@pytest.mark.parametrize("run_minimum", [3, 4, 5])
def test_run_minimum_does_not_touch_sets(run_minimum: int) -> None:
    knobs = {"hand_size": 4, "run_minimum": run_minimum, "opening_threshold": 0}
    game = new_game(knobs, ["7H 7C 7D 2S", "2C 3D 4S 6C"], stock="KS")
    play(game, "draw stock", "meld 7H 7C 7D")
    assert table_text(game) == ["7H 7C 7D"]


MELD_SHAPES = [
    ("7H 7C 7D", "set", 21),
    ("7H 7C 7D 7S", "set", 28),
    ("7H 7C JK", "set", 21),
    ("7H JK JK", "set", 21),
    ("7H JK JK JK", "set", 28),
    ("7H 8H 9H", "run", 24),
    ("JK 7H 8H 9H", "run", 30),
    ("JK JK 7H 8H", "run", 26),
    ("7H 8H JK JK", "run", 34),
    ("7H JK JK JK JK", "run", 44),
    ("JK JK JK", "JK JK JK is not a meld: a meld may not be made of jokers alone"),
    ("7H 8H", "7H 8H is not a meld: a meld needs at least 3 cards"),
    ("7H 7C 7D 7S JK", "7H 7C 7D 7S JK is not a set: a set has at most 4 cards, one of each suit"),
    ("7H 7H 7C", "7H 7H 7C is not a set: two cards share a suit (a set has one card of each suit)"),
    ("7H 8C 9D", "7H 8C 9D is not a run: the suits differ"),
    ("7H 7C 8H", "7H 7C 8H is not a set: the ranks differ"),
    (
        "5H 6H 8H",
        "5H 6H 8H is not a run: the cards are not consecutive as written "
        "(write a run low to high, a joker where a card is missing)",
    ),
    (
        "9H 8H 7H",
        "9H 8H 7H is not a run: the cards are not consecutive as written "
        "(write a run low to high, a joker where a card is missing)",
    ),
    ("5H 6H 6H 7H", "5H 6H 6H 7H is not a run: a rank appears twice"),
]


@pytest.mark.parametrize(("meld", "kind", "points"), [shape for shape in MELD_SHAPES if len(shape) == 3])
def test_meld_shapes(meld: str, kind: str, points: int) -> None:
    hand = "7H 7C 7D 7S 8H 9H JK JK JK JK 5H 6H 6H"
    game = new_game(
        {"hand_size": 13, "opening_threshold": 0, "jokers": 4},
        [hand, "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"],
        stock="KD",
    )
    play(game, "draw stock")
    events = play(game, f"meld {meld}")
    assert events[0]["points"] == points
    assert game.table[0].kind == kind


@pytest.mark.parametrize(("meld", "points"), [("7H JK JK JK", 34), ("JK 7H JK JK", 30)])
def test_the_rulebooks_runs_of_a_card_and_jokers_are_as_long_as_the_shortest_run(
    meld: str, points: int
) -> None:
    # Under run_minimum 4 the rulebook's examples were runs of three, which the table refuses.
    rulebook = render_rulebook(Variant(run_minimum=4, jokers=4))
    assert "(a seven and three jokers)" in rulebook
    assert "(`meld 7H JK JK JK run` is 7-8-9-10, `meld JK 7H JK JK run` 6-7-8-9)." in rulebook
    game = new_game(
        {"hand_size": 5, "opening_threshold": 0, "run_minimum": 4, "jokers": 4},
        ["7H JK JK JK 2C", "3C 5D 9S QD KC"],
        stock="8D",
    )
    events = play(game, "draw stock", f"meld {meld} run")
    assert (events[1]["points"], game.table[0].kind) == (points, "run")
    # With fewer jokers in the pack than that (kaluki-51's two), one card and jokers make only a set; with
    # one joker, no meld at all.
    two = render_rulebook(Variant(run_minimum=4))
    assert "One such card with jokers (a seven and two jokers) is a set, if a set holds so many." in two
    assert "One such card" not in render_rulebook(Variant(run_minimum=4, jokers=1))


@pytest.mark.parametrize(
    ("set_maximum", "meld", "kind", "points"),
    [(4, "7H JK JK", "set", 21), (4, "7H JK JK JK", "set", 28), (3, "7H JK JK JK", "run", 34)],
)
def test_one_card_with_jokers_is_a_set_while_a_set_may_hold_them(
    set_maximum: int, meld: str, kind: str, points: int
) -> None:
    # As the rulebook says: a seven and jokers make sevens until a set may not hold that many cards.
    assert "One such card with jokers (a seven and two jokers) is a set when a set may hold that many" in (
        render_rulebook(Variant(set_maximum=set_maximum))
    )
    game = new_game(
        {"hand_size": 5, "opening_threshold": 0, "set_maximum": set_maximum, "jokers": 3},
        ["7H JK JK JK 2C", "3C 5D 9S QD KC"],
        stock="8D",
    )
    events = play(game, "draw stock", f"meld {meld}")
    assert (events[1]["points"], game.table[0].kind) == (points, kind)


@pytest.mark.parametrize(("meld", "message"), [shape for shape in MELD_SHAPES if len(shape) == 2])
def test_meld_shape_errors(meld: str, message: str) -> None:
    hand = "7H 7H 7C 7D 7S 8H 9H JK JK JK 5H 6H 6H 8C 9D 8H"
    game = new_game(
        {"hand_size": 16, "opening_threshold": 0, "jokers": 4},
        [hand, "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2D 3D 4D"],
        stock="KD",
    )
    play(game, "draw stock")
    assert_illegal(game, f"meld {meld}", message)


HIGH_ONLY = "in this variant an ace may only sit above the king (Q-K-A)"
LOW_ONLY = "in this variant an ace may only sit below the two (A-2-3)"
NO_WRAP = "an ace may sit below the two or above the king, not between them (no K-A-2)"


@pytest.mark.parametrize(
    ("ace_in_runs", "meld", "outcome"),
    [
        ("high_or_low", "AH 2H 3H", 16),
        ("high_or_low", "QH KH AH", 31),
        ("high_or_low", "KH AH 2H", NO_WRAP),
        ("high", "AH 2H 3H", HIGH_ONLY),
        ("high", "QH KH AH", 31),
        ("high", "KH AH 2H", HIGH_ONLY),
        ("low", "AH 2H 3H", 16),
        ("low", "QH KH AH", LOW_ONLY),
        ("low", "KH AH 2H", LOW_ONLY),
        ("wrap", "AH 2H 3H", 16),
        ("wrap", "QH KH AH", 31),
        ("wrap", "KH AH 2H", 23),
        ("wrap", "JK AH 2H", 23),
        ("high_or_low", "JK 2H 3H", 16),
        # The two ends a run only because the ace may not sit below it: the refusal names the ace's rule.
        ("high", "JK 2H 3H", f"a joker cannot stand below the two: {HIGH_ONLY}"),
        ("low", "QH KH JK", f"a joker cannot stand above the king: {LOW_ONLY}"),
    ],
)
def test_ace_in_runs(ace_in_runs: str, meld: str, outcome: int | str) -> None:
    knobs = {"hand_size": 6, "ace_in_runs": ace_in_runs, "opening_threshold": 0}
    game = new_game(knobs, ["AH 2H 3H QH KH JK", "2C 3D 4S 6C 7C 8D"], stock="9S")
    play(game, "draw stock")
    if isinstance(outcome, str):
        message = outcome if outcome.startswith(meld) else f"{meld} is not a run: {outcome}"
        assert_illegal(game, f"meld {meld}", message)
        return
    events = play(game, f"meld {meld}")
    assert events[0]["points"] == outcome
    assert table_text(game) == [meld]
    assert game.table[0].kind == "run"


@pytest.mark.parametrize(
    ("ace_in_runs", "build", "result"),
    [
        ("high_or_low", "build 1 AH", "JH QH KH AH"),
        ("high", "build 1 AH", "JH QH KH AH"),
        ("low", "build 1 AH", f"AH does not fit either end of the run JH QH KH: {LOW_ONLY}"),
        ("wrap", "build 1 AH", "JH QH KH AH"),
        ("wrap", "build 1 AH 2H", "JH QH KH AH 2H"),
        ("high_or_low", "build 1 AH 2H", "AH 2H does not fit either end of the run JH QH KH"),
        ("high_or_low", "build 1 TH", "TH JH QH KH"),
    ],
)
def test_ace_in_runs_when_building(ace_in_runs: str, build: str, result: str) -> None:
    knobs = {"hand_size": 6, "ace_in_runs": ace_in_runs, "opening_threshold": 0}
    game = new_game(knobs, ["JH QH KH AH 2H TH", "2C 3D 4S 6C 7C 8D"], stock="9S")
    play(game, "draw stock", "meld JH QH KH")
    if " " in result and "fit" in result:
        assert_illegal(game, build, result)
        return
    play(game, build)
    assert table_text(game) == [result]


@pytest.mark.parametrize(
    ("ace_in_runs", "build", "message"),
    [
        # Below the two, where the ace may sit only above the king: refused for the ace's rule.
        ("high", "build 1 AH", f"AH does not fit either end of the run 2H 3H 4H: {HIGH_ONLY}"),
        ("high", "build 1 AH low", f"AH does not fit the low end of the run 2H 3H 4H: {HIGH_ONLY}"),
        # A card that fits no end under any ace rule is refused without it.
        ("high", "build 1 6H", "6H does not fit either end of the run 2H 3H 4H"),
    ],
)
def test_an_ace_built_below_the_two_names_the_ace_rule(ace_in_runs: str, build: str, message: str) -> None:
    knobs = {"hand_size": 6, "ace_in_runs": ace_in_runs, "opening_threshold": 0}
    game = new_game(knobs, ["2H 3H 4H AH 6H 9C", "2C 3D 4S 6C 7C 8D"], stock="9S")
    play(game, "draw stock", "meld 2H 3H 4H")
    assert_illegal(game, build, message)


# ---------------------------------------------------------------- opening_threshold


OPEN_HAND = ["6H 7H 8H 9S 9D 9C KS", "2C 3D 4S 5C 7C 8D JD"]


@pytest.mark.parametrize(
    ("threshold", "meld", "error"),
    [
        (51, "meld 6H 7H 8H", f"your first meld is worth 21 points; this variant needs 51 {OPENING}"),
        (
            51,
            "meld 6H 7H 8H, 9S 9D 9C",
            f"your first melds are worth 48 points; this variant needs 51 {OPENING}",
        ),
        (40, "meld 6H 7H 8H", f"your first meld is worth 21 points; this variant needs 40 {OPENING}"),
        (40, "meld 6H 7H 8H, 9S 9D 9C", None),
        (21, "meld 6H 7H 8H", None),
        (22, "meld 6H 7H 8H", f"your first meld is worth 21 points; this variant needs 22 {OPENING}"),
        (0, "meld 6H 7H 8H", None),
    ],
)
def test_opening_threshold(threshold: int, meld: str, error: str | None) -> None:
    game = new_game({"hand_size": 7, "opening_threshold": threshold}, OPEN_HAND, stock="2H")
    play(game, "draw stock")
    if error is not None:
        assert_illegal(game, meld, error)
        assert game.opened == [False, False]
        return
    play(game, meld)
    assert game.opened == [True, False]


def test_opening_threshold_binds_only_the_first_meld_action() -> None:
    game = new_game(
        {"hand_size": 10, "opening_threshold": 51},
        ["KS KH KD QS QH QD 6H 7H 8H 2C", "2C 3C 4C 5C 9C 2D 3D 4D 5D 9D"],
        stock="4C",
    )
    play(game, "draw stock")
    assert_illegal(
        game, "meld 6H 7H 8H", f"your first meld is worth 21 points; this variant needs 51 {OPENING}"
    )
    play(game, "meld KS KH KD, QS QH QD")
    play(game, "meld 6H 7H 8H")
    assert table_text(game) == ["KS KH KD", "QS QH QD", "6H 7H 8H"]


def test_opening_melds_must_be_laid_in_one_action() -> None:
    game = new_game({"hand_size": 7, "opening_threshold": 40}, OPEN_HAND, stock="2H")
    play(game, "draw stock")
    # Two separate meld commands of 21 and 27 do not add up: each first meld action is judged alone.
    assert_illegal(
        game, "meld 6H 7H 8H", f"your first meld is worth 21 points; this variant needs 40 {OPENING}"
    )
    assert_illegal(
        game, "meld 9S 9D 9C", f"your first meld is worth 27 points; this variant needs 40 {OPENING}"
    )


def test_no_building_before_opening() -> None:
    game = new_game(
        {"hand_size": 5, "opening_threshold": 0},
        ["5C 6C 7C JC 2D", "8C 9C TC KD KS"],
        discard="3S",
        stock="4H 4S 4D",
    )
    play(game, "draw stock", "discard 4H")  # ann does not open
    play(game, "draw stock", "meld 8C 9C TC", "discard 4S")  # bob opens
    play(game, "draw stock")
    assert_illegal(game, "build 1 JC", "you may build only after you have opened (laid your first melds)")
    assert not any(isinstance(action, Build) for action in game.legal_actions())
    play(game, "meld 5C 6C 7C")
    assert Build(1, (parse_card("JC"),), "high") in game.legal_actions()
    play(game, "build 1 JC", "discard 2D")
    assert table_text(game) == ["8C 9C TC JC", "5C 6C 7C"]
    assert game.current == 1


def test_building_is_allowed_after_opening_in_the_same_turn() -> None:
    game = new_game(
        {"hand_size": 5, "opening_threshold": 0},
        ["5C 6C 7C 8C 2D", "8H 9H TH KD KS"],
        discard="3S",
        stock="4H 4S JH",
    )
    play(game, "draw stock", "discard 4H")
    play(game, "draw stock", "meld 8H 9H TH", "discard 4S")
    play(game, "draw stock", "meld 5C 6C 7C", "build 2 8C", "build 1 JH")
    assert table_text(game) == ["8H 9H TH JH", "5C 6C 7C 8C"]
    assert hand_text(game, 0) == ["2D"]
