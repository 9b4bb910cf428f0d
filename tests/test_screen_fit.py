"""At 80×24 with ten melds on the table, the other players' turns stay on screen above the prompt."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

from kalooki_cli.interactive import InteractiveGame, scripted_input
from rich.console import Console

from kalooki.bots import GreedyBot
from kalooki.cards import format_card
from kalooki.driver import play_turn
from kalooki.engine import Game
from kalooki.loader import load_variant
from kalooki.savegame import Session, seat_rng


def games_with_ten_melds() -> Iterator[Game]:
    """Seeded first hands that bots play to ten melds on the table at seat 0's draw."""
    for seed in range(200):
        game = Game(load_variant("classic"), ["you", "bob", "cid", "dee"], seed=seed)
        bots = [GreedyBot(random.Random(seat)) for seat in range(4)]
        while game.phase in ("draw", "play"):
            if len(game.table) >= 10 and game.current == 0 and game.phase == "draw":
                yield game
                break
            play_turn(game, bots[game.current])


def play_one_round(game: Game) -> str:
    """The person draws and discards, the three bots play: the screen as an 80x24 terminal got it."""
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
    return out.getvalue()


def test_turn_reports_stay_on_an_80_by_24_screen_with_ten_melds() -> None:
    # The first table where the round comes back to the person within the hand (nobody went out).
    for game in games_with_ten_melds():
        hand = game.hand_number
        screen = play_one_round(game)
        if game.current == 0 and game.hand_number == hand and game.phase == "draw":
            break
    else:
        raise AssertionError("no seed below 200 gives ten melds and a whole round: the bots have changed")
    lines = screen.splitlines()
    assert len(game.table) >= 10
    assert game.current == 0  # the three others have played and it is the person's turn again
    # The screen ends with what the turn needs; the prompt takes the terminal's last line, so the 23
    # lines ending there are what a 24-line terminal shows: all three turn reports must be among them.
    last = max(index for index, line in enumerate(lines) if line.startswith("Your turn: draw"))
    visible = lines[last - 22 : last + 1]
    assert len(visible) == 23
    for name in ("bob", "cid", "dee"):
        assert any(line.startswith(name + " ") for line in visible), (name, "\n".join(visible))
