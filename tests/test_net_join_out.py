"""``kalooki join`` at a terminal, for a player knocked out of the game (``elimination``): watch or skip."""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("websockets")

from kalooki_net.table import Table
from net_helpers import TIMEOUT, Player, bot_plays_until_the_hand_ends, hosted
from test_play_pty import Terminal

from kalooki.loader import load_variant

SUITS = str.maketrans({"♣": "C", "♦": "D", "♥": "H", "♠": "S"})
QUESTION = r"You are out of the game\. Press Enter to watch the rest, or type skip to go to the result: $"
REFUSED = "the hand is still being played"


def throws_back_what_she_draws(terminal: Terminal) -> None:
    """ann draws from the stock and discards the card drawn until she is out of the game (hand 1)."""
    while True:
        terminal.read_until(rf"draw> $|play> $|{QUESTION}", 120)
        if terminal.output.endswith("draw> "):
            terminal.type("ds\n")
        elif terminal.output.endswith("play> "):
            hand = [line for line in terminal.output.splitlines() if line.startswith("Your hand (")][-1]
            card = next(card for card in hand.partition(": ")[2].split() if card.endswith("*"))
            terminal.type(f"d {card.rstrip('*').replace('10', 'T').translate(SUITS)}\n")
        else:
            return


@contextmanager
def ann_out_after_hand_1(home: Path) -> Iterator[tuple[list[Player], Terminal]]:
    """kalooki-40 out at 40, three seats: p0 and p1 (clients of the protocol) play hand 1 beside ann at
    ``kalooki join``, who ends it with 87 and is asked whether to watch; p0 and p1 have not said ready."""
    variant = load_variant("kalooki-40", ["goal_score=40"])
    table = Table(variant, seats=3, bots=["greedy"], seed=11, wait_seconds=30.0, variant_source="kalooki-40")
    with hosted(table) as host:
        bots = [Player(host.uri) for _ in range(2)]
        for index, bot in enumerate(bots):
            bot.join(table.code, name=f"p{index}")
        robots = [threading.Thread(target=bot_plays_until_the_hand_ends, args=(bot,)) for bot in bots]
        for robot in robots:
            robot.start()
        env = {**os.environ, "KALOOKI_HOME": str(home), "TERM": "xterm", "COLUMNS": "100", "LINES": "24"}
        terminal = Terminal(
            ["join", f"127.0.0.1:{host.server.port}", "--code", table.code, "--name", "ann"], env
        )
        try:
            throws_back_what_she_draws(terminal)
            for robot in robots:
                robot.join(TIMEOUT)
            yield bots, terminal
        finally:
            terminal.kill()
            for bot in bots:
                bot.close()


def deal_hand_2(bots: list[Player]) -> None:
    """p0 and p1 say ready, and hand 2 is dealt: its first turn waits for them."""
    for bot in bots:
        bot.send({"type": "ready"})
    for bot in bots:
        while bot.view is None or bot.view["phase"] not in ("draw", "play"):
            bot.receive()


def play_hand_2(bots: list[Player], terminal: Terminal) -> str:
    """p0 and p1 play hand 2 to its end, then p0 says so: what ann's terminal showed meanwhile."""
    robots = [threading.Thread(target=bot_plays_until_the_hand_ends, args=(bot,)) for bot in bots]
    for robot in robots:
        robot.start()
    for robot in robots:
        robot.join(TIMEOUT)
    bots[0].send({"type": "say", "text": "hand 2 is over"})
    return terminal.read_until(r"p0: hand 2 is over")


def test_a_hand_dealt_as_the_player_out_is_asked_drops_the_question_and_skip_still_works(
    tmp_path: Path,
) -> None:
    # The deal does not wait for a player who is out: hand 2's screen came on the question's line, and
    # skip then said "the result comes" and "✗ the hand is still being played" (its ready refused).
    with ann_out_after_hand_1(tmp_path) as (bots, terminal):
        deal_hand_2(bots)
        terminal.read_until(r"The next hand has begun without you\.")
        screen = terminal.output[terminal.output.index("You are out of the game.") :]
        # Below the question, not on its line; then the line that says skip still works.
        assert re.match(rf"{QUESTION[:-1]}\n─+ Kalooki · kalooki-40 · hand 2, dealt by p0 · turn 1 ", screen)
        told = "The next hand has begun without you. You watch the rest of the game: type skip to go to the "
        told += "result."
        assert told in screen.splitlines()
        terminal.type("skip\n")
        terminal.read_until(r"The others play on; the result comes when the game is over\.")
        out = play_hand_2(bots, terminal)
    assert REFUSED not in terminal.output
    assert "Hand 2 is over" not in out  # skipped: the hands are not told, only the result
    assert "p1 draws" not in out


def test_enter_typed_after_the_next_deal_watches_without_a_refusal(tmp_path: Path) -> None:
    with ann_out_after_hand_1(tmp_path) as (bots, terminal):
        deal_hand_2(bots)
        terminal.read_until(r"The next hand has begun without you\.")
        terminal.type("\n")  # the question's Enter, typed late: the table drawn again
        terminal.read_until(r"Your hand \(0\)|Table")
        terminal.type("s\n")
        terminal.read_until(r"The others play on; the result comes when the game is over\.")
        out = play_hand_2(bots, terminal)
    assert REFUSED not in terminal.output
    assert "Hand 2 is over" not in out


def test_answered_before_the_deal_watch_is_told_and_the_deal_is_not_waited_for(tmp_path: Path) -> None:
    with ann_out_after_hand_1(tmp_path) as (bots, terminal):
        terminal.type("\n")
        terminal.read_until(r"You watch the rest of the game: type skip to go to the result\.\n")
        deal_hand_2(bots)
        terminal.read_until(r"hand 2, dealt by p0")
        terminal.type("skip\n")
        terminal.read_until(r"The others play on; the result comes when the game is over\.")
        play_hand_2(bots, terminal)
    assert REFUSED not in terminal.output
    assert "Press Enter when you are ready" not in terminal.output
