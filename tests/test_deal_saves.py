"""A save must agree with its deals: who dealt, who plays first, the cards dealt and turned up, the stock's
end and the players' names are the variant's and the game's entry points' to decide.

Each edit here makes a game no play reaches (refused naming what and where), or one at the edge of what
play reaches (taken); the command-line cases are saves edited by hand with the checksum recomputed.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from kalooki_net.view import WATCHER, seat_view, shadow_game
from rules_helpers import new_game, play
from test_hostile_logs import bot_log, refused
from test_reachable_checks import (
    FOUR,
    Edit,
    ann_to_draw_again,
    at,
    both,
    cid_out,
    gone_out,
    in_draw,
    in_play,
    knob,
    refusal,
    result,
    second_hand,
    setting,
)

from kalooki import rules
from kalooki.cards import parse_cards
from kalooki.engine import Game, SetupError
from kalooki.savegame import Session, rng_states, save_checksum, save_document, seat_rng
from kalooki.statecheck import check_reachable
from kalooki.variant import Variant


def fresh(**knobs: object) -> Game:
    """Three players dealt four cards each, ann (seat 0) to draw the hand's first card."""
    hands = ["7H 8H 9H 2S", "2C 3C 4D 5S", "KC KD 6H 9C"]
    discard = None if knobs.get("upcard") is False else "2D"
    return new_game({**FOUR, **knobs}, hands, discard=discard, stock="KS")


def dealt(**knobs: object) -> Callable[[], Game]:
    """A game of three dealt by the rules (no fixed deal), hand 1 to be played."""
    return lambda: Game(Variant(**knobs), ["ann", "bob", "cid"], seed=3)


def saved(game: Game) -> Game:
    """``game`` as a save rebuilds it: with the undo snapshot the draw took (held back until a lay)."""
    return Game.from_json(game.to_json())


def ended_twice() -> Game:
    """Under turn_discard: optional, ann and bob have each drawn and ended their turn without a discard:
    turn 3, cid to draw, ann and bob holding five cards, one more than dealt."""
    game = fresh(turn_discard="optional")
    play(game, "draw stock", "end", "draw stock", "end")
    return game


def ann_draws_more(count: int) -> Edit:
    """ann's hand ``count`` cards bigger, taken from the stock."""

    def edit(game: Game) -> None:
        game.hands[0] = [*game.hands[0], *game.stock[:count]]
        game.stock = game.stock[count:]

    return edit


def dealt_to(*seats: int) -> Edit:
    """Hand 1's result as if dealt to ``seats`` alone, and its dealer their first (who sits before seat 1,
    as seat_order would have it of those seats), its scores and the totals made to agree: a hand edited
    to leave a player out of it, and their score with it."""

    def edit(game: Game) -> None:
        played = game.results[0]
        scores = rules.hand_scores(game.variant, played.winner, played.kalooki, played.hand_points, seats)
        game.results[0] = dataclasses.replace(played, seats=seats, scores=tuple(scores), dealer=seats[-1])
        game.totals = list(scores)
        game.dealer = seats[-1]

    return edit


def draws_discard() -> Game:
    """ann takes the card turned up at the deal: the pile is empty in the hand's first turn."""
    game = fresh()
    play(game, "draw discard")
    return saved(game)


def drawn(**knobs: object) -> Game:
    """ann has drawn the hand's first card from the stock and laid nothing."""
    game = fresh(**knobs)
    play(game, "draw stock")
    return saved(game)


REFUSED: list[tuple[str, Callable[[], Game], Edit, str]] = [
    (
        "stock out under reshuffle",
        in_play,
        setting("stock_ran_out", True),
        "the stock is marked run out, which stock_exhausted: reshuffle_all never does "
        "(it reshuffles the discard pile)",
    ),
    (
        "stock out with cards",
        lambda: in_play(stock_exhausted="end_hand"),
        setting("stock_ran_out", True),
        "the stock is marked run out, but it holds 92 cards",
    ),
    (
        "stock out before the draw",
        lambda: in_draw(stock_exhausted="end_hand"),
        both(setting("stock", []), setting("stock_ran_out", True)),
        "the stock is marked run out, but the hand waits for another draw",
    ),
    (
        "first dealer",
        in_play,
        setting("dealer", 0),
        "hand 1 was dealt by seat 1 (ann), but under first_dealer: seat_order seat 3 (cid) deals it",
    ),
    (
        "first dealer against play",
        lambda: in_play(play_direction="counter_clockwise"),
        setting("dealer", 2),
        "hand 1 was dealt by seat 3 (cid), but under first_dealer: seat_order seat 2 (bob) deals it",
    ),
    (
        "first player",
        in_play,
        setting("first_seat", 1),
        "seat 2 (bob) plays first in hand 1, but the player after its dealer, seat 3 (cid), is seat 1 (ann)",
    ),
    (
        "deal passed back",
        second_hand,
        both(setting("dealer", 1), setting("first_seat", 0), setting("current", 0)),
        "hand 2 was dealt by seat 2 (bob), but under deal_direction: as_play seat 1 (ann) deals it",
    ),
    (
        "deal passed as play against its direction",
        lambda: second_hand(players=3, play_direction="counter_clockwise", deal_direction="clockwise"),
        both(setting("dealer", 0), setting("first_seat", 2), setting("current", 2)),
        "hand 2 was dealt by seat 1 (ann), but under deal_direction: clockwise seat 3 (cid) deals it",
    ),
    (
        "high card, then the deal passes",
        lambda: second_hand(first_dealer="high_card"),
        both(setting("dealer", 1), setting("first_seat", 0), setting("current", 0)),
        "hand 2 was dealt by seat 2 (bob), but under deal_direction: as_play seat 1 (ann) deals it",
    ),
    (
        "dealer put out",
        cid_out,
        both(setting("dealer", 2)),
        "hand 2 was dealt by seat 3 (cid), who was not playing it",
    ),
    (
        "dealer between hands",
        gone_out,
        setting("dealer", 0),
        "hand 1 was dealt by seat 2 (bob), but the game names seat 1 (ann) as its dealer",
    ),
    (
        "first player between hands",
        gone_out,
        setting("first_seat", 1),
        "seat 2 (bob) plays first in hand 1, but the player after its dealer, seat 2 (bob), is seat 1 (ann)",
    ),
    (
        "upcard kept without one",
        in_play,
        knob(upcard=False),
        "the hand's first turn found 1 card on the discard pile, but its deal turned up no card "
        "(upcard: false)",
    ),
    (
        "upcard drawn without one",
        draws_discard,
        knob(upcard=False),
        "the hand's first turn found 1 card on the discard pile, but its deal turned up no card "
        "(upcard: false)",
    ),
    (
        "upcard missing",
        lambda: fresh(upcard=False),
        knob(upcard=True),
        "the hand's first turn found 0 cards on the discard pile, but its deal turned up one card",
    ),
    (
        "upcard missing beside two in the stock",
        fresh,
        both(setting("discard_pile", []), setting("stock", parse_cards("KS QS"))),
        "the hand's first turn found 0 cards on the discard pile, but its deal turned up one card",
    ),
    (
        "more dealt than held",
        in_draw,
        knob(hand_size=5),
        "seat 2 (bob) has laid nothing but holds 4 cards, fewer than the 5 dealt and drawn (hand_size: 5)",
    ),
    (
        "more dealt than held after the draw",
        drawn,
        knob(hand_size=5),
        "seat 1 (ann) has laid nothing but holds 5 cards, fewer than the 6 dealt and drawn (hand_size: 5)",
    ),
    (
        "more dealt than the draw left",
        in_play,
        knob(hand_size=5),
        "seat 1 (ann) had laid nothing when this turn began but held after its draw 5 cards, "
        "fewer than the 6 dealt and drawn (hand_size: 5)",
    ),
    (
        "more dealt than held between hands",
        gone_out,
        knob(hand_size=5),
        "seat 2 (bob) has laid nothing but holds 4 cards, fewer than the 5 dealt and drawn (hand_size: 5)",
    ),
    (
        "long name",
        in_play,
        at("players", 1, "b" * 21),
        "a player's name is at most 20 characters: 'bbbbbbbbbbbbbbbbbbbb…' has 21",
    ),
    (
        "a hand dealt to one player",
        gone_out,
        dealt_to(0),
        "hand 1 was not dealt to seat 2 (bob), who is still in the game",
    ),
    (
        "a hand one of three sat out",
        lambda: gone_out(3),
        dealt_to(0, 2),
        "hand 1 was not dealt to seat 2 (bob), who is still in the game",
    ),
    (
        "a hand's seats repeated",
        gone_out,
        result(seats=(0, 0)),
        "hand 1's seats repeat or are out of seat order",
    ),
    (
        "a hand's seats out of order",
        gone_out,
        result(seats=(1, 0)),
        "hand 1's seats repeat or are out of seat order",
    ),
    # bob's 54 points of hand 1 put him out of the game and ended it.
    (
        "a hand dealt to the last player left",
        lambda: gone_out(goal_score=50, elimination=True),
        result(seats=(0,)),
        "hand 1 was dealt to one player, but a hand is dealt to two at least",
    ),
    # Each of the two turns before may have added a card to ann's hand: six at most.
    (
        "more kept than the turns ended without a discard",
        ended_twice,
        ann_draws_more(2),
        "seat 1 (ann) holds 7 cards, which play cannot lead to (1 to 6)",
    ),
]


@pytest.mark.parametrize(
    ("build", "edit", "message"), [case[1:] for case in REFUSED], ids=[c[0] for c in REFUSED]
)
def test_a_game_its_deals_do_not_lead_to_is_refused_naming_why(
    build: Callable[[], Game], edit: Edit, message: str
) -> None:
    assert refusal(build, edit) == message


TAKEN: list[tuple[str, Callable[[], Game], Edit]] = [
    (
        "the draw that empties the stock",
        lambda: in_play(stock_exhausted="end_hand"),
        both(setting("stock", []), setting("stock_ran_out", True)),
    ),
    ("dealt by the rules", dealt(), lambda game: None),
    ("dealt against play", dealt(play_direction="counter_clockwise"), lambda game: None),
    # Drawn at random: any seat may deal the first hand, the player after it plays first.
    (
        "first dealer drawn",
        dealt(first_dealer="high_card"),
        both(setting("dealer", 0), setting("first_seat", 1)),
    ),
    (
        "high card's second hand",
        lambda: second_hand(first_dealer="high_card"),
        both(setting("dealer", 1), setting("first_seat", 0), setting("current", 0), result(dealer=0)),
    ),
    ("deal passed clockwise", lambda: second_hand(players=3, deal_direction="clockwise"), lambda game: None),
    ("deal passed past a player put out", cid_out, lambda game: None),
    (
        "dealer put out, the deal passes on",
        lambda: cid_out_passing("clockwise"),
        lambda game: None,
    ),
    ("a result from before the dealer was recorded", second_hand, result(dealer=None)),
    ("upcard drawn", draws_discard, lambda game: None),
    ("no upcard", lambda: fresh(upcard=False), lambda game: None),
    ("second turn's pile", in_draw, knob(upcard=False)),
    # The stock ran out at the first draw: the card turned up was reshuffled into it.
    ("upcard reshuffled", drawn, both(setting("discard_pile", []), setting("stock", parse_cards("2D")))),
    ("unopened may take a joker", in_draw, knob(hand_size=5, joker_release_requires_opening=False)),
    # ann has opened and holds KS alone, fewer than the four dealt.
    ("opened with fewer", ann_to_draw_again, lambda game: None),
    ("long name", in_play, at("players", 1, "b" * 20)),
    ("a card kept in each turn before", ended_twice, ann_draws_more(1)),
    # Results from before the dealer was recorded: the hand's dealer is left to the rules.
    ("between hands, from before the dealer was recorded", gone_out, result(dealer=None)),
    (
        "high card between hands, from before the dealer was recorded",
        lambda: gone_out(first_dealer="high_card"),
        result(dealer=None),
    ),
    (
        "high card's second hand, from before the dealer was recorded",
        lambda: second_hand(first_dealer="high_card"),
        result(dealer=None),
    ),
]


def cid_out_passing(direction: str) -> Game:
    """As :func:`cid_out`, the deal passing ``direction``: cid, hand 1's dealer, is out of hand 2."""
    game = gone_out(3, goal_score=60, elimination=True, deal_direction=direction)
    game.next_hand()
    return game


@pytest.mark.parametrize(("build", "edit"), [case[1:] for case in TAKEN], ids=[c[0] for c in TAKEN])
def test_a_game_its_deals_lead_to_is_taken(build: Callable[[], Game], edit: Edit) -> None:
    game = build()
    edit(game)
    check_reachable(game)


def test_no_game_takes_a_name_over_twenty_characters() -> None:
    with pytest.raises(SetupError) as caught:
        Game(Variant(), ["ann", "c" * 21])
    assert str(caught.value) == "a player's name is at most 20 characters: 'cccccccccccccccccccc…' has 21"


def test_a_view_between_hands_keeps_a_dealer_the_hand_put_out() -> None:
    """A view names no dealer: between hands it is the last result's, not the seat before the first player
    among those left (cid dealt hand 1 and is out of the game; bob sits before ann now)."""
    game = gone_out(3, goal_score=60, elimination=True)
    assert (game.dealer, game.eliminated) == (2, [False, False, True])
    for seat in (WATCHER, 0, 1, 2):
        view = seat_view(game, seat)
        assert shadow_game(view, game.variant).dealer == 2


def test_a_log_whose_player_has_a_name_over_twenty_characters_is_refused() -> None:
    records = bot_log()
    records[0]["players"][1] = "b" * 21
    records[1]["hands"]["b" * 21] = records[1]["hands"].pop("bob")
    if records[1]["dealer"] == "bob":
        records[1]["dealer"] = "b" * 21
    assert refused(records) == (
        "record 2: the log's game and first deal cannot start a game "
        "(a player's name is at most 20 characters: 'bbbbbbbbbbbbbbbbbbbb…' has 21)"
    )


# ----------------------------------------------------------------------------- the command


def saved_at_the_first_draw() -> dict[str, Any]:
    """A two-player save at hand 1, turn 1: you (seat 0) have drawn from the stock; the table is empty."""
    game = Game(Variant(), ["you", "bob"], seed=5)
    play(game, "draw stock")
    rngs = {1: seat_rng(game.seed, 1)}
    session = Session(human_seat=0, bots={1: "greedy"}, bot_rngs=rng_states(rngs))
    return save_document(game, session)


def edited(edit: Callable[[dict[str, Any]], None]) -> str:
    document = saved_at_the_first_draw()
    edit(document["game"])
    document["checksum"] = save_checksum(document["session"], document["game"])
    return json.dumps(document)


def put(key: str, value: object) -> Callable[[dict[str, Any]], None]:
    return lambda game: game.__setitem__(key, value)


def rule(key: str, value: object) -> Callable[[dict[str, Any]], None]:
    return lambda game: game["variant"].__setitem__(key, value)


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        pytest.param(
            put("stock_ran_out", True),
            "the stock is marked run out, which stock_exhausted: reshuffle_all never does "
            "(it reshuffles the discard pile)",
            id="stock out",
        ),
        pytest.param(
            put("first_seat", 1),
            "seat 2 (bob) plays first in hand 1, but the player after its dealer, seat 2 (bob), "
            "is seat 1 (you)",
            id="first player",
        ),
        pytest.param(
            put("dealer", 0),
            "hand 1 was dealt by seat 1 (you), but under first_dealer: seat_order seat 2 (bob) deals it",
            id="dealer",
        ),
        pytest.param(
            rule("hand_size", 14),
            "seat 1 (you) has laid nothing but holds 14 cards, fewer than the 15 dealt and drawn "
            "(hand_size: 14)",
            id="hand size",
        ),
        pytest.param(
            rule("upcard", False),
            "the hand's first turn found 1 card on the discard pile, but its deal turned up no card "
            "(upcard: false)",
            id="upcard",
        ),
        pytest.param(
            lambda game: game["players"].__setitem__(1, "b" * 300),
            "a player's name is at most 20 characters: 'bbbbbbbbbbbbbbbbbbbb…' has 300",
            id="long name",
        ),
    ],
)
def test_resume_refuses_a_save_its_deal_does_not_lead_to(
    edit: Callable[[dict[str, Any]], None], said: str, tmp_path: Path
) -> None:
    path = tmp_path / "edited.kalooki-save.json"
    path.write_text(edited(edit))
    before = path.read_bytes()
    ran = subprocess.run(
        [sys.executable, "-m", "kalooki", "resume", str(path), "--no-log", "--fast"],
        capture_output=True,
        text=True,
        input="",
        env={**os.environ, "KALOOKI_HOME": str(tmp_path), "NO_COLOR": "1"},
        timeout=60,
        check=False,
    )
    assert ran.returncode == 1
    assert ran.stderr.splitlines() == [f"{path}: the saved game is not one play can reach: {said}"]
    assert ran.stdout == ""
    assert path.read_bytes() == before


def first_player_out(deal: str = "as_play", dealer: int | None = None) -> Game:
    """Hand 2 of three players with elimination: bob went out in hand 1, and ann, who played first, is out of
    the game with 64 points (Kalooki). cid dealt hand 1."""
    from kalooki.engine import FixedDeal

    game = new_game(
        {**FOUR, "goal_score": 50, "elimination": True, "deal_direction": deal},
        ["KC QC JD 9S", "7H 8H 9H TH", "2C 3C 4D 5S"],
        stock="2S 3S",
    )
    play(game, "draw stock", "discard 2S", "draw stock", "meld 7H 8H 9H TH", "discard 3S")
    assert (game.dealer, game.eliminated) == (2, [True, False, False])
    game.next_hand(FixedDeal(dealer=dealer))
    return game


@pytest.mark.parametrize("deal", ["as_play", "clockwise"])
def test_the_deal_passes_from_the_dealer_to_the_next_player_still_in(deal: str) -> None:
    # Under as_play the first player moved on and the dealer sat before them: with ann out, cid dealt again.
    game = first_player_out(deal)
    assert (game.dealer, game.first_seat) == (1, 2)
    check_reachable(saved(game))


def test_a_save_dealt_as_the_deal_passed_before_is_still_taken() -> None:
    # kalooki's earlier as_play gave cid the deal again; a game saved so goes on, and its next hand is dealt
    # as the deal passes now.
    game = first_player_out(dealer=2)
    assert (game.dealer, game.first_seat) == (2, 1)
    check_reachable(saved(game))
    from kalooki.gamestate import StateFormatError

    with pytest.raises(StateFormatError) as caught:
        check_reachable(first_player_out("clockwise", dealer=2))
    assert str(caught.value).endswith(
        "hand 2 was dealt by seat 3 (cid), but under deal_direction: clockwise seat 2 (bob) deals it"
    )
