"""Out of the game with elimination: watch the rest, or skip to the result."""

from __future__ import annotations

import io
import random

from kalooki_cli.interactive import InteractiveGame, scripted_input
from kalooki_cli.spectate import QUESTION
from rich.console import Console

from kalooki.bots import GreedyBot, RandomBot
from kalooki.driver import play_hand
from kalooki.engine import Game
from kalooki.loader import load_variant
from kalooki.savegame import Session, seat_rng


def knocked_out() -> Game:
    """The first seed, with elimination at 60, where seat 0 (played at random) is out after hand 1
    and the two greedy seats play on."""
    variant = load_variant("classic", ["elimination=true", "goal_score=60"])
    for seed in range(200):
        game = Game(variant, ["you", "bob", "cid"], seed=seed)
        bots = {
            0: RandomBot(random.Random(0)),
            1: GreedyBot(random.Random(1)),
            2: GreedyBot(random.Random(2)),
        }
        play_hand(game, bots)
        if game.phase == "hand_over" and game.eliminated == [True, False, False]:
            return game
    raise AssertionError("no seed below 200 knocks seat 0 out alone in hand 1: the bots have changed")


def run(game: Game, keys: list[str]) -> str:
    session = Session(
        human_seat=0, bots={1: "greedy", 2: "greedy"}, bot_rngs={s: seat_rng(1, s).getstate() for s in (1, 2)}
    )
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, highlight=False)
    loop = InteractiveGame(
        game, session, console=console, read_line=scripted_input(keys, console), save_path=None, resumed=True
    )
    assert loop.run() == 0
    return out.getvalue()


def test_skip_plays_the_rest_at_once_and_shows_the_result() -> None:
    game = knocked_out()
    text = run(game, ["skip"])
    assert game.game_over
    assert QUESTION.strip() in text
    assert "Game over" in text
    assert "bob draws" not in text  # the others' turns are not told
    assert "Press Enter to deal" not in text


def test_watch_tells_every_turn_and_asks_only_once() -> None:
    game = knocked_out()
    text = run(game, [""] * 40)  # watch, then Enter to deal each hand until the game ends
    assert text.count(QUESTION.strip()) == 1
    assert "Press Enter to deal hand 2" in text
    assert "bob draws" in text or "cid draws" in text  # every turn told, as before
    assert "Game over" in text


def test_the_table_shown_to_a_player_out_of_the_game_says_they_watch_not_an_empty_hand() -> None:
    # Redrawn as it is for a player out of the game at a network table, who may type show.
    game = knocked_out()
    game.next_hand()
    session = Session(human_seat=0, bots={1: "greedy", 2: "greedy"}, bot_rngs={})
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, highlight=False)
    loop = InteractiveGame(
        game, session, console=console, read_line=scripted_input([], console), save_path=None, resumed=True
    )
    loop.show()
    text = out.getvalue()
    assert "You are out of the game: watching the others play on." in text
    assert "Your hand" not in text
    assert "is playing" in text  # whose turn it is, as before
