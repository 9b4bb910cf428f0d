"""Simulation speed set against OpenSpiel's ``gin_rummy``: the ratios the fast-core issue asks for.

One run measures, on one core and in CPU time:

- four-player hands per second of classic with greedy in every seat, and with random in every
  seat (whole games through :func:`kalooki.simulate.simulate`, hands counted);
- microseconds per action when every action is picked uniformly from ``legal_actions()`` and
  applied (the list, the pick and ``apply`` timed around each action), judged net of what the
  clock reads in those intervals cost (:func:`bench.clock_cost_ns`, measured in the same round,
  right after its actions);
- OpenSpiel ``gin_rummy`` random against random: games per second and microseconds per player
  action, timed the same way (:mod:`bench.gin_rummy`);

and then ``kalooki simulate --workers 2`` against ``--workers 1``: the games per second each
reports (wall time from its first game to its last, the pool's start included), with the check
that both give identical results, beside what bounds it: each whole run from launch to exit, a
one-game run (the command's start-up) and the speed-up two plain CPU-bound processes get on this
machine at the same moment (:mod:`bench.workers`).

Every figure is the median of three repeats taken in turn (kalooki, OpenSpiel, kalooki...), so
both sides see the same load on a shared machine. The ratios are printed as lines with their
targets. Without ``pyspiel`` the OpenSpiel ratios are printed as not measured.

Each of kalooki's repeats plays games that no earlier repeat played (its own seed, the same on
every run of the bench), after one untimed round of yet other games. kalooki remembers what it
works out about hands and table melds (per variant, for the whole process), so playing the same
games again finds most answers remembered: it measured about a fifth faster than new games for
random play, which is not what a long simulation of new games gets. The untimed round fills the
memos with the answers common to every game, as the first games of a long run do. OpenSpiel
remembers nothing between games: its repeats play the same seeded games.
"""

from __future__ import annotations

import itertools
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bench import (
    BenchResult,
    Options,
    Target,
    clock_cost_ns,
    gin_rummy,
    interleaved,
    register,
    workers,
)
from kalooki.engine import Game
from kalooki.loader import load_variant
from kalooki.simulate import simulate
from kalooki.variant import Variant

REPEATS = 3
PLAYERS = ("P1", "P2", "P3", "P4")
INSTALL_HINT = "pip install 'kalooki[bench]'"


@dataclass(frozen=True)
class Sizes:
    """How much each repeat plays."""

    greedy_games: int
    random_games: int
    uniform_actions: int
    gin_games: int
    pool_games: int
    spin_loops: int


FULL = Sizes(
    greedy_games=100,
    random_games=100,
    uniform_actions=2000,
    gin_games=400,
    pool_games=300,
    spin_loops=4_000_000,
)
QUICK = Sizes(
    greedy_games=3, random_games=2, uniform_actions=100, gin_games=10, pool_games=6, spin_loops=200_000
)


def hands_per_second(variant: Variant, bot: str, games: int, seed: int) -> dict[str, float]:
    """Four-player hands per CPU second with ``bot`` in every seat, in this process."""
    started = time.process_time()
    result = simulate(variant, [bot] * len(PLAYERS), games, seed, workers=1)
    seconds = time.process_time() - started
    return {"hands_per_second": result.hands / seconds, "hands": result.hands}


def uniform_action_us(variant: Variant, actions: int, seed: int) -> dict[str, float]:
    """CPU microseconds per action (``legal_actions()``, a uniform pick, ``apply``) over ``actions`` actions.

    Games are dealt from ``seed``, ``seed + 1``...; a finished hand is followed by the next, a
    finished game by a new one. Also given per phase, with the play phase's listing alone.
    """
    rng = random.Random(seed)
    clock = time.thread_time_ns
    spent = {"draw": 0, "play": 0}
    listing = {"draw": 0, "play": 0}
    counts = {"draw": 0, "play": 0}
    number = 0
    game = Game(variant, PLAYERS, seed=seed)
    for _ in range(actions):
        if game.phase == "game_over":
            number += 1
            game = Game(variant, PLAYERS, seed=seed + number)
        if game.phase == "hand_over":
            game.next_hand()
        phase = game.phase
        started = clock()
        legal = game.legal_actions()
        listed = clock()
        game.apply(legal[rng.randrange(len(legal))])
        spent[phase] += clock() - started
        listing[phase] += listed - started
        counts[phase] += 1
    return {
        "us_per_action": sum(spent.values()) / actions / 1000,
        # The interval around an action holds the read between listing and applying too.
        "clock_us": clock_cost_ns(1) / 1000,
        "draw_us_per_action": spent["draw"] / max(1, counts["draw"]) / 1000,
        "play_us_per_action": spent["play"] / max(1, counts["play"]) / 1000,
        "play_legal_actions_us": listing["play"] / max(1, counts["play"]) / 1000,
        "play_share": counts["play"] / actions,
    }


def _median(rounds: list[dict[str, Any]], key: str) -> float:
    return statistics.median(float(each[key]) for each in rounds)


def _net(run: dict[str, Any]) -> dict[str, float]:
    """A per-action round with the clock reads its intervals hold taken out of its time."""
    return {"us_per_action": run["us_per_action"] - run["clock_us"]}


def _ratio(numerator: float | None, denominator: float | None) -> float | None:
    return None if numerator is None or denominator is None else round(numerator / denominator, 3)


FRESH_SEEDS = 1_000_000
"""How far apart the seeds of kalooki's rounds are: each round's games are new (see the docstring)."""


def fresh(measure: Callable[[int], dict[str, Any]], seed: int) -> Callable[[], dict[str, Any]]:
    """``measure`` of new games each call: its first call (the untimed round) from ``seed``, then
    ``seed + FRESH_SEEDS``, ``seed + 2 * FRESH_SEEDS``..."""
    rounds = itertools.count()
    return lambda: measure(seed + FRESH_SEEDS * next(rounds))


def measures(sizes: Sizes, seed: int, spiel: bool) -> dict[str, Callable[[], dict[str, Any]]]:
    """Every measure of a round, in the order a round takes them; kalooki's play their untimed round
    of other games here, before the first round."""
    classic = load_variant("classic")
    found: dict[str, Callable[[], dict[str, Any]]] = {
        "greedy": fresh(lambda at: hands_per_second(classic, "greedy", sizes.greedy_games, at), seed),
        "random": fresh(lambda at: hands_per_second(classic, "random", sizes.random_games, at), seed),
        "uniform": fresh(lambda at: uniform_action_us(classic, sizes.uniform_actions, at), seed),
    }
    for warm_up in found.values():
        warm_up()
    if spiel:
        found["gin_games"] = lambda: {"games_per_second": gin_rummy.games_per_second(sizes.gin_games, seed)}
        found["gin_actions"] = lambda: gin_rummy.player_action_us(sizes.gin_games, seed)
    found["workers_1"] = lambda: workers.simulate_run(sizes.pool_games, seed, 1)
    found["workers_2"] = lambda: workers.simulate_run(sizes.pool_games, seed, 2)
    found["startup"] = lambda: {"wall": workers.startup_seconds()}
    found["ceiling"] = lambda: {"speedup": workers.two_process_ceiling(sizes.spin_loops)}
    return found


@register("simulation")
def simulation_bench(options: Options) -> BenchResult:
    sizes = QUICK if options.quick else FULL
    spiel = gin_rummy.available()
    rounds = interleaved(measures(sizes, options.seed, spiel), REPEATS)
    greedy = _median(rounds["greedy"], "hands_per_second")
    random_play = _median(rounds["random"], "hands_per_second")
    action_us = _median(rounds["uniform"], "us_per_action")
    net_action_us = _median([_net(each) for each in rounds["uniform"]], "us_per_action")
    gin_games = _median(rounds["gin_games"], "games_per_second") if spiel else None
    gin_action_us = _median(rounds["gin_actions"], "us_per_action") if spiel else None
    gin_net_action_us = (
        _median([_net(each) for each in rounds["gin_actions"]], "us_per_action") if spiel else None
    )
    one, two = _median(rounds["workers_1"], "wall"), _median(rounds["workers_2"], "wall")
    rate_1, rate_2 = (
        _median(rounds["workers_1"], "games_per_second"),
        _median(rounds["workers_2"], "games_per_second"),
    )
    speedup, ceiling = rate_2 / rate_1, _median(rounds["ceiling"], "speedup")
    first = rounds["workers_1"][0]["result"]
    identical = all(run["result"] == first for run in rounds["workers_1"] + rounds["workers_2"])
    missing = f"OpenSpiel not installed: {INSTALL_HINT}"
    targets = [
        Target(
            "greedy x4 hands/s / gin_rummy games/s",
            _ratio(greedy, gin_games),
            2.0,
            note="" if spiel else missing,
        ),
        Target(
            "random x4 hands/s / gin_rummy games/s",
            _ratio(random_play, gin_games),
            1.0,
            note="" if spiel else missing,
        ),
        Target(
            "us per action (uniform random) / gin_rummy us per player action",
            _ratio(net_action_us, gin_net_action_us),
            10.0,
            at_least=False,
            note=f"clock reads taken out; as timed {_ratio(action_us, gin_action_us)}" if spiel else missing,
        ),
        Target(
            f"simulate --workers 2 / --workers 1 ({sizes.pool_games} games, games/s it reports)",
            round(speedup, 3),
            1.8,
            holds=identical,
            note=f"results {'identical' if identical else 'DIFFER'}; launch to exit {one / two:.2f}x; "
            f"two CPU-bound processes get {ceiling:.2f}x here now",
        ),
    ]
    return {
        "variant": "classic",
        "repeats": REPEATS,
        "greedy_hands_per_second": round(greedy, 1),
        "random_hands_per_second": round(random_play, 1),
        "us_per_action": round(action_us, 1),
        "us_per_action_net": round(net_action_us, 1),
        "play_legal_actions_us": round(_median(rounds["uniform"], "play_legal_actions_us"), 1),
        "gin_rummy_games_per_second": None if gin_games is None else round(gin_games, 1),
        "openspiel_version": gin_rummy.version(),
        "gin_rummy_us_per_player_action": None if gin_action_us is None else round(gin_action_us, 2),
        "gin_rummy_us_per_player_action_net": None
        if gin_net_action_us is None
        else round(gin_net_action_us, 2),
        "simulate_w1_games_per_second": round(rate_1, 2),
        "simulate_w2_games_per_second": round(rate_2, 2),
        "simulate_w1_seconds": round(one, 2),
        "simulate_w2_seconds": round(two, 2),
        "simulate_w1_cpu_seconds": round(_median(rounds["workers_1"], "cpu"), 2),
        "simulate_w2_cpu_seconds": round(_median(rounds["workers_2"], "cpu"), 2),
        "simulate_one_game_seconds": round(_median(rounds["startup"], "wall"), 2),
        "two_process_ceiling": round(ceiling, 3),
        "workers_identical": identical,
        "targets": [target.to_json() for target in targets],
        "rounds": {name: [_without_result(each) for each in runs] for name, runs in rounds.items()},
    }


def _without_result(run: dict[str, Any]) -> dict[str, Any]:
    return {key: round(value, 3) for key, value in run.items() if key != "result"}
