"""Every state real play reaches passes the reachability checks (:mod:`kalooki.statecheck`), so a check
that refuses an edited save never refuses a real one: bot games of every built-in variant, saved after
every action (mid-turn too, and after a turn's melds are taken back), and each seat's view of them
rebuilt as ``kalooki join`` rebuilds it."""

from __future__ import annotations

import json
import random

import pytest
from kalooki_net.view import WATCHER, seat_view, shadow_game

from kalooki.bots import make_bot
from kalooki.driver import ask_bot, fallback_action
from kalooki.engine import Game, IllegalMoveError
from kalooki.loader import builtin_variant_names, load_variant
from kalooki.moves import Discard, EndTurn

ACTIONS = 300
"""Actions played in each game: several hands of a short-handed variant, most of a long one."""


def check_every_side(game: Game) -> None:
    """The save of ``game`` loads as it was, and every seat's view (and a watcher's) rebuilds."""
    state = game.to_json()
    assert Game.from_json(json.loads(json.dumps(state))).to_json() == state
    for seat in [*range(len(game.players)), WATCHER]:
        shadow_game(json.loads(json.dumps(seat_view(game, seat))), game.variant)


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("name", builtin_variant_names())
def test_states_of_real_bot_games_pass_the_checks(name: str, seed: int) -> None:
    variant = load_variant(name)
    players = ["ann", "bob", "cid", "dee"][: min(4, variant.max_players)]
    game = Game(variant, players, seed=seed)
    chooser = random.Random(seed)
    bots = [make_bot(kind, random.Random(seed + seat)) for seat, kind in enumerate(["greedy", "random"] * 2)]
    for _ in range(ACTIONS):
        if game.game_over:
            break
        if game.phase == "hand_over":
            game.next_hand()
        elif game.can_undo() and chooser.random() < 0.1:
            game.undo_turn()
        else:
            try:
                game.apply(ask_bot(bots[game.current % len(bots)], game))
            except IllegalMoveError:
                stuck = not any(isinstance(a, Discard | EndTurn) for a in game.legal_actions())
                if game.can_undo() and stuck:
                    game.undo_turn()
                game.apply(fallback_action(game))
        check_every_side(game)
