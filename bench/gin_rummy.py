"""OpenSpiel's ``gin_rummy`` (C++ through ``pyspiel``), played random against random: the yardstick.

Chance outcomes (the deal, each card drawn from the stock) are drawn uniformly, as they all are
in gin rummy, and each player picks uniformly among ``legal_actions()``. Two figures:

- games per CPU second, whole games timed as one;
- CPU microseconds per player action: ``legal_actions()``, the pick and ``apply_action`` timed
  around each decision, chance nodes left out (kalooki's own figure times the same three steps).

Both are played from a fixed seed, so every repeat does the same work. ``pyspiel`` comes with
``pip install 'kalooki[bench]'`` (``open-spiel``); without it :func:`available` is False.
"""

from __future__ import annotations

import random
import time
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as installed_version
from typing import Any

from bench import clock_cost_ns

GAME = "gin_rummy"


def _pyspiel() -> Any:
    import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

    return pyspiel


def available() -> bool:
    """Whether ``pyspiel`` imports here."""
    try:
        _pyspiel()
    except ImportError:
        return False
    return True


def version() -> str:
    """The installed ``open-spiel``'s version: the ratios are against its C++ build, so every result
    measured against it names the release (``make bench`` installs the newest that pip finds)."""
    try:
        return installed_version("open-spiel")
    except PackageNotFoundError:
        return "not installed"


def _play(games: int, seed: int, timed: bool) -> tuple[float, int, int]:
    """CPU seconds for ``games`` games and, when ``timed``, player actions: nanoseconds and count."""
    game = _pyspiel().load_game(GAME)
    rng = random.Random(seed)
    clock = time.thread_time_ns
    spent = actions = 0
    started = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            elif timed:
                before = clock()
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                spent += clock() - before
                actions += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
    return time.process_time() - started, spent, actions


def games_per_second(games: int, seed: int) -> float:
    """Random-vs-random games of ``gin_rummy`` per CPU second (no clock read per action)."""
    seconds, _, _ = _play(games, seed, timed=False)
    return games / seconds


def player_action_us(games: int, seed: int) -> dict[str, float]:
    """CPU microseconds per player action (list, pick, apply), over ``games`` random-vs-random games."""
    _, spent, actions = _play(games, seed, timed=True)
    return {
        "us_per_action": spent / actions / 1000,
        "actions_per_game": actions / games,
        "clock_us": clock_cost_ns(0) / 1000,
    }
