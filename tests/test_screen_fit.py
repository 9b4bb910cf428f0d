"""At 80×24 with ten melds on the table, the other players' turns stay on screen above the prompt."""

from __future__ import annotations

import io
import random

from kalooki_cli.interactive import InteractiveGame, scripted_input
from rich.console import Console

from kalooki.bots import GreedyBot
from kalooki.cards import format_card
from kalooki.driver import play_turn
from kalooki.engine import Game
from kalooki.loader import load_variant
from kalooki.savegame import Session, seat_rng


def game_with_ten_melds() -> Game:
    """Seed 0's first hand, played by bots until the table holds ten melds at seat 0's draw."""
    game = Game(load_variant("classic"), ["you", "bob", "cid", "dee"], seed=0)
    bots = [GreedyBot(random.Random(seat)) for seat in range(4)]
    while not (len(game.table) >= 10 and game.current == 0):
        play_turn(game, bots[game.current])
    assert game.phase == "draw"
    return game


def test_turn_reports_stay_on_an_80_by_24_screen_with_ten_melds() -> None:
    game = game_with_ten_melds()
    session = Session(
        human_seat=0,
        bots={1: "greedy", 2: "greedy", 3: "greedy"},
        bot_rngs={seat: seat_rng(0, seat).getstate() for seat in (1, 2, 3)},
    )
    out = io.StringIO()
    console = Console(file=out, width=80, height=24, color_system=None, highlight=False)
    discard = format_card(game.hands[0][0])
    keys = ["ds", f"d {discard}"]
    InteractiveGame(
        game, session, console=console, read_line=scripted_input(keys, console), save_path=None
    ).run()
    lines = out.getvalue().splitlines()
    assert len(game.table) >= 10
    assert game.current == 0  # the three others have played and it is the person's turn again
    # The screen ends with what the turn needs; the prompt takes the terminal's last line, so the 23
    # lines ending there are what a 24-line terminal shows: all three turn reports must be among them.
    last = max(index for index, line in enumerate(lines) if line.startswith("Your turn: draw"))
    visible = lines[last - 22 : last + 1]
    assert len(visible) == 23
    for name in ("Bob", "Cid", "Dee"):
        assert any(line.startswith(name + " ") for line in visible), (name, "\n".join(visible))
