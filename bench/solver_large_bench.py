"""Solver timing on large hands: seeded random hands of 30 to 60 cards, where a turn need not end
with a discard (``turn_discard: optional``) and a hand grows with every draw.

Each hand is timed through ``solve`` (least value left, opened) and ``solve(opened=False)`` (the
best opening), one call each; the figures are the CPU seconds of the median and the slowest call
per size (``--quick``: one hand of 30 and one of 40). Two packs: classic's (two decks and two
jokers, the hand dealt from it), and four decks with the hand holding four jokers.

The sizes stop where a whole run still takes about a minute: 60 cards of classic's pack and 50
with four jokers of four decks, the largest a call of which takes seconds at most now that the
ranks are also searched from the king down (a call of 60 cards took about 18 s when they rose
from the ace only, and one of 50 with four jokers up to minutes).
"""

from __future__ import annotations

import random
import statistics
import time

from bench import BenchResult, Options, register
from kalooki.cards import JOKER, Card, pack_list
from kalooki.solver import solve
from kalooki.variant import Variant

SIZES = {"classic": (30, 40, 50, 60), "four_decks_four_jokers": (30, 40, 45, 50)}
QUICK_SIZES = (30, 40)
HANDS = 5
QUICK_HANDS = 1


def deal_large(size: int, count: int, seed: int, decks: int, jokers: int | None) -> list[list[Card]]:
    """``count`` hands of ``size`` cards: from ``decks`` decks and two jokers when ``jokers`` is None,
    else ``jokers`` jokers and the rest from ``decks`` decks of naturals."""
    rng = random.Random(seed * 1000 + size)
    if jokers is None:
        pack = pack_list(decks, 2)
        return [rng.sample(pack, size) for _ in range(count)]
    naturals = pack_list(decks, 0)
    return [rng.sample(naturals, size - jokers) + [JOKER] * jokers for _ in range(count)]


@register("solver-large")
def solver_large_bench(options: Options) -> BenchResult:
    count = QUICK_HANDS if options.quick else HANDS
    result: BenchResult = {"hands_per_size": count}
    for name, variant, decks, jokers in (
        ("classic", Variant(), 2, None),
        ("four_decks_four_jokers", Variant(decks=4, jokers=8), 4, 4),
    ):
        figures: dict[str, dict[str, float]] = {}
        for size in QUICK_SIZES if options.quick else SIZES[name]:
            times: list[float] = []
            for hand in deal_large(size, count, options.seed, decks, jokers):
                for opened in (True, False):
                    started = time.process_time()
                    solve(hand, variant, opened=opened)
                    times.append(time.process_time() - started)
            figures[str(size)] = {
                "median_s": round(statistics.median(times), 4),
                "max_s": round(max(times), 4),
            }
        result[name] = figures
    return result
