"""The worst variants that validate (``bench/hostile/*.yaml``): time to the first prompt, the worst bot turn.

Every variant that validates must play: these push each bound the model allows at once (four packs,
eight jokers, the largest hand, eight players, every rule that widens the search, a threshold
nobody reaches). For each one the bench measures

- **first prompt**: ``kalooki play FILE`` from loading the variant to the human's first prompt (the
  deal, the screen, and the melds the hand could lay), with the human dealt all eight jokers too;
- **legal actions**: ``Game.legal_actions()`` on the first turn after the draw, same hand;
- **worst bot turn**: the slowest of ``TURNS`` bot turns per bot kind (greedy, expert, random in
  every seat, hand after hand), and the peak memory that turn allocates (tracemalloc, the turn
  replayed from its saved state);

against the targets of under 1 s and 100 MB each. Times are CPU seconds of this process (the
machine may be shared: wall-clock time would measure the neighbours too), as in the solver bench.
"""

from __future__ import annotations

import io
import random
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import BenchResult, Options, register
from kalooki.bots import make_bot
from kalooki.cards import JOKER, Card
from kalooki.driver import play_turn
from kalooki.engine import FixedDeal, Game
from kalooki.loader import load_variant
from kalooki.moves import Draw
from kalooki.savegame import Session, seat_rng
from kalooki.variant import Variant

VARIANTS = Path(__file__).resolve().parent / "hostile"
BOTS = ("greedy", "expert", "random")
TURNS = 300
QUICK_TURNS = 20
TARGET_SECONDS = 1.0
TARGET_MB = 100.0


def joker_deal(variant: Variant, seed: int) -> FixedDeal:
    """The human's hand with every joker of the pack, the rest of it dealt at random."""
    pack = [card for card in range(52) for _ in range(variant.decks)]
    random.Random(seed).shuffle(pack)
    jokers = min(variant.jokers, variant.hand_size)
    hand: list[Card] = [JOKER] * jokers + pack[: variant.hand_size - jokers]
    return FixedDeal(hands={0: hand})


def players_for(variant: Variant) -> list[str]:
    return [f"p{seat}" for seat in range(variant.max_players)]


def first_prompt(variant: Variant, seed: int) -> float:
    """Seconds from the deal to the first ``draw>`` prompt, as ``kalooki play`` gets there."""
    from kalooki_cli.interactive import InteractiveGame
    from rich.console import Console

    started = time.process_time()
    game = Game(variant, players_for(variant), seed=seed, deal=joker_deal(variant, seed))
    seats = range(1, len(game.players))
    session = Session(
        human_seat=0,
        bots=dict.fromkeys(seats, "greedy"),
        bot_rngs={s: seat_rng(seed, s).getstate() for s in seats},
    )
    prompted: list[float] = []

    def read_line(prompt: str) -> str:
        prompted.append(time.process_time())
        raise EOFError

    console = Console(file=io.StringIO(), width=100, color_system=None)
    InteractiveGame(game, session, console=console, read_line=read_line, save_path=None).run()
    return prompted[0] - started


def legal_actions_time(variant: Variant, seed: int) -> tuple[float, int]:
    game = Game(variant, players_for(variant), seed=seed, deal=joker_deal(variant, seed))
    game.apply(Draw("stock"))
    started = time.process_time()
    actions = game.legal_actions()
    return time.process_time() - started, len(actions)


def peak_mb(call: Callable[[], object]) -> float:
    tracemalloc.start()
    try:
        call()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def worst_bot_turn(variant: Variant, bot: str, seed: int, turns: int) -> dict[str, Any]:
    """Play ``turns`` turns (hand after hand) with ``bot`` in every seat; the slowest turn, and its memory."""
    game = Game(variant, players_for(variant), seed=seed)
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(len(game.players))]
    bots = [make_bot(bot, rng) for rng in rngs]
    worst = (-1.0, game.to_json(), rngs[0].getstate(), 0)
    played = 0
    while not game.game_over and played < turns:
        if game.phase == "hand_over":
            game.next_hand()
            continue
        seat = game.current
        before, rng_before = game.to_json(), rngs[seat].getstate()
        started = time.process_time()
        play_turn(game, bots[seat])
        elapsed = time.process_time() - started
        if elapsed > worst[0]:
            worst = (elapsed, before, rng_before, seat)
        played += 1
    seconds, state, rng_state, seat = worst
    replayed = Game.from_json(state)
    rng = random.Random()
    rng.setstate(rng_state)
    memory = peak_mb(lambda: play_turn(replayed, make_bot(bot, rng)))
    return {
        "turns": played,
        "hands": len(game.results),
        "worst_turn_s": round(seconds, 4),
        "worst_turn_peak_mb": round(memory, 2),
    }


@register("hostile")
def hostile(options: Options) -> BenchResult:
    turns = QUICK_TURNS if options.quick else TURNS
    variants: dict[str, Any] = {}
    for path in sorted(VARIANTS.glob("*.yaml")):
        variant = load_variant(path)
        seconds, listed = legal_actions_time(variant, options.seed)
        entry: dict[str, Any] = {
            "first_prompt_s": round(first_prompt(variant, options.seed), 4),
            "first_prompt_peak_mb": round(peak_mb(lambda v=variant: first_prompt(v, options.seed)), 2),
            "legal_actions_s": round(seconds, 4),
            "legal_actions_listed": listed,
        }
        for bot in BOTS:
            entry[bot] = worst_bot_turn(variant, bot, options.seed, turns)
        variants[path.stem] = entry
    bot_entries = [entry[bot] for entry in variants.values() for bot in BOTS]
    worst = {
        "worst_first_prompt_s": max(entry["first_prompt_s"] for entry in variants.values()),
        "worst_first_prompt_peak_mb": max(entry["first_prompt_peak_mb"] for entry in variants.values()),
        "worst_legal_actions_s": max(entry["legal_actions_s"] for entry in variants.values()),
        "worst_bot_turn_s": max(entry["worst_turn_s"] for entry in bot_entries),
        "worst_bot_turn_peak_mb": max(entry["worst_turn_peak_mb"] for entry in bot_entries),
    }
    met = (
        worst["worst_first_prompt_s"] < TARGET_SECONDS
        and worst["worst_bot_turn_s"] < TARGET_SECONDS
        and worst["worst_first_prompt_peak_mb"] < TARGET_MB
        and worst["worst_bot_turn_peak_mb"] < TARGET_MB
    )
    return {**worst, "targets_met": met, "variants": variants}
