"""The simulation's statistics on fixed records: exact counts, Wilson intervals for rates, Student's t for
the means of a few values."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from kalooki.loader import load_variant
from kalooki.simulate import GameRecord, HandRecord
from kalooki.simulation_stats import Mean, Rate, summarise, wilson_interval

CLASSIC = load_variant("classic")


def hand(
    winner: int | None,
    points: tuple[int, ...],
    *,
    kalooki: bool = False,
    end: str = "went_out",
    turns: int = 20,
    opened_on: tuple[int | None, ...] = (None, None, None),
    reshuffles: int = 0,
) -> HandRecord:
    scores = tuple(0 if seat == winner else value for seat, value in enumerate(points))
    return HandRecord(
        winner=winner,
        kalooki=kalooki,
        end=end,
        turns=turns,
        seats=(0, 1, 2),
        hand_points=points,
        scores=scores,
        opened_on=opened_on,
        reshuffles=reshuffles,
        stock_outs=0,
    )


RECORDS = (
    GameRecord(
        index=0,
        seed=100,
        hands=(
            hand(0, (0, 30, 10), turns=30, opened_on=(2, 4, None)),
            hand(1, (20, 0, 40), kalooki=True, turns=12, opened_on=(None, 4, None), reshuffles=0),
        ),
        totals=(20, 30, 50),
        winners=(0,),
        finished=True,
    ),
    GameRecord(
        index=1,
        seed=101,
        hands=(
            hand(None, (5, 5, 5), end="abandoned", turns=40, opened_on=(6, None, None), reshuffles=2),
            hand(0, (0, 60, 60), turns=18, opened_on=(3, 5, 7)),
        ),
        totals=(5, 65, 65),
        winners=(0,),
        finished=False,
    ),
)


def test_summary_of_fixed_records_is_exact() -> None:
    result = summarise(CLASSIC, ["greedy", "random", "greedy"], seed=7, records=RECORDS)
    assert result.hands == 4
    assert [rate.successes for rate in result.seat_hand_wins] == [2, 1, 0]
    assert [rate.trials for rate in result.seat_hand_wins] == [4, 4, 4]
    assert [rate.successes for rate in result.seat_game_wins] == [2, 0, 0]
    assert result.bot_hand_wins["greedy"] == Rate(2, 8)
    assert result.bot_hand_wins["random"] == Rate(1, 4)
    assert result.bot_game_wins["greedy"] == Rate(2, 4)
    assert result.turns_per_hand.mean == 25.0  # (30 + 12 + 40 + 18) / 4
    assert result.hands_per_game.mean == 2.0
    assert result.kalooki == Rate(1, 4)
    assert result.stock_ran_out == Rate(1, 4)
    assert result.reshuffles_per_hand.mean == 0.5
    assert result.abandoned == Rate(1, 4)
    assert result.ends == {"abandoned": 1, "went_out": 3}
    assert result.opened == Rate(7, 12)
    assert result.opening_turn.mean == pytest.approx(31 / 7)  # 2+4+4+6+3+5+7
    # Losers of hands someone went out of: 30, 10 | 20, 40 | 60, 60 (the abandoned hand has none).
    assert result.points_per_loser.mean == pytest.approx(220 / 6)
    assert result.score_spread.mean == 45.0  # (50 - 20 + 65 - 5) / 2
    assert result.unfinished_games == 1
    # Scores per hand by bot: greedy sits in seats 0 and 2.
    assert result.bot_score_per_hand["random"].mean == pytest.approx((30 + 0 + 5 + 60) / 4)


def test_wilson_interval_known_values() -> None:
    low, high = wilson_interval(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson_interval(0, 10)
    assert low == 0.0
    assert round(high, 4) == 0.2775
    assert wilson_interval(0, 0) == (0.0, 0.0)


def test_mean_sd_is_finite() -> None:
    assert math.isfinite(Mean.of([1.0, 2.0, 3.0]).sd)


@pytest.mark.parametrize(
    ("values", "quantile"),
    # Student's t, 97.5th percentile, from tables: 1 and 2 degrees of freedom.
    [([101.0, 103.0], 12.706204736174698), ([101.0, 102.0, 103.0], 4.302652729749464)],
)
def test_a_mean_of_a_few_values_gets_students_t_interval(values: list[float], quantile: float) -> None:
    """Two values and their sample sd: the normal quantile (1.96) would claim 95% for a 50% interval."""
    mean = Mean.of(values)
    half = quantile * mean.sd / math.sqrt(len(values))
    assert mean.interval == pytest.approx((102.0 - half, 102.0 + half), rel=1e-9)
    assert Mean.of([4.0]).interval == (4.0, 4.0)


def test_a_mean_of_counts_has_no_interval_below_zero() -> None:
    """One reshuffle in 955 hands: Student's t reaches below 0, which no mean of counts can be."""
    reshuffles = Mean.of([1.0] + [0.0] * 954)
    low, high = reshuffles.interval
    assert low == 0.0
    assert high == pytest.approx(0.001047 + 0.002055, abs=1e-6)
    assert reshuffles.to_json()["ci95"][0] == 0.0
    # An interval taken over deals (duplicate deals) stops at 0 too; scores that may be negative do not.
    assert replace(reshuffles, ci=(-0.002, 0.004)).interval == (0.0, 0.004)
    assert Mean.of([-5.0, 3.0, 4.0]).interval[0] < -5.0
