"""What a hand's time allowance holds before the bots think: the floor under the simulation targets.

The simulation bench asks for classic four-player hands, the same bot in every seat, at a rate
against OpenSpiel's ``gin_rummy`` random-against-random games: greedy at 2.0 times it, random at
1.0. A hand is then allowed ``1 / (target * gin_rummy games/s)`` CPU seconds, the whole hand: the
four bots' decisions, the engine that applies them, and the views the bots are shown.

This bench plays the simulation bench's games once (same variant, bots and seeds), recording every
action and every call the bots make to the exact solver, and then times, in CPU time, per hand:

- ``played``: the hands as the bots play them (the same games in every round, so answers the
  bots remembered in an earlier round make it the optimistic figure: the simulation bench's rate,
  on new games, is the one the targets are judged on);
- ``engine``: a new game applying the recorded actions, nothing else;
- ``engine_views``: the same, building before each action the view and the legal-move view that
  :func:`kalooki.driver.ask_bot` shows the bot;
- ``solver``: the recorded solver calls made again (greedy asks the solver where its count checks
  cannot decide; random asks it for an opening when its sampling finds none, and to pay debts).

Each is the median of three rounds taken in turn with ``gin_rummy``, and each is printed as a
share of the allowance. ``engine_views`` and ``solver`` are the work that stays if a bot's own
reasoning cost nothing and it still asked the solver what it asks now: when their sum is near or
over the allowance, the target cannot be met by making the bot's own code faster. Without
``pyspiel`` the allowance, and so the shares, are not measured.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from functools import partial
from typing import Any

from bench import BenchResult, Options, gin_rummy, interleaved, register
from bench.sim_bench import FULL, INSTALL_HINT, PLAYERS, QUICK
from kalooki import driver, solver
from kalooki.bots import Bot, make_bot
from kalooki.engine import Game
from kalooki.loader import load_variant
from kalooki.moves import Action
from kalooki.simulate import derive_seed, game_seed
from kalooki.simulation_stats import DEFAULT_MAX_HANDS, DEFAULT_MAX_TURNS
from kalooki.variant import Variant
from kalooki.view import LegalView

REPEATS = 3
TARGETS = {"greedy": 2.0, "random": 1.0}
"""Each bot's target: four-player hands/s over gin_rummy games/s (the simulation bench's lines)."""

NEXT_HAND = "next hand"
UNDO = "undo"
Step = Action | str
"""A recorded step: an action applied, or the dealing of the next hand, or a turn taken back."""


class _Recording(Game):
    """A game that writes down every step it takes, so the same game can be played again without bots."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.steps: list[Step] = []
        super().__init__(*args, **kwargs)

    def apply(self, action: Action, seat: int | None = None) -> Any:
        events = super().apply(action, seat)
        # Only actions the game accepted: a refused one raises above and changed nothing.
        self.steps.append(action)
        return events

    def next_hand(self, *args: Any, **kwargs: Any) -> Any:
        self.steps.append(NEXT_HAND)
        return super().next_hand(*args, **kwargs)

    def undo_turn(self) -> None:
        super().undo_turn()
        self.steps.append(UNDO)


SolverCall = tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]


@contextmanager
def _solver_calls(calls: list[SolverCall]) -> Iterator[None]:
    """Record the bots' calls of :func:`kalooki.solver.solve` and :func:`kalooki.solver.best_opening`.

    The bots call them through the module, so replacing the module's names catches every call.
    """
    originals = {"solve": solver.solve, "best_opening": solver.best_opening}

    def recorder(function: Callable[..., Any]) -> Callable[..., Any]:
        def record(*args: Any, **kwargs: Any) -> Any:
            calls.append((function, args, kwargs))
            return function(*args, **kwargs)

        return record

    for name, function in originals.items():
        setattr(solver, name, recorder(function))
    try:
        yield
    finally:
        for name, function in originals.items():
            setattr(solver, name, function)


@dataclass(frozen=True)
class Recorded:
    """One bot's games, played once: each game's seed and steps, the hands and the solver calls."""

    games: tuple[tuple[int, tuple[Step, ...], tuple[int, ...]], ...]
    """Each game's seed, its steps and its final totals (which a replay must reach)."""
    hands: int
    solver_calls: tuple[SolverCall, ...]


def play_game(
    game: Game, bot: str, play_hand: Callable[[Game, dict[int, Bot]], object] = driver.play_hand
) -> int:
    """Play ``game`` to its end as :func:`kalooki.simulate.play_game` does; how many hands it had.

    ``play_hand`` plays each hand (the turns bench passes one that times each turn).
    """
    bots = {
        seat: make_bot(bot, random.Random(derive_seed(game.seed, "bot", seat)))
        for seat in range(len(PLAYERS))
    }
    hands = 0
    while not game.game_over and hands < DEFAULT_MAX_HANDS:
        if game.phase == "hand_over":
            game.next_hand()
        play_hand(game, bots)
        hands += 1
    return hands


def record(variant: Variant, bot: str, games: int, seed: int) -> Recorded:
    """Play the games :func:`kalooki.simulate.simulate` plays from ``seed``, writing down every step and
    solver call."""
    played: list[tuple[int, tuple[Step, ...], tuple[int, ...]]] = []
    calls: list[SolverCall] = []
    hands = 0
    with _solver_calls(calls):
        for index in range(games):
            game = _Recording(variant, PLAYERS, seed=game_seed(seed, index), turn_limit=DEFAULT_MAX_TURNS)
            game.steps.clear()  # the first deal is the new game's own, made again by Game() on replay
            hands += play_game(game, bot)
            played.append((game_seed(seed, index), tuple(game.steps), tuple(game.totals)))
    return Recorded(tuple(played), hands, tuple(calls))


def replay(variant: Variant, recorded: Recorded, views: bool) -> float:
    """CPU seconds to play the recorded games again without bots; with ``views``, building each view too."""
    started = time.process_time()
    for dealt, steps, totals in recorded.games:
        game = Game(variant, PLAYERS, seed=dealt, turn_limit=DEFAULT_MAX_TURNS)
        for step in steps:
            if step == NEXT_HAND:
                game.next_hand()
            elif step == UNDO:
                game.undo_turn()
            else:
                if views:
                    LegalView(game.view(game.current))
                game.apply(step)  # type: ignore[arg-type]
        if tuple(game.totals) != totals:
            raise RuntimeError(f"the replay of game seed {dealt} ended at {game.totals}, not {list(totals)}")
    return time.process_time() - started


def replay_solver(recorded: Recorded) -> float:
    """CPU seconds to make the recorded solver calls again."""
    started = time.process_time()
    for function, args, kwargs in recorded.solver_calls:
        with suppress(solver.Unsolvable):
            function(*args, **kwargs)
    return time.process_time() - started


def played(variant: Variant, bot: str, games: int, seed: int) -> float:
    """CPU seconds to play the games with the bots (a plain game: no recording in the time)."""
    started = time.process_time()
    for index in range(games):
        play_game(Game(variant, PLAYERS, seed=game_seed(seed, index), turn_limit=DEFAULT_MAX_TURNS), bot)
    return time.process_time() - started


def measures(
    variant: Variant, games: dict[str, int], recorded: dict[str, Recorded], seed: int, gin_games: int | None
) -> dict[str, Callable[[], float]]:
    """Every measure of a round, in the order a round takes them: CPU seconds, or gin_rummy games/s."""
    found: dict[str, Callable[[], float]] = {}
    for bot, games_played in recorded.items():
        found[f"{bot}_played"] = partial(played, variant, bot, games[bot], seed)
        found[f"{bot}_engine"] = partial(replay, variant, games_played, views=False)
        found[f"{bot}_engine_views"] = partial(replay, variant, games_played, views=True)
        found[f"{bot}_solver"] = partial(replay_solver, games_played)
    if gin_games is not None:
        found["gin_games"] = partial(gin_rummy.games_per_second, gin_games, seed)
    return found


@register("budget")
def budget_bench(options: Options) -> BenchResult:
    sizes = QUICK if options.quick else FULL
    classic = load_variant("classic")
    games = {"greedy": sizes.greedy_games, "random": sizes.random_games}
    recorded = {bot: record(classic, bot, count, options.seed) for bot, count in games.items()}
    spiel = gin_rummy.available()
    gin_games = sizes.gin_games if spiel else None
    rounds = interleaved(measures(classic, games, recorded, options.seed, gin_games), REPEATS)
    gin = statistics.median(rounds["gin_games"]) if spiel else None
    result: BenchResult = {"variant": "classic", "repeats": REPEATS}
    if gin is not None:
        result["gin_rummy_games_per_second"] = round(gin, 1)
        result["openspiel_version"] = gin_rummy.version()
    for bot, record_ in recorded.items():
        hands = record_.hands
        per_hand = {
            part: statistics.median(rounds[f"{bot}_{part}"]) / hands * 1e6
            for part in ("played", "engine", "engine_views", "solver")
        }
        result[f"{bot}_hands"] = hands
        result[f"{bot}_solver_calls_per_hand"] = round(len(record_.solver_calls) / hands, 2)
        for part, us in per_hand.items():
            result[f"{bot}_{part}_us_per_hand"] = round(us)
        if gin is None:
            result[f"{bot}_allowance"] = f"not measured (OpenSpiel not installed: {INSTALL_HINT})"
            continue
        allowance = 1e6 / (TARGETS[bot] * gin)
        result[f"{bot}_allowance_us_per_hand"] = round(allowance)
        shares = {part: us / allowance for part, us in per_hand.items()}
        floor = shares["engine_views"] + shares["solver"]
        result[f"{bot}_shares"] = {part: round(share, 3) for part, share in shares.items()}
        result[f"{bot}_floor"] = (
            f"engine and views {shares['engine_views']:.0%} + solver calls {shares['solver']:.0%} "
            f"= {floor:.0%} of the {allowance:.0f} us a hand the {TARGETS[bot]:g}x target allows; "
            f"as played {shares['played']:.0%}"
        )
    result["rounds"] = {name: [round(value, 4) for value in values] for name, values in rounds.items()}
    return result
