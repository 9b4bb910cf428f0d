"""Intervals over units (deals, with duplicate deals) where the units show no spread."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from kalooki.figures import figures_of, ratio_interval, unit_table
from kalooki.loader import load_variant
from kalooki.simulate import simulate
from kalooki.simulation_stats import wilson_interval

# Wilson's 95% interval, worked by hand from its formula with z = 1.959963984540054.
WILSON_1_OF_3 = (0.06149194472039621, 0.7923403991979522)
WILSON_0_OF_13_5 = (0.0, 0.22151878111373122)


def test_a_rate_from_one_deal_gets_wilsons_interval_over_one_copy() -> None:
    """One deal, two copies: 2 wins in 6 hands is 1 in 3 per copy, not 33.3% for certain."""
    units = (np.array([2.0]), np.array([6.0]))
    assert ratio_interval(units, "rate", copies=2) == pytest.approx(WILSON_1_OF_3, rel=1e-12)


def test_a_rate_of_nought_in_every_deal_is_not_nought_for_certain() -> None:
    units = (np.zeros(3), np.array([9.0, 10.0, 8.0]))
    assert ratio_interval(units, "rate", copies=2) == pytest.approx(WILSON_0_OF_13_5, rel=1e-12)
    everything = (np.array([9.0, 10.0, 8.0]), np.array([9.0, 10.0, 8.0]))
    low, high = ratio_interval(everything, "rate", copies=2)
    assert (low, high) == (pytest.approx(1 - WILSON_0_OF_13_5[1], rel=1e-12), 1.0)


def test_a_mean_and_a_spread_rate_keep_students_t_over_units() -> None:
    # Linearised values 0.2, 0.3 and 0.4 (the denominators are equal): t with 2 degrees of freedom.
    units = (np.array([2.0, 3.0, 4.0]), np.array([10.0, 10.0, 10.0]))
    half = 4.302652729749464 * 0.1 / np.sqrt(3)
    assert ratio_interval(units, "rate") == pytest.approx((0.3 - half, 0.3 + half), rel=1e-9)
    assert ratio_interval((np.array([5.0]), np.array([2.0])), "mean") == (2.5, 2.5)


def test_duplicate_rates_of_a_single_deal_have_width() -> None:
    bots = ["expert", "greedy", "expert", "greedy"]
    result = simulate(load_variant("classic"), bots, 2, seed=3, workers=1, duplicate=True)
    for rate in (*result.seat_hand_wins, *result.seat_game_wins, result.kalooki, result.abandoned):
        low, high = rate.interval
        assert low <= rate.rate <= high
        assert high - low > 0.1


@pytest.mark.parametrize("trials", [3, 6, 7, 13.5])
def test_wilsons_interval_holds_a_rate_of_nought_or_all(trials: float) -> None:
    assert wilson_interval(0, trials)[0] == 0.0
    assert wilson_interval(trials, trials)[1] == 1.0


def test_a_means_interval_is_over_games_and_a_rates_stays_wilsons() -> None:
    """The players of one hand open late together in a slow hand: over player-hands taken for independent
    draws, the opening turn's interval was 27% too narrow (0.104 claimed where runs spread 0.147)."""
    result = simulate(load_variant("classic"), ["greedy"] * 4, 6, seed=2, workers=1)
    table = unit_table(result, figures_of(result.bots))
    for key in ("opening_turn", "points_per_loser", "turns_per_hand"):
        assert getattr(result, key).interval == pytest.approx(ratio_interval(table[key], "mean"), rel=1e-12)
    over_openers = replace(result.opening_turn, ci=None).interval  # Student's t over the openers alone
    assert result.opening_turn.interval != pytest.approx(over_openers)
    assert result.opened.interval == wilson_interval(result.opened.successes, result.opened.trials)
    one = simulate(load_variant("classic"), ["greedy"] * 4, 1, seed=2, workers=1)
    low, high = one.turns_per_hand.interval
    assert low < one.turns_per_hand.mean < high  # one game: its hands are all there is to go on
