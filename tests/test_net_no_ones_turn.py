"""A hosted table's refusals when it is no one's turn: between hands, and once the game is over."""

from __future__ import annotations

import pytest

pytest.importorskip("websockets")

from kalooki_net.table import Table, TableError

from kalooki.loader import load_variant


def bots_play(table: Table, *, until: str) -> None:
    """Every seat a bot's: their turns, and the deals, until the game's phase is ``until``."""
    game = table.require_game()
    for _ in range(5000):
        if game.phase == until:
            return
        if game.phase == "hand_over":
            table.deal_if_ready()
        else:
            table.bot_turn()
    raise AssertionError(f"no {until} in 5000 turns")


def a_table() -> Table:
    variant = load_variant("kalooki-40", ["goal_score=40"])
    table = Table(variant, seats=3, bots=["greedy"], seed=11, wait_seconds=30.0)
    table.start()
    return table


def refusal(table: Table, seat: int, message: str) -> tuple[str, str]:
    sent = (lambda: table.ready(seat)) if message == "ready" else (lambda: table.move(seat, message))
    with pytest.raises(TableError) as refused:
        sent()
    return refused.value.code, str(refused.value)


def test_a_move_between_hands_is_told_the_hand_is_over_not_whose_turn_it_is() -> None:
    # It was "it is not your turn: NAME is playing", NAME the seat whose turn ended the hand: no one plays
    # until the deal, which waits for ready.
    table = a_table()
    bots_play(table, until="hand_over")
    told = ("not_your_turn", "the hand is over: the next is dealt when everyone is ready")
    assert refusal(table, 0, "ds") == told
    assert refusal(table, table.require_game().current, "ds") == told


def test_a_move_or_a_ready_after_the_game_is_told_who_won() -> None:
    # The move was told "it is not your turn: NAME is playing" (NAME had won), the ready "the hand is still
    # being played".
    table = a_table()
    bots_play(table, until="game_over")
    game = table.require_game()
    over = "the game is over: " + ", ".join(game.players[seat] for seat in game.winners) + " won"
    assert game.winners
    assert refusal(table, 0, "ds") == ("not_your_turn", over)
    assert refusal(table, game.current, "ds") == ("not_your_turn", over)
    assert refusal(table, 0, "ready") == ("illegal_move", over)
