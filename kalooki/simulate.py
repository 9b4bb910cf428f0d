"""Simulating many games between bots, to see what a rule change does to the game.

:func:`simulate` plays ``games`` whole games of one variant with a bot in every seat and
returns a :class:`SimulationResult`: win rates per seat and per bot with 95% Wilson intervals,
how long hands and games last, how often a hand ends in Kalooki, how often the stock runs out,
when players open, how many points losers are left holding, and how far apart final scores
end. :func:`compare` plays two variants on the same seeds and tests each difference.

Determinism. Game ``i`` is dealt from a seed derived from the master seed and ``i`` alone
(:func:`game_seed`), and its bots draw from seeds derived from that, so a game's result does
not depend on which process plays it or when. Workers play chunks of game indices and the
records are put back in index order before anything is counted: the same seed gives the same
result, to the last digit, with any number of workers.

Endless play is cut off: a hand that passes ``max_turns`` turns is abandoned (unscored, and
counted), and a game still going after ``max_hands`` hands is stopped and counted unfinished.

Statistics (see :func:`compare` for the tests):

- a rate is ``successes / trials`` with a Wilson score interval, which stays inside 0-1 and is
  honest for small counts and rates near 0 or 1;
- per-bot rates pool every seat the bot sits in; a hand counts as a trial for each seat
  playing it, so an abandoned hand is a trial that nobody wins; a game won jointly (a tie)
  is a win for each of the tied seats;
- hands of one game are treated as independent, which they nearly are (each is a new deal) but
  not quite (the seat that starts moves round, eliminations change the table).

This module prints nothing and writes no files: the CLI (``kalooki simulate``) does that.
"""

from __future__ import annotations

import csv
import hashlib
import io
import math
import os
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from typing import Any, Final

from kalooki.bots import Bot, make_bot
from kalooki.driver import play_turn
from kalooki.engine import DEFAULT_TURN_LIMIT, Game
from kalooki.errors import KalookiError
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


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: its seed, its hands, the final totals and winners (seats), and whether it ended."""

    index: int
    seed: int
    hands: tuple[HandRecord, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    finished: bool


def play_game(
    variant: Variant,
    bots: Sequence[str],
    seed: int,
    index: int = 0,
    max_turns: int = DEFAULT_MAX_TURNS,
    max_hands: int = DEFAULT_MAX_HANDS,
) -> GameRecord:
    """Play one whole game with the named bots in seats 0, 1, ... and record it."""
    players = [f"P{seat + 1}" for seat in range(len(bots))]
    game = Game(variant, players, seed=seed, turn_limit=max_turns)
    seats = {
        seat: make_bot(name, random.Random(derive_seed(seed, "bot", seat))) for seat, name in enumerate(bots)
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
    )


def _play_hand(game: Game, bots: Mapping[int, Bot]) -> HandRecord:
    count = len(game.players)
    own_turns = [0] * count
    opened_on: list[int | None] = [None] * count
    reshuffles = stock_outs = 0
    # The game's turn limit (``max_turns``) ends a hand that goes on too long: the engine stops it.
    while game.phase in ("draw", "play"):
        seat = game.current
        own_turns[seat] += 1
        was_open = game.opened[seat]
        for event in play_turn(game, bots[seat]):
            kind = event["type"]
            if kind == "reshuffle":
                reshuffles += 1
            elif kind == "stock_out":
                stock_outs += 1
        if not was_open and game.opened[seat]:
            opened_on[seat] = own_turns[seat]
    result = game.results[-1]
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
    )


def _play_chunk(
    variant: Variant, bots: tuple[str, ...], jobs: list[tuple[int, int]], max_turns: int, max_hands: int
) -> list[GameRecord]:
    return [play_game(variant, bots, seed, index, max_turns, max_hands) for index, seed in jobs]


# ---------------------------------------------------------------- statistics


@dataclass(frozen=True, slots=True)
class Rate:
    """``successes`` out of ``trials``, with a 95% Wilson score interval."""

    successes: float
    trials: int

    @property
    def rate(self) -> float:
        return self.successes / self.trials if self.trials else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.successes, self.trials)

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
) -> SimulationResult:
    """Count everything :class:`SimulationResult` reports from the games' records (in index order)."""
    seats = range(len(bots))
    names = sorted(set(bots))
    hand_wins = [0] * len(bots)
    hand_trials = [0] * len(bots)
    game_wins = [0] * len(bots)
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
        for hand in record.hands:
            turns.append(hand.turns)
            reshuffles.append(hand.reshuffles)
            ends[hand.end] = ends.get(hand.end, 0) + 1
            kalookis += hand.kalooki
            ran_out += hand.reshuffles > 0 or hand.stock_outs > 0
            abandoned += hand.end == "abandoned"
            for seat in hand.seats:
                hand_trials[seat] += 1
                player_hands += 1
                scores[bots[seat]].append(hand.scores[seat])
                if hand.opened_on[seat] is not None:
                    opened += 1
                    opening_turns.append(float(hand.opened_on[seat] or 0))
                if hand.winner is not None and seat != hand.winner and hand.end == "went_out":
                    loser_points.append(hand.hand_points[seat])
            if hand.winner is not None:
                hand_wins[hand.winner] += 1
    hands = len(turns)
    games = len(records)

    def pooled(wins: list[int], trials: list[int]) -> dict[str, Rate]:
        return {
            name: Rate(
                sum(wins[seat] for seat in seats if bots[seat] == name),
                sum(trials[seat] for seat in seats if bots[seat] == name),
            )
            for name in names
        }

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
        bot_hand_wins=pooled(hand_wins, hand_trials),
        bot_game_wins=pooled(game_wins, [games] * len(bots)),
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
    )


# ---------------------------------------------------------------- running


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def _chunks(jobs: list[tuple[int, int]], workers: int) -> Iterator[list[tuple[int, int]]]:
    # Several chunks per worker keep every core busy to the end and the progress bar moving;
    # small enough chunks also keep the cost of a slow game from piling up on one worker.
    size = max(1, min(25, len(jobs) // (workers * 8) or 1))
    for start in range(0, len(jobs), size):
        yield jobs[start : start + size]


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
) -> SimulationResult:
    """Play ``games`` games of ``variant`` with the named bot in each seat and count what happened.

    ``workers``: processes to play in (default: every core; 1 plays in this process). The
    result is the same for every number of workers. Bots are made by name in each worker, so a
    bot registered at run time (not through an entry point) needs workers=1 unless the workers
    are forked from this process, as they are on Linux.
    """
    check_setup(variant, bots, games)
    workers = default_workers() if workers is None else workers
    if workers < 1:
        raise SimulationError(f"--workers must be at least 1, not {workers}")
    bots = tuple(bots)
    jobs = [(index, game_seed(seed, index)) for index in range(games)]
    started = time.perf_counter()
    records: list[GameRecord] = []
    if workers == 1 or games == 1:
        for index, game_seed_ in jobs:
            records.append(play_game(variant, bots, game_seed_, index, max_turns, max_hands))
            if progress is not None:
                progress(len(records), games)
    else:
        with ProcessPoolExecutor(max_workers=min(workers, games)) as pool:
            futures = [
                pool.submit(_play_chunk, variant, bots, chunk, max_turns, max_hands)
                for chunk in _chunks(jobs, workers)
            ]
            for future in as_completed(futures):
                records.extend(future.result())
                if progress is not None:
                    progress(len(records), games)
        records.sort(key=lambda record: record.index)
    result = summarise(variant, bots, seed, records, max_turns, max_hands)
    return _timed(result, time.perf_counter() - started, workers)


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
    """One figure under both variants: B minus A, the test's statistic and two-sided p-value."""

    metric: str
    kind: str  # "rate" (two-proportion z-test) or "mean" (Welch's t-test)
    a: float
    b: float
    difference: float
    statistic: float
    p_value: float

    @property
    def significant(self) -> bool:
        return self.p_value < ALPHA

    def to_json(self) -> dict[str, Any]:
        return {
            "metric": self.metric,
            "test": "two-proportion z" if self.kind == "rate" else "Welch t",
            "a": round(self.a, 6),
            "b": round(self.b, 6),
            "difference": round(self.difference, 6),
            "statistic": round(self.statistic, 4),
            "p_value": round(self.p_value, 6),
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
            "differences": [difference.to_json() for difference in self.differences],
        }


def two_proportion_test(a: Rate, b: Rate) -> tuple[float, float]:
    """The pooled two-proportion z statistic for ``b - a`` and its two-sided p-value."""
    if not a.trials or not b.trials:
        return (0.0, 1.0)
    pooled = (a.successes + b.successes) / (a.trials + b.trials)
    variance = pooled * (1 - pooled) * (1 / a.trials + 1 / b.trials)
    if variance <= 0:
        return (0.0, 1.0)
    z = (b.rate - a.rate) / math.sqrt(variance)
    return (z, math.erfc(abs(z) / math.sqrt(2)))


def welch_test(a: Mean, b: Mean) -> tuple[float, float]:
    """Welch's t statistic for ``b - a`` (unequal variances) and its two-sided p-value."""
    if a.n < 2 or b.n < 2:
        return (0.0, 1.0)
    va, vb = a.sd**2 / a.n, b.sd**2 / b.n
    if va + vb <= 0:
        return (0.0, 1.0) if a.mean == b.mean else (math.copysign(math.inf, b.mean - a.mean), 0.0)
    t = (b.mean - a.mean) / math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va**2 / (a.n - 1) + vb**2 / (b.n - 1))
    return (t, student_t_two_sided(t, df))


def student_t_two_sided(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with ``df`` degrees of freedom."""
    if math.isinf(t):
        return 0.0
    return _betainc(df / 2, 0.5, df / (df + t * t))


def _betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b) (continued fraction, Lentz's method)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    # The fraction converges fast only for x below the mean; use the symmetry I_x(a,b) = 1 - I_1-x(b,a).
    if x > (a + 1) / (a + b + 2):
        return 1.0 - _betainc(b, a, 1.0 - x)
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    fraction = d
    for m in range(1, 300):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            fraction *= c * d
        if abs(c * d - 1.0) < 1e-14:
            break
    return math.exp(log_front) * fraction / a


def differences(a: SimulationResult, b: SimulationResult) -> tuple[Difference, ...]:
    """Every figure the two results share, B minus A, each with its test."""
    rates: list[tuple[str, Rate, Rate]] = [
        ("hands ending in Kalooki", a.kalooki, b.kalooki),
        ("hands the stock ran out", a.stock_ran_out, b.stock_ran_out),
        ("abandoned hands", a.abandoned, b.abandoned),
        ("players who opened", a.opened, b.opened),
    ]
    for name in a.bot_hand_wins:
        if name in b.bot_hand_wins and len(a.bot_hand_wins) > 1:
            rates.append((f"{name}: hands won", a.bot_hand_wins[name], b.bot_hand_wins[name]))
    for seat, (rate_a, rate_b) in enumerate(zip(a.seat_game_wins, b.seat_game_wins, strict=False)):
        rates.append((f"seat {seat + 1}: games won", rate_a, rate_b))
    means: list[tuple[str, Mean, Mean]] = [
        ("turns per hand", a.turns_per_hand, b.turns_per_hand),
        ("hands per game", a.hands_per_game, b.hands_per_game),
        ("opening turn", a.opening_turn, b.opening_turn),
        ("points left per loser", a.points_per_loser, b.points_per_loser),
        ("final score spread", a.score_spread, b.score_spread),
    ]
    found: list[Difference] = []
    for metric, rate_a, rate_b in rates:
        z, p = two_proportion_test(rate_a, rate_b)
        found.append(Difference(metric, "rate", rate_a.rate, rate_b.rate, rate_b.rate - rate_a.rate, z, p))
    for metric, mean_a, mean_b in means:
        t, p = welch_test(mean_a, mean_b)
        found.append(Difference(metric, "mean", mean_a.mean, mean_b.mean, mean_b.mean - mean_a.mean, t, p))
    return tuple(found)


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
) -> Comparison:
    """Simulate ``a`` and ``b`` on the same game seeds and test each difference (B minus A).

    Rates are compared with a pooled two-proportion z-test, means with Welch's t-test (no
    equal-variance assumption), both two-sided at :data:`ALPHA`, with no correction for testing
    many figures at once: among twenty unchanged figures, one "significant" difference is what
    chance alone gives. The seeds are shared, but a changed rule changes every deal after the
    first difference, so the samples are treated as independent (which is conservative).
    ``progress`` sees both runs as one: (done, 2 * games).
    """
    check_setup(a, bots, games)
    check_setup(b, bots, games)

    def offset(done: int, total: int) -> None:
        if progress is not None:
            progress(games + done, 2 * games)

    first = simulate(
        a,
        bots,
        games,
        seed,
        workers=workers,
        max_turns=max_turns,
        max_hands=max_hands,
        progress=None if progress is None else (lambda done, total: progress(done, 2 * games)),
    )
    second = simulate(
        b, bots, games, seed, workers=workers, max_turns=max_turns, max_hands=max_hands, progress=offset
    )
    return Comparison(first, second, differences(first, second))
