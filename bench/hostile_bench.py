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
- **meld_at_once**: on four packs and eight jokers, whether a player holding six jokers who has not
  opened may take a discard no opening of theirs can lay (the search for an opening that keeps a
  card to free a table joker), and the legal actions of a turn owing the card taken and a freed
  joker (each laying asks whether a joker swap leads on);
- **chained swaps**: eight players, eight table melds holding jokers, a player who has not opened
  taking a discard only three joker swaps let the hand open with: the draw, and the legal actions
  (each swap's check searches the swaps after it), listed twice;

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
from kalooki.cards import JOKER, Card, parse_card, parse_cards
from kalooki.driver import play_turn
from kalooki.engine import FixedDeal, Game
from kalooki.loader import builtin_variant_path, load_variant
from kalooki.moves import Draw, parse_move
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


MELD_AT_ONCE = {
    "decks": 4,
    "jokers": 8,
    "hand_size": 26,
    "discard_draw": "meld_at_once",
    "set_suits": "may_repeat",
    "set_maximum": 8,
    "set_joker_release": "any_missing_suit",
}
DRAW_DEAL = (
    "JK JK JK JK JK JK KC 8D 9C 8C 3D 9S 4C 2C 9C QH TC 6D 9D 2C 8S 3H 5S 2S TD AC",
    "5H 6H JK 8H 9D JK JD QD KH KS KD KC AH AS AD AC QH QS QC TH TS TC 5S TS 8S 2C",
    "2C",
    "6C 5D",
    "ds; d 6C; ds; m 5H 6H JK 8H, 9D JK JD QD, KH KS KD KC, AH AS AD AC, QH QS QC, TH TS TC; d 5S",
)
OWING_DEAL = (
    "JK JK JK JK 2D 7D 8D 8C 6D 2S 7S 4C 3H 2S 3C 4D 2H 9S 7D 2C QH 4D TS 7H 2C 5D",
    "5H 6H JK 8H 9D JK JD QD KH KS KD JK AH AS AD JK QH QS QC TH TS TC TC 8H AC 9D",
    "2C",
    "TC 5C 8D",
    "ds; d 5D; ds; m 5H 6H JK 8H, 9D JK JD QD, KH KS KD JK, AH AS AD JK, QH QS QC, TH TS TC; d TC; ds; "
    "meld 2C JK JK; discard 2C; ds; d 8H; dd; swap 1 7H",
)


def meld_at_once_times() -> dict[str, float]:
    """Seconds to decide the draw of :data:`DRAW_DEAL` (threshold 200) and to list the legal actions of
    :data:`OWING_DEAL` (threshold 0, freed jokers must be melded), each from its position."""
    times: dict[str, float] = {}
    for name, deal, knobs in (
        ("draw_decision_s", DRAW_DEAL, {"opening_threshold": 200}),
        (
            "owing_legal_actions_s",
            OWING_DEAL,
            {"opening_threshold": 0, "released_joker_must_be_melded": True},
        ),
    ):
        variant = load_variant(builtin_variant_path("classic")).model_copy(update={**MELD_AT_ONCE, **knobs})
        ann, bob, discard, stock, moves = deal
        fixed = FixedDeal(
            hands={0: parse_cards(ann), 1: parse_cards(bob)},
            discard=parse_card(discard),
            stock_top=parse_cards(stock),
        )
        game = Game(variant, ["ann", "bob"], seed=7, deal=fixed)
        for move in moves.split("; "):
            game.apply(parse_move(move))
        started = time.process_time()
        game.legal_actions()
        times[name] = round(time.process_time() - started, 4)
    return times


CHAINED_SWAPS = VARIANTS / "chained-joker-swaps.yaml"
CHAINED_DEAL = {
    0: "AC 6D 3H TH QS 9H KC JK 4H TC TD 2S TC JS AC 3S 8C 3H JD 8D 7S KS 4H 7D 9H 3D",
    1: "3C 2C 2C 2D 3C JK 5C 4C 4D 4S JC JD JK 9D 9D JK QD QD QH AH AS JK KH KS KS TH",
    2: "JC KH 5D 6S KH QS 6S 5H 2C AH 5H 6H 8S 2S 7H AD 9H 8C 9C 6H 2S 4D TC JH 2S 3H",
    3: "4D JS TC QC 5D 6C AC 9C 8H JS 8D 6S AD 2H 3S AH KD TH QH KC QC 9D JD JS 3S QD",
    4: "7D TS 9S 6D TS 7S KH 8H 6C 2H AS 4S 2D TD 2C AS 7H QS 8H KD 8S 3D KD 5D 8D 5S",
    5: "JK 6D JK 5D 7C 8S 8H JK 3C 4C JD 7D AH JC 8C 5C JH 6D QD 7D 3C 3D TS 9S 6H 4S",
    6: "5S 5C 8S AD 3H 3S 6S 4C 6H QC 8C 7H 5S 7H AC 6C 5S 3D TD TH KD 8D KS QC 9C 2H",
    7: "JH QH 4S AS 7C 9S TS 2D KC 2D JH 9D 9H AD 5H QH 6C 5H 4H 9S 7C 4D 4C 4H QS JC",
}
CHAINED_MOVES = (
    "ds; d 3D; ds; m 2C 2C 2D, 3C JK 5C, 4C 4D 4S, JC JD JK, 9D 9D JK, QD QD QH, AH AS JK, KH KS KS; d TH"
)
"""Seat 1 opens with eight melds, four holding jokers; seat 2, who has not opened, may take TH only
because three joker swaps (JC or JH, 9C or 9H, then AD) let the hand open with it."""


def chained_swaps_times() -> dict[str, float]:
    """Seconds, in the position of :data:`CHAINED_DEAL`, to decide seat 2's draw of TH and to list the
    legal actions of the turn that took it (each swap's check searches the swaps after it), then again."""
    variant = load_variant(CHAINED_SWAPS)
    fixed = FixedDeal(
        hands={seat: parse_cards(hand) for seat, hand in CHAINED_DEAL.items()},
        discard=parse_card("KC"),
        stock_top=parse_cards("7S 7S"),
    )
    game = Game(variant, players_for(variant), seed=1, deal=fixed)
    for move in CHAINED_MOVES.split("; "):
        game.apply(parse_move(move))
    times: dict[str, float] = {}
    started = time.process_time()
    game.apply(Draw("discard"))
    times["draw_decision_s"] = round(time.process_time() - started, 4)
    for name in ("legal_actions_s", "legal_actions_again_s"):
        started = time.process_time()
        game.legal_actions()
        times[name] = round(time.process_time() - started, 4)
    return times


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
    meld_at_once = meld_at_once_times()
    worst["worst_meld_at_once_s"] = max(meld_at_once.values())
    chained_swaps = chained_swaps_times()
    worst["worst_chained_swaps_s"] = max(chained_swaps.values())
    met = (
        worst["worst_first_prompt_s"] < TARGET_SECONDS
        and worst["worst_meld_at_once_s"] < TARGET_SECONDS
        and worst["worst_chained_swaps_s"] < TARGET_SECONDS
        and worst["worst_bot_turn_s"] < TARGET_SECONDS
        and worst["worst_first_prompt_peak_mb"] < TARGET_MB
        and worst["worst_bot_turn_peak_mb"] < TARGET_MB
    )
    return {
        **worst,
        "targets_met": met,
        "meld_at_once": meld_at_once,
        "chained_swaps": chained_swaps,
        "variants": variants,
    }
