"""Simulating many games between bots, to see what a rule change does to the game.

:func:`simulate` plays ``games`` whole games of one variant with a bot in every seat and
returns a :class:`SimulationResult`: win rates per seat and per bot with 95% Wilson intervals,
how long hands and games last, how often a hand ends in Kalooki, how often the stock runs out,
when players open, how many points losers are left holding, and how far apart final scores
end. :func:`compare` plays two variants on the same seeds and tests each difference.

Determinism. Game ``i`` is dealt from a seed derived from the master seed and ``i`` alone
(:func:`game_seed`), and its bots draw from seeds derived from that, so a game's result does
not depend on which process plays it or when. Workers (local processes or a Dask cluster, see
:mod:`kalooki.executors`) play chunks of game indices and the records are put back in index
order before anything is counted: the same seed gives the same result, to the last digit, with
any number of workers. With duplicate deals (:class:`GamePlan`) each deal is played once per
seat rotation.

Endless play is cut off: a hand that passes ``max_turns`` turns is abandoned (unscored, and
counted), and a game still going after ``max_hands`` hands is stopped and counted unfinished.

Statistics (see :func:`compare` for the tests):

- a rate is ``successes / trials`` with a Wilson score interval, which stays inside 0-1 and is
  honest for small counts and rates near 0 or 1;
- per-bot rates pool every seat the bot sits in; a hand counts as a trial for each seat
  playing it, so an abandoned hand is a trial that nobody wins; a game won jointly (a tie)
  is a win for each of the tied seats;
- hands of one game are treated as independent, which they nearly are (each is a new deal) but
  not quite (the seat that starts moves round, eliminations change the table); with duplicate
  deals, whose copies are not independent at all, every interval is taken over deals instead
  (:func:`kalooki.figures.with_unit_intervals`).

This module prints nothing and writes no files: the CLI (``kalooki simulate``) does that.
"""

from __future__ import annotations

import csv
import hashlib
import io
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from typing import Any, Final

from kalooki.bots import Bot, make_bot
from kalooki.driver import play_turn
from kalooki.engine import DEFAULT_TURN_LIMIT, Game
from kalooki.errors import KalookiError
from kalooki.events import BuildEvent, MeldEvent, ReleaseEvent, ReshuffleEvent, StockOutEvent
from kalooki.executors import Pool, open_pool, run_tasks
from kalooki.stalls import Stall, stall_of, stalled_hands
from kalooki.variant import Variant

DEFAULT_MAX_TURNS: Final = DEFAULT_TURN_LIMIT
"""Turns (all players together) after which a hand is stopped: the engine's own limit, as for any game."""

DEFAULT_MAX_HANDS: Final = 200
"""Hands after which a game that has not reached its goal is stopped."""

Z95: Final = 1.959963984540054
"""The normal quantile for a two-sided 95% interval."""

ALPHA: Final = 0.05
"""The significance level of :func:`compare`'s tests."""

Progress = Callable[[int, int], None]
"""Called with (games done, games in all) as games finish."""


class SimulationError(KalookiError):
    """A simulation that cannot be run as asked (no games, a bot list that does not fit the table...)."""


# ---------------------------------------------------------------- seeds


def derive_seed(*parts: object) -> int:
    """A 64-bit seed from the parts' text: stable across runs, processes and Python versions."""
    text = ":".join(str(part) for part in parts)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def game_seed(master: int, index: int) -> int:
    """The deal seed of game ``index`` of a run with master seed ``master``."""
    return derive_seed("kalooki-simulate", master, index)


# ---------------------------------------------------------------- what one game leaves behind


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand: how it ended, and what each seat (indexed by seat) opened on, held and scored."""

    winner: int | None
    kalooki: bool
    end: str
    turns: int
    seats: tuple[int, ...]
    hand_points: tuple[int, ...]
    scores: tuple[int, ...]
    opened_on: tuple[int | None, ...]
    """Each seat's own turn (1 = their first) on which they opened; None if they never did."""
    reshuffles: int
    stock_outs: int
    stall: Stall | None = None
    """A hand stopped at the turn limit: what held it up (see :mod:`kalooki.stalls`)."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: its seed, its hands, the final totals and winners (seats), and whether it ended."""

    index: int
    seed: int
    hands: tuple[HandRecord, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    finished: bool
    rotation: int = 0
    """Duplicate deals: seat ``s`` held bot ``bots[(s + rotation) % seats]`` (0: the bots as listed)."""

    def bot(self, bots: Sequence[str], seat: int) -> str:
        """The bot that sat in ``seat`` in this game."""
        return bots[(seat + self.rotation) % len(bots)]


def play_game(
    variant: Variant,
    bots: Sequence[str],
    seed: int,
    index: int = 0,
    max_turns: int = DEFAULT_MAX_TURNS,
    max_hands: int = DEFAULT_MAX_HANDS,
    rotation: int = 0,
) -> GameRecord:
    """Play one whole game with the named bots in seats 0, 1, ... (turned by ``rotation``) and record it."""
    players = [f"P{seat + 1}" for seat in range(len(bots))]
    game = Game(variant, players, seed=seed, turn_limit=max_turns)
    seated = [bots[(seat + rotation) % len(bots)] for seat in range(len(bots))]
    seats = {
        seat: make_bot(name, random.Random(derive_seed(seed, "bot", seat)))
        for seat, name in enumerate(seated)
    }
    hands: list[HandRecord] = []
    while not game.game_over and len(hands) < max_hands:
        if game.phase == "hand_over":
            game.next_hand()
        hands.append(_play_hand(game, seats))
    return GameRecord(
        index=index,
        seed=seed,
        hands=tuple(hands),
        totals=tuple(game.totals),
        winners=tuple(game.winners),
        finished=game.game_over,
        rotation=rotation,
    )


def _play_hand(game: Game, bots: Mapping[int, Bot]) -> HandRecord:
    count = len(game.players)
    own_turns = [0] * count
    opened_on: list[int | None] = [None] * count
    reshuffles = stock_outs = 0
    last_laid = 0
    # The game's turn limit (``max_turns``) ends a hand that goes on too long: the engine stops it.
    while game.phase in ("draw", "play"):
        seat = game.current
        own_turns[seat] += 1
        was_open = game.opened[seat]
        turn = game.turn_number
        for event in play_turn(game, bots[seat]):
            if isinstance(event, ReshuffleEvent):
                reshuffles += 1
            elif isinstance(event, StockOutEvent):
                stock_outs += 1
            elif isinstance(event, (MeldEvent, BuildEvent, ReleaseEvent)):
                last_laid = turn
        if not was_open and game.opened[seat]:
            opened_on[seat] = own_turns[seat]
    result = game.results[-1]
    capped = result.end == "turn_limit"
    return HandRecord(
        winner=result.winner,
        kalooki=result.kalooki,
        # A simulation's reports have always called a hand stopped at the turn cap "abandoned".
        end="abandoned" if result.end == "turn_limit" else result.end,
        turns=result.turns,
        seats=result.seats,
        hand_points=result.hand_points,
        scores=result.scores,
        opened_on=tuple(opened_on),
        reshuffles=reshuffles,
        stock_outs=stock_outs,
        stall=stall_of(game, result.turns - last_laid, reshuffles) if capped else None,
    )


# ---------------------------------------------------------------- statistics


@dataclass(frozen=True, slots=True)
class Rate:
    """``successes`` out of ``trials``, with a 95% Wilson score interval."""

    successes: float
    trials: int
    ci: tuple[float, float] | None = field(default=None, compare=False)
    """An interval computed elsewhere (over deals, for duplicate deals) in place of Wilson's."""

    @property
    def rate(self) -> float:
        return self.successes / self.trials if self.trials else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return self.ci if self.ci is not None else wilson_interval(self.successes, self.trials)

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "successes": self.successes,
            "trials": self.trials,
            "rate": round(self.rate, 6),
            "ci95": [round(low, 6), round(high, 6)],
        }


@dataclass(frozen=True, slots=True)
class Mean:
    """The mean of ``n`` values with their sample standard deviation (0 for fewer than two)."""

    n: int
    mean: float
    sd: float
    ci: tuple[float, float] | None = field(default=None, compare=False)
    """An interval computed elsewhere (over deals, for duplicate deals) in place of the normal one."""

    @staticmethod
    def of(values: Sequence[float]) -> Mean:
        n = len(values)
        if not n:
            return Mean(0, 0.0, 0.0)
        mean = math.fsum(values) / n
        var = math.fsum((value - mean) ** 2 for value in values) / (n - 1) if n > 1 else 0.0
        return Mean(n, mean, math.sqrt(var))

    @property
    def interval(self) -> tuple[float, float]:
        """A normal-approximation 95% interval for the mean."""
        if self.ci is not None:
            return self.ci
        if self.n < 2:
            return (self.mean, self.mean)
        half = Z95 * self.sd / math.sqrt(self.n)
        return (self.mean - half, self.mean + half)

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "n": self.n,
            "mean": round(self.mean, 6),
            "sd": round(self.sd, 6),
            "ci95": [round(low, 6), round(high, 6)],
        }


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (0-1); (0, 0) for no trials."""
    if trials <= 0:
        return (0.0, 0.0)
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(max(0.0, p * (1 - p) / trials + z2 / (4 * trials * trials))) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """What :func:`simulate` measured. Every figure is a :class:`Rate` or a :class:`Mean`.

    Per-seat lists are indexed by seat (seat 0 plays first in the first hand). ``records`` holds
    every game for per-game output; it is left out of :meth:`to_json`.
    """

    variant: str
    rules: dict[str, Any]
    bots: tuple[str, ...]
    games: int
    seed: int
    max_turns: int
    max_hands: int
    hands: int
    seat_hand_wins: tuple[Rate, ...]
    seat_game_wins: tuple[Rate, ...]
    bot_hand_wins: dict[str, Rate]
    bot_game_wins: dict[str, Rate]
    bot_score_per_hand: dict[str, Mean]
    turns_per_hand: Mean
    hands_per_game: Mean
    kalooki: Rate
    stock_ran_out: Rate
    reshuffles_per_hand: Mean
    ends: dict[str, int]
    abandoned: Rate
    opened: Rate
    opening_turn: Mean
    points_per_loser: Mean
    score_spread: Mean
    unfinished_games: int
    records: tuple[GameRecord, ...] = field(repr=False)
    seconds: float = field(default=0.0, compare=False)
    workers: int = field(default=1, compare=False)
    duplicate: bool = False
    """Each deal was played once per seat rotation (games come in groups of one per seat)."""

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "rules": self.rules,
            "bots": list(self.bots),
            "games": self.games,
            "seed": self.seed,
            "max_turns": self.max_turns,
            "max_hands": self.max_hands,
            "hands": self.hands,
            "seat_hand_wins": [rate.to_json() for rate in self.seat_hand_wins],
            "seat_game_wins": [rate.to_json() for rate in self.seat_game_wins],
            "bot_hand_wins": {name: rate.to_json() for name, rate in self.bot_hand_wins.items()},
            "bot_game_wins": {name: rate.to_json() for name, rate in self.bot_game_wins.items()},
            "bot_score_per_hand": {name: mean.to_json() for name, mean in self.bot_score_per_hand.items()},
            "turns_per_hand": self.turns_per_hand.to_json(),
            "hands_per_game": self.hands_per_game.to_json(),
            "kalooki": self.kalooki.to_json(),
            "stock_ran_out": self.stock_ran_out.to_json(),
            "reshuffles_per_hand": self.reshuffles_per_hand.to_json(),
            "ends": dict(self.ends),
            "abandoned": self.abandoned.to_json(),
            "opened": self.opened.to_json(),
            "opening_turn": self.opening_turn.to_json(),
            "points_per_loser": self.points_per_loser.to_json(),
            "score_spread": self.score_spread.to_json(),
            "unfinished_games": self.unfinished_games,
            "abandoned_hands": [hand.to_json() for hand in stalled_hands(self.records, self.bots)],
            "duplicate": self.duplicate,
            "seconds": round(self.seconds, 3),
            "workers": self.workers,
            "games_per_second": round(self.games_per_second, 2),
        }


def summarise(
    variant: Variant,
    bots: Sequence[str],
    seed: int,
    records: Sequence[GameRecord],
    max_turns: int = DEFAULT_MAX_TURNS,
    max_hands: int = DEFAULT_MAX_HANDS,
    duplicate: bool = False,
) -> SimulationResult:
    """Count everything :class:`SimulationResult` reports from the games' records (in index order)."""
    seats = range(len(bots))
    names = sorted(set(bots))
    hand_wins = [0] * len(bots)
    hand_trials = [0] * len(bots)
    game_wins = [0] * len(bots)
    # Per bot, counted game by game: with duplicate deals a bot changes seats from game to game.
    bot_counts = {name: [0, 0, 0, 0] for name in names}  # hand wins, hand trials, game wins, game trials
    scores: dict[str, list[float]] = {name: [] for name in names}
    turns: list[float] = []
    hands_per_game: list[float] = []
    reshuffles: list[float] = []
    opening_turns: list[float] = []
    loser_points: list[float] = []
    spreads: list[float] = []
    ends: dict[str, int] = {}
    kalookis = ran_out = abandoned = opened = player_hands = 0
    for record in records:
        hands_per_game.append(len(record.hands))
        spreads.append(max(record.totals) - min(record.totals))
        for seat in record.winners:
            game_wins[seat] += 1
            bot_counts[record.bot(bots, seat)][2] += 1
        for seat in seats:
            bot_counts[record.bot(bots, seat)][3] += 1
        for hand in record.hands:
            turns.append(hand.turns)
            reshuffles.append(hand.reshuffles)
            ends[hand.end] = ends.get(hand.end, 0) + 1
            kalookis += hand.kalooki
            ran_out += hand.reshuffles > 0 or hand.stock_outs > 0
            abandoned += hand.end == "abandoned"
            for seat in hand.seats:
                hand_trials[seat] += 1
                bot_counts[record.bot(bots, seat)][1] += 1
                player_hands += 1
                scores[record.bot(bots, seat)].append(hand.scores[seat])
                if hand.opened_on[seat] is not None:
                    opened += 1
                    opening_turns.append(float(hand.opened_on[seat] or 0))
                if hand.winner is not None and seat != hand.winner and hand.end == "went_out":
                    loser_points.append(hand.hand_points[seat])
            if hand.winner is not None:
                hand_wins[hand.winner] += 1
                bot_counts[record.bot(bots, hand.winner)][0] += 1
    hands = len(turns)
    games = len(records)

    return SimulationResult(
        variant=variant.name,
        rules=variant.model_dump(mode="json", exclude={"extends"}),
        bots=tuple(bots),
        games=games,
        seed=seed,
        max_turns=max_turns,
        max_hands=max_hands,
        hands=hands,
        seat_hand_wins=tuple(Rate(hand_wins[seat], hand_trials[seat]) for seat in seats),
        seat_game_wins=tuple(Rate(game_wins[seat], games) for seat in seats),
        bot_hand_wins={name: Rate(count[0], count[1]) for name, count in bot_counts.items()},
        bot_game_wins={name: Rate(count[2], count[3]) for name, count in bot_counts.items()},
        bot_score_per_hand={name: Mean.of(values) for name, values in scores.items()},
        turns_per_hand=Mean.of(turns),
        hands_per_game=Mean.of(hands_per_game),
        kalooki=Rate(kalookis, hands),
        stock_ran_out=Rate(ran_out, hands),
        reshuffles_per_hand=Mean.of(reshuffles),
        ends=dict(sorted(ends.items())),
        abandoned=Rate(abandoned, hands),
        opened=Rate(opened, player_hands),
        opening_turn=Mean.of(opening_turns),
        points_per_loser=Mean.of(loser_points),
        score_spread=Mean.of(spreads),
        unfinished_games=sum(not record.finished for record in records),
        records=tuple(records),
        duplicate=duplicate,
    )


# ---------------------------------------------------------------- running


@dataclass(frozen=True)
class GamePlan:
    """The games of one run: which variant, which bots, how many games from which seed.

    With ``duplicate``, game ``i`` is deal ``i // r`` played with the bots turned by ``i % r``
    seats, ``r`` being the number of distinct rotations of the bots (:func:`rotations`), so each
    deal is played once at every table the rotations make, and never twice at the same one.
    """

    variant: Variant
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    duplicate: bool = False
    max_turns: int = DEFAULT_MAX_TURNS
    max_hands: int = DEFAULT_MAX_HANDS

    @property
    def deal_size(self) -> int:
        """Games per deal: 1, or with duplicate deals the number of distinct rotations of the bots."""
        return rotations(self.bots) if self.duplicate else 1

    def check(self) -> None:
        """Raise :class:`SimulationError` (or the registry's error for an unknown bot) before playing."""
        check_setup(self.variant, self.bots, self.games)
        size = self.deal_size
        if self.games % size:
            lower, upper = self.games - self.games % size, self.games - self.games % size + size
            raise SimulationError(
                f"--duplicate plays each deal once per seat rotation: --games {self.games} is not a "
                f"multiple of the {size} rotations of {', '.join(self.bots)} "
                f"(try {lower or upper} or {upper})"
            )

    def jobs(self) -> list[tuple[int, int, int]]:
        """Every game as (index, deal seed, rotation), in index order."""
        size = self.deal_size
        return [(index, game_seed(self.seed, index // size), index % size) for index in range(self.games)]

    def chunks(self, workers: int) -> list[list[tuple[int, int, int]]]:
        """The jobs in slices: several per worker keep every core busy to the end and progress moving."""
        jobs = self.jobs()
        size = max(1, min(25, len(jobs) // (workers * 8) or 1))
        return [jobs[start : start + size] for start in range(0, len(jobs), size)]

    def play(self, jobs: Sequence[tuple[int, int, int]]) -> list[GameRecord]:
        """Play the given games (this runs in a worker: a pure function of the plan and the jobs)."""
        return [
            play_game(self.variant, self.bots, seed, index, self.max_turns, self.max_hands, rotation)
            for index, seed, rotation in jobs
        ]

    def summarise(self, records: Sequence[GameRecord]) -> SimulationResult:
        """The result of the plan's games (in index order)."""
        result = summarise(
            self.variant, self.bots, self.seed, records, self.max_turns, self.max_hands, self.duplicate
        )
        if self.duplicate:
            # The copies of one deal are not independent: intervals are taken over deals.
            from kalooki.figures import with_unit_intervals

            result = with_unit_intervals(result)
        return result


def rotations(bots: Sequence[str]) -> int:
    """How many distinct tables turning the bots round gives: 4 for four different bots, 2 for
    ``greedy,random,greedy,random``, 1 for one bot in every seat (turning it changes nothing)."""
    count = len(bots)
    return next(
        shift
        for shift in range(1, count + 1)
        if count % shift == 0 and all(bots[seat] == bots[(seat + shift) % count] for seat in range(count))
    )


def check_setup(variant: Variant, bots: Sequence[str], games: int) -> None:
    """Raise :class:`SimulationError` (or the registry's error for an unknown bot) before playing."""
    if games < 1:
        raise SimulationError(f"--games must be at least 1, not {games}")
    if not variant.min_players <= len(bots) <= variant.max_players:
        span = (
            f"exactly {variant.min_players}"
            if variant.min_players == variant.max_players
            else f"{variant.min_players} to {variant.max_players}"
        )
        raise SimulationError(f"{len(bots)} bots: {variant.name} is for {span} players")
    for name in sorted(set(bots)):
        make_bot(name, random.Random(0))


_PLANS_HERE: dict[GamePlan, GamePlan] = {}
"""The plans this process has played, so that an equal plan sent with a later chunk is played with
the same objects (see :func:`play_chunk`)."""

PLANS_KEPT: Final = 64
"""Distinct plans :data:`_PLANS_HERE` holds before it starts afresh (a sweep sends one per cell)."""


def play_chunk(plan: GamePlan, jobs: Sequence[tuple[int, int, int]]) -> list[GameRecord]:
    """Play a chunk of ``plan``'s games: the task a worker runs.

    Each task arrives with its own unpickled copy of the plan. Played as they come, every chunk
    after a worker's first would hold a variant equal to, but not the same object as, the one
    the bots' caches were filled with, and each of their lookups (about 340 a game for greedy)
    would compare the two field by field, nearly three times the cost of a hit on the same
    object. Playing each chunk with the first equal plan this process received keeps the
    workers' lookups as cheap as one process's; results do not change.
    """
    if len(_PLANS_HERE) >= PLANS_KEPT and plan not in _PLANS_HERE:
        _PLANS_HERE.clear()
    return _PLANS_HERE.setdefault(plan, plan).play(jobs)


def play_plans(
    pool: Pool,
    plans: Sequence[GamePlan],
    progress: Progress | None = None,
    plan_done: Callable[[int, list[GameRecord]], None] | None = None,
) -> list[list[GameRecord]]:
    """Play every plan's games on the pool; each plan's records in index order.

    ``plan_done(which, records)`` is called as soon as all of plan ``which``'s games are played.
    """
    records: list[list[GameRecord]] = [[] for _ in plans]
    total = sum(plan.games for plan in plans)
    done = 0

    def finished(which: int, played: list[GameRecord]) -> None:
        nonlocal done
        records[which].extend(played)
        done += len(played)
        if len(records[which]) == plans[which].games:
            records[which].sort(key=lambda record: record.index)
            if plan_done is not None:
                plan_done(which, records[which])
        if progress is not None:
            progress(done, total)

    tasks = (
        (which, play_chunk, (plan, chunk))
        for which, plan in enumerate(plans)
        for chunk in plan.chunks(pool.workers)
    )
    run_tasks(pool, tasks, finished)
    return records


def simulate(
    variant: Variant,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    workers: int | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    max_hands: int = DEFAULT_MAX_HANDS,
    progress: Progress | None = None,
    duplicate: bool = False,
    pool: Pool | None = None,
) -> SimulationResult:
    """Play ``games`` games of ``variant`` with the named bot in each seat and count what happened.

    ``workers``: processes to play in (default: every core; 1 plays in this process), or
    ``pool``: an open :class:`~kalooki.executors.Pool` (local processes or a Dask cluster). The
    result is the same for every number of workers. Bots are made by name in each worker, so a
    bot registered at run time (not through an entry point) needs workers=1 unless the workers
    are forked from this process, as they are on Linux. ``duplicate``: play each deal once per
    seat rotation (see :class:`GamePlan`).
    """
    plan = GamePlan(variant, tuple(bots), games, seed, duplicate, max_turns, max_hands)
    plan.check()
    started = time.perf_counter()
    with nullcontext(pool) if pool is not None else open_pool(workers) as active:
        (records,) = play_plans(active, [plan], progress)
    return _timed(plan.summarise(records), time.perf_counter() - started, active.workers)


def _timed(result: SimulationResult, seconds: float, workers: int) -> SimulationResult:
    return replace(result, seconds=seconds, workers=workers)


# ---------------------------------------------------------------- per-game rows

CSV_FIELDS: Final = (
    "variant",
    "game",
    "seed",
    "hands",
    "turns",
    "finished",
    "winners",
    "kalookis",
    "abandoned_hands",
    "reshuffles",
)


def game_rows(result: SimulationResult) -> list[dict[str, Any]]:
    """One row per game: its seed, length, winners (seat numbers from 1), and each seat's total."""
    rows: list[dict[str, Any]] = []
    for record in result.records:
        row: dict[str, Any] = {
            "variant": result.variant,
            "game": record.index,
            "seed": record.seed,
            "hands": len(record.hands),
            "turns": sum(hand.turns for hand in record.hands),
            "finished": record.finished,
            "winners": " ".join(str(seat + 1) for seat in record.winners),
            "kalookis": sum(hand.kalooki for hand in record.hands),
            "abandoned_hands": sum(hand.end == "abandoned" for hand in record.hands),
            "reshuffles": sum(hand.reshuffles for hand in record.hands),
        }
        for seat, total in enumerate(record.totals):
            row[f"total_{seat + 1}"] = total
        rows.append(row)
    return rows


def rows_to_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    """The rows as CSV text with a header (columns in the order of the first row)."""
    out = io.StringIO()
    if rows:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return out.getvalue()


# ---------------------------------------------------------------- comparing two variants


@dataclass(frozen=True, slots=True)
class Difference:
    """One figure under both variants: B minus A, the paired test's statistic and two-sided p-value.

    ``adjusted_p`` is the p-value after false-discovery control over every figure compared
    (Benjamini-Hochberg); ``significant`` reads it, so a difference is marked only when it
    survives the many tests made at once.
    """

    metric: str
    kind: str  # "rate" (shown as a percentage) or "mean"
    a: float
    b: float
    difference: float
    statistic: float
    p_value: float
    adjusted_p: float = 1.0
    key: str = ""

    @property
    def significant(self) -> bool:
        return self.adjusted_p < ALPHA

    def to_json(self) -> dict[str, Any]:
        return {
            "metric": self.metric,
            "key": self.key,
            "test": "paired t",
            "a": round(self.a, 6),
            "b": round(self.b, 6),
            "difference": round(self.difference, 6),
            "statistic": round(self.statistic, 4) if math.isfinite(self.statistic) else str(self.statistic),
            "p_value": round(self.p_value, 6),
            "adjusted_p": round(self.adjusted_p, 6),
            "significant": self.significant,
        }


@dataclass(frozen=True, slots=True)
class Comparison:
    """Two simulations on the same seeds and the tested differences between them."""

    a: SimulationResult
    b: SimulationResult
    differences: tuple[Difference, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "alpha": ALPHA,
            "correction": "Benjamini-Hochberg",
            "differences": [difference.to_json() for difference in self.differences],
        }


def differences(a: SimulationResult, b: SimulationResult) -> tuple[Difference, ...]:
    """Every figure the two results share, B minus A, each with its paired test, FDR-controlled."""
    from kalooki.figures import adjust_p_values, difference, figures_of, paired_test, unit_table

    shared = [figure for figure in figures_of(a.bots) if figure in figures_of(b.bots)]
    table_a, table_b = unit_table(a, shared), unit_table(b, shared)
    tests = [paired_test(table_a[figure.key], table_b[figure.key]) for figure in shared]
    adjusted = adjust_p_values([test.p_value for test in tests])
    return tuple(
        difference(figure, test, adjusted_p)
        for figure, test, adjusted_p in zip(shared, tests, adjusted, strict=True)
    )


def compare(
    a: Variant,
    b: Variant,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    workers: int | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    max_hands: int = DEFAULT_MAX_HANDS,
    progress: Progress | None = None,
    duplicate: bool = False,
    pool: Pool | None = None,
) -> Comparison:
    """Simulate ``a`` and ``b`` on the same game seeds and test each difference (B minus A).

    The same seeds pair the runs game by game, so each figure is compared with a paired t-test
    over games (see :mod:`kalooki.figures`), two-sided; the p-values of all the figures are
    then adjusted together (Benjamini-Hochberg) and a difference is significant when its
    adjusted p-value is under :data:`ALPHA`. ``progress`` sees both runs as one: (done, 2 * games).
    """
    plans = [GamePlan(rules, tuple(bots), games, seed, duplicate, max_turns, max_hands) for rules in (a, b)]
    for plan in plans:
        plan.check()
    started = time.perf_counter()
    with nullcontext(pool) if pool is not None else open_pool(workers) as active:
        records = play_plans(active, plans, progress)
    seconds = (time.perf_counter() - started) / 2
    first, second = (
        _timed(plan.summarise(played), seconds, active.workers)
        for plan, played in zip(plans, records, strict=True)
    )
    return Comparison(first, second, differences(first, second))
