"""The bench's target lines: what ``make bench`` prints for each ratio an issue asks for.

``bench`` is the repository's own folder, importable because the suite runs as ``python -m pytest``
from the repository root (as ``make test`` does)."""

from __future__ import annotations

from bench import Target, interleaved


def test_a_rate_that_reaches_its_bound_is_met() -> None:
    target = Target("greedy x4 hands/s / gin_rummy games/s", 2.0, 2.0)
    assert target.met is True
    assert target.line() == "greedy x4 hands/s / gin_rummy games/s: 2  target >= 2  met"


def test_a_cost_over_its_bound_is_missed() -> None:
    target = Target("us per action ratio", 57.25, 10.0, at_least=False)
    assert target.met is False
    assert target.line() == "us per action ratio: 57.2  target <= 10  MISSED"


def test_a_condition_besides_the_bound_must_hold_too() -> None:
    target = Target("workers 2 / 1", 1.9, 1.8, holds=False, note="results DIFFER")
    assert target.met is False
    assert target.line() == "workers 2 / 1: 1.9  target >= 1.8  MISSED  (results DIFFER)"


def test_a_figure_not_measured_is_neither_met_nor_missed() -> None:
    target = Target("random x4 hands/s / gin_rummy games/s", None, 1.0, note="OpenSpiel not installed")
    assert target.met is None
    assert target.to_json() == {
        "figure": "random x4 hands/s / gin_rummy games/s",
        "value": None,
        "target": ">= 1",
        "met": None,
        "note": "OpenSpiel not installed",
        "line": "random x4 hands/s / gin_rummy games/s: not measured  target >= 1  not measured"
        "  (OpenSpiel not installed)",
    }


def test_repeats_are_taken_in_turn() -> None:
    order: list[str] = []

    def measure(name: str) -> str:
        order.append(name)
        return f"{name}{order.count(name)}"

    rounds = interleaved({"a": lambda: measure("a"), "b": lambda: measure("b")}, 3)
    assert order == ["a", "b", "a", "b", "a", "b"]
    assert rounds == {"a": ["a1", "a2", "a3"], "b": ["b1", "b2", "b3"]}


def test_per_call_figures_are_judged_without_the_clock_reads() -> None:
    """A call of a microsecond or two is timed with about as much again in clock reads: the
    figures the targets judge take out the median of a call that does nothing, timed alike."""
    from bench.solver_bench import CLOCK, net

    timed = {
        CLOCK: {"cpu_median_us": 1.2},
        "kalooki": {"cpu_median_us": 5.09, "cpu_p99_us": 68.2},
        "openspiel": {"cpu_median_us": 2.48},
    }
    assert net(timed, "kalooki", "median") == 3.89
    assert net(timed, "kalooki", "p99") == 67.0
    assert net(timed, "openspiel", "median") == 1.28


def test_the_clock_is_timed_in_the_same_blocks_as_the_calls() -> None:
    from bench.solver_bench import CLOCK, time_interleaved

    seen: list[list[int]] = []
    timed = time_interleaved([[card] for card in range(300)], lambda: {"seen": seen.append}, repeats=1)
    assert set(timed) == {CLOCK, "seen"}
    assert seen[200:] == [[card] for card in range(300)]  # after warming on the first 200
    assert len(timed[CLOCK]["rounds"]) == 1
