"""turn_discard: optional, where a player who has drawn may end the turn without discarding (end).

The Czech "500" text says the player draws "and then has the option to discard one card". The end is
legal exactly when a discard would end the turn (drawn, nothing owed), and where the last card may not
be discarded (meld_required) it is the way to keep that card.
"""

from __future__ import annotations

import random
import re

import pytest
from rules_helpers import assert_illegal, hand_text, new_game, play, table_text
from test_rules_jokers import table_position

from kalooki import rules, solver
from kalooki.bots import make_bot
from kalooki.cards import parse_card, parse_cards
from kalooki.driver import fallback_action, play_turn
from kalooki.engine import Game
from kalooki.events import EndTurnEvent, event_from_json
from kalooki.log import GameRecorder, action_from_event, replay
from kalooki.moves import END_TURN, Discard, EndTurn, MoveSyntaxError, format_move, parse_move
from kalooki.textpatterns import move_pattern
from kalooki.variant import Variant, variant_json
from kalooki.view import LegalView

OPTIONAL = {"hand_size": 4, "opening_threshold": 0, "turn_discard": "optional", "kalooki_bonus": 0}
MELD_REQUIRED = {**OPTIONAL, "going_out": "meld_required"}
REQUIRED_REFUSAL = "in this variant every turn ends with a discard: discard a card"
KEEP_IT = (
    "you cannot discard your last card: in this variant you go out by melding it; "
    "lay it, or keep it and end the turn (end)"
)


def drawn(knobs: dict[str, object]) -> Game:
    """ann holds 6H 7H 8H 2S and has drawn KS from the stock."""
    game = new_game(knobs, ["6H 7H 8H 2S", "2C 5D 9S KD"], stock="KS QD 9H 4C")
    play(game, "draw stock")
    return game


# ---------------------------------------------------------------- the move and its notation


@pytest.mark.parametrize("text", ["end", "END", " end ", "end turn", "End Turn"])
def test_end_is_read_and_written_as_end(text: str) -> None:
    assert parse_move(text) == END_TURN
    assert format_move(parse_move(text)) == "end"
    assert parse_move(format_move(END_TURN)) == END_TURN
    assert re.fullmatch(move_pattern(), text)


def test_end_takes_nothing_after_it() -> None:
    with pytest.raises(MoveSyntaxError) as caught:
        parse_move("end 7H")
    assert str(caught.value) == "'end 7H': end takes nothing after it (end)"
    assert not re.fullmatch(move_pattern(), "end 7H")


# ---------------------------------------------------------------- when the end is legal


def test_a_turn_ends_without_a_discard_and_the_next_player_draws() -> None:
    game = drawn(OPTIONAL)
    assert game.legal_actions()[-1] == END_TURN
    assert game.can_end_turn()
    pile = list(game.discard_pile)
    events = play(game, "end")
    assert [dict(event) for event in events] == [{"type": "end_turn", "player": "ann"}]
    assert hand_text(game, 0) == ["2S", "6H", "7H", "8H", "KS"]
    assert game.discard_pile == pile
    assert (game.current, game.phase, game.turn_number) == (1, "draw", 2)
    assert not game.can_undo()


def test_a_discard_stays_legal_where_the_end_is() -> None:
    game = drawn(OPTIONAL)
    discards = [action for action in game.legal_actions() if isinstance(action, Discard)]
    assert len(discards) == 5
    play(game, "discard KS")
    assert game.current == 1


def test_where_the_discard_is_required_end_is_refused_and_not_listed() -> None:
    game = drawn({**OPTIONAL, "turn_discard": "required"})
    assert_illegal(game, "end", REQUIRED_REFUSAL)
    assert not any(isinstance(action, EndTurn) for action in game.legal_actions())
    assert END_TURN not in LegalView(game.view(0))
    assert not game.can_end_turn()


def test_end_before_the_draw_is_refused() -> None:
    game = new_game(OPTIONAL, ["6H 7H 8H 2S", "2C 5D 9S KD"], stock="KS QD")
    assert_illegal(game, "end", "ann must draw first: draw stock or draw discard")
    assert END_TURN not in game.legal_actions()


def test_a_discard_taken_to_be_laid_must_be_laid_before_the_end() -> None:
    knobs = {**OPTIONAL, "hand_size": 5, "discard_draw": "meld_at_once"}
    game = new_game(knobs, ["6H 7H 8H 2S 3C", "2C 5D 9S KD 9H"], stock="KS QD 4C")
    play(game, "draw stock", "end", "draw stock", "discard 9H", "draw discard")
    message = "you took 9H from the discard pile: meld or build it before you end the turn"
    assert_illegal(game, "end", message)
    assert END_TURN not in game.legal_actions()
    play(game, "meld 6H 7H 8H 9H")
    assert END_TURN in game.legal_actions()
    play(game, "end")
    assert game.current == 1


def test_a_freed_joker_must_be_melded_before_the_end() -> None:
    game = table_position(
        {"released_joker_must_be_melded": True, "turn_discard": "optional"}, "5H 6H JK 8H", "7H QS QD"
    )
    play(game, "swap 2 7H")
    assert_illegal(game, "end", "the joker you freed must go into a new meld before you end the turn")
    assert END_TURN not in game.legal_actions()
    play(game, "meld QS QD JK", "end")
    assert table_text(game)[-1] == "QS QD JK"
    assert hand_text(game, 0) == ["KH"]


def test_check_tries_the_end_without_playing_it() -> None:
    game = drawn(OPTIONAL)
    before = game.to_json()
    game.check(END_TURN)
    assert game.to_json() == before


def test_the_stock_running_out_ends_the_hand_at_the_end_of_the_turn() -> None:
    game = new_game({**OPTIONAL, "stock_exhausted": "end_hand"}, ["6H 7H 8H 2S", "2C 5D 9S KD"], stock="KS")
    game.stock[:] = game.stock[-1:]
    events = play(game, "draw stock", "end")
    assert [event["type"] for event in events] == ["draw", "stock_out", "end_turn", "hand_end"]
    assert game.results[-1].end == "stock_exhausted"


# ---------------------------------------------------------------- meld_required: the last card kept


def down_to_one(knobs: dict[str, object]) -> Game:
    """ann opened with 6H 7H 8H and discarded KS, then QD; she has drawn 9H and built it: 2S is left."""
    game = new_game(knobs, ["6H 7H 8H 2S", "2C 5D 9S KD"], stock="KS QD 9H")
    play(game, "draw stock", "meld 6H 7H 8H", "discard KS", "draw stock", "discard QD", "draw stock")
    play(game, "build 1 9H")
    return game


def test_under_meld_required_the_last_card_is_kept_by_ending_the_turn() -> None:
    game = down_to_one(MELD_REQUIRED)
    assert hand_text(game, 0) == ["2S"]
    assert_illegal(game, "discard 2S", KEEP_IT)
    assert game.legal_actions() == [END_TURN]
    assert list(LegalView(game.view(0))) == [END_TURN]
    play(game, "end")
    assert (hand_text(game, 0), game.current, game.phase) == (["2S"], 1, "draw")


def test_meld_required_without_the_option_still_has_a_dead_end() -> None:
    game = down_to_one({**MELD_REQUIRED, "turn_discard": "required"})
    assert game.legal_actions() == []
    assert_illegal(game, "end", REQUIRED_REFUSAL)


def test_the_keep_rule_lets_one_card_stay_only_where_the_turn_may_end_without_a_discard() -> None:
    optional = Variant(going_out="meld_required", turn_discard="optional")
    required = Variant(going_out="meld_required")
    assert rules.may_leave(optional, 1)
    assert not rules.may_leave(required, 1)
    assert rules.keeps_last_card(optional)
    assert not rules.keeps_last_card(required)
    assert not rules.guards_last_card(optional, True, 0)
    assert rules.guards_last_card(required, True, 0)
    # The discard stays required for going out where going_out says so: nothing is laid to the last card.
    assert rules.keep(Variant(turn_discard="optional")) == 1
    # 7H 8H 9H with 2S: the best plan lays the run and keeps 2S, where before it could lay nothing.
    hand = parse_cards("7H 8H 9H 2S")
    assert solver.solve(hand, optional, opened=True, keep=0).remaining == (parse_card("2S"),)
    assert solver.solve(hand, required, opened=True, keep=0).remaining == tuple(sorted(hand))


def test_the_bots_end_the_turn_holding_the_last_card() -> None:
    for name in ("random", "greedy", "expert"):
        game = down_to_one(MELD_REQUIRED)
        assert fallback_action(game) == END_TURN
        events = play_turn(game, make_bot(name, random.Random(1)))
        assert [event["type"] for event in events] == ["end_turn"], name


# ---------------------------------------------------------------- logs, saves and events


def test_a_log_with_an_end_replays() -> None:
    game = new_game(MELD_REQUIRED, ["6H 7H 8H 2S", "2C 5D 9S KD"], stock="KS QD 9H 4C")
    recorder = GameRecorder(game)
    for move in ("draw stock", "meld 6H 7H 8H", "end", "draw stock", "end"):
        recorder.record(game, game.apply(parse_move(move)))
    assert recorder.records[0]["variant"]["turn_discard"] == "optional"
    assert [record["type"] for record in recorder.records[-2:]] == ["draw", "end_turn"]
    assert action_from_event(recorder.records[-1]) == END_TURN
    assert event_from_json({"type": "end_turn", "player": "bob"}) == EndTurnEvent("bob")
    summary = replay(recorder.records)
    assert summary.actions == 5


def test_a_save_keeps_the_rule_and_the_default_is_left_unwritten() -> None:
    game = drawn(OPTIONAL)
    play(game, "end", "draw stock", "end")
    # ann kept the card she drew: five cards of a four-card deal, a hand play can now lead to.
    assert len(game.hands[0]) == 5
    restored = Game.from_json(game.to_json())
    assert restored.variant.turn_discard == "optional"
    play(restored, "draw stock", "end")
    assert (len(restored.hands[0]), restored.current) == (6, 1)
    assert "turn_discard" not in drawn({**OPTIONAL, "turn_discard": "required"}).to_json()["variant"]
    assert "turn_discard" not in variant_json(Variant())
    assert variant_json(Variant(turn_discard="optional"))["turn_discard"] == "optional"


def test_the_rulebook_names_keeping_the_last_card_only_where_the_turn_may_end_without_a_discard() -> None:
    from kalooki.rulebook import render_rulebook

    kept = render_rulebook(Variant(going_out="meld_required", turn_discard="optional"))
    taken_back = render_rulebook(Variant(going_out="meld_required"))
    assert "you may keep it and end your turn without a discard (`end`)" in kept
    assert "is taken back (undo)" not in kept
    assert "is taken back (undo)" in taken_back
