"""One scenario per knob value: the same position under two values of a knob has a different, exact outcome.

The pack and the table (decks, jokers, hand_size, players, play_direction), card values (ace_value,
joker_penalty), what makes a meld (run_minimum, ace_in_runs, opening_threshold), drawing
(discard_draw), going out (going_out) and the end of the stock (stock_exhausted). Joker release is in
test_rules_jokers.py; Kalooki, scoring and the end of the game in test_scoring.py.
"""

from __future__ import annotations

from collections import Counter

import pytest
from rules_helpers import assert_illegal, hand_text, new_game, pack_intact, play, table_text

from kalooki.cards import JOKER, format_card, full_pack, parse_card, parse_cards
from kalooki.engine import DealError, Game, IllegalMoveError, NotYourTurnError, SetupError
from kalooki.moves import Build, Discard, Draw, Meld
from kalooki.variant import Variant

OPENING = "(lay them all in one meld command: meld A, B, C)"


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
    game = Game(Variant(hand_size=hand_size, opening_threshold=0), ["ann", "bob", "cid"], seed=11)
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
        ("high", "JK 2H 3H", "a joker cannot stand below the two: no card ranks lower"),
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
        ("low", "build 1 AH", "AH does not fit either end of the run JH QH KH"),
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


# ---------------------------------------------------------------- discard_draw


DRAW_HAND = ["7H 8H 9H KS", "2C 5D 9S TH"]
NEVER = "this variant never lets a player take the discard: draw stock"
AFTER = "only a player who has opened may take the discard: draw stock"
BEFORE = "a player who has opened may not take the discard: draw stock"


def at_once(card: str) -> str:
    return f"you may take {card} only to meld it this turn, and you could not: draw stock"


def opened_position(rule: str) -> Game:
    """ann has opened with 7H 8H 9H and holds QS; bob has just discarded TH, which builds on her run."""
    game = new_game(
        {"hand_size": 4, "opening_threshold": 0, "discard_draw": rule},
        DRAW_HAND,
        discard="3D",
        stock="QS QD 4C",
    )
    play(game, "draw stock", "meld 7H 8H 9H", "discard KS")
    play(game, "draw stock", "discard TH")
    return game


@pytest.mark.parametrize(
    ("rule", "discard", "error"),
    [
        ("always", "3D", None),
        ("never", "3D", NEVER),
        ("after_opening", "3D", AFTER),
        ("before_opening", "3D", None),
        ("meld_at_once", "3D", at_once("3D")),
        ("always", "6H", None),
        ("never", "6H", NEVER),
        ("after_opening", "6H", AFTER),
        ("before_opening", "6H", None),
        ("meld_at_once", "6H", None),
    ],
)
def test_discard_draw_before_opening(rule: str, discard: str, error: str | None) -> None:
    game = new_game(
        {"hand_size": 4, "opening_threshold": 0, "discard_draw": rule}, DRAW_HAND, discard=discard, stock="QS"
    )
    assert (Draw("discard") in game.legal_actions()) == (error is None)
    assert Draw("stock") in game.legal_actions()
    if error is not None:
        assert_illegal(game, "draw discard", error)
        return
    events = play(game, "draw discard")
    assert events[0] == {"type": "draw", "player": "ann", "source": "discard", "card": discard}
    assert game.discard_pile == []
    assert parse_card(discard) in game.hands[0]


@pytest.mark.parametrize(
    ("rule", "error"),
    [
        ("always", None),
        ("never", NEVER),
        ("after_opening", None),
        ("before_opening", BEFORE),
        ("meld_at_once", None),
    ],
)
def test_discard_draw_after_opening(rule: str, error: str | None) -> None:
    game = opened_position(rule)
    assert game.opened == [True, False]
    assert (Draw("discard") in game.legal_actions()) == (error is None)
    if error is not None:
        assert_illegal(game, "draw discard", error)
        return
    play(game, "draw discard")
    assert hand_text(game, 0) == ["QS", "TH"]


def test_discard_draw_meld_at_once_refuses_an_unusable_card_after_opening() -> None:
    game = new_game(
        {"hand_size": 4, "opening_threshold": 0, "discard_draw": "meld_at_once"},
        DRAW_HAND,
        discard="3D",
        stock="QS QD 4C",
    )
    play(game, "draw stock", "meld 7H 8H 9H", "discard KS")
    play(game, "draw stock", "discard 2C")
    assert_illegal(game, "draw discard", at_once("2C"))
    assert Draw("discard") not in game.legal_actions()


@pytest.mark.parametrize(("rule", "must_use"), [("always", False), ("meld_at_once", True)])
def test_discard_draw_meld_at_once_card_must_be_used_before_the_discard(rule: str, must_use: bool) -> None:
    game = opened_position(rule)
    play(game, "draw discard")
    debt = "you took TH from the discard pile: meld or build it before you discard"
    if must_use:
        assert_illegal(game, "discard QS", debt)
        assert_illegal(game, "discard TH", debt)
        assert not any(isinstance(action, Discard) for action in game.legal_actions())
        play(game, "build 1 TH", "discard QS")
    else:
        play(game, "discard TH")
        assert game.discard_pile[-1] == parse_card("TH")
        return
    assert game.results[-1].winner == 0
    assert table_text(game) == ["7H 8H 9H TH"]


def test_discard_draw_meld_at_once_before_opening_the_taken_card_must_be_melded() -> None:
    game = new_game(
        {"hand_size": 4, "opening_threshold": 0, "discard_draw": "meld_at_once"},
        DRAW_HAND,
        discard="6H",
        stock="QS",
    )
    play(game, "draw discard")
    message = "you took 6H from the discard pile: meld or build it before you discard"
    assert_illegal(game, "discard 6H", message)
    assert_illegal(game, "discard KS", message)
    play(game, "meld 6H 7H 8H 9H", "discard KS")
    assert game.results[-1].winner == 0


# ---------------------------------------------------------------- going_out


KEEP = "you must keep a card to discard: in this variant the last card must be discarded"


@pytest.mark.parametrize("rule", ["discard_required", "discard_optional"])
def test_going_out_by_melding_the_last_card(rule: str) -> None:
    knobs = {"hand_size": 4, "opening_threshold": 0, "going_out": rule, "kalooki_bonus": 0}
    game = new_game(knobs, ["7H 8H 9H TH", "2C 5D 9S KD"], stock="JH KS")
    play(game, "draw stock")
    if rule == "discard_required":
        assert_illegal(game, "meld 7H 8H 9H TH JH", KEEP)
        assert all(
            sum(map(len, action.groups)) < 5 for action in game.legal_actions() if isinstance(action, Meld)
        )
        play(game, "meld 7H 8H 9H TH", "discard JH")
        assert game.discard_pile[-1] == parse_card("JH")
    else:
        events = play(game, "meld 7H 8H 9H TH JH")
        assert events[-1]["type"] == "hand_end"
        assert game.discard_pile == [parse_card("2D")]
    assert game.phase == "hand_over"
    assert game.results[-1].winner == 0
    assert game.results[-1].hand_points == (0, 2 + 5 + 9 + 10)


@pytest.mark.parametrize("rule", ["discard_required", "discard_optional"])
def test_going_out_by_building_the_last_card(rule: str) -> None:
    knobs = {"hand_size": 4, "opening_threshold": 0, "going_out": rule}
    game = new_game(knobs, ["6H 7H 8H 9H", "2C 5D 9S KD"], stock="KS QD TH")
    play(game, "draw stock", "meld 6H 7H 8H", "discard KS")
    play(game, "draw stock", "discard QD")
    play(game, "draw stock")
    assert hand_text(game, 0) == ["9H", "TH"]
    if rule == "discard_required":
        assert_illegal(game, "build 1 9H TH", KEEP)
        play(game, "build 1 9H", "discard TH")
    else:
        play(game, "build 1 9H TH")
    assert game.phase == "hand_over"
    result = game.results[-1]
    assert (result.winner, result.kalooki) == (0, False)
    assert result.hand_points == (0, 2 + 5 + 9 + 10)


def test_discard_required_is_the_seed_rule_you_cannot_end_without_a_discard() -> None:
    # Seed 000: "even when going out you must end your turn with a discard".
    game = new_game({"hand_size": 3, "opening_threshold": 0}, ["7H 8H 9H", "2C 5D 9S"], stock="TH")
    play(game, "draw stock")
    assert_illegal(game, "meld 7H 8H 9H TH", KEEP)
    assert_illegal(game, "discard JH", "you have no JH in your hand to discard")


# ---------------------------------------------------------------- stock_exhausted

# One pack without jokers, 24 cards each for two players: the stock holds exactly 3 cards.
TINY = {"decks": 1, "jokers": 0, "hand_size": 24, "max_players": 2, "opening_threshold": 0}
TINY_HANDS = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
]


def tiny_game(rule: str) -> Game:
    game = new_game({**TINY, "stock_exhausted": rule}, TINY_HANDS, discard="AC", stock="AD AH AS")
    assert len(game.stock) == 3
    play(game, "draw stock", "discard AD")
    play(game, "draw stock", "discard AH")
    return game


@pytest.mark.parametrize(
    ("rule", "stock", "pile_after_discard"),
    [
        ("reshuffle_all", ["AC", "AD", "AH"], ["KC"]),
        ("reshuffle_keep_top", ["AC", "AD"], ["AH", "KC"]),
    ],
)
def test_stock_exhausted_reshuffles(rule: str, stock: list[str], pile_after_discard: list[str]) -> None:
    game = tiny_game(rule)
    events = play(game, "draw stock")
    assert events[0]["card"] == "AS"
    assert events[1]["type"] == "reshuffle"
    assert events[1]["rule"] == rule
    assert Counter(game.stock) == Counter(parse_cards(" ".join(stock)))
    assert pack_intact(game)
    play(game, "discard KC")
    assert game.discard_pile == parse_cards(" ".join(pile_after_discard))
    assert game.phase == "draw"
    assert game.current == 1
    assert game.results == []


def test_stock_exhausted_end_hand_ends_the_hand_unscored() -> None:
    game = tiny_game("end_hand")
    events = play(game, "draw stock")
    assert events[1] == {"type": "stock_out", "rule": "end_hand"}
    assert game.stock == []
    assert game.phase == "play"  # the player who drew the last card still finishes the turn
    events = play(game, "discard KC")
    assert events[-1]["type"] == "hand_end"
    assert events[-1]["end"] == "stock_exhausted"
    result = game.results[-1]
    assert (result.winner, result.end, result.kalooki) == (None, "stock_exhausted", False)
    assert result.scores == (0, 0)
    assert game.totals == [0, 0]
    assert game.phase == "hand_over"


def test_stock_exhausted_end_hand_still_lets_the_drawer_go_out() -> None:
    game = tiny_game("end_hand")
    play(game, "draw stock")
    assert game.stock_ran_out
    events = play(
        game,
        "meld 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC, 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        "discard AS",
    )
    assert [event["type"] for event in events[-3:]] == ["discard", "hand_end", "game_end"]
    assert events[-2]["end"] == "went_out"
    result = game.results[-1]
    assert (result.winner, result.kalooki) == (0, True)
    assert result.hand_points == (0, 2 * 84)
    assert result.scores == (0, 2 * 84 + 25)
    assert (game.phase, game.winners) == ("game_over", [0])


# ---------------------------------------------------------------- the turn itself (every variant)


@pytest.mark.parametrize(
    ("moves", "seat", "message"),
    [
        ((), 2, "there is no seat 2 at this table"),
        ((), -1, "there is no seat -1 at this table"),
        (("draw stock", "discard KS"), 0, "it is bob's turn, not ann's"),
        (("draw stock", "discard KS"), 2, "there is no seat 2 at this table"),
    ],
)
def test_acting_for_a_seat_not_on_turn(moves: tuple[str, ...], seat: int, message: str) -> None:
    game = new_game({"hand_size": 4, "opening_threshold": 0}, DRAW_HAND, discard="3D", stock="QS QD")
    play(game, *moves)
    before = game.to_json()
    with pytest.raises(NotYourTurnError) as caught:
        game.apply(Draw("stock"), seat=seat)
    assert str(caught.value) == message
    assert game.to_json() == before


def test_turn_order_errors() -> None:
    game = new_game({"hand_size": 4, "opening_threshold": 0}, DRAW_HAND, discard="3D", stock="QS QD")
    assert_illegal(game, "discard KS", "ann must draw first: draw stock or draw discard")
    assert_illegal(game, "meld 7H 8H 9H", "ann must draw first: draw stock or draw discard")
    assert_illegal(game, "build 1 TH", "ann must draw first: draw stock or draw discard")
    before = game.to_json()
    with pytest.raises(NotYourTurnError) as caught:
        game.apply(Draw("stock"), seat=1)
    assert str(caught.value) == "it is ann's turn, not bob's"
    assert game.to_json() == before
    play(game, "draw stock")
    assert_illegal(game, "draw stock", "ann has drawn already this turn: meld, build or discard")
    assert_illegal(game, "draw discard", "ann has drawn already this turn: meld, build or discard")
    assert_illegal(game, "build 1 TH", "you may build only after you have opened (laid your first melds)")
    assert_illegal(game, "meld 7H 8H", "7H 8H is not a meld: a meld needs at least 3 cards")
    assert_illegal(game, "meld 7H 8H 9H JK", "you have no JK in your hand to play")
    assert_illegal(game, "meld 7H 8H KS", "7H 8H KS is not a run: the suits differ")
    play(game, "meld 7H 8H 9H")
    assert_illegal(game, "build 2 QS", "there is no table meld 2: the melds are numbered 1 to 1")
    assert_illegal(game, "build 1 QS", "QS does not fit the run 7H 8H 9H: the suit differs")
    play(game, "discard QS")
    assert game.current == 1


@pytest.mark.parametrize(
    ("goal", "phase", "message"), [(42, "hand_over", "hand 1 is over"), (41, "game_over", "the game is over")]
)
def test_actions_after_the_hand_and_the_game_are_over(goal: int, phase: str, message: str) -> None:
    game = new_game({"hand_size": 3, "opening_threshold": 0, "goal_score": goal}, THREE[:2], stock="KS")
    play(game, "draw stock", "meld 7H 8H 9H", "discard KS")
    assert game.totals == [0, 2 + 5 + 9 + 25]
    assert game.phase == phase
    assert_illegal(game, "draw stock", message)
    assert_illegal(game, "discard KS", message)


def test_undo_turn_takes_back_melds_and_builds_but_not_the_draw() -> None:
    game = new_game(
        {"hand_size": 5, "opening_threshold": 0}, ["7H 8H 9H TH 2C", "2D 5D 9S KD QC"], stock="JH"
    )
    play(game, "draw stock")
    assert not game.can_undo()
    drawn = game.to_json()
    play(game, "meld 7H 8H 9H", "build 1 TH JH")
    assert game.can_undo()
    assert game.opened == [True, False]
    game.undo_turn()
    after = game.to_json()
    for key in ("hands", "table", "opened", "stock", "discard_pile", "phase", "current"):
        assert after[key] == drawn[key]
    assert hand_text(game, 0) == ["2C", "7H", "8H", "9H", "JH", "TH"]
    with pytest.raises(IllegalMoveError) as caught:
        game.undo_turn()
    assert str(caught.value) == "there is nothing to take back this turn"


@pytest.mark.parametrize(
    ("rule", "discard_draw", "outcome"),
    [
        # ann draws the only stock card while the pile holds one card: nothing to reshuffle yet under
        # keep_top. After her discard the pile holds two: all but the top card make bob's stock.
        ("reshuffle_keep_top", "never", ("draw", 1, 1)),
        ("reshuffle_keep_top", "always", ("draw", 1, 1)),
        ("reshuffle_all", "never", ("draw", 1, 1)),
        ("end_hand", "never", ("hand_over", 0, 2)),
    ],
)
def test_a_pile_too_small_to_reshuffle_is_reshuffled_once_it_has_grown(
    rule: str, discard_draw: str, outcome: tuple[str, int, int]
) -> None:
    knobs = {"decks": 1, "jokers": 2, "hand_size": 26, "max_players": 2, "opening_threshold": 0}
    game = Game(Variant(**knobs, stock_exhausted=rule, discard_draw=discard_draw), ["ann", "bob"], seed=1)
    assert (len(game.stock), len(game.discard_pile)) == (1, 1)
    first = game.discard_pile[0]
    game.apply(Draw("stock"))
    game.apply(Discard(game.hands[0][0]))
    assert (game.phase, len(game.stock), len(game.discard_pile)) == outcome
    if rule == "reshuffle_keep_top":
        assert game.stock == [first]
        assert Draw("stock") in game.legal_actions()
    assert pack_intact(game)


@pytest.mark.parametrize(("threshold", "legal"), [(0, True), (9, True), (10, False)])
def test_discard_draw_meld_at_once_opening_then_building_the_taken_card(threshold: int, legal: bool) -> None:
    # ann has not opened; the KC she wants builds on bob's run only once she opens with 2S 3S 4S (9 points).
    knobs = {"hand_size": 5, "opening_threshold": threshold, "discard_draw": "meld_at_once"}
    game = new_game(knobs, ["2S 3S 4S KD 9H", "TC JC QC KC 5H"], discard="2D", stock="AD 4H")
    play(game, "draw stock", "discard AD")
    play(game, "draw stock", "meld TC JC QC", "discard KC")
    assert (Draw("discard") in game.legal_actions()) == legal
    if not legal:
        assert_illegal(game, "draw discard", at_once("KC"))
        return
    play(game, "draw discard", "meld 2S 3S 4S", "build 1 KC", "discard KD")
    assert table_text(game) == ["TC JC QC KC", "2S 3S 4S"]


@pytest.mark.parametrize(
    ("run", "build", "result"),
    [
        ("5H 6H 7H", "build 1 JK", "5H 6H 7H JK"),
        ("5H 6H 7H", "build 1 JK high", "5H 6H 7H JK"),
        ("5H 6H 7H", "build 1 JK low", "JK 5H 6H 7H"),
        ("QH KH AH", "build 1 JK", "JK QH KH AH"),
        ("5H 6H 7H", "build 1 4H", "4H 5H 6H 7H"),
        ("5H 6H 7H", "build 1 JK 9H", "5H 6H 7H JK 9H"),
        ("5H 6H 7H", "build 1 3H JK low", "3H JK 5H 6H 7H"),
    ],
)
def test_a_joker_goes_on_the_high_end_unless_low_is_given_or_the_high_end_is_closed(
    run: str, build: str, result: str
) -> None:
    game = new_game(
        {"hand_size": 7, "opening_threshold": 0},
        [f"{run} JK 4H 9H 3H", "2C 3C 4C 5C 6C 7C 8C"],
        stock="KS",
    )
    play(game, "draw stock", f"meld {run}", build)
    assert table_text(game) == [result]
