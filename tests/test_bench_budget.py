"""The budget bench's replays: a recorded game played again without bots ends exactly where it did.

The bench's shares are only worth something if the engine alone, given the recorded steps, plays
the same game the bots played, and the recorded solver calls are the calls the bots made.
"""

from __future__ import annotations

import dataclasses

import pytest

from bench.budget_bench import PLAYERS, Recorded, play_game, record, replay, replay_solver
from kalooki import solver
from kalooki.engine import Game
from kalooki.loader import load_variant
from kalooki.simulation_stats import DEFAULT_MAX_TURNS
from kalooki.variant import Variant


@pytest.fixture(scope="module")
def greedy_game() -> tuple[Variant, Recorded]:
    classic = load_variant("classic")
    return classic, record(classic, "greedy", 1, 0)


def test_the_engine_alone_replays_the_bots_game(greedy_game: tuple[Variant, Recorded]) -> None:
    classic, recorded = greedy_game
    ((seed, _, totals),) = recorded.games
    # Recording changes nothing: the bots play the same game unrecorded, hand for hand, to the same totals.
    game = Game(classic, PLAYERS, seed=seed, turn_limit=DEFAULT_MAX_TURNS)
    assert play_game(game, "greedy") == recorded.hands
    assert tuple(game.totals) == totals
    for views in (False, True):
        replay(classic, recorded, views=views)  # refused unless it ends at those totals (the test below)


def test_a_replay_that_strays_from_the_recording_is_refused(greedy_game: tuple[Variant, Recorded]) -> None:
    classic, recorded = greedy_game
    seed, steps, totals = recorded.games[0]
    # Without its last action the game never reaches the totals the bots reached.
    cut = dataclasses.replace(recorded, games=((seed, steps[:-1], totals),))
    with pytest.raises(RuntimeError, match=f"game seed {seed}"):
        replay(classic, cut, views=False)


def test_the_solver_calls_are_recorded_and_the_solver_is_given_back(
    greedy_game: tuple[Variant, Recorded],
) -> None:
    classic, recorded = greedy_game
    assert recorded.solver_calls
    assert {function.__name__ for function, _, _ in recorded.solver_calls} <= {"solve", "best_opening"}
    # The recording wrappers are gone: the names are the solver's own functions again.
    assert solver.solve.__name__ == "solve"
    assert solver.best_opening.__name__ == "best_opening"
    # The calls are this game's: each was asked of its variant, and each can be made again.
    assert all(classic in (*args, *kwargs.values()) for _, args, kwargs in recorded.solver_calls)
    replay_solver(recorded)
