"""Simulation throughput: 4-player hands per second with greedy in every seat, set against OpenSpiel.

Measured in one process for classic and kaluki-51 (whole games through
:func:`kalooki.simulate.simulate`, hands counted), and then for ``kalooki simulate``'s worker
pool at W=1 and W=2 (games per second of wall time). When ``open_spiel`` is installed, its
``gin_rummy`` is played random against random in the same run, for the ratio the issue asks
for (our hands per second over its games per second).

Both single-process rates are given in CPU seconds (``time.process_time``) as well as wall
seconds: on a shared machine other processes steal wall time from either side at random, and
CPU time is what the two implementations actually cost.
"""

from __future__ import annotations

import random
import time
from typing import Any

from bench import BenchResult, Options, register
from kalooki.loader import load_variant
from kalooki.simulate import simulate

TARGET_HANDS_PER_SECOND = 425.0
"""OpenSpiel gin_rummy's random-vs-random games per second on the machine the issue was written on."""

GAMES = {"classic": 120, "kaluki-51": 60}
QUICK_GAMES = {"classic": 6, "kaluki-51": 3}
POOL_GAMES = 160
QUICK_POOL_GAMES = 8
OPENSPIEL_SECONDS = 8.0
QUICK_OPENSPIEL_SECONDS = 1.0


def hands_per_second(variant_name: str, games: int, seed: int) -> dict[str, Any]:
    variant = load_variant(variant_name)
    wall, cpu = time.perf_counter(), time.process_time()
    result = simulate(variant, ["greedy"] * 4, games, seed, workers=1)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {
        "games": games,
        "hands": result.hands,
        "hands_per_second_cpu": round(result.hands / cpu, 1),
        "hands_per_second_wall": round(result.hands / wall, 1),
        "turns_per_hand": round(result.turns_per_hand.mean, 2),
    }


def pool_games_per_second(games: int, seed: int, workers: int) -> dict[str, Any]:
    variant = load_variant("classic")
    result = simulate(variant, ["greedy"] * 4, games, seed, workers=workers)
    return {"workers": workers, "games": games, "games_per_second_wall": round(result.games_per_second, 2)}


def openspiel_games_per_second(seconds: float, seed: int) -> dict[str, Any] | None:
    """gin_rummy random against random (chance outcomes drawn uniformly: they all are), or None."""
    try:
        import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    played = actions = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.process_time() - cpu < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = outcomes[rng.randrange(len(outcomes))][0]
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            state.apply_action(action)
            actions += 1
        played += 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {
        "games": played,
        "actions_per_game": round(actions / played, 1),
        "games_per_second_cpu": round(played / cpu, 1),
        "games_per_second_wall": round(played / wall, 1),
    }


@register("simulation")
def simulation_bench(options: Options) -> BenchResult:
    games = QUICK_GAMES if options.quick else GAMES
    variants = {name: hands_per_second(name, count, options.seed) for name, count in games.items()}
    pool_games = QUICK_POOL_GAMES if options.quick else POOL_GAMES
    pool = [pool_games_per_second(pool_games, options.seed, workers) for workers in (1, 2)]
    spiel = openspiel_games_per_second(
        QUICK_OPENSPIEL_SECONDS if options.quick else OPENSPIEL_SECONDS, options.seed
    )
    classic = variants["classic"]["hands_per_second_cpu"]
    result: BenchResult = {
        "bots": "greedy x4",
        "classic_hands_per_second": classic,
        "kaluki51_hands_per_second": variants["kaluki-51"]["hands_per_second_cpu"],
        "target_hands_per_second": TARGET_HANDS_PER_SECOND,
        "meets_target": classic >= TARGET_HANDS_PER_SECOND,
        "simulate_w1_games_per_second": pool[0]["games_per_second_wall"],
        "simulate_w2_games_per_second": pool[1]["games_per_second_wall"],
        "variants": variants,
        "pool": pool,
        "openspiel": spiel if spiel is not None else "not installed (pip install open-spiel)",
    }
    if spiel is not None:
        result["openspiel_gin_rummy_games_per_second"] = spiel["games_per_second_cpu"]
        result["ratio_classic_hands_to_gin_rummy_games"] = round(classic / spiel["games_per_second_cpu"], 3)
    return result
