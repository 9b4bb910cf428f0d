"""One scenario per knob value, for the turn: drawing (discard_draw), going out (going_out) and the
end of the stock (stock_exhausted), then the turn's own rules in every variant.

The pack, card values and what makes a meld are in test_rules_knobs.py.
"""

from __future__ import annotations

from collections import Counter

import pytest
from kalooki_cli.narrate import Sentences
from rules_helpers import assert_illegal, hand_text, new_game, pack_intact, play, table_text

from kalooki.cards import parse_card, parse_cards
from kalooki.engine import Game, IllegalMoveError, NotYourTurnError
from kalooki.moves import Discard, Draw, Meld
from kalooki.rulebook import render_rulebook
from kalooki.variant import Variant

# ---------------------------------------------------------------- discard_draw


DRAW_HAND = ["7H 8H 9H KS", "2C 5D 9S TH"]
NEVER = "this variant never lets a player take the discard: draw stock"
AFTER = "only a player who has opened may take the discard: draw stock"
BEFORE = "a player who has opened may not take the discard: draw stock"


def at_once(card: str) -> str:
    return f"you may take {card} only to lay it this turn, and you could not: draw stock"


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


@pytest.mark.parametrize("rule", ["discard_required", "discard_optional", "meld_required"])
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


@pytest.mark.parametrize("rule", ["discard_required", "discard_optional", "meld_required"])
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
    # As the rulebook says: the pile is shuffled when the last card is drawn, before that player's discard.
    said = {
        "reshuffle_all": (
            "the whole discard pile is shuffled to form a new stock, "
            "and that player's discard starts the new discard pile"
        ),
        "reshuffle_keep_top": (
            "the top card stays face up as the discard pile, and that player discards onto it."
        ),
    }
    text = " ".join(render_rulebook(game.variant).split())
    assert "When the last card of the stock is drawn, " in text
    assert said[rule] in text
    assert game.phase == "draw"
    assert game.current == 1
    assert game.results == []


def test_stock_run_out_over_an_empty_pile_is_said_as_played() -> None:
    # No upcard and one stock card: ann draws the last card with nothing on the discard pile.
    knobs = {**TINY, "jokers": 1, "hand_size": 26, "upcard": False}
    hands = [TINY_HANDS[0] + " AC AD", TINY_HANDS[1] + " AH JK"]
    game = new_game(knobs, hands, discard=None, stock="AS")
    play(game, "draw stock")
    assert (game.stock, game.discard_pile) == ([], [])
    play(game, "discard KC")
    # bob's turn begins: ann's discard has become the stock, and the pile is empty.
    assert (game.stock, game.discard_pile) == ([parse_card("KC")], [])
    text = " ".join(render_rulebook(game.variant).split())
    assert (
        "When the last card of the stock is drawn, the whole discard pile is shuffled to form a new stock, "
        "and that player's discard starts the new discard pile; if the pile was empty, that discard "
        "becomes the new stock when the next turn begins."
    ) in text


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


def test_reshuffle_keep_top_with_one_card_and_a_discard_not_to_be_taken_ends_the_hand_unscored() -> None:
    # One pack and a joker, 26 cards each and no upcard: KH is the whole stock. ann draws it and discards
    # it; at bob's turn the pile holds only that card, which bob may not take (discard_draw: never).
    # (A deal that left no stock at all is refused now.)
    knobs = {
        "decks": 1,
        "jokers": 1,
        "hand_size": 26,
        "max_players": 2,
        "upcard": False,
        "stock_exhausted": "reshuffle_keep_top",
        "discard_draw": "never",
    }
    ann = "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS 2D 3D"
    bob = "KC KS AD 4D 5D 6D 7D 8D 9D TD JD QD KD AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH JK"
    game = new_game(knobs, [ann, bob], discard=None, stock="KH")
    events = play(game, "draw stock", "discard KH")
    assert (
        "one card on the pile, and the player to draw may not take it, the hand ends and nobody scores"
        in (render_rulebook(game.variant))
    )
    assert events[-1]["end"] == "blocked"
    # Said of the player to draw: where discard_draw depends on the player, another might have taken it.
    assert Sentences().hand_end(events[-1]) == (
        "hand 1 ends without a winner (the player to draw had no card to draw)"
    )
    result = game.results[-1]
    assert (result.winner, result.hand_points, result.scores) == (None, (175, 220), (0, 0))
    assert game.phase == "hand_over"


@pytest.mark.parametrize("stock_exhausted", ["reshuffle_all", "reshuffle_keep_top"])
def test_a_turn_with_no_card_to_draw_ends_the_hand_unscored_as_the_rulebook_says(
    stock_exhausted: str,
) -> None:
    # Under turn_discard: optional nobody need discard: the stock's four cards drawn, the pile is empty.
    knobs = {
        "decks": 1,
        "jokers": 0,
        "hand_size": 24,
        "max_players": 2,
        "upcard": False,
        "turn_discard": "optional",
        "stock_exhausted": stock_exhausted,
    }
    ann = "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS"
    bob = "QS KS AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AH 2H 3H 4H 5H 6H 7H 8H 9H"
    game = new_game(knobs, [ann, bob], discard=None, stock="TH JH QH KH")
    events = play(game, *["draw stock", "end"] * 4)
    assert events[-1]["type"] == "hand_end"
    assert events[-1]["end"] == "blocked"
    result = game.results[-1]
    assert (result.winner, result.scores) == (None, (0, 0))
    assert "when the next player has no card to draw, the hand ends and nobody scores for it." in (
        render_rulebook(game.variant)
    )


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
    assert_illegal(game, "draw stock", "ann has drawn already this turn: meld, build, swap or discard")
    assert_illegal(game, "draw discard", "ann has drawn already this turn: meld, build, swap or discard")
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
    game = new_game(
        {"hand_size": 3, "opening_threshold": 0, "goal_score": goal}, ["7H 8H 9H", "2C 5D 9S"], stock="KS"
    )
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
    assert (
        str(caught.value)
        == "there is nothing to take back: undo takes back this turn's melds, builds and swaps"
    )


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


def test_a_discard_taken_only_to_lay_it_says_which_rule_stops_the_laying() -> None:
    # "you may take 7H only to lay it this turn, and you could not": 5-6-7 is plainly a run to a family;
    # what stops it is the discard the last card must be (going_out: discard_required).
    game = new_game(
        {"hand_size": 5, "opening_threshold": 0, "discard_draw": "meld_at_once"},
        ["5H 6H 9S 9D 9C", "2C 5D 7H TH KC"],
        discard="3D",
        stock="2S 4C",
    )
    play(game, "draw stock", "meld 9S 9D 9C", "discard 2S")
    play(game, "draw stock", "discard 7H")
    before = hand_text(game, 0)
    assert_illegal(
        game,
        "draw discard",
        "you may take 7H only to lay it this turn, and you could not (laying it would leave you no card to "
        "discard): draw stock",
    )
    assert hand_text(game, 0) == before
    # Where the last card may be melded, the same draw goes out.
    free = new_game(
        {
            "hand_size": 5,
            "opening_threshold": 0,
            "discard_draw": "meld_at_once",
            "going_out": "discard_optional",
        },
        ["5H 6H 9S 9D 9C", "2C 5D 7H TH KC"],
        discard="3D",
        stock="2S 4C",
    )
    play(free, "draw stock", "meld 9S 9D 9C", "discard 2S")
    play(free, "draw stock", "discard 7H")
    play(free, "draw discard", "meld 5H 6H 7H")
    assert free.phase == "hand_over"
