"""Ending a turn without a discard (turn_discard: optional) where players act: the play screen of
`kalooki play` and `kalooki join`, its help and status, the narration of a log, and the network protocol
with its seat view."""

from __future__ import annotations

from pathlib import Path

import pytest
from kalooki_cli.narrate import describe_event
from test_interactive import error_lines, fixed_game, run

from kalooki.cards import parse_card, parse_cards
from kalooki.engine import FixedDeal, Game
from kalooki.variant import Variant

REQUIRED_REFUSAL = "in this variant every turn ends with a discard: discard a card"


def optional_game() -> Game:
    deal = FixedDeal(
        hands={0: parse_cards("7H 8H 9H TH QS QD QC 2C 5D 6S 8C KD 3S")},
        discard=parse_card("9C"),
        stock_top=parse_cards("4D"),
    )
    return Game(Variant(turn_discard="optional"), ["you", "bob"], seed=42, deal=deal)


def test_the_play_screen_offers_end_and_ends_the_turn_with_it() -> None:
    game = optional_game()
    code, out, _ = run(game, ["ds", "help", "end", "quit"])
    flat = " ".join(out.split())
    assert code == 0
    assert "then discard a card (d CARD) or end the turn without one." in flat
    assert "end end your turn without a discard (this variant's discard is optional)" in flat
    assert "Your discard is optional: end your turn without one with end." in flat
    assert "play> end You end the turn without a discard. bob " in flat
    assert len(game.hands[0]) == 14
    assert error_lines(out) == []


def test_where_the_discard_is_required_end_is_refused_in_one_line_and_not_offered() -> None:
    game = fixed_game(players=2)
    code, out, _ = run(game, ["ds", "help", "end", "quit"])
    assert code == 0
    assert error_lines(out) == [f"✗ {REQUIRED_REFUSAL}"]
    assert "or end the turn" not in out
    assert "end your turn without a discard" not in out
    assert game.phase == "play"
    assert len(game.hands[0]) == 14


def test_a_log_tells_the_end() -> None:
    assert describe_event({"type": "end_turn", "player": "bob"}) == "bob ends the turn without a discard"


# ---------------------------------------------------------------- the protocol

pytest.importorskip("websockets")

from kalooki_net.botclient import BotSeat  # noqa: E402
from net_helpers import hosted, new_table  # noqa: E402
from test_net_join_cli import ann_beside_p0  # noqa: E402


def test_a_seat_ends_its_turn_over_the_protocol_and_the_view_says_when_it_may() -> None:
    table = new_table(seats=2, seed=10, hand_size=7, opening_threshold=0, turn_discard="optional")
    with hosted(table) as host:
        ann, bob = BotSeat(host.uri), BotSeat(host.uri)
        ann.join(table.code, name="ann")
        bob.join(table.code, name="bob")
        view = ann.until("state")["view"]
        assert view["current"] == ann.seat
        assert view["can_end_turn"] is False  # not before the draw
        ann.send({"type": "move", "move": "end"})
        refused = ann.until("error")
        assert (refused["code"], refused["message"]) == (
            "illegal_move",
            "you must draw first: draw stock or draw discard",
        )
        ann.send({"type": "move", "move": "ds"})
        assert ann.until("state")["view"]["can_end_turn"] is True
        ann.send({"type": "move", "move": "end"})
        state = ann.until("state")
        assert {"type": "end_turn", "player": "ann"} in state["events"]
        assert state["view"]["current"] == bob.seat
        assert state["view"]["can_end_turn"] is False
        assert len(state["view"]["hand"]) == 8
        seen = bob.until("state")
        while {"type": "end_turn", "player": "ann"} not in seen["events"]:
            seen = bob.until("state")
        assert seen["view"]["can_end_turn"] is False
        ann.close()
        bob.close()


def test_where_the_discard_is_required_the_view_has_no_end_and_end_is_refused() -> None:
    table = new_table(seats=2, seed=10, hand_size=7, opening_threshold=0)
    with hosted(table) as host:
        ann, bob = BotSeat(host.uri), BotSeat(host.uri)
        ann.join(table.code, name="ann")
        bob.join(table.code, name="bob")
        ann.until("state")
        ann.send({"type": "move", "move": "ds"})
        view = ann.until("state")["view"]
        assert "can_end_turn" not in view
        ann.send({"type": "move", "move": "end"})
        refused = ann.until("error")
        assert (refused["code"], refused["message"]) == ("illegal_move", REQUIRED_REFUSAL)
        ann.close()
        bob.close()


def test_kalooki_join_ends_a_turn_with_end(tmp_path: Path) -> None:
    with ann_beside_p0(tmp_path, turn_discard="optional") as join:
        out = join("help\nds\nend\nquit\n")
    lines = [" ".join(line.split()) for line in out.splitlines()]
    assert "end end your turn without a discard (this variant's discard is optional)" in lines
    status = "Your turn: meld, build or swap if you can, then discard a card (d CARD) or end the turn"
    assert f"{status} without one." in lines
    assert "play> You end the turn without a discard." in lines
    assert "✗" not in out
