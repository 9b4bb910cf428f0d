"""Going Kalooki, scoring and the end of the game: kalooki_bonus, kalooki_allows_building, scoring,
goal_score, elimination, and ties sharing the win.

Seed 000 (penalty scoring): going Kalooki adds 25 penalty points to every loser's card count.
Seed 001 (winner collects): the winner adds the losers' hand values; going Kaluki takes 25 from each loser's
score, "if necessary receiving a negative score"; the first to the goal score wins.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from rules_helpers import fixed_deal, new_game, play

from kalooki.engine import DealError, FixedDeal, Game, IllegalMoveError
from kalooki.variant import Variant

# ann goes out on her first turn, laying her whole hand: Kalooki. bob holds AC 5D 9S JK = 50.
KALOOKI_HANDS = ["7H 8H 9H TH", "AC 5D 9S JK"]


def kalooki_game(**knobs: Any) -> Game:
    game = new_game({"hand_size": 4, "opening_threshold": 0, **knobs}, KALOOKI_HANDS, stock="KS")
    play(game, "draw stock", "meld 7H 8H 9H TH", "discard KS")
    return game


def plain_out_game(**knobs: Any) -> Game:
    """ann opens on turn 1 and goes out on turn 2: not Kalooki. bob ends with AC 5D 9S JK 3C = 53."""
    game = new_game(
        {"hand_size": 5, "opening_threshold": 0, **knobs},
        ["7H 8H 9H TH 2C", "AC 5D 9S JK 3C"],
        stock="KS QD JH",
    )
    play(game, "draw stock", "meld 7H 8H 9H", "discard KS")
    play(game, "draw stock", "discard QD")
    play(game, "draw stock", "build 1 TH JH", "discard 2C")
    return game


@pytest.mark.parametrize(
    ("scoring", "bonus", "scores"),
    [
        ("penalty", 25, (0, 75)),
        ("penalty", 0, (0, 50)),
        ("penalty", 40, (0, 90)),
        ("winner_collects", 25, (50, -25)),
        ("winner_collects", 0, (50, 0)),
        ("winner_collects", 40, (50, -40)),
    ],
)
def test_kalooki_bonus_under_each_scoring(scoring: str, bonus: int, scores: tuple[int, int]) -> None:
    game = kalooki_game(scoring=scoring, kalooki_bonus=bonus, goal_score=500)
    result = game.results[-1]
    assert (result.winner, result.kalooki, result.end) == (0, True, "went_out")
    assert result.hand_points == (0, 50)
    assert result.scores == scores
    assert game.totals == list(scores)
    assert game.phase == "hand_over"


@pytest.mark.parametrize(
    ("scoring", "bonus", "scores"),
    [
        ("penalty", 25, (0, 53)),
        ("penalty", 0, (0, 53)),
        ("winner_collects", 25, (53, 0)),
        ("winner_collects", 0, (53, 0)),
    ],
)
def test_going_out_after_opening_earlier_is_not_kalooki(
    scoring: str, bonus: int, scores: tuple[int, int]
) -> None:
    game = plain_out_game(scoring=scoring, kalooki_bonus=bonus)
    result = game.results[-1]
    assert (result.winner, result.kalooki) == (0, False)
    assert result.hand_points == (0, 53)
    assert result.scores == scores


def test_hand_end_event_reports_the_kalooki() -> None:
    game = new_game({"hand_size": 4, "opening_threshold": 0}, KALOOKI_HANDS, stock="KS")
    events = play(game, "draw stock", "meld 7H 8H 9H TH", "discard KS")
    assert events[-1] == {
        "type": "hand_end",
        "hand": 1,
        "end": "went_out",
        "winner": "ann",
        "kalooki": True,
        "hand_points": {"ann": 0, "bob": 50},
        "scores": {"ann": 0, "bob": 75},
        "totals": {"ann": 0, "bob": 75},
    }


# ---------------------------------------------------------------- kalooki_allows_building


def building_out_game(allows: bool) -> Game:
    """ann lays her whole hand in one turn, building 8C on bob's run: bob ends with AD 3H 4D = 18."""
    game = new_game(
        {"hand_size": 6, "opening_threshold": 0, "kalooki_allows_building": allows},
        ["2S 3S 4S 5S 8C 9D", "5C 6C 7C AD 3H 4D"],
        stock="KH QD 6S",
    )
    play(game, "draw stock", "discard KH")
    play(game, "draw stock", "meld 5C 6C 7C", "discard QD")
    play(game, "draw stock", "meld 2S 3S 4S 5S 6S", "build 1 8C", "discard 9D")
    return game


@pytest.mark.parametrize(("allows", "kalooki", "bob"), [(False, False, 18), (True, True, 18 + 25)])
def test_kalooki_allows_building(allows: bool, kalooki: bool, bob: int) -> None:
    # Seed 000: Kalooki is laying down all the cards "without using any builders"; seed 001: the first meld,
    # building and the discard may all come in the same play.
    game = building_out_game(allows)
    result = game.results[-1]
    assert (result.winner, result.kalooki) == (0, kalooki)
    assert result.hand_points == (0, 18)
    assert result.scores == (0, bob)


@pytest.mark.parametrize(("allows", "kalooki"), [(False, False), (True, True)])
def test_taking_a_joker_in_the_going_out_turn_counts_as_building(allows: bool, kalooki: bool) -> None:
    game = new_game(
        {
            "hand_size": 7,
            "opening_threshold": 0,
            "kalooki_allows_building": allows,
            "joker_release_requires_opening": False,
        },
        ["2S 3S 4S 7C 9D 9H KD", "5C 6C JK AD 3H 4D 8H"],
        stock="KH QD 9C",
    )
    play(game, "draw stock", "discard KH")
    play(game, "draw stock", "meld 5C 6C JK", "discard QD")
    play(game, "draw stock", "swap 1 7C", "meld 2S 3S 4S JK, 9D 9H 9C", "discard KD")
    assert game.results[-1].kalooki == kalooki
    assert game.results[-1].winner == 0


@pytest.mark.parametrize("allows", [False, True])
def test_kalooki_without_building_either_way(allows: bool) -> None:
    game = kalooki_game(kalooki_allows_building=allows)
    assert game.results[-1].kalooki is True
    assert game.results[-1].scores == (0, 75)


# ---------------------------------------------------------------- scoring


@pytest.mark.parametrize(
    ("scoring", "scores", "totals"),
    [("penalty", (0, 53, 33), [0, 53, 33]), ("winner_collects", (86, 0, 0), [86, 0, 0])],
)
def test_scoring_three_players(scoring: str, scores: tuple[int, ...], totals: list[int]) -> None:
    game = new_game(
        {"hand_size": 5, "opening_threshold": 0, "scoring": scoring},
        ["7H 8H 9H TH 2C", "AC 5D 9S JK 3C", "KC KD 3S 4H 6S"],
        stock="KS QD 4D JH",
    )
    play(game, "draw stock", "meld 7H 8H 9H", "discard KS")
    play(game, "draw stock", "discard QD")
    play(game, "draw stock", "discard 4D")
    play(game, "draw stock", "build 1 TH JH", "discard 2C")
    result = game.results[-1]
    assert result.hand_points == (0, 53, 10 + 10 + 3 + 4 + 6)
    assert sum(result.scores) == (0 if scoring == "penalty" else 86) + (86 if scoring == "penalty" else 0)
    assert result.scores == scores
    assert game.totals == totals


# ---------------------------------------------------------------- goal_score


@pytest.mark.parametrize(
    ("scoring", "goal", "over"),
    [
        ("penalty", 75, True),
        ("penalty", 76, False),
        ("penalty", 150, False),
        ("winner_collects", 50, True),
        ("winner_collects", 51, False),
    ],
)
def test_goal_score(scoring: str, goal: int, over: bool) -> None:
    # bob takes 75 penalty points (50 + the Kalooki 25); with winner_collects ann collects 50.
    game = kalooki_game(scoring=scoring, goal_score=goal)
    if over:
        assert game.phase == "game_over"
        assert game.winners == [0]
        assert game.game_over
    else:
        assert game.phase == "hand_over"
        assert game.winners == []
        game.next_hand()
        assert (game.hand_number, game.phase, game.current) == (2, "draw", 1)


def test_goal_score_game_end_event_names_the_winners() -> None:
    game = new_game({"hand_size": 4, "opening_threshold": 0, "goal_score": 60}, KALOOKI_HANDS, stock="KS")
    events = play(game, "draw stock", "meld 7H 8H 9H TH", "discard KS")
    assert events[-1] == {"type": "game_end", "winners": ["ann"], "totals": {"ann": 0, "bob": 75}}
    with pytest.raises(IllegalMoveError) as caught:
        game.next_hand()
    assert str(caught.value) == "the game is over: start a new game"


# ---------------------------------------------------------------- elimination

ELIM = {"hand_size": 4, "opening_threshold": 0, "kalooki_bonus": 0, "goal_score": 60}
# ann goes out; bob holds JK JK KS KD = 70 (over the goal), cid 2C 3C 4D 5S = 14.
ELIM_HANDS = ["7H 8H 9H TH", "JK JK KS KD", "2C 3C 4D 5S"]


@pytest.mark.parametrize("elimination", [False, True])
def test_elimination_over_the_goal(elimination: bool) -> None:
    game = new_game({**ELIM, "elimination": elimination}, ELIM_HANDS, stock="QS")
    events = play(game, "draw stock", "meld 7H 8H 9H TH", "discard QS")
    assert game.totals == [0, 70, 14]
    if not elimination:
        assert game.phase == "game_over"
        assert game.winners == [0]
        assert game.eliminated == [False, False, False]
        return
    assert {"type": "eliminated", "player": "bob"} in events
    assert game.phase == "hand_over"
    assert game.eliminated == [False, True, False]
    assert game.winners == []
    before = json.dumps(game.to_json(), sort_keys=True)
    with pytest.raises(DealError) as caught:
        game.next_hand(fixed_deal({0: "2C 3C 4D 5S", 1: "2H 3H 4H 5H"}))
    assert str(caught.value) == "bob is out of the game (eliminated in hand 1): leave bob out of the deal"
    assert json.dumps(game.to_json(), sort_keys=True) == before
    # Hand 2: bob sits out; the first player moves past him to cid, who goes out; ann takes 70 and is out too.
    game.next_hand(fixed_deal({0: "JK JK KS KD", 2: "6H 7H 8H 9H"}, stock="QS"))
    assert game.current == 2
    assert game.hands[1] == []
    play(game, "draw stock", "meld 6H 7H 8H 9H", "discard QS")
    result = game.results[-1]
    assert result.seats == (0, 2)
    assert result.hand_points == (70, 0, 0)
    assert result.scores == (70, 0, 0)
    assert game.totals == [70, 70, 14]
    assert game.eliminated == [True, True, False]
    assert game.phase == "game_over"
    assert game.winners == [2]


def test_elimination_turns_skip_an_eliminated_player() -> None:
    game = new_game({**ELIM, "elimination": True, "goal_score": 60}, ELIM_HANDS, stock="QS")
    play(game, "draw stock", "meld 7H 8H 9H TH", "discard QS")
    game.next_hand(fixed_deal({0: "2C 3C 4D 5S", 2: "2H 3H 5D 8S"}, stock="KC KH"))
    assert game.current == 2
    play(game, "draw stock", "discard KC")
    assert game.current == 0
    play(game, "draw stock", "discard KH")
    assert game.current == 2


@pytest.mark.parametrize(
    ("bob_hand", "out"),
    [("JK JK AC AD AH AS KC KD KH KS QC 6C", True), ("JK JK AC AD AH AS KC KD KH KS QC 5C", False)],
)
def test_elimination_at_150_counts_reaching_it(bob_hand: str, out: bool) -> None:
    # bob's hand is worth 150 (or 149): the variant's goal_score "eliminates a player reaching it".
    game = new_game(
        {"hand_size": 12, "elimination": True, "kalooki_bonus": 0},
        ["2H 3H 4H 5H 6H 7H 8H 9H TH JH QH 2D", bob_hand, "2C 3C 4C 5D 6D 7D 8D 9D TD 3S 4S 5S"],
        stock="KH",
    )
    play(game, "draw stock", "meld 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", "discard 2D")
    assert game.results[-1].hand_points[1] == (150 if out else 149)
    assert game.eliminated == [False, out, False]
    assert game.phase == "hand_over"


# ---------------------------------------------------------------- ties share the win


def test_ties_share_the_win() -> None:
    knobs = {"hand_size": 4, "opening_threshold": 0, "kalooki_bonus": 0, "goal_score": 60}
    # Hand 1: ann goes out; bob holds 2C 3D 7S 8C = 20, cid TC TD TS TH = 40.
    game = new_game(knobs, ["7H 8H 9H TH", "2C 3D 7S 8C", "TC TD TS TH"], stock="QS")
    play(game, "draw stock", "meld 7H 8H 9H TH", "discard QS")
    assert game.totals == [0, 20, 40]
    assert game.phase == "hand_over"
    # Hand 2: bob plays first and goes out; ann holds 20, cid 30: cid passes 60, ann and bob tie on 20.
    game.next_hand(fixed_deal(["2S 3C 7D 8S", "3S 4S 5S 6S", "9C 9D 6H 6D"], stock="QD"))
    assert game.current == 1
    events = play(game, "draw stock", "meld 3S 4S 5S 6S", "discard QD")
    assert game.totals == [20, 20, 70]
    assert game.phase == "game_over"
    assert game.winners == [0, 1]
    assert events[-1] == {
        "type": "game_end",
        "winners": ["ann", "bob"],
        "totals": {"ann": 20, "bob": 20, "cid": 70},
    }


def test_winner_collects_totals_may_go_negative_and_recover() -> None:
    game = kalooki_game(scoring="winner_collects", goal_score=500)
    assert game.totals == [50, -25]
    # Hand 2: bob plays first and goes Kalooki with ann holding the 50 points.
    game.next_hand(fixed_deal(["AC 5D 9S JK", "7H 8H 9H TH"], stock="KS"))
    assert game.current == 1
    play(game, "draw stock", "meld 7H 8H 9H TH", "discard KS")
    assert game.results[-1].scores == (-25, 50)
    assert game.totals == [25, 25]
    assert [sum(result.scores[seat] for result in game.results) for seat in (0, 1)] == game.totals


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        (
            {
                "hands": ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"],
                "stock": "AC AD AH 2S",
            },
            "the deal leaves too few cards for the other hands and the discard",
        ),
        ({"hands": ["AS AS"]}, "ann is dealt 2 cards: this variant deals 24"),
        ({"hands": [], "discard": "JK"}, "the deal uses JK 1 times; the pack holds 0"),
        # A seat past the table's: once an IndexError, raised while wording the refusal.
        ({"hands": {2: "AS AS"}}, "there is no seat 2 at this table"),
    ],
)
def test_a_rejected_next_hand_changes_nothing(deal: dict[str, Any], message: str) -> None:
    # One pack, no jokers, 24 cards each. The first deal places ann's 24 cards, the discard AS and four stock
    # cards: 23 are left for bob's 24. Nothing may change, not even the shuffle's random state.
    knobs = {"decks": 1, "jokers": 0, "hand_size": 24, "max_players": 2, "opening_threshold": 0}
    game = Game(Variant(**knobs), ["ann", "bob"], seed=5)
    game.abandon_hand()
    before = json.dumps(game.to_json(), sort_keys=True)
    with pytest.raises(DealError) as caught:
        game.next_hand(fixed_deal(deal["hands"], deal.get("discard", "AS"), deal.get("stock", "")))
    assert str(caught.value) == message
    assert json.dumps(game.to_json(), sort_keys=True) == before
    game.next_hand()
    assert (game.hand_number, game.first_seat, game.current) == (2, 1, 1)


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        # Each part built in code, as a script or a log never builds it: a seat "0" failed as a TypeError,
        # a card past the joker's as an IndexError, both while the refusal was worded; -1 was taken for KS.
        (FixedDeal(hands={"0": [0] * 24}), "there is no seat '0' at this table"),
        (FixedDeal(hands={True: [0] * 24}), "there is no seat True at this table"),
        (FixedDeal(dealer=1.0), "there is no seat 1.0 at this table"),
        (FixedDeal(hands={0: [99] * 24}), "seat 0's hand: 99 is not a card code (0 to 52)"),
        (FixedDeal(hands={0: "AS 2S"}), "seat 0's hand: 'AS 2S' is not a list of card codes"),
        (FixedDeal(stock_top=[-1]), "the stock's top: -1 is not a card code (0 to 52)"),
        (FixedDeal(discard="AS"), "the discard: 'AS' is not a card code (0 to 52)"),
        (FixedDeal(hands=None), "the deal's hands: None is not a mapping of seats to cards"),  # type: ignore[arg-type]
        ({"hands": {}}, "not a fixed deal: {'hands': {}}"),
    ],
)
def test_a_fixed_deal_of_parts_that_are_none_changes_nothing(deal: Any, message: str) -> None:
    knobs = {"decks": 1, "jokers": 0, "hand_size": 24, "max_players": 2, "opening_threshold": 0}
    game = Game(Variant(**knobs), ["ann", "bob"], seed=5)
    game.abandon_hand()
    before = json.dumps(game.to_json(), sort_keys=True)
    with pytest.raises(DealError) as caught:
        game.next_hand(deal)
    assert str(caught.value) == message
    assert json.dumps(game.to_json(), sort_keys=True) == before
