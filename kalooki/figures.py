"""Every figure of a simulation as a ratio over games, for paired tests and clustered intervals.

Each figure ``simulate`` reports is a total over games divided by another total over games:
hands won by seat 2 over hands seat 2 played, turns over hands, spread over games. Keeping
the per-game numerator and denominator (:func:`unit_table`) gives, for any figure:

- a 95% interval that treats the game (or, with duplicate deals, the deal played once per
  seat rotation) as the independent unit, so hands of one game are not taken for independent
  draws and the copies of one duplicate deal are not counted as fresh evidence
  (:func:`ratio_interval`);
- a **paired** test between two runs on the same seeds: game ``i`` of one run against game
  ``i`` of the other (:func:`paired_test`). The statistic is Student's paired t on the
  linearised ratio (the delta method), from :func:`scipy.stats.ttest_rel`;
- false-discovery control over many tests at once: Benjamini-Hochberg adjusted p-values from
  :func:`scipy.stats.false_discovery_control`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Final, Literal

from kalooki.simulate import GameRecord, rotations
from kalooki.simulation_comparison import ALPHA, NOT_TESTED, SAME, UNLIKE, Difference, is_tested
from kalooki.simulation_stats import Mean, Rate, SimulationResult, wilson_interval
from kalooki.student_t import t_quantile

FDR_METHOD: Final = "Benjamini-Hochberg"

Kind = Literal["rate", "mean"]
Units = tuple[Sequence[float], Sequence[float]]
"""Per unit (game or deal): the figure's numerator and denominator."""


@dataclass(frozen=True, slots=True)
class Figure:
    """One figure: its key in ``simulate --json`` (``turns_per_hand``, ``seat_hand_wins.2``...), its name
    in plain words, whether it is a rate (shown as a percentage) or a mean, and what it counts."""

    key: str
    label: str
    kind: Kind
    meaning: str = ""


def _numpy() -> ModuleType:
    """numpy and :func:`_stats` are imported on first use: together they took longer to import than a
    short simulation takes to play, and every ``kalooki`` command imports this module, most of them
    never testing anything."""
    import numpy

    return numpy


def _stats() -> ModuleType:
    from scipy import stats

    return stats


def figures_of(bots: Sequence[str]) -> list[Figure]:
    """Every figure ``simulate`` reports for this table of bots, in report order."""
    found = [
        Figure(
            "turns_per_hand",
            "turns per hand",
            "mean",
            "every player's turns, from the deal to the hand's end",
        ),
        Figure(
            "hands_per_game", "hands per game", "mean", "hands dealt until the game ended (or --max-hands)"
        ),
        Figure("kalooki", "hands ending in Kalooki", "rate", "hands won by going out in one turn (Kalooki)"),
        Figure(
            "stock_ran_out",
            "hands the stock ran out",
            "rate",
            "hands in which the stock ran out at least once",
        ),
        Figure("reshuffles_per_hand", "reshuffles per hand", "mean", "discard piles turned into a new stock"),
        Figure("abandoned", "hands abandoned", "rate", "hands stopped at --max-turns with nobody out"),
        Figure("opened", "players who opened", "rate", "of each player's hands, those in which they opened"),
        Figure(
            "opening_turn",
            "opening turn",
            "mean",
            "the player's own turn on which they opened, among openers",
        ),
        Figure(
            "points_per_loser",
            "points left per loser",
            "mean",
            "the points of each hand left when a player went out",
        ),
        Figure(
            "score_spread", "final score spread", "mean", "highest total minus lowest at the end of each game"
        ),
    ]
    for seat in range(len(bots)):
        found.append(
            Figure(
                f"seat_hand_wins.{seat + 1}",
                f"seat {seat + 1}: hands won",
                "rate",
                f"hands seat {seat + 1} went out in, of those it played",
            )
        )
        found.append(
            Figure(
                f"seat_game_wins.{seat + 1}",
                f"seat {seat + 1}: games won",
                "rate",
                f"games seat {seat + 1} won (a shared win counts for each)",
            )
        )
    for name in sorted(set(bots)):
        found.append(
            Figure(
                f"bot_score_per_hand.{name}",
                f"{name}: score per hand",
                "mean",
                f"the points a {name} seat scores in a hand",
            )
        )
        if len(set(bots)) > 1:
            found.append(
                Figure(
                    f"bot_hand_wins.{name}", f"{name}: hands won", "rate", f"hands a {name} seat went out in"
                )
            )
            found.append(
                Figure(f"bot_game_wins.{name}", f"{name}: games won", "rate", f"games a {name} seat won")
            )
    return found


def _game_counts(record: GameRecord, bots: Sequence[str]) -> dict[str, tuple[float, float]]:
    """One game's numerator and denominator of every figure. Summed per seat, then per bot, rather
    than key by key: a plain ``simulate`` works this out for every game inside its own time."""
    played = [0] * len(bots)
    won = [0] * len(bots)
    scored = [0] * len(bots)
    turns = kalooki = ran_out = reshuffles = abandoned = 0
    player_hands = opened = opening_turns = losers = loser_points = 0
    for hand in record.hands:
        turns += hand.turns
        kalooki += hand.kalooki
        ran_out += hand.reshuffles > 0 or hand.stock_outs > 0
        reshuffles += hand.reshuffles
        abandoned += hand.end == "abandoned"
        went_out = hand.winner is not None and hand.end == "went_out"
        player_hands += len(hand.seats)
        for seat in hand.seats:
            played[seat] += 1
            won[seat] += hand.winner == seat
            scored[seat] += hand.scores[seat]
            opened_on = hand.opened_on[seat]
            if opened_on is not None:
                opened += 1
                opening_turns += opened_on
            if went_out and seat != hand.winner:
                losers += 1
                loser_points += hand.hand_points[seat]
    hands = len(record.hands)
    count: dict[str, tuple[float, float]] = {
        "hands_per_game": (hands, 1),
        "score_spread": (max(record.totals) - min(record.totals), 1),
        "turns_per_hand": (turns, hands),
        "kalooki": (kalooki, hands),
        "stock_ran_out": (ran_out, hands),
        "reshuffles_per_hand": (reshuffles, hands),
        "abandoned": (abandoned, hands),
        "opened": (opened, player_hands),
        "opening_turn": (opening_turns, opened),
        "points_per_loser": (loser_points, losers),
    }
    for seat in range(len(bots)):
        name = record.bot(bots, seat)
        game_won = seat in record.winners
        count[f"seat_game_wins.{seat + 1}"] = (game_won, 1)
        count[f"seat_hand_wins.{seat + 1}"] = (won[seat], played[seat])
        # A bot in several seats: its figures are the sums of its seats'.
        for key, top, bottom in (
            (f"bot_game_wins.{name}", game_won, 1),
            (f"bot_hand_wins.{name}", won[seat], played[seat]),
            (f"bot_score_per_hand.{name}", scored[seat], played[seat]),
        ):
            so_far = count.get(key, (0, 0))
            count[key] = (so_far[0] + top, so_far[1] + bottom)
    return count


def unit_table(
    result: SimulationResult, figures: Sequence[Figure]
) -> dict[str, tuple[list[float], list[float]]]:
    """Per figure, the numerator and denominator of each unit: a game, or with duplicate deals a deal."""
    size = rotations(result.bots) if result.duplicate else 1
    units = max(1, math.ceil(len(result.records) / size))
    table = {figure.key: ([0.0] * units, [0.0] * units) for figure in figures}
    for position, record in enumerate(result.records):
        unit = position // size
        for key, (numerator, denominator) in _game_counts(record, result.bots).items():
            if key in table:
                numerators, denominators = table[key]
                numerators[unit] += numerator
                denominators[unit] += denominator
    return table


def _linearised(units: Units) -> list[float] | None:
    """Values whose mean is the ratio and whose spread is its delta-method spread (None: no data).

    Plain Python rather than numpy: a plain ``simulate`` needs nothing else of numpy, and importing
    it took longer than these few hundred values take (within the simulation's own time)."""
    numerator, denominator = units
    total = math.fsum(denominator)
    if not len(denominator) or total <= 0:
        return None
    scale = total / len(denominator)
    ratio = math.fsum(numerator) / total
    return [
        ratio + (top - ratio * bottom) / scale for top, bottom in zip(numerator, denominator, strict=True)
    ]


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values)


def _mean_and_spread(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the sample standard deviation (0 for a single value)."""
    centre = _mean(values)
    if len(values) < 2:
        return centre, 0.0
    return centre, math.sqrt(math.fsum((value - centre) ** 2 for value in values) / (len(values) - 1))


def ratio_interval(units: Units, kind: Kind, copies: int = 1) -> tuple[float, float]:
    """A 95% Student-t interval for the ratio, the unit being independent (rates kept within 0-1).

    A rate whose units show no spread (one deal only, or 0% or 100% in every deal) would get an
    interval of zero width, certainty from nothing: it gets Wilson's instead, over the trials of
    one copy of each unit (``copies``: games per unit), so no deal is counted twice.
    """
    linear = _linearised(units)
    if linear is None:
        return (0.0, 0.0)
    centre, spread = _mean_and_spread(linear)
    if kind == "rate" and spread <= 1e-12:
        numerator, denominator = units
        return wilson_interval(math.fsum(numerator) / copies, math.fsum(denominator) / copies)
    if len(linear) < 2:
        return (centre, centre)
    half = t_quantile(1 - ALPHA / 2, len(linear) - 1) * spread / math.sqrt(len(linear))
    low, high = centre - half, centre + half
    return (max(0.0, low), min(1.0, high)) if kind == "rate" else (low, high)


@dataclass(frozen=True, slots=True)
class PairedTest:
    """B minus A for one figure over paired units, with Student's paired t and its two-sided p-value."""

    a: float
    b: float
    difference: float
    statistic: float
    p_value: float
    test: str = "paired t"
    """What gave the p-value: Student's paired t, the exact sign test when every pair moved alike,
    :data:`SAME` when no pair moved, or :data:`NOT_TESTED`."""
    no_data: tuple[str, ...] = ()
    """The runs with no data for the figure ("a", "b"): nobody opened, nobody went out..."""
    interval: tuple[float, float] | None = None
    """The 95% paired-t interval of the difference; None where no t-test was made."""

    @property
    def tested(self) -> bool:
        return is_tested(self.test)


def paired_test(a: Units, b: Units) -> PairedTest:
    """Test a figure's difference between two runs on the same seeds, unit ``i`` against unit ``i``."""
    linear_a, linear_b = _linearised(a), _linearised(b)
    value_a = _mean(linear_a) if linear_a is not None else 0.0
    value_b = _mean(linear_b) if linear_b is not None else 0.0
    if linear_a is None or linear_b is None or len(linear_a) != len(linear_b) or len(linear_a) < 2:
        # A mean of nothing is no 0 to test against, and one pair has no spread: no test was made.
        missing = tuple(side for side, linear in (("a", linear_a), ("b", linear_b)) if linear is None)
        return PairedTest(value_a, value_b, value_b - value_a, 0.0, 1.0, NOT_TESTED, missing)
    np = _numpy()
    gaps = np.asarray(linear_b) - np.asarray(linear_a)
    if not np.any(abs(gaps) > 1e-12):
        # No pair moved (most often: none happened in either run): t is 0 / 0, and a p of 1 counted
        # in the family would make every real test's adjusted p larger.
        return PairedTest(value_a, value_b, value_b - value_a, 0.0, 1.0, SAME)
    if float(gaps.std(ddof=1)) <= 1e-12:
        # Every pair moved by the same amount: t is infinite, and its p of 0 would call two games proof.
        # The exact sign test is what the pairs show: all n moved one way, p = 2 / 2**n, two-sided.
        sign_p = min(1.0, 2.0 * 0.5 ** len(gaps))
        statistic = math.copysign(math.inf, gaps.mean())
        return PairedTest(value_a, value_b, value_b - value_a, statistic, sign_p, "sign")
    outcome = _stats().ttest_rel(linear_b, linear_a)
    # How large the change may be, not only whether it is there: an unmarked figure over few games can
    # still have moved by much, and its interval says so where "differs" is silent.
    low, high = outcome.confidence_interval(1 - ALPHA)
    return PairedTest(
        value_a,
        value_b,
        value_b - value_a,
        float(outcome.statistic),
        float(outcome.pvalue),
        interval=(float(low), float(high)),
    )


SCORE_KEYS: Final = ("score_spread", "bot_score_per_hand.")
"""The figures (and the prefix of those per bot) that count points as the variant scores them."""


def paired_tests(
    figures: Sequence[Figure],
    table_a: Mapping[str, Units],
    table_b: Mapping[str, Units],
    a: SimulationResult,
    b: SimulationResult,
) -> list[PairedTest]:
    """Each figure's :func:`paired_test`, B's units against A's; where A and B score differently (penalty
    and winner_collects), the figures that count their scores are said but not tested (:data:`UNLIKE`):
    a penalty's points are no measure of winnings, and a t-test of them would mark a 'difference'."""
    unlike = a.rules.get("scoring") != b.rules.get("scoring")
    tests = []
    for figure in figures:
        test = paired_test(table_a[figure.key], table_b[figure.key])
        if unlike and figure.key.startswith(SCORE_KEYS):
            test = replace(test, statistic=0.0, p_value=1.0, test=UNLIKE, interval=None)
        tests.append(test)
    return tests


def difference(figure: Figure, test: PairedTest, adjusted_p: float) -> Difference:
    """The tested difference of one figure, as ``simulate --compare`` and ``sweep`` report it."""
    return Difference(
        figure.label,
        figure.kind,
        test.a,
        test.b,
        test.difference,
        test.statistic,
        test.p_value,
        adjusted_p,
        figure.key,
        test.test,
        test.no_data,
        test.interval,
    )


def adjust_p_values(p_values: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values: rejecting those under ALPHA keeps the false discovery
    rate of the whole set at ALPHA."""
    if not p_values:
        return []
    adjusted = _stats().false_discovery_control(_numpy().asarray(p_values, dtype=float), method="bh")
    return [float(value) for value in adjusted]


def adjust_tests(tests: Sequence[PairedTest]) -> list[float]:
    """The adjusted p-value of each test, the family being the tests made: a figure with nothing to
    test is no test, and counted as one it would make every real one's p larger (its own stays 1)."""
    made = iter(adjust_p_values([test.p_value for test in tests if test.tested]))
    return [next(made) if test.tested else 1.0 for test in tests]


# ---------------------------------------------------------------- duplicate deals in simulate's result


def with_unit_intervals(result: SimulationResult) -> SimulationResult:
    """The result with its intervals taken over units rather than hands: with duplicate deals every one
    over deals; otherwise each mean's over games, its rates keeping Wilson's (sound for rare events,
    which a t over games is not; a rate's over games was within 3% of it).

    A mean over hands or player-hands took them for independent draws, but the players of one hand
    open late together in a slow hand, and are caught with much together: the opening turn's
    interval was 27% too narrow (classic, greedy: means of 24 runs of 80 games spread 0.147 against
    0.104 claimed; 0.137 over games), points left per loser's 13%."""
    if not result.duplicate and len(result.records) < 2:
        return result  # one game: its hands are all there is to go on
    figures = figures_of(result.bots)
    table = unit_table(result, figures)
    kinds = {figure.key: figure.kind for figure in figures}
    copies = rotations(result.bots) if result.duplicate else 1

    def rate(key: str, value: Rate) -> Rate:
        if not result.duplicate:
            return value
        return replace(value, ci=ratio_interval(table[key], kinds[key], copies)) if key in table else value

    def mean(key: str, value: Mean) -> Mean:
        return replace(value, ci=ratio_interval(table[key], "mean")) if key in table else value

    def seats(name: str, values: tuple[Rate, ...]) -> tuple[Rate, ...]:
        return tuple(rate(f"{name}.{seat + 1}", value) for seat, value in enumerate(values))

    return replace(
        result,
        seat_hand_wins=seats("seat_hand_wins", result.seat_hand_wins),
        seat_game_wins=seats("seat_game_wins", result.seat_game_wins),
        bot_hand_wins={name: rate(f"bot_hand_wins.{name}", v) for name, v in result.bot_hand_wins.items()},
        bot_game_wins={name: rate(f"bot_game_wins.{name}", v) for name, v in result.bot_game_wins.items()},
        bot_score_per_hand={
            name: mean(f"bot_score_per_hand.{name}", v) for name, v in result.bot_score_per_hand.items()
        },
        turns_per_hand=mean("turns_per_hand", result.turns_per_hand),
        hands_per_game=mean("hands_per_game", result.hands_per_game),
        kalooki=rate("kalooki", result.kalooki),
        stock_ran_out=rate("stock_ran_out", result.stock_ran_out),
        reshuffles_per_hand=mean("reshuffles_per_hand", result.reshuffles_per_hand),
        abandoned=rate("abandoned", result.abandoned),
        opened=rate("opened", result.opened),
        opening_turn=mean("opening_turn", result.opening_turn),
        points_per_loser=mean("points_per_loser", result.points_per_loser),
        score_spread=mean("score_spread", result.score_spread),
    )
