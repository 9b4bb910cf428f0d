"""Solver timing: random 14-card hands dealt from the 106-card pack, one core, per-hand latency.

Each hand is timed through ``solve(objective="value_left", opened=True)`` and, separately,
``best_opening`` under the classic rules (runs of 3, 51 to open, two jokers). The hands are the
same for a given seed on every machine. The headline figures are CPU time per hand (the target
is per hand on one core), each the median of three rounds over all the hands, the two calls
taking turns on blocks of hands (:func:`time_interleaved`); wall-clock figures are recorded
beside them.

``solver-gin`` compares the solver with OpenSpiel's gin rummy (``pip install open-spiel``): on
random 10-card hands from one pack under gin's melds (no jokers, runs of 3 with the ace low, the
ace worth 1), the value the best lay leaves is the hand's minimum deadwood, so every answer must
equal ``GinRummyUtils.min_deadwood``; both are timed per hand on the same hands, taking turns
the same way, so a spell of load on a shared machine slows both sides alike.

A per-hand time also holds the clock reads around the call: about a microsecond of CPU time here,
as much as OpenSpiel's whole call. Each round therefore also times :data:`CLOCK`, a call that does
nothing, the same way in the same blocks, and the figures the targets judge are net of its median
(``*_net_*`` and the net ratio); the figures as timed are kept beside them.
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from bench import BenchResult, Options, gin_rummy, register
from kalooki.cards import Card, pack_list
from kalooki.solver import best_opening, solve
from kalooki.variant import Variant

HANDS = 10_000
QUICK_HANDS = 500
HAND_SIZE = 14


def deal_hands(count: int, seed: int) -> list[list[Card]]:
    rng = random.Random(seed)
    pack = pack_list(2, 2)
    return [rng.sample(pack, HAND_SIZE) for _ in range(count)]


def percentile(sorted_values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile of already sorted values."""
    index = min(len(sorted_values) - 1, max(0, round(fraction * len(sorted_values)) - 1))
    return sorted_values[index]


REPEATS = 3
BLOCK = 250
"""Hands a call times in a row before the next call takes its turn on the same hands."""

CLOCK = "clock"
"""The name under which :func:`time_interleaved` reports the clock reads alone: ``len`` timed as the
calls are (a C builtin that costs some tens of nanoseconds, so what is left is the reading)."""


def _statistics(times: list[float], clock: str) -> dict[str, float]:
    times.sort()
    return {
        # Two places: a call of one or two microseconds is compared net of a clock read of about one.
        f"{clock}_median_us": round(statistics.median(times), 2),
        f"{clock}_p90_us": round(percentile(times, 0.90), 1),
        f"{clock}_p99_us": round(percentile(times, 0.99), 1),
        f"{clock}_max_us": round(times[-1], 1),
        f"{clock}_mean_us": round(statistics.fmean(times), 1),
    }


Calls = dict[str, Callable[[list[Card]], object]]


def time_interleaved(
    hands: Sequence[list[Card]], new_calls: Callable[[], Calls], repeats: int = REPEATS
) -> dict[str, dict[str, Any]]:
    """Per-hand time of each call in microseconds: median, p90, p99, max and mean, in CPU and wall
    time, each the median of ``repeats`` rounds over all the hands (every round's figures are kept
    under ``"rounds"``); under :data:`CLOCK`, the same for a call that does nothing (what the
    clock reads around a call cost, :func:`net`).

    Each round times the calls ``new_calls()`` makes: kalooki's with a new variant object, so new
    solver tables, which keep no candidate list an earlier round made (a hand solved again finds
    its lists kept and is faster, which is not what new hands get); each round warms its calls on
    the first 200 hands. The calls take turns on blocks of :data:`BLOCK` hands, so every call sees
    the same spells of load: on a shared machine a spell can slow everything by half for a
    second, which timed on one side only would move a ratio or a p99 by as much. CPU time (this
    thread's) is what a call costs; wall time also counts whatever else the machine was running.
    """
    cpu_clock = time.thread_time_ns
    wall_clock = time.perf_counter_ns
    rounds: dict[str, list[dict[str, float]]] = {}
    for _ in range(repeats):
        calls: Calls = {CLOCK: len, **new_calls()}
        for call in calls.values():
            for hand in hands[:200]:  # warm the interpreter's caches and the solver's tables
                call(hand)
        cpu: dict[str, list[float]] = {name: [] for name in calls}
        wall: dict[str, list[float]] = {name: [] for name in calls}
        gc.collect()
        for start in range(0, len(hands), BLOCK):
            block = hands[start : start + BLOCK]
            for name, call in calls.items():
                cpu_times, wall_times = cpu[name], wall[name]
                for hand in block:
                    started_cpu = cpu_clock()
                    started_wall = wall_clock()
                    call(hand)
                    wall_times.append((wall_clock() - started_wall) / 1000)
                    cpu_times.append((cpu_clock() - started_cpu) / 1000)
        for name in calls:
            rounds.setdefault(name, []).append(
                {**_statistics(cpu[name], "cpu"), **_statistics(wall[name], "wall")}
            )
    result: dict[str, dict[str, Any]] = {}
    for name, each in rounds.items():
        result[name] = {key: statistics.median(one[key] for one in each) for key in each[0]}
        result[name]["rounds"] = each
    return result


def net(timed: dict[str, dict[str, Any]], name: str, figure: str) -> float:
    """``figure`` (``"median"``, ``"p99"``...) of call ``name`` in CPU microseconds, without the clock
    reads around it (the median of :data:`CLOCK`'s, taken in the same blocks)."""
    return round(float(timed[name][f"cpu_{figure}_us"]) - float(timed[CLOCK]["cpu_median_us"]), 2)


@register("solver")
def solver_bench(options: Options) -> BenchResult:
    count = QUICK_HANDS if options.quick else HANDS
    hands = deal_hands(count, options.seed)

    def new_calls() -> Calls:
        rules = Variant()
        return {
            "solve": lambda hand: solve(hand, rules, objective="value_left", opened=True),
            "best_opening": lambda hand: best_opening(hand, rules),
        }

    timed = time_interleaved(hands, new_calls)
    rules = Variant()
    solve_times, opening_times = timed["solve"], timed["best_opening"]
    openings = sum(best_opening(hand, rules) is not None for hand in hands)
    target = {"median_us": 25.0, "p99_us": 250.0}
    return {
        "hands": count,
        "hand_size": HAND_SIZE,
        "pack": "2 x 52 + 2 jokers",
        "variant": "classic",
        "repeats": REPEATS,
        "solve_median_us": solve_times["cpu_median_us"],
        "solve_p99_us": solve_times["cpu_p99_us"],
        "solve_wall_median_us": solve_times["wall_median_us"],
        "solve_wall_p99_us": solve_times["wall_p99_us"],
        "opening_median_us": opening_times["cpu_median_us"],
        "opening_p99_us": opening_times["cpu_p99_us"],
        "opening_wall_median_us": opening_times["wall_median_us"],
        "opening_wall_p99_us": opening_times["wall_p99_us"],
        "clock_us": timed[CLOCK]["cpu_median_us"],
        "solve_net_median_us": net(timed, "solve", "median"),
        "solve_net_p99_us": net(timed, "solve", "p99"),
        "opening_net_median_us": net(timed, "best_opening", "median"),
        "opening_net_p99_us": net(timed, "best_opening", "p99"),
        "hands_with_an_opening": openings,
        "meets_target": all(
            net(timed, name, figure) <= limit
            for name in ("solve", "best_opening")
            for figure, limit in (("median", target["median_us"]), ("p99", target["p99_us"]))
        ),
        "solve": solve_times,
        "best_opening": opening_times,
        "target": target,
    }


GIN_HANDS = 20_000
QUICK_GIN_HANDS = 1_000
GIN_TARGET_RATIO = 2.0


def gin_rules() -> Variant:
    """Kalooki's knobs set to gin rummy's melds and card values."""
    return Variant(
        decks=1, jokers=0, ace_in_runs="low", run_minimum=3, ace_value=1, max_players=2, hand_size=10
    )


@register("solver-gin")
def solver_gin_bench(options: Options) -> BenchResult:
    count = QUICK_GIN_HANDS if options.quick else GIN_HANDS
    rng = random.Random(options.seed)
    hands = [rng.sample(range(52), 10) for _ in range(count)]
    checked = gin_rules()  # the answers' own tables: no round times with the lists they keep
    answers = [solve(hand, checked).value_left for hand in hands]
    result: BenchResult = {
        "hands": count,
        "hand_size": 10,
        "rules": "gin: one pack, no jokers, ace low, A=1",
        "repeats": REPEATS,
    }
    try:
        import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        pyspiel = None
    if pyspiel is not None:
        # OpenSpiel numbers cards suit * 13 + rank - 1 as kalooki does (its suits in another
        # order, which deadwood does not see).
        utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
        expected = [utils.min_deadwood(hand) for hand in hands]

    def new_calls() -> Calls:
        rules = gin_rules()
        calls: Calls = {"kalooki": lambda hand: solve(hand, rules)}
        if pyspiel is not None:
            calls["openspiel"] = utils.min_deadwood
        return calls

    timed = time_interleaved(hands, new_calls)
    kalooki_times = timed["kalooki"]
    result["kalooki_median_us"] = kalooki_times["cpu_median_us"]
    result["kalooki_p99_us"] = kalooki_times["cpu_p99_us"]
    result["clock_us"] = timed[CLOCK]["cpu_median_us"]
    result["kalooki_net_median_us"] = net(timed, "kalooki", "median")
    if pyspiel is None:
        result["openspiel"] = "not installed (pip install open-spiel)"
        return result
    spiel_times = timed["openspiel"]
    disagreements = [
        hand for hand, mine, theirs in zip(hands, answers, expected, strict=True) if mine != theirs
    ]
    ratio = kalooki_times["cpu_median_us"] / spiel_times["cpu_median_us"]
    net_ratio = net(timed, "kalooki", "median") / net(timed, "openspiel", "median")
    result.update(
        {
            "openspiel_version": gin_rummy.version(),
            "openspiel_median_us": spiel_times["cpu_median_us"],
            "openspiel_p99_us": spiel_times["cpu_p99_us"],
            "openspiel_net_median_us": net(timed, "openspiel", "median"),
            "agreeing_hands": count - len(disagreements),
            "first_disagreements": disagreements[:5],
            "median_time_ratio_to_openspiel": round(ratio, 2),
            "net_median_time_ratio_to_openspiel": round(net_ratio, 2),
            "round_ratios": [
                round(mine["cpu_median_us"] / theirs["cpu_median_us"], 2)
                for mine, theirs in zip(kalooki_times["rounds"], spiel_times["rounds"], strict=True)
            ],
            "target_ratio": GIN_TARGET_RATIO,
            "meets_target": not disagreements and net_ratio <= GIN_TARGET_RATIO,
        }
    )
    return result
