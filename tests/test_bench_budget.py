"""The budget bench's replays: a recorded game played again without bots ends exactly where it did.

The bench's shares are only worth something if the engine alone, given the recorded steps, plays
the same game the bots played, and the recorded solver calls are the calls the bots made.
"""

from __future__ import annotations

import dataclasses

import pytest

from bench.budget_bench import Recorded, record, replay, replay_solver
from kalooki import solver
from kalooki.loader import load_variant
from kalooki.variant import Variant


@pytest.fixture(scope="module")
def greedy_game() -> tuple[Variant, Recorded]:
    classic = load_variant("classic")
    return classic, record(classic, "greedy", 1, 0)


def test_the_engine_alone_replays_the_bots_game(greedy_game: tuple[Variant, Recorded]) -> None:
    classic, recorded = greedy_game
    assert recorded.hands >= 1
    for views in (False, True):
        assert replay(classic, recorded, views=views) >= 0


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
    _, recorded = greedy_game
    assert recorded.solver_calls
    assert {function.__name__ for function, _, _ in recorded.solver_calls} <= {"solve", "best_opening"}
    # The recording wrappers are gone: the names are the solver's own functions again.
    assert solver.solve.__name__ == "solve"
    assert solver.best_opening.__name__ == "best_opening"
    assert replay_solver(recorded) >= 0
