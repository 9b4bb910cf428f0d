"""A loaded game the engine could not have reached is refused, each way in one line; one it could is not.

:func:`kalooki.statecheck.check_reachable` is asked of every game a save rebuilds. Here it is asked of
games played to a point and then edited in place: each edit breaks one thing play cannot produce
(and is refused naming it), or moves a value to the edge of what play can produce (and is taken).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest
from rules_helpers import new_game, play

from kalooki.cards import parse_card, parse_cards
from kalooki.engine import Game, StateFormatError
from kalooki.gamestate import TurnState
from kalooki.melds import TableMeld
from kalooki.statecheck import check_reachable

Edit = Callable[[Game], None]

FOUR = {"hand_size": 4, "opening_threshold": 0}
"""Four-card hands, and any meld opens."""


def in_play(**knobs: object) -> Game:
    """Three players; ann (seat 0) has drawn KS and melded 7H 8H 9H: the turn has something to undo."""
    game = new_game({**FOUR, **knobs}, ["7H 8H 9H 2S", "2C 3C 4D 5S", "KC KD 6H 9C"], stock="KS")
    play(game, "draw stock", "meld 7H 8H 9H")
    return game


def in_draw(**knobs: object) -> Game:
    """As :func:`in_play`, after ann discarded 2S: bob (seat 1) to draw."""
    game = in_play(**knobs)
    play(game, "discard 2S")
    return game


def gone_out(players: int = 2, **knobs: object) -> Game:
    """ann went out on her first turn: the hand is over (and the game, with a low goal)."""
    hands = ["7H 8H 9H TH", "KC QC 4D 5S", "KD QD 8D 9S"][:players]
    game = new_game({**FOUR, **knobs}, hands, stock="2S")
    play(game, "draw stock", "meld 7H 8H 9H TH", "discard 2S")
    return game


def ann_to_draw_again(**knobs: object) -> Game:
    """As :func:`in_draw`, once bob and cid have drawn and discarded: ann, who has opened, to draw."""
    game = in_draw(**knobs)
    play(game, "draw stock", "discard 5S", "draw stock", "discard 9C")
    return game


def cid_out() -> Game:
    """Hand 2 of three players with elimination: cid's 62 points of hand 1 put him out (bob has 54)."""
    game = gone_out(3, goal_score=60, elimination=True)
    game.next_hand()
    return game


def ann_to_draw_again_and_meld() -> Game:
    """Six-card hands: ann opens, and in her next turn draws 6C and melds 4C 5C 6C (her turn began opened,
    and has something to undo)."""
    game = new_game(
        {**FOUR, "hand_size": 6},
        ["7H 8H 9H 2S 4C 5C", "2C 3C 4D 5S KH QH", "KC KD 6H 9C JH TS"],
        stock="KS 3D 8S 6C",
    )
    play(game, "draw stock", "meld 7H 8H 9H", "discard 2S")
    play(game, "draw stock", "discard 5S", "draw stock", "discard 9C", "draw stock", "meld 4C 5C 6C")
    return game


def bob_out_with_a_meld() -> Game:
    """Three players, elimination at 10: bob opens with KC KD KS, cid with 2C 2D 2S, and ann goes out; bob's
    QH (10) puts him out of the game, his meld still on the table."""
    game = new_game(
        {**FOUR, "elimination": True, "goal_score": 10, "kalooki_bonus": 0},
        ["7H 8H 9H JS", "KC KD KS QH", "2C 2D 2S 3H"],
        stock="4S 9C 5D TH",
    )
    play(game, "draw stock", "discard 4S", "draw stock", "meld KC KD KS", "discard 9C")
    play(game, "draw stock", "meld 2C 2D 2S", "discard 5D", "draw stock", "meld 7H 8H 9H TH", "discard JS")
    return game


def cid_out_hand_over() -> Game:
    """As :func:`cid_out`, hand 2 abandoned at its first draw: between hands, cid out since hand 1 and in
    its result but not in hand 2's."""
    game = cid_out()
    game.abandon_hand()
    return game


def cid_meld_left() -> Edit:
    """A meld of cid's (out of the game, so in no seat of the last hand) on the table, cid marked opened."""
    meld = TableMeld("set", tuple(parse_cards("QC QD QH")), 2, 12)
    return both(setting("table", [meld]), at("opened", 2, True))


def drawn_card_melded() -> Game:
    """ann has drawn 9H and melded it: the card drawn is on the table, in no hand."""
    game = new_game(FOUR, ["7H 8H 2S 3S", "2C 3C 4D 5S", "KC KD 6H 9C"], stock="9H")
    play(game, "draw stock", "meld 7H 8H 9H")
    return game


def replace_turn(game: Game, **fields: object) -> TurnState:
    """The turn's undo snapshot's record of the turn, with ``fields`` changed."""
    assert game._undo is not None
    turn = game._undo.turn.copy()
    for name, value in fields.items():
        setattr(turn, name, value)
    return turn


def second_hand(players: int = 2, **knobs: object) -> Game:
    """Two players (or ``players``) in the draw of hand 2, one result behind them (bob scored 54 in hand 1,
    going Kalooki)."""
    game = gone_out(players, **knobs)
    game.next_hand()
    return game


def setting(name: str, value: object) -> Edit:
    return lambda game: setattr(game, name, value)


def at(name: str, index: int, value: object) -> Edit:
    return lambda game: getattr(game, name).__setitem__(index, value)


def result(**fields: object) -> Edit:
    def edit(game: Game) -> None:
        game.results[0] = dataclasses.replace(game.results[0], **fields)  # type: ignore[arg-type]

    return edit


def knob(**update: object) -> Edit:
    return lambda game: setattr(game, "variant", game.variant.model_copy(update=update))


def both(*edits: Edit) -> Edit:
    def edit(game: Game) -> None:
        for each in edits:
            each(game)

    return edit


def out_of_the_game(seat: int) -> Edit:
    """``seat`` eliminated, holding no cards."""
    return both(at("eliminated", seat, True), at("hands", seat, []))


def undo_table(cards: str, hand: str) -> Edit:
    """The turn's undo snapshot changed to hold one meld of ``cards`` (unchecked) and ``hand``."""

    def edit(game: Game) -> None:
        undo = game._undo
        assert undo is not None
        meld = dataclasses.replace(game.table[0], cards=tuple(parse_cards(cards)))
        game._undo = dataclasses.replace(undo, table=(meld,), hand=tuple(parse_cards(hand)))

    return edit


def undo_hand(cards: str) -> Edit:
    """The turn's undo snapshot changed to hold ``cards`` in the hand."""

    def edit(game: Game) -> None:
        assert game._undo is not None
        game._undo = dataclasses.replace(game._undo, hand=tuple(parse_cards(cards)))

    return edit


REFUSED: list[tuple[str, Callable[[], Game], Edit, str]] = [
    ("one player", in_play, setting("players", ["ann"]), "1 player, but the variant is for 2 to 4"),
    ("five players", in_play, setting("players", list("abcde")), "5 players, but the variant is for 2 to 4"),
    ("same names", in_play, setting("players", ["ann", "bob", "ann"]), "two players have the same name"),
    ("blank name", in_play, at("players", 1, " "), "a player's name must be text that is not blank, not ' '"),
    ("name not text", in_play, at("players", 1, 7), "a player's name must be text that is not blank, not 7"),
    (
        "first seat past",
        in_play,
        setting("first_seat", 3),
        "first_seat: 3 is not at the table: this 3-player game's seats are 0 to 2",
    ),
    (
        "first seat below",
        in_play,
        setting("first_seat", -1),
        "first_seat: -1 is not at the table: this 3-player game's seats are 0 to 2",
    ),
    ("results missing", in_play, setting("hand_number", 2), "it is hand 2, but 0 hands have results"),
    ("results over", gone_out, setting("hand_number", 2), "it is hand 2, but 1 hands have results"),
    (
        "results order",
        second_hand,
        result(number=2),
        "hand results are out of order (result 1 is hand 2)",
    ),
    ("points per seat", second_hand, result(hand_points=(0,)), "hand 1's result does not match the table"),
    ("scores per seat", second_hand, result(scores=(0, 54, 0)), "hand 1's result does not match the table"),
    ("seat past", second_hand, result(seats=(0, 2)), "hand 1's result does not match the table"),
    ("winner not playing", second_hand, result(seats=(1,)), "hand 1's winner was not playing"),
    (
        "no winners",
        lambda: gone_out(goal_score=1),
        setting("winners", []),
        "the game is over, but its winners are not players still at the table",
    ),
    (
        "winner twice",
        lambda: gone_out(goal_score=1),
        setting("winners", [0, 0]),
        "the game is over, but its winners are not players still at the table",
    ),
    (
        "winner eliminated",
        lambda: gone_out(3, goal_score=1, elimination=True),
        setting("winners", [0, 1]),
        "the game is over, but its winners are not players still at the table",
    ),
    (
        "two left",
        lambda: gone_out(3, goal_score=1, elimination=True),
        both(at("eliminated", 1, False), knob(goal_score=100)),
        "the game is over, but more than one player is left",
    ),
    (
        "scores not from the hand points",
        second_hand,
        both(result(scores=(0, 0)), setting("totals", [0, 0])),
        "hand 1's scores are not what its hand points make",
    ),
    (
        "collector's scores not from the hand points",
        lambda: second_hand(scoring="winner_collects"),
        both(result(scores=(0, 0)), setting("totals", [0, 0])),
        "hand 1's scores are not what its hand points make",
    ),
    (
        "won without going out",
        second_hand,
        result(end="blocked"),
        "hand 1 ended blocked, which its winner and Kalooki do not fit",
    ),
    (
        "Kalooki without a winner",
        second_hand,
        both(result(winner=None, end="abandoned", scores=(0, 0)), setting("totals", [0, 0])),
        "hand 1 ended abandoned, which its winner and Kalooki do not fit",
    ),
    (
        "goal above a player out",
        cid_out,
        knob(goal_score=63),
        "seat 3 (cid) is out of the game, but their total (62) has not reached the goal (63)",
    ),
    (
        "out under the goal",
        lambda: gone_out(3, elimination=True),
        at("eliminated", 1, True),
        "seat 2 (bob) is out of the game, but their total (54) has not reached the goal (150)",
    ),
    (
        "goal not reached",
        lambda: gone_out(goal_score=1),
        knob(goal_score=100),
        "the game is over, but nobody has reached the goal",
    ),
    (
        "penalty's worst wins",
        lambda: gone_out(goal_score=1),
        setting("winners", [1]),
        "the game is over, but its winners do not have the best totals",
    ),
    (
        "collector's worst wins",
        lambda: gone_out(goal_score=1, scoring="winner_collects"),
        setting("winners", [1]),
        "the game is over, but its winners do not have the best totals",
    ),
    (
        "one left in play",
        lambda: in_play(elimination=True),
        both(out_of_the_game(1), out_of_the_game(2)),
        "fewer than two players are left, but the game is not over",
    ),
    (
        "goal reached in play",
        second_hand,
        knob(goal_score=54),
        "a player has reached the goal, but the game is not over",
    ),
    (
        "current out",
        lambda: in_play(elimination=True),
        both(out_of_the_game(1), setting("current", 1)),
        "the player to move (or the hand's first player) is not at the table",
    ),
    (
        "first out",
        lambda: in_play(elimination=True),
        both(out_of_the_game(1), setting("first_seat", 1)),
        "the player to move (or the hand's first player) is not at the table",
    ),
    ("turn 0", in_play, setting("turn_number", 0), "turn 0 is outside 1 to 1000"),
    ("turn past the limit", in_play, setting("turn_number", 1001), "turn 1001 is outside 1 to 1000"),
    (
        "out with cards",
        lambda: in_play(elimination=True),
        at("eliminated", 2, True),
        "seat 3 (cid) is out of the game but holds cards",
    ),
    (
        "empty hand",
        in_play,
        at("hands", 1, []),
        "seat 2 (bob) holds 0 cards, which play cannot lead to (1 to 4)",
    ),
    (
        "five waiting",
        in_play,
        at("hands", 1, parse_cards("2C 3C 4D 5S 6S")),
        "seat 2 (bob) holds 5 cards, which play cannot lead to (1 to 4)",
    ),
    (
        "six in play",
        in_play,
        at("hands", 0, parse_cards("2S KS 2H 3H 4H 5H")),
        "seat 1 (ann) holds 6 cards, which play cannot lead to (1 to 5)",
    ),
    (
        "five in the draw",
        in_draw,
        at("hands", 1, parse_cards("2C 3C 4D 5S 6S")),
        "seat 2 (bob) holds 5 cards, which play cannot lead to (1 to 4)",
    ),
    (
        "meld of an unopened player",
        in_play,
        at("opened", 0, False),
        "a meld on the table belongs to a player who has not opened",
    ),
    (
        "opened without a meld",
        in_play,
        at("opened", 1, True),
        "seat 2 (bob) has opened, but no meld on the table is theirs",
    ),
    (
        "undo opened without a meld",
        in_play,
        lambda game: setattr(game, "_undo", dataclasses.replace(game._undo, opened=True)),
        "the turn's undo snapshot: seat 1 (ann) has opened, but no meld on the table is theirs",
    ),
    (
        "undo's meld of an unopened player",
        in_play,
        undo_table("7H 8H 9H", "2S KS"),
        "the turn's undo snapshot: a meld on the table belongs to a player who has not opened",
    ),
    (
        "opened without a meld at the hand's end",
        gone_out,
        at("opened", 1, True),
        "seat 2 (bob) has opened, but no meld on the table is theirs",
    ),
    (
        "meld of an unopened player at the hand's end",
        gone_out,
        at("opened", 0, False),
        "a meld on the table belongs to a player who has not opened",
    ),
    (
        "opened without a meld at the game's end",
        lambda: gone_out(goal_score=1),
        at("opened", 1, True),
        "seat 2 (bob) has opened, but no meld on the table is theirs",
    ),
    (
        "meld of a player out",
        lambda: in_play(elimination=True),
        both(setting("first_seat", 1), setting("current", 1), out_of_the_game(0)),
        "a meld on the table belongs to a player who has not opened",
    ),
    (
        "drawn in the draw",
        in_draw,
        lambda game: setattr(game.turn, "drew", "stock"),
        "the player to move has drawn already, but the game waits for a draw",
    ),
    (
        "undo in the draw",
        in_draw,
        lambda game: setattr(game, "_undo", in_play()._undo),
        "the player to move has drawn already, but the game waits for a draw",
    ),
    (
        "nothing to draw",
        lambda: in_draw(discard_draw="never"),
        setting("stock", []),
        "the player to move has no card to draw",
    ),
    (
        "no undo in play",
        in_play,
        setting("_undo", None),
        "the player to move has drawn, but the turn's undo snapshot is missing",
    ),
    (
        "not drawn in play",
        in_play,
        lambda game: setattr(game.turn, "drew", None),
        "the player to move has not drawn, but the game waits for a play",
    ),
    (
        "drawn card recorded in the draw",
        in_draw,
        lambda game: setattr(game.turn, "drawn_card", parse_card("KS")),
        "the player to move has drawn already, but the game waits for a draw",
    ),
    (
        "drawn card not recorded",
        in_play,
        lambda game: setattr(game.turn, "drawn_card", None),
        "the player to move has drawn, but the card drawn is not recorded",
    ),
    (
        "drawn card in another hand",
        in_play,
        lambda game: setattr(game.turn, "drawn_card", parse_card("2C")),
        "the card drawn this turn (2C) is neither in the hand nor on the table",
    ),
    (
        "opened before the turn, not now",
        in_draw,
        lambda game: setattr(game.turn, "opened_before", True),
        "the turn records that seat 2 (bob) had opened when it began, but they have not opened",
    ),
    (
        "opened, not before the turn",
        ann_to_draw_again,
        lambda game: setattr(game.turn, "opened_before", False),
        "seat 1 (ann) has opened, but the turn records that they had not when it began",
    ),
    (
        "built before the draw",
        in_draw,
        lambda game: setattr(game.turn, "built", True),
        "the turn has laid melds or built on the table before it has drawn",
    ),
    (
        "laid before the draw",
        ann_to_draw_again,
        lambda game: setattr(game.turn, "laid", [0]),
        "the turn has laid melds or built on the table before it has drawn",
    ),
    (
        "laid twice",
        in_play,
        lambda game: setattr(game.turn, "laid", [0, 0]),
        "the melds the turn laid are not each one of seat 1 (ann)'s on the table",
    ),
    (
        "laid past the table",
        in_play,
        lambda game: setattr(game.turn, "laid", [1]),
        "the melds the turn laid are not each one of seat 1 (ann)'s on the table",
    ),
    (
        "undo's turn not opened before",
        ann_to_draw_again_and_meld,
        lambda game: setattr(
            game, "_undo", dataclasses.replace(game._undo, turn=replace_turn(game, opened_before=False))
        ),
        "the turn's undo snapshot records another draw, card owed or start of the turn than the turn",
    ),
    (
        "undo's turn laid past its table",
        in_play,
        lambda game: setattr(
            game, "_undo", dataclasses.replace(game._undo, turn=replace_turn(game, laid=[0]))
        ),
        "the turn's undo snapshot: the melds the turn laid are not each one of seat 1 (ann)'s on the table",
    ),
    (
        "undo's meld",
        in_play,
        undo_table("7H 8H 2S", "9H KS"),
        "the turn's undo snapshot: 7H 8H 2S is not a run: a run's cards are all of one suit",
    ),
    # The table a hand left is asked of that hand's players, not the first hand's.
    (
        "meld of a player out before the hand",
        cid_out_hand_over,
        cid_meld_left(),
        "a meld on the table belongs to a player who has not opened",
    ),
    # Under meld_at_once bob may take 2S only to lay it, and he could not: the stock is all he has.
    (
        "only a discard the hand cannot lay",
        lambda: in_draw(discard_draw="meld_at_once"),
        setting("stock", []),
        "the player to move has no card to draw",
    ),
]


@pytest.mark.parametrize(
    ("build", "edit", "message"), [case[1:] for case in REFUSED], ids=[c[0] for c in REFUSED]
)
def test_a_game_play_cannot_reach_is_refused_naming_why(
    build: Callable[[], Game], edit: Edit, message: str
) -> None:
    assert refusal(build, edit).startswith(message)


def refusal(build: Callable[[], Game], edit: Edit) -> str:
    """Why the game ``build`` makes, taken as it is, is refused once ``edit`` is made to it."""
    game = build()
    check_reachable(game)
    edit(game)
    with pytest.raises(StateFormatError) as caught:
        check_reachable(game)
    prefix = "the saved game is not one play can reach: "
    assert str(caught.value).startswith(prefix)
    return str(caught.value).removeprefix(prefix)


TAKEN: list[tuple[str, Callable[[], Game], Edit]] = [
    # The deal passes against play: hand 2 is cid's (seat 2) to play first, the last seat.
    (
        "last seat first",
        lambda: second_hand(players=3, deal_direction="counter_clockwise"),
        lambda game: None,
    ),
    ("hand over", gone_out, lambda game: None),
    ("second hand", second_hand, lambda game: None),
    (
        "no winner of a hand",
        second_hand,
        both(result(winner=None, end="abandoned", kalooki=False, scores=(0, 0)), setting("totals", [0, 0])),
    ),
    ("game over", lambda: gone_out(goal_score=1), lambda game: None),
    ("collector wins", lambda: gone_out(goal_score=1, scoring="winner_collects"), lambda game: None),
    ("last one left", lambda: gone_out(3, goal_score=1, elimination=True), lambda game: None),
    ("two left in play", lambda: cid_out(), lambda game: None),
    ("goal one point away", second_hand, knob(goal_score=55)),
    ("the last turn", in_play, setting("turn_number", 1000)),
    # ann, who has opened, holds KS alone (a player who has not opened holds at least the cards dealt).
    ("one card", ann_to_draw_again, at("hands", 0, parse_cards("KS"))),
    (
        "five in play",
        in_play,
        both(at("hands", 0, parse_cards("2S KS 2H 3H 4H")), undo_hand("7H 8H 9H 2S KS 2H 3H 4H")),
    ),
    ("only the discard to draw", in_draw, setting("stock", [])),
    ("drawn card melded", drawn_card_melded, lambda game: None),
    ("meld of a player the hand put out", bob_out_with_a_meld, lambda game: None),
    # cid, out since hand 1, holds nothing and has laid nothing: hand 2's hands are its players'.
    ("between hands, a player out before the hand", cid_out_hand_over, lambda game: None),
]


@pytest.mark.parametrize(("build", "edit"), [case[1:] for case in TAKEN], ids=[c[0] for c in TAKEN])
def test_a_game_at_the_edge_of_what_play_reaches_is_taken(build: Callable[[], Game], edit: Edit) -> None:
    game = build()
    edit(game)
    check_reachable(game)


def test_a_views_unseen_player_to_move_may_draw_a_lone_discard() -> None:
    """In a table's view bob's hand is unseen: that he may take the one card on the pile is all asked."""
    game = in_draw(discard_draw="meld_at_once")
    both(setting("stock", []), setting("discard_pile", parse_cards("2S")))(game)
    check_reachable(game, stand_ins=(1, 2))
