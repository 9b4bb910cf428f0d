"""What a joker counts toward the opening (opening_joker_value).

Seed 001, the "Kaluki Rummy Rules" guide: "the point values shown below are used to add up each players
first Meld, which must contain 51+ points", the list ending "Joker = 25 points" (``penalty``: the joker
counts joker_penalty, whatever it stands for). Seed 000, the online room: "the Joker takes on the point
value of the card it represents" (``represented``, the default).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from rules_helpers import assert_illegal, new_game, play, table_text
from solver_reference import agree
from solver_reference import variant as solver_variant

from kalooki import driver
from kalooki.bots import make_bot
from kalooki.cards import JOKER, parse_cards
from kalooki.engine import FixedDeal, Game
from kalooki.loader import VariantError, load_variant
from kalooki.melds import make_meld
from kalooki.rulebook import key_rules, render_rulebook
from kalooki.solver import best_opening, solve
from kalooki.variant import Variant

KALUKI_51 = load_variant("kaluki-51").model_copy(update={"first_dealer": "seat_order"})
"""The built-in, dealt by seat order so that ann (seat 0) plays first."""

OTHER_HANDS = [
    "AC 2H 3D 4S 5D 6D 8D 9D JS QC KC TC 6C",
    "AD 2S 3C 4H 5H 6H 8S 9C JC QD KD TD 7C",
    "AS 3H 4C 5S 7H 7S 8H QS KS TS JD QH KH",
]

EXAMPLE = "2H JK 4H 5H 9S 9D 9C 3C 3D 3S KD 8C 6S"
"""2H JK 4H 5H (2 + 25 + 4 + 5 = 36, or 14 with the joker as 3H), 9S 9D 9C (27), 3C 3D 3S (9)."""

ONE_COMMAND = "(lay them all in one meld command, melds parted by commas: meld 7H 8H 9H, QS QD QC)"


def kaluki_game(value: str) -> Game:
    rules = KALUKI_51.model_copy(update={"opening_joker_value": value})
    game = new_game(rules, [EXAMPLE, *OTHER_HANDS], discard=None, stock="7D")
    play(game, "draw stock")
    return game


def test_kaluki_51_opens_with_a_joker_counted_at_25() -> None:
    game = kaluki_game("penalty")
    (event,) = play(game, "meld 2H JK 4H 5H, 9S 9D 9C, 3C 3D 3S")
    assert event["points"] == 36 + 27 + 9 == 72
    assert game.opened[0]
    assert table_text(game) == ["2H JK 4H 5H", "9S 9D 9C", "3C 3D 3S"]


def test_the_same_meld_counted_as_the_card_it_stands_for_is_refused() -> None:
    game = kaluki_game("represented")
    assert_illegal(
        game,
        "meld 2H JK 4H 5H, 9S 9D 9C, 3C 3D 3S",
        f"your first melds are worth 50 points; this variant needs 51 {ONE_COMMAND}",
    )


def test_classic_refuses_it() -> None:
    game = new_game(Variant(), [EXAMPLE, OTHER_HANDS[0]], stock="7D")
    play(game, "draw stock")
    assert_illegal(
        game,
        "meld 2H JK 4H 5H, 9S 9D 9C, 3C 3D 3S",
        f"your first melds are worth 50 points; this variant needs 51 {ONE_COMMAND}",
    )


@pytest.mark.parametrize(
    ("meld", "represented", "penalty"),
    [
        ("7S 7D JK", 21, 14 + 25),  # a set: the joker a seven
        ("7S JK JK", 21, 7 + 50),
        ("QH KH JK", 31, 20 + 25),  # a run: the joker an ace high
        ("JK 2H 3H", 1 + 5, 25 + 5),  # a run: the joker an ace low, worth ace_low_value 1
        ("5C JK 7C JK", 5 + 6 + 7 + 8, 12 + 50),
    ],
)
def test_a_joker_counts_its_own_points_in_a_set_and_in_a_run(
    meld: str, represented: int, penalty: int
) -> None:
    for value, worth in (("represented", represented), ("penalty", penalty)):
        rules = Variant(ace_low_value=1, joker_penalty=25, opening_joker_value=value)
        assert make_meld(parse_cards(meld), rules).worth(rules) == worth, value


@pytest.mark.parametrize(("threshold", "opens"), [(38, True), (39, True), (40, False)])
def test_the_engine_opens_at_the_threshold_exactly(threshold: int, opens: bool) -> None:
    rules = {"hand_size": 5, "opening_threshold": threshold, "opening_joker_value": "penalty"}
    game = new_game(rules, ["7S 7D JK 2C 9H", "3D 5D 8S KC QC"], stock="4H")
    play(game, "draw stock")
    if opens:
        assert play(game, "meld 7S 7D JK")[0]["points"] == 39
        return
    assert_illegal(
        game,
        "meld 7S 7D JK",
        f"your first meld is worth 39 points; this variant needs 40 {ONE_COMMAND}",
    )


# ---------------------------------------------------------------- the solver

BOUNDARY = "7S 7D JK 3C 4C 5C 9H"
"""7S 7D JK (39 with the joker at 25) and 3C 4C 5C (12): 51 at most; 33 with the joker as a seven."""


@pytest.mark.parametrize(("threshold", "opens"), [(51, True), (52, False)])
def test_the_solvers_opening_meets_the_threshold_exactly(threshold: int, opens: bool) -> None:
    rules = solver_variant(threshold=threshold, opening_joker_value="penalty")
    hand = parse_cards(BOUNDARY)
    plan = best_opening(hand, rules)
    if not opens:
        assert plan is None
        assert solve(hand, rules, opened=False).empty
        return
    assert plan is not None
    assert plan.points == 51
    assert sorted(map(sorted, plan.melds)) == sorted(
        map(sorted, [parse_cards("7S 7D JK"), parse_cards("3C 4C 5C")])
    )
    assert plan.remaining == tuple(parse_cards("9H"))
    for objective in ("points", "cards", "value_left"):
        agree(hand, rules, objective, opened=False)


def test_represented_the_same_hand_is_far_from_opening() -> None:
    rules = solver_variant(threshold=34)
    hand = parse_cards(BOUNDARY)
    assert best_opening(hand, rules) is None
    assert solve(hand, rules, objective="points").points == 21 + 12 + 0
    assert best_opening(hand, solver_variant(threshold=33)) is not None


def test_the_points_objective_puts_a_joker_where_its_own_points_count_and_builds_count_them_too() -> None:
    # Counted as the card it stands for, a joker is worth most as an ace (QH KH JK: 31); at its own
    # points it adds 25 wherever it goes, builds onto the table included.
    rules = solver_variant(threshold=0, opening_joker_value="penalty")
    table = [make_meld(parse_cards("4D 5D 6D"), rules)]
    hand = parse_cards("QH KH JK 2S")
    plan = solve(hand, rules, objective="points", table=table)
    assert plan.points == 45
    agree(hand, rules, "points", table)
    plan = solve(parse_cards("JK 2S"), rules, objective="points", table=table)
    assert (plan.points, [cards for _, cards, _ in plan.builds]) == (25, [(JOKER,)])
    # As the card it stands for, the joker built at the high end is a 7D.
    assert (
        solve(parse_cards("JK 2S"), solver_variant(threshold=0), objective="points", table=table).points == 7
    )


# ---------------------------------------------------------------- the bots


@pytest.mark.parametrize("bot", ["greedy", "expert", "random"])
@pytest.mark.parametrize("value", ["penalty", "represented"])
def test_a_bot_opens_with_the_joker_at_25_and_not_without(bot: str, value: str) -> None:
    rules = KALUKI_51.model_copy(update={"opening_joker_value": value})
    hands = {seat: parse_cards(cards) for seat, cards in enumerate([EXAMPLE, *OTHER_HANDS])}
    game = Game(
        rules,
        ["a", "b", "c", "d"],
        seed=1,
        deal=FixedDeal(hands=hands, discard=None, stock_top=parse_cards("7D")),
    )
    driver.play_turn(game, make_bot(bot, random.Random(0)))
    assert game.opened[0] == (value == "penalty")
    if value == "penalty":
        assert sum(meld.worth(rules) for meld in game.table) >= 51
        assert sum(meld.cards.count(JOKER) for meld in game.table) == 1


# ---------------------------------------------------------------- the variant file and the rulebook


def test_a_bad_value_is_refused_with_the_values_it_takes(tmp_path: Path) -> None:
    path = tmp_path / "v.yaml"
    path.write_text("opening_joker_value: joker_penalty\n", encoding="utf-8")
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    assert str(caught.value).endswith(
        "v.yaml:1:22: opening_joker_value: expected one of represented, penalty, got 'joker_penalty'"
    )
    path.write_text("opening_joker_value: penalty\n", encoding="utf-8")
    assert load_variant(path).opening_joker_value == "penalty"
    assert load_variant("classic").opening_joker_value == "represented"


def test_the_rulebook_says_what_a_joker_counts_toward_the_opening() -> None:
    kaluki = render_rulebook(load_variant("kaluki-51"))
    assert (
        "must together be worth at least 51 points, a joker counting 25 points whatever card it stands for."
        in kaluki
    )
    assert "A joker counts 25 points: in a meld, whatever card it stands for, and left in your hand" in kaluki
    assert "Your first melds must total at least 51 points, a joker 25 (lay them together)." in key_rules(
        load_variant("kaluki-51")
    )
    classic = render_rulebook(load_variant("classic"))
    assert "must together be worth at least 51 points, a joker counting as the card it stands for." in classic
