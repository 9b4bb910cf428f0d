"""Where a hand's time goes, by kind of turn: the profile behind the simulation targets.

A turn is of one of four kinds: the player has opened when it begins or not, and it lays
something (a meld, a build, a joker release) or nothing. For each bot this bench plays the
simulation bench's games (classic, the same bot in all four seats, the same seeds) and times every
turn, with the engine's ``apply`` and the views the bots are shown timed apart. It gives, for each
kind, how many turns a hand has, what one costs (the engine's and the views' part of it
too), and its share of the hands' turn time.

With OpenSpiel installed it also gives the time a hand may take at the bot's target (the budget
bench's allowance), and each kind's share of that allowance: a kind of turn whose time alone
comes near the allowance shows which decision the target would need made almost free.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from bench import BenchResult, Options, gin_rummy, register
from bench.budget_bench import TARGETS, play_game
from bench.sim_bench import FULL, INSTALL_HINT, PLAYERS, QUICK
from kalooki import driver
from kalooki.bots import Bot
from kalooki.engine import Game
from kalooki.events import BuildEvent, MeldEvent, ReleaseEvent
from kalooki.loader import load_variant
from kalooki.moves import Action
from kalooki.simulate import game_seed
from kalooki.simulation_stats import DEFAULT_MAX_TURNS
from kalooki.variant import Variant
from kalooki.view import PlayerView

KINDS = ("unopened_nothing_laid", "unopened_laid", "opened_nothing_laid", "opened_laid")
"""The kinds of turn, by whether the player had opened when it began and whether it laid anything."""
_LAYING = (MeldEvent, BuildEvent, ReleaseEvent)


class _Timed(Game):
    """A game that adds up the time its ``apply`` and ``view`` take, for the turn being timed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.engine = 0.0
        self.views = 0.0
        super().__init__(*args, **kwargs)

    def apply(self, action: Action, seat: int | None = None) -> Any:
        started = time.perf_counter()
        try:
            return super().apply(action, seat)
        finally:
            self.engine += time.perf_counter() - started

    def view(self, seat: int, *, own_bot: bool = False) -> PlayerView:
        started = time.perf_counter()
        try:
            return super().view(seat, own_bot=own_bot)
        finally:
            self.views += time.perf_counter() - started


@dataclass
class KindTotals:
    """The turns of one kind: how many, and their seconds in all, in the engine and in views."""

    turns: int = 0
    seconds: float = 0.0
    engine: float = 0.0
    views: float = 0.0


@dataclass
class TurnProfile:
    """Every turn of a bot's games, by kind, and the hands they made."""

    hands: int = 0
    kinds: dict[str, KindTotals] = field(default_factory=lambda: {kind: KindTotals() for kind in KINDS})


def kind_of(opened: bool, events: list[Any]) -> str:
    """The kind of a turn: whether its player had opened when it began, and whether it laid anything."""
    laid = any(isinstance(event, _LAYING) for event in events)
    return f"{'opened' if opened else 'unopened'}_{'laid' if laid else 'nothing_laid'}"


def profile(variant: Variant, bot: str, games: int, seed: int) -> TurnProfile:
    """Play the games :func:`kalooki.simulate.simulate` plays from ``seed``, timing every turn by kind."""
    found = TurnProfile()
    clock = time.perf_counter

    def play_hand(game: Game, bots: dict[int, Bot]) -> None:
        assert isinstance(game, _Timed)
        while game.phase in ("draw", "play"):
            opened = game.opened[game.current]
            game.engine = game.views = 0.0
            started = clock()
            events = driver.play_turn(game, bots[game.current])
            totals = found.kinds[kind_of(opened, events)]
            totals.seconds += clock() - started
            totals.turns += 1
            totals.engine += game.engine
            totals.views += game.views

    for index in range(games):
        game = _Timed(variant, PLAYERS, seed=game_seed(seed, index), turn_limit=DEFAULT_MAX_TURNS)
        found.hands += play_game(game, bot, play_hand)
    return found


def _kind_line(totals: KindTotals, hands: int, all_seconds: float, allowance: float | None) -> str:
    """One kind's figures in words: turns a hand, microseconds a turn and its parts, its shares."""
    turns = max(1, totals.turns)
    line = (
        f"{totals.turns / hands:.1f} a hand, {totals.seconds / turns * 1e6:.1f} us each "
        f"(engine {totals.engine / turns * 1e6:.1f}, views {totals.views / turns * 1e6:.1f}), "
        f"{totals.seconds / all_seconds:.0%} of the turns' time"
    )
    if allowance is not None:
        line += f", {totals.seconds / hands * 1e6 / allowance:.0%} of the allowance"
    return line


@register("turns")
def turns_bench(options: Options) -> BenchResult:
    sizes = QUICK if options.quick else FULL
    classic = load_variant("classic")
    result: BenchResult = {"variant": "classic"}
    allowances: dict[str, float | None] = dict.fromkeys(TARGETS)
    if gin_rummy.available():
        gin = statistics.median(gin_rummy.games_per_second(sizes.gin_games, options.seed) for _ in range(3))
        result["gin_rummy_games_per_second"] = round(gin, 1)
        allowances = {bot: 1e6 / (target * gin) for bot, target in TARGETS.items()}
    for bot, games in (("greedy", sizes.greedy_games), ("random", sizes.random_games)):
        cpu, wall = time.process_time(), time.perf_counter()
        found = profile(classic, bot, options.games or games, options.seed)
        result[f"{bot}_cpu_and_wall_seconds"] = (
            f"{time.process_time() - cpu:.2f} CPU, {time.perf_counter() - wall:.2f} wall"
        )
        all_seconds = sum(totals.seconds for totals in found.kinds.values()) or 1.0
        allowance = allowances[bot]
        result[f"{bot}_hands"] = found.hands
        result[f"{bot}_us_per_hand"] = round(all_seconds / found.hands * 1e6)
        result[f"{bot}_allowance_us_per_hand"] = (
            round(allowance)
            if allowance is not None
            else f"not measured (OpenSpiel not installed: {INSTALL_HINT})"
        )
        for kind, totals in found.kinds.items():
            result[f"{bot}_{kind}"] = _kind_line(totals, found.hands, all_seconds, allowance)
        result[f"{bot}_kinds"] = {
            kind: {
                "turns": totals.turns,
                "seconds": round(totals.seconds, 4),
                "engine_seconds": round(totals.engine, 4),
                "views_seconds": round(totals.views, 4),
            }
            for kind, totals in found.kinds.items()
        }
    return result
