"""Two variants simulated on the same seeds (:func:`compare`), and each figure's difference tested.

The games are played by :mod:`kalooki.simulate`, which re-exports :func:`compare` and :class:`Comparison`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final

from kalooki.driver import warn_fault
from kalooki.executors import Pool, given_or_opened
from kalooki.simulation_stats import DEFAULT_MAX_HANDS, DEFAULT_MAX_TURNS, SimulationResult
from kalooki.variant import Variant

if TYPE_CHECKING:
    from kalooki.simulate import Progress

ALPHA: Final = 0.05
"""The significance level of :func:`compare`'s tests."""

NOT_TESTED: Final = "none"
"""The test of a figure with nothing to test: no data on a side, or fewer than two pairs (p is 1)."""
SAME: Final = "same"
"""The test of a figure the same in every pair (none happened in either run, or the rule changed
nothing it counts): no difference to test (p is 1), and left out of the false discovery family."""


UNLIKE: Final = "unlike"
"""The test of a figure the two runs count differently: a score under penalty scoring (points taken,
lower is better) and under winner_collects (points won). Its difference is said, not tested (p is 1),
and left out of the false discovery family."""


def is_tested(test: str) -> bool:
    """Whether a figure's ``test`` is one that was made (and so counts in the false discovery family)."""
    return test not in (NOT_TESTED, SAME, UNLIKE)


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
    test: str = "paired t"
    """"paired t", "sign" where every pair moved by one amount (the exact sign test's p), "same" where
    every pair is alike (no difference to test), "unlike" where the runs score differently (a score is
    no measure of the other), or "none" where there was nothing to test (``no_data`` names the runs
    without data, if any)."""
    no_data: tuple[str, ...] = ()
    interval: tuple[float, float] | None = None
    """B minus A's 95% paired-t interval (before false-discovery control); None where no t-test was made."""

    @property
    def significant(self) -> bool:
        return self.tested and self.adjusted_p < ALPHA

    @property
    def tested(self) -> bool:
        return is_tested(self.test)

    def to_json(self) -> dict[str, Any]:
        return {
            "metric": self.metric,
            "key": self.key,
            "test": self.test,
            "a": round(self.a, 6),
            "b": round(self.b, 6),
            "difference": round(self.difference, 6),
            "statistic": round(self.statistic, 4) if math.isfinite(self.statistic) else str(self.statistic),
            # Six significant figures, not places: a p of 3e-12 was 0.0, which no reader can adjust again.
            "p_value": float(f"{self.p_value:.6g}"),
            "adjusted_p": float(f"{self.adjusted_p:.6g}"),
            "significant": self.significant,
            "no_data": list(self.no_data),
            "ci95": [round(end, 6) for end in self.interval] if self.interval is not None else None,
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
    from kalooki.figures import adjust_tests, difference, figures_of, paired_tests, unit_table

    shared = [figure for figure in figures_of(a.bots) if figure in figures_of(b.bots)]
    tests = paired_tests(shared, unit_table(a, shared), unit_table(b, shared), a, b)
    adjusted = adjust_tests(tests)
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
    Each faulty bot's first fault is in its run's ``faults`` and told as a
    :class:`~kalooki.driver.BotFaultWarning`, once where both runs met the same, as
    :func:`~kalooki.simulate.simulate` tells them.
    """
    # Imported here: kalooki.simulate imports this module to re-export compare.
    from kalooki.simulate import GamePlan, bot_list, play_plans

    plans = [
        GamePlan(rules, bot_list(bots), games, seed, duplicate, max_turns, max_hands) for rules in (a, b)
    ]
    for plan in plans:
        plan.check()
    started = time.perf_counter()
    with given_or_opened(pool, workers, 2 * games) as active:
        records = play_plans(active, plans, progress)
    seconds = (time.perf_counter() - started) / 2
    first, second = (
        replace(plan.summarise(played), seconds=seconds, workers=active.workers)
        for plan, played in zip(plans, records, strict=True)
    )
    for fault in dict.fromkeys(first.faults + second.faults):
        warn_fault(fault)
    return Comparison(first, second, differences(first, second))
