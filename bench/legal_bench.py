"""The legal actions' costs: ``check()`` per action tried, ``candidate_melds`` per hand, ``legal_actions()``.

``check()`` tries an action between two restores of one turn snapshot; it is timed on a four-player
classic game for a draw (in the draw phase) and for a discard (after the draw). ``candidate_melds``
is timed on random 14-card hands of the 106-card pack. All figures are CPU time, median of rounds,
in microseconds per call; the deals are the same for a given seed on every machine.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from bench import BenchResult, Options, register
from kalooki.candidates import candidate_melds
from kalooki.cards import pack_list
from kalooki.engine import Game
from kalooki.moves import Discard, Draw
from kalooki.variant import Variant

ROUNDS = 5


def _per_call(call: Callable[[], object], calls: int) -> float:
    """Median over rounds of the CPU microseconds per call."""
    times = []
    for _ in range(ROUNDS):
        started = time.process_time()
        for _ in range(calls):
            call()
        times.append((time.process_time() - started) / calls * 1e6)
    return round(statistics.median(times), 2)


@register("legal")
def legal_bench(options: Options) -> BenchResult:
    calls = 200 if options.quick else 2_000
    variant = Variant()
    game = Game(variant, ["A", "B", "C", "D"], seed=options.seed)
    draw = Draw("stock")
    check_draw = _per_call(lambda: game.check(draw), calls)
    legal_draw_phase = _per_call(game.legal_actions, calls)
    game.apply(draw)
    discard = Discard(game.hands[game.current][0])
    check_discard = _per_call(lambda: game.check(discard), calls)
    legal_play_phase = _per_call(game.legal_actions, max(1, calls // 10))
    rng = random.Random(options.seed)
    pack = pack_list(variant.decks, variant.jokers)
    hands = [rng.sample(pack, 14) for _ in range(calls // 4)]
    started = time.process_time()
    for hand in hands:
        candidate_melds(hand, variant)
    per_hand = (time.process_time() - started) / len(hands) * 1e6
    return {
        "check_draw_us": check_draw,
        "check_discard_us": check_discard,
        "legal_actions_draw_phase_us": legal_draw_phase,
        "legal_actions_play_phase_us": legal_play_phase,
        "candidate_melds_14_cards_us": round(per_hand, 2),
    }
