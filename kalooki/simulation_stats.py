"""What a simulation measured: rates and means with their 95% intervals, and :class:`SimulationResult`,
counted from the games' records by :func:`summarise`.

Statistics (see :mod:`kalooki.simulation_comparison` for the tests):

- a rate is ``successes / trials`` with a Wilson score interval, which stays inside 0-1 and is
  honest for small counts and rates near 0 or 1;
- per-bot rates pool every seat the bot sits in; a hand counts as a trial for each seat
  playing it, so an abandoned hand is a trial that nobody wins; a game won jointly (a tie)
  is a win for each of the tied seats;
- a rate's hands (or player-hands) are treated as independent, which they nearly are (each hand is a
  new deal) but not quite (the seat that starts moves round, eliminations change the table); a
  mean's interval here is over its values, and a simulation's takes it over games, since the players
  of one hand are not independent; with duplicate deals, whose copies are not independent at all,
  every interval is taken over deals (:func:`kalooki.figures.with_unit_intervals`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from kalooki.engine import DEFAULT_TURN_LIMIT
from kalooki.stalls import stalled_hands
from kalooki.student_t import t_quantile
from kalooki.variant import Variant

if TYPE_CHECKING:
    from kalooki.driver import BotFault
    from kalooki.simulate import GameRecord

# The limits a simulation plays under live with the result that reports them, so that kalooki.simulate
# (which plays) and kalooki.simulation_comparison both take them from here.
DEFAULT_MAX_TURNS: Final = DEFAULT_TURN_LIMIT
"""Turns (all players together) after which a hand is stopped: the engine's own limit, as for any game."""

DEFAULT_MAX_HANDS: Final = 200
"""Hands after which a game that has not reached its goal is stopped."""

Z95: Final = 1.959963984540054
"""The normal quantile for a two-sided 95% interval."""


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
    """The mean of ``n`` values with their sample standard deviation (0 for fewer than two), with a 95%
    Student-t interval."""

    n: int
    mean: float
    sd: float
    ci: tuple[float, float] | None = field(default=None, compare=False)
    """An interval computed elsewhere (over deals, for duplicate deals) in place of the normal one."""
    nonnegative: bool = field(default=False, compare=False)
    """No value is below zero (turns, reshuffles, points): the interval stops at 0, as a rate's stays in
    0-1. It covers the true mean exactly as often, which is no less than 0."""

    @staticmethod
    def of(values: Sequence[float]) -> Mean:
        n = len(values)
        if not n:
            return Mean(0, 0.0, 0.0)
        mean = math.fsum(values) / n
        var = math.fsum((value - mean) ** 2 for value in values) / (n - 1) if n > 1 else 0.0
        return Mean(n, mean, math.sqrt(var), nonnegative=min(values) >= 0)

    @property
    def interval(self) -> tuple[float, float]:
        """A Student-t 95% interval for the mean: the normal quantile's would claim 95% for a mean of
        two or three values while covering the truth barely 70-85% of the time. A mean of reshuffles per
        hand, 1 in 955 hands, read 0.00105 [-0.00101, 0.0031] before it stopped at 0."""
        low, high = self._interval()
        return (max(0.0, low), high) if self.nonnegative else (low, high)

    def _interval(self) -> tuple[float, float]:
        if self.ci is not None:
            return self.ci
        if self.n < 2:
            return (self.mean, self.mean)
        half = t_quantile(0.975, self.n - 1) * self.sd / math.sqrt(self.n)
        return (self.mean - half, self.mean + half)

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "n": self.n,
            "mean": round(self.mean, 6),
            "sd": round(self.sd, 6),
            "ci95": [round(low, 6), round(high, 6)],
        }


def wilson_interval(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (0-1); (0, 0) for no trials. ``trials`` may be a
    fraction: the trials of one copy of a duplicate deal, averaged over its copies."""
    if trials <= 0:
        return (0.0, 0.0)
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(max(0.0, p * (1 - p) / trials + z2 / (4 * trials * trials))) / denominator
    # At 0% and 100% one end is exactly the rate: rounding left it a hair inside (5.6e-17 for 0 of 3),
    # an interval that did not hold its own estimate.
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)


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

    @property
    def faults(self) -> tuple[BotFault, ...]:
        """Each faulty bot's first fault in the run, in the order the games were played: a bot whose moves
        were replaced by safe ones (``kalooki simulate`` tells them on stderr)."""
        first: dict[str, BotFault] = {}
        for record in self.records:
            for fault in record.faults:
                first.setdefault(fault.bot, fault)
        return tuple(first.values())

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
